/*
 * modes.h - vp-bench's modes, one file each; vp-bench.c's table names
 * them, with their help lines.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_MODES_H
#define VP_BENCH_MODES_H

#include <stddef.h>

/* --collectives: which collectives, algorithms, p and sizes. */
struct coll_set {
	const char *topology; /* a kind: full, ring, line, hypercube, ... */
	int ps[16], nps;
	size_t sizes[16];
	int nsizes;
	const char *ops[16];
	int nops;
	int all_algs;
};

/* What the command line gives the modes beside bench.h's options. */
struct bench_args {
	const char *outdir; /* --out DIR, or NULL */
	const char *loop;   /* --loop NAME, or NULL */
	int same_source;    /* --same-source */
	struct coll_set cs;
};

/* The spec of kind with p ranks, or 0 when the kind cannot take p. */
int spec_for(const char *kind, int p, char *out, size_t len);

int mode_basic(const struct bench_args *a);
int mode_pingpong(const struct bench_args *a);
int mode_collectives(const struct bench_args *a);
int mode_compare_mpi(const struct bench_args *a);
/* --compare-mpi --same-source, called by mode_compare_mpi. */
int mode_same_source(const char *outdir);
int mode_cliffs(const struct bench_args *a);
int mode_over_mpi(const struct bench_args *a);
int mode_calibrate(const struct bench_args *a);
int mode_perf_stat(const struct bench_args *a);
int mode_loop(const struct bench_args *a);
int mode_apps(const struct bench_args *a);
int mode_reproducible(const struct bench_args *a);
int mode_rooted(const struct bench_args *a);
int mode_schedule_cost(const struct bench_args *a);

#endif
