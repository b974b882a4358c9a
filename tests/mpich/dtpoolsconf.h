/* dtpoolsconf.h - the configuration header of MPICH's datatype pool
 * library (the suite's dtpools/, used by the tests that include dtpools.h
 * or mtest_dtp.h); its configure script writes it. These are the answers
 * for Linux with a C11 compiler. run.sh copies it into the build
 * directory, where dtpools' "../dtpoolsconf.h" finds it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef DTPOOLSCONF_H_INCLUDED
#define DTPOOLSCONF_H_INCLUDED

#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_LIMITS_H 1
#define HAVE_STDINT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STRDUP 1
#define HAVE_MEMSET 1

#endif
