/*
 * explore.c - vp_explore: one program under many deterministic schedules,
 * until one fails, each run a child process (explore_run.c). Seeds are
 * base, base + 1, ...: the scheduler draws every choice from its seed, so
 * neighbouring seeds give unrelated schedules, and an exploration is
 * itself repeatable; the failing seed alone replays the failure.
 *
 * It also counts how many different schedules, and different orders of
 * wildcard matches, the runs made (vp_schedule_info's hashes): a program
 * whose matches never vary has no wildcard race for exploration to find.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "explore.h"

#define DEFAULT_TIMEOUT 60.0
/* The deepest PCT schedule vp_run takes (docs/schedules.md). */
#define DEPTH_MAX (1 << 20)

/* A set of 64-bit hashes (open addressing; 0 is kept apart). */
struct hash_set {
	uint64_t *slot;
	size_t cap, n;
	int has_zero;
};

static int set_add(struct hash_set *s, uint64_t h)
{
	size_t i;

	if (h == 0) {
		s->n += !s->has_zero;
		s->has_zero = 1;
		return 0;
	}
	if (2 * (s->n + 1) > s->cap) { /* at most half full */
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct hash_set g = { calloc(cap, sizeof(uint64_t)), cap, 0,
				      s->has_zero };

		if (!g.slot)
			return -1;
		for (i = 0; i < s->cap; i++)
			if (s->slot[i])
				set_add(&g, s->slot[i]);
		g.n = s->n;
		free(s->slot);
		*s = g;
	}
	for (i = h & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == h)
			return 0;
	s->slot[i] = h;
	s->n++;
	return 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The failure in words, for a vp_run result. */
static const char *what_of_code(int rc)
{
	switch (rc) {
	case VP_EDEADLOCK:
		return "deadlock";
	case VP_EMISMATCH:
		return "mismatch";
	case VP_EUNRECEIVED:
		return "unreceived messages";
	case VP_EWATCHDOG:
		return "watchdog";
	}
	return rc > 0 ? "rank error" : "error";
}

/* How the run ended: 0 passed, 1 failed (r's kind, what, code, signal and
 * rank set). */
static int classify(const struct vp__explore_outcome *oc,
		    vp_explore_result *r)
{
	int sig;

	r->rank = -1;
	if (oc->timed_out) {
		r->kind = VP_EXPLORE_TIMEOUT;
		r->what = "timeout";
	} else if (oc->done) {
		if (oc->rc == VP_OK)
			return 0;
		r->kind = VP_EXPLORE_ERROR;
		r->what = what_of_code(oc->rc);
		r->code = oc->rc;
		r->rank = oc->rank;
	} else if (WIFSIGNALED(oc->status)) {
		sig = WTERMSIG(oc->status);
		r->signal = sig;
		if (sig == SIGABRT && strstr(oc->err, "Assertion") &&
		    strstr(oc->err, "failed")) {
			r->kind = VP_EXPLORE_ASSERTION;
			r->what = "assertion";
		} else {
			r->kind = sig == SIGABRT ? VP_EXPLORE_ABORT
						 : VP_EXPLORE_CRASH;
			r->what = sig == SIGABRT ? "abort" : "crash";
		}
	} else {
		r->kind = VP_EXPLORE_EXIT;
		r->what = "exit";
		r->code = WIFEXITED(oc->status) ? WEXITSTATUS(oc->status) : -1;
	}
	return 1;
}

/* result->report: the first whole lines of the run's stderr that fit (the
 * first line cut if it alone does not), else a line of our own. */
static void keep_report(const struct vp__explore_outcome *oc, double timeout,
			vp_explore_result *r)
{
	const char *s = oc->err + strspn(oc->err, "\n");
	size_t cap = sizeof(r->report) - 1, n = 0, line;

	while (s[n]) {
		line = strcspn(s + n, "\n") + (s[n + strcspn(s + n, "\n")] != 0);
		if (n + line > cap)
			break;
		n += line;
	}
	if (n == 0 && *s)
		n = strcspn(s, "\n") < cap ? strcspn(s, "\n") : cap;
	while (n && s[n - 1] == '\n')
		n--;
	memcpy(r->report, s, n);
	r->report[n] = 0;
	if (n)
		return;
	if (r->kind == VP_EXPLORE_TIMEOUT)
		snprintf(r->report, sizeof(r->report),
			 "vp_explore: seed %llu: the run did not end within "
			 "%g s; killed",
			 (unsigned long long)r->first_seed, timeout);
	else if (r->signal)
		snprintf(r->report, sizeof(r->report),
			 "vp_explore: seed %llu: the run died of %s",
			 (unsigned long long)r->first_seed,
			 strsignal(r->signal));
	else
		snprintf(r->report, sizeof(r->report),
			 "vp_explore: seed %llu: the run's process called "
			 "exit(%d) before vp_run returned",
			 (unsigned long long)r->first_seed, r->code);
}

/* The depth and the time limit: the options', else the environment's. */
static int settle(const vp_opts *opts, int runs, int *depth,
		  double *timeout, char *err, size_t errlen)
{
	double v;
	int rc;

	if (runs < 1) {
		snprintf(err, errlen,
			 "vp_explore: runs %d: it must be at least 1", runs);
		return VP_EINVAL;
	}
	*depth = opts ? opts->schedule_depth : 0;
	if (*depth < 0 || *depth > DEPTH_MAX) {
		snprintf(err, errlen,
			 "vp_explore: schedule_depth %d: it must be from 0 to "
			 "%d (0: uniform random choices, d: PCT of depth d)",
			 *depth, DEPTH_MAX);
		return VP_EINVAL;
	}
	if (*depth == 0) {
		rc = vp_setting_env("VP_SCHEDULE_DEPTH", 0, DEPTH_MAX, 1, 0, &v,
				    err, errlen);
		if (rc)
			return rc;
		*depth = (int)v;
	}
	*timeout = opts ? opts->explore_timeout : 0;
	if (!(*timeout >= 0)) {
		snprintf(err, errlen,
			 "vp_explore: explore_timeout %g s: it must be > 0 "
			 "(0: VP_EXPLORE_TIMEOUT, else %g s)",
			 *timeout, DEFAULT_TIMEOUT);
		return VP_EINVAL;
	}
	if (*timeout == 0)
		return vp_setting_env("VP_EXPLORE_TIMEOUT", 1e-3, INFINITY, 0,
				      DEFAULT_TIMEOUT, timeout, err, errlen);
	return VP_OK;
}

/* The run of seed under o, and what it adds to r: 1 when it failed, 0
 * when it passed, a VP_E* code when it could not run. */
static int one_run(vp_opts *o, int (*fn)(vp_comm *, void *), void *arg,
		   double timeout, struct hash_set sets[2],
		   vp_explore_result *r, char *err, size_t errlen)
{
	struct vp__explore_outcome *oc = malloc(sizeof(*oc));
	int rc, failed;

	if (!oc) {
		snprintf(err, errlen, "vp_explore: no memory for a run");
		return VP_ENOMEM;
	}
	rc = vp__explore_run(o, fn, arg, timeout, oc, err, errlen);
	if (rc) {
		free(oc);
		return rc;
	}
	r->runs++;
	if (oc->have_info &&
	    (set_add(&sets[0], oc->info.match_hash) ||
	     set_add(&sets[1], oc->info.schedule_hash))) {
		free(oc);
		snprintf(err, errlen, "vp_explore: no memory for the hashes");
		return VP_ENOMEM;
	}
	failed = classify(oc, r);
	if (failed) {
		r->failed = 1;
		r->first_seed = o->schedule;
		keep_report(oc, timeout, r);
	}
	free(oc);
	return failed;
}

int vp_explore(const vp_opts *opts, int (*fn)(vp_comm *, void *), void *arg,
	       int runs, vp_explore_result *result)
{
	struct hash_set sets[2] = { { 0 }, { 0 } };
	vp_opts o = { 0 };
	char err[512] = "";
	double timeout, t0 = now();
	uint64_t seed;
	int rc = VP_OK, i, depth;

	if (!result || !fn) {
		snprintf(err, sizeof(err), "vp_explore: %s is NULL",
			 result ? "the rank function" : "result");
		rc = VP_EINVAL;
	}
	if (!rc)
		rc = settle(opts, runs, &depth, &timeout, err, sizeof(err));
	if (rc) {
		if (!opts || !opts->quiet)
			fprintf(stderr, "vp: %s\n", err);
		return rc;
	}
	memset(result, 0, sizeof(*result));
	result->what = "passed";
	result->depth = depth;
	if (opts)
		o = *opts;
	o.quiet = 0; /* the report goes to the pipe, kept for the result */
	o.schedule_depth = depth;
	seed = opts && opts->schedule ? opts->schedule : VP_EXPLORE_BASE;
	for (i = 0; i < runs && rc == 0; i++, seed++) {
		o.schedule = seed ? seed : ++seed; /* 0 is free-running */
		rc = one_run(&o, fn, arg, timeout, sets, result, err,
			     sizeof(err));
	}
	result->match_orders = sets[0].n;
	result->schedules = sets[1].n;
	result->seconds = now() - t0;
	free(sets[0].slot);
	free(sets[1].slot);
	if (rc < 0) {
		if (!opts || !opts->quiet)
			fprintf(stderr, "vp: %s\n", err);
		return rc;
	}
	if (result->failed && (!opts || !opts->quiet))
		fprintf(stderr,
			"vp_explore: seed %llu (depth %d) failed, run %d of "
			"%d: %s: %.*s\nvp_explore: replay it with "
			"VP_SCHEDULE=%llu VP_SCHEDULE_DEPTH=%d\n",
			(unsigned long long)result->first_seed, depth,
			result->runs, runs, result->what,
			(int)strcspn(result->report, "\n"), result->report,
			(unsigned long long)result->first_seed, depth);
	return VP_OK;
}
