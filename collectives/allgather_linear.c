/*
 * allgather_linear.c - all-to-all broadcast the naive way: gather to rank 0,
 * then broadcast the whole vector from it.
 *
 * Source: the naive allgather: gather at rank 0, then broadcast (Chan et al.
 *         2007 discuss it as the baseline).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1) + (ts + tw*m*p)(p - 1):
 *         2(p - 1) startups, the book's point against it.
 * Steps:  p - 1 receives at rank 0, then p - 1 sends of p*m bytes from it.
 *         Scratch: none.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	struct coll g = *a, b = *a;
	int rc;

	g.root = 0;
	rc = vp__gather_linear(&g);
	if (rc)
		return rc;
	b.root = 0;
	b.count = a->count * (size_t)a->p;
	b.bytes = a->bytes * (size_t)a->p;
	return vp__bcast_linear(&b);
}

/* The cost above, for vp_coll_formula. */
double vp__cost_allgather_linear(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return (k->P - 1) * k->u + (k->P - 1) * (k->ts + k->tw * k->m * k->P);
}

const struct coll_algorithm vp__alg_allgather_linear = {
	.op = VP_COLL_ALLGATHER,
	.alg = VP_ALG_LINEAR,
	.run = run,
	.needs = NEED_ANY,
	.cost = vp__cost_allgather_linear,
};
