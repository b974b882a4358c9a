/*
 * superstep.c - the calls of the cost model that are not messages:
 * vp_compute (local work), vp_superstep (the end of a BSP superstep) and
 * vp_model_of.
 *
 * BSP (Valiant 1990; the variant with h = p of Solomonik's lecture notes,
 * where a superstep costs w + h*g + l): under the bsp model a message
 * costs nothing when it moves; each rank tallies its superstep's work w
 * (vp_compute) and the bytes it sent and received. The superstep's end
 * sets every rank's T to the largest T + w + h*g over the communicator's
 * ranks, plus l, h being the larger of a rank's bytes sent and received.
 *
 * The end is two rounds of dissemination (Hensgen, Finkel and Manber
 * 1988) over the communicator's runtime space, which the model does not
 * charge: the first waits until every rank has issued its one-sided
 * operations of the superstep, so that the bytes they put into this
 * rank's shared windows are all tallied; the second takes the maximum.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>

#include "runtime.h"

/* Every member of c ends with the largest v of them:
 * ceil(log2 p) rounds, in round k rank r sends to r + 2^k and takes the
 * larger of its own and what r - 2^k sent. */
static int all_max(vp_comm *c, double *v, const char *call)
{
	int p = c->group->size, r = c->rank, k, rc;
	double in;

	for (k = 1; k < p; k <<= 1) {
		if ((rc = vp__rt_send(c, (r + k) % p, v, sizeof(*v), call)) ||
		    (rc = vp__rt_recv(c, (r - k + p) % p, &in, sizeof(in),
				      call)))
			return rc;
		if (in > *v)
			*v = in;
	}
	return VP_OK;
}

int vp_superstep(vp_comm *c)
{
	struct vp__rank *me;
	struct vp__clock *k;
	const struct vp__model *m;
	double end = 0;
	uint64_t h;
	int rc;

	if ((rc = vp__enter(c, "vp_superstep")))
		return rc;
	me = c->me;
	k = &me->clock;
	vp__script_spoil(me);
	m = &me->world->model;
	k->supersteps++;
	if (m->kind != VP_MODEL_BSP)
		return VP_OK;
	if ((rc = all_max(c, &end, "vp_superstep")))
		return rc;
	k->h_recv += atomic_exchange(&me->bsp_in, 0);
	k->h_sent += atomic_exchange(&me->bsp_out, 0);
	h = k->h_sent > k->h_recv ? k->h_sent : k->h_recv;
	end = k->t + k->w + m->g * (double)h;
	if ((rc = all_max(c, &end, "vp_superstep")))
		return rc;
	k->t = end + m->l;
	k->w = 0;
	k->h_sent = k->h_recv = 0;
	return VP_OK;
}

int vp_compute(vp_comm *c, double t)
{
	int rc;

	if ((rc = vp__enter(c, "vp_compute")))
		return rc;
	if (!isfinite(t) || t < 0)
		return vp__fail(c->me, VP_EINVAL, "vp_compute",
				"work %g is not a number >= 0", t);
	vp__script_spoil(c->me);
	vp__clock_compute(&c->me->clock, &c->world->model, t);
	return VP_OK;
}

void vp_model_of(const vp_comm *c, vp_model *m)
{
	if (c && m)
		vp__model_public(&c->world->model, m);
}

vp_model_kind vp_model_kind_of(const vp_comm *c)
{
	return c ? c->world->model.kind : VP_MODEL_ALPHA_BETA;
}
