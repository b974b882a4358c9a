/*
 * test_explore.c - vp_explore: a program under many deterministic
 * schedules, each run a child process.
 *   - the machinery, with failures that do not depend on the schedule: the
 *     run that fails (a rank's result, a deadlock) is the one reported,
 *     with its seed, its kind and its report's first line; seeds start at
 *     opts.schedule; a crash, an assertion, abort() and exit() in a child
 *     are reported, not fatal; a run that never ends is cut after
 *     explore_timeout (or VP_EXPLORE_TIMEOUT) and reported; bad arguments
 *     are refused, named;
 *   - wildcard races (the bugs of tests/mpi/explore_*.c, as vp programs): a
 *     master that assumes MPI_ANY_SOURCE results come in rank order, a
 *     deadlock that needs one particular wildcard match, an iprobe loop
 *     that takes a later message of another tag first: each is found
 *     within the runs given, under uniform and PCT schedules; replaying
 *     the reported seed with vp_run fails the same way (the same first
 *     report line); exploration is itself repeatable; the corrected
 *     programs pass every schedule, whose match orders do vary.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <assert.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

/* The sanitizers catch a crash themselves: the process reports it and
 * exits (status 66 under TSan, 1 under ASan) instead of dying of it, and
 * vp's own line naming the rank may not come first. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

/* ---- failures that do not depend on the schedule ---- */

/* Runs so far, in memory every child shares with this process. */
static int *runs_seen;
static int fail_at;

static int fails_at_run_k(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 0 && ++*runs_seen == fail_at)
		return 7;
	return vp_barrier(c);
}

static int ring_exchange(vp_comm *c, void *arg)
{
	int p = vp_size(c), r = vp_rank(c), got = -1, rc;

	(void)arg;
	rc = vp_sendrecv(c, (r + 1) % p, &r, sizeof(r), (r + p - 1) % p, &got,
			 sizeof(got));
	if (rc)
		return rc;
	return got == (r + p - 1) % p ? 0 : 1;
}

static int head_to_head(vp_comm *c, void *arg)
{
	int x = 0;

	(void)arg;
	if (vp_rank(c) > 1)
		return 0;
	return vp_recv(c, 1 - vp_rank(c), &x, sizeof(x));
}

static int crashes(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 1)
		*(volatile int *)(uintptr_t)(4 * vp_size(c)) = 1; /* 0xc */
	return 0;
}

static int asserts(vp_comm *c, void *arg)
{
	(void)arg;
	assert(vp_rank(c) != 2 && "rank 2 is never reached");
	return 0;
}

static int aborts(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 0)
		abort();
	return 0;
}

static int exits(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 1)
		exit(3);
	return vp_barrier(c);
}

static int never_ends(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 0)
		for (;;)
			pause();
	return 0;
}

static void first_line(const char *s, char *out, size_t len)
{
	snprintf(out, len, "%.*s", (int)strcspn(s, "\n"), s);
}

static void test_finds_the_failing_run(void)
{
	vp_opts o = { .topology = "full:3", .quiet = 1 };
	vp_explore_result r;
	int rc;

	*runs_seen = 0;
	fail_at = 4;
	rc = vp_explore(&o, fails_at_run_k, NULL, 10, &r);
	tap_ok(rc == 0 && r.runs == 4 && r.failed == 1 &&
		       r.first_seed == VP_EXPLORE_BASE + 3 &&
		       r.kind == VP_EXPLORE_ERROR && r.code == 7 &&
		       r.rank == 0 && !strcmp(r.what, "rank error") &&
		       strstr(r.report, "returned 7"),
	       "the 4th run fails: it stops there, seed %llu (base %d + 3), "
	       "rank error 7 of rank %d: rc %d, runs %d, failed %d, kind %d, "
	       "what %s, report: %s",
	       (unsigned long long)r.first_seed, VP_EXPLORE_BASE, r.rank, rc,
	       r.runs, r.failed, (int)r.kind, r.what, r.report);

	*runs_seen = 0;
	o.schedule = 1000;
	rc = vp_explore(&o, fails_at_run_k, NULL, 10, &r);
	tap_ok(rc == 0 && r.runs == 4 && r.first_seed == 1003,
	       "opts.schedule 1000 is the first seed: the 4th run is seed "
	       "1003 (rc %d, runs %d, seed %llu)",
	       rc, r.runs, (unsigned long long)r.first_seed);

	*runs_seen = 0;
	fail_at = 0;
	o.schedule = 0;
	rc = vp_explore(&o, ring_exchange, NULL, 20, &r);
	tap_ok(rc == 0 && r.runs == 20 && r.failed == 0 &&
		       r.first_seed == 0 && r.kind == VP_EXPLORE_PASSED &&
		       !strcmp(r.what, "passed") && !r.report[0],
	       "a correct program: 20 runs, none failed (rc %d, runs %d, "
	       "failed %d, seed %llu, what %s, report '%s')",
	       rc, r.runs, r.failed, (unsigned long long)r.first_seed, r.what,
	       r.report);
}

