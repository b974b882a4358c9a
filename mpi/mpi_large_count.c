/*
 * mpi_large_count.c - the large-count point-to-point calls (MPI 4.0,
 * sec. 3.2 and 19.2: MPI_Send_c and the others take an MPI_Count).
 * MPI_Send_c and MPI_Recv_c take any count; the others run as the int
 * calls, and a count above INT_MAX fails with MPI_ERR_COUNT, naming it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>

#include "vpmpi.h"

/* 0 if count fits an int, else the error raised on comm. */
static int fits(MPI_Count count, MPI_Comm comm, const char *call)
{
	if (count >= 0 && count <= INT_MAX)
		return MPI_SUCCESS;
	return vpmpi_err(comm, MPI_ERR_COUNT, call,
			 count < 0 ? "count %lld is negative"
				   : "count %lld is above INT_MAX: vp's MPI "
				     "takes up to INT_MAX items a call",
			 count);
}

int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm)
{
	return vpmpi_send_c(buf, count, type, dest, tag, comm, "MPI_Send_c");
}

int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm)
{
	int rc = fits(count, comm, "MPI_Ssend_c");

	return rc ? rc : MPI_Ssend(buf, (int)count, type, dest, tag, comm);
}

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
	       int tag, MPI_Comm comm, MPI_Status *status)
{
	return vpmpi_recv_c(buf, count, type, source, tag, comm, status,
			    "MPI_Recv_c");
}

int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	int rc = fits(count, comm, "MPI_Isend_c");

	return rc ? rc
		  : MPI_Isend(buf, (int)count, type, dest, tag, comm, request);
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	int rc = fits(count, comm, "MPI_Irecv_c");

	return rc ? rc
		  : MPI_Irecv(buf, (int)count, type, source, tag, comm,
			      request);
}
