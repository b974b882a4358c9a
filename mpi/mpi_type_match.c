/*
 * mpi_type_match.c - MPI_Type_match_size (MPI 4.0, sec. 19.1.9): the
 * named type of a class (MPI_TYPECLASS_INTEGER, _REAL, _COMPLEX) with a
 * given size in bytes, for code that picks a type by size. The answer is
 * a predefined type, which the program must not free.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
	static const char call[] = "MPI_Type_match_size";
	static const MPI_Datatype ints[] = { MPI_INTEGER1, MPI_INTEGER2,
					     MPI_INTEGER4, MPI_INTEGER8 };
	static const MPI_Datatype reals[] = { MPI_REAL4, MPI_REAL8,
					      MPI_LONG_DOUBLE };
	static const MPI_Datatype cplx[] = { MPI_COMPLEX8, MPI_COMPLEX16,
					     MPI_C_LONG_DOUBLE_COMPLEX };
	const MPI_Datatype *list;
	int i, n;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!datatype)
		return vpmpi_fail(MPI_ERR_ARG, call, "datatype is NULL");
	switch (typeclass) {
	case MPI_TYPECLASS_INTEGER: list = ints, n = 4; break;
	case MPI_TYPECLASS_REAL: list = reals, n = 3; break;
	case MPI_TYPECLASS_COMPLEX: list = cplx, n = 3; break;
	default:
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "typeclass %d is not MPI_TYPECLASS_INTEGER, "
				  "_REAL or _COMPLEX",
				  typeclass);
	}
	for (i = 0; i < n; i++)
		if (vpmpi_basic[list[i]].size == size) {
			*datatype = list[i];
			return MPI_SUCCESS;
		}
	return vpmpi_fail(MPI_ERR_ARG, call,
			  "no type of class %d has %d bytes", typeclass, size);
}
