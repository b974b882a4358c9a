/*
 * mpi_type_x.c - the MPI_Count forms of the datatype queries (MPI 4.0,
 * sec. 5.1.5, 5.1.6, 5.1.11, 5.1.17 and 19.3.5): MPI_Type_size_x,
 * MPI_Type_get_extent_x, MPI_Type_get_true_extent_x, and
 * MPI_Status_set_elements(_x, _c), which makes a status say that count basic
 * elements of a datatype arrived (a generalized request's, or a library's
 * own). MPI_Get_elements_x (_c), which reads them back, is in mpi_status.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

/* type, or NULL after the error naming call (out: the output pointer) */
static const struct vpmpi_type *type_of(MPI_Datatype type, const void *out,
					const char *call)
{
	if (vpmpi_started(call))
		return NULL;
	if (!out) {
		vpmpi_fail(MPI_ERR_ARG, call, "an output pointer is NULL");
		return NULL;
	}
	return vpmpi_type_any(type, call);
}

int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size)
{
	const struct vpmpi_type *t = type_of(type, size, "MPI_Type_size_x");

	if (!t)
		return vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_TYPE;
	*size = t->size;
	return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb,
			  MPI_Count *extent)
{
	const struct vpmpi_type *t =
	    type_of(type, lb && extent ? lb : NULL, "MPI_Type_get_extent_x");

	if (!t)
		return vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_TYPE;
	*lb = t->lb;
	*extent = t->extent;
	return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *true_lb,
			       MPI_Count *true_extent)
{
	const struct vpmpi_type *t =
	    type_of(type, true_lb && true_extent ? true_lb : NULL,
		    "MPI_Type_get_true_extent_x");

	if (!t)
		return vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_TYPE;
	*true_lb = t->true_lb;
	*true_extent = t->true_extent;
	return MPI_SUCCESS;
}

int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type,
			      MPI_Count count)
{
	static const char call[] = "MPI_Status_set_elements_x";
	const struct vpmpi_type *t = type_of(type, status, call);

	if (!t)
		return vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_TYPE;
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %lld is negative",
				  (long long)count);
	/* count basic elements: their bytes, whole items first */
	status->vpmpi_bytes = vpmpi_elements_bytes(t, count);
	return MPI_SUCCESS;
}

/* MPI 4.0 sec. 13.3: the large-count form of MPI_Status_set_elements. */
int MPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype type,
			      MPI_Count count)
{
	return MPI_Status_set_elements_x(status, type, count);
}

int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
	return MPI_Status_set_elements_x(status, type, count);
}
