/*
 * mpi_attr_store.c - the attribute store behind communicator, window and
 * datatype attributes (MPI 4.0, sec. 7.7): keyvals with their copy and
 * delete callbacks, and each object's attributes in the order they were
 * set.
 *
 * - One numbering for the keyvals of every kind (from FIRST_KEYVAL, above
 *   every predefined keyval); each keyval remembers its kind, so a
 *   window's keyval used on a communicator fails with MPI_ERR_KEYVAL.
 * - A keyval freed by the program (MPI_Comm_free_keyval and the others)
 *   lives on while attributes use it: they stay, their copy and delete
 *   callbacks still run, and the keyval's number still names it (to read
 *   or delete them, or free it again, as MPICH and Open MPI allow) until
 *   its last attribute goes (sec. 7.7.2); then it is gone, and naming it
 *   is an error. Keyval numbers are never reused.
 * - Setting a value that is already there deletes the old one through the
 *   delete callback first; a delete callback that fails leaves the
 *   attribute in place and fails the call (sec. 7.7.4).
 * - Freeing an object deletes its attributes in the reverse order of
 *   setting (last set, first deleted), the order sec. 11.2.4 requires of
 *   MPI_COMM_SELF at MPI_Finalize and MPICH and Open MPI keep for every
 *   object.
 * - Predefined attributes (MPI_TAG_UB, MPI_WIN_BASE ...) are not stored:
 *   each kind's predef function (mpi_attr.c, mpi_win_attr.c) answers for
 *   them, and the store refuses to set or delete them.
 *
 * Like every handle of the layer, keyvals and attributes are the rank's
 * own (thread-local), as in MPI where each process has its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

#define FIRST_KEYVAL 65536 /* user keyvals: FIRST_KEYVAL + index */

struct keyval {
	int kind; /* VPMPI_ATTR_COMM, _WIN or _TYPE */
	vpmpi_copy_attr_fn *copy;
	vpmpi_delete_attr_fn *del;
	void *extra;
	int freed; /* the program freed it: it can no longer be named */
	int users; /* attributes set with it */
};

/* One attribute: its value under keyval key on object obj of a kind. */
struct attr {
	int kind, obj, key;
	void *value;
};

static __thread struct keyval *keyvals;
static __thread int nkeyvals, cap_keyvals; /* the table doubles */
static __thread struct attr *attrs; /* in the order they were set */
static __thread int nattrs, cap_attrs;

static const char *const kind_name[] = {
    [VPMPI_ATTR_COMM] = "communicator",
    [VPMPI_ATTR_WIN] = "window",
    [VPMPI_ATTR_TYPE] = "datatype",
};

/* Raises an error of class cls on the handler that governs obj: a
 * communicator's own, else MPI_COMM_WORLD's. Returns cls. */
static int raise(int kind, int obj, int cls, const char *call,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int raise(int kind, int obj, int cls, const char *call,
		 const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vpmpi_err(kind == VPMPI_ATTR_COMM ? obj : MPI_COMM_WORLD, cls,
			 call, "%s", msg);
}

/* A kind's predefined attribute: 1 when key is one (*value and *flag
 * set), else 0. */
static int predef(int kind, int obj, int key, void **value, int *flag)
{
	switch (kind) {
	case VPMPI_ATTR_COMM:
		return vpmpi_comm_attr_predef(obj, key, value, flag);
	case VPMPI_ATTR_WIN:
		return vpmpi_win_attr_predef(obj, key, value, flag);
	default:
		return 0;
	}
}

/* The live keyval key of kind, or NULL after the error (named). */
static struct keyval *keyval_of(int kind, int obj, int key, const char *call)
{
	int i = key - FIRST_KEYVAL;

	if (i >= 0 && i < nkeyvals && keyvals[i].kind == kind &&
	    (!keyvals[i].freed || keyvals[i].users))
		return &keyvals[i];
	if (key == MPI_KEYVAL_INVALID)
		raise(kind, obj, MPI_ERR_KEYVAL, call,
		      "keyval is MPI_KEYVAL_INVALID");
	else if (i >= 0 && i < nkeyvals &&
		 (!keyvals[i].freed || keyvals[i].users))
		raise(kind, obj, MPI_ERR_KEYVAL, call,
		      "keyval %d is a %s keyval, not a %s keyval", key,
		      kind_name[keyvals[i].kind], kind_name[kind]);
	else
		raise(kind, obj, MPI_ERR_KEYVAL, call,
		      "keyval %d is not a %s keyval of this rank (%s)", key,
		      kind_name[kind],
		      i >= 0 && i < nkeyvals ? "freed" : "never made");
	return NULL;
}

static int find(int kind, int obj, int key)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (attrs[i].obj == obj && attrs[i].key == key &&
		    attrs[i].kind == kind)
			return i;
	return -1;
}

