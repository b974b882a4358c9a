/*
 * apps.h - the book's applications on vp: dense matrix algorithms and a
 * sort, each written only against vp's public API (vp.h), checked against a
 * sequential computation and costed next to its formula.
 *
 * One file per algorithm (matvec_rowwise.c, cannon.c, ...), each opening
 * with its source, its cost and its steps, as the collectives do. A driver
 * (app_run.c) builds the sequential answer, runs the ranks, compares what
 * they wrote with it and computes the formulas; vp-run --app and --apps and
 * tests/test_apps.c call the driver.
 *
 * Inputs are pure functions of their indices (app_matrix_entry, app_key),
 * so every rank makes its own blocks where the algorithm says they start:
 * distributing the input is not part of any algorithm's cost in the book.
 * Matrix entries are small multiples of 1/8: every product and every sum
 * of the multiplications is exact in double precision up to n = 2^16, so
 * the parallel result must equal the sequential one bit for bit, in any
 * summation order. LU divides, so its check is the residual of L*U = A.
 *
 * Local work is charged with vp_compute: flops (a multiply-add is two) or,
 * for the sort, comparisons, times gamma.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_APPS_H
#define VP_APPS_H

#include <stddef.h>

#include "vp.h"

/* What a user asks for. */
struct app_params {
	int n;        /* matrix order, or keys in all for the sort */
	int nb;       /* LU: block size (0: n / (2 sqrt p), at least 1) */
	double gamma; /* model time per flop or comparison */
	vp_alg alg;   /* the collectives' algorithm (VP_ALG_AUTO) */
};

/* Shared by the ranks of one run. Ranks write only their own parts of out
 * (disjoint), the driver reads it after vp_run; rank 0 writes used[]. */
struct app_ctx {
	const struct app *app;
	struct app_params prm;
	vp_topo topo;
	int p, q; /* q: the grid's side (sqrt p, cbrt p) where there is one */
	double *out;    /* the result, out_len elements */
	vp_alg used[4]; /* the algorithm each call site ran (rank 0's view) */
};

/* What an application's formula is to the run's model time: equal, an
 * upper bound (its steps may overlap), or an estimate (it depends on the
 * data, or a collective's own formula is the book's estimate). */
enum app_cost { APP_EXACT, APP_BOUND, APP_ESTIMATE };
const char *app_cost_name(enum app_cost k); /* "exact", "bound", "~" */

/* What the driver found. */
struct app_result {
	int rc;             /* vp_run's result */
	int ok;             /* rc == 0 and the check passed */
	double error;       /* largest |parallel - sequential| (or residual) */
	double tolerance;   /* the largest error allowed */
	char check[160];    /* what was compared with what */
	double formula;     /* the cost of the steps this run took, < 0: none */
	enum app_cost kind; /* what formula is to the model time */
	double book;        /* the source's closed form, < 0: none */
	vp_stats st;
	char why[1100]; /* the error, or why the check failed */
};

struct app {
	const char *name;  /* "cannon" */
	const char *title; /* "Cannon's matrix multiplication" */
	const char *source;
	const char *book_text;  /* the closed form, in words */
	const char *topologies; /* the topologies it is made for, in words */
	const char *check_text; /* what the check compares */
	const char *tour[2];    /* topologies of vp-run --apps */
	int tour_n;             /* n of vp-run --apps */
	/* 0 if it can run on x->topo with x->prm (and sets x->q), else 1
	 * with why saying why not. */
	int (*shape)(struct app_ctx *x, char *why, size_t len);
	size_t (*out_len)(const struct app_ctx *x);
	/* The sequential answer, out_len elements (LU: NULL, see check). */
	void (*reference)(const struct app_ctx *x, double *ref);
	/* A check of its own (LU's residual); NULL: out equals ref. */
	double (*check)(const struct app_ctx *x, double *tolerance);
	int (*rank)(vp_comm *c, void *ctx);
	/* The step-by-step cost for alpha-beta (ts, tw) and what it is to
	 * the model time; *exact is cleared where a collective's formula is
	 * not exact (the result is then an estimate). */
	double (*formula)(const struct app_ctx *x, double ts, double tw,
			  int *exact);
	enum app_cost cost;
	/* The source's closed form; NULL: formula is the source's. */
	double (*book)(const struct app_ctx *x, double ts, double tw);
};

extern const struct app *const app_table[];
extern const int app_count;
const struct app *app_find(const char *name);

/* Runs a on opts' topology and fills r; the return is r->ok ? 0 : 1, or
 * 2 when the shape does not fit (r->why says why). */
int app_run(const struct app *a, const struct app_params *prm,
	    const vp_opts *opts, struct app_result *r);

/* ---- shared pieces (app_common.c) ---- */

/* Entry (i, j) of the input matrix whose seed is s: k/8, |k| <= 8. */
double app_matrix_entry(int s, long i, long j);
/* Key i of the sort's input: uniform in [0, 1). */
double app_key(long i);
/* blk[b x b] = block (bi, bj) of the input matrix of seed s; and block
 * (bi, bj) of the n x n result x->out = blk. */
void app_block_fill(int s, int bi, int bj, int b, double *blk);
void app_block_store(struct app_ctx *x, int bi, int bj, int b,
		     const double *blk);
/* c[b x b] += a[b x b] * bm[b x b], row-major, k innermost per (i, j) in
 * k order; returns the flops (2 b^3). */
double app_gemm_add(int b, const double *a, const double *bm, double *c);
/* The square root (sqrt) or cube root (cbrt) of p when p is one, else 0. */
int app_isqrt(int p);
int app_icbrt(int p);
/* The cost of one collective as vp_coll_formula gives it, with the
 * algorithm that ran; exact is and-ed into *exact. */
double app_coll_cost(vp_coll op, vp_alg alg, const char *topology, int p,
		     size_t bytes, double ts, double tw, int *exact);
/* Writes "rank R: app NAME: ..." into the rank's error and aborts. */
int app_fail(vp_comm *c, const struct app_ctx *x, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Shapes: p = q^2 with q dividing n (sets x->q); p dividing n. */
int app_square_grid(struct app_ctx *x, char *why, size_t len);
int app_row_blocks(struct app_ctx *x, char *why, size_t len);
/* Output lengths: n, n^2. */
size_t app_n(const struct app_ctx *x);
size_t app_n_squared(const struct app_ctx *x);
/* Sequential answers: y = A x (A seed 1, x seed 2 column 0) and C = A B
 * (A seed 1, B seed 2). */
void app_matvec_reference(const struct app_ctx *x, double *y);
void app_matmul_reference(const struct app_ctx *x, double *cm);
/* The LU applications' input: the input matrix of seed 1 plus n on the
 * diagonal (diagonally dominant: no pivoting needed); and their check,
 * max |L U - A| with L (unit lower) and U packed in x->out, against
 * n^2 (n + 1) eps. */
double app_lu_entry(int n, long i, long j);
double app_lu_check(const struct app_ctx *x, double *tolerance);
/* Row and column communicators of a q x q grid (rank = row * q + col):
 * *row has the ranks of my row in column order, *col those of my column
 * in row order. */
int app_grid_split(vp_comm *c, int q, vp_comm **row, vp_comm **col);
/* Records the algorithm world rank 0 ran at call site k. */
void app_note_alg(vp_comm *c, struct app_ctx *x, int k);

extern const struct app app_matvec_rowwise, app_matvec_2d, app_transpose,
    app_cannon, app_summa, app_mm3d, app_mm_recursive, app_lu,
    app_lu_recursive, app_sample_sort;

#endif /* VP_APPS_H */
