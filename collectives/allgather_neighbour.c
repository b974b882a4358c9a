/*
 * allgather_neighbour.c - all-to-all broadcast between neighbours only
 * (strict mode): on a chain (chain_allgather.c: the ring algorithm, or
 * both ways along a line), or rows then columns of a grid carrying whole
 * rows (allgather_mesh.c's phases with chains for rings).
 *
 * Source: Grama et al., sec. 4.2.1-4.2.2 (Algorithms 4.4 and 4.6),
 *         store-and-forward.
 * Cost:   with G(n, c) = (ts + tw*c) times n - 1 on a ring, n - 1 +
 *         ceil(n/2) on a line (chain_allgather.c):
 *           chain: G(p, m);  R x C grid: G(C, m) + G(R, C m)
 *         (on a torus ts (R + C - 2) + tw*m (p - 1), the book's mesh cost).
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology (a hypercube has its own: allgather_hypercube.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	struct layout l;
	struct view v;
	struct chunks ch;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_GRID)
		return vp__allgather_grid(a, l.rows, l.cols, l.wrap);
	ch = (struct chunks){ (size_t)a->p * a->count, a->esize, a->p };
	vp__view_all(&v, a->c, 0);
	return vp__chain_allgather_view(&v, l.wrap, a->rbuf, &ch);
}

double vp__cost_allgather_neighbour(const struct coll_cost *k, int *exact)
{
	const struct layout *l = &k->lay;

	(void)exact;
	if (l->kind == LAYOUT_CHAIN)
		return vp__chain_allgather_time(k->p, l->wrap, k->ts,
						k->tw * k->m);
	return vp__chain_allgather_time(l->cols, l->wrap, k->ts, k->tw * k->m) +
	       vp__chain_allgather_time(l->rows, l->wrap, k->ts,
					k->tw * k->m * l->cols);
}

const struct coll_algorithm vp__alg_allgather_neighbour = {
	.op = VP_COLL_ALLGATHER,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.input = INPUT_OWN_BLOCK,
	.cost = vp__cost_allgather_neighbour,
};
