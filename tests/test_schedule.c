/*
 * test_schedule.c - deterministic schedules (vp_opts.schedule):
 *   - one seed, one program: the same wildcard matches, results, trace,
 *     output order and hashes, run after run (20 runs);
 *   - different seeds: more than one match order of a master/worker
 *     program with VP_ANY_SOURCE at p = 4;
 *   - a "wildcard deadlock" (it hangs only when the wildcard takes one
 *     particular sender) is found by some seed of 200 and passes under
 *     others, and its failing seed fails again when replayed;
 *   - a program that relies on MPI buffering (both ranks send first) is
 *     named unsafe under a seed whose sends are not buffered, and passes
 *     under one whose sends are;
 *   - PCT (schedule_depth) is deterministic too and its runs complete;
 *   - VP_SCHEDULE, VP_SCHEDULE_DEPTH are read strictly; the report line on
 *     VP_SCHEDULE_REPORT_FD; vp_schedule_last.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

#define P 4
#define TASKS 12
#define MAXLOG 64

/* What a run showed: rank 0's sequence of wildcard sources, the results,
 * and a log of every rank's steps in the order they ran. */
struct seen {
	int order[TASKS * 2];
	int norder;
	long result[P];
	char log[MAXLOG][24];
	int nlog;
};

static void note(struct seen *s, int rank, const char *what, int v)
{
	/* only one rank runs at a time under a schedule: no lock needed */
	if (s->nlog < MAXLOG)
		snprintf(s->log[s->nlog++], sizeof(s->log[0]), "%d:%s:%d", rank,
			 what, v);
}

/* Master/worker: rank 0 hands out TASKS tasks and collects results with
 * VP_ANY_SOURCE; workers square what they get until told to stop (-1).
 * Then a ring shift and an all-reduce. */
static int master_worker(vp_comm *c, void *arg)
{
	struct seen *s = arg;
	int r = vp_rank(c), p = vp_size(c), rc, k, next = 0, busy = 0;
	long v, sum = 0, total;
	vp_status st;

	if (r == 0) {
		for (k = 1; k < p; k++, next++, busy++)
			if ((rc = vp_send_tag(c, k, 1, &(long){ next }, sizeof(long))))
				return rc;
		while (busy) {
			if ((rc = vp_recv_tag(c, VP_ANY_SOURCE, 2, &v, sizeof(v),
					      &st)))
				return rc;
			s->order[s->norder++] = st.source;
			note(s, 0, "got", st.source);
			sum += v;
			busy--;
			v = next < TASKS ? next++ : -1;
			busy += v >= 0;
			if ((rc = vp_send_tag(c, st.source, 1, &v, sizeof(v))))
				return rc;
		}
	} else {
		for (;;) {
			if ((rc = vp_recv_tag(c, 0, 1, &v, sizeof(v), NULL)))
				return rc;
			if (v < 0)
				break;
			note(s, r, "task", (int)v);
			v *= v;
			if ((rc = vp_send_tag(c, 0, 2, &v, sizeof(v))))
				return rc;
		}
	}
	/* a ring: each rank passes its number on */
	if ((rc = vp_sendrecv(c, (r + 1) % p, &(long){ r }, sizeof(long),
			      (r + p - 1) % p, &v, sizeof(v))))
		return rc;
	sum += v;
	if ((rc = vp_allreduce(c, &sum, &total, 1, VP_INT64, VP_SUM,
			       VP_ALG_AUTO)))
		return rc;
	s->result[r] = total;
	return VP_OK;
}

