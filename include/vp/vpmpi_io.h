/*
 * vpmpi_io.h - vpmpicc includes this first in every file it compiles, so
 * that a program's ranks behave as MPI processes do towards the process's
 * standard input and exit():
 *   - only rank 0 reads stdin; every other rank sees end of file (stdin,
 *     scanf and getchar go through vpmpi_stdin(); a read(0, ...) does not);
 *   - a rank's standard output reaches the process's in whole lines, so
 *     lines of different ranks never mix (stdout, printf, puts, putchar
 *     and vprintf go through vpmpi_stdout(); a write(1, ...) does not);
 *   - exit(0) ends the calling rank, as returning from main does; exit(s)
 *     with s != 0 ends the whole job with status s, as mpirun does when a
 *     process fails.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_MPI_IO_H
#define VP_MPI_IO_H

#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif
FILE *vpmpi_stdin(void);
FILE *vpmpi_stdout(void);
int vpmpi_puts(const char *s);
void vpmpi_exit(int status) __attribute__((noreturn));
#ifdef __cplusplus
}
#endif

#undef stdin
#define stdin (vpmpi_stdin())
#define scanf(...) fscanf(stdin, __VA_ARGS__)
#define getchar() getc(stdin)
#undef stdout
#define stdout (vpmpi_stdout())
#define printf(...) fprintf(stdout, __VA_ARGS__)
#define vprintf(fmt, ap) vfprintf(stdout, fmt, ap)
#define puts(s) vpmpi_puts(s)
#define putchar(ch) putc(ch, stdout)
#define exit(status) vpmpi_exit(status)

#endif /* VP_MPI_IO_H */
