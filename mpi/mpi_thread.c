/*
 * mpi_thread.c - MPI_Query_thread and MPI_Is_thread_main (MPI 4.0, sec.
 * 11.6). A rank of vp is one thread, so its thread level is
 * MPI_THREAD_SINGLE (what MPI_Init_thread provides), and the main thread of
 * a rank is the one that called MPI_Init: the rank's own, whose MPI state
 * is thread-local. Any other thread of the program has no MPI state, and is
 * not a main thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

int MPI_Query_thread(int *provided)
{
	if (vpmpi_started("MPI_Query_thread"))
		return MPI_ERR_OTHER;
	if (!provided)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Query_thread",
				  "provided is NULL");
	*provided = MPI_THREAD_SINGLE;
	return MPI_SUCCESS;
}

int MPI_Is_thread_main(int *flag)
{
	if (!flag)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Is_thread_main",
				  "flag is NULL");
	*flag = vpmpi_me.initialized; /* set in the rank's thread alone */
	return MPI_SUCCESS;
}
