/*
 * mm_recursive.c - recursive matrix multiplication C = A B on p = 8^k
 * ranks: the eight half-size products run at once, each on an eighth of
 * the ranks, down to one rank each.
 *
 * Source: the 2x2 block recursion (C_ij = A_i0 B_0j + A_i1 B_1j) run in
 *         parallel as in Tiskin, "Bulk-synchronous parallel matrix
 *         multiplication" (1999) and Ballard, Demmel, Holtz, Lipshitz,
 *         Schwartz, "Communication-optimal parallel algorithm for
 *         Strassen's matrix multiplication" (SPAA 2012, the classical
 *         case); Grama et al. sec. 8.2 for the block products.
 * Cost:   per level l = 0 .. k-1 (groups of q = 8^(k-l) ranks, slices of
 *         s_l = 2^l n^2/p elements, m_l = 8 s_l bytes): every rank sends
 *         and receives 4 slices to hand out the quadrants and 2 to sum
 *         the products back, and adds s_l elements:
 *         T ~ sum_l [6 (ts + tw m_l) + s_l gamma] + 2 (n/2^k)^3 gamma,
 *         an estimate: a rank's own slices move without a message, and
 *         the sends of a step overlap its receives. With the base
 *         dominating: T = O(tw 8 n^2/p^(2/3) + log(p) ts) + 2(n^3/p)
 *         gamma, the 3-D algorithm's bandwidth.
 * Steps:  a group's n x n matrices are spread over its q ranks in Z order
 *         (the four quadrants one after the other, each in Z order
 *         again, row-major inside the 2^-k n blocks of the base), each
 *         rank a contiguous slice of n^2/q elements, so a quadrant is a
 *         quarter of the ranks;
 *         1. sub-group s = 4i + 2j + l of q/8 ranks will compute
 *            A_il B_lj: the holders of A_il and of B_lj send it their
 *            slices (each quadrant goes to two sub-groups; a member's
 *            slice doubles);
 *         2. each sub-group multiplies recursively, one rank multiplying
 *            its blocks locally;
 *         3. the products of sub-groups (i, j, 0) and (i, j, 1) go to
 *            the holders of C_ij, which add them.
 * Needs:  p = 8^k, 2^k divides n and 2^k divides (n/2^k)^2 (whole
 *         slices); any topology (a hypercube keeps the sub-groups
 *         sub-cubes).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

/* k for p = 8^k, or -1 */
static int log8(int p)
{
	int k = 0;

	while (p > 1 && p % 8 == 0) {
		p /= 8;
		k++;
	}
	return p == 1 ? k : -1;
}

static int shape(struct app_ctx *x, char *why, size_t len)
{
	int k = log8(x->p), n = x->prm.n, b;

	if (k >= 0 && n % (1 << k) == 0) {
		b = n >> k;
		if ((long)b * b % (1 << k) == 0) {
			x->q = k; /* the recursion's depth */
			return 0;
		}
	}
	snprintf(why, len,
		 "mm-recursive: needs p = 8^k (p = %d) with 2^k dividing n "
		 "and (n/2^k)^2 (n = %d)",
		 x->p, n);
	return 1;
}

/* Row and column of element z of an m x m matrix in Z order of `levels`
 * levels (row-major below them). */
static void z_to_rc(size_t z, int m, int levels, int *row, int *col)
{
	int r0 = 0, c0 = 0;

	for (; levels > 0; levels--) {
		size_t quarter = (size_t)(m / 2) * (size_t)(m / 2);
		int qd = (int)(z / quarter);

		r0 += (qd >> 1) * (m / 2);
		c0 += (qd & 1) * (m / 2);
		z %= quarter;
		m /= 2;
	}
	*row = r0 + (int)(z / (size_t)m);
	*col = c0 + (int)(z % (size_t)m);
}

/* This rank's slice of the input matrix of seed s in Z order. */
static void fill_slice(const struct app_ctx *x, int s, size_t first, size_t len,
		       double *out)
{
	int row, col;

	for (size_t z = 0; z < len; z++) {
		z_to_rc(first + z, x->prm.n, x->q, &row, &col);
		out[z] = app_matrix_entry(s, row, col);
	}
}

/* One message of a level: an irecv or an isend of len doubles, or a copy
 * when the peer is this rank. */
struct moves {
	vp_request req[8];
	int n;
};

static int move(vp_comm *c, struct moves *mv, int recv, int peer, int tag,
		double *buf, size_t len)
{
	if (peer == vp_rank(c))
		return VP_OK; /* the caller copies */
	return recv ? vp_irecv(c, peer, tag, buf, len * sizeof(double),
			       &mv->req[mv->n++])
		    : vp_isend(c, peer, tag, buf, len * sizeof(double),
			       &mv->req[mv->n++]);
}

/*
 * The product over the group of world ranks [base, base + q): a and bm are
 * this rank's slices (s elements each) of the group's m x m matrices; the
 * result's slice goes to cm (s elements). Level lv tags the messages.
 */
