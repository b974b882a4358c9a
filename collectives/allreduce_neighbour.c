/*
 * allreduce_neighbour.c - all-reduce between neighbours only (strict
 * mode): on a chain (chain_allreduce.c), or along every row and then
 * every column of a grid (after the rows every member holds its row's
 * reduction; after the columns, everyone's).
 *
 * Source: Grama et al., sec. 4.3 (all-reduce as the all-to-all broadcast
 *         pattern with constant message size, rows then columns on a
 *         mesh), store-and-forward.
 * Cost:   with A(n) = vp__chain_allreduce_steps (ring n - 1; line
 *         2 ceil(n/2)):
 *           chain: A(p)(ts + tw*m);  R x C grid: (A(C) + A(R))(ts + tw*m)
 *         With m = 0 this is the strict-mode barrier (barrier_neighbour.c).
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology (a hypercube has its own: allreduce_hypercube.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static size_t scratch(const struct coll *a)
{
	return 2 * a->bytes;
}

static int run(const struct coll *a)
{
	struct layout l;
	struct view v, row, col;
	int rc;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_CHAIN) {
		vp__view_all(&v, a->c, 0);
		return vp__chain_allreduce_view(&v, l.wrap, a->rbuf, a->scratch,
						a->count, a->type, a->rop);
	}
	vp__grid_views(a, &l, &row, &col);
	rc = vp__chain_allreduce_view(&row, l.wrap, a->rbuf, a->scratch,
				      a->count, a->type, a->rop);
	return rc ? rc
		  : vp__chain_allreduce_view(&col, l.wrap, a->rbuf, a->scratch,
					     a->count, a->type, a->rop);
}

double vp__neighbour_allreduce_steps(const struct layout *l, int p)
{
	if (l->kind == LAYOUT_CHAIN)
		return vp__chain_allreduce_steps(p, l->wrap);
	return vp__chain_allreduce_steps(l->cols, l->wrap) +
	       vp__chain_allreduce_steps(l->rows, l->wrap);
}

static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return vp__neighbour_allreduce_steps(&k->lay, k->p) * k->u;
}

const struct coll_algorithm vp__alg_allreduce_neighbour = {
	.op = VP_COLL_ALLREDUCE,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.input = INPUT_IN_RBUF,
	.scratch = scratch,
	.cost = cost,
};
