/*
 * bench.c - what every vp-bench mode shares: the run's options (--quick,
 * --fibers), a row of a probe or a loop, the progress line, and the word
 * for a goal.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "bench.h"
#include "bench_rows.h"

int bench_quick;
int bench_fibers;

void emit(const char *op, const char *topo, int p, size_t bytes, int iters,
	  struct summary s, double model)
{
	struct row r = {
		.p = p, .bytes = bytes, .iters = iters, .s = s, .model = model
	};

	snprintf(r.op, sizeof(r.op), "%s", op);
	snprintf(r.topo, sizeof(r.topo), "%s", topo);
	row_print(&r);
}

void progress(const char *fmt, ...)
{
	va_list ap;

	if (!isatty(2))
		return;
	fprintf(stderr, "\r\033[K");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

const char *met(int ok)
{
	return ok ? "met" : "NOT met";
}
