/*
 * reduce_direct.c - all-to-one reduction in two rounds: a direct
 * reduce-scatter of the vector's p chunks, then every rank sends its
 * reduced chunk straight to the root (a direct gather).
 *
 * Source: the two-superstep reduction of BSP, reduce-scatter then gather
 *         (Valiant 1990); the direct form of Rabenseifner's reduce
 *         (Rabenseifner 2004).
 * Cost:   bsp: 2l + 2(p - 1)(m/p) g, two supersteps (p | m);
 *         alpha-beta: 2(p - 1)(ts + tw*m/p) (an estimate).
 * Steps:  1. vp__reduce_scatter_direct_view on a copy of the input;
 *         2. rank j sends chunk j to the root, which receives p - 1.
 *         Scratch: the vector (off the root) and the largest chunk.
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
	char *acc, *tmp;
	int j, rc;

	rc = vp__reduce_bufs(a, (a->count / (size_t)a->p + 1) * a->esize,
			     &acc, &tmp);
	if (rc)
		return rc;
	rc = vp__reduce_scatter_direct_view(&a->v, acc, &ch, tmp, a->type,
					    a->rop);
	if (!rc && vp__bsp(a->c))
		rc = vp_superstep(a->c);
	if (!rc && a->r != a->root)
		rc = vp_send(a->c, a->root, acc + vp__chunk_off(&ch, a->r),
			     vp__chunk_len(&ch, a->r));
	for (j = 0; j < a->p && !rc && a->r == a->root; j++)
		if (j != a->root)
			rc = vp_recv(a->c, j, acc + vp__chunk_off(&ch, j),
				     vp__chunk_len(&ch, j));
	vp__reduce_bufs_free(a, acc, tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_direct = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_DIRECT,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ALL,
	.cost = vp__cost_direct_two_steps,
	.bsp_cost = vp__bsp_cost_two_steps,
};
