/*
 * test_win_model.c - what passive target costs in each cost model,
 * exactly (docs/models.md, "One-sided communication"): the target is
 * passive, its ports and overhead unused.
 *   - a lock is a request and a grant: alpha-beta 2 ts, store-and-forward
 *     2 (ts + th), LogP/LogGP o + 2L;
 *   - a put of m bytes costs the origin its send (LogGP: o; the port
 *     o + (m-1)G) and lands L later: alpha-beta ts + tw m after its
 *     start, LogGP o + (m-1)G + L; vp_win_flush waits for it;
 *   - a get is a round trip: alpha-beta 2 ts + tw m, LogGP o + 2L +
 *     (m-1)G; fetch-and-op and compare-and-swap too (their bytes both
 *     ways);
 *   - the unlock sends a release: LogGP o more;
 *   - BSP counts the bytes in h at both ends, as under fences;
 *   - a one-sided broadcast (the root puts m bytes to every other rank
 *     under vp_win_lock_all) and a one-sided all-to-all (every rank does)
 *     cost the formulas below, at p = 4 and 8.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define MAXP 8
#define M 100

enum pattern { PUT, GET, FETCH, CAS, BCAST, ALLTOALL };

struct ctx {
	int pattern;
	double t0;     /* rank 0's T before the lock */
	double lock;   /* after the lock */
	double op;     /* after the operation */
	double flush;  /* after the flush */
	double unlock; /* after the unlock */
	double end[MAXP];
	unsigned char win[MAXP][MAXP * M];
};

/* Rank 0's lock of rank 1, one operation, flush, unlock; the times
 * after each step. */
static int one_op(vp_comm *c, struct ctx *x, vp_win *w)
{
	unsigned char b[M] = { 0 };
	int64_t v = 1, old, cmp = 0;
	int rc;

	x->t0 = vp_time(c);
	if ((rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 1)))
		return rc;
	x->lock = vp_time(c);
	switch (x->pattern) {
	case PUT:
		rc = vp_put(w, 1, 0, b, M);
		break;
	case GET:
		rc = vp_get(w, 1, 0, b, M);
		break;
	case FETCH:
		rc = vp_fetch_and_op(w, 1, 0, &v, &old, VP_INT64, VP_SUM);
		break;
	case CAS:
		rc = vp_compare_and_swap(w, 1, 0, &v, &cmp, &old, VP_INT64);
		break;
	}
	if (rc)
		return rc;
	x->op = vp_time(c);
	if ((rc = vp_win_flush(w, 1)))
		return rc;
	x->flush = vp_time(c);
	if ((rc = vp_win_unlock(w, 1)))
		return rc;
	x->unlock = vp_time(c);
	return VP_OK;
}

/* Puts M bytes into every other rank under vp_win_lock_all: from the
 * rank's own slot of its window, into its slot of the target's (no
 * rank writes the bytes another reads). */
static int put_all(vp_comm *c, struct ctx *x, vp_win *w)
{
	int me = vp_rank(c), p = vp_size(c), t, rc;

	if ((rc = vp_win_lock_all(w, 0)))
		return rc;
	for (t = 0; t < p; t++)
		if (t != me &&
		    (rc = vp_put(w, t, (size_t)me * M,
				 x->win[me] + (size_t)me * M, M)))
			return rc;
	return vp_win_unlock_all(w);
}

static int run_pattern(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), rc;
	vp_win *w;

	if ((rc = vp_win_create(c, x->win[me], sizeof(x->win[me]), &w)) ||
	    (rc = vp_barrier(c)))
		return rc;
	if (me == 0) /* after the barrier: the same on every rank */
		x->t0 = vp_time(c);
	if (x->pattern <= CAS && me == 0)
		rc = one_op(c, x, w);
	else if ((x->pattern == BCAST && me == 0) || x->pattern == ALLTOALL)
		rc = put_all(c, x, w);
	x->end[me] = vp_time(c);
	if (rc || (rc = vp_barrier(c)))
		return rc;
	return vp_win_free(w);
}

