/*
 * test_fibers.c - ranks as fibers (vp_opts.fibers): the same program gives
 * the same answers as with a thread per rank, on a handful of threads.
 *   - p ranks run on at most one carrier thread per CPU;
 *   - a program of collectives, nonblocking calls, a vp_test polling loop
 *     and probes gives the same data, the same model time on every rank
 *     and the same messages and bytes as with threads;
 *   - an all-to-all at p = 128 and a ring and barrier at p = 4096 and
 *     16384 finish and are right;
 *   - a deadlock among fibers is reported with its cycle, as with threads;
 *   - a rank that polls with vp_test gives its carrier to the others (64
 *     ranks polling in a chain finish);
 *   - a fiber that calls pthread_exit() fails the run naming the rank,
 *     and the other ranks still finish;
 *   - fibers = 2 is refused naming the value.
 * The whole suite also runs with VP_FIBERS=1 in `make check`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

/* ThreadSanitizer's pthread_exit must run on the thread's own stack. */
#if defined(__SANITIZE_THREAD__)
#define FIBER_PTHREAD_EXIT_UNSUPPORTED 1
#else
#define FIBER_PTHREAD_EXIT_UNSUPPORTED 0
#endif

static int ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* ---- carriers ---- */

#define CARRIED 256

/* The threads each rank ran on, before and after a barrier. */
static pthread_t ran_on[CARRIED][2];

static int note_thread(vp_comm *c, void *arg)
{
	int r = vp_rank(c), rc;

	(void)arg;
	ran_on[r][0] = pthread_self();
	rc = vp_barrier(c);
	ran_on[r][1] = pthread_self();
	return rc;
}

static void test_carriers(void)
{
	vp_opts o = { .topology = "full:256", .fibers = 1, .quiet = 1 };
	pthread_t seen[2 * CARRIED];
	int rc, r, k, i, n = 0;

	rc = vp_run(&o, note_thread, NULL, NULL);
	for (r = 0; r < CARRIED; r++)
		for (k = 0; k < 2; k++) {
			for (i = 0; i < n; i++)
				if (pthread_equal(seen[i], ran_on[r][k]))
					break;
			if (i == n)
				seen[n++] = ran_on[r][k];
		}
	tap_ok(rc == 0 && n >= 1 && n <= ncpu(),
	       "256 ranks as fibers run on at most %d carrier threads (rc "
	       "%d, %d threads seen)",
	       ncpu(), rc, n);
}

/* ---- the same program, both ways ---- */

#define MIXP 16

struct mix {
	double t[MIXP];
	unsigned long sum[MIXP];
};

/* Collectives, a nonblocking ring, a vp_test polling loop and a probe; each
 * rank keeps a checksum of what it received and its model time. */
static int mixed(vp_comm *c, void *arg)
{
	struct mix *m = arg;
	int p = vp_size(c), r = vp_rank(c), i, rc = 0, done = 0;
	int right = (r + 1) % p, left = (r + p - 1) % p;
	long all[MIXP], buf[MIXP], mine = r + 1, got = 0;
	unsigned long s = 0; /* a checksum: wraps */
	vp_request req[2];
	vp_status st;

	rc |= vp_bcast(c, &mine, 1, VP_INT64, 3, VP_ALG_AUTO);
	s += mine;
	mine = r + 1;
	rc |= vp_allreduce(c, &mine, &got, 1, VP_INT64, VP_SUM, VP_ALG_AUTO);
	s += got;
	rc |= vp_allgather(c, &mine, all, 1, VP_INT64, VP_ALG_AUTO);
	for (i = 0; i < p; i++)
		s += (unsigned long)all[i] * (unsigned)(i + 1);
	for (i = 0; i < p; i++)
		buf[i] = r * 100 + i;
	rc |= vp_alltoall(c, buf, all, 1, VP_INT64, VP_ALG_PAIRWISE);
	for (i = 0; i < p; i++)
		s += (unsigned long)all[i] * (unsigned)(i + 3);
	rc |= vp_scan(c, &mine, &got, 1, VP_INT64, VP_SUM, VP_ALG_AUTO);
	s += got;
	rc |= vp_irecv(c, left, 5, &got, sizeof(got), &req[0]);
	rc |= vp_isend(c, right, 5, &mine, sizeof(mine), &req[1]);
	rc |= vp_waitall(2, req, NULL);
	s += (unsigned long)got * 7;
	/* a chain: rank r polls until r - 1's message is there */
	if (r > 0) {
		rc |= vp_irecv(c, r - 1, 9, &got, sizeof(got), &req[0]);
		while (!rc && !done)
			rc = vp_test(&req[0], &done, NULL);
		s += (unsigned long)got * 11;
	}
	if (r + 1 < p)
		rc |= vp_send_tag(c, r + 1, 9, &s, sizeof(s));
	rc |= vp_send_tag(c, right, 13, &s, sizeof(s));
	rc |= vp_probe(c, left, 13, &st);
	rc |= vp_recv_tag(c, left, 13, &got, sizeof(got), NULL);
	s += (unsigned long)got + st.bytes;
	rc |= vp_barrier(c);
	m->t[r] = vp_time(c);
	m->sum[r] = s;
	return rc;
}

