/*
 * scan_neighbour.c - inclusive prefix sums between neighbours only
 * (strict mode). On a chain: member j takes the prefix of j - 1 and
 * passes its own on. On an R x C grid in row-major rank order: prefixes
 * along every row; the last column passes the rows' totals down (row i
 * gets the sum of rows 0 .. i-1); each row's last member broadcasts that
 * sum along its row, where every member folds it in.
 *
 * Source: Grama et al., sec. 4.3 (prefix sums; the row-then-column
 *         pattern of the mesh algorithms), store-and-forward.
 * Cost:   chain: (p - 1)(ts + tw*m)
 *         grid:  (C - 1 + R - 1 + B(C, C - 1))(ts + tw*m), B of
 *         chain_bcast.c (ring ceil(C/2), line C - 1); R = 1: (C - 1) u.
 *         Row i's last member passes the sum on down before it
 *         broadcasts, so the last row is the last to start.
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology (a hypercube has its own: scan_hypercube.c).
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
	char *tmp = a->scratch, *above = tmp + a->bytes;
	int i, rc;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_CHAIN) {
		vp__view_all(&v, a->c, 0);
		return vp__chain_scan_view(&v, a->rbuf, tmp, a->count, a->type,
					   a->rop);
	}
	vp__grid_views(a, &l, &row, &col);
	i = a->r / l.cols;
	rc = vp__chain_scan_view(&row, a->rbuf, tmp, a->count, a->type, a->rop);
	if (rc || l.rows == 1)
		return rc;
	if (row.me == l.cols - 1) { /* the last column: totals go down */
		if (i > 0 && !(rc = vp__vrecv(&col, i - 1, above, a->bytes)))
			rc = vp_reduce_local(above, a->rbuf, a->count, a->type,
					     a->rop);
		if (!rc && i + 1 < l.rows)
			rc = vp__vsend(&col, i + 1, a->rbuf, a->bytes);
	}
	if (rc || i == 0)
		return rc;
	rc = vp__chain_bcast_view(&row, l.wrap, l.cols - 1, above, a->bytes);
	if (!rc && row.me != l.cols - 1)
		rc = vp_reduce_local(above, a->rbuf, a->count, a->type, a->rop);
	return rc;
}

static double cost(const struct coll_cost *k, int *exact)
{
	const struct layout *l = &k->lay;

	(void)exact;
	if (l->kind == LAYOUT_CHAIN)
		return (k->P - 1) * k->u;
	if (l->rows == 1)
		return (l->cols - 1) * k->u;
	return (l->cols - 1 + l->rows - 1 +
		vp__chain_bcast_steps(l->cols, l->wrap, l->cols - 1)) *
	       k->u;
}

const struct coll_algorithm vp__alg_scan_neighbour = {
	.op = VP_COLL_SCAN,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.input = INPUT_IN_RBUF,
	.scratch = scratch,
	.cost = cost,
};
