/*
 * scatter_neighbour.c - scatter between neighbours only (strict mode): on
 * a chain (chain_scatter.c: each side one message that shrinks by an item
 * a hop); on a grid along the root's row with items of a whole column's
 * blocks, then down every column.
 *
 * Source: Grama et al., sec. 4.4 (scatter; on a mesh along the row, then
 *         the columns), store-and-forward.
 * Cost:   with S(n, root, c) = vp__chain_scatter_time for items of c
 *         bytes (chain_scatter.c):
 *           chain: S(p, root, m)
 *           R x C grid, root (i, j): S(C, j, R m) + S(R, i, m)
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

/* The grid's row items, their copy and the chains' scratch: 3p blocks. */
static size_t scratch(const struct coll *a)
{
	return 3 * (size_t)a->p * a->bytes;
}

static int run(const struct coll *a)
{
	struct layout l;
	struct view v, row, col;
	size_t b = a->bytes, all = (size_t)a->p * b, cb;
	const char *in = a->sbuf;
	char *work = a->scratch, *items, *mine;
	int ri, x, y, rc = VP_OK;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_CHAIN) {
		vp__view_all(&v, a->c, 0);
		return vp__chain_scatter_view(&v, l.wrap, a->root, in, a->rbuf,
					      b, work);
	}
	/* items of the row phase: column x's blocks in row order */
	cb = (size_t)l.rows * b;
	items = work;
	mine = work + all;
	ri = a->root / l.cols;
	vp__grid_views(a, &l, &row, &col);
	if (a->r == a->root)
		for (x = 0; x < l.cols; x++)
			for (y = 0; y < l.rows; y++)
				memcpy(items + x * cb + (size_t)y * b,
				       in + ((size_t)y * l.cols + x) * b, b);
	if (a->r / l.cols == ri)
		rc = vp__chain_scatter_view(&row, l.wrap, a->root % l.cols,
					    items, mine, cb, work + 2 * all);
	if (!rc)
		rc = vp__chain_scatter_view(&col, l.wrap, ri, mine, a->rbuf, b,
					    work + 2 * all);
	return rc;
}

double vp__cost_scatter_neighbour(const struct coll_cost *k, int *exact)
{
	const struct layout *l = &k->lay;
	double twm = k->tw * k->m;

	(void)exact;
	if (l->kind == LAYOUT_CHAIN)
		return vp__chain_scatter_time(k->p, l->wrap, k->root, k->ts,
					      twm);
	return vp__chain_scatter_time(l->cols, l->wrap, k->root % l->cols,
				      k->ts, twm * l->rows) +
	       vp__chain_scatter_time(l->rows, l->wrap, k->root / l->cols,
				      k->ts, twm);
}

const struct coll_algorithm vp__alg_scatter_neighbour = {
	.op = VP_COLL_SCATTER,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.scratch = scratch,
	.cost = vp__cost_scatter_neighbour,
};