static void test_same_as_threads(void)
{
	vp_opts o = { .topology = "hypercube:4", .ts = 10, .tw = 0.5 };
	struct mix thr, fib;
	vp_stats a, b;
	int rc1, rc2, i, same = 1;

	memset(&thr, 0, sizeof(thr));
	memset(&fib, 0, sizeof(fib));
	rc1 = vp_run(&o, mixed, &thr, &a);
	o.fibers = 1;
	rc2 = vp_run(&o, mixed, &fib, &b);
	for (i = 0; i < MIXP; i++)
		if (thr.t[i] != fib.t[i] || thr.sum[i] != fib.sum[i]) {
			same = 0;
			tap_diag(
			    "rank %d: threads t %.3f sum %lu, fibers t %.3f "
			    "sum %lu",
			    i, thr.t[i], thr.sum[i], fib.t[i], fib.sum[i]);
		}
	tap_ok(rc1 == 0 && rc2 == 0 && same && thr.sum[0] != 0,
	       "collectives, requests, a vp_test loop and probes on 16 "
	       "ranks: fibers give every rank's data and model time as "
	       "threads do (rc %d and %d)",
	       rc1, rc2);
	tap_ok(a.messages == b.messages && a.bytes == b.bytes &&
		   a.model_time == b.model_time,
	       "... and the same messages (%llu, %llu), bytes and model time "
	       "(%.3f, %.3f)",
	       (unsigned long long)a.messages, (unsigned long long)b.messages,
	       a.model_time, b.model_time);
}

/* ---- bigger runs ---- */

static atomic_int bad;

static int alltoall_check(vp_comm *c, void *arg)
{
	int p = vp_size(c), r = vp_rank(c), i, rc;
	int32_t *s = malloc((size_t)p * 4), *g = malloc((size_t)p * 4);

	(void)arg;
	if (!s || !g) {
		free(s);
		free(g);
		return VP_ENOMEM;
	}
	for (i = 0; i < p; i++)
		s[i] = r * p + i;
	rc = vp_alltoall(c, s, g, 1, VP_INT32, VP_ALG_PAIRWISE);
	for (i = 0; !rc && i < p; i++)
		if (g[i] != i * p + r)
			atomic_fetch_add(&bad, 1);
	free(s);
	free(g);
	return rc;
}

static int ring_barrier(vp_comm *c, void *arg)
{
	int p = vp_size(c), r = vp_rank(c), got = -1, rc;

	(void)arg;
	rc = vp_sendrecv(c, (r + 1) % p, &r, sizeof(r), (r + p - 1) % p, &got,
			 sizeof(got));
	if (!rc && got != (r + p - 1) % p)
		atomic_fetch_add(&bad, 1);
	return rc ? rc : vp_barrier(c);
}

static void test_big(void)
{
	vp_opts o = { .topology = "full:128", .fibers = 1 };
	vp_stats st;
	int rc;

	atomic_store(&bad, 0);
	rc = vp_run(&o, alltoall_check, NULL, &st);
	tap_ok(rc == 0 && atomic_load(&bad) == 0 && st.mailboxes == 128 * 127,
	       "pairwise all-to-all on 128 fibers: every block where it "
	       "belongs (rc %d, %d wrong, %zu mailboxes)",
	       rc, atomic_load(&bad), st.mailboxes);
	/* under valgrind (VP_TEST_QUICK) a quarter of the ranks */
	o.topology = getenv("VP_TEST_QUICK") ? "ring:1024" : "ring:4096";
	rc = vp_run(&o, ring_barrier, NULL, &st);
	tap_ok(rc == 0 && atomic_load(&bad) == 0,
	       "ring exchange and barrier on %s fibers (rc %d, %.3f s)",
	       o.topology + 5, rc, st.wall_seconds);
	if (getenv("VP_TEST_QUICK"))
		return; /* the sanitizers and valgrind: p = 1024 above */
	/* 16384 ranks: the run's per-rank array (48 MB) is populated by two
	 * threads before the first rank starts (bulk.c) */
	o.topology = "ring:16384";
	rc = vp_run(&o, ring_barrier, NULL, &st);
	tap_ok(rc == 0 && atomic_load(&bad) == 0,
	       "ring exchange and barrier on 16384 fibers (rc %d, %.3f s)",
	       rc, st.wall_seconds);
}

