/*
 * summa.c - SUMMA: matrix multiplication C = A B by row and column
 * broadcasts on a q x q mesh.
 *
 * Source: Agarwal, Gustavson, Zubair 1995; van de Geijn, Watts 1997
 *         ("SUMMA: scalable universal matrix multiplication algorithm");
 *         the block version with one panel of b = n/q columns per step.
 * Cost:   m = 8 b^2 bytes, w = 2 b^3 gamma:
 *         T <= q (bcast(q, m) + bcast(q, m) + w): the steps one after
 *         another, each broadcast costing what the algorithm that ran
 *         costs (vp_coll_formula); a rank that is not a later step's root
 *         may run ahead, so the run may take less (in the tests it never
 *         does). The source's closed form,
 *         2 sqrt(p) log(p) ts + 2 tw 8 n^2/sqrt(p) + 2 (n^3/p) gamma,
 *         charges each broadcast log(p) ts + m tw, which no one broadcast
 *         algorithm costs for every m; it is printed beside the bound.
 * Steps:  P[i,j] holds A_ij, B_ij; for k = 0 .. q-1:
 *         1. P[i,k] broadcasts A_ik along row i;
 *         2. P[k,j] broadcasts B_kj along column j;
 *         3. C_ij += A_ik B_kj (2 b^3 flops).
 * Needs:  p = q^2 and q divides n; any topology (the mesh is the source's).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int q = x->q, b = x->prm.n / q, me = vp_rank(c), i = me / q, j = me % q,
	    rc;
	size_t blk = (size_t)b * b;
	double *a = malloc(sizeof(double) * 5 * blk), *bm = a + blk,
	       *cm = bm + blk, *apanel = cm + blk, *bpanel = apanel + blk;
	vp_comm *row = NULL, *col = NULL;

	if (!a)
		return app_fail(c, x, "no memory for %d x %d blocks", b, b);
	app_block_fill(1, i, j, b, a);
	app_block_fill(2, i, j, b, bm);
	memset(cm, 0, blk * sizeof(double));
	if ((rc = app_grid_split(c, q, &row, &col)))
		goto out;
	for (int k = 0; k < q; k++) {
		/* 1. A_ik along my row, from column k */
		vp_trace_label(c, "bcast A along rows");
		if (j == k)
			memcpy(apanel, a, blk * sizeof(double));
		if ((rc = vp_bcast(row, apanel, blk, VP_DOUBLE, k, x->prm.alg)))
			goto out;
		app_note_alg(c, x, 0);
		/* 2. B_kj along my column, from row k */
		vp_trace_label(c, "bcast B along columns");
		if (i == k)
			memcpy(bpanel, bm, blk * sizeof(double));
		if ((rc = vp_bcast(col, bpanel, blk, VP_DOUBLE, k, x->prm.alg)))
			goto out;
		app_note_alg(c, x, 1);
		/* 3. C_ij += A_ik B_kj */
		if ((rc = vp_compute(c, app_gemm_add(b, apanel, bpanel, cm) *
					    x->prm.gamma)))
			goto out;
	}
	app_block_store(x, i, j, b, cm);
out:
	vp_comm_free(row);
	vp_comm_free(col);
	free(a);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	char full[32];
	double b = (double)x->prm.n / x->q, step;
	size_t m = 8 * (size_t)b * (size_t)b;

	snprintf(full, sizeof(full), "full:%d", x->q);
	step = app_coll_cost(VP_COLL_BCAST, x->used[0], full, x->q, m, ts, tw,
			     exact) +
	       app_coll_cost(VP_COLL_BCAST, x->used[1], full, x->q, m, ts, tw,
			     exact) +
	       2 * b * b * b * x->prm.gamma;
	return x->q * step;
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p;

	return 2 * n * n * n / p * x->prm.gamma +
	       (p > 1
		    ? 2 * sqrt(p) * log2(p) * ts + 2 * tw * 8 * n * n / sqrt(p)
		    : 0);
}

const struct app app_summa = {
	.name = "summa",
	.title = "SUMMA matrix multiplication",
	.source = "Agarwal et al. 1995; van de Geijn, Watts 1997",
	.book_text = "2(n^3/p)gamma + 2 sqrt(p) log(p) ts + 2 tw 8n^2/sqrt(p)",
	.topologies = "p = q^2; the source's is a q x q mesh",
	.check_text = "C = A B, every entry, against the sequential product",
	.tour = { "mesh:4x4", "mesh:3x3" },
	.tour_n = 48,
	.shape = app_square_grid,
	.out_len = app_n_squared,
	.reference = app_matmul_reference,
	.cost = APP_BOUND,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
