/*
 * mpi_large_count.c - the large-count point-to-point calls (MPI 4.0,
 * sec. 3.2 and 19.2: MPI_Send_c and the others take an MPI_Count): any
 * count, as the int calls run them (a message is its bytes, counted in a
 * size_t).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm)
{
	return vpmpi_send_c(buf, count, type, dest, tag, comm, "MPI_Send_c");
}

int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm)
{
	return vpmpi_ssend_c(buf, count, type, dest, tag, comm, "MPI_Ssend_c");
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
	return vpmpi_isend_c(buf, count, type, dest, tag, comm, request, 0,
			     "MPI_Isend_c");
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_irecv_c(buf, count, type, source, tag, comm, request,
			     "MPI_Irecv_c");
}
