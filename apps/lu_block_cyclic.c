/*
 * lu_block_cyclic.c - LU factorization A = L U without pivoting, on a 2-D
 * block-cyclic distribution (right-looking, as ScaLAPACK's PDGETRF).
 *
 * Source: Grama et al., Introduction to Parallel Computing, 2nd ed.,
 *         sec. 8.3.1 (Gaussian elimination, 2-D block-cyclic mapping for
 *         load balance); Dongarra, van de Geijn, Walker 1994 (ScaLAPACK's
 *         right-looking blocked LU).
 * Cost:   N = n/nb block steps on a q x q grid (p = q^2); at step K with
 *         c = ceil((N-K-1)/q) panel blocks on the busiest rank, m = 8 nb^2:
 *         T <= sum over K of [ f(nb) gamma               factor A_KK
 *                              + 2 bcast(q, m)           A_KK along row, column
 *                              + 2 c nb^3 gamma          panel solves
 *                              + 2 bcast(q, c m)         L along rows, U down
 *                              + 2 c^2 nb^3 gamma ]      trailing update
 *         with f(nb) = sum_k (nb-k-1) + 2 (nb-k-1)^2 ~ 2 nb^3/3; the
 *         steps overlap (a rank outside step K's row and column goes on),
 *         so the run takes less. Leading terms with binomial broadcasts:
 *         2 (n^3/3p) gamma + 2 (n/nb) log(p) ts + 4 tw n^2 log(p)/sqrt(p).
 * Steps:  block (I, J) lives on P[I mod q, J mod q]; for K = 0 .. N-1:
 *         1. P[K mod q, K mod q] factors A_KK = L_KK U_KK in place;
 *         2. it broadcasts the factored block along its row and column;
 *         3. its column computes L_IK = A_IK U_KK^-1 for I > K, its row
 *            U_KJ = L_KK^-1 A_KJ for J > K;
 *         4. each row broadcasts its L_IK from column K mod q, each
 *            column its U_KJ from row K mod q;
 *         5. A_IJ -= L_IK U_KJ for every I, J > K a rank holds.
 * Needs:  p = q^2, nb dividing n (default n/(2q), so that each rank holds
 *         several blocks per dimension); A diagonally dominant (it is: the
 *         input plus n on the diagonal), as no pivoting is done.
 *         The broadcasts are binomial unless an algorithm is named: their
 *         sizes change from step to step, and the bound needs one cost.
 * Check:  max |L U - A| over all entries, at most n^2 times the unit
 *         roundoff times max |A|: a wrong step gives errors of order 1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

static int block_size(const struct app_ctx *x)
{
	int nb = x->prm.nb;

	if (nb <= 0 && x->q > 0)
		nb = x->prm.n / (2 * x->q);
	return nb > 0 ? nb : 1;
}

static int shape(struct app_ctx *x, char *why, size_t len)
{
	int nb;

	x->q = app_isqrt(x->p);
	nb = block_size(x);
	if (x->q && x->prm.n % nb == 0)
		return 0;
	snprintf(why, len,
		 "lu: needs p a square (p = %d) and the block size %d "
		 "dividing n (n = %d)",
		 x->p, nb, x->prm.n);
	return 1;
}

/* Blocks I in [from, N) with I mod q == mine. */
static int blocks_from(int from, int N, int q, int mine)
{
	int first = from + ((mine - from) % q + q) % q;

	return first < N ? (N - 1 - first) / q + 1 : 0;
}

/* The local index of my first block I >= from (block I is local I / q). */
static int first_local(int from, int q, int mine)
{
	return from > mine ? (from - mine + q - 1) / q : 0;
}

static double factor_flops(int nb)
{
	double f = 0;

	for (int k = 0; k < nb; k++)
		f += (nb - k - 1) + 2.0 * (nb - k - 1) * (nb - k - 1);
	return f;
}

/* In place: D = L U, L unit lower (below the diagonal), U upper. */
static void factor(int nb, double *d)
{
	for (int k = 0; k < nb; k++)
		for (int r = k + 1; r < nb; r++) {
			d[r * nb + k] /= d[k * nb + k];
			for (int s = k + 1; s < nb; s++)
				d[r * nb + s] -= d[r * nb + k] * d[k * nb + s];
		}
}

/* a := a U^-1 (U: the upper part of d); nb^3 flops. */
static void solve_right_upper(int nb, const double *d, double *a, int lda)
{
	for (int r = 0; r < nb; r++)
		for (int s = 0; s < nb; s++) {
			double v = a[r * lda + s];

			for (int t = 0; t < s; t++)
				v -= a[r * lda + t] * d[t * nb + s];
			a[r * lda + s] = v / d[s * nb + s];
		}
}