/* A callback's failure as the call's error: its own code when it is an
 * error code, else MPI_ERR_OTHER. */
static int callback_failed(int kind, int obj, int rc, const char *what,
			   int key, const char *call)
{
	return raise(kind, obj, rc > 0 ? rc : MPI_ERR_OTHER, call,
		     "the %s callback of keyval %d returned %d", what, key,
		     rc);
}

/* Deletes attribute i through its keyval's delete callback; the attribute
 * stays when the callback fails. */
static int drop(int i, const char *call)
{
	struct attr a = attrs[i];
	struct keyval *k = &keyvals[a.key - FIRST_KEYVAL];
	int rc = MPI_SUCCESS;

	if (k->del)
		rc = k->del(a.obj, a.key, a.value, k->extra);
	if (rc != MPI_SUCCESS)
		return callback_failed(a.kind, a.obj, rc, "delete", a.key,
				       call);
	/* the callback may have set or deleted other attributes */
	if ((i = find(a.kind, a.obj, a.key)) >= 0) {
		memmove(&attrs[i], &attrs[i + 1],
			(size_t)(nattrs - i - 1) * sizeof(*attrs));
		nattrs--;
		k->users--;
	}
	return MPI_SUCCESS;
}

static int put(int kind, int obj, int key, void *value, const char *call)
{
	int i = find(kind, obj, key), rc;

	if (i >= 0) {
		/* sec. 7.7.4: the old value goes through its delete
		 * callback first */
		if ((rc = drop(i, call)))
			return rc;
	}
	if (nattrs == cap_attrs) {
		int cap = cap_attrs ? 2 * cap_attrs : 16;
		struct attr *more = realloc(attrs, (size_t)cap * sizeof(*more));

		if (!more)
			return raise(kind, obj, MPI_ERR_NO_MEM, call,
				     "no memory for %d attributes", cap);
		attrs = more;
		cap_attrs = cap;
	}
	attrs[nattrs++] = (struct attr){ kind, obj, key, value };
	keyvals[key - FIRST_KEYVAL].users++;
	return MPI_SUCCESS;
}

int vpmpi_keyval_create(int kind, vpmpi_copy_attr_fn *copy,
			vpmpi_delete_attr_fn *del, int *keyval, void *extra,
			const char *call)
{
	struct keyval *more;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!keyval)
		return vpmpi_fail(MPI_ERR_ARG, call, "keyval is NULL");
	if (nkeyvals == cap_keyvals) {
		int cap = cap_keyvals ? 2 * cap_keyvals : 16;

		more = realloc(keyvals, (size_t)cap * sizeof(*more));
		if (!more)
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for %d keyvals",
					  nkeyvals + 1);
		keyvals = more;
		cap_keyvals = cap;
	}
	keyvals[nkeyvals] = (struct keyval){ kind, copy, del, extra, 0, 0 };
	*keyval = FIRST_KEYVAL + nkeyvals++;
	return MPI_SUCCESS;
}

int vpmpi_keyval_free(int kind, int *keyval, const char *call)
{
	void *v;
	int flag;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!keyval)
		return vpmpi_fail(MPI_ERR_ARG, call, "keyval is NULL");
	if (predef(kind, MPI_COMM_NULL, *keyval, &v, &flag))
		return vpmpi_fail(MPI_ERR_KEYVAL, call,
				  "keyval %d is predefined and cannot be "
				  "freed",
				  *keyval);
	if (!keyval_of(kind, MPI_COMM_WORLD, *keyval, call))
		return MPI_ERR_KEYVAL;
	/* its attributes keep it alive: their callbacks still run */
	keyvals[*keyval - FIRST_KEYVAL].freed = 1;
	*keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

