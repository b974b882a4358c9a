/*
 * mpi_comm_info.c - communicators with info (MPI 4.0, sec. 7.4.2, 7.4.4):
 * MPI_Comm_set_info keeps a copy of the hints, MPI_Comm_get_info returns a
 * new info object with them (the hints of the communicator it was
 * duplicated from when none were set; MPI_Comm_dup copies them),
 * MPI_Comm_dup_with_info is
 * MPI_Comm_dup with the given hints instead of the old communicator's.
 * vp acts on no hint: they are kept and returned. MPI_Comm_idup and
 * MPI_Comm_idup_with_info make the duplicate as the blocking calls do
 * (every rank of comm must call them, in the same order as its other
 * collective calls on comm) and return a request that completes once every
 * rank has made it (an MPI_Ibarrier on the new communicator).
 */
#include <string.h>

#include "vpmpi.h"

static __thread MPI_Info hints[VPMPI_MAX_COMMS]; /* by handle */

void vpmpi_comm_info_drop(MPI_Comm comm)
{
	if (comm > 0 && comm < VPMPI_MAX_COMMS && hints[comm] != MPI_INFO_NULL)
		MPI_Info_free(&hints[comm]);
}

void vpmpi_comm_infos_forget(void)
{
	memset(hints, 0, sizeof(hints)); /* the info objects go with the rest */
}

int vpmpi_comm_info_copy(MPI_Comm from, MPI_Comm to)
{
	if (hints[from] == MPI_INFO_NULL)
		return MPI_SUCCESS;
	vpmpi_comm_info_drop(to);
	return MPI_Info_dup(hints[from], &hints[to]);
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	MPI_Info copy;
	int rc;

	if (!vpmpi_comm(comm, "MPI_Comm_set_info"))
		return MPI_ERR_COMM;
	if ((rc = MPI_Info_dup(info, &copy)))
		return rc;
	vpmpi_comm_info_drop(comm);
	hints[comm] = copy;
	return MPI_SUCCESS;
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	if (!vpmpi_comm(comm, "MPI_Comm_get_info"))
		return MPI_ERR_COMM;
	if (!info_used)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Comm_get_info",
				 "info_used is NULL");
	if (hints[comm] == MPI_INFO_NULL)
		return MPI_Info_create(info_used);
	return MPI_Info_dup(hints[comm], info_used);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	int rc;

	if (!vpmpi_comm(comm, "MPI_Comm_dup_with_info"))
		return MPI_ERR_COMM;
	if ((rc = MPI_Comm_dup(comm, newcomm)))
		return rc;
	if (info == MPI_INFO_NULL)
		return MPI_SUCCESS;
	return MPI_Comm_set_info(*newcomm, info);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Comm_idup",
				  "the request pointer is NULL");
	if ((rc = MPI_Comm_dup(comm, newcomm))) /* the hints too */
		return rc;
	return MPI_Ibarrier(*newcomm, request);
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
	return MPI_Ibarrier(*newcomm, request);
}
