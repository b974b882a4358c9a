/*
 * lu_recursive.c - recursive LU factorization A = L U without pivoting on
 * p = q^2 ranks, every rank in every step, on a 2-D cyclic distribution.
 *
 * Source: the 2x2 block recursion of LU with the triangular inverses
 *         carried along (Tiskin, "Bulk-synchronous parallel Gaussian
 *         elimination", 2002): with A = [A11 A12; A21 A22],
 *           [L11, U11] = LU(A11)              (with L11^-1, U11^-1)
 *           L21 = A21 U11^-1,  U12 = L11^-1 A12
 *           [L22, U22] = LU(A22 - L21 U12)
 *           L^-1 = [L11^-1 0; -L22^-1 L21 L11^-1  L22^-1],
 *           U^-1 = [U11^-1  -U11^-1 U12 U22^-1; 0 U22^-1]
 *         (the inverses only where a caller needs them: not at the top,
 *         nor for the second half of a call that needs none).
 * Cost:   T(m) = T(m/2, inverses) + T(m/2, as the caller) + (3 + 4 w)
 *         MM(m/2), w = 1 where the inverses are wanted; MM(m) = q steps of
 *         two broadcasts of 8 (m/q)^2 bytes (SUMMA on the cyclic layout:
 *         step k broadcasts process column k's A along the rows and
 *         process row k's B down the columns) and 2 (m/q)^3 gamma each;
 *         the base case (m <= nb, or m/q odd) an all-gather of 8 (m/q)^2
 *         bytes a rank and the sequential factorization and inversions on
 *         every rank. Exact: every step involves every rank (the row
 *         and column broadcasts of a step in lockstep, the all-gather),
 *         so no step overlaps another.
 *         The source's closed form, with its multiplications 3-D, is
 *         O(n^2/p^(2/3) beta) + O(p^(2/3) log(p) alpha); with 2-D (SUMMA)
 *         multiplications as here the bandwidth term is n^2/sqrt(p).
 * Steps:  entry (r, c) lives on P[r mod q, c mod q], so every quadrant
 *         of a matrix whose side q divides is again cyclic over all p
 *         ranks, in the quadrant of each rank's local array: the
 *         recursion needs no redistribution.
 * Needs:  p = q^2, q dividing n; A diagonally dominant (no pivoting).
 * Check:  max |L U - A| (as the block-cyclic LU).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

/* A rank's local part of a matrix: nl x nl entries at a, rows ld apart. */
struct view {
	double *a;
	int nl, ld;
};

/* What every step needs. */
struct lu_ctx {
	vp_comm *c, *row, *col;
	struct app_ctx *x;
	int q, pi, pj; /* grid side, my row and column */
	double nb;     /* the base case's largest side */
	double *t[3];  /* scratch: three nl x nl buffers of the top size */
};

static struct view quad(struct view v, int a, int b)
{
	struct view w = { v.a + (size_t)a * (v.nl / 2) * v.ld +
			      (size_t)b * (v.nl / 2),
			  v.nl / 2, v.ld };

	return w;
}

static void pack(struct view v, double *out)
{
	for (int i = 0; i < v.nl; i++)
		memcpy(out + (size_t)i * v.nl, v.a + (size_t)i * v.ld,
		       (size_t)v.nl * sizeof(double));
}

static void zero(struct view v)
{
	for (int i = 0; i < v.nl; i++)
		memset(v.a + (size_t)i * v.ld, 0,
		       (size_t)v.nl * sizeof(double));
}

/*
 * C = sign A B for the m x m matrices whose local parts are the views
 * (SUMMA on the cyclic layout; the model time of q steps of two
 * broadcasts and a local multiply).
 */
static int multiply(struct lu_ctx *k, struct view A, struct view B,
		    struct view C, double sign)
{
	int nl = A.nl, rc = VP_OK;
	size_t blk = (size_t)nl * nl;
	double *a = k->t[0], *b = k->t[1], *acc = k->t[2];

