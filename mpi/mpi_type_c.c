/*
 * mpi_type_c.c - the large-count datatype calls of MPI 4.0 (sec. 5.1, the
 * _c forms): MPI_Count counts, block lengths and displacements. A block
 * of a dense type is one run of bytes whatever its count, so a type of
 * 2^31 and more bytes costs no more to make than a small one. The
 * constructors record their combiner (MPI_Type_get_envelope); their
 * arguments are kept for MPI_Type_get_contents where they fit an int.
 * The vector, indexed, struct, subarray, darray and resized forms run
 * their int sibling: counts and block lengths up to INT_MAX (a larger
 * one fails with MPI_ERR_COUNT naming the call, the argument and its
 * value), byte displacements and strides of any size.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdio.h>
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

/* ---- constructors that run their int sibling ---- */

/* x as an int at *out (count: a count, which is not negative):
 * MPI_SUCCESS, or MPI_ERR_COUNT raised naming call and what. */
static int c_int(MPI_Count x, int count, const char *what, int *out,
		 const char *call)
{
	if ((count ? x >= 0 : x >= INT_MIN) && x <= INT_MAX) {
		*out = (int)x;
		return MPI_SUCCESS;
	}
	return vpmpi_fail(MPI_ERR_COUNT, call, "%s %lld is %s", what,
			  (long long)x,
			  x > INT_MAX ? "above INT_MAX, the most vp takes in "
					"this call"
			  : count     ? "negative"
				      : "below INT_MIN, the least vp takes in "
					"this call");
}

/* n entries of each of the k arrays a[j] as ints, one array after the
 * other in one allocation *out (free it); the first ncounts hold counts.
 * MPI_SUCCESS or the error raised. */
static int c_ints(int n, int k, const MPI_Count *const a[],
		  const char *const what[], int ncounts, int **out,
		  const char *call)
{
	char name[64];
	int i, j, rc = MPI_SUCCESS;

	if (n < 0)
		n = 0; /* the sibling refuses the count */
	if (!(*out = malloc(((size_t)n * (size_t)k + 1) * sizeof(int))))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for %d entries", n * k);
	for (j = 0; !rc && j < k; j++) {
		if (n && !a[j])
			rc = vpmpi_fail(MPI_ERR_ARG, call, "%s is NULL",
					what[j]);
		for (i = 0; !rc && i < n; i++) {
			snprintf(name, sizeof(name), "%s[%d]", what[j], i);
			rc = c_int(a[j][i], j < ncounts, name,
				   &(*out)[(size_t)j * n + i], call);
		}
	}
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* n byte displacements as MPI_Aint in a new array (NULL after the
 * error, raised). */
static MPI_Aint *c_aints(int n, const MPI_Count *a, const char *call)
{
	MPI_Aint *d;
	int i;

	if (n > 0 && !a) {
		vpmpi_fail(MPI_ERR_ARG, call, "the displacements are NULL");
		return NULL;
	}
	if (!(d = malloc(((size_t)(n > 0 ? n : 0) + 1) * sizeof(*d)))) {
		vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for %d entries",
			   n);
		return NULL;
	}
	for (i = 0; i < n; i++)
		d[i] = (MPI_Aint)a[i];
	return d;
}

/* count and blocklength as ints: MPI_SUCCESS or the error raised */
static int c_count_bl(MPI_Count count, MPI_Count blocklength, int *n,
		      int *bl, const char *call)
{
	int rc;

	vpmpi_c_begin(MPI_COMM_WORLD, call, NULL, 0, NULL, 0);
	if ((rc = c_int(count, 1, "count", n, call)))
		return rc;
	return c_int(blocklength, 1, "blocklength", bl, call);
}

int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
		      MPI_Count stride, MPI_Datatype old,
		      MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_vector_c";
	int n = 0, bl = 0, st = 0,
	    rc = c_count_bl(count, blocklength, &n, &bl, call);

	if (!rc && !(rc = c_int(stride, 0, "stride", &st, call)))
		rc = MPI_Type_vector(n, bl, st, old, newtype);
	return vpmpi_c_end(rc);
}

