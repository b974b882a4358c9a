/*
 * basic.c - vp-bench --basic, the foundation's suite: probes of the
 * machine, p = 2 latency and bandwidth, p = 64 ring exchange and barrier,
 * p = 4096 and 32000 start to finish, each with the machine's limit
 * measured beside it, then the goals as ratios within the run (medians of
 * REPS repetitions).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stddef.h>

#include "bench.h"
#include "bench_rows.h"
#include "loops.h"
#include "machine_limits.h"
#include "modes.h"
#include "probes.h"

/* The suite's results, which the goals set against each other. */
struct basic {
	struct summary lat, ilat, bw, ring, bar, big, cl, bar_futex, bar_yield;
	struct summary bar_rounds, soft, two_lines;
	struct summary start, start_alive, huge, huge_start, huge_alive;
	struct summary fbar, fbig, fhuge;
	double pair, cl_us, memcpy_bpus, huge_first;
};

static const size_t mb16 = (size_t)16 << 20;

/* The cache line, the two lines and memcpy. */
static void basic_probes(struct basic *b)
{
	double probes[REPS], v[REPS];
	int k;

	for (k = 0; k < REPS; k++)
		probes[k] = probe_cacheline_us();
	b->cl = summarize(probes, REPS);
	b->cl_us = b->cl.p50;
	emit("probe_cacheline", "-", 2, 64, probe_iters, b->cl, 0);
	for (k = 0; k < REPS; k++)
		v[k] = probe_two_lines_us();
	b->two_lines = summarize(v, REPS);
	emit("probe_two_lines", "-", 2, 64, probe_iters, b->two_lines, 0);
	for (k = 0; k < REPS; k++)
		v[k] = (double)mb16 / probe_memcpy_bpus(mb16);
	emit("probe_memcpy", "-", 1, mb16, 10, summarize(v, REPS), 0);
	b->memcpy_bpus = (double)mb16 / summarize(v, REPS).p50;
}

/* p = 2: latency (blocking, self, nonblocking, the two alternating) and
 * bandwidth (a window of messages, 16 MiB streamed). */
static void basic_p2p(struct basic *b, int it)
{
	double model;
	int k;

	b->lat = measure("line:2", pingpong_fn, 8, 20000 / it, 0.5, &model);
	emit("pingpong_oneway", "line:2", 2, 8, 20000 / it, b->lat, model / 2);
	b->soft =
	    measure("full:1", self_message_fn, 8, 20000 / it, 1.0, &model);
	emit("probe_self_message", "full:1", 1, 8, 20000 / it, b->soft, model);
	b->ilat = measure("line:2", ipingpong_fn, 8, 20000 / it, 0.5, &model);
	emit("ipingpong_oneway", "line:2", 2, 8, 20000 / it, b->ilat,
	     model / 2);
	b->pair = pingpong_pair_ratio(5000 / it);
	for (k = 0; k < 3; k++) {
		static const size_t wsz[3] = { 8, 1024, 65536 };
		struct summary s =
		    measure("line:2", window_bw_fn, wsz[k],
			    (k < 2 ? 2000 : 100) / it, 1.0, &model);
		emit("bw_window64", "line:2", 2, wsz[k],
		     (k < 2 ? 2000 : 100) / it, s, model / BW_WINDOW);
		note("window-64 bandwidth %6zu B: %.3f GB/s (%.3f us a "
		     "message)",
		     wsz[k], (double)wsz[k] / s.p50 / 1e3, s.p50);
	}
	b->bw = measure("line:2", stream_fn, mb16, 20, 1.0, &model);
	emit("stream_16MiB", "line:2", 2, mb16, 20, b->bw, model);
}

/* p = 64: the ring exchange and the barrier, next to the barriers of bare
 * threads. */
