/*
 * mesh.c - the 2-D mesh and the 2-D torus (Grama et al., sec. 2.4.3):
 * rows x cols ranks, rank = row * cols + col, with wraparound links on the
 * torus.
 *
 * Routing: dimension ordered (Grama et al., sec. 2.6, XY routing): along
 * the row (X, columns) first, then along the column (Y, rows); on the
 * torus each dimension the shorter way round, ties towards increasing
 * index.
 * Links: rank r's four outgoing links are indexed 4r + 0 (col + 1),
 * 4r + 1 (col - 1), 4r + 2 (row + 1), 4r + 3 (row - 1).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "kinds.h"

static int setup(struct vp__topo *t, long a, long b, const char **why)
{
	(void)why;
	t->rows = (int)a;
	t->cols = (int)b;
	t->p = (int)(a * b);
	return 0;
}

/* Signed steps from x to y along a dimension of n. */
static int steps(const struct vp__topo *t, int x, int y, int n)
{
	return t->kind == VP__TOPO_TORUS ? vp__cyclic_steps(x, y, n) : y - x;
}

static int is_neighbor(const struct vp__topo *t, int a, int b)
{
	int ra = a / t->cols, ca = a % t->cols;
	int rb = b / t->cols, cb = b % t->cols;

	return (ra == rb && vp__iabs(steps(t, ca, cb, t->cols)) == 1) ||
	       (ca == cb && vp__iabs(steps(t, ra, rb, t->rows)) == 1);
}

static int candidates(const struct vp__topo *t, int r, int *cand)
{
	int row = r / t->cols, col = r % t->cols;

	cand[0] = row * t->cols + (col - 1 + t->cols) % t->cols;
	cand[1] = row * t->cols + (col + 1) % t->cols;
	cand[2] = ((row - 1 + t->rows) % t->rows) * t->cols + col;
	cand[3] = ((row + 1) % t->rows) * t->cols + col;
	return 4;
}

static int max_hops(const struct vp__topo *t)
{
	if (t->kind == VP__TOPO_TORUS)
		return t->rows / 2 + t->cols / 2;
	return t->rows - 1 + t->cols - 1;
}

static int route(const struct vp__topo *t, int a, int b, uint64_t *links,
		 int max)
{
	int row = a / t->cols, col = a % t->cols;
	int brow = b / t->cols, bcol = b % t->cols, next, n = 0, s, dir, k;

	/* X first: move along the row to the target column. */
	s = steps(t, col, bcol, t->cols);
	dir = s > 0 ? 1 : -1;
	for (k = 0; k < vp__iabs(s); k++) {
		next = (col + dir + t->cols) % t->cols;
		vp__topo_hop(links, max, &n, row * t->cols + col,
			     row * t->cols + next);
		col = next;
	}
	/* Then Y: along the column to the target row. */
	s = steps(t, row, brow, t->rows);
	dir = s > 0 ? 1 : -1;
	for (k = 0; k < vp__iabs(s); k++) {
		next = (row + dir + t->rows) % t->rows;
		vp__topo_hop(links, max, &n, row * t->cols + col,
			     next * t->cols + col);
		row = next;
	}
	return n;
}

static int distance(const struct vp__topo *t, int a, int b)
{
	return vp__iabs(steps(t, a / t->cols, b / t->cols, t->rows)) +
	       vp__iabs(steps(t, a % t->cols, b % t->cols, t->cols));
}

static size_t link_slots(const struct vp__topo *t)
{
	return 4 * (size_t)t->nodes;
}

static size_t link_index(const struct vp__topo *t, uint64_t link)
{
	int from = vp__link_from(link), to = vp__link_to(link);

	if (to / t->cols == from / t->cols)
		return 4 * (size_t)from +
		       (to % t->cols == (from % t->cols + 1) % t->cols ? 0 : 1);
	return 4 * (size_t)from +
	       (to / t->cols == (from / t->cols + 1) % t->rows ? 2 : 3);
}

const struct vp__topo_class vp__topo_mesh = {
	.kind = VP__TOPO_MESH,
	.name = "mesh",
	.two_dims = 1,
	.setup = setup,
	.is_neighbor = is_neighbor,
	.candidates = candidates,
	.max_hops = max_hops,
	.route = route,
	.distance = distance,
	.link_slots = link_slots,
	.link_index = link_index,
};

const struct vp__topo_class vp__topo_torus = {
	.kind = VP__TOPO_TORUS,
	.name = "torus",
	.two_dims = 1,
	.wraps = 1,
	.setup = setup,
	.is_neighbor = is_neighbor,
	.candidates = candidates,
	.max_hops = max_hops,
	.route = route,
	.distance = distance,
	.link_slots = link_slots,
	.link_index = link_index,
};
