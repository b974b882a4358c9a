/*
 * mpi_comm_info.c - communicators with info (MPI 4.0, sec. 7.4.2, 7.4.4).
 * vp acts on no communicator hint, so it ignores every one: as sec. 7.4.4
 * asks, MPI_Comm_get_info returns only the hints not ignored, here a new
 * empty info object (MPICH does the same with the hints it does not know).
 * MPI_Comm_set_info and MPI_Comm_dup_with_info check their info object
 * and otherwise are no-op and MPI_Comm_dup. MPI_Comm_idup and
 * MPI_Comm_idup_with_info make the duplicate as the blocking calls do,
 * which sends no message where the ranks share one process (vp_comm_dup):
 * the call returns at once, whatever the other ranks do meanwhile on the
 * parent, and its request is complete (MPI 4.0 sec. 7.4.2 lets the new
 * communicator be used once the request completes; vp's may be used at
 * once, since a message to a rank that has not made its duplicate yet
 * waits for it there). Across processes the duplicate is a split of the
 * parent, which blocks until every rank has called.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

/* 0 if info is MPI_INFO_NULL or a live info object, else the error. */
static int check_info(MPI_Info info)
{
	int n;

	return info == MPI_INFO_NULL ? MPI_SUCCESS
				     : MPI_Info_get_nkeys(info, &n);
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	if (!vpmpi_comm(comm, "MPI_Comm_set_info"))
		return MPI_ERR_COMM;
	return check_info(info);
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	if (!vpmpi_comm(comm, "MPI_Comm_get_info"))
		return MPI_ERR_COMM;
	if (!info_used)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Comm_get_info",
				 "info_used is NULL");
	return MPI_Info_create(info_used);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	int rc;

	if (!vpmpi_comm(comm, "MPI_Comm_dup_with_info"))
		return MPI_ERR_COMM;
	if ((rc = check_info(info)))
		return rc;
	return MPI_Comm_dup(comm, newcomm);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Comm_idup",
				  "the request pointer is NULL");
	if ((rc = MPI_Comm_dup(comm, newcomm)))
		return rc;
	return vpmpi_ic_done(MPI_SUCCESS, request);
}

int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			    MPI_Request *request)
{
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Comm_idup_with_info",
				  "the request pointer is NULL");
	if ((rc = MPI_Comm_dup_with_info(comm, info, newcomm)))
		return rc;
	return vpmpi_ic_done(MPI_SUCCESS, request);
}
