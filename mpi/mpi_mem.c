/*
 * mpi_mem.c - MPI_Alloc_mem and MPI_Free_mem (MPI 4.0, sec. 8.2): memory
 * from the C heap, aligned for any type. The info's hints are not read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
	static const char call[] = "MPI_Alloc_mem";
	void *p;

	(void)info;
	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (size < 0)
		return vpmpi_fail(MPI_ERR_ARG, call, "size %ld is negative",
				  (long)size);
	if (!baseptr)
		return vpmpi_fail(MPI_ERR_ARG, call, "baseptr is NULL");
	/* a size of 0 still gives a pointer MPI_Free_mem takes */
	p = malloc(size ? (size_t)size : 1);
	if (!p)
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for %ld bytes", (long)size);
	*(void **)baseptr = p;
	return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
	if (vpmpi_started("MPI_Free_mem"))
		return MPI_ERR_OTHER;
	free(base);
	return MPI_SUCCESS;
}