static int multiply(vp_comm *c, struct app_ctx *x, int base, int q, int m,
		    int lv, const double *a, const double *bm, double *cm)
{
	int me = vp_rank(c), g = me - base, rc;
	size_t s = (size_t)m * m / (size_t)q;
	int q4 = q / 4, q8 = q / 8, qd, t, sg, u, i, j, l;
	double *a2, *b2, *c2, *in2;
	struct moves mv = { .n = 0 };

	if (q == 1) {
		memset(cm, 0, s * sizeof(double));
		return vp_compute(c, app_gemm_add(m, a, bm, cm) * x->prm.gamma);
	}
	a2 = malloc(sizeof(double) * 8 * s);
	if (!a2)
		return app_fail(c, x, "no memory for slices of %zu", 2 * s);
	b2 = a2 + 2 * s, c2 = b2 + 2 * s, in2 = c2 + 2 * s;
	/* 1. hand out the quadrants: I hold quadrant qd, slice t of it */
	qd = g / q4, t = g % q4;
	sg = g / q8, u = g % q8; /* my sub-group (i, j, l), my place in it */
	i = sg >> 2, j = (sg >> 1) & 1, l = sg & 1;
	for (int h = 0; h < 2; h++) { /* my new slices: 2 halves each */
		int from_a = base + (2 * i + l) * q4 + 2 * u + h;
		int from_b = base + (2 * l + j) * q4 + 2 * u + h;

		if ((rc = move(c, &mv, 1, from_a, 4 * lv, a2 + h * s, s)) ||
		    (rc = move(c, &mv, 1, from_b, 4 * lv + 1, b2 + h * s, s)))
			goto out;
		if (from_a == me)
			memcpy(a2 + h * s, a, s * sizeof(double));
		if (from_b == me)
			memcpy(b2 + h * s, bm, s * sizeof(double));
	}
	for (int other = 0; other < 2; other++) {
		/* A_il (qd = 2i + l) goes to sub-groups (i, 0..1, l), B_lj
		 * (qd = 2l + j) to (0..1, j, l): member t/2, half t%2 */
		int to_a =
		    base + (4 * (qd >> 1) + 2 * other + (qd & 1)) * q8 + t / 2;
		int to_b =
		    base + (4 * other + 2 * (qd & 1) + (qd >> 1)) * q8 + t / 2;

		if ((rc = move(c, &mv, 0, to_a, 4 * lv, (double *)a, s)) ||
		    (rc = move(c, &mv, 0, to_b, 4 * lv + 1, (double *)bm, s)))
			goto out;
	}
	if ((rc = vp_waitall(mv.n, mv.req, NULL)))
		goto out;
	mv.n = 0;
	/* 2. my sub-group's product, recursively */
	if ((rc =
		 multiply(c, x, base + sg * q8, q8, m / 2, lv + 1, a2, b2, c2)))
		goto out;
	/* 3. C_ij = the products of (i, j, 0) and (i, j, 1): I hold slice t
	 * of quadrant qd = 2i' + j' of C */
	for (int h = 0; h < 2; h++) {
		int from =
		    base + (4 * (qd >> 1) + 2 * (qd & 1) + h) * q8 + t / 2;

		if ((rc = move(c, &mv, 1, from, 4 * lv + 2, in2 + h * s, s)))
			goto out;
		if (from == me)
			memcpy(in2 + h * s, c2 + (size_t)(t % 2) * s,
			       s * sizeof(double));
	}
	for (int h = 0; h < 2; h++) {
		int to = base + (2 * i + j) * q4 + 2 * u + h;

		if ((rc = move(c, &mv, 0, to, 4 * lv + 2, c2 + h * s, s)))
			goto out;
	}
	if ((rc = vp_waitall(mv.n, mv.req, NULL)))
		goto out;
	mv.n = 0;
	for (size_t e = 0; e < s; e++)
		cm[e] = in2[e] + in2[s + e];
	rc = vp_compute(c, (double)s * x->prm.gamma);
out:
	if (rc && mv.n) /* a failed run: the requests die with it */
		vp_waitall(mv.n, mv.req, NULL);
	free(a2);
	return rc;
}

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int n = x->prm.n, row, col, rc;
	size_t s = (size_t)n * n / (size_t)x->p, first = (size_t)vp_rank(c) * s;
	double *a = malloc(sizeof(double) * 3 * s), *bm = a + s, *cm = bm + s;

	if (!a)
		return app_fail(c, x, "no memory for slices of %zu", s);
	fill_slice(x, 1, first, s, a);
	fill_slice(x, 2, first, s, bm);
	vp_trace_label(c, "recursive multiply");
	rc = multiply(c, x, 0, x->p, n, 0, a, bm, cm);
	if (!rc)
		for (size_t z = 0; z < s; z++) {
			z_to_rc(first + z, n, x->q, &row, &col);
			x->out[(size_t)row * n + col] = cm[z];
		}
	free(a);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	double n = x->prm.n, p = x->p, b = n / (1 << x->q), t = 0;

	*exact = 0;
	for (int l = 0; l < x->q; l++) {
		double s = ldexp(n * n / p, l);

		t += 6 * (ts + tw * 8 * s) + s * x->prm.gamma;
	}
	return t + 2 * b * b * b * x->prm.gamma;
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p;

	return 2 * n * n * n / p * x->prm.gamma +
	       (p > 1 ? log2(p) * ts + tw * 8 * n * n / cbrt(p * p) : 0);
}

const struct app app_mm_recursive = {
	.name = "mm-recursive",
	.title = "recursive matrix multiplication",
	.source = "2x2 block recursion, 8 products at once (Tiskin 1999; "
		  "Ballard et al. 2012)",
	.book_text = "2(n^3/p)gamma + log(p) ts + tw 8n^2/p^(2/3) (leading "
		     "terms of O(.))",
	.topologies = "p = 8^k: a hypercube of 3k dimensions, or full",
	.check_text = "C = A B, every entry, against the sequential product",
	.tour = { "hypercube:3", "full:64" },
	.tour_n = 48,
	.shape = shape,
	.out_len = app_n_squared,
	.reference = app_matmul_reference,
	.cost = APP_ESTIMATE,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
