/*
 * probes.h - the machine's own speed, measured beside vp in the same run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_PROBES_H
#define VP_BENCH_PROBES_H

#include <stddef.h>

/* Round trips of each cache-line probe. */
extern int probe_iters;

/* One-way time of a cache line bouncing between two spinning threads. */
double probe_cacheline_us(void);

/* One-way time of a flag passed back and forth on two lines, each written
 * by one thread only. */
double probe_two_lines_us(void);

/* Single-thread memcpy bandwidth of n bytes, in bytes per microsecond. */
double probe_memcpy_bpus(size_t n);

/* The placement's probe: the median of three bounces of a cache line
 * between two threads of this process. */
double placement_us(void);

#endif
