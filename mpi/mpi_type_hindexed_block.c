/*
 * mpi_type_hindexed_block.c - MPI_Type_create_hindexed_block (MPI 4.0,
 * sec. 5.1.2): count blocks of blocklength items of oldtype, at byte
 * displacements; and the MPI-1 names that MPI 3.0 removed but programs
 * still use: MPI_Type_hindexed (MPI_Type_create_hindexed), MPI_Type_lb
 * and MPI_Type_ub (the lower and upper bounds, lb and lb + extent).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

int MPI_Type_create_hindexed_block(int count, int blocklength,
				   const MPI_Aint displacements[],
				   MPI_Datatype oldtype,
				   MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_hindexed_block";
	int *bl, i, rc, ints[2];

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (count < 0 || blocklength < 0)
		return vpmpi_fail(count < 0 ? MPI_ERR_COUNT : MPI_ERR_ARG, call,
				  "%s %d is negative",
				  count < 0 ? "count" : "blocklength",
				  count < 0 ? count : blocklength);
	if (!newtype || (count && !displacements))
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the %s is NULL",
				  !newtype ? "new type's pointer"
					   : "displacement array");
	if (!(bl = malloc(((size_t)count + 1) * sizeof(*bl))))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	for (i = 0; i < count; i++)
		bl[i] = blocklength;
	rc = MPI_Type_create_hindexed(count, bl, displacements, oldtype,
				      newtype);
	free(bl);
	rc = vpmpi_type_made(rc, newtype, MPI_COMBINER_HINDEXED_BLOCK, 2,
			     count, 1);
	ints[0] = count;
	ints[1] = blocklength;
	return vpmpi_type_args(rc, newtype, ints, 2, NULL, NULL, 0,
			       displacements, &oldtype);
}

int MPI_Type_hindexed(int count, int blocklengths[],
		      MPI_Aint displacements[], MPI_Datatype oldtype,
		      MPI_Datatype *newtype)
{
	return MPI_Type_create_hindexed(count, blocklengths, displacements,
					oldtype, newtype);
}

int MPI_Type_lb(MPI_Datatype type, MPI_Aint *lb)
{
	MPI_Aint extent;

	if (!lb)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Type_lb", "lb is NULL");
	return MPI_Type_get_extent(type, lb, &extent);
}

int MPI_Type_ub(MPI_Datatype type, MPI_Aint *ub)
{
	MPI_Aint lb, extent;
	int rc;

	if (!ub)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Type_ub", "ub is NULL");
	if ((rc = MPI_Type_get_extent(type, &lb, &extent)))
		return rc;
	*ub = lb + extent;
	return MPI_SUCCESS;
}
