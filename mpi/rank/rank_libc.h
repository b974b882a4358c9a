/*
 * rank_libc.h - for the files of mpi/rank/: libc's functions with state
 * of the process, defined again for one rank.
 *
 * vpmpicc links all of libvpmpi_rank.a into the program's shared object
 * (--whole-archive: a member pulled only by an undefined reference would
 * lose to a sanitizer's runtime, which the compiler puts first on the
 * link line and which defines strtok, gmtime and more). vp loads that
 * object once per rank, and the static variables here are then per rank,
 * as the state libc keeps is per process under a real MPI. The
 * definitions are hidden: they bind the program's calls inside its object
 * and are not exported from it, so the rest of the process (vp, libc
 * itself) keeps libc's own. They are weak: a program that brings its own
 * getopt or strtok keeps it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VPMPI_RANK_LIBC_H
#define VPMPI_RANK_LIBC_H

#define VPMPI_RANK_API __attribute__((visibility("hidden"), weak))
#define VPMPI_RANK_DATA __attribute__((visibility("hidden"), weak))

#endif /* VPMPI_RANK_LIBC_H */
