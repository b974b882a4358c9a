/*
 * mpi_status.c - what a program may set in a status (MPI 4.0, sec.
 * 13.3: a generalized request's query callback fills one) and the
 * element counts as MPI_Count: MPI_Status_set_elements(_x),
 * MPI_Status_set_cancelled, MPI_Get_elements_x, MPI_Get_count_c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

static int set_elements(MPI_Status *status, MPI_Datatype type, MPI_Count count,
			const char *call)
{
	const struct vpmpi_type *t;
	long size;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!status)
		return vpmpi_fail(MPI_ERR_ARG, call, "status is NULL");
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %lld is negative",
				  count);
	if (!(t = vpmpi_type_any(type, call)))
		return MPI_ERR_TYPE;
	/* count basic elements: of the one basic type when there is one */
	size = t->elem && t->nelems ? t->size / t->nelems : t->size;
	status->vpmpi_bytes = (size_t)count * (size_t)size;
	return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
	return set_elements(status, type, count, "MPI_Status_set_elements");
}

int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type,
			      MPI_Count count)
{
	return set_elements(status, type, count, "MPI_Status_set_elements_x");
}

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
	int n, rc;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!status || !count)
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s is NULL",
				  status ? "count" : "status");
	if (!(t = vpmpi_type_any(type, call)))
		return MPI_ERR_TYPE;
	if (t->elem && t->nelems && t->size) { /* one basic type: any count */
		size_t per = (size_t)(t->size / t->nelems);

		*count = status->vpmpi_bytes % per
			     ? MPI_UNDEFINED
			     : (MPI_Count)(status->vpmpi_bytes / per);
		return MPI_SUCCESS;
	}
	if ((rc = MPI_Get_elements(status, type, &n)))
		return rc;
	*count = n;
	return MPI_SUCCESS;
}

int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype type,
		    MPI_Count *count)
{
	int n, rc;

	if (!status || !count)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Get_count_c",
				  "the %s is NULL",
				  status ? "count" : "status");
	if ((rc = MPI_Get_count(status, type, &n)))
		return rc;
	*count = n;
	return MPI_SUCCESS;
}
