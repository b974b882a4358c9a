/*
 * test_reproducible.c - reproducible sums (vp_opts.reproducible and
 * vp_reproducible_sum):
 *   - with the option on, every algorithm of vp_reduce, vp_allreduce,
 *     vp_reduce_scatter and vp_scan on every topology gives, for VP_DOUBLE
 *     and VP_FLOAT, the exact sum of the terms correctly rounded, bit for
 *     bit, on ill-conditioned data (cancellation by 2^200, subnormals,
 *     magnitudes 2^60 apart), in place too; strict mode's neighbour
 *     algorithms as well;
 *   - the reference is an independent algorithm: Shewchuk's exact
 *     expansion sum ("Adaptive Precision Floating-Point Arithmetic", 1997)
 *     with the final correctly rounded step of Python's math.fsum;
 *   - without the option the same algorithms disagree on the same data
 *     (the problem the option solves);
 *   - vp_reproducible_sum of one array of 1000 terms split among p ranks
 *     gives the same bits for every p = 1..64, for blocks and for a cyclic
 *     reversed split, and with every all-reduce algorithm;
 *   - IEEE special cases: NaN, infinities, inf - inf, overflow to inf,
 *     subnormal sums, the widest range (DBL_MAX - DBL_MAX + the smallest
 *     subnormal), zeros;
 *   - the cost: one 16-byte all-reduce more, and the integers on the wire
 *     (one limb of 8 bytes an element for narrow data), to the model unit;
 *   - other ops and types are untouched; bad arguments are refused by name;
 *     VP_REPRODUCIBLE turns it on.
 * VP_TEST_QUICK=1 (sanitizers, valgrind) samples p = 1..64 in steps.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define COUNT 16   /* elements per rank of the collectives */
#define TERMS 1000 /* terms of vp_reproducible_sum's array */

/* ---- the reference: Shewchuk's expansion, rounded as math.fsum does ---- */

static double exact_sum(const double *x, size_t n)
{
	double partials[256], hi = 0, lo = 0;
	int np = 0, i, j;
	size_t k;

	for (k = 0; k < n; k++) {
		double v = x[k];

		for (i = 0, j = 0; j < np; j++) {
			double y = partials[j], h, l;

			if (fabs(v) < fabs(y)) {
				double t = v;
				v = y;
				y = t;
			}
			h = v + y;
			l = y - (h - v);
			if (l != 0)
				partials[i++] = l;
			v = h;
		}
		np = i;
		partials[np++] = v;
	}
	if (np == 0)
		return 0;
	hi = partials[--np];
	while (np > 0) {
		double v = hi, y = partials[--np];

		hi = v + y;
		lo = y - (hi - v);
		if (lo != 0)
			break;
	}
	/* a half-way case that the rest of the expansion breaks */
	if (np > 0 && ((lo < 0 && partials[np - 1] < 0) ||
		       (lo > 0 && partials[np - 1] > 0))) {
		double y = lo * 2, v = hi + y;

		if (y == v - hi)
			hi = v;
	}
	return hi;
}

/* ---- the data ---- */

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* in (-1, 1), 53 random bits */
static double unit(uint64_t z)
{
	double u = (double)(mix(z) >> 11) * 0x1p-53;

	return mix(z + 1) & 1 ? -u : u;
}

/* Rank r's term of element i: four kinds of hard sums. */
static double dterm(int i, int r)
{
	uint64_t z = (uint64_t)i * 1000003u + (uint64_t)r;

	switch (i % 4) {
	case 0: /* magnitudes 2^-30 .. 2^30, both signs */
		return ldexp(unit(z), (int)(mix(z + 7) % 61) - 30);
	case 1: /* +2^200 and -2^200 cancel; the rest is 2^-100 small */
		if (r == 0)
			return 0x1p200;
		if (r == 1)
			return -0x1p200;
		return ldexp(unit(z), -100);
	case 2: /* tenths with alternating signs */
		return (r % 2 ? -0.1 : 0.1) * (r + 1 + i);
	default: /* subnormals, and one normal number */
		return r == 2 ? 0x1p-1000 : ldexp(unit(z), -1060);
	}
}

/* Float terms within 2^20 of each other: their exact sum of up to 64 is
 * a double, so (float) of it is correctly rounded. */
