/*
 * gather_neighbour.c - gather between neighbours only (strict mode), the
 * scatter of scatter_neighbour.c run backwards: on a chain
 * (chain_scatter.c), or up every column to the root's row and then along
 * it with items of a whole column's blocks.
 *
 * Source: Grama et al., sec. 4.4 (gather as the dual of scatter),
 *         store-and-forward.
 * Cost:   that of scatter_neighbour.c:
 *           chain: S(p, root, m)
 *           R x C grid, root (i, j): S(R, i, m) + S(C, j, R m)
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
	char *work = a->scratch, *items, *mine, *out = a->rbuf;
	int ri, x, y, rc;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_CHAIN) {
		vp__view_all(&v, a->c, 0);
		return vp__chain_gather_view(&v, l.wrap, a->root, a->sbuf,
					     a->rbuf, b, work);
	}
	cb = (size_t)l.rows * b;
	items = work;
	mine = work + all;
	ri = a->root / l.cols;
	vp__grid_views(a, &l, &row, &col);
	rc = vp__chain_gather_view(&col, l.wrap, ri, a->sbuf, mine, b,
				   work + 2 * all);
	if (!rc && a->r / l.cols == ri)
		rc = vp__chain_gather_view(&row, l.wrap, a->root % l.cols, mine,
					   items, cb, work + 2 * all);
	if (!rc && a->r == a->root)
		for (x = 0; x < l.cols; x++)
			for (y = 0; y < l.rows; y++)
				memcpy(out + ((size_t)y * l.cols + x) * b,
				       items + x * cb + (size_t)y * b, b);
	return rc;
}

const struct coll_algorithm vp__alg_gather_neighbour = {
	.op = VP_COLL_GATHER,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.scratch = scratch,
	.cost = vp__cost_scatter_neighbour,
};
