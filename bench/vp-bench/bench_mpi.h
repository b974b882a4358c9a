/*
 * bench_mpi.h - Open MPI for vp-bench --compare-mpi: install it when missing
 * (Debian, as root), build this project's MPI twin of the measurement loops
 * (bench/mpi/vp-mpi-bench.c) with mpicc, and run it with mpirun at a given p;
 * and the same source built with vp's own vpmpicc, run with vpmpirun.
 *
 * mpirun options, and why:
 *   --oversubscribe                p may exceed the cores (64 ranks on 2)
 *   --bind-to none                 let the kernel place oversubscribed ranks
 *   --mca mpi_yield_when_idle 1    only when p > cores: a waiting rank yields
 *                                  instead of spinning (Open MPI's advice for
 *                                  oversubscription)
 *   --mca btl_vader_single_copy_mechanism none
 *                                  containers often forbid the CMA/ptrace
 *                                  single copy; vader then copies twice
 *                                  through shared memory, as vp's eager path
 * and OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM) so that CI, which runs as root, can.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_MPI_H
#define VP_BENCH_MPI_H

#include <stddef.h>

#include "bench_rows.h"

/* 0 when mpicc and mpirun are there (installing them if root), else -1 with
 * the command to run on stderr. */
int mpi_ensure(void);

/* The twin's path, next to this program: build/vp-mpi-bench. */
void mpi_twin_path(char *out, size_t len);

/* Builds the twin with mpicc when it is missing or older than its source. */
int mpi_build(const char *twin);

/* Runs the twin under Open MPI at p (see the options above). */
int mpi_run(const char *twin, int p, int ncpu, const char *jobs,
	    struct row *rows, int max);

/* The same twin source built with this build tree's vpmpicc, next to this
 * program: build/vp-mpi-bench-vp (rebuilt when older than its source or
 * than libvp.a). dir receives the tools' folder. */
int vpmpi_build(char *twin, size_t len, char *dir, size_t dlen);

/* Runs the vpmpicc twin with vpmpirun at p on topology spec. */
int vpmpi_run(const char *dir, const char *twin, int p, const char *spec,
	      const char *jobs, struct row *rows, int max);

#endif
