/*
 * mpi_win_attr.c - attributes on windows (MPI 4.0, sec. 7.7.3): keyvals
 * with copy and delete callbacks (the copy callback is kept but never
 * called: MPI has no call that duplicates a window), values set, read and
 * deleted per window, deleted through the delete callback when the window
 * is freed, the attribute deleted or set again. Every window carries the
 * predefined attributes of sec. 12.2.6, read-only: MPI_WIN_BASE (the base
 * address itself), MPI_WIN_SIZE (a pointer to its MPI_Aint size),
 * MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL (pointers to
 * int; the model is MPI_WIN_SEPARATE, the one that asks the program for
 * the synchronization vp's windows need).
 *
 * Window keyvals are numbered apart from communicator keyvals, so that one
 * is not taken for the other. Like every handle of the layer, keyvals and
 * attributes are the rank's own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

#define FIRST_KEYVAL 4096 /* window keyvals: FIRST_KEYVAL + index */

struct keyval {
	MPI_Win_copy_attr_function *copy;
	MPI_Win_delete_attr_function *del;
	void *extra;
	int live;
};

/* One attribute: key and value on window win. */
struct attr {
	int win, key;
	void *value;
};

/* the predefined attributes' values of one window (their addresses are
 * what MPI_Win_get_attr returns) */
struct predef {
	int win;
	MPI_Aint size;
	int unit, flavor, model;
	struct predef *next;
};

static __thread struct keyval *keyvals;
static __thread int nkeyvals;
static __thread struct attr *attrs;
static __thread int nattrs;
static __thread struct predef *predefs;

int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int keyval, void *extra, void *in,
			 void *out, int *flag)
{
	(void)oldwin, (void)keyval, (void)extra, (void)in, (void)out;
	*flag = 0;
	return MPI_SUCCESS;
}

int MPI_WIN_DUP_FN(MPI_Win oldwin, int keyval, void *extra, void *in,
		   void *out, int *flag)
{
	(void)oldwin, (void)keyval, (void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int keyval, void *value, void *extra)
{
	(void)win, (void)keyval, (void)value, (void)extra;
	return MPI_SUCCESS;
}

static int predefined(int key)
{
	return key >= MPI_WIN_BASE && key <= MPI_WIN_MODEL;
}

static int check_win(MPI_Win win, const char *call)
{
	void *b;
	MPI_Aint s;
	int u, f;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (vpmpi_win_query(win, &b, &s, &u, &f))
		return vpmpi_fail(MPI_ERR_WIN, call,
				  win == MPI_WIN_NULL
				      ? "the window is MPI_WIN_NULL"
				      : "window %d is not a live window of "
					"this rank",
				  win);
	return MPI_SUCCESS;
}

/* The user keyval of key, or NULL after the error (named). */
static struct keyval *keyval_of(int key, const char *call)
{
	int i = key - FIRST_KEYVAL;

	if (i >= 0 && i < nkeyvals && keyvals[i].live)
		return &keyvals[i];
	vpmpi_fail(MPI_ERR_KEYVAL, call,
		   key == MPI_KEYVAL_INVALID
		       ? "keyval is MPI_KEYVAL_INVALID"
		       : "keyval %d is not a window keyval of this rank "
			 "(freed, never made, or a communicator's)",
		   key);
	return NULL;
}

static struct attr *find(int win, int key)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (attrs[i].win == win && attrs[i].key == key)
			return &attrs[i];
	return NULL;
}

/* Deletes attribute a through its keyval's delete callback. */
static int drop(struct attr *a, const char *call)
{
	struct keyval *k = &keyvals[a->key - FIRST_KEYVAL];
	int win = a->win, key = a->key, rc = MPI_SUCCESS;
	void *value = a->value;

	*a = attrs[--nattrs]; /* the callback may set other attributes */
	if (k->del)
		rc = k->del(win, key, value, k->extra);
	if (rc != MPI_SUCCESS)
		return vpmpi_fail(MPI_ERR_OTHER, call,
				  "the delete callback of keyval %d returned "
				  "%d",
				  key, rc);
	return MPI_SUCCESS;
}

int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
			  MPI_Win_delete_attr_function *delete_fn,
			  int *keyval, void *extra_state)
{
	static const char call[] = "MPI_Win_create_keyval";
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
	keyvals[nkeyvals] = (struct keyval){ copy_fn, delete_fn, extra_state, 1 };
	*keyval = FIRST_KEYVAL + nkeyvals++;
	return MPI_SUCCESS;
}