	memset(acc, 0, blk * sizeof(double));
	for (int s = 0; s < k->q && !rc; s++) {
		if (k->pj == s)
			pack(A, a);
		if (k->pi == s)
			pack(B, b);
		if (!(rc = vp_bcast(k->row, a, blk, VP_DOUBLE, s,
				    k->x->prm.alg)))
			rc = vp_bcast(k->col, b, blk, VP_DOUBLE, s,
				      k->x->prm.alg);
		app_note_alg(k->c, k->x, 0);
		if (!rc)
			rc = vp_compute(k->c, app_gemm_add(nl, a, b, acc) *
						  k->x->prm.gamma);
	}
	for (int i = 0; !rc && i < nl; i++)
		for (int j = 0; j < nl; j++)
			C.a[(size_t)i * C.ld + j] =
			    sign * acc[(size_t)i * nl + j];
	return rc;
}

/* Sequential LU in place (unit L below the diagonal, U on and above) of
 * the m x m row-major f; and the inverses of L and U into li, ui (NULL:
 * not wanted). Returns the flops. */
static double factor_and_invert(int m, double *f, double *li, double *ui)
{
	double flops = 0;

	for (int k = 0; k < m; k++)
		for (int i = k + 1; i < m; i++) {
			double l = f[(size_t)i * m + k] /= f[(size_t)k * m + k];

			for (int j = k + 1; j < m; j++)
				f[(size_t)i * m + j] -=
				    l * f[(size_t)k * m + j];
			flops += 1 + 2.0 * (m - k - 1);
		}
	if (!li)
		return flops;
	/* L^-1 by forward substitution, column by column (unit diagonal) */
	memset(li, 0, (size_t)m * m * sizeof(double));
	memset(ui, 0, (size_t)m * m * sizeof(double));
	for (int c = 0; c < m; c++) {
		li[(size_t)c * m + c] = 1;
		for (int i = c + 1; i < m; i++) {
			double s = 0;

			for (int t = c; t < i; t++)
				s += f[(size_t)i * m + t] *
				     li[(size_t)t * m + c];
			li[(size_t)i * m + c] = -s;
			flops += 2.0 * (i - c);
		}
	}
	/* U^-1 by back substitution, column by column */
	for (int c = m - 1; c >= 0; c--) {
		ui[(size_t)c * m + c] = 1 / f[(size_t)c * m + c];
		for (int i = c - 1; i >= 0; i--) {
			double s = 0;

			for (int t = i + 1; t <= c; t++)
				s += f[(size_t)i * m + t] *
				     ui[(size_t)t * m + c];
			ui[(size_t)i * m + c] = -s / f[(size_t)i * m + i];
			flops += 2.0 * (c - i) + 1;
		}
	}
	return flops;
}

/* The base case: every rank gathers the m x m matrix, factors (and
 * inverts) it, and keeps its cyclic part of each result. */
static int base(struct lu_ctx *k, int m, struct view A, struct view L,
		struct view U, struct view Li, struct view Ui, int inv)
{
	int q = k->q, p = q * q, nl = A.nl, rc;
	size_t blk = (size_t)nl * nl, mm = (size_t)m * m;
	double *all = malloc(sizeof(double) * (blk * (size_t)p + 3 * mm));
	double *f = all + blk * (size_t)p, *li = f + mm, *ui = li + mm;
	double flops;

	if (!all)
		return app_fail(k->c, k->x, "no memory for a %d x %d block", m,
				m);
	pack(A, k->t[0]);
	rc = vp_allgather(k->c, k->t[0], all, blk, VP_DOUBLE, VP_ALG_AUTO);
	app_note_alg(k->c, k->x, 1);
	if (rc) {
		free(all);
		return rc;
	}
	for (int r = 0; r < p; r++) /* rank r = (r / q, r % q) */
		for (int u = 0; u < nl; u++)
			for (int v = 0; v < nl; v++)
				f[(size_t)(r / q + q * u) * m + r % q + q * v] =
				    all[blk * r + (size_t)u * nl + v];
	flops = factor_and_invert(m, f, inv ? li : NULL, inv ? ui : NULL);
	rc = vp_compute(k->c, flops * k->x->prm.gamma);
	for (int u = 0; u < nl; u++)
		for (int v = 0; v < nl; v++) {
			size_t g = (size_t)(k->pi + q * u) * m + k->pj + q * v;
			int r = k->pi + q * u, c = k->pj + q * v;

			L.a[(size_t)u * L.ld + v] = r > c ? f[g] : r == c;
			U.a[(size_t)u * U.ld + v] = r <= c ? f[g] : 0;
			if (inv) {
				Li.a[(size_t)u * Li.ld + v] = li[g];
				Ui.a[(size_t)u * Ui.ld + v] = ui[g];
			}
		}
	free(all);
	return rc;
}