static float fterm(int i, int r)
{
	uint64_t z = (uint64_t)i * 7919u + (uint64_t)r + 99;

	return (float)ldexp(unit(z), (int)(mix(z + 3) % 21) - 10);
}

/* The reference of element i over ranks [lo, hi). */
static double dref(int i, int lo, int hi)
{
	double t[VP_MAX_RANKS > 64 ? 64 : VP_MAX_RANKS];
	int r;

	for (r = lo; r < hi; r++)
		t[r - lo] = dterm(i, r);
	return exact_sum(t, (size_t)(hi - lo));
}

static float fref(int i, int lo, int hi)
{
	double s = 0;
	int r;

	for (r = lo; r < hi; r++)
		s += fterm(i, r); /* exact: see fterm */
	return (float)s;
}

/* ---- every reduction, every algorithm ---- */

struct sweep {
	vp_alg only; /* strict mode: its neighbour-only algorithm */
	int checked[VP_MAX_RANKS > 64 ? 64 : 64];
	int wrong[64]; /* per rank: results not bit-identical */
	char first[64][200];
};

static void note_wrong(struct sweep *s, int r, const char *what, vp_alg alg,
		       int i, double got, double want)
{
	if (!s->wrong[r]++)
		snprintf(s->first[r], sizeof(s->first[r]),
			 "rank %d: %s %s element %d: %a, want %a", r, what,
			 vp_alg_name(alg), i, got, want);
}

static int check_op(vp_comm *c, struct sweep *s, vp_coll op, vp_alg alg,
		    int in_place)
{
	int p = vp_size(c), r = vp_rank(c), i, b, rc;
	double din[64 * COUNT], dout[64 * COUNT];
	float fin[64 * COUNT], fout[64 * COUNT];
	int blocks = op == VP_COLL_REDUCE_SCATTER ? p : 1;
	const void *ds = in_place ? VP_IN_PLACE : din;
	const void *fs = in_place ? VP_IN_PLACE : fin;
	double *dd = in_place ? din : dout;
	float *fd = in_place ? fin : fout;

	for (b = 0; b < blocks; b++)
		for (i = 0; i < COUNT; i++) {
			din[b * COUNT + i] = dterm(b * COUNT + i, r);
			fin[b * COUNT + i] = fterm(b * COUNT + i, r);
		}
	switch (op) {
	case VP_COLL_REDUCE:
		if (r != 0)
			ds = din, fs = fin;
		if ((rc = vp_reduce(c, ds, dd, COUNT, VP_DOUBLE, VP_SUM, 0,
				    alg)) ||
		    (rc =
			 vp_reduce(c, fs, fd, COUNT, VP_FLOAT, VP_SUM, 0, alg)))
			return rc;
		break;
	case VP_COLL_ALLREDUCE:
		if ((rc = vp_allreduce(c, ds, dd, COUNT, VP_DOUBLE, VP_SUM,
				       alg)) ||
		    (rc =
			 vp_allreduce(c, fs, fd, COUNT, VP_FLOAT, VP_SUM, alg)))
			return rc;
		break;
	case VP_COLL_SCAN:
		if ((rc = vp_scan(c, ds, dd, COUNT, VP_DOUBLE, VP_SUM, alg)) ||
		    (rc = vp_scan(c, fs, fd, COUNT, VP_FLOAT, VP_SUM, alg)))
			return rc;
		break;
	default: /* reduce-scatter: never in place */
		dd = dout, fd = fout;
		if ((rc = vp_reduce_scatter(c, din, dd, COUNT, VP_DOUBLE,
					    VP_SUM, alg)) ||
		    (rc = vp_reduce_scatter(c, fin, fd, COUNT, VP_FLOAT, VP_SUM,
					    alg)))
			return rc;
		break;
	}
	if (op == VP_COLL_REDUCE && r != 0)
		return VP_OK;
	for (i = 0; i < COUNT; i++) {
		int e = op == VP_COLL_REDUCE_SCATTER ? r * COUNT + i : i;
		int hi = op == VP_COLL_SCAN ? r + 1 : p;
		double dw = dref(e, 0, hi);
		float fw = fref(e, 0, hi);

		if (memcmp(&dd[i], &dw, sizeof(dw)))
			note_wrong(s, r, vp_coll_name(op), alg, e, dd[i], dw);
		if (memcmp(&fd[i], &fw, sizeof(fw)))
			note_wrong(s, r, vp_coll_name(op), alg, e, fd[i], fw);
	}
	s->checked[r]++;
	return VP_OK;
}

