/*
 * mpi_name.c - names of communicators, datatypes and windows (MPI 4.0,
 * sec. 7.10): a name is a string of fewer than MPI_MAX_OBJECT_NAME
 * characters (a longer one is truncated), local to the rank and not
 * copied by MPI_Comm_dup or MPI_Type_dup. Without a set name,
 * MPI_COMM_WORLD and MPI_COMM_SELF are named so, a predefined datatype by
 * its MPI name ("MPI_INT"), and anything else by the empty string.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

struct name {
	int kind, handle; /* kind 0 with handle 0: a free slot */
	char s[MPI_MAX_OBJECT_NAME];
};

static __thread struct name *names;
static __thread int nnames;

static struct name *find(int kind, int handle)
{
	int i;

	for (i = 0; i < nnames; i++)
		if (names[i].kind == kind && names[i].handle == handle)
			return &names[i];
	return NULL;
}

/* Names the object: MPI_SUCCESS or the error. */
static int set(int kind, int handle, const char *s, const char *call)
{
	struct name *n = find(kind, handle), *more;

	if (!s)
		return vpmpi_fail(MPI_ERR_ARG, call, "the name is NULL");
	if (!n)
		n = find(0, 0);
	if (!n) { /* the table doubles */
		int cap = nnames ? 2 * nnames : 8;

		more = realloc(names, (size_t)cap * sizeof(*more));
		if (!more)
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for a name");
		memset(more + nnames, 0, (size_t)(cap - nnames) * sizeof(*more));
		names = more;
		n = &names[nnames];
		nnames = cap;
	}
	n->kind = kind;
	n->handle = handle;
	snprintf(n->s, sizeof(n->s), "%s", s);
	return MPI_SUCCESS;
}

/* The object's name (dflt when none was set) into out. */
static int get(int kind, int handle, const char *dflt, char *out, int *len,
	       const char *call)
{
	struct name *n = find(kind, handle);

	if (!out || !len)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the name or resultlen pointer is NULL");
	snprintf(out, MPI_MAX_OBJECT_NAME, "%s", n ? n->s : dflt);
	*len = (int)strlen(out);
	return MPI_SUCCESS;
}

void vpmpi_name_drop(int kind, int handle)
{
	struct name *n = find(kind, handle);

	if (n)
		memset(n, 0, sizeof(*n));
}

void vpmpi_names_free(void)
{
	free(names);
	names = NULL;
	nnames = 0;
}

int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
	if (!vpmpi_is_inter(comm) && !vpmpi_comm(comm, "MPI_Comm_set_name"))
		return MPI_ERR_COMM;
	return set(VPMPI_NAME_COMM, comm, name, "MPI_Comm_set_name");
}

int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
	if (!vpmpi_is_inter(comm) && !vpmpi_comm(comm, "MPI_Comm_get_name"))
		return MPI_ERR_COMM;
	return get(VPMPI_NAME_COMM, comm,
		   comm == MPI_COMM_WORLD  ? "MPI_COMM_WORLD"
		   : comm == MPI_COMM_SELF ? "MPI_COMM_SELF"
					   : "",
		   name, resultlen, "MPI_Comm_get_name");
}

int MPI_Type_set_name(MPI_Datatype type, const char *name)
{
	if (vpmpi_started("MPI_Type_set_name"))
		return MPI_ERR_OTHER;
	if (!vpmpi_type_any(type, "MPI_Type_set_name"))
		return MPI_ERR_TYPE;
	return set(VPMPI_NAME_TYPE, type, name, "MPI_Type_set_name");
}

int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen)
{
	if (vpmpi_started("MPI_Type_get_name"))
		return MPI_ERR_OTHER;
	if (!vpmpi_type_any(type, "MPI_Type_get_name"))
		return MPI_ERR_TYPE;
	return get(VPMPI_NAME_TYPE, type,
		   type < VPMPI_FIRST_TYPE ? vpmpi_type_name(type) : "", name,
		   resultlen, "MPI_Type_get_name");
}

static int check_win(MPI_Win win, const char *call)
{
	void *base;
	MPI_Aint size;
	int unit, flavor;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (vpmpi_win_query(win, &base, &size, &unit, &flavor))
		return vpmpi_fail(MPI_ERR_WIN, call,
				  "window %d is not a live window of this "
				  "rank",
				  win);
	return MPI_SUCCESS;
}

int MPI_Win_set_name(MPI_Win win, const char *name)
{
	int rc = check_win(win, "MPI_Win_set_name");

	return rc ? rc : set(VPMPI_NAME_WIN, win, name, "MPI_Win_set_name");
}

int MPI_Win_get_name(MPI_Win win, char *name, int *resultlen)
{
	int rc = check_win(win, "MPI_Win_get_name");

	return rc ? rc
		  : get(VPMPI_NAME_WIN, win, "", name, resultlen,
			"MPI_Win_get_name");
}
