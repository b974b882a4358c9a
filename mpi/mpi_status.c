/*
 * mpi_status.c - what a program may set in a status (MPI 4.0, sec.
 * 13.3: a generalized request's query callback fills one) and the
 * element counts as MPI_Count: MPI_Status_set_cancelled,
 * MPI_Get_elements_x, MPI_Get_elements_c, MPI_Get_count_c
 * (MPI_Status_set_elements(_x, _c) are
 * in mpi_type_x.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
	if (vpmpi_started("MPI_Status_set_cancelled"))
		return MPI_ERR_OTHER;
	if (!status)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Status_set_cancelled",
				  "status is NULL");
	status->vpmpi_cancelled = flag != 0;
	return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type,
		       MPI_Count *count)
{
	static const char call[] = "MPI_Get_elements_x";
	const struct vpmpi_type *t;
	long long n;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!status || !count)
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s is NULL",
				  status ? "count" : "status");
	if (!(t = vpmpi_type_any(type, call)))
		return MPI_ERR_TYPE;
	n = vpmpi_elements(t, status->vpmpi_bytes);
	*count = n < 0 ? MPI_UNDEFINED : n;
	return MPI_SUCCESS;
}

/* MPI 4.0 sec. 4.1.11: the large-count form of MPI_Get_elements. */
int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype type,
		       MPI_Count *count)
{
	return MPI_Get_elements_x(status, type, count);
}

int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype type,
		    MPI_Count *count)
{
	static const char call[] = "MPI_Get_count_c";
	const struct vpmpi_type *t;

	if (!status || !count)
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s is NULL",
				  status ? "count" : "status");
	if (!(t = vpmpi_type_any(type, call)))
		return MPI_ERR_TYPE;
	if (!t->size) /* items of no bytes: 0 of them in an empty message */
		*count = status->vpmpi_bytes ? MPI_UNDEFINED : 0;
	else
		*count = status->vpmpi_bytes % (size_t)t->size
			     ? MPI_UNDEFINED
			     : (MPI_Count)(status->vpmpi_bytes /
					   (size_t)t->size);
	return MPI_SUCCESS;
}
