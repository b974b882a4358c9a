/*
 * watchdog.c - vp_opts.watchdog (VP_WATCHDOG) on the mpi transport: each
 * process watches its own rank.
 *
 * A deadlock inside vp needs no watchdog here: termination detection finds
 * it exactly (termination.c). What it cannot see is a rank stuck outside
 * vp (pause(), a lock of its own, an endless loop): that process never
 * turns, so it neither answers the token nor hears of a failure, and the
 * job would hang. With a watchdog of s seconds, a thread of each process
 * checks every tenth of s whether its rank has moved a message (sent one,
 * or pulled one in). When it has moved none for s seconds while running
 * outside vp (not waiting inside a vp call, not returned), the thread
 * writes a report naming the rank and its last vp call on stderr and ends
 * the process at once with exit status 124 (as timeout(1) does); the
 * launcher then ends the job with a non-zero status. A thread cannot stop
 * another, and only the rank's own thread talks to MPI.
 *
 * The difference from the threads transport, which fails the run when no
 * rank in it moved a message for s seconds: here each rank is watched
 * alone, so a rank that computes for s seconds without a message fails the
 * job even while other ranks are exchanging. Ranks waiting inside vp for it
 * are not watched: the stuck rank's own watchdog ends the job.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mpi_tx.h"

#define CHECKS_PER_PERIOD 10

static void nap(double secs)
{
	struct timespec ts = { (time_t)secs,
			       (long)((secs - (double)(time_t)secs) * 1e9) };

	nanosleep(&ts, NULL);
}

static void *watch(void *arg)
{
	struct mpt *t = arg;
	double step = t->watchdog / CHECKS_PER_PERIOD, idle = 0;
	unsigned long last = atomic_load(&t->progress), now;

	while (!atomic_load(&t->watch_stop)) {
		nap(step);
		now = atomic_load(&t->progress);
		/* waiting inside vp, or returned: not this watchdog's case */
		if (now != last || atomic_load(&t->in_vp_wait) ||
		    atomic_load(&t->returned))
			idle = 0;
		else
			idle += step;
		last = now;
		if (idle < t->watchdog)
			continue;
		fprintf(stderr,
			"vp: watchdog: rank %d moved no message for %g s and is "
			"running outside vp (blocked in its own code?); its "
			"last vp call: %s. Ending the process (exit 124).\n",
			t->me, idle, vp__rank_last_call(t->rank));
		fflush(stderr);
		/* at once: the rank's thread is not ours to stop */
		syscall(SYS_exit_group, 124);
	}
	return NULL;
}

void mpt_watchdog_start(struct mpt *t, double secs)
{
	t->watchdog = secs;
	atomic_init(&t->watch_stop, 0);
	t->watching = secs > 0 &&
		      pthread_create(&t->watch_thread, NULL, watch, t) == 0;
}

void mpt_watchdog_stop(struct mpt *t)
{
	if (!t->watching)
		return;
	atomic_store(&t->watch_stop, 1);
	pthread_join(t->watch_thread, NULL);
	t->watching = 0;
}
