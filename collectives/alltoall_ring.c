/*
 * alltoall_ring.c - all-to-all personalized exchange on a ring: one
 * consolidated message per step travels right and drops a block at each
 * rank it reaches.
 *
 * Source: Grama et al., sec. 4.5.1 (all-to-all personalized on a ring,
 *         Fig. 4.18).
 * Cost:   T(p, m) = sum over s = 1..p-1 of (ts + tw*m (p - s))
 *         = (ts + tw*m p/2)(p - 1)                  m = bytes per block
 * Steps:  p - 1; in step s each rank sends p - s blocks to its right
 *         neighbour: first its own blocks for r+1 .. r+p-1, then what it
 *         received minus the block addressed to itself (which came from
 *         r - s). p = 4, rank 0 receives from 3: {0,1,2} keeps 0 (from 3),
 *         then {0,1} from 3 keeps 0 (from 2), then {0} (from 1).
 *         Scratch: 2(p - 1) blocks.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int vp__alltoall_ring_view(const struct view *v, const void *sbuf, void *rbuf,
			   size_t bs, void *tmp)
{
	int n = v->n, me = v->me, d, s, rc;
	const char *in = sbuf;
	char *out = rbuf, *x = tmp, *y = x + (size_t)(n - 1) * bs, *send;

	vp__copy(out + (size_t)me * bs, in + (size_t)me * bs, bs);
	for (d = 1; d < n; d++) /* blocks for me+1, me+2, ... in order */
		memcpy(x + (size_t)(d - 1) * bs,
		       in + (size_t)((me + d) % n) * bs, bs);
	send = x;
	for (s = 1; s < n; s++) {
		size_t len = (size_t)(n - s) * bs;
		/* receive into the buffer we are not sending from */
		char *recv = send >= y ? x : y;

		rc = vp__vsendrecv(v, (me + 1) % n, send, len, (me - 1 + n) % n,
				   recv, len);
		if (rc)
			return rc;
		/* the first block is mine, from me - s; the rest travel on */
		memcpy(out + (size_t)((me - s + n) % n) * bs, recv, bs);
		send = recv + bs;
	}
	return VP_OK;
}

/* Scratch for run (dispatch allocates it). */
static size_t scratch(const struct coll *a)
{
	return 2 * (size_t)(a->p - 1) * a->bytes;
}

static int run(const struct coll *a)
{
	char *tmp = a->scratch;
	int rc;

	rc = vp__alltoall_ring_view(&a->v, a->sbuf, a->rbuf, a->bytes, tmp);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return (k->P - 1) * k->ts + k->tw * k->m * k->P * (k->P - 1) / 2;
}

const struct coll_algorithm vp__alg_alltoall_ring = {
	.op = VP_COLL_ALLTOALL,
	.alg = VP_ALG_RING,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.view = VIEW_ALL,
	.cost = cost,
};
