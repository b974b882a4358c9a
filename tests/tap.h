/*
 * tap.h - the smallest TAP producer: ok/not ok lines, a plan at the end,
 * and a failure message with rank, index, expected and actual values.
 * Assertions run on the main thread only, after vp_run has joined the ranks;
 * rank threads record what they saw in per-rank slots.
 *
 * One case by name: a test binary's first argument, or VP_TEST_CASE, is a
 * shell glob matched anywhere in each case's description ("sendrecv",
 * "sendrecv*p = 4"). A case it does not match is still run, and reported
 * "ok N - description # SKIP not selected", so the numbering and the plan
 * stay whole; its failure fails nothing. A test may ask tap_selected()
 * first to leave a long case's work undone.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_TESTS_TAP_H
#define VP_TESTS_TAP_H

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed;
static const char *tap_case; /* the case filter, or NULL: every case */

/* glibc calls a constructor with main's argc and argv */
__attribute__((constructor, unused)) static void tap_init(int argc,
							  char **argv)
{
	tap_case = getenv("VP_TEST_CASE");
	if (argc > 1 && argv && argv[1])
		tap_case = argv[1];
	if (tap_case && !*tap_case)
		tap_case = NULL;
}

/* Whether the case described by desc is selected by the filter. */
__attribute__((unused)) static int tap_selected(const char *desc)
{
	char pat[1024];

	if (!tap_case)
		return 1;
	snprintf(pat, sizeof(pat), "*%s*", tap_case);
	return fnmatch(pat, desc, 0) == 0;
}

__attribute__((format(printf, 2, 3))) static int tap_ok(int cond,
							const char *fmt, ...)
{
	char desc[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	tap_count++;
	if (!tap_selected(desc)) {
		/* the directive ends the ok line: the first line only */
		printf("ok %d - %.*s # SKIP not selected\n", tap_count,
		       (int)strcspn(desc, "\n"), desc);
		fflush(stdout);
		return cond;
	}
	if (!cond)
		tap_failed++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", tap_count, desc);
	fflush(stdout);
	return cond;
}

static void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), unused));
static void tap_diag(const char *fmt, ...)
{
	char buf[8192], *line, *save = NULL;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("# %s\n", line);
}

static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
