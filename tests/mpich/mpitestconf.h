/* mpitestconf.h - the configuration header that MPICH's test suite
 * (test/mpi, its harness util/mtest.c and include/mpitest.h) includes; its
 * configure script writes it for the MPI under test. These are the answers
 * for vp's MPI on Linux with a C11 compiler. run.sh puts this directory on
 * the include path when it builds the suite's tests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED

#define HAVE_STDARG_H 1
#define HAVE_STRING_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_LONG_INT 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_INTEGER16 1
#define HAVE_INT16_T 1
#define HAVE_INT32_T 1
#define HAVE_INT64_T 1
#define HAVE_INT8_T 1
#define HAVE_UINT16_T 1
#define HAVE_UINT32_T 1
#define HAVE_UINT64_T 1
#define HAVE_UINT8_T 1
#define HAVE__BOOL 1
#define HAVE_FLOAT__COMPLEX 1
#define HAVE_DOUBLE__COMPLEX 1
#define HAVE_LONG_DOUBLE__COMPLEX 1
#define STDC_HEADERS 1

/* The suite's threads are POSIX threads. */
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX


#endif
