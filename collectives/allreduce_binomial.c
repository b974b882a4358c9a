/*
 * allreduce_binomial.c - all-reduce as a reduction to rank 0 followed by a
 * broadcast from it, both on binomial trees.
 *
 * Source: Grama et al., sec. 4.3 ("reduce then broadcast").
 * Cost:   T(p, m) = 2 ceil(log2 p)(ts + tw*m)
 * Steps:  reduce_binomial.c to rank 0, then bcast_binomial.c from it.
 *         Scratch: none (each vector is combined where its message lies).
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	int rc;

	rc = vp__reduce_binomial_view(&a->v, a->rbuf, a->rbuf, a->count,
				      a->type, a->rop);
	if (!rc)
		rc = vp__bcast_binomial_view(&a->v, a->rbuf, a->bytes);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return 2 * k->L * k->u;
}

const struct coll_algorithm vp__alg_allreduce_binomial = {
	.op = VP_COLL_ALLREDUCE,
	.alg = VP_ALG_BINOMIAL,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ALL,
	.input = INPUT_IN_RBUF,
	.cost = cost,
};
