/*
 * app_common.c - what every application shares: its inputs, the local
 * block multiply, grid communicators, and the collectives' costs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

/* A 64-bit mix (Steele, Lea, Flood 2014, "SplitMix"): inputs that look
 * random and are the same on every rank and every run. */
static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double app_matrix_entry(int s, long i, long j)
{
	uint64_t h =
	    mix(((uint64_t)s << 56) ^ ((uint64_t)i << 28) ^ (uint64_t)j);

	return (double)((int)(h % 17) - 8) / 8.0;
}

void app_block_fill(int s, int bi, int bj, int b, double *blk)
{
	for (int r = 0; r < b; r++)
		for (int t = 0; t < b; t++)
			blk[(size_t)r * b + t] = app_matrix_entry(
			    s, (long)bi * b + r, (long)bj * b + t);
}

void app_block_store(struct app_ctx *x, int bi, int bj, int b,
		     const double *blk)
{
	for (int r = 0; r < b; r++)
		memcpy(x->out + ((size_t)bi * b + r) * x->prm.n +
			   (size_t)bj * b,
		       blk + (size_t)r * b, (size_t)b * sizeof(double));
}

double app_key(long i)
{
	return (double)(mix((uint64_t)i ^ 0x5eed) >> 11) * 0x1p-53;
}

double app_gemm_add(int b, const double *a, const double *bm, double *c)
{
	for (int i = 0; i < b; i++)
		for (int j = 0; j < b; j++) {
			double s = c[(size_t)i * b + j];

			for (int k = 0; k < b; k++)
				s += a[(size_t)i * b + k] *
				     bm[(size_t)k * b + j];
			c[(size_t)i * b + j] = s;
		}
	return 2.0 * b * b * b;
}

int app_isqrt(int p)
{
	int q = (int)lround(sqrt((double)p));

	return q * q == p ? q : 0;
}

int app_icbrt(int p)
{
	int q = (int)lround(cbrt((double)p));

	return q * q * q == p ? q : 0;
}

double app_coll_cost(vp_coll op, vp_alg alg, const char *topology, int p,
		     size_t bytes, double ts, double tw, int *exact)
{
	int e = 0;
	double t;

	if (p == 1)
		return 0; /* a collective of one rank sends nothing */
	t = vp_coll_formula(op, alg, topology, p, bytes, 0, ts, tw, &e);
	if (t < 0 || !e)
		*exact = 0;
	return t;
}

int app_fail(vp_comm *c, const struct app_ctx *x, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vp_abort(c, VP_EINVAL, x->app->name, "%s", msg);
}

int app_grid_split(vp_comm *c, int q, vp_comm **row, vp_comm **col)
{
	int r = vp_rank(c), rc;

	*row = *col = NULL;
	if ((rc = vp_comm_split(c, r / q, r % q, row)))
		return rc;
	if ((rc = vp_comm_split(c, r % q, r / q, col))) {
		vp_comm_free(*row);
		*row = NULL;
	}
	return rc;
}

void app_note_alg(vp_comm *c, struct app_ctx *x, int k)
{
	vp_alg alg;

	if (vp_world_rank(c, vp_rank(c)) == 0 &&
	    vp_coll_last_info(c, NULL, &alg, NULL))
		x->used[k] = alg;
}

int app_square_grid(struct app_ctx *x, char *why, size_t len)
{
	x->q = app_isqrt(x->p);
	if (x->q && x->prm.n % x->q == 0)
		return 0;
	snprintf(why, len,
		 "%s: needs p a square (p = %d) whose root divides n (n = %d)",
		 x->app->name, x->p, x->prm.n);
	return 1;
}

int app_row_blocks(struct app_ctx *x, char *why, size_t len)
{
	if (x->prm.n % x->p == 0)
		return 0;
	snprintf(why, len, "%s: n %d is not a multiple of p %d", x->app->name,
		 x->prm.n, x->p);
	return 1;
}

size_t app_n(const struct app_ctx *x)
{
	return (size_t)x->prm.n;
}

size_t app_n_squared(const struct app_ctx *x)
{
	return (size_t)x->prm.n * x->prm.n;
}

void app_matvec_reference(const struct app_ctx *x, double *y)
{
	int n = x->prm.n;

	for (int i = 0; i < n; i++) {
		double s = 0;

		for (int j = 0; j < n; j++)
			s += app_matrix_entry(1, i, j) *
			     app_matrix_entry(2, j, 0);
		y[i] = s;
	}
}

/* i-k-j order over whole rows: fast enough for n in the thousands. */
void app_matmul_reference(const struct app_ctx *x, double *cm)
{
	int n = x->prm.n;
	double *a = malloc(sizeof(double) * 2 * (size_t)n * n),
	       *b = a + (size_t)n * n;

	for (size_t i = 0; i < (size_t)n * n; i++)
		cm[i] = NAN;
	if (!a)
		return; /* the check then fails: no reference */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			a[(size_t)i * n + j] = app_matrix_entry(1, i, j);
			b[(size_t)i * n + j] = app_matrix_entry(2, i, j);
			cm[(size_t)i * n + j] = 0;
		}
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			double aik = a[(size_t)i * n + k];

			for (int j = 0; j < n; j++)
				cm[(size_t)i * n + j] +=
				    aik * b[(size_t)k * n + j];
		}
	free(a);
}

double app_lu_entry(int n, long i, long j)
{
	return app_matrix_entry(1, i, j) + (i == j ? n : 0);
}

double app_lu_check(const struct app_ctx *x, double *tolerance)
{
	int n = x->prm.n;
	const double *f = x->out;
	double worst = 0;

	*tolerance = (double)n * n * DBL_EPSILON * (n + 1);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int kmax = i < j ? i : j;
			/* (L U)_ij = sum_{k <= min(i,j)} L_ik U_kj, L_ii = 1 */
			double s = i <= j ? f[(size_t)i * n + j] : 0;

			for (int k = 0; k < kmax; k++)
				s +=
				    f[(size_t)i * n + k] * f[(size_t)k * n + j];
			if (i > j)
				s +=
				    f[(size_t)i * n + j] * f[(size_t)j * n + j];
			double d = fabs(s - app_lu_entry(n, i, j));

			if (isnan(d))
				d = INFINITY;
			if (d > worst)
				worst = d;
		}
	return worst;
}
