/*
 * mpi_type_c.c - the large-count datatype calls of MPI 4.0 (sec. 5.1, the
 * _c forms): MPI_Count counts, block lengths and displacements. A block
 * of a dense type is one run of bytes whatever its count, so a type of
 * 2^31 and more bytes costs no more to make than a small one. The
 * constructors record their combiner (MPI_Type_get_envelope); their
 * arguments are kept for MPI_Type_get_contents where they fit an int.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdlib.h>

#include "vpmpi.h"

/* Checks a count of blocks; MPI_SUCCESS or the error. */
static int count_ok(MPI_Count count, const char *call)
{
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %lld is negative",
				  (long long)count);
	if (count > INT_MAX)
		return vpmpi_fail(MPI_ERR_COUNT, call,
				  "%lld blocks: vp takes at most %d",
				  (long long)count, INT_MAX);
	return MPI_SUCCESS;
}

int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype old,
			  MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_contiguous_c";
	int rc, n = count <= INT_MAX ? (int)count : 0;

	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %lld is negative",
				  (long long)count);
	rc = vpmpi_type_made(vpmpi_type_blocks(1, NULL, (long)count, NULL, 0,
					       old, newtype, call),
			     newtype, MPI_COMBINER_CONTIGUOUS,
			     count <= INT_MAX, 0, 1);
	return vpmpi_type_args(rc, newtype, &n, 1, NULL, NULL, 0, NULL, &old);
}

int MPI_Type_create_hindexed_c(MPI_Count count,
			       const MPI_Count blocklengths[],
			       const MPI_Count displacements[],
			       MPI_Datatype old, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_hindexed_c";
	MPI_Aint *d;
	long *b;
	int rc, i;

	if ((rc = count_ok(count, call)))
		return rc;
	b = malloc(((size_t)count + 1) * sizeof(*b));
	d = malloc(((size_t)count + 1) * sizeof(*d));
	if (!b || !d)
		rc = vpmpi_fail(MPI_ERR_NO_MEM, call,
				"no memory for a datatype");
	for (i = 0; !rc && i < count; i++) {
		b[i] = (long)blocklengths[i];
		d[i] = (MPI_Aint)displacements[i];
	}
	if (!rc)
		rc = vpmpi_type_blocks((int)count, b, 0, d, 0, old, newtype,
				       call);
	free(b);
	free(d);
	return vpmpi_type_made(rc, newtype, MPI_COMBINER_HINDEXED, 0, 0, 1);
}

int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
				    const MPI_Count displacements[],
				    MPI_Datatype old, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_indexed_block_c";
	MPI_Aint *d, lb, extent;
	int rc, i;

	if ((rc = count_ok(count, call)) ||
	    (rc = MPI_Type_get_extent(old, &lb, &extent)))
		return rc;
	if (blocklength < 0)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "block length %lld is negative",
				  (long long)blocklength);
	if (!(d = malloc(((size_t)count + 1) * sizeof(*d))))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	for (i = 0; i < count; i++)
		d[i] = (MPI_Aint)displacements[i] * extent;
	rc = vpmpi_type_blocks((int)count, NULL, (long)blocklength, d, 0, old,
			       newtype, call);
	free(d);
	return vpmpi_type_made(rc, newtype, MPI_COMBINER_INDEXED_BLOCK, 0, 0,
			       1);
}

int MPI_Type_size_c(MPI_Datatype type, MPI_Count *size)
{
	const struct vpmpi_type *t = vpmpi_type_any(type, "MPI_Type_size_c");

	if (!t)
		return MPI_ERR_TYPE;
	if (!size)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Type_size_c",
				  "size is NULL");
	*size = t->size;
	return MPI_SUCCESS;
}

int MPI_Type_get_extent_c(MPI_Datatype type, MPI_Count *lb,
			  MPI_Count *extent)
{
	const struct vpmpi_type *t =
	    vpmpi_type_any(type, "MPI_Type_get_extent_c");

	if (!t)
		return MPI_ERR_TYPE;
	if (!lb || !extent)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Type_get_extent_c",
				  "lb or extent is NULL");
	*lb = t->lb;
	*extent = t->extent;
	return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_c(MPI_Datatype type, MPI_Count *true_lb,
			       MPI_Count *true_extent)
{
	const struct vpmpi_type *t =
	    vpmpi_type_any(type, "MPI_Type_get_true_extent_c");

	if (!t)
		return MPI_ERR_TYPE;
	if (!true_lb || !true_extent)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Type_get_true_extent_c",
				  "true_lb or true_extent is NULL");
	*true_lb = t->true_lb;
	*true_extent = t->true_extent;
	return MPI_SUCCESS;
}