/* a := L^-1 a (L: the unit lower part of d); nb^2 (nb-1) flops. */
static void solve_left_unit_lower(int nb, const double *d, double *a, int lda)
{
	for (int s = 0; s < nb; s++)
		for (int r = 1; r < nb; r++) {
			double v = a[r * lda + s];

			for (int t = 0; t < r; t++)
				v -= d[r * nb + t] * a[t * lda + s];
			a[r * lda + s] = v;
		}
}

struct local {
	int nb, q, N, i, j, rows, cols; /* rows, cols: my blocks */
	double *a;                      /* (rows nb) x (cols nb), row-major */
};

static double *block(const struct local *l, int li, int lj)
{
	size_t lda = (size_t)l->cols * l->nb;

	return l->a + (size_t)li * l->nb * lda + (size_t)lj * l->nb;
}

static void copy_block(const struct local *l, double *dst, const double *src,
		       int to_local)
{
	int lda = l->cols * l->nb;

	for (int r = 0; r < l->nb; r++)
		if (to_local)
			memcpy(dst + (size_t)r * lda, src + (size_t)r * l->nb,
			       l->nb * sizeof(double));
		else
			memcpy(dst + (size_t)r * l->nb, src + (size_t)r * lda,
			       l->nb * sizeof(double));
}

/* A_IJ -= L_IK U_KJ on a local block; 2 nb^3 flops. */
static void update(const struct local *l, double *a, const double *lk,
		   const double *uk)
{
	int nb = l->nb, lda = l->cols * nb;

	for (int r = 0; r < nb; r++)
		for (int t = 0; t < nb; t++) {
			double f = lk[r * nb + t];

			for (int s = 0; s < nb; s++)
				a[(size_t)r * lda + s] -= f * uk[t * nb + s];
		}
}

static vp_alg bcast_alg(const struct app_ctx *x)
{
	return x->prm.alg == VP_ALG_AUTO ? VP_ALG_BINOMIAL : x->prm.alg;
}

