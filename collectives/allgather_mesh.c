/*
 * allgather_mesh.c - all-to-all broadcast on an R x C mesh: rings along the
 * rows, then rings along the columns carrying whole rows.
 *
 * Source: Grama et al., sec. 4.2.2, Algorithm 4.6.
 * Cost:   T = ts (R + C - 2) + tw*m (p - 1)
 *         = 2 ts (sqrt p - 1) + tw*m (p - 1) on a sqrt(p) x sqrt(p) mesh.
 * Steps:  phase 1: C - 1 ring steps of m bytes in each row; afterwards rank
 *         (i, j) holds row i's C blocks. Phase 2: R - 1 ring steps of C*m
 *         bytes in each column; the blocks land in rank order:
 *           3 x 3, rank (1,1): after phase 1 blocks 3,4,5; after 2: 0-8.
 *         Scratch: none.
 * Needs:  a grid (vp__grid).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__allgather_grid(const struct coll *a, int rows, int cols, int wrap)
{
	int i = a->r / cols, rc;
	struct view row, col;
	struct chunks in_row, in_col;

	/* phase 1: row i fills blocks i*C .. i*C + C - 1 */
	in_row = (struct chunks){ (size_t)cols * a->count, a->esize, cols };
	vp__view_strided(&row, a->c, i * cols, 1, cols, 0);
	rc = vp__chain_allgather_view(
	    &row, wrap, (char *)a->rbuf + (size_t)i * cols * a->bytes,
	    &in_row);
	if (rc)
		return rc;
	/* phase 2: my column passes whole rows around */
	in_col = (struct chunks){ (size_t)a->p * a->count, a->esize, rows };
	vp__view_strided(&col, a->c, a->r % cols, cols, rows, 0);
	return vp__chain_allgather_view(&col, wrap, a->rbuf, &in_col);
}

static int run(const struct coll *a)
{
	int rows, cols;
	const char *why;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	return vp__allgather_grid(a, rows, cols, 1);
}

/* The cost above, for vp_coll_formula. */
double vp__cost_allgather_mesh(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return k->ts * (k->rows + k->cols - 2) + k->tw * k->m * (k->P - 1);
}

const struct coll_algorithm vp__alg_allgather_mesh = {
	.op = VP_COLL_ALLGATHER,
	.alg = VP_ALG_MESH,
	.run = run,
	.needs = NEED_GRID,
	.input = INPUT_OWN_BLOCK,
	.cost = vp__cost_allgather_mesh,
};