int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
			      MPI_Count stride, MPI_Datatype old,
			      MPI_Datatype *newtype)
{
	int n, bl, rc = c_count_bl(count, blocklength, &n, &bl,
				   "MPI_Type_create_hvector_c");

	if (!rc)
		rc = MPI_Type_create_hvector(n, bl, (MPI_Aint)stride, old,
					     newtype);
	return vpmpi_c_end(rc);
}

int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
				     const MPI_Count displacements[],
				     MPI_Datatype old, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_hindexed_block_c";
	MPI_Aint *d = NULL;
	int n, bl, rc = c_count_bl(count, blocklength, &n, &bl, call);

	if (!rc && !(d = c_aints(n, displacements, call)))
		rc = vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_ARG;
	if (!rc)
		rc = MPI_Type_create_hindexed_block(n, bl, d, old, newtype);
	free(d);
	return vpmpi_c_end(rc);
}

int MPI_Type_indexed_c(MPI_Count count, const MPI_Count blocklengths[],
		       const MPI_Count displacements[], MPI_Datatype old,
		       MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_indexed_c";
	static const char *const what[] = { "blocklengths", "displacements" };
	const MPI_Count *a[] = { blocklengths, displacements };
	int n, zero, *m = NULL, rc = c_count_bl(count, 0, &n, &zero, call);

	if (!rc && !(rc = c_ints(n, 2, a, what, 1, &m, call)))
		rc = MPI_Type_indexed(n, m, m + n, old, newtype);
	free(m);
	return vpmpi_c_end(rc);
}

int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count blocklengths[],
			     const MPI_Count displacements[],
			     const MPI_Datatype types[], MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_struct_c";
	static const char *const what[] = { "blocklengths" };
	const MPI_Count *a[] = { blocklengths };
	MPI_Aint *d = NULL;
	int n, zero, *m = NULL, rc = c_count_bl(count, 0, &n, &zero, call);

	if (!rc && !(rc = c_ints(n, 1, a, what, 1, &m, call)) &&
	    !(d = c_aints(n, displacements, call)))
		rc = vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_ARG;
	if (!rc)
		rc = MPI_Type_create_struct(n, m, d, types, newtype);
	free(m);
	free(d);
	return vpmpi_c_end(rc);
}

int MPI_Type_create_subarray_c(int ndims, const MPI_Count sizes[],
			       const MPI_Count subsizes[],
			       const MPI_Count starts[], int order,
			       MPI_Datatype old, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_subarray_c";
	static const char *const what[] = { "sizes", "subsizes", "starts" };
	const MPI_Count *a[] = { sizes, subsizes, starts };
	int *m = NULL, n = ndims > 0 ? ndims : 0, rc;

	vpmpi_c_begin(MPI_COMM_WORLD, call, NULL, 0, NULL, 0);
	if (!(rc = c_ints(ndims, 3, a, what, 3, &m, call)))
		rc = MPI_Type_create_subarray(ndims, m, m + n, m + 2 * n,
					      order, old, newtype);
	free(m);
	return vpmpi_c_end(rc);
}

int MPI_Type_create_darray_c(int size, int rank, int ndims,
			     const MPI_Count gsizes[], const int distribs[],
			     const int dargs[], const int psizes[], int order,
			     MPI_Datatype old, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_darray_c";
	static const char *const what[] = { "gsizes" };
	const MPI_Count *a[] = { gsizes };
	int *m = NULL, rc;

	vpmpi_c_begin(MPI_COMM_WORLD, call, NULL, 0, NULL, 0);
	if (!(rc = c_ints(ndims, 1, a, what, 1, &m, call)))
		rc = MPI_Type_create_darray(size, rank, ndims, m, distribs,
					    dargs, psizes, order, old,
					    newtype);
	free(m);
	return vpmpi_c_end(rc);
}

int MPI_Type_create_resized_c(MPI_Datatype old, MPI_Count lb,
			      MPI_Count extent, MPI_Datatype *newtype)
{
	vpmpi_c_begin(MPI_COMM_WORLD, "MPI_Type_create_resized_c", NULL, 0,
		      NULL, 0);
	return vpmpi_c_end(MPI_Type_create_resized(old, (MPI_Aint)lb,
						   (MPI_Aint)extent, newtype));
}
