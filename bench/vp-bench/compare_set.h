/*
 * compare_set.h - the rows vp-bench compares with an MPI library
 * (--compare-mpi, --same-source, --transport mpi), and how each side's
 * row is kept.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_COMPARE_SET_H
#define VP_BENCH_COMPARE_SET_H

#include <stddef.h>

#include "bench_rows.h"

#define MAX_ROWS 256

/* 1: the set takes the goal's largest size (--compare-mpi alone). */
extern int compare_largest;

/* The comparison set at p: up to max rows in want, and their
 * OP:BYTES:ITERS list for the MPI twin in list; how many rows. */
int compare_jobs(int p, struct row *want, int max, char *list, size_t len);

/* The comparison set at p, measured by the Open MPI twin: how many rows
 * (want and got alike), or -1 after the error. */
int openmpi_rows(const char *twin, int p, struct row *want, struct row *got,
		 char *list, size_t len);

/* vp's topology for a comparison row: the ping-pong on one link. */
void spec_of(int p, const char *op, char *spec, size_t len);

/* Keeps in *best the lower median of two measurements of the same thing
 * (r, or whichever has the lower median; first: r). */
void keep_best(struct row *best, const struct row *r, int first);

#endif