/* ---- failures ---- */

static int recv_first(vp_comm *c, void *arg)
{
	int p = vp_size(c), r = vp_rank(c), x = 0;

	(void)arg;
	return vp_recv(c, (r + 1) % p, &x, sizeof(x));
}

static void test_deadlock(void)
{
	vp_opts o = { .topology = "ring:6", .fibers = 1, .quiet = 1 };
	vp_stats st;
	int rc = vp_run(&o, recv_first, NULL, &st);

	tap_ok(rc == VP_EDEADLOCK && strstr(st.error, "cycle") &&
		   strstr(st.error, "rank 5 in vp_recv waits for rank 0"),
	       "6 fibers each receiving first: VP_EDEADLOCK with the cycle "
	       "(rc %d): %.300s",
	       rc, st.error);
}

#define CHAIN 64

static int poll_chain(vp_comm *c, void *arg)
{
	int r = vp_rank(c), p = vp_size(c), x = r, done = 0, rc = 0;
	vp_request q;

	(void)arg;
	if (r > 0) {
		rc = vp_irecv(c, r - 1, 0, &x, sizeof(x), &q);
		while (!rc && !done)
			rc = vp_test(&q, &done, NULL);
		x++;
	}
	if (!rc && r + 1 < p)
		rc = vp_send_tag(c, r + 1, 0, &x, sizeof(x));
	if (!rc && r == p - 1 && x != p - 1)
		atomic_fetch_add(&bad, 1);
	return rc;
}

static void test_polling(void)
{
	vp_opts o = { .topology = "full:64", .fibers = 1, .watchdog = 60 };
	int rc;

	atomic_store(&bad, 0);
	rc = vp_run(&o, poll_chain, NULL, NULL);
	tap_ok(rc == 0 && atomic_load(&bad) == 0,
	       "64 fibers polling with vp_test in a chain finish: a test "
	       "that finds nothing gives the carrier away (rc %d)",
	       rc);
}

static atomic_int finished;

static int exit_early(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 3)
		pthread_exit(NULL);
	atomic_fetch_add(&finished, 1);
	return VP_OK;
}

static void test_pthread_exit(void)
{
	vp_opts o = { .topology = "full:8", .fibers = 1, .quiet = 1 };
	vp_stats st;
	int rc;

	if (FIBER_PTHREAD_EXIT_UNSUPPORTED) {
		tap_ok(1, "# SKIP ThreadSanitizer stops the process when "
			  "pthread_exit() is called on a fiber");
		return;
	}
	atomic_store(&finished, 0);
	rc = vp_run(&o, exit_early, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "rank 3") &&
		   strstr(st.error, "pthread_exit") &&
		   atomic_load(&finished) == 7,
	       "a fiber calling pthread_exit() fails the run naming rank 3, "
	       "and the 7 others finish (rc %d, %d finished): %s",
	       rc, atomic_load(&finished), st.error);
}

static int nothing(vp_comm *c, void *arg)
{
	(void)c;
	(void)arg;
	return VP_OK;
}

static void test_refused(void)
{
	vp_opts o = { .topology = "full:2", .fibers = 2, .quiet = 1 };
	vp_stats st;
	int rc = vp_run(&o, nothing, NULL, &st);

	tap_ok(rc == VP_EINVAL && strstr(st.error, "fibers 2"),
	       "fibers = 2 is refused naming the value (rc %d): %s", rc,
	       st.error);
}

int main(void)
{
	unsetenv("VP_FIBERS"); /* each test says how its ranks run */
	test_carriers();
	test_same_as_threads();
	test_big();
	test_deadlock();
	test_polling();
	test_pthread_exit();
	test_refused();
	return tap_done();
}
