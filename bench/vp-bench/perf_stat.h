/*
 * perf_stat.h - the loops vp-bench --perf-stat runs alone under perf stat
 * (vp-bench --loop NAME).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_PERF_STAT_H
#define VP_BENCH_PERF_STAT_H

/* One loop, alone: vp-bench --loop pingpong|barrier. Its units (one-way
 * messages or barriers) including warm-up, or -1 on a bad name. */
double perf_loop_units(const char *name);

#endif
