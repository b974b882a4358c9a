/*
 * mpi_error_class.c - error classes, codes and strings a program adds
 * (MPI 4.0, sec. 9.5): MPI_Add_error_class makes a class, MPI_Add_error_code
 * a code of a class (a predefined class or an added one), MPI_Add_error_string
 * the string MPI_Error_string gives for an added class or code. Added values
 * are numbered from MPI_ERR_LASTCODE + 1 up; MPI_LASTUSEDCODE, an attribute
 * of MPI_COMM_WORLD, is the largest so far (MPI_ERR_LASTCODE before any).
 * MPI_Error_class gives an added code's class.
 *
 * The calls are local, as in MPI: each rank numbers its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

/* One added value: its class (itself for a class) and its string. */
struct added {
	int cls;
	char *string;
};

static __thread struct added *added; /* code - MPI_ERR_LASTCODE - 1 */
static __thread int nadded, cap_added; /* the table doubles */
static __thread int last_used;

const int *vpmpi_last_used_code(void)
{
	last_used = MPI_ERR_LASTCODE + nadded;
	return &last_used;
}

int vpmpi_error_added(int code, int *cls, const char **string)
{
	int i = code - MPI_ERR_LASTCODE - 1;

	if (i < 0 || i >= nadded)
		return 0;
	*cls = added[i].cls;
	*string = added[i].string;
	return 1;
}

/* A new value of class cls (-1: a new class, its own) in *out. */
static int add(int cls, int *out, const char *call)
{
	int cap = cap_added ? 2 * cap_added : 8;
	struct added *more;

	if (nadded == cap_added) {
		more = realloc(added, (size_t)cap * sizeof(*more));
		if (!more)
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for %d added error values",
					  nadded + 1);
		added = more;
		cap_added = cap;
	}
	*out = MPI_ERR_LASTCODE + 1 + nadded;
	added[nadded++] = (struct added){ cls < 0 ? *out : cls, NULL };
	return MPI_SUCCESS;
}

/* 1 if cls is a class: predefined, or added as a class */
static int is_class(int cls)
{
	int i = cls - MPI_ERR_LASTCODE - 1;

	if (cls >= 0 && cls <= MPI_ERR_LASTCODE)
		return 1;
	return i >= 0 && i < nadded && added[i].cls == cls;
}

int MPI_Add_error_class(int *errorclass)
{
	static const char call[] = "MPI_Add_error_class";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!errorclass)
		return vpmpi_fail(MPI_ERR_ARG, call, "errorclass is NULL");
	return add(-1, errorclass, call);
}

int MPI_Add_error_code(int errorclass, int *errorcode)
{
	static const char call[] = "MPI_Add_error_code";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!errorcode)
		return vpmpi_fail(MPI_ERR_ARG, call, "errorcode is NULL");
	if (!is_class(errorclass))
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "%d is not an error class (predefined, or "
				  "made by MPI_Add_error_class)",
				  errorclass);
	return add(errorclass, errorcode, call);
}

int MPI_Add_error_string(int errorcode, const char *string)
{
	static const char call[] = "MPI_Add_error_string";
	int i = errorcode - MPI_ERR_LASTCODE - 1;
	size_t len;
	char *copy;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (i < 0 || i >= nadded)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "%d is not an error class or code added by "
				  "the program (MPI 4.0 sec. 9.5: the "
				  "predefined ones keep their strings)",
				  errorcode);
	if (!string || (len = strlen(string)) >= MPI_MAX_ERROR_STRING)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  string ? "the string's %zu characters "
					   "exceed MPI_MAX_ERROR_STRING - 1"
					 : "the string is NULL%.0zu",
				  string ? len : 0);
	if (!(copy = malloc(len + 1)))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for an error string");
	memcpy(copy, string, len + 1);
	free(added[i].string);
	added[i].string = copy;
	return MPI_SUCCESS;
}

void vpmpi_error_classes_free(void)
{
	int i;

	for (i = 0; i < nadded; i++)
		free(added[i].string);
	free(added);
	added = NULL;
	nadded = cap_added = 0;
}
