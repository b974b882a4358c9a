/*
 * rooted_loops.c - vp-bench --rooted: where the ranks outnumber the CPUs,
 * a rooted collective (here vp_bcast and vp_reduce of 8 bytes, int32 sums,
 * at p = 64) can run by its messages or with the ranks meeting once
 * (section "Collectives without their messages" of the README), and which
 * is faster depends on the loop around it:
 *   work      0-20 us of arithmetic a rank (uneven, the same every run;
 *             calibrated once) then the call: a root or leaf that runs
 *             ahead keeps the CPUs busy, which a meeting would stop;
 *   barrier   a barrier then the call (vp-bench's own loops): the ranks
 *             arrive together, and a meeting costs one wake-up a rank
 *             where the messages cost one a message;
 *   alone     the call back to back: the root of a broadcast by messages
 *             runs ahead and every rank finds its data waiting.
 * Each loop runs with VP_SHARED_COLLECTIVES=sync (the call always by its
 * messages, the barrier met), all (always met) and unset (the default: a
 * trial in the program's own loop picks the way, coll_sync.c),
 * REPS_ROOTED times in turn; a row gives the
 * medians, microseconds an iteration of the whole loop, and the default
 * against the faster of the two fixed ways.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_rows.h"
#include "modes.h"
#include "vp.h"

#define REPS_ROOTED 3

enum rooted_loop { LOOP_WORK, LOOP_BARRIER, LOOP_ALONE };

struct rooted_job {
	int reduce; /* 0 bcast, 1 reduce */
	enum rooted_loop loop;
	int iters;
	double us; /* an iteration, rank 0 */
};

static volatile double rooted_sink;
static long rooted_per_us = 1000; /* steps of rooted_work a microsecond */

static void rooted_work(int us)
{
	double x = 1;
	long i;

	for (i = 0; i < us * rooted_per_us; i++)
		x = x * 1.0000001 + 1e-9;
	rooted_sink = x;
}

static void rooted_calibrate(void)
{
	double t0 = now_us();

	rooted_per_us = 1000;
	rooted_work(2000);
	rooted_per_us = (long)(1000 * 2000 / (now_us() - t0));
	if (rooted_per_us < 1)
		rooted_per_us = 1;
}

static int rooted_fn(vp_comm *c, void *arg)
{
	struct rooted_job *j = arg;
	int r = vp_rank(c), i, rc = vp_barrier(c);
	int32_t in[2] = { r, 1 }, out[2];
	unsigned seed = 12345u * (unsigned)(r + 1);
	double t0 = now_us();

	for (i = 0; i < j->iters && !rc; i++) {
		if (j->loop == LOOP_BARRIER)
			rc = vp_barrier(c);
		else if (j->loop == LOOP_WORK) {
			seed = seed * 1103515245u + 12345u;
			rooted_work((int)((seed >> 16) % 21));
		}
		if (rc)
			break;
		rc = j->reduce ? vp_reduce(c, in, out, 2, VP_INT32, VP_SUM, 0,
					   VP_ALG_AUTO)
			       : vp_bcast(c, in, 2, VP_INT32, 0, VP_ALG_AUTO);
	}
	rc = rc ? rc : vp_barrier(c); /* the slowest rank has finished */
	if (r == 0)
		j->us = (now_us() - t0) / j->iters;
	return rc;
}

static int rooted_loops(int quick, int fibers)
{
	static const char *const loops[] = { "work", "barrier", "alone" };
	static const char *const ways[] = { "sync", "all", NULL };
	static const int iters[] = { 1000, 2000, 10000 };
	const char *was = getenv("VP_SHARED_COLLECTIVES");
	char *saved = was ? strdup(was) : NULL;
	int op, l, w, k, failed = 0;

	rooted_calibrate();
	printf("# vp-bench --rooted: p = 64 on full:64%s, 8 bytes, us an "
	       "iteration of the loop (medians of %d runs in turn)\n",
	       fibers ? " as fibers" : "", REPS_ROOTED);
	printf("# %-6s %-8s %10s %10s %10s %s\n", "op", "loop", "messages",
	       "met", "default", "default / faster");
	for (op = 0; op < 2; op++)
		for (l = 0; l < 3; l++) {
			double v[3][REPS_ROOTED], med[3];

			for (k = 0; k < REPS_ROOTED; k++)
				for (w = 0; w < 3; w++) {
					vp_opts o = { .topology = "full:64",
						      .quiet = 1,
						      .fibers = fibers };
					struct rooted_job j = {
						.reduce = op,
						.loop = (enum rooted_loop)l,
						.iters =
						    iters[l] / (quick ? 10 : 1)
					};
					vp_stats st;

					if (ways[w])
						setenv("VP_SHARED_COLLECTIVES",
						       ways[w], 1);
					else
						unsetenv(
						    "VP_SHARED_COLLECTIVES");
					if (vp_run(&o, rooted_fn, &j, &st)) {
						fprintf(stderr,
							"vp-bench: --rooted "
							"failed: %s\n",
							st.error);
						failed = 1;
					}
					v[w][k] = j.us;
				}
			for (w = 0; w < 3; w++) {
				qsort(v[w], REPS_ROOTED, sizeof(double),
				      cmp_double);
				med[w] = v[w][REPS_ROOTED / 2];
			}
			printf("  %-6s %-8s %10.1f %10.1f %10.1f %8.2f\n",
			       op ? "reduce" : "bcast", loops[l], med[0],
			       med[1], med[2],
			       med[2] / (med[0] < med[1] ? med[0] : med[1]));
		}
	if (saved)
		setenv("VP_SHARED_COLLECTIVES", saved, 1);
	else
		unsetenv("VP_SHARED_COLLECTIVES");
	free(saved);
	return failed;
}

int mode_rooted(const struct bench_args *a)
{
	(void)a;
	return rooted_loops(bench_quick, bench_fibers);
}