int MPI_Win_free_keyval(int *keyval)
{
	static const char call[] = "MPI_Win_free_keyval";
	struct keyval *k;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!keyval)
		return vpmpi_fail(MPI_ERR_ARG, call, "keyval is NULL");
	if (predefined(*keyval))
		return vpmpi_fail(MPI_ERR_KEYVAL, call,
				  "keyval %d is predefined and cannot be "
				  "freed",
				  *keyval);
	if (!(k = keyval_of(*keyval, call)))
		return MPI_ERR_KEYVAL;
	k->live = 0; /* attributes set with it stay until deleted */
	*keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

int MPI_Win_set_attr(MPI_Win win, int keyval, void *attribute_val)
{
	static const char call[] = "MPI_Win_set_attr";
	struct attr *a, *more;
	int rc;

	if ((rc = check_win(win, call)))
		return rc;
	if (predefined(keyval))
		return vpmpi_fail(MPI_ERR_KEYVAL, call,
				  "keyval %d is predefined: its attribute is "
				  "read-only",
				  keyval);
	if (!keyval_of(keyval, call))
		return MPI_ERR_KEYVAL;
	/* a value already there is deleted first, through its callback */
	if ((a = find(win, keyval)) && (rc = drop(a, call)))
		return rc;
	more = realloc(attrs, (size_t)(nattrs + 1) * sizeof(*more));
	if (!more)
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for an attribute");
	attrs = more;
	attrs[nattrs++] = (struct attr){ win, keyval, attribute_val };
	return MPI_SUCCESS;
}

/* The predefined values of window win, made at the first query. */
static struct predef *predef_of(MPI_Win win, const char *call)
{
	struct predef *p;
	void *base;

	for (p = predefs; p; p = p->next)
		if (p->win == win)
			return p;
	if (!(p = calloc(1, sizeof(*p)))) {
		vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for an attribute");
		return NULL;
	}
	vpmpi_win_query(win, &base, &p->size, &p->unit, &p->flavor);
	p->win = win;
	p->model = MPI_WIN_SEPARATE;
	p->next = predefs;
	predefs = p;
	return p;
}

int MPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag)
{
	static const char call[] = "MPI_Win_get_attr";
	struct predef *p;
	struct attr *a;
	void *base;
	int rc;

	if ((rc = check_win(win, call)))
		return rc;
	if (!attribute_val || !flag)
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s is NULL",
				  !flag ? "flag" : "attribute pointer");
	*flag = 0;
	if (predefined(keyval)) {
		if (!(p = predef_of(win, call)))
			return MPI_ERR_NO_MEM;
		vpmpi_win_query(win, &base, &p->size, &p->unit, &p->flavor);
		*(void **)attribute_val =
		    keyval == MPI_WIN_BASE	    ? base
		    : keyval == MPI_WIN_SIZE	    ? (void *)&p->size
		    : keyval == MPI_WIN_DISP_UNIT   ? (void *)&p->unit
		    : keyval == MPI_WIN_CREATE_FLAVOR ? (void *)&p->flavor
						      : (void *)&p->model;
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (keyval < FIRST_KEYVAL || keyval >= FIRST_KEYVAL + nkeyvals)
		return keyval_of(keyval, call) ? MPI_SUCCESS : MPI_ERR_KEYVAL;
	if ((a = find(win, keyval))) {
		*(void **)attribute_val = a->value;
		*flag = 1;
	}
	return MPI_SUCCESS;
}

int MPI_Win_delete_attr(MPI_Win win, int keyval)
{
	static const char call[] = "MPI_Win_delete_attr";
	struct attr *a;
	int rc;

	if ((rc = check_win(win, call)))
		return rc;
	if (predefined(keyval))
		return vpmpi_fail(MPI_ERR_KEYVAL, call,
				  "keyval %d is predefined: its attribute "
				  "cannot be deleted",
				  keyval);
	if (!keyval_of(keyval, call))
		return MPI_ERR_KEYVAL;
	if (!(a = find(win, keyval)))
		return vpmpi_fail(MPI_ERR_KEYVAL, call,
				  "window %d has no attribute with keyval %d",
				  win, keyval);
	return drop(a, call);
}

int vpmpi_win_attrs_drop(MPI_Win win)
{
	struct predef **pp, *p;
	int i, rc = MPI_SUCCESS;

	for (i = nattrs - 1; i >= 0; i--)
		if (i < nattrs && attrs[i].win == win && !rc)
			rc = drop(&attrs[i], "MPI_Win_free");
	for (pp = &predefs; (p = *pp);)
		if (p->win == win) {
			*pp = p->next;
			free(p);
		} else {
			pp = &p->next;
		}
	return rc;
}

void vpmpi_win_attrs_free(void)
{
	struct predef *p;

	while ((p = predefs)) {
		predefs = p->next;
		free(p);
	}
	free(attrs);
	free(keyvals);
	attrs = NULL;
	keyvals = NULL;
	nattrs = nkeyvals = 0;
}