static void test_failure_kinds(void)
{
	vp_opts o = { .topology = "full:3", .quiet = 1 };
	vp_explore_result r;
	int rc;

	rc = vp_explore(&o, head_to_head, NULL, 5, &r);
	tap_ok(rc == 0 && r.runs == 1 && r.kind == VP_EXPLORE_ERROR &&
		       r.code == VP_EDEADLOCK && !strcmp(r.what, "deadlock") &&
		       !strncmp(r.report, "vp: deadlock", 12),
	       "a deadlock is a failure, with vp's report (kind %d, code %d, "
	       "what %s): %s",
	       (int)r.kind, r.code, r.what, r.report);

	rc = vp_explore(&o, crashes, NULL, 5, &r);
	tap_ok(rc == 0 && r.runs == 1 &&
		       ((r.kind == VP_EXPLORE_CRASH && r.signal == SIGSEGV &&
			 !strcmp(r.what, "crash") &&
			 strstr(r.report, "rank 1")) ||
			(SANITIZED && r.kind == VP_EXPLORE_EXIT &&
			 strstr(r.report, "SEGV"))),
	       "a rank's SIGSEGV ends the child, not the explorer: crash, "
	       "signal %d, naming rank 1 (kind %d): %s",
	       r.signal, (int)r.kind, r.report);

	rc = vp_explore(&o, asserts, NULL, 5, &r);
	tap_ok(rc == 0 && r.runs == 1 && r.kind == VP_EXPLORE_ASSERTION &&
		       r.signal == SIGABRT && !strcmp(r.what, "assertion") &&
		       strstr(r.report, "rank 2 is never reached"),
	       "a failed assert() is an assertion, its message the report "
	       "(kind %d, signal %d): %s",
	       (int)r.kind, r.signal, r.report);

	rc = vp_explore(&o, aborts, NULL, 5, &r);
	tap_ok(rc == 0 && r.kind == VP_EXPLORE_ABORT && r.signal == SIGABRT &&
		       !strcmp(r.what, "abort") &&
		       (strstr(r.report, "rank 0") || SANITIZED),
	       "abort() is an abort (kind %d, signal %d): %s", (int)r.kind,
	       r.signal, r.report);

	rc = vp_explore(&o, exits, NULL, 5, &r);
	tap_ok(rc == 0 && r.kind == VP_EXPLORE_EXIT && r.code == 3 &&
		       !strcmp(r.what, "exit") && r.report[0],
	       "exit(3) in a rank is an exit, status %d (kind %d): %s", r.code,
	       (int)r.kind, r.report);
}

static void test_timeout(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1,
		      .explore_timeout = 0.3 };
	vp_explore_result r;
	int rc;

	rc = vp_explore(&o, never_ends, NULL, 3, &r);
	tap_ok(rc == 0 && r.runs == 1 && r.kind == VP_EXPLORE_TIMEOUT &&
		       !strcmp(r.what, "timeout") && r.seconds < 10 &&
		       strstr(r.report, "did not end within 0.3 s"),
	       "a run that never ends is killed after explore_timeout 0.3 s "
	       "and reported (kind %d, %.2f s): %s",
	       (int)r.kind, r.seconds, r.report);

	o.explore_timeout = 0;
	setenv("VP_EXPLORE_TIMEOUT", "0.2", 1);
	rc = vp_explore(&o, never_ends, NULL, 3, &r);
	unsetenv("VP_EXPLORE_TIMEOUT");
	tap_ok(rc == 0 && r.kind == VP_EXPLORE_TIMEOUT &&
		       strstr(r.report, "within 0.2 s"),
	       "... VP_EXPLORE_TIMEOUT=0.2 sets it when the option is 0 "
	       "(kind %d): %s",
	       (int)r.kind, r.report);
}

