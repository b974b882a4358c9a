/*
 * reduce_scatter_mesh.c - all-to-all reduction on an R x C mesh, the dual of
 * allgather_mesh.c: column rings reduce whole rows, then row rings reduce
 * single blocks.
 *
 * Source: all-to-all reduction as the dual of Algorithm 4.6
 *         (Grama et al., sec. 4.2.2).
 * Cost:   T = ts (R + C - 2) + tw*m (p - 1)       m = bytes per block
 * Steps:  phase 1: R - 1 ring steps of C*m bytes in each column; rank
 *         (i, j) then holds row i's C blocks summed over column j. Phase 2:
 *         C - 1 ring steps of m bytes in row i; rank (i, j) ends with block
 *         i*C + j summed over everyone. Scratch: a copy of the p blocks and
 *         C blocks.
 * Needs:  a grid (vp__grid).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int vp__reduce_scatter_grid(const struct coll *a, int rows, int cols,
			    int wrap)
{
	size_t all = (size_t)a->p * a->bytes, t1, t2;
	int i = a->r / cols, rc;
	struct view row, col;
	struct chunks in_row, in_col;
	char *work;

	in_col = (struct chunks){ (size_t)a->p * a->count, a->esize, rows };
	in_row = (struct chunks){ (size_t)cols * a->count, a->esize, cols };
	t1 = vp__chain_reduce_scatter_scratch(wrap, &in_col);
	t2 = vp__chain_reduce_scatter_scratch(wrap, &in_row);
	work = vp__alloc(a, all + (t1 > t2 ? t1 : t2));
	if (!work)
		return VP_ENOMEM;
	memcpy(work, a->sbuf, all);
	/* phase 1: my column reduces whole rows; I keep row i */
	vp__view_strided(&col, a->c, a->r % cols, cols, rows, 0);
	rc = vp__chain_reduce_scatter_view(&col, wrap, work, &in_col,
					   work + all, a->type, a->rop);
	/* phase 2: row i reduces its C blocks; I keep mine */
	vp__view_strided(&row, a->c, i * cols, 1, cols, 0);
	if (!rc)
		rc = vp__chain_reduce_scatter_view(
		    &row, wrap, work + (size_t)i * cols * a->bytes, &in_row,
		    work + all, a->type, a->rop);
	if (!rc)
		memcpy(a->rbuf, work + (size_t)a->r * a->bytes, a->bytes);
	free(work);
	return rc;
}

static int run(const struct coll *a)
{
	int rows, cols;
	const char *why;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	return vp__reduce_scatter_grid(a, rows, cols, 1);
}

const struct coll_algorithm vp__alg_reduce_scatter_mesh = {
	.op = VP_COLL_REDUCE_SCATTER,
	.alg = VP_ALG_MESH,
	.run = run,
	.needs = NEED_GRID,
	.cost = vp__cost_allgather_mesh,
};
