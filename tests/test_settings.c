/*
 * test_settings.c - a setting that is not a value it can take is refused
 * with its name and its text, never read as 0 or as the default:
 *   - environment variables read by vp_run (VP_FIBERS, VP_REPRODUCIBLE,
 *     VP_WATCHDOG, the wait tuning variables, VP_WIN, VP_CHECK) make it
 *     fail with VP_EINVAL, the message quoting NAME=value;
 *   - their good values still run;
 *   - vp_setting_parse, the one strict reader the tools share, takes the
 *     whole text as a number in range and nothing else;
 *   - rank threads that ulimit -v stops are reported naming ulimit -v,
 *     not the task limits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

static int nothing(vp_comm *c, void *arg)
{
	(void)c;
	(void)arg;
	return VP_OK;
}

static const char *const bad[][2] = {
	{ "VP_FIBERS", "yes" },      { "VP_FIBERS", "2" },
	{ "VP_FIBERS", "1x" },       { "VP_REPRODUCIBLE", "yes" },
	{ "VP_REPRODUCIBLE", "0.5" }, { "VP_WATCHDOG", "abc" },
	{ "VP_WATCHDOG", "-1" },     { "VP_WATCHDOG", "5s" },
	{ "VP_SPIN_LONG", "lots" },  { "VP_YIELDS", "-2" },
	{ "VP_SPIN_NS", "60us" },
	{ "VP_FLAG_FUTEX", "2" },    { "VP_WIN", "message" },
	{ "VP_CHECK", "buffer" },    { "VP_SHARED_COLLECTIVES", "yes" },
};

static const char *const good[][2] = {
	{ "VP_FIBERS", "1" },     { "VP_FIBERS", "0" },
	{ "VP_REPRODUCIBLE", "1" }, { "VP_WATCHDOG", "2.5" },
	{ "VP_SPIN_LONG", "100" }, { "VP_WIN", "messages" },
	{ "VP_SPIN_NS", "60000" },
	{ "VP_CHECK", "buffers" }, { "VP_CHECK", "none" },
};

/* Sets name to value for one vp_run, then puts back what was there
 * (make check's fibers pass sets VP_FIBERS=1 for the whole test). */
static int run_with(const char *name, const char *value, vp_stats *st)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	const char *was = getenv(name);
	char keep[64] = "";
	int rc;

	if (was)
		snprintf(keep, sizeof(keep), "%s", was);
	setenv(name, value, 1);
	rc = vp_run(&o, nothing, NULL, st);
	if (was)
		setenv(name, keep, 1);
	else
		unsetenv(name);
	return rc;
}

static void test_env(void)
{
	vp_stats st;
	char want[96];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = run_with(bad[i][0], bad[i][1], &st);
		snprintf(want, sizeof(want), "%s=%s", bad[i][0], bad[i][1]);
		tap_ok(rc == VP_EINVAL && strstr(st.error, want),
		       "%s is refused (%d): %s", want, rc, st.error);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		rc = run_with(good[i][0], good[i][1], &st);
		tap_ok(rc == VP_OK, "%s=%s runs (%d): %s", good[i][0],
		       good[i][1], rc, rc ? st.error : "");
	}
}

static void test_parse(void)
{
	static const struct {
		const char *text;
		double lo, hi;
		int integer, ok;
		double want;
	} k[] = {
		{ "1", 0, 1, 1, 1, 1 },       { "0", 0, 1, 1, 1, 0 },
		{ "2.5", 0, INFINITY, 0, 1, 2.5 },
		{ "1e3", 0, 1e6, 1, 1, 1000 },
		{ "yes", 0, 1, 1, 0, 0 },     { "", 0, 1, 1, 0, 0 },
		{ " 1", 0, 1, 1, 0, 0 },      { "1 ", 0, 1, 1, 0, 0 },
		{ "0.5", 0, 1, 1, 0, 0 },     { "-1", 0, 1, 1, 0, 0 },
		{ "inf", 0, INFINITY, 0, 0, 0 },
		{ "nan", 0, INFINITY, 0, 0, 0 },
		{ "1e999", 0, INFINITY, 0, 0, 0 },
	};
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		double v = -7;
		int rc;

		err[0] = 0;
		rc = vp_setting_parse("X", k[i].text, k[i].lo, k[i].hi,
				      k[i].integer, &v, err, sizeof(err));
		if (k[i].ok)
			tap_ok(rc == VP_OK && v == k[i].want,
			       "vp_setting_parse takes '%s' as %g (%d, %g)",
			       k[i].text, k[i].want, rc, v);
		else
			tap_ok(rc == VP_EINVAL && v == -7 &&
				   !strncmp(err, "X=", 2) &&
				   strstr(err, k[i].text),
			       "vp_setting_parse refuses '%s' (%d): %s",
			       k[i].text, rc, err);
	}
}

/* ---- a limit named right ---- */

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
/* In a child: address space for the process as it is and 64 MiB more,
 * then 512 ranks of 1 MiB stacks; the message must name ulimit -v. The
 * child writes the result on fd: 1 named, 2 ran (nothing to check). */
static void as_child(int fd)
{
	vp_opts o = { .topology = "full:512", .quiet = 1,
		      .stack_size = 1 << 20 };
	struct rlimit rl;
	vp_stats st;
	long vm_kb = -1;
	char line[128], r;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %ld", &vm_kb) == 1)
			break;
	if (f)
		fclose(f);
	rl.rlim_cur = rl.rlim_max = (rlim_t)(vm_kb + 65536) * 1024;
	if (vm_kb < 0 || setrlimit(RLIMIT_AS, &rl))
		_exit(3);
	r = vp_run(&o, nothing, NULL, &st) == VP_ENOMEM
		? (strstr(st.error, "ulimit -v (RLIMIT_AS) is") ? 1 : 0)
		: 2;
	if (r == 0)
		fprintf(stderr, "# %s\n", st.error);
	if (write(fd, &r, 1) != 1)
		_exit(4);
	_exit(0);
}
#endif

static void test_address_limit(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	tap_ok(1, "# SKIP ulimit -v: the sanitizers need the address space");
#else
	const char *preload = getenv("LD_PRELOAD");
	int fds[2], status;
	char r = 0;
	pid_t pid;

	/* valgrind's own memory counts against the limit (its preload
	 * library names it): the child would stop valgrind, not vp */
	if (preload && strstr(preload, "vgpreload")) {
		tap_ok(1, "# SKIP ulimit -v: valgrind needs the address space");
		return;
	}
	if (pipe(fds) || (pid = fork()) < 0) {
		tap_ok(0, "pipe or fork failed");
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		as_child(fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], &r, 1) != 1)
		r = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (r == 2)
		tap_ok(1, "# SKIP ulimit -v: 512 ranks started within it");
	else
		tap_ok(r == 1, "threads that ulimit -v stops are reported "
			       "naming ulimit -v (child: %d)",
		       r);
#endif
}

int main(void)
{
	test_env();
	test_parse();
	test_address_limit();
	return tap_done();
}
