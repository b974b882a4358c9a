/*
 * alltoall_neighbour.c - all-to-all personalized exchange between
 * neighbours only (strict mode): on a chain (chain_alltoall.c: the ring
 * algorithm, or two sweeps along a line), or rows then columns of a grid
 * with the regrouping of alltoall_mesh.c.
 *
 * Source: Grama et al., sec. 4.5.1-4.5.2 (ring and mesh), store-and-
 *         forward.
 * Cost:   with X(n, b) = vp__chain_alltoall_time for blocks of b bytes
 *         (ring (n - 1)(ts + tw*b n/2); line 2 (n - 1) ts + tw*b n (n - 1)):
 *           chain: X(p, m);  R x C grid: X(C, R m) + X(R, C m)
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology (a hypercube has its own: alltoall_hypercube.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static size_t scratch(const struct coll *a)
{
	return 2 * (size_t)a->p * a->bytes;
}

static int run(const struct coll *a)
{
	struct layout l;
	struct view v;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_GRID)
		return vp__alltoall_grid(a, l.rows, l.cols, l.wrap);
	vp__view_all(&v, a->c, 0);
	return vp__chain_alltoall_view(&v, l.wrap, a->sbuf, a->rbuf, a->bytes,
				       a->scratch);
}

static double cost(const struct coll_cost *k, int *exact)
{
	const struct layout *l = &k->lay;
	double twm = k->tw * k->m;

	(void)exact;
	if (l->kind == LAYOUT_CHAIN)
		return vp__chain_alltoall_time(k->p, l->wrap, k->ts, twm);
	return vp__chain_alltoall_time(l->cols, l->wrap, k->ts, twm * l->rows) +
	       vp__chain_alltoall_time(l->rows, l->wrap, k->ts, twm * l->cols);
}

const struct coll_algorithm vp__alg_alltoall_neighbour = {
	.op = VP_COLL_ALLTOALL,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.scratch = scratch,
	.cost = cost,
};
