/*
 * test_misuse.c - a wrong program never ends with vp_run returning 0, and a
 * misuse is reported, naming the rank, the call and what was wrong:
 *   - a rank function returning any non-zero code (VP_EDEADLOCK and
 *     VP_EABORT included) fails the run;
 *   - vp_abort with a positive code, with VP_EABORT or with 0 aborts and
 *     keeps the user's message;
 *   - VP_IN_PLACE as a point-to-point buffer, a double vp_comm_free, any
 *     call on a freed communicator fail with VP_EINVAL;
 *   - a helper thread calling on a rank's communicator fails the run
 *     instead of corrupting the rank's mailbox;
 *   - a rank thread ending with pthread_exit() fails the run instead of
 *     hanging it;
 *   - mismatched collectives (roots, counts, operations, a skipped call,
 *     reduction ops, types, pipeline segments) fail with VP_EMISMATCH
 *     naming both ranks and the argument that differs;
 *   - messages never received fail the run with VP_EUNRECEIVED naming the
 *     pairs, or only count in vp_stats with allow_unreceived;
 *   - errors inside a collective name the collective the user called, and
 *     on a sub-communicator a peer is named in both numberings;
 *   - a deadlock of 64 ranks keeps its whole report (vp_stats.report) and
 *     vp_stats.error always ends with the cycle;
 *   - a rank that overflows its stack dies with the cause named: "rank 3
 *     overflowed its 256 KiB stack; set vp_opts.stack_size";
 *   - a run that cannot start its threads fails with VP_ENOMEM naming the
 *     limit it hit (here ulimit -u, in a child as an unprivileged user);
 *   - the opt-in watchdog fails a run whose rank sleeps outside vp, with a
 *     report of every rank, and ends a process whose rank never returns
 *     (pause()) with exit status 124; a run that goes well returns as its
 *     ranks finish, not at the watchdog's next check;
 *   - comm_split gives the right sub-ranks with several runs at once in
 *     parallel threads (no state shared between runs).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

/* Runs fn on spec quietly; the result and the stats are the caller's. */
static int run(const char *spec, int (*fn)(vp_comm *, void *), void *arg,
	       vp_stats *st)
{
	vp_opts o = { .topology = spec, .quiet = 1 };

	return vp_run(&o, fn, arg, st);
}

/* ---- non-zero results ---- */

static int return_code(vp_comm *c, void *arg)
{
	return vp_rank(c) == 3 ? *(int *)arg : VP_OK;
}

static void test_results(void)
{
	int codes[] = { VP_EDEADLOCK, VP_EABORT, 1, 42, VP_EINVAL };
	vp_stats st;
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		int rc = run("full:8", return_code, &codes[i], &st);

		tap_ok(rc == codes[i] && st.error_rank == 3 &&
			   strstr(st.error, "rank 3") &&
			   strstr(st.error, "returned"),
		       "a rank returning %d fails the run with it (%d): %s",
		       codes[i], rc, st.error);
	}
}

static int abort_with(vp_comm *c, void *arg)
{
	int code = *(int *)arg, buf;

	if (vp_rank(c) == 2)
		return vp_abort(c, code, "solver", "matrix is singular at %d",
				17);
	/* the others wait for a message that never comes */
	return vp_recv(c, 2, &buf, sizeof(buf));
}

static void test_abort(void)
{
	int codes[] = { 1, VP_EABORT, 0, VP_EINVAL };
	vp_stats st;
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		int want = codes[i] ? codes[i] : VP_EABORT;
		int rc = run("ring:6", abort_with, &codes[i], &st);

		tap_ok(rc == want && st.error_rank == 2 &&
			   strstr(st.error,
				  "rank 2: solver: matrix is singular at "
				  "17"),
		       "vp_abort(code %d) aborts with %d and keeps the "
		       "message: %s",
		       codes[i], rc, st.error);
	}
}

/* ---- handles and buffers ---- */

static int in_place_send(vp_comm *c, void *arg)
{
	int x = 0;

	(void)arg;
	if (vp_rank(c) == 0)
		return vp_send(c, 1, VP_IN_PLACE, 4);
	return vp_recv(c, 0, &x, sizeof(x));
}

