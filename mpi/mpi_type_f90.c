/*
 * mpi_type_f90.c - Fortran 90's parameterized types from C (MPI 4.0,
 * sec. 19.1.9): MPI_Type_create_f90_real, _complex and _integer give the
 * type of the smallest kind of at least precision p and decimal exponent
 * range r (Fortran's SELECTED_REAL_KIND and SELECTED_INT_KIND, for IEEE
 * binary32 and binary64 and 1- to 8-byte integers): a type with the
 * basic one's typemap whose envelope is MPI_COMBINER_F90_REAL (_COMPLEX,
 * _INTEGER) with (p, r) (r) as its integers and no datatypes (sec.
 * 5.1.13). The same arguments give the same handle (sec. 19.1.9: the
 * types are predefined, one a kind). MPI_UNDEFINED or a negative value
 * asks for nothing in that respect; a precision or range no kind has is
 * erroneous (MPI_ERR_ARG, as Open MPI; MPICH's class is MPI_ERR_OTHER).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

/* The rank's type of this combiner and arguments, made before: its
 * handle, or MPI_DATATYPE_NULL. */
static MPI_Datatype made_before(int combiner, const int *ints, int ni)
{
	const struct vpmpi_type *t;
	int i;

	for (i = 0; i < vpmpi_me.ntypes; i++)
		if ((t = vpmpi_me.types[i]) && t->combiner == combiner &&
		    t->nints == ni && t->ints && t->ints[0] == ints[0] &&
		    (ni < 2 || t->ints[1] == ints[1]))
			return VPMPI_FIRST_TYPE + i;
	return MPI_DATATYPE_NULL;
}

/* The parameterized type of basic (MPI_DATATYPE_NULL: none fits). */
static int f90_type(int combiner, const int *ints, int ni, MPI_Datatype basic,
		    MPI_Datatype *out, const char *call)
{
	int rc;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!out)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the new datatype's pointer is NULL");
	if (basic == MPI_DATATYPE_NULL)
		return ni == 2 ? vpmpi_fail(MPI_ERR_ARG, call,
					    "no kind has precision %d and "
					    "range %d (up to 15 and 307)",
					    ints[0], ints[1])
			       : vpmpi_fail(MPI_ERR_ARG, call,
					    "no integer kind has range %d "
					    "(up to 18)",
					    ints[0]);
	if ((*out = made_before(combiner, ints, ni)) != MPI_DATATYPE_NULL)
		return MPI_SUCCESS;
	rc = vpmpi_type_made(vpmpi_type_blocks(1, NULL, 1, NULL, 0, basic,
					       out, call),
			     out, combiner, ni, 0, 0);
	rc = vpmpi_type_args(rc, out, ints, ni, NULL, NULL, 0, NULL, NULL);
	return rc ? rc : MPI_Type_commit(out);
}

/* A requirement: MPI_UNDEFINED and negative values ask for nothing. */
static int need(int x)
{
	return x < 0 ? 0 : x;
}

/* The real type of precision p and range r: binary32, binary64, or
 * none. */
static int real_kind(int p, int r)
{
	if (need(p) <= 6 && need(r) <= 37)
		return 4;
	if (need(p) <= 15 && need(r) <= 307)
		return 8;
	return 0;
}

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
	int ints[2] = { p, r }, k = real_kind(p, r);

	return f90_type(MPI_COMBINER_F90_REAL, ints, 2,
			k == 4	 ? MPI_REAL4
			: k == 8 ? MPI_REAL8
				 : MPI_DATATYPE_NULL,
			newtype, "MPI_Type_create_f90_real");
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
	int ints[2] = { p, r }, k = real_kind(p, r);

	return f90_type(MPI_COMBINER_F90_COMPLEX, ints, 2,
			k == 4	 ? MPI_COMPLEX8
			: k == 8 ? MPI_COMPLEX16
				 : MPI_DATATYPE_NULL,
			newtype, "MPI_Type_create_f90_complex");
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
	int x = need(r);

	return f90_type(MPI_COMBINER_F90_INTEGER, &r, 1,
			x <= 2	  ? MPI_INTEGER1
			: x <= 4  ? MPI_INTEGER2
			: x <= 9  ? MPI_INTEGER4
			: x <= 18 ? MPI_INTEGER8
				  : MPI_DATATYPE_NULL,
			newtype, "MPI_Type_create_f90_integer");
}
