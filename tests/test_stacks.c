/*
 * test_stacks.c - one rank never writes over another rank's stack, and a
 * rank that dies is named:
 *   - a rank whose 300 KiB local array (of which it uses the lowest 4 KiB)
 *     does not fit its 256 KiB stack faults in its own guard, as threads
 *     and as fibers, before it writes anything: the process dies
 *     of SIGSEGV with "rank 3 overflowed its 256 KiB stack" and how to
 *     raise it, and never ends in success with another rank's data
 *     overwritten;
 *   - the same array fits a 1 MiB stack (4 MiB under the sanitizers), from
 *     vp_opts.stack_size or from VP_STACK_SIZE=1M, and every rank's data
 *     stays its own;
 *   - VP_STACK_SIZE that is not a size is refused naming the variable and
 *     its value;
 *   - a rank that dereferences NULL, or calls abort(), kills the process
 *     with that signal after "rank 2 died of signal 11" (or 6) names it.
 * The cases that end a process run in a forked child. VP_TEST_QUICK runs
 * the threads' cases only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1 /* the sanitizers own SIGSEGV: no names, only failure */
#else
#define SANITIZED 0
#endif

#define P 4
#define BIG ((size_t)300 << 10)
#define MINE 512
#define USED 4096

/* A BIG-byte array on the stack of which only the lowest USED bytes are
 * filled with 1s and summed: USED. Its first write lands BIG bytes below
 * the caller's frame, skipping whatever lies between. */
static __attribute__((noinline)) long big_frame(void)
{
	volatile unsigned char a[BIG];
	long sum = 0;
	size_t i;

	for (i = 0; i < USED; i++)
		a[i] = 1;
	for (i = 0; i < USED; i++)
		sum += a[i];
	return sum;
}

/* Every rank keeps MINE ints of its own on its stack across a barrier
 * while rank 3 uses its big frame; each checks its own afterwards. */
static int keep_mine(vp_comm *c, void *arg)
{
	volatile int mine[MINE];
	long *sums = arg, bad = 0;
	int r = vp_rank(c), i, rc;

	for (i = 0; i < MINE; i++)
		mine[i] = r * 1000 + i;
	if ((rc = vp_barrier(c)))
		return rc;
	if (r == 3)
		sums[r] = big_frame();
	if ((rc = vp_barrier(c)))
		return rc;
	for (i = 0; i < MINE; i++)
		bad += mine[i] != r * 1000 + i;
	if (r != 3)
		sums[r] = bad ? -bad : 0;
	return bad ? VP_EINVAL : VP_OK;
}

/* Runs fn on o in a child process, its stderr into out; returns its exit
 * status, or -1 with *sig set when a signal ended it. */
