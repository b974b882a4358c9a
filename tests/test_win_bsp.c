/*
 * test_win_bsp.c - the one-sided BSP program of docs/models.md ("A
 * one-sided BSP program, two ways"), costed exactly under bsp:g=2,l=50 on
 * full:4: S = 3 supersteps in which rank i works W (i + 1) and puts M
 * bytes into block s of its right neighbour's window.
 *   - with fences: the first fence opens the epoch (a superstep, l), each
 *     superstep costs max_i W (i + 1) + M g + l = 40 + 200 + 50 = 290, the
 *     free's barrier l: 50 + 3 x 290 + 50 = 970;
 *   - with passive target (vp_win_lock_all, put, vp_win_flush, then a
 *     vp_barrier to end the superstep): the lock costs nothing under BSP,
 *     so each superstep costs the same 290: 3 x 290 + 50 = 920;
 *   - the same puts in one lock epoch and one barrier: one superstep,
 *     h = S M = 300, w = S W p = 120: 120 + 600 + 50, the free's l: 820;
 * and every neighbour's window holds the three blocks in each.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define P 4
#define S 3
#define M 100
#define W 10.0

enum sync { FENCE, PASSIVE, ONE_EPOCH };

struct ctx {
	int sync;
	double step[S]; /* rank 0's T after each superstep, less its start */
	unsigned char win[P][S * M];
};

/* Superstep s's work and put; the caller ends the superstep. */
static int work_and_put(vp_comm *c, vp_win *w, int s, const void *block)
{
	int me = vp_rank(c), right = (me + 1) % vp_size(c), rc;

	if ((rc = vp_compute(c, W * (me + 1))))
		return rc;
	return vp_put(w, right, (size_t)s * M, block, M);
}

/* The docs' fence program. */
static int fenced(vp_comm *c, vp_win *w, const void *block, double *step)
{
	double t0;
	int s, rc;

	if ((rc = vp_win_fence(w)))
		return rc;
	t0 = vp_time(c);
	for (s = 0; s < S; s++) {
		if ((rc = work_and_put(c, w, s, block)) ||
		    (rc = vp_win_fence(w)))
			return rc;
		step[s] = vp_time(c) - t0;
	}
	return VP_OK;
}

/* The docs' passive-target program (every == 0: one superstep). */
static int passive(vp_comm *c, vp_win *w, const void *block, int every,
		   double *step)
{
	int right = (vp_rank(c) + 1) % vp_size(c), s, rc;
	double t0 = vp_time(c);

	if ((rc = vp_win_lock_all(w, 0)))
		return rc;
	for (s = 0; s < S; s++) {
		if ((rc = work_and_put(c, w, s, block)) ||
		    (rc = vp_win_flush(w, right)) ||
		    (every && (rc = vp_barrier(c))))
			return rc;
		step[s] = vp_time(c) - t0;
	}
	if ((rc = vp_win_unlock_all(w)) || (!every && (rc = vp_barrier(c))))
		return rc;
	if (!every)
		step[S - 1] = vp_time(c) - t0;
	return VP_OK;
}

static int program(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), rc;
	unsigned char block[M];
	double step[S];
	vp_win *w;

	memset(block, 'a' + me, sizeof(block));
	if ((rc = vp_win_create(c, x->win[me], sizeof(x->win[me]), &w)))
		return rc;
	rc = x->sync == FENCE ? fenced(c, w, block, step)
			      : passive(c, w, block, x->sync == PASSIVE, step);
	if (!rc && me == 0)
		memcpy(x->step, step, sizeof(step));
	return rc ? rc : vp_win_free(w);
}

/* Every rank's window holds its left neighbour's block S times. */
static int delivered(const struct ctx *x)
{
	int r, k;

	for (r = 0; r < P; r++)
		for (k = 0; k < S * M; k++)
			if (x->win[r][k] != 'a' + (r + P - 1) % P)
				return 0;
	return 1;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void check(int sync, const char *what, const double *steps,
		  double total)
{
	static struct ctx x;
	vp_opts o = { 0 };
	vp_stats st;
	int rc, s, ok;

	memset(&x, 0, sizeof(x));
	x.sync = sync;
	o.topology = "full:4";
	o.model = "bsp:g=2,l=50";
	o.quiet = 1;
	rc = vp_run(&o, program, &x, &st);
	ok = !rc && delivered(&x) && near(st.model_time, total);
	for (s = 0; s < S; s++)
		ok = ok && (steps[s] < 0 || near(x.step[s], steps[s]));
	tap_ok(ok,
	       "%s: supersteps end at %g %g %g, the run at %g (got %g %g %g, "
	       "%g; %s)",
	       what, steps[0], steps[1], steps[2], total, x.step[0],
	       x.step[1], x.step[2], st.model_time,
	       rc ? st.error : delivered(&x) ? "data ok" : "data WRONG");
}

int main(void)
{
	const double every[S] = { 290, 580, 870 }, once[S] = { -1, -1, 770 };

	unsetenv("VP_WIN"); /* passive target needs shared memory */
	check(FENCE, "fences: 50 + 3 x (40 + 100 g + l) + 50", every, 970);
	check(PASSIVE, "lock_all, put, flush, barrier: 3 x 290 + 50", every,
	      920);
	check(ONE_EPOCH, "one lock epoch, one barrier: 120 + 300 g + l, + 50",
	      once, 820);
	return tap_done();
}