static int in_place_recv(vp_comm *c, void *arg)
{
	int x = 0;

	(void)arg;
	if (vp_rank(c) == 0)
		return vp_send(c, 1, &x, sizeof(x));
	return vp_recv(c, 0, VP_IN_PLACE, 4);
}

static int double_free(vp_comm *c, void *arg)
{
	vp_comm *sub;
	int rc;

	(void)arg;
	if ((rc = vp_comm_split(c, 0, vp_rank(c), &sub)))
		return rc;
	if ((rc = vp_comm_free(sub)))
		return rc;
	return vp_comm_free(sub);
}

static int use_after_free(vp_comm *c, void *arg)
{
	const char *what = arg;
	vp_comm *sub;
	int rc, x = 1, y;

	if ((rc = vp_comm_split(c, 0, vp_rank(c), &sub)))
		return rc;
	if ((rc = vp_comm_free(sub)))
		return rc;
	if (!strcmp(what, "barrier"))
		return vp_barrier(sub);
	if (!strcmp(what, "allreduce"))
		return vp_allreduce(sub, &x, &y, 1, VP_INT32, VP_SUM,
				    VP_ALG_AUTO);
	return vp_sendrecv(sub, 0, &x, sizeof(x), 0, &y, sizeof(y));
}

static void test_handles(void)
{
	const char *after[] = { "barrier", "allreduce", "sendrecv" };
	vp_stats st;
	size_t i;
	int rc;

	rc = run("full:2", in_place_send, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "rank 0: vp_send") &&
		   strstr(st.error, "VP_IN_PLACE"),
	       "vp_send(VP_IN_PLACE) fails with VP_EINVAL: %s", st.error);
	rc = run("full:2", in_place_recv, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "rank 1: vp_recv") &&
		   strstr(st.error, "VP_IN_PLACE"),
	       "vp_recv(VP_IN_PLACE) fails with VP_EINVAL: %s", st.error);
	rc = run("full:4", double_free, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "vp_comm_free") &&
		   strstr(st.error, "already freed"),
	       "a second vp_comm_free fails with VP_EINVAL: %s", st.error);
	for (i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		rc = run("full:4", use_after_free, (void *)after[i], &st);
		tap_ok(rc == VP_EINVAL && strstr(st.error, "was freed") &&
			   strstr(st.error, after[i]),
		       "%s on a freed communicator fails with VP_EINVAL: %s",
		       after[i], st.error);
	}
}

/* ---- threads ---- */

struct helper {
	vp_comm *c;
	int rc;
};

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	int x = 7;

	h->rc = vp_send(h->c, 1, &x, sizeof(x));
	return NULL;
}

static int helper_thread(vp_comm *c, void *arg)
{
	struct helper h = { c, 0 };
	pthread_t t;
	int x;

	(void)arg;
	if (vp_rank(c) == 0) {
		pthread_create(&t, NULL, helper_main, &h);
		pthread_join(t, NULL);
		return h.rc;
	}
	return vp_recv(c, 0, &x, sizeof(x));
}

static int exits_thread(vp_comm *c, void *arg)
{
	int x;

	(void)arg;
	if (vp_rank(c) == 1)
		pthread_exit(NULL);
	if (vp_rank(c) == 0)
		return vp_recv(c, 1, &x, sizeof(x));
	return VP_OK;
}

static void test_threads(void)
{
	vp_stats st;
	int rc;

	rc = run("full:2", helper_thread, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "rank 0: vp_send") &&
		   strstr(st.error, "not rank 0's own"),
	       "a helper thread sending on rank 0's communicator fails the "
	       "run: %s",
	       st.error);
#if defined(__SANITIZE_THREAD__)
	/* ThreadSanitizer stops the process on a pthread_exit() from a
	 * fiber: this case keeps threads there (test_fibers says so) */
	unsetenv("VP_FIBERS");
#endif
	rc = run("full:3", exits_thread, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "rank 1") &&
		   strstr(st.error, "pthread_exit"),
	       "a rank calling pthread_exit() fails the run, no hang: %s",
	       st.error);
}

/* ---- mismatched collectives ---- */

enum mismatch {
	ROOTS,
	COUNTS,
	OPERATIONS,
	SKIPPED,
	REDUCTION_OPS,
	TYPES,
	SEGMENTS,
};

