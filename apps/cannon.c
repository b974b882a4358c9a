/*
 * cannon.c - Cannon's matrix multiplication C = A B on a q x q torus.
 *
 * Source: Grama et al., Introduction to Parallel Computing, 2nd ed.,
 *         sec. 8.2.2, Figure 8.3 (Cannon 1969).
 * Cost:   b = n/q, m = 8 b^2 bytes, w = 2 b^3 gamma (a block multiply):
 *         T = 2 (ts + tw m)                  alignment (A, then B)
 *           + q w                            q block multiplies
 *           + (q - 1) 2 (ts + tw m)          single-step shifts
 *           = 2 (n^3/p) gamma + 2 sqrt(p) ts + 2 tw 8 n^2/sqrt(p),
 *         the book's eq. (8.6) (n^3/p + 2 sqrt p ts + 2 tw n^2/sqrt p, in
 *         multiply-adds and words) with cut-through routing (th = 0), and
 *         exact in vp's model clock: ranks in the first row or column skip
 *         an alignment and only run ahead of those that do both.
 * Steps:  1. P[i,j] holds A_ij and B_ij;
 *         2. alignment: row i shifts A left by i, column j shifts B up
 *            by j (vp_sendrecv with the ranks i, resp. j, away);
 *         3. q times: C_ij += A B on the blocks held; then, except the
 *            last time, A moves one step left and B one step up.
 *         At q = 3, after the alignment P[1,0] holds A_11 and B_00 ... the
 *         figure's staggered blocks: P[i,j] holds A_i,(i+j) and B_(i+j),j.
 * Needs:  p = q^2 and q divides n. A torus makes every shift one hop; on
 *         another topology the shifts are routed (and cost the same with
 *         th = 0); strict mode needs a torus.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

/* Moves buf to the rank dst of c and takes the block from src in place. */
static int shift(vp_comm *c, int dst, int src, double *buf, double *tmp,
		 size_t count)
{
	int rc = vp_sendrecv(c, dst, buf, count * sizeof(double), src, tmp,
			     count * sizeof(double));

	if (!rc)
		memcpy(buf, tmp, count * sizeof(double));
	return rc;
}

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int q = x->q, b = x->prm.n / q, me = vp_rank(c), i = me / q, j = me % q,
	    rc = 0;
	size_t blk = (size_t)b * b;
	double *a = malloc(sizeof(double) * 4 * blk), *bm = a + blk,
	       *cm = bm + blk, *tmp = cm + blk;

	if (!a)
		return app_fail(c, x, "no memory for %d x %d blocks", b, b);
	/* 1. my blocks */
	app_block_fill(1, i, j, b, a);
	app_block_fill(2, i, j, b, bm);
	memset(cm, 0, blk * sizeof(double));
	/* 2. alignment: A_ij to P[i, j-i], B_ij to P[i-j, j] */
	vp_trace_label(c, "alignment");
	if (i > 0)
		rc = shift(c, i * q + (j - i + q) % q, i * q + (j + i) % q, a,
			   tmp, blk);
	if (!rc && j > 0)
		rc = shift(c, (i - j + q) % q * q + j, (i + j) % q * q + j, bm,
			   tmp, blk);
	/* 3. multiply, then A one left and B one up */
	for (int step = 0; !rc && step < q; step++) {
		rc = vp_compute(c, app_gemm_add(b, a, bm, cm) * x->prm.gamma);
		if (rc || step == q - 1)
			break;
		vp_trace_label(c, "shift");
		rc = shift(c, i * q + (j - 1 + q) % q, i * q + (j + 1) % q, a,
			   tmp, blk);
		if (!rc)
			rc = shift(c, (i - 1 + q) % q * q + j,
				   (i + 1) % q * q + j, bm, tmp, blk);
	}
	if (!rc)
		app_block_store(x, i, j, b, cm);
	free(a);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	double b = (double)x->prm.n / x->q, hop = ts + tw * 8 * b * b;

	(void)exact;
	return x->q * 2 * b * b * b * x->prm.gamma +
	       (x->q > 1 ? 2 * hop + (x->q - 1) * 2 * hop : 0);
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p;

	return 2 * n * n * n / p * x->prm.gamma +
	       (p > 1 ? 2 * sqrt(p) * ts + 2 * tw * 8 * n * n / sqrt(p) : 0);
}

const struct app app_cannon = {
	.name = "cannon",
	.title = "Cannon's matrix multiplication",
	.source = "Grama et al. sec. 8.2.2",
	.book_text = "2(n^3/p)gamma + 2 sqrt(p) ts + 2 tw 8n^2/sqrt(p)",
	.topologies = "p = q^2; the book's is a q x q torus",
	.check_text = "C = A B, every entry, against the sequential product",
	.tour = { "torus:4x4", "torus:3x3" },
	.tour_n = 48,
	.shape = app_square_grid,
	.out_len = app_n_squared,
	.reference = app_matmul_reference,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
