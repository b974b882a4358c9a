/*
 * mpi_attr.c - attributes on communicators (MPI 3.1, sec. 6.7): keyvals
 * with copy and delete callbacks, values set, read and deleted per
 * communicator, copied by MPI_Comm_dup through the copy callback and
 * deleted through the delete callback when the communicator is freed, the
 * attribute deleted or set again, or MPI_COMM_SELF freed by MPI_Finalize.
 * MPI_COMM_WORLD carries the predefined attributes (MPI_TAG_UB, MPI_HOST,
 * MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM), read-only. The
 * MPI-1 names (MPI_Keyval_create, MPI_Attr_put, MPI_Attr_get, MPI_Attr_delete,
 * MPI_Keyval_free) are the same calls.
 *
 * Like every handle of the layer, keyvals and attributes are the rank's
 * own (thread-local), as in MPI where each process has its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

#define FIRST_KEYVAL 64 /* user keyvals: FIRST_KEYVAL + index */

struct keyval {
	MPI_Comm_copy_attr_function *copy;
	MPI_Comm_delete_attr_function *del;
	void *extra;
	int live;  /* not freed by the program */
	int users; /* attributes set with it */
};

/* One attribute: key and value on communicator handle comm. */
struct attr {
	int comm, key;
	void *value;
};

static __thread struct keyval *keyvals;
static __thread int nkeyvals;
static __thread struct attr *attrs;
static __thread int nattrs, cap_attrs;

/* the predefined attributes' values (the same on every rank) */
static const int tag_ub = VP_TAG_MAX, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE,
		 wtime_global = 1, appnum = 0;
static __thread int universe;

int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void *extra, void *in,
			  void *out, int *flag)
{
	(void)oldcomm, (void)keyval, (void)extra, (void)in, (void)out;
	*flag = 0;
	return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra, void *in,
		    void *out, int *flag)
{
	(void)oldcomm, (void)keyval, (void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *value, void *extra)
{
	(void)comm, (void)keyval, (void)value, (void)extra;
	return MPI_SUCCESS;
}

static int predefined(int key)
{
	return key == MPI_TAG_UB || key == MPI_HOST || key == MPI_IO ||
	       key == MPI_WTIME_IS_GLOBAL || key == MPI_UNIVERSE_SIZE ||
	       key == MPI_APPNUM;
}

/* The user keyval of key, or NULL after the error (named). */
static struct keyval *keyval_of(MPI_Comm h, int key, const char *call)
{
	int i = key - FIRST_KEYVAL;

	if (i >= 0 && i < nkeyvals && keyvals[i].live)
		return &keyvals[i];
	vpmpi_err(h, MPI_ERR_ARG, call,
		  key == MPI_KEYVAL_INVALID
		      ? "keyval is MPI_KEYVAL_INVALID"
		      : "keyval %d is not a keyval of this rank (freed, or "
			"never made)",
		  key);
	return NULL;
}

static struct attr *find(int comm, int key)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (attrs[i].comm == comm && attrs[i].key == key)
			return &attrs[i];
	return NULL;
}

/* Deletes attribute a through its keyval's delete callback. */
static int drop(struct attr *a, const char *call)
{
	struct keyval *k = &keyvals[a->key - FIRST_KEYVAL];
	int comm = a->comm, key = a->key, rc = MPI_SUCCESS;
	void *value = a->value;

	*a = attrs[--nattrs]; /* the callback may set other attributes */
	if (k->del)
		rc = k->del(comm, key, value, k->extra);
	k->users--;
	if (rc != MPI_SUCCESS)
		return vpmpi_err(comm, MPI_ERR_OTHER, call,
				 "the delete callback of keyval %d returned "
				 "%d",
				 key, rc);
	return MPI_SUCCESS;
}

static int put(int comm, int key, void *value, const char *call)
{
	struct attr *a = find(comm, key);
	int rc;

	/* MPI 3.1 sec. 6.7.2: a value already there is deleted first,
	 * through its delete callback */
	if (a && (rc = drop(a, call)))
		return rc;
	if (nattrs == cap_attrs) {
		int cap = cap_attrs ? 2 * cap_attrs : 16;
		struct attr *more = realloc(attrs, (size_t)cap * sizeof(*more));

		if (!more)
			return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
					 "no memory for %d attributes", cap);
		attrs = more;
		cap_attrs = cap;
	}
	attrs[nattrs++] = (struct attr){ comm, key, value };
	keyvals[key - FIRST_KEYVAL].users++;
	return MPI_SUCCESS;
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
			   MPI_Comm_delete_attr_function *delete_fn,
			   int *keyval, void *extra_state)
{
	static const char call[] = "MPI_Comm_create_keyval";
	struct keyval *more;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!keyval)
		return vpmpi_fail(MPI_ERR_ARG, call, "keyval is NULL");
	more = realloc(keyvals, (size_t)(nkeyvals + 1) * sizeof(*more));
	if (!more)
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for %d keyvals", nkeyvals + 1);
	keyvals = more;
	keyvals[nkeyvals] =
	    (struct keyval){ copy_fn, delete_fn, extra_state, 1, 0 };
	*keyval = FIRST_KEYVAL + nkeyvals++;
	return MPI_SUCCESS;
}

