/*
 * matvec_2d.c - matrix-vector product y = A x, 2-D block partition: column
 * broadcasts of x, then row reductions of the partial products.
 *
 * Source: Grama et al., Introduction to Parallel Computing, 2nd ed.,
 *         sec. 4.1 (the example of broadcast and reduction: x on one row
 *         of the grid, broadcast down the columns, products accumulated
 *         by reductions) and sec. 8.1.2 (the block version).
 * Cost:   on a q x q grid (p = q^2), b = n/q:
 *         T <= bcast(q, 8b) + 2 b^2 gamma + reduce(q, 8b); with binomial
 *         trees 2 (n^2/p) gamma + ts log p + tw 8 (n/sqrt p) log p
 *         (sec. 8.1.2: n^2/p + ts log p + tw (n/sqrt p) log p).
 *         The bound is reached when the last rank to get x is on the
 *         reduction's critical path; ranks that get x early start early.
 * Steps:  1. P[0,j] holds x_j (b entries), P[i,j] the block A_ij;
 *         2. P[0,j] broadcasts x_j down column j;
 *         3. P[i,j] computes A_ij x_j (2 b^2 flops);
 *         4. row i sums its q partial vectors into P[i,0], which holds y_i.
 * Needs:  p = q^2 and q divides n; any topology (a q x q mesh or torus is
 *         the book's).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "apps.h"

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int q = x->q, b = x->prm.n / q, me = vp_rank(c), i = me / q, j = me % q,
	    rc;
	double *a = malloc(sizeof(double) * ((size_t)b * b + 3 * b));
	double *xj = a + (size_t)b * b, *part = xj + b, *y = part + b;
	vp_comm *row = NULL, *col = NULL;

	if (!a)
		return app_fail(c, x, "no memory for a %d x %d block", b, b);
	app_block_fill(1, i, j, b, a);
	/* 1. x_j starts on the first row */
	for (int s = 0; s < b; s++)
		xj[s] = i == 0 ? app_matrix_entry(2, j * b + s, 0) : 0;
	if ((rc = app_grid_split(c, q, &row, &col)))
		goto out;
	/* 2. down the columns */
	vp_trace_label(c, "bcast x down columns");
	if ((rc = vp_bcast(col, xj, b, VP_DOUBLE, 0, x->prm.alg)))
		goto out;
	app_note_alg(c, x, 0);
	/* 3. my block times my part of x */
	for (int r = 0; r < b; r++) {
		double s = 0;

		for (int t = 0; t < b; t++)
			s += a[(size_t)r * b + t] * xj[t];
		part[r] = s;
	}
	if ((rc = vp_compute(c, 2.0 * b * b * x->prm.gamma)))
		goto out;
	/* 4. sums along the rows into the first column */
	vp_trace_label(c, "reduce y along rows");
	if ((rc = vp_reduce(row, part, y, b, VP_DOUBLE, VP_SUM, 0, x->prm.alg)))
		goto out;
	app_note_alg(c, x, 1);
	if (j == 0)
		for (int r = 0; r < b; r++)
			x->out[i * b + r] = y[r];
out:
	vp_comm_free(row);
	vp_comm_free(col);
	free(a);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	char full[32];
	size_t m = 8 * (size_t)(x->prm.n / x->q);
	double b = (double)x->prm.n / x->q;

	snprintf(full, sizeof(full), "full:%d", x->q);
	return app_coll_cost(VP_COLL_BCAST, x->used[0], full, x->q, m, ts, tw,
			     exact) +
	       2 * b * b * x->prm.gamma +
	       app_coll_cost(VP_COLL_REDUCE, x->used[1], full, x->q, m, ts, tw,
			     exact);
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p;

	return 2 * n * n / p * x->prm.gamma + ts * log2(p) +
	       tw * 8 * n / sqrt(p) * log2(p);
}

const struct app app_matvec_2d = {
	.name = "matvec-2d",
	.title = "matrix-vector product, 2-D block",
	.source = "Grama et al. sec. 4.1 and 8.1.2",
	.book_text = "2(n^2/p)gamma + ts log p + tw 8(n/sqrt p) log p",
	.topologies = "p = q^2; the book's is a q x q mesh",
	.check_text = "y = A x, every entry, against the sequential product",
	.tour = { "mesh:4x4", "torus:3x3" },
	.tour_n = 48,
	.shape = app_square_grid,
	.out_len = app_n,
	.reference = app_matvec_reference,
	.cost = APP_BOUND,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
