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
 * Keyvals and attributes live in the layer's attribute store
 * (mpi_attr_store.c), which knows a window keyval from a communicator's;
 * vpmpi_win_attr_predef answers for the predefined keys.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

/* the predefined attributes' values of one window (their addresses are
 * what MPI_Win_get_attr returns) */
struct predef {
	int win;
	MPI_Aint size;
	int unit, flavor, model;
	struct predef *next;
};

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

/* The predefined values of window win, made at the first query (NULL
 * without memory). */
static struct predef *predef_of(MPI_Win win)
{
	struct predef *p;

	for (p = predefs; p; p = p->next)
		if (p->win == win)
			return p;
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	p->win = win;
	p->model = MPI_WIN_UNIFIED; /* the ranks share memory */
	p->next = predefs;
	predefs = p;
	return p;
}

int vpmpi_win_attr_predef(int win, int keyval, void **value, int *flag)
{
	struct predef *p;
	void *base;

	if (keyval < MPI_WIN_BASE || keyval > MPI_WIN_MODEL)
		return 0;
	*flag = 0;
	if (!(p = predef_of(win)) ||
	    vpmpi_win_query(win, &base, &p->size, &p->unit, &p->flavor))
		return 1;
	*value = keyval == MPI_WIN_BASE		   ? base
		 : keyval == MPI_WIN_SIZE	   ? (void *)&p->size
		 : keyval == MPI_WIN_DISP_UNIT	   ? (void *)&p->unit
		 : keyval == MPI_WIN_CREATE_FLAVOR ? (void *)&p->flavor
						   : (void *)&p->model;
	*flag = 1;
	return 1;
}

int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
			  MPI_Win_delete_attr_function *delete_fn,
			  int *keyval, void *extra_state)
{
	return vpmpi_keyval_create(VPMPI_ATTR_WIN, copy_fn, delete_fn, keyval,
				   extra_state, "MPI_Win_create_keyval");
}

int MPI_Win_free_keyval(int *keyval)
{
	return vpmpi_keyval_free(VPMPI_ATTR_WIN, keyval, "MPI_Win_free_keyval");
}

int MPI_Win_set_attr(MPI_Win win, int keyval, void *attribute_val)
{
	static const char call[] = "MPI_Win_set_attr";
	int rc;

	if ((rc = check_win(win, call)))
		return rc;
	return vpmpi_attr_set(VPMPI_ATTR_WIN, win, keyval, attribute_val,
			      call);
}

int MPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag)
{
	static const char call[] = "MPI_Win_get_attr";
	int rc;

	if ((rc = check_win(win, call)))
		return rc;
	return vpmpi_attr_get(VPMPI_ATTR_WIN, win, keyval, attribute_val, flag,
			      call);
}

int MPI_Win_delete_attr(MPI_Win win, int keyval)
{
	static const char call[] = "MPI_Win_delete_attr";
	int rc;

	if ((rc = check_win(win, call)))
		return rc;
	return vpmpi_attr_delete(VPMPI_ATTR_WIN, win, keyval, call);
}

int vpmpi_win_attrs_drop(MPI_Win win)
{
	struct predef **pp, *p;
	int rc = vpmpi_attr_drop_all(VPMPI_ATTR_WIN, win, "MPI_Win_free");

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
}
