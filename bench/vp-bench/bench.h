/*
 * bench.h - what every vp-bench mode shares: the run's options, a row of
 * a probe or a loop, the progress line on a terminal, and the word for a
 * goal.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_BENCH_H
#define VP_BENCH_BENCH_H

#include <stddef.h>

#include "bench_rows.h"

/* Repetitions of a measurement whose median a row reports. */
#define REPS 7

extern int bench_quick;  /* --quick: a tenth of the iterations */
extern int bench_fibers; /* --fibers: every run's ranks as fibers */

/* Prints a row of op on topo (a probe's topo is "-"). */
void emit(const char *op, const char *topo, int p, size_t bytes, int iters,
	  struct summary s, double model);

/* A progress line on stderr, rewritten in place, when it is a terminal. */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "met" or "NOT met". */
const char *met(int ok);

#endif
