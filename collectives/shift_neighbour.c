/*
 * shift_neighbour.c - circular q-shift of the rank order between
 * neighbours only (strict mode): on a chain (chain_shift.c), on a grid a
 * row shift and a column shift that carries the wrapped blocks one row
 * further (shift_mesh.c's phases), and on a hypercube dimension by
 * dimension.
 *
 * Source: Grama et al., sec. 4.6 (circular shift on a ring and a mesh;
 *         on a hypercube the E-cube route of sec. 4.6.2, eq. 9, taken
 *         one link at a time: store-and-forward).
 * Cost:   chain: (ts + tw*m) min(q, p - q) on a ring, (ts + tw*m) p on a
 *         line (0 < q < p).
 *         grid: rows by b = q mod C, columns by a = q div C or a + 1:
 *         (F(C, b) + max(F(R, a), F(R, a + 1) if b > 0))(ts + tw*m) with
 *         F the chain's steps.
 *         hypercube: in dimension d, the block at node x came from the
 *         node with x's bits above d and the low d bits of x - q; it
 *         crosses dimension d where bit d of its destination differs from
 *         x's, and then so does its partner's (the nodes' contents stay a
 *         permutation), so the pair swaps in one step of ts + tw*m. T is
 *         the last swap's end: each swap starts when both nodes are free,
 *         at most log2 p steps; computed by that recurrence.
 * Needs:  the world of a ring, line, fully connected, mesh, torus or
 *         hypercube topology.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

/* The origin of the block node x holds before dimension d. */
static long held_origin(long x, int d, long q, long p)
{
	long low = (1L << d) - 1;

	return (x & ~low) | ((x - q + p) & low);
}

/* 1 if the pair across dimension d at node x swaps blocks. */
static int swaps(long x, int d, long q, long p)
{
	long dest = (held_origin(x, d, q, p) + q) % p;

	return ((dest ^ x) >> d) & 1;
}

static int run_cube(const struct coll *a)
{
	long p = a->p, x = a->r;
	char *cur = a->rbuf, *other = a->scratch;
	int d, rc;

	vp__copy(a->rbuf, a->sbuf, a->bytes);
	for (d = 0; (1L << d) < p; d++) {
		if (!swaps(x, d, a->q, p))
			continue;
		rc = vp_sendrecv(a->c, (int)(x ^ (1L << d)), cur, a->bytes,
				 (int)(x ^ (1L << d)), other, a->bytes);
		if (rc)
			return rc;
		memcpy(cur, other, a->bytes);
	}
	return VP_OK;
}

static size_t scratch(const struct coll *a)
{
	return 3 * a->bytes;
}

static int run(const struct coll *a)
{
	struct layout l;
	struct view v;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_CUBE)
		return run_cube(a);
	if (l.kind == LAYOUT_GRID)
		return vp__shift_grid(a, l.rows, l.cols, l.wrap);
	vp__copy(a->rbuf, a->sbuf, a->bytes);
	vp__view_all(&v, a->c, 0);
	return vp__chain_shift_view(&v, l.wrap, a->rbuf, a->bytes, a->q,
				    a->scratch);
}

/* The hypercube's time in steps: each node's clock, swap by swap. */
static double cube_steps(long p, long q)
{
	double *t = calloc((size_t)p, sizeof(*t)), end = 0, s;
	long x, y;
	int d;

	if (!t)
		return -1;
	for (d = 0; (1L << d) < p; d++)
		for (x = 0; x < p; x++) {
			y = x ^ (1L << d);
			if (x < y && swaps(x, d, q, p)) {
				s = (t[x] > t[y] ? t[x] : t[y]) + 1;
				t[x] = t[y] = s;
			}
		}
	for (x = 0; x < p; x++)
		end = t[x] > end ? t[x] : end;
	free(t);
	return end;
}

static double cost(const struct coll_cost *k, int *exact)
{
	const struct layout *l = &k->lay;
	double steps;

	if (l->kind == LAYOUT_CUBE) {
		steps = cube_steps(k->p, k->q);
		if (steps < 0)
			*exact = 0;
		return steps * k->u;
	}
	if (l->kind == LAYOUT_GRID)
		return vp__shift_grid_steps(k->q, l->rows, l->cols, l->wrap) *
		       k->u;
	return vp__chain_shift_steps(k->p, l->wrap, k->q) * k->u;
}

const struct coll_algorithm vp__alg_shift_neighbour = {
	.op = VP_COLL_SHIFT,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT_OR_CUBE,
	.scratch = scratch,
	.cost = cost,
};
