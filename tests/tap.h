/*
 * tap.h - the smallest TAP producer: ok/not ok lines, a plan at the end,
 * and a failure message with rank, index, expected and actual values.
 * Assertions run on the main thread only, after vp_run has joined the ranks;
 * rank threads record what they saw in per-rank slots.
 */
#ifndef VP_TESTS_TAP_H
#define VP_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3))) static int tap_ok(int cond,
							const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
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
