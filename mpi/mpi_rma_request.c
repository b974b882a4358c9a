/*
 * mpi_rma_request.c - the request-based one-sided operations MPI_Rput,
 * MPI_Rget and MPI_Raccumulate (MPI 4.0, sec. 12.3.5).
 *
 * vp's ranks share memory, so an operation is done at the target when it
 * is called (vp_put, vp_get and vp_accumulate copy at once): the request
 * returned is complete from the start, and MPI_Wait, MPI_Test and the
 * array calls on it return at once with an empty status. The operation is
 * checked as MPI_Put, MPI_Get and MPI_Accumulate check theirs, and is
 * charged by the model as they are. MPI allows these calls only in a
 * passive target epoch; vp also takes them in the other epochs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mpi_win.h"

/* A complete request in *request after the operation's rc. */
static int completed(int rc, MPI_Request *request, const char *call)
{
	struct vpmpi_request *r;

	if (rc)
		return rc;
	if (!(r = vpmpi_request_new()))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a request");
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Rput(const void *origin_addr, int origin_count,
	     MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	     int target_count, MPI_Datatype target_type, MPI_Win win,
	     MPI_Request *request)
{
	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Rput",
				  "the request pointer is NULL");
	return completed(MPI_Put(origin_addr, origin_count, origin_type,
				 target_rank, target_disp, target_count,
				 target_type, win),
			 request, "MPI_Rput");
}

int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_type,
	     int target_rank, MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_type, MPI_Win win, MPI_Request *request)
{
	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Rget",
				  "the request pointer is NULL");
	return completed(MPI_Get(origin_addr, origin_count, origin_type,
				 target_rank, target_disp, target_count,
				 target_type, win),
			 request, "MPI_Rget");
}

int MPI_Raccumulate(const void *origin_addr, int origin_count,
		    MPI_Datatype origin_type, int target_rank,
		    MPI_Aint target_disp, int target_count,
		    MPI_Datatype target_type, MPI_Op op, MPI_Win win,
		    MPI_Request *request)
{
	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Raccumulate",
				  "the request pointer is NULL");
	return completed(MPI_Accumulate(origin_addr, origin_count,
					origin_type, target_rank, target_disp,
					target_count, target_type, op, win),
			 request, "MPI_Raccumulate");
}
