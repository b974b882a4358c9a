/*
 * mpi_split_type.c - MPI_Comm_split_type (MPI 4.0, sec. 7.4.2). Every rank
 * of a vp job shares one address space, so:
 *   MPI_COMM_TYPE_SHARED      one communicator of all of comm's ranks
 *                             that pass it, ordered by key then rank;
 *   MPI_COMM_TYPE_HW_GUIDED   the same when the info's
 *                             "mpi_hw_resource_type" is "mpi_shared_memory"
 *                             (the one resource type vp knows), else
 *                             MPI_COMM_NULL, as the standard asks of a type
 *                             it does not know or an info without the key;
 *   MPI_COMM_TYPE_HW_UNGUIDED MPI_COMM_NULL: no hardware level of a vp job
 *                             is smaller than the job, and the standard
 *                             wants a strict subset of comm or none;
 *   MPI_UNDEFINED             MPI_COMM_NULL for that rank.
 * Every rank of comm calls it (a collective, as MPI_Comm_split).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "vpmpi.h"

/* 1 if info names the shared memory resource */
static int shared_memory(MPI_Info info)
{
	char v[MPI_MAX_INFO_VAL + 1];
	int flag = 0;

	if (info == MPI_INFO_NULL ||
	    MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v,
			 &flag))
		return 0;
	return flag && !strcmp(v, "mpi_shared_memory");
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
			MPI_Info info, MPI_Comm *newcomm)
{
	static const char call[] = "MPI_Comm_split_type";
	int color;

	if (!vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	if (!newcomm)
		return vpmpi_err(comm, MPI_ERR_ARG, call, "newcomm is NULL");
	switch (split_type) {
	case MPI_COMM_TYPE_SHARED:
		color = 0;
		break;
	case MPI_COMM_TYPE_HW_GUIDED:
		color = shared_memory(info) ? 0 : MPI_UNDEFINED;
		break;
	case MPI_COMM_TYPE_HW_UNGUIDED:
	case MPI_UNDEFINED:
		color = MPI_UNDEFINED;
		break;
	default:
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "split_type %d is not MPI_COMM_TYPE_SHARED, "
				 "_HW_GUIDED, _HW_UNGUIDED or MPI_UNDEFINED",
				 split_type);
	}
	return MPI_Comm_split(comm, color, key, newcomm);
}