static int sweep_rank(vp_comm *c, void *arg)
{
	static const vp_coll ops[] = { VP_COLL_REDUCE, VP_COLL_ALLREDUCE,
				       VP_COLL_REDUCE_SCATTER, VP_COLL_SCAN };
	struct sweep *s = arg;
	vp_alg algs[VP_ALG_COUNT_];
	size_t o;
	int k, n, rc;

	for (o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		n = vp_coll_algorithms(ops[o], algs, VP_ALG_COUNT_);
		for (k = 0; k < n; k++) {
			if ((s->only && algs[k] != s->only) ||
			    (!s->only && algs[k] == VP_ALG_NEIGHBOUR) ||
			    !vp_coll_usable(c, ops[o], algs[k], NULL))
				continue;
			if ((rc = check_op(c, s, ops[o], algs[k], 0)))
				return rc;
			if (ops[o] != VP_COLL_REDUCE_SCATTER &&
			    (rc = check_op(c, s, ops[o], algs[k], 1)))
				return rc;
		}
	}
	return VP_OK;
}

/* only: VP_ALG_AUTO for every algorithm, else the one neighbour-only
 * algorithm of a strict run */
static void sweep(const char *topology, vp_alg only)
{
	vp_opts o = { .topology = topology,
		      .reproducible = 1,
		      .quiet = 1,
		      .strict = only != VP_ALG_AUTO };
	static struct sweep s;
	vp_stats st;
	int rc, r, wrong = 0, first = -1;

	memset(&s, 0, sizeof(s));
	s.only = only;
	rc = vp_run(&o, sweep_rank, &s, &st);
	for (r = 0; r < st.p && r < 64; r++)
		if (s.wrong[r]) {
			wrong += s.wrong[r];
			if (first < 0)
				first = r;
		}
	tap_ok(rc == 0 && s.checked[0] > 0 && !wrong,
	       "%s%s: %d calls of reduce, allreduce, reduce_scatter and scan "
	       "(%s, doubles and floats, in place too) give the correctly "
	       "rounded exact sum, bit for bit",
	       topology, only ? " strict" : "", s.checked[0],
	       only ? vp_alg_name(only) : "every algorithm");
	if (rc)
		tap_diag("rc %d: %s", rc, st.error);
	if (first >= 0)
		tap_diag("%d wrong; %s", wrong, s.first[first]);
}

/* ---- without the option ---- */

struct plain {
	double got[VP_ALG_COUNT_][COUNT];
	int ran[VP_ALG_COUNT_];
};

static int plain_rank(vp_comm *c, void *arg)
{
	struct plain *pl = arg;
	vp_alg algs[VP_ALG_COUNT_];
	double in[COUNT], out[COUNT];
	int n, k, i, rc;

	for (i = 0; i < COUNT; i++)
		in[i] = dterm(i, vp_rank(c));
	n = vp_coll_algorithms(VP_COLL_ALLREDUCE, algs, VP_ALG_COUNT_);
	for (k = 0; k < n; k++) {
		if (!vp_coll_usable(c, VP_COLL_ALLREDUCE, algs[k], NULL) ||
		    algs[k] == VP_ALG_NEIGHBOUR)
			continue;
		if ((rc = vp_allreduce(c, in, out, COUNT, VP_DOUBLE, VP_SUM,
				       algs[k])))
			return rc;
		if (vp_rank(c) == 0) {
			memcpy(pl->got[algs[k]], out, sizeof(out));
			pl->ran[algs[k]] = 1;
		}
	}
	return VP_OK;
}

static void plain_sums_differ(void)
{
	vp_opts o = { .topology = "full:16", .quiet = 1 };
	static struct plain pl;
	int a, b, differ = 0, ran = 0, rc;

	rc = vp_run(&o, plain_rank, &pl, NULL);
	for (a = 0; a < VP_ALG_COUNT_; a++) {
		ran += pl.ran[a];
		for (b = 0; b < a; b++)
			if (pl.ran[a] && pl.ran[b] &&
			    memcmp(pl.got[a], pl.got[b], sizeof(pl.got[a])))
				differ++;
	}
	tap_ok(rc == 0 && ran >= 4 && differ > 0,
	       "without the option the %d all-reduce algorithms on full:16 "
	       "disagree on the same data (%d pairs differ): the problem is "
	       "real",
	       ran, differ);
}