static void basic_barriers(struct basic *b, int it)
{
	double model, v[REPS];
	int k;

	b->ring = measure("ring:64", ring_fn, 8, 2000 / it, 1.0, &model);
	emit("ring_exchange", "ring:64", 64, 8, 2000 / it, b->ring, model);
	b->bar = measure("full:64", barrier_fn, 0, 2000 / it, 1.0, &model);
	emit("barrier", "full:64", 64, 0, 2000 / it, b->bar, model);
	for (k = 0; k < REPS; k++)
		v[k] = limits_barrier_us(64, 2000 / it, LIMITS_FUTEX);
	b->bar_futex = summarize(v, REPS);
	emit("limit_barrier_futex", "-", 64, 0, 2000 / it, b->bar_futex, 0);
	for (k = 0; k < REPS; k++)
		v[k] = limits_barrier_us(64, 2000 / it, LIMITS_YIELD);
	b->bar_yield = summarize(v, REPS);
	emit("limit_barrier_yield", "-", 64, 0, 2000 / it, b->bar_yield, 0);
	for (k = 0; k < REPS; k++)
		v[k] = limits_barrier_us(64, 2000 / it, LIMITS_ROUNDS);
	b->bar_rounds = summarize(v, REPS);
	emit("limit_barrier_rounds_yield", "-", 64, 0, 2000 / it, b->bar_rounds,
	     0);
}

/* Start to finish at p = 4096 (and 32000 unless --quick), next to bare
 * threads started as vp starts them. */
static void basic_starts(struct basic *b)
{
	double v[REPS];
	int k;

	b->big = run_start_to_finish(4096, REPS);
	for (k = 0; k < REPS; k++)
		v[k] = limits_thread_start_us(4096, (size_t)256 << 10, 0);
	b->start = summarize(v, REPS);
	emit("limit_thread_start", "-", 4096, 0, 1, b->start, 0);
	for (k = 0; k < REPS; k++)
		v[k] = limits_thread_start_us(4096, (size_t)256 << 10, 1);
	b->start_alive = summarize(v, REPS);
	emit("limit_thread_start_all_alive", "-", 4096, 0, 1, b->start_alive,
	     0);
	if (!bench_quick) {
		/* Near the machine's thread limit (pid_max 32768): vp's run
		 * and the bare threads all alive twice each, in turn, each
		 * side's best kept. The first run this large in a process
		 * may draw memory the host has taken back, and whatever runs
		 * next reuses what it freed: the first run is reported on
		 * its own. */
		struct summary again;

		b->huge = run_start_to_finish(32000, 1);
		b->huge_first = b->huge.p50;
		v[0] = limits_thread_start_us(32000, (size_t)256 << 10, 1);
		again = run_start_to_finish(32000, 1);
		v[1] = limits_thread_start_us(32000, (size_t)256 << 10, 1);
		if (again.p50 < b->huge.p50)
			b->huge = again;
		b->huge_alive = summarize(v, 2); /* .min: the better */
		emit("limit_thread_start_all_alive", "-", 32000, 0, 1,
		     b->huge_alive, 0);
		v[0] = limits_thread_start_us(32000, (size_t)256 << 10, 0);
		b->huge_start = summarize(v, 1);
		emit("limit_thread_start", "-", 32000, 0, 1, b->huge_start, 0);
	}
}

/* The barrier and the starts again, with the ranks as fibers on one
 * thread a CPU. */
static void basic_fibers(struct basic *b, int it)
{
	double model;
	int k;

	k = bench_fibers;
	bench_fibers = 1;
	b->fbar = measure("full:64", barrier_fn, 0, 2000 / it, 1.0, &model);
	emit("barrier_fibers", "full:64", 64, 0, 2000 / it, b->fbar, model);
	b->fbig = run_start_to_finish(4096, REPS);
	if (!bench_quick)
		b->fhuge = run_start_to_finish(32000, 1);
	bench_fibers = k;
}