int vpmpi_attr_set(int kind, int obj, int keyval, void *value,
		   const char *call)
{
	void *v;
	int flag;

	if (predef(kind, obj, keyval, &v, &flag))
		return raise(kind, obj, MPI_ERR_KEYVAL, call,
			     "keyval %d is predefined: its attribute is "
			     "read-only",
			     keyval);
	if (!keyval_of(kind, obj, keyval, call))
		return MPI_ERR_KEYVAL;
	return put(kind, obj, keyval, value, call);
}

int vpmpi_attr_get(int kind, int obj, int keyval, void *value, int *flag,
		   const char *call)
{
	void *v = NULL;
	int i;

	if (!value || !flag)
		return raise(kind, obj, MPI_ERR_ARG, call, "the %s is NULL",
			     !flag ? "flag" : "attribute pointer");
	*flag = 0;
	if (predef(kind, obj, keyval, &v, flag)) {
		if (*flag)
			*(void **)value = v;
		return MPI_SUCCESS;
	}
	if (!keyval_of(kind, obj, keyval, call))
		return MPI_ERR_KEYVAL;
	if ((i = find(kind, obj, keyval)) >= 0) {
		*(void **)value = attrs[i].value;
		*flag = 1;
	}
	return MPI_SUCCESS;
}

int vpmpi_attr_delete(int kind, int obj, int keyval, const char *call)
{
	void *v;
	int flag, i;

	if (predef(kind, obj, keyval, &v, &flag))
		return raise(kind, obj, MPI_ERR_KEYVAL, call,
			     "keyval %d is predefined: its attribute cannot "
			     "be deleted",
			     keyval);
	if (!keyval_of(kind, obj, keyval, call))
		return MPI_ERR_KEYVAL;
	if ((i = find(kind, obj, keyval)) < 0)
		return raise(kind, obj, MPI_ERR_KEYVAL, call,
			     "%s %d has no attribute with keyval %d",
			     kind_name[kind], obj, keyval);
	return drop(i, call);
}

int vpmpi_attr_copy_all(int kind, int from, int to, const char *call)
{
	int i, rc, n = nattrs;

	for (i = 0; i < n && i < nattrs; i++) {
		struct attr a = attrs[i];
		struct keyval *k = &keyvals[a.key - FIRST_KEYVAL];
		void *out = NULL;
		int flag = 0;

		if (a.kind != kind || a.obj != from || !k->copy)
			continue;
		rc = k->copy(from, a.key, k->extra, a.value, &out, &flag);
		if (rc != MPI_SUCCESS)
			return callback_failed(kind, from, rc, "copy", a.key,
					       call);
		if (flag && (rc = put(kind, to, a.key, out, call)))
			return rc;
	}
	return MPI_SUCCESS;
}

int vpmpi_attr_drop_all(int kind, int obj, const char *call)
{
	int i, rc;

	/* last set, first deleted; a callback may change the list */
	for (i = nattrs - 1; i >= 0; i--) {
		if (i >= nattrs)
			i = nattrs - 1;
		if (i < 0)
			break;
		if (attrs[i].kind == kind && attrs[i].obj == obj &&
		    (rc = drop(i, call)))
			return rc;
	}
	return MPI_SUCCESS;
}

void vpmpi_attr_forget(int kind, int obj)
{
	int i, n = 0;

	for (i = 0; i < nattrs; i++)
		if (attrs[i].kind == kind && attrs[i].obj == obj)
			keyvals[attrs[i].key - FIRST_KEYVAL].users--;
		else
			attrs[n++] = attrs[i];
	nattrs = n;
}

void vpmpi_attr_store_free(void)
{
	free(attrs);
	free(keyvals);
	attrs = NULL;
	keyvals = NULL;
	nattrs = cap_attrs = nkeyvals = cap_keyvals = 0;
}
