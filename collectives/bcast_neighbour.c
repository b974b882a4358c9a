/*
 * bcast_neighbour.c - one-to-all broadcast between neighbours only (strict
 * mode): along a chain both ways, or along the root's row and then down
 * every column of a grid.
 *
 * Source: Grama et al., sec. 4.1.1-4.1.2 (ring and mesh broadcast, here
 *         store-and-forward: every message one hop; chain_bcast.c).
 * Cost:   with B(n, root) = vp__chain_bcast_steps (ring ceil(n/2); line
 *         max(a, b + 1) for sides a >= b > 0, a for b = 0):
 *           chain: B(p, root)(ts + tw*m)
 *           R x C grid, root (i, j): (B(C, j) + B(R, i))(ts + tw*m)
 *         exact: a member of the root's row starts its column when it
 *         has passed the message on, never after the row's last member.
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology (a hypercube has its own: bcast_hypercube.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	struct layout l;
	struct view v, row, col;
	int ri, rc = VP_OK;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_CHAIN) {
		vp__view_all(&v, a->c, 0);
		return vp__chain_bcast_view(&v, l.wrap, a->root, a->rbuf,
					    a->bytes);
	}
	vp__grid_views(a, &l, &row, &col);
	ri = a->root / l.cols;
	if (a->r / l.cols == ri)
		rc = vp__chain_bcast_view(&row, l.wrap, a->root % l.cols,
					  a->rbuf, a->bytes);
	return rc ? rc
		  : vp__chain_bcast_view(&col, l.wrap, ri, a->rbuf, a->bytes);
}

/* Steps of the broadcast (and of its dual, the reduction) from root. */
double vp__neighbour_bcast_steps(const struct coll_cost *k)
{
	const struct layout *l = &k->lay;

	if (l->kind == LAYOUT_CHAIN)
		return vp__chain_bcast_steps(k->p, l->wrap, k->root);
	return vp__chain_bcast_steps(l->cols, l->wrap, k->root % l->cols) +
	       vp__chain_bcast_steps(l->rows, l->wrap, k->root / l->cols);
}

double vp__cost_bcast_neighbour(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return vp__neighbour_bcast_steps(k) * k->u;
}

const struct coll_algorithm vp__alg_bcast_neighbour = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.cost = vp__cost_bcast_neighbour,
};