static int run_seeded(uint64_t seed, int depth, const char *trace,
		      int (*fn)(vp_comm *, void *), void *arg, int p,
		      vp_stats *st)
{
	char topo[32];
	vp_opts o = { 0 };

	snprintf(topo, sizeof(topo), "full:%d", p);
	o.topology = topo;
	o.schedule = seed;
	o.schedule_depth = depth;
	o.trace = trace;
	o.quiet = 1;
	return vp_run(&o, fn, arg, st);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void same_seed_same_run(int depth)
{
	char path[64], *first_trace = NULL, *trace;
	struct seen first, now;
	vp_schedule_info i0, i;
	int k, rc, same = 1, same_trace = 1, same_info = 1, ok_runs = 1;
	long expect = 0;

	snprintf(path, sizeof(path), "/tmp/vp-sched-%d.json", (int)getpid());
	for (k = 0; k < TASKS; k++)
		expect += (long)k * k;
	expect += P * (P - 1) / 2; /* the ring's numbers */
	for (k = 0; k < 20; k++) {
		memset(&now, 0, sizeof(now));
		rc = run_seeded(12345, depth, path, master_worker, &now, P, NULL);
		vp_schedule_last(&i);
		trace = slurp(path);
		ok_runs &= rc == VP_OK && now.result[0] == expect &&
			   now.result[P - 1] == expect;
		if (!k) {
			first = now;
			first_trace = trace;
			i0 = i;
			continue;
		}
		same &= now.norder == first.norder &&
			!memcmp(now.order, first.order,
				sizeof(int) * (size_t)now.norder) &&
			now.nlog == first.nlog &&
			!memcmp(now.log, first.log, sizeof(now.log));
		same_trace &= trace && first_trace && !strcmp(trace, first_trace);
		same_info &= !memcmp(&i, &i0, sizeof(i));
		free(trace);
	}
	unlink(path);
	free(first_trace);
	tap_ok(ok_runs, "depth %d: 20 seeded runs of master/worker + ring + "
			"allreduce complete with the right sums",
	       depth);
	tap_ok(same, "depth %d: seed 12345 gives the same wildcard matches "
		     "and step order 20 times",
	       depth);
	tap_ok(same_trace, "depth %d: ... and the same trace file", depth);
	tap_ok(same_info && i0.seed == 12345 && i0.depth == depth &&
		   i0.choices > 0 && i0.match_hash != 0,
	       "depth %d: ... and the same vp_schedule_last (choices %" PRIu64
	       ", matches %016" PRIx64 ")",
	       depth, i0.choices, i0.match_hash);
}

static void seeds_differ(void)
{
	int orders[20][TASKS * 2], n[20], k, j, distinct = 0;
	uint64_t hashes[20];
	int hdistinct = 0;

	for (k = 0; k < 20; k++) {
		struct seen s;
		vp_schedule_info i;

		memset(&s, 0, sizeof(s));
		run_seeded((uint64_t)k + 1, 0, NULL, master_worker, &s, P, NULL);
		vp_schedule_last(&i);
		memcpy(orders[k], s.order, sizeof(s.order));
		n[k] = s.norder;
		hashes[k] = i.match_hash;
	}
	for (k = 0; k < 20; k++) {
		for (j = 0; j < k; j++)
			if (n[j] == n[k] &&
			    !memcmp(orders[j], orders[k], sizeof(int) * (size_t)n[k]))
				break;
		distinct += j == k;
		for (j = 0; j < k && hashes[j] != hashes[k]; j++)
			;
		hdistinct += j == k;
	}
	tap_ok(distinct > 1, "seeds 1..20 give %d distinct wildcard match "
			     "orders at p = %d (more than one)",
	       distinct, P);
	tap_ok(hdistinct == distinct,
	       "... and as many distinct match hashes (%d)", hdistinct);
}

/* Rank 0 takes one message from anyone, then one from rank 1: a deadlock
 * exactly when the wildcard took rank 1's. */
static int wildcard_deadlock(vp_comm *c, void *arg)
{
	int r = vp_rank(c), v = r, rc;
	vp_status st;

	(void)arg;
	if (r != 0)
		return vp_send(c, 0, &v, sizeof(v));
	if ((rc = vp_recv_tag(c, VP_ANY_SOURCE, 0, &v, sizeof(v), &st)))
		return rc;
	return vp_recv(c, 1, &v, sizeof(v));
}

static void finds_wildcard_deadlock(void)
{
	uint64_t seed, bad = 0, good = 0;
	vp_stats st;
	int rc, replay;

	for (seed = 1; seed <= 200 && (!bad || !good); seed++) {
		rc = run_seeded(seed, 0, NULL, wildcard_deadlock, NULL, 3, &st);
		if (rc == VP_EDEADLOCK && !bad)
			bad = seed;
		else if (rc == VP_OK && !good)
			good = seed;
	}
	tap_ok(bad != 0, "a seed of 200 finds the wildcard deadlock (seed %" PRIu64
			 ")",
	       bad);
	tap_ok(good != 0, "a seed of 200 runs it to the end (seed %" PRIu64 ")",
	       good);
	replay = bad ? run_seeded(bad, 0, NULL, wildcard_deadlock, NULL, 3,
				  &st)
		     : VP_OK;
	tap_ok(replay == VP_EDEADLOCK && strstr(st.error, "rank 0") &&
		   strstr(st.error, "rank 1"),
	       "its seed deadlocks again when replayed, and the report names "
	       "rank 0 waiting for rank 1");
	if (bad)
		tap_diag("%s", st.error);
}

/* Both ranks send first: safe only if MPI buffers the messages. */
static int send_first(vp_comm *c, void *arg)
{
	int r = vp_rank(c), v = r, got, rc;

	(void)arg;
	if ((rc = vp_send(c, 1 - r, &v, sizeof(v))))
		return rc;
	rc = vp_recv(c, 1 - r, &got, sizeof(got));
	return rc ? rc : got == 1 - r ? VP_OK : VP_EINVAL;
}

static void names_unsafe_sends(void)
{
	uint64_t seed, unsafe = 0, passes = 0;
	vp_stats st;
	char why[1024] = "";
	int rc, other = 0;

	for (seed = 1; seed <= 60; seed++) {
		rc = run_seeded(seed, 0, NULL, send_first, NULL, 2, &st);
		if (rc == VP_OK) {
			passes = passes ? passes : seed;
		} else if (rc == VP_EDEADLOCK &&
			   strstr(st.error, "the program is unsafe (it relies "
					    "on MPI buffering the message), see "
					    "MPI 4.0 sec. 3.5") &&
			   strstr(st.error, "vp_send of 4 bytes to rank")) {
			if (!unsafe)
				snprintf(why, sizeof(why), "%s", st.error);
			unsafe = unsafe ? unsafe : seed;
		} else {
			other++;
		}
	}
	tap_ok(unsafe != 0, "send-first is named unsafe under a seed whose "
			    "sends are not buffered (seed %" PRIu64 ")",
	       unsafe);
	if (unsafe)
		tap_diag("%s", why);
	tap_ok(passes != 0, "... and passes under one whose sends are (seed "
			    "%" PRIu64 ")",
	       passes);
	tap_ok(!other, "no seed fails it any other way (%d did)", other);
}

static int trivial(vp_comm *c, void *arg)
{
	(void)c;
	(void)arg;
	return VP_OK;
}

static void settings(void)
{
	vp_stats st;
	vp_schedule_info i;
	int fds[2], rc;
	char line[256] = "";
	ssize_t n;

	setenv("VP_SCHEDULE", "12abc", 1);
	rc = vp_run(&(vp_opts){ .topology = "full:2", .quiet = 1 }, trivial,
		    NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "VP_SCHEDULE=12abc"),
	       "VP_SCHEDULE=12abc is refused, named (%s)", st.error);
	setenv("VP_SCHEDULE", "18446744073709551615", 1);
	setenv("VP_SCHEDULE_DEPTH", "3", 1);
	if (pipe(fds))
		return;
	snprintf(line, sizeof(line), "%d", fds[1]);
	setenv("VP_SCHEDULE_REPORT_FD", line, 1);
	rc = vp_run(&(vp_opts){ .topology = "full:2", .quiet = 1 }, trivial,
		    NULL, &st);
	vp_schedule_last(&i);
	n = read(fds[0], line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = 0;
	close(fds[0]);
	close(fds[1]);
	unsetenv("VP_SCHEDULE_REPORT_FD");
	tap_ok(rc == VP_OK && i.seed == UINT64_MAX && i.depth == 3,
	       "VP_SCHEDULE=2^64-1 and VP_SCHEDULE_DEPTH=3 apply (seed %" PRIu64
	       ", depth %d)",
	       i.seed, i.depth);
	tap_ok(!strncmp(line, "vp-schedule seed=18446744073709551615 depth=3 "
			      "choices=",
			14 + 32) &&
		   strstr(line, " matches=") && strstr(line, " schedule=") &&
		   line[strlen(line) - 1] == '\n',
	       "VP_SCHEDULE_REPORT_FD gets the line: %s", line);
	setenv("VP_SCHEDULE_DEPTH", "-1", 1);
	rc = vp_run(&(vp_opts){ .topology = "full:2", .quiet = 1 }, trivial,
		    NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "VP_SCHEDULE_DEPTH=-1"),
	       "VP_SCHEDULE_DEPTH=-1 is refused, named (%s)", st.error);
	unsetenv("VP_SCHEDULE");
	unsetenv("VP_SCHEDULE_DEPTH");
	rc = vp_run(&(vp_opts){ .topology = "full:2", .quiet = 1 }, trivial,
		    NULL, &st);
	vp_schedule_last(&i);
	tap_ok(rc == VP_OK && i.seed == 0,
	       "a run without a seed: vp_schedule_last says seed 0");
	tap_ok(vp_schedule_last(NULL) == VP_EINVAL,
	       "vp_schedule_last(NULL) is VP_EINVAL");
}

int main(void)
{
	same_seed_same_run(0);
	same_seed_same_run(3);
	seeds_differ();
	finds_wildcard_deadlock();
	names_unsafe_sends();
	settings();
	return tap_done();
}
