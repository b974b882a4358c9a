/*
 * shift_mesh.c - circular q-shift of the row-major order on an R x C mesh:
 * a row shift, then a column shift that also carries the blocks that
 * wrapped around their row one row further.
 *
 * Source: Grama et al., sec. 4.6.1 (circular shift on a mesh, Fig. 4.21).
 * Cost:   T = (ts + tw*m)(min(b, C - b) + max over columns of min(s, R - s))
 *         with q = aC + b and column shift s = a or a + 1;
 *         <= (ts + tw*m)(sqrt p + 1) on a square mesh.
 * Steps:  phase 1: ring shift by b in each row (block of column j moves to
 *         column j + b mod C); phase 2: in column j a ring shift by a + 1
 *         if j < b (those blocks wrapped: the book's compensating column
 *         shift) else by a. Scratch: three blocks.
 * Needs:  a grid (vp__grid).
 * Differs from the book: the compensating shift is folded into the column
 *         shift, which saves a step where a + 1 is the shorter way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

int vp__shift_grid(const struct coll *a, int rows, int cols, int wrap)
{
	int rc;
	long b, s;
	struct view row, col;
	char *tmp;

	if (!(tmp = vp__alloc(a, 3 * a->bytes)))
		return VP_ENOMEM;
	vp__copy(a->rbuf, a->sbuf, a->bytes);
	b = a->q % cols;
	s = (a->q / cols + (a->r % cols < b)) % rows;
	vp__view_strided(&row, a->c, (a->r / cols) * cols, 1, cols, 0);
	rc = vp__chain_shift_view(&row, wrap, a->rbuf, a->bytes, b, tmp);
	vp__view_strided(&col, a->c, a->r % cols, cols, rows, 0);
	if (!rc)
		rc = vp__chain_shift_view(&col, wrap, a->rbuf, a->bytes, s,
					  tmp);
	free(tmp);
	return rc;
}

static int run(const struct coll *a)
{
	int rows, cols;
	const char *why;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	return vp__shift_grid(a, rows, cols, 1);
}

double vp__shift_grid_steps(long q, int rows, int cols, int wrap)
{
	long b = q % cols, a = q / cols;
	double col = vp__chain_shift_steps(rows, wrap, a % rows), c2;

	/* the column phase of the wrapped part moves one row further */
	if (b > 0) {
		c2 = vp__chain_shift_steps(rows, wrap, (a + 1) % rows);
		if (c2 > col)
			col = c2;
	}
	return vp__chain_shift_steps(cols, wrap, b) + col;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return vp__shift_grid_steps(k->q, k->rows, k->cols, 1) * k->u;
}

const struct coll_algorithm vp__alg_shift_mesh = {
	.op = VP_COLL_SHIFT,
	.alg = VP_ALG_MESH,
	.run = run,
	.needs = NEED_GRID,
	.cost = cost,
};
