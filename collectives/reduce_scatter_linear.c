/*
 * reduce_scatter_linear.c - all-to-all reduction the naive way: reduce all
 * p blocks to rank 0 (linearly), then scatter them (linearly).
 *
 * Source: the dual of the naive gather-then-broadcast allgather.
 * Cost:   T(p, m) = (ts + tw*m*p)(p - 1) + (ts + tw*m)(p - 1)
 * Steps:  p - 1 receives of p blocks at rank 0, then p - 1 sends of one.
 *         Scratch: p blocks at rank 0 (and a copy of them elsewhere).
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

/* Scratch for run (dispatch allocates it). */
static size_t scratch(const struct coll *a)
{
	return (size_t)a->p * a->bytes;
}

static int run(const struct coll *a)
{
	size_t all = (size_t)a->p * a->bytes;
	struct coll red = *a, sc = *a;
	char *sum = a->scratch;
	int rc;

	red.root = 0;
	red.count = a->count * (size_t)a->p;
	red.bytes = all;
	red.rbuf = sum;
	rc = vp__reduce_linear(&red);
	sc.root = 0;
	sc.sbuf = sum;
	if (!rc)
		rc = vp__scatter_linear(&sc);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_scatter_linear = {
	.op = VP_COLL_REDUCE_SCATTER,
	.alg = VP_ALG_LINEAR,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.cost = vp__cost_allgather_linear,
};
