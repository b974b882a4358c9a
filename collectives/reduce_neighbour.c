/*
 * reduce_neighbour.c - all-to-one reduction between neighbours only
 * (strict mode), the broadcast of bcast_neighbour.c run backwards: along
 * a chain from both ends to the root, or up every column to the root's
 * row and then along it.
 *
 * Source: Grama et al., sec. 4.1 (reduction as the dual of broadcast),
 *         store-and-forward (chain_bcast.c).
 * Cost:   that of bcast_neighbour.c (combines are not charged):
 *           chain: B(p, root)(ts + tw*m)
 *           R x C grid, root (i, j): (B(R, i) + B(C, j))(ts + tw*m)
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	struct layout l;
	struct view v, row, col;
	char *acc, *tmp;
	int ri, rc;

	if ((rc = vp__reduce_bufs(a, a->bytes, &acc, &tmp)))
		return rc;
	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_CHAIN) {
		vp__view_all(&v, a->c, 0);
		rc = vp__chain_reduce_view(&v, l.wrap, a->root, acc, tmp,
					   a->count, a->type, a->rop);
	} else {
		vp__grid_views(a, &l, &row, &col);
		ri = a->root / l.cols;
		rc = vp__chain_reduce_view(&col, l.wrap, ri, acc, tmp, a->count,
					   a->type, a->rop);
		if (!rc && a->r / l.cols == ri)
			rc = vp__chain_reduce_view(&row, l.wrap,
						   a->root % l.cols, acc, tmp,
						   a->count, a->type, a->rop);
	}
	vp__reduce_bufs_free(a, acc, tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_neighbour = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.cost = vp__cost_bcast_neighbour,
};
