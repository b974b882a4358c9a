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
 * passive target epoch (sec. 12.3.5: "only ... within passive target
 * epochs"): a call whose target the rank holds no lock on fails with
 * MPI_ERR_RMA_SYNC, through the window's error handler.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mpi_win.h"

/* The request pointer is there and target is locked: MPI_SUCCESS, or
 * the error raised. */
static int passive(MPI_Win win, int target, MPI_Request *request,
		   const char *call)
{
	struct mpi_win *m;

	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the request pointer is NULL");
	*request = MPI_REQUEST_NULL;
	if (!(m = vpmpi_win(win, call)))
		return MPI_ERR_WIN;
	return vpmpi_win_passive_check(m, target, call);
}

/* A complete request in *request after the operation's rc: one every
 * wait and test reports done (MPI_Waitany among them gives its index). */
static int completed(int rc, MPI_Request *request, const char *call)
{
	static const vp_status empty = { VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };
	struct vpmpi_request *r;

	if (rc)
		return rc;
	if (!(r = vpmpi_request_done(&empty, MPI_COMM_WORLD, call)))
		return MPI_ERR_NO_MEM;
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Rput(const void *origin_addr, int origin_count,
	     MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	     int target_count, MPI_Datatype target_type, MPI_Win win,
	     MPI_Request *request)
{
	int rc = passive(win, target_rank, request, "MPI_Rput");

	if (rc)
		return rc;
	return completed(MPI_Put(origin_addr, origin_count, origin_type,
				 target_rank, target_disp, target_count,
				 target_type, win),
			 request, "MPI_Rput");
}

int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_type,
	     int target_rank, MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_type, MPI_Win win, MPI_Request *request)
{
	int rc = passive(win, target_rank, request, "MPI_Rget");

	if (rc)
		return rc;
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
	int rc = passive(win, target_rank, request, "MPI_Raccumulate");

	if (rc)
		return rc;
	return completed(MPI_Accumulate(origin_addr, origin_count,
					origin_type, target_rank, target_disp,
					target_count, target_type, op, win),
			 request, "MPI_Raccumulate");
}