static int mismatched(vp_comm *c, void *arg)
{
	enum mismatch m = *(enum mismatch *)arg;
	int r = vp_rank(c), i, rc = VP_OK;
	int32_t buf[64] = { 0 }, out[64];

	switch (m) {
	case ROOTS: /* rank 3 thinks the root is 1 */
		return vp_bcast(c, buf, 8, VP_INT32, r == 3 ? 1 : 0,
				VP_ALG_AUTO);
	case COUNTS: /* the root sends 4, the others expect 8 */
		return vp_bcast(c, buf, r == 0 ? 4 : 8, VP_INT32, 0,
				VP_ALG_LINEAR);
	case OPERATIONS: /* rank 5 reduces while the others broadcast */
		if (r == 5)
			return vp_reduce(c, buf, out, 8, VP_INT32, VP_SUM, 0,
					 VP_ALG_AUTO);
		return vp_bcast(c, buf, 8, VP_INT32, 0, VP_ALG_AUTO);
	case SKIPPED: /* rank 6 skips the first of two broadcasts */
		for (i = 0; i < 2 && !rc; i++)
			if (r != 6 || i == 1)
				rc = vp_bcast(c, buf, 8, VP_INT32, 0,
					      VP_ALG_BINOMIAL);
		return rc;
	case REDUCTION_OPS: /* MAX on rank 2, SUM elsewhere */
		return vp_allreduce(c, buf, out, 8, VP_INT32,
				    r == 2 ? VP_MAX : VP_SUM, VP_ALG_AUTO);
	case TYPES: /* FLOAT on rank 4, INT32 elsewhere (same size) */
		return vp_allreduce(c, buf, out, 8,
				    r == 4 ? VP_FLOAT : VP_INT32, VP_SUM,
				    VP_ALG_AUTO);
	case SEGMENTS: /* rank 1 pipelines in 64-byte segments */
		if (r == 1 && (rc = vp_set_coll_params(c, 0, 64)))
			return rc;
		return vp_bcast(c, buf, 64, VP_INT32, 0, VP_ALG_PIPELINED_TREE);
	}
	return VP_OK;
}

static void test_mismatch(void)
{
	static const struct {
		enum mismatch m;
		const char *what, *says;
	} cases[] = {
		{ ROOTS, "different roots", "root " },
		{ COUNTS, "root count 4, others 8", "count " },
		{ OPERATIONS, "reduce against bcast",
		  "vp_reduce here but "
		  "vp_bcast" },
		{ SKIPPED, "a skipped bcast", "skipped or added" },
		{ REDUCTION_OPS, "MAX against SUM", "VP_MAX" },
		{ TYPES, "FLOAT against INT32", "VP_FLOAT" },
		{ SEGMENTS, "different pipeline segments", "pipeline segment" },
	};
	vp_stats st;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum mismatch m = cases[i].m;
		int rc = run("full:8", mismatched, &m, &st);

		tap_ok(rc == VP_EMISMATCH && strstr(st.error, cases[i].says) &&
			   strstr(st.error, "rank ") &&
			   strstr(strstr(st.error, "rank ") + 5, "rank "),
		       "%s: VP_EMISMATCH naming both ranks and the argument "
		       "(%d): %s",
		       cases[i].what, rc, st.error);
	}
}

/* ---- messages never received ---- */

static int unreceived(vp_comm *c, void *arg)
{
	char buf[200] = { 0 };
	int i, rc = VP_OK;

	(void)arg;
	/* rank 0 -> 1: 1000 messages, small (fastbox) and not (queue);
	 * rank 2 -> 3: one, of which rank 3 receives nothing */
	if (vp_rank(c) == 0)
		for (i = 0; i < 1000 && !rc; i++)
			rc = vp_send(c, 1, buf, i % 2 ? 8 : sizeof(buf));
	if (vp_rank(c) == 2)
		rc = vp_send(c, 3, buf, 1);
	return rc;
}

/* A message left on a sub-communicator that is then freed by all. */
static int unreceived_on_freed(vp_comm *c, void *arg)
{
	vp_comm *sub;
	int rc, x = 1;

	(void)arg;
	if ((rc = vp_comm_split(c, 0, vp_rank(c), &sub)))
		return rc;
	if (vp_rank(c) == 1)
		rc = vp_send(sub, 2, &x, sizeof(x));
	if (!rc)
		rc = vp_barrier(sub);
	vp_comm_free(sub);
	return rc;
}

