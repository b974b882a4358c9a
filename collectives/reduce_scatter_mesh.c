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
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int run(const struct coll *a)
{
	size_t all = (size_t)a->p * a->bytes;
	int rows, cols, i, rc;
	const char *why;
	struct view row, col;
	struct chunks in_row, in_col;
	char *work;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	work = vp__alloc(a, all + (size_t)cols * a->bytes);
	if (!work)
		return VP_ENOMEM;
	memcpy(work, a->sbuf, all);
	i = a->r / cols;
	/* phase 1: my column reduces whole rows; I keep row i */
	in_col = (struct chunks){ (size_t)a->p * a->count, a->esize, rows };
	vp__view_strided(&col, a->c, a->r % cols, cols, rows, 0);
	rc = vp__reduce_scatter_ring_view(&col, work, &in_col, work + all,
					  a->type, a->rop);
	/* phase 2: row i reduces its C blocks; I keep mine */
	in_row = (struct chunks){ (size_t)cols * a->count, a->esize, cols };
	vp__view_strided(&row, a->c, i * cols, 1, cols, 0);
	if (!rc)
		rc = vp__reduce_scatter_ring_view(
		    &row, work + (size_t)i * cols * a->bytes, &in_row,
		    work + all, a->type, a->rop);
	if (!rc)
		memcpy(a->rbuf, work + (size_t)a->r * a->bytes, a->bytes);
	free(work);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_scatter_mesh = {
	.op = VP_COLL_REDUCE_SCATTER,
	.alg = VP_ALG_MESH,
	.run = run,
	.needs = NEED_GRID,
	.cost = vp__cost_allgather_mesh,
};
