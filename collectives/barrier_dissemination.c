/*
 * barrier_dissemination.c - barrier by dissemination (Hensgen, Finkel and
 * Manber 1988), over the public point-to-point API only.
 *
 * Source: the dissemination barrier; the same pattern as the all-to-all
 *         broadcast by recursive doubling (Grama et al., sec. 4.2.3) with
 *         empty messages.
 * Cost:   T(p) = ceil(log2 p) * ts      (zero-byte messages, th = 0)
 * Steps:  in round k = 0, 1, ... rank i sends to (i + 2^k) mod p and receives
 *         from (i - 2^k) mod p; after ceil(log2 p) rounds every rank has
 *         heard, directly or through others, from every rank.
 * Needs:  any p >= 1. In strict mode on the world of a ring, line, mesh,
 *         torus or hypercube, whose dissemination partners are not all
 *         neighbours, vp_barrier runs barrier_neighbour.c instead.
 * Differs from the book: nothing; works for p not a power of two. Under
 *         the bsp model a barrier is a superstep's end (vp_superstep),
 *         charged w + h*g + l and not as messages. Where the ranks share
 *         memory they meet at one counter instead, and the last to arrive
 *         charges every rank's model clock with these rounds' messages
 *         (vp_coll_dissemination): the model times, counts and logs are
 *         those of the messages; the messages are sent when the run is
 *         traced, a rank has requests open, the ranks are in different
 *         calls, or every rank is blocked before all arrive (they then
 *         show where).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp_barrier(vp_comm *c)
{
	vp_coll_sig sig = {
		.call = "vp_barrier", .type = -1, .op = -1, .root = -1
	};

	return vp__barrier_as(c, &sig);
}

/* A barrier checked as the collective call sig names (vp_win_fence and
 * vp_win_free are barriers too, but a rank in one of them and a rank in
 * vp_barrier are in different calls). */
int vp__barrier_as(vp_comm *c, const vp_coll_sig *sig)
{
	vp_comm *cc = vp_coll_comm(c);
	vp_model m;
	struct layout l;
	vp_topo t;
	int p, r, k, rc;

	if (!cc)
		return vp__null_comm(c, sig->call);
	if ((rc = vp_coll_begin(c, sig)))
		return rc;
	p = vp_size(cc);
	r = vp_rank(cc);
	vp_model_of(cc, &m);
	if (m.kind == VP_MODEL_BSP) /* a barrier is a superstep's end */
		return vp_superstep(cc);
	vp_trace_label(cc, "barrier");
	vp__layout(cc, &l, NULL);
	vp_topo_info(cc, &t);
	if (vp_strict(cc) && l.kind != LAYOUT_NONE &&
	    t.kind != VP_TOPO_FULL) {
		if ((rc = vp__barrier_neighbour(cc, &l)))
			return rc;
		return vp_superstep(cc);
	}
	/* where the ranks share memory, the rounds are charged to the model
	 * without their messages (vp_coll_dissemination); else they are sent */
	if ((rc = vp_coll_dissemination(cc)) < 0)
		return rc;
	for (k = 1; !rc && k < p; k <<= 1) {
		rc = vp_sendrecv(cc, (r + k) % p, NULL, 0, (r - k + p) % p,
				 NULL, 0);
		if (rc)
			return rc;
	}
	return vp_superstep(cc); /* counts it */
}