static void test_unreceived(void)
{
	vp_opts o = { .topology = "full:4", .quiet = 1 };
	vp_stats st;
	int rc;

	rc = vp_run(&o, unreceived, NULL, &st);
	tap_ok(rc == VP_EUNRECEIVED && st.unreceived == 1001 &&
		   strstr(st.error, "1001 messages were sent but never "
				    "received") &&
		   strstr(st.error, "rank 0 -> rank 1: 1000 messages "
				    "(point-to-point)") &&
		   strstr(st.error, "rank 2 -> rank 3: 1 message"),
	       "unreceived messages fail the run, pairs named (%d): %s", rc,
	       st.error);
	o.allow_unreceived = 0;
	rc = vp_run(&o, unreceived_on_freed, NULL, &st);
	tap_ok(rc == VP_EUNRECEIVED && st.unreceived == 1 &&
		   strstr(st.error, "rank 1 -> rank 2: 1 message"),
	       "a message left on a freed sub-communicator is still "
	       "reported: %s",
	       st.error);
	o.allow_unreceived = 1;
	rc = vp_run(&o, unreceived, NULL, &st);
	tap_ok(rc == VP_OK && st.unreceived == 1001 &&
		   strstr(st.unreceived_pairs, "rank 0 -> rank 1"),
	       "allow_unreceived: the run succeeds, vp_stats still counts "
	       "them (%llu): %s",
	       (unsigned long long)st.unreceived, st.unreceived_pairs);
}

/* ---- what the messages name ---- */

static int barrier_vs_recv(vp_comm *c, void *arg)
{
	int x;

	(void)arg;
	if (vp_rank(c) == 1)
		return vp_recv(c, 0, &x, sizeof(x));
	return vp_barrier(c);
}

/* On the sub-communicator of the odd ranks, sub-rank 0 (world rank 1)
 * sends 8 bytes that sub-rank 1 (world 3) receives into 4. */
static int sub_truncation(vp_comm *c, void *arg)
{
	char buf[8] = { 0 };
	vp_comm *sub;
	int rc;

	(void)arg;
	if ((rc = vp_comm_split(c, vp_rank(c) % 2, vp_rank(c), &sub)))
		return rc;
	if (vp_rank(c) == 1)
		rc = vp_send(sub, 1, buf, 8);
	else if (vp_rank(c) == 3)
		rc = vp_recv(sub, 0, buf, 4);
	vp_comm_free(sub);
	return rc;
}

/* Everyone receives from its right neighbour: a cycle of p. */
static int ring_wait(vp_comm *c, void *arg)
{
	int x;

	(void)arg;
	return vp_recv(c, (vp_rank(c) + 1) % vp_size(c), &x, sizeof(x));
}

static void test_messages(void)
{
	vp_stats st;
	size_t n;
	int rc;

	rc = run("full:4", barrier_vs_recv, NULL, &st);
	tap_ok(rc == VP_EMISMATCH &&
		   strstr(st.error, "rank 1 made 0 collective calls") &&
		   strstr(st.error, "rank 0 in vp_barrier (its "
				    "vp_sendrecv) waits for rank 2") &&
		   strstr(st.error, "rank 1 in vp_recv waits for rank 0"),
	       "a rank missing a barrier: the cause, then the deadlock "
	       "report naming the user's call (vp_barrier, not only its "
	       "vp_sendrecv): %s",
	       st.error);
	rc = run("full:4", sub_truncation, NULL, &st);
	tap_ok(rc == VP_ETRUNC &&
		   strstr(st.error, "from sub-rank 0 (world rank 1)"),
	       "a sub-communicator's peer is named in both numberings: %s",
	       st.error);
	rc = run("ring:64", ring_wait, NULL, &st);
	n = strlen(st.error);
	tap_ok(rc == VP_EDEADLOCK && st.report &&
		   strstr(st.report, "rank 63 in vp_recv waits for rank 0") &&
		   strstr(st.report, "cycle:") && n < sizeof(st.error) &&
		   strstr(st.error, "vp_stats.report") &&
		   strstr(st.error, "cycle: 0 -> 1 ->") &&
		   st.error[n - 1] != ' ',
	       "a 64-rank deadlock: the whole report (%zu bytes) in "
	       "vp_stats.report, the summary ends with the cycle",
	       st.report ? strlen(st.report) : 0);
}