int MPI_Comm_free_keyval(int *keyval)
{
	static const char call[] = "MPI_Comm_free_keyval";
	struct keyval *k;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!keyval)
		return vpmpi_fail(MPI_ERR_ARG, call, "keyval is NULL");
	if (predefined(*keyval))
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "keyval %d is predefined and cannot be "
				  "freed",
				  *keyval);
	if (!(k = keyval_of(MPI_COMM_WORLD, *keyval, call)))
		return MPI_ERR_ARG;
	k->live = 0; /* attributes set with it stay until deleted */
	*keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
	static const char call[] = "MPI_Comm_set_attr";

	if (!vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	if (predefined(keyval))
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "keyval %d is predefined: its attribute is "
				 "read-only",
				 keyval);
	if (!keyval_of(comm, keyval, call))
		return MPI_ERR_ARG;
	return put(comm, keyval, attribute_val, call);
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	static const char call[] = "MPI_Comm_get_attr";
	struct attr *a;

	if (!vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	if (!attribute_val || !flag)
		return vpmpi_err(comm, MPI_ERR_ARG, call, "the %s is NULL",
				 !flag ? "flag" : "attribute pointer");
	*flag = 0;
	if (predefined(keyval)) {
		const int *v = keyval == MPI_TAG_UB            ? &tag_ub
			       : keyval == MPI_HOST            ? &host
			       : keyval == MPI_IO              ? &io
			       : keyval == MPI_WTIME_IS_GLOBAL ? &wtime_global
			       : keyval == MPI_APPNUM          ? &appnum
							       : &universe;

		if (comm != MPI_COMM_WORLD)
			return MPI_SUCCESS; /* MPI: attached to the world */
		universe = vp_size(vpmpi_me.comm[MPI_COMM_WORLD]);
		*(const int **)attribute_val = v;
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (keyval < FIRST_KEYVAL || keyval >= FIRST_KEYVAL + nkeyvals)
		return keyval_of(comm, keyval, call) ? MPI_SUCCESS
						     : MPI_ERR_ARG;
	if ((a = find(comm, keyval))) {
		*(void **)attribute_val = a->value;
		*flag = 1;
	}
	return MPI_SUCCESS;
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
	static const char call[] = "MPI_Comm_delete_attr";
	struct attr *a;

	if (!vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	if (predefined(keyval))
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "keyval %d is predefined: its attribute "
				 "cannot be deleted",
				 keyval);
	if (!keyval_of(comm, keyval, call))
		return MPI_ERR_ARG;
	if (!(a = find(comm, keyval)))
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "communicator %d has no attribute with keyval "
				 "%d",
				 comm, keyval);
	return drop(a, call);
}

int vpmpi_attrs_copy(MPI_Comm from, MPI_Comm to)
{
	static const char call[] = "MPI_Comm_dup";
	int i, n = nattrs, rc;

	for (i = 0; i < n; i++) {
		struct attr a = attrs[i];
		struct keyval *k = &keyvals[a.key - FIRST_KEYVAL];
		void *out = NULL;
		int flag = 0;

		if (a.comm != from || !k->copy)
			continue;
		rc = k->copy(from, a.key, k->extra, a.value, &out, &flag);
		if (rc != MPI_SUCCESS)
			return vpmpi_err(from, MPI_ERR_OTHER, call,
					 "the copy callback of keyval %d "
					 "returned %d",
					 a.key, rc);
		if (flag && (rc = put(to, a.key, out, call)))
			return rc;
	}
	return MPI_SUCCESS;
}

int vpmpi_attrs_drop(MPI_Comm comm)
{
	int i, rc = MPI_SUCCESS;

	for (i = nattrs - 1; i >= 0; i--)
		if (i < nattrs && attrs[i].comm == comm && !rc)
			rc = drop(&attrs[i], "MPI_Comm_free");
	return rc;
}

void vpmpi_attrs_free(void)
{
	free(attrs);
	free(keyvals);
	attrs = NULL;
	keyvals = NULL;
	nattrs = cap_attrs = nkeyvals = 0;
}

/* ---- the MPI-1 names ---- */

int MPI_Keyval_create(MPI_Copy_function *copy_fn,
		      MPI_Delete_function *delete_fn, int *keyval,
		      void *extra_state)
{
	return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

int MPI_Keyval_free(int *keyval)
{
	return MPI_Comm_free_keyval(keyval);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
	return MPI_Comm_set_attr(comm, keyval, attribute_val);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
	return MPI_Comm_delete_attr(comm, keyval);
}