static int in_child(const vp_opts *o, int (*fn)(vp_comm *, void *), char *out,
		    size_t len, int *sig)
{
	int fds[2], st;
	ssize_t n, got = 0;
	long sums[P] = { 0 };
	pid_t pid;

	*sig = 0;
	if (pipe(fds))
		return -2;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		_exit(vp_run(o, fn, sums, NULL) ? 1 : 0);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + got, len - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = 0;
	close(fds[0]);
	waitpid(pid, &st, 0);
	*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_overflow(int fibers)
{
	vp_opts o = { .topology = "full:4",
		      .fibers = fibers,
		      .stack_size = (size_t)256 << 10 };
	const char *how = fibers ? "fibers" : "threads";
	char out[4096];
	int sig, rc = in_child(&o, keep_mine, out, sizeof(out), &sig);

	if (SANITIZED) {
		tap_ok(rc != 0,
		       "%s: a 300 KiB frame on a 256 KiB stack does "
		       "not end in success (exit %d, signal %d)",
		       how, rc, sig);
		return;
	}
	tap_ok(rc == -1 && sig == SIGSEGV &&
		   strstr(out, "vp: rank 3 overflowed its 256 KiB stack; set "
			       "vp_opts.stack_size or VP_STACK_SIZE") &&
		   strstr(out, "to raise it"),
	       "%s: a 300 KiB frame on a 256 KiB stack dies of SIGSEGV naming "
	       "rank 3, its stack size and how to raise it (exit %d, signal "
	       "%d): %s",
	       how, rc, sig, out);
}

/* In a child (a stack that does not fit would end the process): exit 0
 * when rank 3's sum is right, every other rank's data stayed its own and
 * the run's stack was want; else 1. */
static int fits_child(const vp_opts *o, size_t want)
{
	long sums[P] = { 0 };
	vp_stats st;
	int rc = vp_run(o, keep_mine, sums, &st), r;

	for (r = 0; r < P; r++)
		if (r != 3 && sums[r])
			rc = 1;
	return !rc && sums[3] == USED && st.stack_size == want ? 0 : 1;
}

static void test_fits(int fibers, int from_env)
{
	vp_opts o = { .topology = "full:4", .fibers = fibers };
	size_t want = SANITIZED ? (size_t)4 << 20 : (size_t)1 << 20;
	int st = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (from_env)
			setenv("VP_STACK_SIZE", SANITIZED ? "4M" : "1M", 1);
		else
			o.stack_size = want;
		_exit(fits_child(&o, want));
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "%s: the 300 KiB frame fits a stack of %zu KiB (%s): every "
	       "rank's data intact (wait status %#x)",
	       fibers ? "fibers" : "threads", want >> 10,
	       from_env ? "VP_STACK_SIZE" : "vp_opts.stack_size", st);
}

static int nothing(vp_comm *c, void *arg)
{
	(void)arg;
	return vp_barrier(c);
}

static void test_bad_env(const char *value)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_stats st;
	char want[64];
	int rc;

	setenv("VP_STACK_SIZE", value, 1);
	rc = vp_run(&o, nothing, NULL, &st);
	unsetenv("VP_STACK_SIZE");
	snprintf(want, sizeof(want), "VP_STACK_SIZE=%s ", value);
	tap_ok(rc == VP_EINVAL && strstr(st.error, want),
	       "VP_STACK_SIZE=%s is refused naming it (rc %d): %s", value, rc,
	       st.error);
}

static int null_deref(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 2)
		return *(volatile int *)(uintptr_t)vp_rank(c) / 2 - 1;
	return vp_barrier(c);
}

static int aborts(vp_comm *c, void *arg)
{
	(void)arg;
	if (vp_rank(c) == 1)
		abort();
	return vp_barrier(c);
}

static void test_crash(int fibers, int (*fn)(vp_comm *, void *), int want_sig,
		       const char *want)
{
	vp_opts o = { .topology = "full:4", .fibers = fibers };
	char out[4096];
	int sig, rc = in_child(&o, fn, out, sizeof(out), &sig);

	if (SANITIZED) {
		tap_ok(rc != 0,
		       "a rank's signal %d does not end in success "
		       "(exit %d, signal %d)",
		       want_sig, rc, sig);
		return;
	}
	tap_ok(rc == -1 && sig == want_sig && strstr(out, want),
	       "%s: the process dies of signal %d after \"%s\" (exit %d, "
	       "signal %d): %s",
	       fibers ? "fibers" : "threads", want_sig, want, rc, sig, out);
}

int main(void)
{
	/* quick (valgrind's pass): threads only; make check runs the whole
	 * suite again with VP_FIBERS=1 */
	int fibers, last = getenv("VP_TEST_QUICK") ? 0 : 1;

	unsetenv("VP_STACK_SIZE");
	for (fibers = 0; fibers <= last; fibers++) {
		test_overflow(fibers);
		test_fits(fibers, 0);
		test_fits(fibers, 1);
		test_crash(fibers, null_deref, SIGSEGV,
			   "vp: rank 2 died of signal 11 (Segmentation fault "
			   "at address 0x2)");
		test_crash(fibers, aborts, SIGABRT,
			   "vp: rank 1 died of signal 6 (Aborted)");
	}
	test_bad_env("12Q");
	test_bad_env("1MB");
	test_bad_env("-5");
	test_bad_env("");
	return tap_done();
}