/* ---- stack overflow ---- */

static int deep(volatile char *up, int n)
{
	volatile char frame[1024];

	frame[0] = (char)n;
	frame[1023] = up ? up[0] : 0;
	return n > 1 << 20 ? frame[0] : deep(frame, n + 1) + frame[1023];
}

static int overflow(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 3)
		return deep(NULL, 0);
	return VP_OK;
}

/* Runs fn on o in a child process, its stderr into out; returns its exit
 * status, or -1 with *signal_no set when a signal ended it. */
static int run_in_child(const vp_opts *o, int (*fn)(vp_comm *, void *),
			void *arg, char *out, size_t len, int *signal_no)
{
	int fds[2], st;
	ssize_t n, got = 0;
	pid_t pid;

	*signal_no = 0;
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		_exit(vp_run(o, fn, arg, NULL) ? 1 : 0);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + got, len - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = 0;
	close(fds[0]);
	waitpid(pid, &st, 0);
	*signal_no = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_stack_overflow(void)
{
	vp_opts o = { .topology = "full:4" };
	char out[4096];
	int sig, rc = run_in_child(&o, overflow, NULL, out, sizeof(out), &sig);

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	/* the sanitizers own SIGSEGV (vp leaves it to them): the run must
	 * still not succeed */
	tap_ok(rc != 0,
	       "a stack overflow does not end in success under the "
	       "sanitizer (exit %d, signal %d)",
	       rc, sig);
#else
	tap_ok(rc == -1 && sig == SIGSEGV &&
		   strstr(out, "rank 3 overflowed its 256 KiB stack; set "
			       "vp_opts.stack_size"),
	       "a stack overflow dies of SIGSEGV naming the rank and the "
	       "stack size (signal %d): %s",
	       sig, out);
#endif
}

/* ---- the thread limit ---- */

static int nothing(vp_comm *c, void *arg)
{
	(void)arg;
	return vp_barrier(c);
}

/* In a child: as an unprivileged user (root is exempt from RLIMIT_NPROC)
 * with ulimit -u 16, a run of 64 ranks cannot start its threads. Exit 0
 * when vp_run failed, 1 when it succeeded, 2 when the limit could not be
 * set up; the report goes to the pipe. */
static void thread_limit_child(int fd, const char *topology)
{
	struct rlimit lim = { 16, 16 };
	vp_opts o = { .topology = topology };

	dup2(fd, 2);
	unsetenv("VP_FIBERS"); /* the limit is on threads, one a rank */
	if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
		_exit(2);
	if (setrlimit(RLIMIT_NPROC, &lim))
		_exit(2);
	_exit(vp_run(&o, nothing, NULL, NULL) == VP_ENOMEM ? 0 : 1);
}

/* p = 64 from one creator thread, p = 512 from two (transport.c): both
 * stop at the limit, and the ranks made are joined. */
static void test_thread_limit(int p)
{
	char out[4096], topology[16], of[32];
	int fds[2], st = 0;
	ssize_t n, got = 0;
	pid_t pid;

	snprintf(topology, sizeof(topology), "full:%d", p);
	snprintf(of, sizeof(of), "of %d rank threads", p);
	if (pipe(fds))
		return;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		thread_limit_child(fds[1], topology);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + got, sizeof(out) - 1 - (size_t)got)) >
	       0)
		got += n;
	out[got] = 0;
	close(fds[0]);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
		   strstr(out, "could only start") && strstr(out, of) &&
		   strstr(out, "ulimit -u (RLIMIT_NPROC) is 16"),
	       "ulimit -u 16 and %d ranks: VP_ENOMEM naming the limit hit "
	       "(exit %d): %s",
	       p, WIFEXITED(st) ? WEXITSTATUS(st) : -1, out);
}

/* ---- the watchdog ---- */

/* Rank 1 sleeps (outside vp) for *arg seconds or, for 0, forever; the
 * others wait for its message. */
