/*
 * mpi_type_contents.c - MPI_Type_get_contents (MPI 4.0, sec. 5.1.13):
 * the arguments a derived datatype was made with. Each constructor keeps
 * its integers, addresses and datatypes (Table 5.1's order) through
 * vpmpi_type_args; a derived datatype among them is held (its refs), so
 * it outlives the program's MPI_Type_free of it. A derived datatype the
 * call returns is a new handle to a copy of the held one, which the
 * program frees as MPI requires.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

void vpmpi_type_args_free(struct vpmpi_type *t)
{
	int i;

	if (t->targs)
		for (i = 0; i < t->ntypes; i++)
			vpmpi_type_release(t->tptrs[i]);
	free(t->ints);
	free(t->addrs);
	free(t->targs);
	free(t->tptrs);
	t->ints = NULL;
	t->addrs = NULL;
	t->targs = NULL;
	t->tptrs = NULL;
}

/* Keeps the types' handles and holds the derived ones; 0 or -1. */
static int keep_types(struct vpmpi_type *t, const MPI_Datatype *types)
{
	int i, n = t->ntypes;

	t->targs = malloc(((size_t)n + 1) * sizeof(*t->targs));
	t->tptrs = calloc((size_t)n + 1, sizeof(*t->tptrs));
	if (!t->targs || !t->tptrs) {
		free(t->targs);
		t->targs = NULL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		t->targs[i] = types[i];
		if (types[i] >= VPMPI_FIRST_TYPE) {
			t->tptrs[i] = vpmpi_lookup(types[i]);
			vpmpi_type_hold(t->tptrs[i]);
		}
	}
	return 0;
}

int vpmpi_type_args(int rc, const MPI_Datatype *newtype, const int *head,
		    int nhead, const int *a, const int *b, int n,
		    const MPI_Aint *addrs, const MPI_Datatype *types)
{
	struct vpmpi_type *t;
	int k;

	if (rc != MPI_SUCCESS || !newtype || *newtype < VPMPI_FIRST_TYPE ||
	    !(t = vpmpi_lookup(*newtype)))
		return rc;
	vpmpi_type_args_free(t);
	t->ints = malloc(((size_t)t->nints + 1) * sizeof(*t->ints));
	t->addrs = malloc(((size_t)t->naddrs + 1) * sizeof(*t->addrs));
	if (!t->ints || !t->addrs || keep_types(t, types)) {
		vpmpi_type_args_free(t);
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Type_get_contents",
				  "no memory for a datatype's arguments");
	}
	for (k = 0; k < nhead && k < t->nints; k++)
		t->ints[k] = head[k];
	for (k = 0; a && k < n && nhead + k < t->nints; k++)
		t->ints[nhead + k] = a[k];
	for (k = 0; b && k < n && nhead + n + k < t->nints; k++)
		t->ints[nhead + n + k] = b[k];
	if (t->naddrs)
		memcpy(t->addrs, addrs, (size_t)t->naddrs * sizeof(*addrs));
	return rc;
}

/* A new handle to a copy of derived type t (its typemap, committed state
 * and arguments): MPI_SUCCESS or the error. */
static int type_copy(const struct vpmpi_type *t, MPI_Datatype *out,
		     const char *call)
{
	struct vpmpi_type *c = malloc(sizeof(*c));
	size_t nb = (size_t)t->nblocks * sizeof(*t->blocks);

	if (!c)
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	*c = *t;
	c->refs = c->freed = 0;
	c->ints = NULL;
	c->addrs = NULL;
	c->targs = NULL;
	c->tptrs = NULL;
	c->blocks = malloc(nb + sizeof(*t->blocks));
	if (!c->blocks) {
		free(c);
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	}
	if (nb)
		memcpy(c->blocks, t->blocks, nb);
	if (vpmpi_type_put(c, out, call))
		return MPI_ERR_NO_MEM;
	return t->targs ? vpmpi_type_args(MPI_SUCCESS, out, t->ints, t->nints,
					  NULL, NULL, 0, t->addrs, t->targs)
			: MPI_SUCCESS;
}

int MPI_Type_get_contents(MPI_Datatype type, int max_integers,
			  int max_addresses, int max_datatypes,
			  int integers[], MPI_Aint addresses[],
			  MPI_Datatype datatypes[])
{
	static const char call[] = "MPI_Type_get_contents";
	const struct vpmpi_type *t;
	int i, rc;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!(t = vpmpi_type_any(type, call)))
		return MPI_ERR_TYPE;
	if (type < VPMPI_FIRST_TYPE)
		return vpmpi_fail(MPI_ERR_TYPE, call,
				  "%s is predefined (MPI_COMBINER_NAMED): it "
				  "has no contents",
				  vpmpi_type_name(type));
	if (max_integers < t->nints || max_addresses < t->naddrs ||
	    max_datatypes < t->ntypes)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "room for %d integers, %d addresses and %d "
				  "datatypes; datatype %d has %d, %d and %d",
				  max_integers, max_addresses, max_datatypes,
				  type, t->nints, t->naddrs, t->ntypes);
	if (!t->targs)
		return vpmpi_fail(MPI_ERR_INTERN, call,
				  "datatype %d's arguments were not kept",
				  type);
	if (t->nints)
		memcpy(integers, t->ints, (size_t)t->nints * sizeof(int));
	if (t->naddrs)
		memcpy(addresses, t->addrs,
		       (size_t)t->naddrs * sizeof(MPI_Aint));
	for (i = 0; i < t->ntypes; i++) {
		datatypes[i] = t->targs[i];
		if (t->tptrs[i] &&
		    (rc = type_copy(t->tptrs[i], &datatypes[i], call)))
			return rc;
	}
	return MPI_SUCCESS;
}

int vpmpi_type_args_ints(int rc, const MPI_Datatype *newtype,
			 MPI_Datatype old, const int *const segs[],
			 const int lens[], int nsegs)
{
	int *all, total = 0, k, at = 0;

	if (rc != MPI_SUCCESS)
		return rc;
	for (k = 0; k < nsegs; k++)
		total += lens[k];
	if (!(all = malloc(((size_t)total + 1) * sizeof(*all))))
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Type_get_contents",
				  "no memory for a datatype's arguments");
	for (k = 0; k < nsegs; k++) {
		if (lens[k])
			memcpy(all + at, segs[k], (size_t)lens[k] * sizeof(int));
		at += lens[k];
	}
	rc = vpmpi_type_args(rc, newtype, all, total, NULL, NULL, 0, NULL,
			     &old);
	free(all);
	return rc;
}