/* Step K; *flops: the flops this rank did. */
static int step(vp_comm *row, vp_comm *col, struct app_ctx *x, struct local *l,
		int K, double *diag, double *lpan, double *upan, double *flops)
{
	int nb = l->nb, q = l->q, kq = K % q, rc;
	size_t m = (size_t)nb * nb;
	/* my first local block row and column after K, and how many */
	int li0 = first_local(K + 1, q, l->i), cl = l->rows - li0;
	int lj0 = first_local(K + 1, q, l->j), cu = l->cols - lj0;

	/* 1. the diagonal block */
	if (l->i == kq && l->j == kq) {
		copy_block(l, diag, block(l, K / q, K / q), 0);
		factor(nb, diag);
		copy_block(l, block(l, K / q, K / q), diag, 1);
		*flops += factor_flops(nb);
	}
	/* 2. along its row and its column */
	if (l->i == kq &&
	    (rc = vp_bcast(row, diag, m, VP_DOUBLE, kq, bcast_alg(x))))
		return rc;
	if (l->j == kq &&
	    (rc = vp_bcast(col, diag, m, VP_DOUBLE, kq, bcast_alg(x))))
		return rc;
	/* 3. the panels: L below the diagonal block, U right of it */
	for (int b = 0; l->j == kq && b < cl; b++) {
		solve_right_upper(nb, diag, block(l, li0 + b, K / q),
				  l->cols * nb);
		copy_block(l, lpan + b * m, block(l, li0 + b, K / q), 0);
		*flops += (double)nb * nb * nb;
	}
	for (int b = 0; l->i == kq && b < cu; b++) {
		solve_left_unit_lower(nb, diag, block(l, K / q, lj0 + b),
				      l->cols * nb);
		copy_block(l, upan + b * m, block(l, K / q, lj0 + b), 0);
		*flops += (double)nb * nb * (nb - 1);
	}
	/* 4. L_IK along the rows, U_KJ down the columns */
	if (cl &&
	    (rc = vp_bcast(row, lpan, cl * m, VP_DOUBLE, kq, bcast_alg(x))))
		return rc;
	if (cu &&
	    (rc = vp_bcast(col, upan, cu * m, VP_DOUBLE, kq, bcast_alg(x))))
		return rc;
	/* 5. the trailing matrix */
	for (int bi = 0; bi < cl; bi++)
		for (int bj = 0; bj < cu; bj++)
			update(l, block(l, li0 + bi, lj0 + bj), lpan + bi * m,
			       upan + bj * m);
	*flops += 2.0 * cl * cu * nb * nb * nb;
	return VP_OK;
}

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	struct local l;
	int me = vp_rank(c), n = x->prm.n, rc;
	vp_comm *row = NULL, *col = NULL;
	double *work = NULL, flops;
	size_t m;

	l.nb = block_size(x);
	l.q = x->q;
	l.N = n / l.nb;
	l.i = me / l.q;
	l.j = me % l.q;
	l.rows = blocks_from(0, l.N, l.q, l.i);
	l.cols = blocks_from(0, l.N, l.q, l.j);
	m = (size_t)l.nb * l.nb;
	l.a = malloc(sizeof(double) * m *
		     ((size_t)l.rows * l.cols + 1 + l.rows + l.cols));
	if (!l.a)
		return app_fail(c, x, "no memory for %d x %d blocks of %d",
				l.rows, l.cols, l.nb);
	work = l.a + m * l.rows * l.cols;
	for (int li = 0; li < l.rows; li++)
		for (int lj = 0; lj < l.cols; lj++)
			for (int r = 0; r < l.nb; r++)
				for (int s = 0; s < l.nb; s++)
					block(
					    &l, li,
					    lj)[(size_t)r * l.cols * l.nb + s] =
					    app_lu_entry(
						n,
						(long)(li * l.q + l.i) * l.nb +
						    r,
						(long)(lj * l.q + l.j) * l.nb +
						    s);
	if ((rc = app_grid_split(c, l.q, &row, &col)))
		goto out;
	for (int K = 0; K < l.N; K++) {
		vp_trace_label(c, "lu step");
		flops = 0;
		rc = step(row, col, x, &l, K, work, work + m,
			  work + m * (1 + l.rows), &flops);
		if (!rc)
			rc = vp_compute(c, flops * x->prm.gamma);
		if (rc)
			goto out;
	}
	for (int li = 0; li < l.rows; li++)
		for (int lj = 0; lj < l.cols; lj++)
			for (int r = 0; r < l.nb; r++)
				for (int s = 0; s < l.nb; s++)
					x->out[((size_t)(li * l.q + l.i) *
						    l.nb +
						r) *
						   n +
					       (size_t)(lj * l.q + l.j) * l.nb +
					       s] =
					    block(
						&l, li,
						lj)[(size_t)r * l.cols * l.nb +
						    s];
out:
	vp_comm_free(row);
	vp_comm_free(col);
	free(l.a);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	char full[32];
	int nb = block_size(x), q = x->q, N = x->prm.n / nb;
	double t = 0, b3 = (double)nb * nb * nb, g = x->prm.gamma;
	size_t m = 8 * (size_t)nb * nb;

	snprintf(full, sizeof(full), "full:%d", q);
	for (int K = 0; K < N; K++) {
		int cmax = (N - K - 1 + q - 1) / q;

		t += factor_flops(nb) * g +
		     2 * app_coll_cost(VP_COLL_BCAST, bcast_alg(x), full, q, m,
				       ts, tw, exact);
		if (!cmax)
			continue;
		t += 2 * cmax * b3 * g + 2 * (double)cmax * cmax * b3 * g +
		     2 * app_coll_cost(VP_COLL_BCAST, bcast_alg(x), full, q,
				       m * cmax, ts, tw, exact);
	}
	return t;
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p, nb = block_size(x);

	return 2 * n * n * n / (3 * p) * x->prm.gamma +
	       (p > 1 ? 2 * (n / nb) * log2(p) * ts +
			    4 * tw * n * n * log2(p) / sqrt(p)
		      : 0);
}

const struct app app_lu = {
	.name = "lu",
	.title = "LU factorization, 2-D block-cyclic, no pivoting",
	.source = "Grama et al. sec. 8.3.1; Dongarra et al. 1994",
	.book_text =
	    "2(n^3/3p)gamma + 2(n/nb) log(p) ts + 4 tw n^2 log(p)/sqrt(p)",
	.topologies = "p = q^2: a q x q mesh or torus",
	.check_text = "max |L U - A| over every entry",
	.tour = { "mesh:2x2", "torus:3x3" },
	.tour_n = 48,
	.shape = shape,
	.out_len = app_n_squared,
	.reference = NULL,
	.check = app_lu_check,
	.cost = APP_BOUND,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
