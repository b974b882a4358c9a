/*
 * alltoall_mesh.c - all-to-all personalized exchange on an R x C mesh: ring
 * exchanges along the rows carrying groups of R blocks, a regrouping, then
 * ring exchanges along the columns carrying groups of C blocks.
 *
 * Source: Grama et al., sec. 4.5.2 (all-to-all personalized on a mesh,
 *         Fig. 4.19).
 * Cost:   T = (C - 1) ts + tw*m R C(C - 1)/2 + (R - 1) ts + tw*m C R(R - 1)/2
 *         = (2 ts + tw*m p)(sqrt p - 1) on a sqrt(p) x sqrt(p) mesh.
 * Steps:  rank (i, j) packs its blocks by destination column: group j' =
 *         blocks for (0, j'), (1, j'), ..., (R-1, j'). Phase 1: ring
 *         all-to-all in row i with groups of R blocks; group j'' received
 *         holds the blocks from (i, j'') for column j. Regroup by
 *         destination row: group i' = blocks from (i, 0..C-1) for (i', j).
 *         Phase 2: ring all-to-all in column j with groups of C blocks; the
 *         group from row i'' is the blocks from (i'', 0..C-1): rank order.
 *           2 x 2, rank 0 = (0,0): packs [0->0, 0->2 | 0->1, 0->3]; after
 *           phase 1 [0->0, 0->2 | 1->0, 1->2]; regrouped [0->0, 1->0 |
 *           0->2, 1->2]; after phase 2 [0->0, 1->0 | 2->0, 3->0].
 *         Scratch: 4p blocks (the chains' 2n groups are 2p blocks).
 * Needs:  a grid (vp__grid).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int vp__alltoall_grid(const struct coll *a, int rows, int cols, int wrap)
{
	int i = a->r / cols, j = a->r % cols, x, y, rc;
	size_t b = a->bytes, all = (size_t)a->p * b;
	const char *in = a->sbuf;
	struct view row, col;
	char *p1, *p2, *tmp;

	/* the chains' scratch: 2n groups, 2p blocks in either phase */
	p1 = vp__alloc(a, 4 * all);
	if (!p1)
		return VP_ENOMEM;
	p2 = p1 + all;
	tmp = p2 + all;
	/* pack by destination column: p1[col][row] = block for (row, col) */
	for (x = 0; x < cols; x++)
		for (y = 0; y < rows; y++)
			memcpy(p1 + ((size_t)x * rows + y) * b,
			       in + ((size_t)y * cols + x) * b, b);
	vp__view_strided(&row, a->c, i * cols, 1, cols, 0);
	rc = vp__chain_alltoall_view(&row, wrap, p1, p2, (size_t)rows * b,
				     tmp);
	if (rc)
		goto out;
	/* regroup: p1[row][col] = p2[col][row] */
	for (x = 0; x < cols; x++)
		for (y = 0; y < rows; y++)
			memcpy(p1 + ((size_t)y * cols + x) * b,
			       p2 + ((size_t)x * rows + y) * b, b);
	vp__view_strided(&col, a->c, j, cols, rows, 0);
	rc = vp__chain_alltoall_view(&col, wrap, p1, a->rbuf, (size_t)cols * b,
				     tmp);
out:
	free(p1);
	return rc;
}

static int run(const struct coll *a)
{
	int rows, cols;
	const char *why;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	return vp__alltoall_grid(a, rows, cols, 1);
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return k->ts * (k->rows + k->cols - 2) +
	       k->tw * k->m *
		   ((double)k->rows * k->cols * (k->cols - 1) / 2 +
		    (double)k->cols * k->rows * (k->rows - 1) / 2);
}

const struct coll_algorithm vp__alg_alltoall_mesh = {
	.op = VP_COLL_ALLTOALL,
	.alg = VP_ALG_MESH,
	.run = run,
	.needs = NEED_GRID,
	.cost = cost,
};
