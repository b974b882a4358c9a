/* mtest_mpix.h - the header of MPICH's test suite (include/mpitest.h
 * includes it) that MPICH's build generates to map the MPIX_ extensions the
 * tests may use. vp's MPI has no MPIX_ extensions, so it maps nothing: a
 * test that calls an MPIX_ function fails to build, as it does against any
 * MPI without them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MTEST_MPIX_H_INCLUDED
#define MTEST_MPIX_H_INCLUDED
#endif