static vp_stats st;

static int run(const char *model, int p, int pattern, struct ctx *x)
{
	char topo[32];
	vp_opts o = { 0 };
	int rc;

	snprintf(topo, sizeof(topo), "full:%d", p);
	memset(x->end, 0, sizeof(x->end));
	x->pattern = pattern;
	o.topology = topo;
	o.model = model;
	o.quiet = 1;
	rc = vp_run(&o, run_pattern, x, &st);
	if (rc)
		tap_diag("%s %s: %s", topo, model, st.error);
	return rc;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* The times after lock, operation, flush and unlock, less the start. */
static void steps(const char *model, int pattern, const char *what,
		  double lock, double op, double flush, double unlock)
{
	static struct ctx x;
	int rc = run(model, 2, pattern, &x);
	double a = x.lock - x.t0, b = x.op - x.t0, f = x.flush - x.t0,
	       u = x.unlock - x.t0;

	tap_ok(!rc && near(a, lock) && near(b, op) && near(f, flush) &&
		       near(u, unlock),
	       "%s, %s: lock %g, op %g, flush %g, unlock %g (got %g %g %g "
	       "%g)",
	       model, what, lock, op, flush, unlock, a, b, f, u);
}

static void single_operations(void)
{
	const char *ab = "alpha-beta:ts=10,tw=1";
	const char *saf = "alpha-beta:saf,ts=10,tw=1,th=3";
	const char *logp = "logp:L=5,o=2,g=3";
	const char *loggp = "loggp:L=5,o=2,g=3,G=0.5";

	/* alpha-beta: lock 2 ts = 20; the put starts at 20, lands
	 * ts + tw m = 110 later; T moves only at the flush; the release
	 * leaves the port then */
	steps(ab, PUT, "put of 100 bytes", 20, 20, 130, 130);
	/* a get: its request at 20, the reply ts + tw m after it lands */
	steps(ab, GET, "get of 100 bytes", 20, 20, 140, 140);
	/* fetch-and-op of 8 bytes: request ts + 8 tw, reply ts + 8 tw */
	steps(ab, FETCH, "fetch_and_op of 8 bytes", 20, 20, 56, 56);
	/* compare-and-swap: 16 bytes there, 8 back */
	steps(ab, CAS, "compare_and_swap of 8 bytes", 20, 20, 64, 64);
	/* store-and-forward, one hop: each message ts + (tw m + th) */
	steps(saf, PUT, "put of 100 bytes", 26, 26, 139, 139);
	/* LogP: lock o + 2L = 12; the put costs o (T 14), lands at
	 * 12 + o + L = 19; the release costs o more */
	steps(logp, PUT, "put of 100 bytes", 12, 14, 19, 21);
	/* LogGP: the put lands at 12 + o + 99 G + L = 68.5 */
	steps(loggp, PUT, "put of 100 bytes", 12, 14, 68.5, 70.5);
	/* LogGP get: request at 12 (o: 14), lands 19, reply 99 G + L */
	steps(loggp, GET, "get of 100 bytes", 12, 14, 73.5, 75.5);
	/* LogGP fetch-and-op: 8 bytes each way: 12 + (o + 7G + L) +
	 * (7G + L) */
	steps(loggp, FETCH, "fetch_and_op of 8 bytes", 12, 14, 31, 33);
	/* BSP: no time until a superstep ends */
	steps("bsp:g=2,l=50", PUT, "put of 100 bytes", 0, 0, 0, 0);
}

static void bsp_h(void)
{
	static struct ctx x;
	int rc;

	/* the barrier after vp_win_create: l = 50; the root's 300 bytes
	 * out (its h) end the next superstep: 50 + 300 g + l */
	rc = run("bsp:g=2,l=50", 4, BCAST, &x);
	tap_ok(!rc && near(st.model_time, 50 + 300 * 2 + 50 + 50),
	       "BSP: one-sided broadcast of 100 bytes to 3 ranks under "
	       "lock_all: h = 300 at the root: 50 + 600 + 50, the free's "
	       "barrier l more: 750 (got %g)",
	       st.model_time);
	rc = run("bsp:g=2,l=50", 4, ALLTOALL, &x);
	tap_ok(!rc && near(st.model_time, 50 + 300 * 2 + 50 + 50),
	       "BSP: one-sided all-to-all of 100 bytes on 4 ranks: h = 300 "
	       "in and out at every rank: 750 (got %g)",
	       st.model_time);
}

/*
 * The root's time for lock_all, p - 1 puts of m bytes and unlock_all
 * (LogGP; r = max(g, o) a 0-byte message's port time, s = max(g, o +
 * (m-1)G) a put's):
 *   lock_all    p requests r apart, the last grant o + 2L after its
 *               request:                         (p-1) r + o + 2L
 *   puts        s apart, the last lands o + (m-1)G + L after its start:
 *                                                (p-2) s + o + (m-1)G + L
 *   unlock_all  p releases r apart from the last landing: (p-1) r + o
 * alpha-beta (cpu 0, a message holds the port ts + tw m):
 *   (p+1) ts + (p-1)(ts + tw m) = 2p ts + (p-1) tw m
 */
static double loggp_formula(int p, double L, double o, double g, double G,
			    double m)
{
	double r = g > o ? g : o, tail = (m - 1) * G;
	double s = g > o + tail ? g : o + tail;

	return (p - 1) * r + o + 2 * L + (p - 2) * s + o + tail + L +
	       (p - 1) * r + o;
}

static void formulas(void)
{
	static struct ctx x;
	int p, rc, i, same;

	for (p = 4; p <= 8; p *= 2) {
		double ab = 2 * p * 10 + (p - 1) * 1.0 * M;
		double lg = loggp_formula(p, 5, 2, 3, 0.5, M);

		rc = run("alpha-beta:ts=10,tw=1", p, BCAST, &x);
		tap_ok(!rc && near(x.end[0] - x.t0, ab),
		       "alpha-beta: one-sided broadcast of %d bytes, p = %d: "
		       "2p ts + (p-1) tw m = %g (got %g)",
		       M, p, ab, x.end[0] - x.t0);
		rc = run("loggp:L=5,o=2,g=3,G=0.5", p, BCAST, &x);
		tap_ok(!rc && near(x.end[0] - x.t0, lg),
		       "LogGP: one-sided broadcast of %d bytes, p = %d: %g "
		       "(got %g)",
		       M, p, lg, x.end[0] - x.t0);
		/* all-to-all: no target overhead, so every rank pays what
		 * the broadcast's root does */
		rc = run("loggp:L=5,o=2,g=3,G=0.5", p, ALLTOALL, &x);
		for (i = 0, same = !rc; i < p; i++)
			same = same && near(x.end[i] - x.t0, lg);
		tap_ok(same,
		       "LogGP: one-sided all-to-all of %d bytes, p = %d: "
		       "every rank %g (rank %d: %g)",
		       M, p, lg, p - 1, x.end[p - 1] - x.t0);
		rc = run("alpha-beta:ts=10,tw=1", p, ALLTOALL, &x);
		for (i = 0, same = !rc; i < p; i++)
			same = same && near(x.end[i] - x.t0, ab);
		tap_ok(same,
		       "alpha-beta: one-sided all-to-all of %d bytes, p = "
		       "%d: every rank %g (rank %d: %g)",
		       M, p, ab, p - 1, x.end[p - 1] - x.t0);
	}
}

int main(void)
{
	unsetenv("VP_WIN");
	single_operations();
	bsp_h();
	formulas();
	return tap_done();
}
