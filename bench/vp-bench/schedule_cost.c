/*
 * schedule_cost.c - vp-bench --schedule-cost: what a deterministic
 * schedule (vp_opts.schedule) costs. One program, at p = 64 on full:64:
 * ROUNDS rounds of a ring exchange (vp_sendrecv to the next rank), an
 * 8-byte vp_allreduce, and a gather by wildcard (rank 0 takes p - 1
 * messages with VP_ANY_SOURCE). It runs as free-running fibers, seeded as
 * fibers (one carrier), and seeded as threads (the baton the MPI layer's
 * ranks use); each the best wall time of REPEATS runs, seeded ones over
 * seeds 1 .. REPEATS. The ratio is seeded fibers over free fibers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_rows.h"
#include "modes.h"
#include "vp.h"

#define SCHED_P 64
#define REPEATS 3

struct sched_job {
	int rounds;
	long check; /* rank 0's last sum */
};

static int sched_fn(vp_comm *c, void *arg)
{
	struct sched_job *j = arg;
	int r = vp_rank(c), p = vp_size(c), k, i, rc = VP_OK;
	long v = r, got, sum;

	for (k = 0; k < j->rounds && !rc; k++) {
		rc = vp_sendrecv(c, (r + 1) % p, &v, sizeof(v), (r + p - 1) % p,
				 &got, sizeof(got));
		if (!rc)
			rc = vp_allreduce(c, &got, &sum, 1, VP_INT64, VP_SUM,
					  VP_ALG_AUTO);
		if (rc)
			break;
		if (r != 0) {
			rc = vp_send_tag(c, 0, 5, &sum, sizeof(sum));
			continue;
		}
		for (i = 1; i < p && !rc; i++)
			rc = vp_recv_tag(c, VP_ANY_SOURCE, 5, &got, sizeof(got),
					 NULL);
		j->check = sum;
	}
	return rc;
}

/* The best wall time of REPEATS runs (seconds), or -1 with the error. */
static double best_of(int fibers, int seeded, int rounds, char *err,
		      size_t len)
{
	char topo[32];
	double best = -1;
	int i, rc;

	snprintf(topo, sizeof(topo), "full:%d", SCHED_P);
	for (i = 0; i < REPEATS; i++) {
		vp_opts o = { .topology = topo, .fibers = fibers, .quiet = 1 };
		struct sched_job j = { rounds, 0 };
		vp_stats st;

		o.schedule = seeded ? (uint64_t)i + 1 : 0;
		rc = vp_run(&o, sched_fn, &j, &st);
		if (rc || j.check != (long)SCHED_P * (SCHED_P - 1) / 2) {
			snprintf(err, len, "%s", rc ? st.error : "wrong sum");
			return -1;
		}
		if (best < 0 || st.wall_seconds < best)
			best = st.wall_seconds;
	}
	return best;
}

int mode_schedule_cost(const struct bench_args *a)
{
	int rounds = bench_quick ? 20 : 200;
	char err[1024] = "";
	double free_fib, seeded_fib, seeded_thr;

	(void)a;
	printf("# vp-bench --schedule-cost: p = %d, full:%d, %d rounds of "
	       "ring sendrecv + 8-byte allreduce + wildcard gather; best "
	       "of %d runs\n",
	       SCHED_P, SCHED_P, rounds, REPEATS);
	printf("# %-22s %10s %12s %8s\n", "run", "wall ms", "us/round",
	       "ratio");
	free_fib = best_of(1, 0, rounds, err, sizeof(err));
	seeded_fib = free_fib < 0 ? -1 : best_of(1, 1, rounds, err,
						 sizeof(err));
	seeded_thr = seeded_fib < 0 ? -1 : best_of(0, 1, rounds, err,
						   sizeof(err));
	if (seeded_thr < 0) {
		printf("  FAILED: %s\n", err);
		return 1;
	}
	printf("  %-22s %10.2f %12.1f %8s\n", "free fibers", free_fib * 1e3,
	       free_fib * 1e6 / rounds, "1.00");
	printf("  %-22s %10.2f %12.1f %8.2f\n", "seeded fibers",
	       seeded_fib * 1e3, seeded_fib * 1e6 / rounds,
	       seeded_fib / free_fib);
	printf("  %-22s %10.2f %12.1f %8.2f\n", "seeded threads (baton)",
	       seeded_thr * 1e3, seeded_thr * 1e6 / rounds,
	       seeded_thr / free_fib);
	return 0;
}
