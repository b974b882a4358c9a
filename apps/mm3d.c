/*
 * mm3d.c - the 3-D matrix multiplication C = A B on p = q^3 ranks.
 *
 * Source: Agarwal, Balle, Gustavson, Joshi, Palkar 1995 ("A three-
 *         dimensional approach to parallel matrix multiplication");
 *         Dekel, Nassimi, Sahni 1981; Grama et al., 2nd ed., sec. 8.2.3.
 * Cost:   b = n/q, m = 8 b^2 bytes:
 *         T <= bcast(q, m) + bcast(q, m) + 2 b^3 gamma + reduce(q, m);
 *         the closed form with bandwidth-optimal trees,
 *         2 log(p) ts + 3 tw 8 n^2/p^(2/3) + 2 (n^3/p) gamma.
 * Steps:  rank (i, j, k) = (i q + j) q + k;
 *         1. P[i,0,k] holds A_ik, P[0,j,k] holds B_kj;
 *         2. P[i,0,k] broadcasts A_ik over j, P[0,j,k] B_kj over i;
 *         3. P[i,j,k] computes A_ik B_kj (2 b^3 flops), one of the q
 *            products that make C_ij;
 *         4. the q products of C_ij are summed over k into P[i,j,0].
 * Needs:  p = q^3 and q divides n; any topology (a hypercube when q is a
 *         power of two).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

static int shape(struct app_ctx *x, char *why, size_t len)
{
	x->q = app_icbrt(x->p);
	if (x->q && x->prm.n % x->q == 0)
		return 0;
	snprintf(why, len,
		 "mm3d: needs p a cube (p = %d) whose root divides n (n = %d)",
		 x->p, x->prm.n);
	return 1;
}

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int q = x->q, b = x->prm.n / q, me = vp_rank(c), i = me / (q * q),
	    j = me / q % q, k = me % q, rc;
	size_t blk = (size_t)b * b;
	double *a = malloc(sizeof(double) * 4 * blk), *bm = a + blk,
	       *d = bm + blk, *cm = d + blk;
	vp_comm *jline = NULL, *iline = NULL, *kline = NULL;

	if (!a)
		return app_fail(c, x, "no memory for %d x %d blocks", b, b);
	/* 1. A_ik on the j = 0 plane, B_kj on the i = 0 plane */
	if (j == 0)
		app_block_fill(1, i, k, b, a);
	if (i == 0)
		app_block_fill(2, k, j, b, bm);
	memset(d, 0, blk * sizeof(double));
	if ((rc = vp_comm_split(c, i * q + k, j, &jline)) ||
	    (rc = vp_comm_split(c, j * q + k, i, &iline)) ||
	    (rc = vp_comm_split(c, i * q + j, k, &kline)))
		goto out;
	/* 2. the broadcasts */
	vp_trace_label(c, "bcast A over j");
	if ((rc = vp_bcast(jline, a, blk, VP_DOUBLE, 0, x->prm.alg)))
		goto out;
	app_note_alg(c, x, 0);
	vp_trace_label(c, "bcast B over i");
	if ((rc = vp_bcast(iline, bm, blk, VP_DOUBLE, 0, x->prm.alg)))
		goto out;
	app_note_alg(c, x, 1);
	/* 3. one product */
	if ((rc = vp_compute(c, app_gemm_add(b, a, bm, d) * x->prm.gamma)))
		goto out;
	/* 4. C_ij = the sum over k */
	vp_trace_label(c, "reduce C over k");
	if ((rc = vp_reduce(kline, d, cm, blk, VP_DOUBLE, VP_SUM, 0,
			    x->prm.alg)))
		goto out;
	app_note_alg(c, x, 2);
	if (k == 0)
		app_block_store(x, i, j, b, cm);
out:
	vp_comm_free(jline);
	vp_comm_free(iline);
	vp_comm_free(kline);
	free(a);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	char full[32];
	double b = (double)x->prm.n / x->q;
	size_t m = 8 * (size_t)b * (size_t)b;

	snprintf(full, sizeof(full), "full:%d", x->q);
	return app_coll_cost(VP_COLL_BCAST, x->used[0], full, x->q, m, ts, tw,
			     exact) +
	       app_coll_cost(VP_COLL_BCAST, x->used[1], full, x->q, m, ts, tw,
			     exact) +
	       2 * b * b * b * x->prm.gamma +
	       app_coll_cost(VP_COLL_REDUCE, x->used[2], full, x->q, m, ts, tw,
			     exact);
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p;

	return 2 * n * n * n / p * x->prm.gamma +
	       (p > 1 ? 2 * log2(p) * ts + 3 * tw * 8 * n * n / cbrt(p * p)
		      : 0);
}

const struct app app_mm3d = {
	.name = "mm3d",
	.title = "3-D matrix multiplication",
	.source = "Agarwal et al. 1995; Grama et al. sec. 8.2.3",
	.book_text = "2(n^3/p)gamma + 2 log(p) ts + 3 tw 8n^2/p^(2/3)",
	.topologies = "p = q^3: a hypercube of 3d dimensions, or full",
	.check_text = "C = A B, every entry, against the sequential product",
	.tour = { "hypercube:3", "full:27" },
	.tour_n = 48,
	.shape = shape,
	.out_len = app_n_squared,
	.reference = app_matmul_reference,
	.cost = APP_BOUND,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
