/*
 * bcast_linear.c - one-to-all broadcast: the root sends to every rank.
 *
 * Source: the flat (linear) broadcast: the root sends to each rank in turn
 *         (Chan, Heimlich, Purkayastha, van de Geijn 2007).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)            m = bytes per rank
 * Steps:  p - 1; the root sends to root+1, root+2, ... in turn; scratch: none.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__bcast_linear(const struct coll *a)
{
	struct view v;
	int j, rc;

	vp__view_all(&v, a->c, a->root);
	if (v.me != 0)
		return vp__vrecv(&v, 0, a->rbuf, a->bytes);
	for (j = 1; j < v.n; j++)
		if ((rc = vp__vsend(&v, j, a->rbuf, a->bytes)))
			return rc;
	return VP_OK;
}

/* The cost above, for vp_coll_formula. */
double vp__cost_bcast_linear(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return (k->P - 1) * k->u;
}

const struct coll_algorithm vp__alg_bcast_linear = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_LINEAR,
	.run = vp__bcast_linear,
	.needs = NEED_ANY,
	.cost = vp__cost_bcast_linear,
};
