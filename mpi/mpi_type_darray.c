/*
 * mpi_type_darray.c - MPI_Type_create_darray (MPI 4.0, sec. 5.1.4): the
 * part of an n-dimensional array of oldtype that process rank of a
 * psizes[0] x ... grid holds (the grid's ranks in row-major order) when
 * each dimension is distributed MPI_DISTRIBUTE_BLOCK (blocks of darg
 * elements, ceil(gsize / psize) by default), MPI_DISTRIBUTE_CYCLIC (blocks
 * of darg elements, 1 by default, dealt round the processes) or
 * MPI_DISTRIBUTE_NONE (whole). Built a dimension at a time, fastest
 * first, as MPI_Type_create_subarray: the runs of elements the process
 * holds in this dimension (vpmpi_type_runs). Lower bound 0, extent the
 * whole array's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

static const char call[] = "MPI_Type_create_darray";

/* Dimension i's distribution checked: MPI_SUCCESS or the error. */
static int check_dim(int i, int g, int d, int a, int p)
{
	if (g < 1 || p < 1)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "dimension %d: gsize %d and psize %d must be "
				  "positive",
				  i, g, p);
	if (d == MPI_DISTRIBUTE_NONE) {
		if (p != 1)
			return vpmpi_fail(MPI_ERR_ARG, call,
					  "dimension %d is not distributed "
					  "but psize is %d, not 1",
					  i, p);
		return MPI_SUCCESS;
	}
	if (d != MPI_DISTRIBUTE_BLOCK && d != MPI_DISTRIBUTE_CYCLIC)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "dimension %d: distribution %d is not "
				  "MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE",
				  i, d);
	if (a != MPI_DISTRIBUTE_DFLT_DARG && a < 1)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "dimension %d: darg %d is not positive", i, a);
	if (d == MPI_DISTRIBUTE_BLOCK && a != MPI_DISTRIBUTE_DFLT_DARG &&
	    (long)a * p < g)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "dimension %d: %d blocks of %d cannot hold "
				  "%d elements",
				  i, p, a, g);
	return MPI_SUCCESS;
}

static int check(int size, int rank, int ndims, const int g[],
		 const int d[], const int a[], const int p[], int order,
		 MPI_Datatype oldtype, const MPI_Datatype *newtype)
{
	long procs = 1;
	int i, rc;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (ndims < 1 || size < 1 || rank < 0 || rank >= size)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "ndims %d, size %d, rank %d (MPI needs "
				  "ndims >= 1, 0 <= rank < size)",
				  ndims, size, rank);
	if (!g || !d || !a || !p || !newtype)
		return vpmpi_fail(MPI_ERR_ARG, call, "an array argument or "
				  "the new type's pointer is NULL");
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "order %d is neither MPI_ORDER_C nor "
				  "MPI_ORDER_FORTRAN",
				  order);
	for (i = 0; i < ndims; i++) {
		if ((rc = check_dim(i, g[i], d[i], a[i], p[i])))
			return rc;
		procs *= p[i];
	}
	if (procs != size)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the process grid has %ld processes, size is "
				  "%d",
				  procs, size);
	return vpmpi_type_any(oldtype, call) ? MPI_SUCCESS : MPI_ERR_TYPE;
}

/* The runs of dimension i that the process at coordinate c holds: their
 * number (start[], len[] have room for g + 1). */
static int runs_of(int g, int d, int a, int p, int c, int *start, int *len)
{
	int b, s, n = 0;

	if (d == MPI_DISTRIBUTE_NONE) {
		start[0] = 0;
		len[0] = g;
		return 1;
	}
	if (d == MPI_DISTRIBUTE_BLOCK) {
		b = a == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : a;
		start[0] = c * b < g ? c * b : g;
		len[0] = g - start[0] < b ? g - start[0] : b;
		return 1;
	}
	b = a == MPI_DISTRIBUTE_DFLT_DARG ? 1 : a;
	for (s = c * b; s < g; s += p * b) {
		start[n] = s;
		len[n++] = g - s < b ? g - s : b;
	}
	return n;
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
			   const int distribs[], const int dargs[],
			   const int psizes[], int order, MPI_Datatype oldtype,
			   MPI_Datatype *newtype)
{
	MPI_Datatype cur = oldtype, next;
	MPI_Aint lb, unit;
	int *coord, *start, *len, k, i, r, n, rc, gmax = 1;

	if ((rc = check(size, rank, ndims, gsizes, distribs, dargs, psizes,
			order, oldtype, newtype)))
		return rc;
	for (i = 0; i < ndims; i++)
		gmax = gsizes[i] > gmax ? gsizes[i] : gmax;
	coord = malloc((size_t)ndims * sizeof(*coord));
	start = malloc(((size_t)gmax + 1) * sizeof(*start));
	len = malloc(((size_t)gmax + 1) * sizeof(*len));
	if (!coord || !start || !len) {
		rc = vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory");
		goto out;
	}
	for (r = rank, i = ndims - 1; i >= 0; i--) { /* row-major grid */
		coord[i] = r % psizes[i];
		r /= psizes[i];
	}
	MPI_Type_get_extent(oldtype, &lb, &unit);
	for (k = 0; k < ndims; k++) {
		i = order == MPI_ORDER_C ? ndims - 1 - k : k;
		n = runs_of(gsizes[i], distribs[i], dargs[i], psizes[i],
			    coord[i], start, len);
		rc = vpmpi_type_runs(cur, unit, n, start, len, gsizes[i],
				     &next);
		if (cur != oldtype)
			MPI_Type_free(&cur);
		if (rc)
			goto out;
		cur = next;
		unit *= gsizes[i];
	}
	*newtype = cur;
	rc = vpmpi_type_made(MPI_SUCCESS, newtype, MPI_COMBINER_DARRAY,
			     4 * ndims + 4, 0, 1);
	{
		const int *segs[8] = { &size,	 &rank,	 &ndims,  gsizes,
				       distribs, dargs, psizes, &order };
		const int lens[8] = { 1, 1, 1, ndims, ndims, ndims, ndims, 1 };

		rc = vpmpi_type_args_ints(rc, newtype, oldtype, segs, lens, 8);
	}
out:
	free(coord);
	free(start);
	free(len);
	return rc;
}