/* ---- vp_reproducible_sum over p ---- */

static double big_term(int k)
{
	return dterm(k % 4 == 3 ? 4 * k : k, k / 4); /* all four kinds */
}

struct split {
	int cyclic; /* rank r holds k = r, r + p, ... in reverse */
	vp_alg alg;
	double sum[64];
};

static int split_rank(vp_comm *c, void *arg)
{
	struct split *sp = arg;
	int p = vp_size(c), r = vp_rank(c), n = 0, k;
	double x[TERMS];

	if (sp->cyclic) {
		for (k = TERMS - 1; k >= 0; k--)
			if (k % p == r)
				x[n++] = big_term(k);
	} else { /* uneven blocks: rank r gets [r T / p, (r + 1) T / p) */
		for (k = r * TERMS / p; k < (r + 1) * TERMS / p; k++)
			x[n++] = big_term(k);
	}
	return vp_reproducible_sum(c, x, (size_t)n, VP_DOUBLE, &sp->sum[r],
				   sp->alg);
}

static void sum_over_p(int quick)
{
	static double all[TERMS];
	vp_alg algs[VP_ALG_COUNT_];
	char topo[32];
	double want;
	int p, k, r, n, bad = 0, runs = 0, rc = 0, first_bad = 0;

	for (k = 0; k < TERMS; k++)
		all[k] = big_term(k);
	want = exact_sum(all, TERMS);
	for (p = 1; p <= 64; p += quick && p > 4 ? 9 : 1) {
		static struct split sp;
		int cyclic;

		for (cyclic = 0; cyclic < 2; cyclic++) {
			vp_opts o = { .topology = topo, .quiet = 1 };

			snprintf(topo, sizeof(topo), "full:%d", p);
			memset(&sp, 0, sizeof(sp));
			sp.cyclic = cyclic;
			sp.alg = VP_ALG_AUTO;
			rc |= vp_run(&o, split_rank, &sp, NULL);
			runs++;
			for (r = 0; r < p; r++)
				if (memcmp(&sp.sum[r], &want, sizeof(want))) {
					if (!bad++)
						first_bad = p;
					break;
				}
		}
	}
	tap_ok(rc == 0 && !bad,
	       "vp_reproducible_sum of %d terms split among p = 1..64 ranks "
	       "(%d runs, blocks and reversed cyclic) gives %a on every rank, "
	       "the correctly rounded exact sum",
	       TERMS, runs, want);
	if (bad)
		tap_diag("first wrong at p = %d", first_bad);

	n = vp_coll_algorithms(VP_COLL_ALLREDUCE, algs, VP_ALG_COUNT_);
	bad = runs = 0;
	for (k = 0; k < n; k++) {
		static struct split sp;
		vp_opts o = { .topology = "full:16", .quiet = 1 };

		if (algs[k] == VP_ALG_NEIGHBOUR)
			continue;
		memset(&sp, 0, sizeof(sp));
		sp.alg = algs[k];
		rc = vp_run(&o, split_rank, &sp, NULL);
		runs++;
		if (rc || memcmp(&sp.sum[5], &want, sizeof(want)))
			bad++;
	}
	tap_ok(!bad,
	       "on full:16 every one of the %d all-reduce algorithms "
	       "gives vp_reproducible_sum the same bits",
	       runs);
}

/* ---- special values ---- */

struct special {
	double t[4]; /* rank r's term: t[r] */
	double got;
	float t32[4], got32;
};

static int special_rank(vp_comm *c, void *arg)
{
	struct special *sp = arg;
	int r = vp_rank(c), rc;
	double out;
	float out32;

	if ((rc = vp_allreduce(c, &sp->t[r], &out, 1, VP_DOUBLE, VP_SUM,
			       VP_ALG_RING)) ||
	    (rc = vp_allreduce(c, &sp->t32[r], &out32, 1, VP_FLOAT, VP_SUM,
			       VP_ALG_BINOMIAL)))
		return rc;
	if (r == 3) {
		sp->got = out;
		sp->got32 = out32;
	}
	return VP_OK;
}

/* want32: the float sum's bits, or NAN with check32 0 to check only the
 * doubles (terms outside float's range). */
