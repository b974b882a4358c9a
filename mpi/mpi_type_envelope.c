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

/* The MPI_Count form: vp's constructors keep their counts as integers
 * (a _c constructor's counts above INT_MAX leave no contents), so there
 * are no large counts. */
int MPI_Type_get_envelope_c(MPI_Datatype type, MPI_Count *num_integers,
			    MPI_Count *num_addresses,
			    MPI_Count *num_large_counts,
			    MPI_Count *num_datatypes, int *combiner)
{
	int ni, na, nt, rc;

	if (!num_integers || !num_addresses || !num_large_counts ||
	    !num_datatypes || !combiner)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Type_get_envelope_c",
				  "an output pointer is NULL");
	if ((rc = MPI_Type_get_envelope(type, &ni, &na, &nt, combiner)))
		return rc;
	*num_integers = ni;
	*num_addresses = na;
	*num_large_counts = 0;
	*num_datatypes = nt;
	return MPI_SUCCESS;
}

/* A maximum as an int (more than INT_MAX: as many as there may be). */
static int upto(MPI_Count max)
{
	return max > 2147483647 ? 2147483647 : (int)max;
}

int MPI_Type_get_contents_c(MPI_Datatype type, MPI_Count max_integers,
			    MPI_Count max_addresses, MPI_Count max_large_counts,
			    MPI_Count max_datatypes, int integers[],
			    MPI_Aint addresses[], MPI_Count large_counts[],
			    MPI_Datatype datatypes[])
{
	(void)large_counts;
	if (max_integers < 0 || max_addresses < 0 || max_large_counts < 0 ||
	    max_datatypes < 0)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Type_get_contents_c",
				  "a maximum is negative (%lld, %lld, %lld, "
				  "%lld)",
				  (long long)max_integers,
				  (long long)max_addresses,
				  (long long)max_large_counts,
				  (long long)max_datatypes);
	return MPI_Type_get_contents(type, upto(max_integers),
				     upto(max_addresses), upto(max_datatypes),
				     integers, addresses, datatypes);
}
