/*
 * shift_ring.c - circular q-shift on a ring: the blocks move one neighbour
 * per step, the shorter way round.
 *
 * Source: Grama et al., sec. 4.6 (circular shift; on a ring each rank sends
 *         min(q, p - q) hops the shorter way).
 * Cost:   T(p, m) = (ts + tw*m) min(q, p - q)         m = bytes per block
 * Steps:  min(q, p - q); each step every rank sends its current block to
 *         the neighbour on the chosen side and takes the other
 *         neighbour's. Scratch: one block.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int vp__shift_ring_view(const struct view *v, void *buf, size_t bs, long q,
			void *tmp)
{
	int n = v->n, me = v->me, dir = q <= n - q ? 1 : -1, rc;
	long steps = dir > 0 ? q : n - q, s;
	char *cur = buf, *next = tmp, *t;

	for (s = 0; s < steps; s++) {
		rc = vp__vsendrecv(v, (me + dir + n) % n, cur, bs,
				   (me - dir + n) % n, next, bs);
		if (rc)
			return rc;
		t = cur;
		cur = next;
		next = t;
	}
	if (cur != buf)
		memcpy(buf, cur, bs);
	return VP_OK;
}

/* Scratch for run (dispatch allocates it). */
static size_t scratch(const struct coll *a)
{
	return a->bytes;
}

static int run(const struct coll *a)
{
	char *tmp = a->scratch;
	int rc;

	vp__copy(a->rbuf, a->sbuf, a->bytes);
	rc = vp__shift_ring_view(&a->v, a->rbuf, a->bytes, a->q, tmp);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return vp__shift_steps(k->q, k->p) * k->u;
}

const struct coll_algorithm vp__alg_shift_ring = {
	.op = VP_COLL_SHIFT,
	.alg = VP_ALG_RING,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.view = VIEW_ALL,
	.cost = cost,
};