static void special(const char *what, double a, double b, double c, double d,
		    double want, int check32, float want32)
{
	vp_opts o = { .topology = "full:4", .reproducible = 1, .quiet = 1 };
	struct special sp = {
		{ a, b, c, d }, 0, { (float)a, (float)b, (float)c, (float)d }, 0
	};
	int rc = vp_run(&o, special_rank, &sp, NULL), same, same32 = 1;

	same = isnan(want) ? isnan(sp.got) : !memcmp(&sp.got, &want, 8);
	if (check32)
		same32 = isnan(want32) ? isnan(sp.got32)
				       : !memcmp(&sp.got32, &want32, 4);
	if (check32)
		tap_ok(rc == 0 && same && same32, "%s: %a, in floats %a", what,
		       sp.got, (double)sp.got32);
	else
		tap_ok(rc == 0 && same, "%s: %a", what, sp.got);
}

/* ---- the cost ---- */

struct cost {
	double t_plain, t_repro;
	vp_alg small;
};

static int cost_rank(vp_comm *c, void *arg)
{
	struct cost *k = arg;
	double in[64], out[64];
	int i;

	for (i = 0; i < 64; i++)
		in[i] = 1.0 + i / 64.0; /* one binade: one limb */
	if (vp_rank(c) == 0) /* the same choice on every rank */
		k->small = vp_coll_choose(c, VP_COLL_ALLREDUCE, 16, NULL);
	return vp_allreduce(c, in, out, 64, VP_DOUBLE, VP_SUM,
			    VP_ALG_RECURSIVE_DOUBLING);
}

static void cost(void)
{
	vp_opts o = { .topology = "full:8", .ts = 100, .tw = 1, .quiet = 1 };
	struct cost k;
	vp_stats st;
	double t_small, t_big;
	int rc;

	rc = vp_run(&o, cost_rank, &k, &st);
	k.t_plain = st.model_time;
	o.reproducible = 1;
	rc |= vp_run(&o, cost_rank, &k, &st);
	k.t_repro = st.model_time;
	t_small = vp_coll_formula(VP_COLL_ALLREDUCE, k.small, "full:8", 8, 16,
				  0, 100, 1, NULL);
	t_big = vp_coll_formula(VP_COLL_ALLREDUCE, VP_ALG_RECURSIVE_DOUBLING,
				"full:8", 8, 512, 0, 100, 1, NULL);
	tap_ok(rc == 0 && k.t_plain == t_big && k.t_repro == t_small + t_big,
	       "cost: 64 doubles of one binade on full:8 (ts 100, tw 1) take "
	       "%g plain and %g reproducible = the 16-byte all-reduce (%s, "
	       "%g) + the same 512 bytes (one limb an element, %g)",
	       k.t_plain, k.t_repro, vp_alg_name(k.small), t_small, t_big);
}

/* ---- the rest is untouched; errors ---- */

struct misc {
	int max_ok, int_ok, flag;
	int rc_type, rc_null;
	char err[256];
};

static int misc_rank(vp_comm *c, void *arg)
{
	struct misc *m = arg;
	double d = vp_rank(c) + 0.5, dmax;
	int32_t v = vp_rank(c) + 1, vs;

	if (vp_allreduce(c, &d, &dmax, 1, VP_DOUBLE, VP_MAX, VP_ALG_AUTO) ||
	    vp_allreduce(c, &v, &vs, 1, VP_INT32, VP_SUM, VP_ALG_AUTO))
		return VP_EINVAL;
	if (vp_rank(c) == 0) {
		m->max_ok = dmax == vp_size(c) - 0.5;
		m->int_ok = vs == vp_size(c) * (vp_size(c) + 1) / 2;
		m->flag = vp_reproducible(c);
	}
	return VP_OK;
}

static int bad_type_rank(vp_comm *c, void *arg)
{
	int32_t x = 1, s;

	(void)arg;
	return vp_reproducible_sum(c, &x, 1, VP_INT32, &s, VP_ALG_AUTO);
}

static int bad_null_rank(vp_comm *c, void *arg)
{
	double s;

	(void)arg;
	return vp_reproducible_sum(c, NULL, 3, VP_DOUBLE, &s, VP_ALG_AUTO);
}