static void test_bad_arguments(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_explore_result r;
	int rc[6];

	rc[0] = vp_explore(&o, ring_exchange, NULL, 0, &r);
	rc[1] = vp_explore(&o, NULL, NULL, 5, &r);
	rc[2] = vp_explore(&o, ring_exchange, NULL, 5, NULL);
	o.schedule_depth = -1;
	rc[3] = vp_explore(&o, ring_exchange, NULL, 5, &r);
	o.schedule_depth = 0;
	o.explore_timeout = -1;
	rc[4] = vp_explore(&o, ring_exchange, NULL, 5, &r);
	o.explore_timeout = 0;
	setenv("VP_EXPLORE_TIMEOUT", "soon", 1);
	rc[5] = vp_explore(&o, ring_exchange, NULL, 5, &r);
	unsetenv("VP_EXPLORE_TIMEOUT");
	tap_ok(rc[0] == VP_EINVAL && rc[1] == VP_EINVAL && rc[2] == VP_EINVAL &&
		       rc[3] == VP_EINVAL && rc[4] == VP_EINVAL &&
		       rc[5] == VP_EINVAL,
	       "refused: 0 runs, no function, no result, depth -1, timeout "
	       "-1, VP_EXPLORE_TIMEOUT=soon (%d %d %d %d %d %d)",
	       rc[0], rc[1], rc[2], rc[3], rc[4], rc[5]);
}

/* ---- wildcard races ---- */

enum { TAG_RESULT = 0, TAG_DATA = 1, TAG_DONE = 2, TAG_TOKEN = 3 };

/* The master takes one result from each worker with VP_ANY_SOURCE and
 * files the i-th as worker i's (buggy), or by its source (right). */
static int master(vp_comm *c, int right)
{
	int p = vp_size(c), w, v, rc = 0, *by = calloc((size_t)p, sizeof(int));
	vp_status st;

	if (!by)
		return VP_ENOMEM;
	for (w = 1; w < p; w++) {
		rc = vp_recv_tag(c, VP_ANY_SOURCE, TAG_RESULT, &v, sizeof(v),
				 &st);
		if (rc)
			break;
		by[right ? st.source : w] = v;
	}
	for (w = 1; w < p && !rc; w++)
		if (by[w] != 10 * w)
			rc = vp_abort(c, 1, "master",
				      "worker %d's result is %d, not %d", w,
				      by[w], 10 * w);
	free(by);
	return rc;
}

static int results(vp_comm *c, int right)
{
	int v = 10 * vp_rank(c);

	if (vp_rank(c) == 0)
		return master(c, right);
	return vp_send_tag(c, 0, TAG_RESULT, &v, sizeof(v));
}

static int results_in_rank_order(vp_comm *c, void *arg)
{
	(void)arg;
	return results(c, 0);
}

static int results_by_source(vp_comm *c, void *arg)
{
	(void)arg;
	return results(c, 1);
}

/* Rank 0 takes a first message from anyone, then one from rank 1 by name:
 * when the wildcard took rank 1's, the named receive never matches. */
static int wildcard_then_named(vp_comm *c, void *arg)
{
	int v = vp_rank(c), rc;

	(void)arg;
	if (vp_rank(c) != 0)
		return vp_send(c, 0, &v, sizeof(v));
	rc = vp_recv(c, VP_ANY_SOURCE, &v, sizeof(v));
	return rc ? rc : vp_recv(c, 1, &v, sizeof(v));
}

static int wildcard_twice(vp_comm *c, void *arg)
{
	int v = vp_rank(c), rc;

	(void)arg;
	if (vp_rank(c) != 0)
		return vp_send(c, 0, &v, sizeof(v));
	rc = vp_recv(c, VP_ANY_SOURCE, &v, sizeof(v));
	return rc ? rc : vp_recv(c, VP_ANY_SOURCE, &v, sizeof(v));
}

/* Rank 1 sends DATA to rank 0, then a token to rank 2, which then sends
 * DONE to rank 0. Rank 0 polls with vp_iprobe for any message and stops
 * at DONE (buggy: DATA may still be on its way, and is never received),
 * or once it has DONE and DATA both (right). */
static int iprobe_loop(vp_comm *c, int right)
{
	int v, rc = 0, found, data = 0, done = 0;
	vp_status st;

	while (!rc && !(done && (data || !right))) {
		rc = vp_iprobe(c, VP_ANY_SOURCE, VP_ANY_TAG, &found, &st);
		if (rc || !found)
			continue;
		rc = vp_recv_tag(c, st.source, st.tag, &v, sizeof(v), NULL);
		data += st.tag == TAG_DATA;
		done += st.tag == TAG_DONE;
	}
	return rc;
}

static int data_then_done(vp_comm *c, int right)
{
	int v = 1, rc;

	switch (vp_rank(c)) {
	case 0:
		return iprobe_loop(c, right);
	case 1:
		rc = vp_send_tag(c, 0, TAG_DATA, &v, sizeof(v));
		return rc ? rc : vp_send_tag(c, 2, TAG_TOKEN, &v, sizeof(v));
	default:
		rc = vp_recv_tag(c, 1, TAG_TOKEN, &v, sizeof(v), NULL);
		return rc ? rc : vp_send_tag(c, 0, TAG_DONE, &v, sizeof(v));
	}
}