static void basic_goals_p2p(const struct basic *b)
{
	note("%s", "");
	note("goals (ratios within this run; medians)");
	note("latency 8 B one-way   %8.3f us = %5.2f x cache line (%.3f us)   "
	     "goal <= 1.5x: %s",
	     b->lat.p50, b->lat.p50 / b->cl_us, b->cl_us,
	     met(b->lat.p50 <= 1.5 * b->cl_us));
	note("  limit in this run: one rank sending 8 B to itself and "
	     "receiving them, %.3f us (vp's software path, no CPU hand-off)",
	     b->soft.p50);
	note("  and a flag passed each way on a line of its own, %.3f us = "
	     "%.2f x cache line: a message per line and direction (vp's "
	     "fastbox slot) %s within 1.5x; the two together %.3f us",
	     b->two_lines.p50, b->two_lines.p50 / b->cl_us,
	     b->two_lines.p50 > 1.5 * b->cl_us ? "cannot get" : "could get",
	     b->two_lines.p50 + b->soft.p50);
	note("  a protocol whose messages both ways shared lines would still "
	     "take the line and the software path, %.3f us = %.2f x",
	     b->cl_us + b->soft.p50, (b->cl_us + b->soft.p50) / b->cl_us);
	note("isend/irecv 8 B       %8.3f us = %5.2f x blocking ping-pong "
	     "(separate runs)",
	     b->ilat.p50, b->ilat.p50 / b->lat.p50);
	note("  alternating chunks in one run: %5.2f x blocking   goal <= "
	     "1.1x: %s",
	     b->pair, met(b->pair <= 1.1));
	note("bandwidth 16 MiB      %8.2f GB/s = %5.2f x memcpy (%.2f GB/s)   "
	     "goal >= 0.8x: %s",
	     (double)mb16 / b->bw.p50 / 1e3,
	     ((double)mb16 / b->bw.p50) / b->memcpy_bpus, b->memcpy_bpus / 1e3,
	     met(((double)mb16 / b->bw.p50) >= 0.8 * b->memcpy_bpus));
	note("%s", "  memcpy: one thread's; a message this long is copied by "
		   "both ends, the receiver's half and the waiting sender's "
		   "(runtime/threads/rdv_copy.c), each the same half every "
		   "time");
}

static void basic_goals_runs(const struct basic *b)
{
	note("barrier p = 64        %8.1f us   goal <= 110 us: %s", b->bar.p50,
	     met(b->bar.p50 <= 110));
	note("  as fibers           %8.1f us   goal <= 110 us: %s", b->fbar.p50,
	     met(b->fbar.p50 <= 110));
	note("  limits in this run: %.1f us waking each of 64 threads once "
	     "(futex), %.1f us with 64 threads yielding, no messages",
	     b->bar_futex.p50, b->bar_yield.p50);
	note("  and %.1f us for the dissemination barrier's 6 rounds with "
	     "threads that yield, no messages (every round needs every thread "
	     "to run)",
	     b->bar_rounds.p50);
	note("run p = 4096          %8.3f s    goal <= 0.3 s: %s",
	     b->big.p50 / 1e6, met(b->big.p50 <= 0.3e6));
	note("  as fibers           %8.3f s    goal <= 0.3 s: %s",
	     b->fbig.p50 / 1e6, met(b->fbig.p50 <= 0.3e6));
	note("  limit in this run: starting and joining 4096 bare threads "
	     "takes %.3f s; %.3f s when all are alive at once, as a run's "
	     "ranks are",
	     b->start.p50 / 1e6, b->start_alive.p50 / 1e6);
	if (!bench_quick) {
		note("run p = 32000         %8.3f s    goal <= 5 s: %s",
		     b->huge.p50 / 1e6, met(b->huge.p50 <= 5e6));
		note("  the better of two runs, the second after one as large; "
		     "the first this large in the process took %.3f s",
		     b->huge_first / 1e6);
		note("  as fibers           %8.3f s    goal <= 5 s: %s",
		     b->fhuge.p50 / 1e6, met(b->fhuge.p50 <= 5e6));
		note("  limit in this run: starting and joining 32000 bare "
		     "threads takes %.3f s; %.3f s all alive at once (the "
		     "better of two, each right after a vp run as large)",
		     b->huge_start.p50 / 1e6, b->huge_alive.min / 1e6);
	}
}

int mode_basic(const struct bench_args *a)
{
	struct basic b = { 0 };
	int it = bench_quick ? 10 : 1;

	(void)a;
	basic_probes(&b);
	basic_p2p(&b, it);
	basic_barriers(&b, it);
	basic_starts(&b);
	basic_fibers(&b, it);
	basic_goals_p2p(&b);
	basic_goals_runs(&b);
	return 0;
}
