/*
 * bcast_mesh.c - one-to-all broadcast on a 2-D mesh: along the root's row,
 * then down every column.
 *
 * Source: Grama et al., sec. 4.1.2 (broadcast on a mesh, Fig. 4.5).
 * Cost:   T(p, m) = (ts + tw*m)(ceil(log2 C) + ceil(log2 R))
 *         = (ts + tw*m) log2 p on a sqrt(p) x sqrt(p) mesh, p = 4^k.
 * Steps:  phase 1: binomial (recursive doubling) broadcast in the root's row
 *         of C ranks; phase 2: the same in each column of R ranks, from the
 *         root's row. Scratch: none.
 * Needs:  a grid (vp__grid): the physical mesh/torus or p a perfect square.
 * Differs from the book: rows and columns need not be powers of two
 *         (binomial trees instead of pure recursive doubling).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	int rows, cols, rc;
	const char *why;
	struct view row, col;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	/* phase 1: the root's row; member 0 is the root */
	if (a->r / cols == a->root / cols) {
		vp__view_strided(&row, a->c, (a->root / cols) * cols, 1, cols,
				 a->root % cols);
		if ((rc = vp__bcast_binomial_view(&row, a->rbuf, a->bytes)))
			return rc;
	}
	/* phase 2: my column, from the root's row */
	vp__view_strided(&col, a->c, a->r % cols, cols, rows, a->root / cols);
	return vp__bcast_binomial_view(&col, a->rbuf, a->bytes);
}

/* The cost above, for vp_coll_formula. */
double vp__cost_bcast_mesh(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return (vp__log2_ceil(k->rows) + vp__log2_ceil(k->cols)) * k->u;
}

const struct coll_algorithm vp__alg_bcast_mesh = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_MESH,
	.run = run,
	.needs = NEED_GRID,
	.cost = vp__cost_bcast_mesh,
};
