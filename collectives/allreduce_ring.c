/*
 * allreduce_ring.c - bandwidth-optimal all-reduce on a ring: ring
 * reduce-scatter of p pieces, then ring all-gather of them.
 *
 * Source: the catalogue's "ring reduce-scatter + ring allgather" row
 *         (Patarasuk and Yuan 2009; used by Horovod and NCCL).
 * Cost:   T(p, m) = 2(p - 1)(ts + tw*m/p)           p | m
 * Steps:  p - 1 reduce-scatter steps (rank i ends with piece i summed),
 *         p - 1 all-gather steps. Scratch: none (each piece is added
 *         where it lies).
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	struct chunks ch = { a->count, a->esize, a->p };
	int rc;

	rc = vp__reduce_scatter_ring_view(&a->v, a->rbuf, &ch, a->type, a->rop);
	if (!rc)
		rc = vp__allgather_ring_view(&a->v, a->rbuf, &ch, NULL);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	*exact = k->divides;
	return 2 * (k->P - 1) * (k->ts + k->tw * k->m / k->P);
}

const struct coll_algorithm vp__alg_allreduce_ring = {
	.op = VP_COLL_ALLREDUCE,
	.alg = VP_ALG_RING,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ALL,
	.input = INPUT_IN_RBUF,
	.cost = cost,
};
