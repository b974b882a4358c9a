/*
 * reduce_mesh.c - all-to-one reduction on a 2-D mesh, the dual of
 * bcast_mesh.c: up every column to the root's row, then along that row.
 *
 * Source: Grama et al., sec. 4.1.2, mesh broadcast run backwards.
 * Cost:   T(p, m) = (ts + tw*m)(ceil(log2 R) + ceil(log2 C))
 * Steps:  phase 1: binomial reduction in each column to the root's row;
 *         phase 2: binomial reduction in the root's row to the root.
 *         Scratch: one vector off the root.
 * Needs:  a grid (vp__grid).
 * Differs from the book: rows and columns need not be powers of two.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	int rows, cols, rc;
	const char *why;
	struct view row, col;
	char *acc;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	acc = vp__reduce_acc(a, a->r == a->root);
	if (!acc)
		return VP_ENOMEM;
	/* phase 1: my column, to the root's row */
	vp__view_strided(&col, a->c, a->r % cols, cols, rows, a->root / cols);
	rc =
	    vp__reduce_binomial_view(&col, acc, acc, a->count, a->type, a->rop);
	/* phase 2: the root's row, to the root */
	if (!rc && a->r / cols == a->root / cols) {
		vp__view_strided(&row, a->c, (a->root / cols) * cols, 1, cols,
				 a->root % cols);
		rc = vp__reduce_binomial_view(&row, acc, acc, a->count, a->type,
					      a->rop);
	}
	vp__reduce_acc_free(a, acc);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_mesh = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_MESH,
	.run = run,
	.needs = NEED_GRID,
	.cost = vp__cost_bcast_mesh,
};
