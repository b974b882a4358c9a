/*
 * watchdog.c - an opt-in watchdog for ranks that block outside vp.
 *
 * Deadlock detection is exact but sees only waits inside vp: a rank stuck
 * in pause(), a lock of its own or an endless loop hangs the run. With
 * vp_opts.watchdog (or VP_WATCHDOG in the environment) set to s seconds, a
 * thread of the run checks every tenth of that time whether any rank has
 * moved a message or returned. After s seconds without, it fails the run
 * with VP_EWATCHDOG and a report of what every live rank is doing (blocked
 * in which call on whom, or running outside vp since its last call). Ranks
 * blocked in vp then return VP_EABORT; if some rank still does not return
 * within s more seconds, the watchdog writes the report on stderr and ends
 * the process with exit status 124 (as timeout(1) does): a thread cannot be
 * stopped from outside.
 *
 * Progress is each rank's count of messages, kept on its own line with
 * plain relaxed stores: the watchdog only reads them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "threads.h"

#define CHECKS_PER_PERIOD 10
#define LINE_BYTES 256

static unsigned long progress_sum(struct thr_world *w)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < w->p; i++)
		sum += atomic_load_explicit(&w->ranks[i].progress,
					    memory_order_relaxed) +
		       (unsigned long)atomic_load(&w->ranks[i].exited);
	return sum;
}

static char *report(struct thr_world *w, double secs)
{
	size_t cap = 512 + LINE_BYTES * (size_t)w->p, len = 0;
	char *rep = malloc(cap), line[LINE_BYTES];
	int i;

	if (!rep)
		return NULL;
	len += (size_t)snprintf(rep, cap,
				"watchdog: no rank moved a message or returned "
				"for %g s\n",
				secs);
	for (i = 0; i < w->p && len < cap; i++) {
		struct thr_rank *r = &w->ranks[i];

		if (atomic_load(&r->exited))
			continue;
		if (atomic_load(&r->wait_kind) != THR_WAIT_NONE)
			thr_describe(r, 0, line, sizeof(line));
		else
			snprintf(line, sizeof(line),
				 "rank %d is running outside vp (blocked "
				 "in its own code?); its last vp call: %s",
				 i, vp__rank_last_call(r->rank));
		len += (size_t)snprintf(rep + len, cap - len, "  %s\n", line);
	}
	return rep;
}

/* Sleeps secs, or until the run ends (thr_watchdog_stop): a plain sleep
 * would keep every run with a watchdog alive for up to a tenth of its
 * period after the ranks have returned. */
static void nap(struct thr_world *w, double secs)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)secs;
	until.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->watch_lock);
	while (!atomic_load(&w->watch_stop) &&
	       pthread_cond_timedwait(&w->watch_cond, &w->watch_lock,
				      &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&w->watch_lock);
}

static void *watch(void *arg)
{
	struct thr_world *w = arg;
	double step = w->watchdog / CHECKS_PER_PERIOD, idle = 0;
	unsigned long last = progress_sum(w), now;
	char *rep;

	while (!atomic_load(&w->watch_stop)) {
		nap(w, step);
		now = progress_sum(w);
		idle = now == last ? idle + step : 0;
		last = now;
		if (idle < w->watchdog || atomic_load(&w->alive) == 0)
			continue;
		rep = report(w, idle);
		vp__world_fail(w->w, -1, VP_EWATCHDOG,
			       rep ? rep : "watchdog: no progress");
		/* ranks blocked in vp return now; one blocked elsewhere
		 * cannot be made to */
		for (idle = 0; idle < w->watchdog && atomic_load(&w->alive);
		     idle += step)
			nap(w, step);
		if (atomic_load(&w->alive)) {
			fprintf(stderr,
				"vp: %s  ... ranks still do not return after "
				"%g s more: ending the process (exit 124)\n",
				rep ? rep : "watchdog: no progress\n",
				w->watchdog);
			/* at once: no exit handlers, no sanitizer report of
			 * the threads left running */
			syscall(SYS_exit_group, 124);
		}
		free(rep);
		break;
	}
	return NULL;
}

int thr_watchdog_start(struct thr_world *w)
{
	pthread_condattr_t ca;

	atomic_init(&w->watch_stop, 0);
	if (!(w->watchdog > 0))
		return 0;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->watch_cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&w->watch_lock, NULL);
	if (pthread_create(&w->watch_thread, NULL, watch, w) == 0)
		return 1;
	pthread_cond_destroy(&w->watch_cond);
	pthread_mutex_destroy(&w->watch_lock);
	return -1;
}

void thr_watchdog_stop(struct thr_world *w, int started)
{
	if (started <= 0)
		return;
	pthread_mutex_lock(&w->watch_lock);
	atomic_store(&w->watch_stop, 1);
	pthread_cond_signal(&w->watch_cond);
	pthread_mutex_unlock(&w->watch_lock);
	pthread_join(w->watch_thread, NULL);
	pthread_cond_destroy(&w->watch_cond);
	pthread_mutex_destroy(&w->watch_lock);
}
