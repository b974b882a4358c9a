/*
 * mpi_win_c.c - the large-count one-sided calls (MPI 4.0, sec. 12 and
 * 19.2): MPI_Put_c, MPI_Get_c, MPI_Accumulate_c, MPI_Get_accumulate_c and
 * their request-based forms take MPI_Count counts; MPI_Win_create_c,
 * MPI_Win_allocate_c, MPI_Win_allocate_shared_c and MPI_Win_shared_query_c
 * an MPI_Aint disp_unit. Each runs its int sibling (MPI_Put_c runs
 * MPI_Put): the same checks, the same operations charged by the model.
 * vp's one-sided calls take up to INT_MAX items a side and a disp_unit
 * that fits an int: a count above INT_MAX or negative fails with
 * MPI_ERR_COUNT through the window's error handler, a disp_unit that is
 * not in [1, INT_MAX] with MPI_ERR_ARG through the communicator's, each
 * naming the call and the value. Errors raised inside the sibling name
 * the large-count call.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>

#include "mpi_win.h"

/* The counts of an operation on win fit an int (what: "origin_count"
 * and the others; a NULL name is not checked): MPI_SUCCESS, after which
 * errors name call until vpmpi_c_end, or the error raised. */
static int op_begin(MPI_Win win, const char *call, const char *what1,
		    MPI_Count a, const char *what2, MPI_Count b,
		    const char *what3, MPI_Count c)
{
	const char *what[3] = { what1, what2, what3 };
	MPI_Count n[3] = { a, b, c };
	struct mpi_win *m;
	int i;

	for (i = 0; i < 3; i++) {
		if (!what[i] || (n[i] >= 0 && n[i] <= INT_MAX))
			continue;
		if (!(m = vpmpi_win(win, call)))
			return MPI_ERR_WIN;
		return vpmpi_win_err(m, MPI_ERR_COUNT, call,
				     n[i] < 0 ? "%s %lld is negative"
					      : "%s %lld is above INT_MAX: "
						"vp's one-sided calls take up "
						"to INT_MAX items a side",
				     what[i], (long long)n[i]);
	}
	vpmpi_me.call_c = call;
	return MPI_SUCCESS;
}

/* disp_unit of a window being made fits an int and is positive. */
static int unit_begin(MPI_Comm comm, MPI_Aint disp_unit, const char *call)
{
	if (disp_unit < 1 || disp_unit > INT_MAX)
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 disp_unit < 1 ? "disp_unit %lld is not positive"
					       : "disp_unit %lld is above "
						 "INT_MAX: vp keeps a window's "
						 "disp_unit in an int",
				 (long long)disp_unit);
	vpmpi_me.call_c = call;
	return MPI_SUCCESS;
}

int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit,
		     MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	int rc = unit_begin(comm, disp_unit, "MPI_Win_create_c");

	if (rc)
		return rc;
	return vpmpi_c_end(
	    MPI_Win_create(base, size, (int)disp_unit, info, comm, win));
}

int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
		       MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	int rc = unit_begin(comm, disp_unit, "MPI_Win_allocate_c");

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Win_allocate(size, (int)disp_unit, info, comm,
					    baseptr, win));
}

int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
			      MPI_Info info, MPI_Comm comm, void *baseptr,
			      MPI_Win *win)
{
	int rc = unit_begin(comm, disp_unit, "MPI_Win_allocate_shared_c");

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Win_allocate_shared(size, (int)disp_unit, info,
						   comm, baseptr, win));
}

int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size,
			   MPI_Aint *disp_unit, void *baseptr)
{
	int unit = 0, rc;

	vpmpi_me.call_c = "MPI_Win_shared_query_c";
	rc = vpmpi_c_end(
	    MPI_Win_shared_query(win, rank, size, &unit, baseptr));
	if (rc == MPI_SUCCESS && disp_unit)
		*disp_unit = unit;
	return rc;
}

int MPI_Put_c(const void *origin_addr, MPI_Count origin_count,
	      MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	      MPI_Count target_count, MPI_Datatype target_type, MPI_Win win)
{
	int rc = op_begin(win, "MPI_Put_c", "origin_count", origin_count,
			  "target_count", target_count, NULL, 0);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Put(origin_addr, (int)origin_count, origin_type,
				   target_rank, target_disp, (int)target_count,
				   target_type, win));
}

