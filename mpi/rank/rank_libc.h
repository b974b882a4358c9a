/*
 * rank_libc.h - for the files of mpi/rank/: libc's functions with state
 * of the process, defined again for one rank.
 *
 * vpmpicc links libvpmpi_rank.a into the program's shared object after
 * the program's own files, so a member is linked only where the program
 * calls one of its functions. vp loads that object once per rank, and the
 * static variables here are then per rank, as the state libc keeps is per
 * process under a real MPI. The definitions are hidden: they bind the
 * program's calls inside its object and are not exported from it, so the
 * rest of the process (vp, libc itself) keeps libc's own.
 */
#ifndef VPMPI_RANK_LIBC_H
#define VPMPI_RANK_LIBC_H

#define VPMPI_RANK_API __attribute__((visibility("hidden")))
#define VPMPI_RANK_DATA __attribute__((visibility("hidden")))

#endif /* VPMPI_RANK_LIBC_H */
