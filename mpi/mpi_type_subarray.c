/*
 * mpi_type_subarray.c - MPI_Type_create_subarray (MPI 4.0, sec. 5.1.3):
 * a block of an n-dimensional array of oldtype, in C order (the last
 * dimension varies fastest) or Fortran order (the first does). The type
 * is built a dimension at a time, fastest first: the elements this
 * dimension keeps, as runs of the type built so far, resized to the whole
 * dimension's extent (vpmpi_type_runs; MPI_Type_create_darray builds its
 * types the same way). The result's lower bound is 0 and its extent the
 * whole array's, as the standard defines.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

int vpmpi_type_runs(MPI_Datatype cur, MPI_Aint unit, int nruns,
		    const int *start, const int *len, int gsize,
		    MPI_Datatype *out)
{
	MPI_Aint *disp = malloc(((size_t)nruns + 1) * sizeof(*disp));
	MPI_Datatype runs;
	int i, rc;

	if (!disp)
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Type_create_subarray",
				  "no memory for %d runs", nruns);
	for (i = 0; i < nruns; i++)
		disp[i] = (MPI_Aint)start[i] * unit;
	rc = MPI_Type_create_hindexed(nruns, len, disp, cur, &runs);
	free(disp);
	if (rc)
		return rc;
	rc = MPI_Type_create_resized(runs, 0, (MPI_Aint)gsize * unit, out);
	MPI_Type_free(&runs);
	return rc;
}

/* The checks of sec. 5.1.3: MPI_SUCCESS or the error raised. */
static int check(int ndims, const int sizes[], const int subsizes[],
		 const int starts[], int order, MPI_Datatype oldtype,
		 const MPI_Datatype *newtype, const char *call)
{
	int i;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (ndims < 1)
		return vpmpi_fail(MPI_ERR_ARG, call, "ndims %d is not positive",
				  ndims);
	if (!sizes || !subsizes || !starts || !newtype)
		return vpmpi_fail(MPI_ERR_ARG, call, "an array argument or "
				  "the new type's pointer is NULL");
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "order %d is neither MPI_ORDER_C nor "
				  "MPI_ORDER_FORTRAN",
				  order);
	for (i = 0; i < ndims; i++)
		if (sizes[i] < 1 || subsizes[i] < 0 ||
		    subsizes[i] > sizes[i] || starts[i] < 0 ||
		    starts[i] > sizes[i] - subsizes[i])
			return vpmpi_fail(MPI_ERR_ARG, call,
					  "dimension %d: size %d, subsize %d, "
					  "start %d (MPI needs 0 <= start <= "
					  "start + subsize <= size, size >= 1)",
					  i, sizes[i], subsizes[i], starts[i]);
	return vpmpi_type_any(oldtype, call) ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int MPI_Type_create_subarray(int ndims, const int sizes[],
			     const int subsizes[], const int starts[],
			     int order, MPI_Datatype oldtype,
			     MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_subarray";
	MPI_Datatype cur = oldtype, next;
	MPI_Aint lb, unit;
	int k, i, rc;

	if ((rc = check(ndims, sizes, subsizes, starts, order, oldtype,
			newtype, call)))
		return rc;
	MPI_Type_get_extent(oldtype, &lb, &unit);
	for (k = 0; k < ndims; k++) {
		/* the fastest dimension first */
		i = order == MPI_ORDER_C ? ndims - 1 - k : k;
		rc = vpmpi_type_runs(cur, unit, 1, &starts[i], &subsizes[i],
				     sizes[i], &next);
		if (cur != oldtype)
			MPI_Type_free(&cur);
		if (rc)
			return rc;
		cur = next;
		unit *= sizes[i];
	}
	*newtype = cur;
	rc = vpmpi_type_made(MPI_SUCCESS, newtype, MPI_COMBINER_SUBARRAY,
			     3 * ndims + 2, 0, 1);
	{
		const int *segs[5] = { &ndims, sizes, subsizes, starts,
				       &order };
		const int lens[5] = { 1, ndims, ndims, ndims, 1 };

		return vpmpi_type_args_ints(rc, newtype, oldtype, segs, lens,
					    5);
	}
}