static int stops_at_done(vp_comm *c, void *arg)
{
	(void)arg;
	return data_then_done(c, 0);
}

static int waits_for_both(vp_comm *c, void *arg)
{
	(void)arg;
	return data_then_done(c, 1);
}

/* Explores fn; the bug must be found within runs, of the kind what, and
 * replaying its seed with vp_run must fail with the same first line. */
static void finds_and_replays(const char *name, int (*fn)(vp_comm *, void *),
			      const char *topo, int depth, int runs,
			      const char *what)
{
	vp_opts o = { .topology = topo, .quiet = 1, .schedule_depth = depth };
	vp_explore_result r, again;
	vp_stats st;
	char reported[256], replayed[256] = "";
	int rc, replay_rc;

	rc = vp_explore(&o, fn, NULL, runs, &r);
	first_line(r.report, reported, sizeof(reported));
	tap_ok(rc == 0 && r.failed == 1 && r.first_seed != 0 &&
		       !strcmp(r.what, what) && r.depth == depth,
	       "%s (depth %d): found in %d of %d runs, seed %llu, %s "
	       "(expected %s): %s",
	       name, depth, r.runs, runs, (unsigned long long)r.first_seed,
	       r.what, what, reported);
	if (!r.failed)
		return;
	o.schedule = r.first_seed;
	replay_rc = vp_run(&o, fn, NULL, &st);
	snprintf(replayed, sizeof(replayed), "vp: ");
	first_line(st.error, replayed + 4, sizeof(replayed) - 4);
	tap_ok(replay_rc == r.code && !strcmp(replayed, reported),
	       "%s: vp_run with schedule %llu fails the same way: rc %d "
	       "(explored %d), '%s'",
	       name, (unsigned long long)r.first_seed, replay_rc, r.code,
	       replayed);
	o.schedule = 0;
	rc = vp_explore(&o, fn, NULL, runs, &again);
	tap_ok(rc == 0 && again.runs == r.runs &&
		       again.first_seed == r.first_seed &&
		       again.match_orders == r.match_orders &&
		       again.schedules == r.schedules,
	       "%s: a second exploration makes the same runs: seed %llu "
	       "after %d runs, %llu match orders, %llu schedules (first: "
	       "%llu after %d, %llu, %llu)",
	       name, (unsigned long long)again.first_seed, again.runs,
	       (unsigned long long)again.match_orders,
	       (unsigned long long)again.schedules,
	       (unsigned long long)r.first_seed, r.runs,
	       (unsigned long long)r.match_orders,
	       (unsigned long long)r.schedules);
}

static void passes_every_schedule(const char *name,
				  int (*fn)(vp_comm *, void *),
				  const char *topo, int depth, int runs,
				  uint64_t least_orders)
{
	vp_opts o = { .topology = topo, .quiet = 1, .schedule_depth = depth };
	vp_explore_result r;
	int rc;

	rc = vp_explore(&o, fn, NULL, runs, &r);
	tap_ok(rc == 0 && r.failed == 0 && r.runs == runs &&
		       r.match_orders >= least_orders &&
		       r.schedules >= r.match_orders && r.schedules <= (uint64_t)runs,
	       "%s (depth %d): %d of %d runs pass; %llu match orders (at "
	       "least %llu), %llu schedules%s%s",
	       name, depth, r.runs, runs, (unsigned long long)r.match_orders,
	       (unsigned long long)least_orders,
	       (unsigned long long)r.schedules, r.failed ? ": " : "",
	       r.failed ? r.report : "");
}

static void test_wildcard_races(void)
{
	finds_and_replays("a master assuming rank order",
			  results_in_rank_order, "full:4", 0, 50,
			  "rank error");
	finds_and_replays("a master assuming rank order",
			  results_in_rank_order, "full:4", 2, 50,
			  "rank error");
	passes_every_schedule("the master filing by source", results_by_source,
			      "full:4", 0, 50, 2);
	passes_every_schedule("the master filing by source", results_by_source,
			      "full:4", 3, 50, 2);
	finds_and_replays("a deadlock behind one wildcard match",
			  wildcard_then_named, "full:3", 0, 50, "deadlock");
	passes_every_schedule("two wildcard receives", wildcard_twice,
			      "full:3", 0, 50, 2);
	finds_and_replays("an iprobe loop stopping at DONE", stops_at_done,
			  "full:3", 0, 50, "unreceived messages");
	passes_every_schedule("an iprobe loop waiting for both",
			      waits_for_both, "full:3", 0, 50, 1);
}

int main(void)
{
	runs_seen = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (runs_seen == MAP_FAILED)
		return 1;
	test_finds_the_failing_run();
	test_failure_kinds();
	test_timeout();
	test_bad_arguments();
	test_wildcard_races();
	return tap_done();
}