int MPI_Get_c(void *origin_addr, MPI_Count origin_count,
	      MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	      MPI_Count target_count, MPI_Datatype target_type, MPI_Win win)
{
	int rc = op_begin(win, "MPI_Get_c", "origin_count", origin_count,
			  "target_count", target_count, NULL, 0);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Get(origin_addr, (int)origin_count, origin_type,
				   target_rank, target_disp, (int)target_count,
				   target_type, win));
}

int MPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
		     MPI_Datatype origin_type, int target_rank,
		     MPI_Aint target_disp, MPI_Count target_count,
		     MPI_Datatype target_type, MPI_Op op, MPI_Win win)
{
	int rc = op_begin(win, "MPI_Accumulate_c", "origin_count",
			  origin_count, "target_count", target_count, NULL, 0);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Accumulate(origin_addr, (int)origin_count,
					  origin_type, target_rank, target_disp,
					  (int)target_count, target_type, op,
					  win));
}

int MPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
			 MPI_Datatype origin_type, void *result_addr,
			 MPI_Count result_count, MPI_Datatype result_type,
			 int target_rank, MPI_Aint target_disp,
			 MPI_Count target_count, MPI_Datatype target_type,
			 MPI_Op op, MPI_Win win)
{
	int rc = op_begin(win, "MPI_Get_accumulate_c", "origin_count",
			  origin_count, "result_count", result_count,
			  "target_count", target_count);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Get_accumulate(
	    origin_addr, (int)origin_count, origin_type, result_addr,
	    (int)result_count, result_type, target_rank, target_disp,
	    (int)target_count, target_type, op, win));
}

int MPI_Rput_c(const void *origin_addr, MPI_Count origin_count,
	       MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	       MPI_Count target_count, MPI_Datatype target_type, MPI_Win win,
	       MPI_Request *request)
{
	int rc = op_begin(win, "MPI_Rput_c", "origin_count", origin_count,
			  "target_count", target_count, NULL, 0);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Rput(origin_addr, (int)origin_count,
				    origin_type, target_rank, target_disp,
				    (int)target_count, target_type, win,
				    request));
}

int MPI_Rget_c(void *origin_addr, MPI_Count origin_count,
	       MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	       MPI_Count target_count, MPI_Datatype target_type, MPI_Win win,
	       MPI_Request *request)
{
	int rc = op_begin(win, "MPI_Rget_c", "origin_count", origin_count,
			  "target_count", target_count, NULL, 0);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Rget(origin_addr, (int)origin_count,
				    origin_type, target_rank, target_disp,
				    (int)target_count, target_type, win,
				    request));
}

int MPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
		      MPI_Datatype origin_type, int target_rank,
		      MPI_Aint target_disp, MPI_Count target_count,
		      MPI_Datatype target_type, MPI_Op op, MPI_Win win,
		      MPI_Request *request)
{
	int rc = op_begin(win, "MPI_Raccumulate_c", "origin_count",
			  origin_count, "target_count", target_count, NULL, 0);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Raccumulate(origin_addr, (int)origin_count,
					   origin_type, target_rank,
					   target_disp, (int)target_count,
					   target_type, op, win, request));
}

int MPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
			  MPI_Datatype origin_type, void *result_addr,
			  MPI_Count result_count, MPI_Datatype result_type,
			  int target_rank, MPI_Aint target_disp,
			  MPI_Count target_count, MPI_Datatype target_type,
			  MPI_Op op, MPI_Win win, MPI_Request *request)
{
	int rc = op_begin(win, "MPI_Rget_accumulate_c", "origin_count",
			  origin_count, "result_count", result_count,
			  "target_count", target_count);

	if (rc)
		return rc;
	return vpmpi_c_end(MPI_Rget_accumulate(
	    origin_addr, (int)origin_count, origin_type, result_addr,
	    (int)result_count, result_type, target_rank, target_disp,
	    (int)target_count, target_type, op, win, request));
}
