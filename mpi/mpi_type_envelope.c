/*
 * mpi_type_envelope.c - MPI_Type_get_envelope (MPI 4.0, sec. 5.1.13):
 * how a datatype was made. A predefined type is MPI_COMBINER_NAMED; a
 * derived one reports the combiner of its constructor and how many
 * integers, addresses and datatypes the constructor took (Table 5.1),
 * which the constructors record through vpmpi_type_made.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

int vpmpi_type_made(int rc, const MPI_Datatype *newtype, int combiner,
		    int ni, int na, int nt)
{
	struct vpmpi_type *t;

	if (rc == MPI_SUCCESS && newtype && (t = vpmpi_lookup(*newtype)) &&
	    *newtype >= VPMPI_FIRST_TYPE) {
		vpmpi_type_args_free(t);
		t->combiner = combiner;
		t->nints = ni;
		t->naddrs = na;
		t->ntypes = nt;
	}
	return rc;
}

int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers,
			  int *num_addresses, int *num_datatypes,
			  int *combiner)
{
	static const char call[] = "MPI_Type_get_envelope";
	const struct vpmpi_type *t;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!(t = vpmpi_type_any(type, call)))
		return MPI_ERR_TYPE;
	if (!num_integers || !num_addresses || !num_datatypes || !combiner)
		return vpmpi_fail(MPI_ERR_ARG, call, "an output pointer is NULL");
	if (type < VPMPI_FIRST_TYPE) {
		*num_integers = *num_addresses = *num_datatypes = 0;
		*combiner = MPI_COMBINER_NAMED;
		return MPI_SUCCESS;
	}
	*num_integers = t->nints;
	*num_addresses = t->naddrs;
	*num_datatypes = t->ntypes;
	*combiner = t->combiner;
	return MPI_SUCCESS;
}