static void misc(void)
{
	vp_opts o = { .topology = "full:5", .reproducible = 1, .quiet = 1 };
	struct misc m;
	vp_stats st;
	int rc;

	memset(&m, 0, sizeof(m));
	rc = vp_run(&o, misc_rank, &m, NULL);
	tap_ok(rc == 0 && m.max_ok && m.int_ok && m.flag == 1,
	       "VP_MAX of doubles and VP_SUM of int32 are untouched by the "
	       "option; vp_reproducible says 1");
	rc = vp_run(&o, bad_type_rank, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "vp_reproducible_sum") &&
		   strstr(st.error, "type 1"),
	       "vp_reproducible_sum refuses VP_INT32 by name: %s", st.error);
	rc = vp_run(&o, bad_null_rank, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "x is NULL but must hold 3"),
	       "vp_reproducible_sum refuses a NULL array: %s", st.error);
	o.reproducible = 2;
	rc = vp_run(&o, misc_rank, &m, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "reproducible 2"),
	       "vp_opts.reproducible 2 is refused: %s", st.error);
	o.reproducible = 0;
	setenv("VP_REPRODUCIBLE", "1", 1);
	memset(&m, 0, sizeof(m));
	rc = vp_run(&o, misc_rank, &m, NULL);
	unsetenv("VP_REPRODUCIBLE");
	tap_ok(rc == 0 && m.flag == 1, "VP_REPRODUCIBLE=1 turns it on");
}

int main(void)
{
	static const char *const topologies[] = {
		"full:1",    "full:2",      "full:3", "full:8",
		"full:13",   "ring:6",      "line:5", "mesh:3x4",
		"torus:4x4", "hypercube:4", "tree:8",
	};
	int quick = getenv("VP_TEST_QUICK") != NULL;
	size_t t;

	for (t = 0; t < sizeof(topologies) / sizeof(topologies[0]); t++)
		sweep(topologies[t], VP_ALG_AUTO);
	sweep("ring:6", VP_ALG_NEIGHBOUR);
	sweep("mesh:3x3", VP_ALG_NEIGHBOUR);
	sweep("hypercube:3", VP_ALG_HYPERCUBE);
	plain_sums_differ();
	sum_over_p(quick);

	special("a NaN term gives NaN", 1, NAN, 2, 3, NAN, 1, NAN);
	special("+inf with finite terms gives +inf", 1, INFINITY, -5, 3,
		INFINITY, 1, INFINITY);
	special("-inf gives -inf", -INFINITY, 1, 2, 3, -INFINITY, 1, -INFINITY);
	special("+inf and -inf give NaN", INFINITY, 1, -INFINITY, 3, NAN, 1,
		NAN);
	special("DBL_MAX + DBL_MAX overflows to +inf", DBL_MAX, DBL_MAX, 0, 0,
		INFINITY, 0, 0);
	special("FLT_MAX + FLT_MAX: exact in doubles, +inf in floats", FLT_MAX,
		FLT_MAX, 0, 0, 2.0 * FLT_MAX, 1, INFINITY);
	special("DBL_MAX - DBL_MAX + the least subnormal is exact", DBL_MAX,
		-DBL_MAX, 0x1p-1074, 0, 0x1p-1074, 0, 0);
	special("2^100 + 1 - 2^100 is 1", 0x1p100, 1, -0x1p100, 0, 1, 1, 1);
	special("subnormals add exactly", 0x1p-1074, 0x1p-1074, 0x3p-1074,
		-0x1p-1073, 0x3p-1074, 0, 0);
	special("float subnormals add exactly", 0x1p-149, 0x1p-149, 0x1p-148, 0,
		0x1p-147, 1, 0x1p-147f);
	special("a tie rounds to even: 1 + 2^-53 is 1", 1, 0x1p-53, 0, 0, 1, 1,
		1);
	special("above the tie: 1 + 2^-53 + 2^-60 is 1 + 2^-52", 1, 0x1p-53,
		0x1p-60, 0, 0x1.0000000000001p0, 1, 1);
	special("a tie to even upward: 1 + 3 2^-53 is 1 + 2^-51", 1, 0x1p-53,
		0x1p-52, 0, 0x1.0000000000002p0, 1, 1);
	special("zeros sum to +0, -0 terms included", -0.0, -0.0, 0.0, -0.0,
		0.0, 1, 0.0f);
	cost();
	misc();
	return tap_done();
}
