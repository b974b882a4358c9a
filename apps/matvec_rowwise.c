/*
 * matvec_rowwise.c - matrix-vector product y = A x, rowwise 1-D partition.
 *
 * Source: Grama et al., Introduction to Parallel Computing, 2nd ed.,
 *         sec. 8.1.1 (one row per process and n/p rows per process).
 * Cost:   T = allgather(p, m = 8 n/p bytes) + 2 (n^2/p) gamma; on a
 *         hypercube, with the book's allgather, 2 (n^2/p) gamma
 *         + ts log p + tw 8n (p-1)/p (sec. 8.1.1: n^2/p + ts log p + tw n,
 *         in words and multiply-adds).
 * Steps:  1. every rank holds n/p rows of A and the same n/p entries of x;
 *         2. an all-to-all broadcast (vp_allgather) gives every rank all of
 *            x; 3. each rank multiplies its rows: 2 n^2/p flops.
 * Needs:  p divides n; any topology.
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
	int n = x->prm.n, rows = n / x->p, first = vp_rank(c) * rows, rc;
	double *a = malloc(sizeof(double) * ((size_t)rows * n + n + rows));
	double *xs = a + (size_t)rows * n, *mine = xs + n;

	if (!a)
		return app_fail(c, x, "no memory for %d rows", rows);
	/* 1. my rows of A and my part of x */
	for (int i = 0; i < rows; i++) {
		for (int j = 0; j < n; j++)
			a[(size_t)i * n + j] =
			    app_matrix_entry(1, first + i, j);
		mine[i] = app_matrix_entry(2, first + i, 0);
	}
	/* 2. all of x on every rank */
	vp_trace_label(c, "allgather x");
	rc = vp_allgather(c, mine, xs, rows, VP_DOUBLE, x->prm.alg);
	app_note_alg(c, x, 0);
	/* 3. my rows times x */
	for (int i = 0; !rc && i < rows; i++) {
		double s = 0;

		for (int j = 0; j < n; j++)
			s += a[(size_t)i * n + j] * xs[j];
		x->out[first + i] = s;
	}
	if (!rc)
		rc = vp_compute(c, 2.0 * rows * n * x->prm.gamma);
	free(a);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	double n = x->prm.n;

	return app_coll_cost(VP_COLL_ALLGATHER, x->used[0], x->topo.spec, x->p,
			     8 * (size_t)(n / x->p), ts, tw, exact) +
	       2 * n * n / x->p * x->prm.gamma;
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p;

	return 2 * n * n / p * x->prm.gamma + ts * log2(p) +
	       tw * 8 * n * (p - 1) / p;
}

const struct app app_matvec_rowwise = {
	.name = "matvec-1d",
	.title = "matrix-vector product, rowwise 1-D",
	.source = "Grama et al. sec. 8.1.1",
	.book_text = "2(n^2/p)gamma + ts log p + tw 8n(p-1)/p",
	.topologies = "any; the book's cost is the hypercube's",
	.check_text = "y = A x, every entry, against the sequential product",
	.tour = { "hypercube:3", "ring:8" },
	.tour_n = 64,
	.shape = app_row_blocks,
	.out_len = app_n,
	.reference = app_matvec_reference,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