/* L U = A for the m x m matrix with local parts A (overwritten), and
 * with inv the inverses of L and U. */
static int lu(struct lu_ctx *k, int m, struct view A, struct view L,
	      struct view U, struct view Li, struct view Ui, int inv)
{
	int rc;

	if (m <= k->nb || A.nl % 2)
		return base(k, m, A, L, U, Li, Ui, inv);
	/* [L11, U11] = LU(A11), with their inverses */
	if ((rc = lu(k, m / 2, quad(A, 0, 0), quad(L, 0, 0), quad(U, 0, 0),
		     quad(Li, 0, 0), quad(Ui, 0, 0), 1)) ||
	    /* L21 = A21 U11^-1, U12 = L11^-1 A12 */
	    (rc = multiply(k, quad(A, 1, 0), quad(Ui, 0, 0), quad(L, 1, 0),
			   1)) ||
	    (rc = multiply(k, quad(Li, 0, 0), quad(A, 0, 1), quad(U, 0, 1),
			   1)) ||
	    /* A22 - L21 U12 into L22's place for a moment, then into A22 */
	    (rc = multiply(k, quad(L, 1, 0), quad(U, 0, 1), quad(L, 1, 1), -1)))
		return rc;
	for (int i = 0; i < A.nl / 2; i++)
		for (int j = 0; j < A.nl / 2; j++)
			quad(A, 1, 1).a[(size_t)i * A.ld + j] +=
			    quad(L, 1, 1).a[(size_t)i * L.ld + j];
	if ((rc = vp_compute(k->c, (double)(A.nl / 2) * (A.nl / 2) *
				       k->x->prm.gamma)) ||
	    (rc = lu(k, m / 2, quad(A, 1, 1), quad(L, 1, 1), quad(U, 1, 1),
		     quad(Li, 1, 1), quad(Ui, 1, 1), inv)))
		return rc;
	zero(quad(L, 0, 1));
	zero(quad(U, 1, 0));
	if (!inv)
		return VP_OK;
	zero(quad(Li, 0, 1));
	zero(quad(Ui, 1, 0));
	/* L^-1_21 = -L22^-1 (L21 L11^-1), U^-1_12 = -(U11^-1 U12) U22^-1,
	 * the products parked in the zero quadrants of L^-1 and U^-1 */
	if ((rc = multiply(k, quad(L, 1, 0), quad(Li, 0, 0), quad(Ui, 1, 0),
			   1)) ||
	    (rc = multiply(k, quad(Li, 1, 1), quad(Ui, 1, 0), quad(Li, 1, 0),
			   -1)) ||
	    (rc = multiply(k, quad(Ui, 0, 0), quad(U, 0, 1), quad(Li, 0, 1),
			   1)) ||
	    (rc = multiply(k, quad(Li, 0, 1), quad(Ui, 1, 1), quad(Ui, 0, 1),
			   -1)))
		return rc;
	zero(quad(Ui, 1, 0));
	zero(quad(Li, 0, 1));
	return VP_OK;
}

static int shape(struct app_ctx *x, char *why, size_t len)
{
	x->q = app_isqrt(x->p);
	if (x->q && x->prm.n % x->q == 0)
		return 0;
	snprintf(why, len,
		 "lu-recursive: needs p a square (p = %d) whose root divides "
		 "n (n = %d)",
		 x->p, x->prm.n);
	return 1;
}