static int sleeper(vp_comm *c, void *arg)
{
	double secs = *(double *)arg;
	int x = 0;

	if (vp_rank(c) != 1)
		return vp_recv(c, 1, &x, sizeof(x));
	if (secs == 0)
		for (;;)
			pause();
	usleep((useconds_t)(secs * 1e6));
	return vp_send(c, 0, &x, sizeof(x)); /* VP_EABORT by then */
}

static void test_watchdog(void)
{
	double secs = 3;
	vp_opts o = { .topology = "full:3", .quiet = 1, .watchdog = 2 };
	vp_stats st;
	char out[4096];
	int rc, sig;

	rc = vp_run(&o, sleeper, &secs, &st);
	tap_ok(rc == VP_EWATCHDOG &&
		   strstr(st.error, "rank 1 is running outside vp") &&
		   strstr(st.error, "rank 0 in vp_recv waits for rank 1"),
	       "a rank sleeping outside vp: the watchdog fails the run with "
	       "a report of every rank (%d): %s",
	       rc, st.error);
	/* a run that goes well ends when its ranks do, not at the
	 * watchdog's next check a tenth of its period later (6 s here) */
	for (int fib = 0; fib < 2; fib++) {
		vp_opts quick = { .topology = "full:2", .quiet = 1,
				  .watchdog = 60, .fibers = fib };
		double t0, t, none = 0.001;
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		t0 = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
		rc = vp_run(&quick, sleeper, &none, &st);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - t0;
		tap_ok(rc == VP_OK && t < 3,
		       "watchdog = 60 s, ranks done at once (%s): vp_run "
		       "returns with them, not at the next check 6 s on "
		       "(rc %d, %.3f s)",
		       fib ? "fibers" : "threads", rc, t);
	}
	o.watchdog = 0.5;
	o.quiet = 0;
	secs = 0; /* forever */
	rc = run_in_child(&o, sleeper, &secs, out, sizeof(out), &sig);
	/* under valgrind (make valgrind sets VP_TEST_WRAP) the child's exit
	 * status is valgrind's: what counts is that it did not succeed */
	tap_ok((rc == 124 || (getenv("VP_TEST_WRAP") && rc > 0)) && !sig &&
		   strstr(out, "rank 1 is running outside vp") &&
		   strstr(out, "exit 124"),
	       "a rank in pause() forever: reported, then the process ends "
	       "with status 124: %s",
	       out);
}

/* ---- several runs at once ---- */

struct split_job {
	int p, bad;
};

/* Ranks split by parity with keys in reverse: sub-rank must be the
 * position in descending order of the world rank among its parity. */
static int split_check(vp_comm *c, void *arg)
{
	struct split_job *j = arg;
	int r = vp_rank(c), rounds, rc;
	vp_comm *sub;

	for (rounds = 0; rounds < 20; rounds++) {
		int same = 0, k;

		if ((rc = vp_comm_split(c, r % 2, j->p - r, &sub)))
			return rc;
		for (k = r + 2; k < j->p; k += 2)
			same++; /* ranks of my parity above me come first */
		if (vp_rank(sub) != same)
			__atomic_add_fetch(&j->bad, 1, __ATOMIC_RELAXED);
		if ((rc = vp_comm_free(sub)))
			return rc;
	}
	return VP_OK;
}

static void *split_run(void *arg)
{
	struct split_job *j = arg;
	char spec[32];

	snprintf(spec, sizeof(spec), "full:%d", j->p);
	if (run(spec, split_check, j, NULL))
		j->bad++;
	return NULL;
}

static void test_parallel_runs(void)
{
	struct split_job jobs[4] = { { 5, 0 }, { 8, 0 }, { 11, 0 }, { 16, 0 } };
	pthread_t t[4];
	int i, bad = 0;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, split_run, &jobs[i]);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		bad += jobs[i].bad;
	}
	tap_ok(bad == 0,
	       "four runs splitting at once in parallel threads: every "
	       "sub-rank right (%d wrong)",
	       bad);
}

int main(void)
{
	test_results();
	test_abort();
	test_handles();
	test_threads();
	test_mismatch();
	test_unreceived();
	test_messages();
	test_stack_overflow();
	test_thread_limit(64);
	test_thread_limit(512);
	test_watchdog();
	test_parallel_runs();
	return tap_done();
}