/* The base case's largest side: nb, or the source's n / p^(2/3). */
static double base_side(const struct app_ctx *x)
{
	return x->prm.nb > 0 ? x->prm.nb : x->prm.n / cbrt((double)x->p * x->p);
}

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	struct lu_ctx k = { .c = c, .x = x, .q = x->q };
	int n = x->prm.n, q = x->q, nl = n / q, rc;
	size_t blk = (size_t)nl * nl;
	double *mem = malloc(sizeof(double) * 8 * blk);
	struct view A = { mem, nl, nl }, L = { mem + blk, nl, nl },
		    U = { mem + 2 * blk, nl, nl },
		    Li = { mem + 3 * blk, nl, nl },
		    Ui = { mem + 4 * blk, nl, nl };

	if (!mem)
		return app_fail(c, x, "no memory for %d x %d local parts", nl,
				nl);
	k.pi = vp_rank(c) / q;
	k.pj = vp_rank(c) % q;
	k.nb = base_side(x);
	k.t[0] = mem + 5 * blk;
	k.t[1] = mem + 6 * blk;
	k.t[2] = mem + 7 * blk;
	for (int u = 0; u < nl; u++)
		for (int v = 0; v < nl; v++)
			A.a[(size_t)u * nl + v] = app_lu_entry(
			    n, k.pi + (long)q * u, k.pj + (long)q * v);
	if ((rc = app_grid_split(c, q, &k.row, &k.col)))
		goto out;
	vp_trace_label(c, "recursive LU");
	if ((rc = lu(&k, n, A, L, U, Li, Ui, 0)))
		goto out;
	/* L and U packed into one matrix, as the check reads them */
	for (int u = 0; u < nl; u++)
		for (int v = 0; v < nl; v++) {
			int r = k.pi + q * u, cc = k.pj + q * v;

			x->out[(size_t)r * n + cc] =
			    r > cc ? L.a[(size_t)u * nl + v]
				   : U.a[(size_t)u * nl + v];
		}
out:
	vp_comm_free(k.row);
	vp_comm_free(k.col);
	free(mem);
	return rc;
}

/* ---- the cost ---- */

static double mm_cost(const struct app_ctx *x, double m, double ts, double tw,
		      int *exact)
{
	char line[32];
	double b = m / x->q;
	size_t bytes = 8 * (size_t)b * (size_t)b;

	snprintf(line, sizeof(line), "full:%d", x->q);
	return x->q * (2 * app_coll_cost(VP_COLL_BCAST, x->used[0], line, x->q,
					 bytes, ts, tw, exact) +
		       2 * b * b * b * x->prm.gamma);
}

static double seq_flops(double m, int inv)
{
	double f = 0;

	for (int k = 0; k < m; k++) /* as factor_and_invert counts them */
		f += (m - k - 1) * (1 + 2.0 * (m - k - 1));
	if (inv)
		for (int c = 0; c < m; c++) {
			for (int i = c + 1; i < m; i++)
				f += 2.0 * (i - c);
			for (int i = c - 1; i >= 0; i--)
				f += 2.0 * (c - i) + 1;
		}
	return f;
}

static double lu_cost(const struct app_ctx *x, double m, int inv, double ts,
		      double tw, int *exact)
{
	char full[32];
	double b = m / x->q;

	if (m <= base_side(x) || (int)b % 2) {
		snprintf(full, sizeof(full), "full:%d", x->p);
		return app_coll_cost(VP_COLL_ALLGATHER, x->used[1], full, x->p,
				     8 * (size_t)b * (size_t)b, ts, tw, exact) +
		       seq_flops(m, inv) * x->prm.gamma;
	}
	return lu_cost(x, m / 2, 1, ts, tw, exact) +
	       lu_cost(x, m / 2, inv, ts, tw, exact) +
	       (3 + 4 * inv) * mm_cost(x, m / 2, ts, tw, exact) +
	       (b / 2) * (b / 2) * x->prm.gamma;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	*exact = 0;
	return lu_cost(x, x->prm.n, 0, ts, tw, exact);
}

static double book(const struct app_ctx *x, double ts, double tw)
{
	double n = x->prm.n, p = x->p, p23 = cbrt(p * p);

	return 2 * n * n * n / (3 * p) * x->prm.gamma +
	       (p > 1 ? p23 * log2(p) * ts + tw * 8 * n * n / p23 : 0);
}

const struct app app_lu_recursive = {
	.name = "lu-recursive",
	.title = "recursive LU factorization",
	.source = "the 2x2 recursion with the inverses carried (Tiskin 2002)",
	.book_text = "2(n^3/3p)gamma + p^(2/3) log(p) ts + tw 8n^2/p^(2/3) "
		     "(leading terms of O(.), with 3-D multiplications)",
	.topologies = "p = q^2: a q x q mesh or torus",
	.check_text = "max |L U - A| over every entry",
	.tour = { "mesh:2x2", "torus:4x4" },
	.tour_n = 48,
	.shape = shape,
	.out_len = app_n_squared,
	.check = app_lu_check,
	.cost = APP_EXACT,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
