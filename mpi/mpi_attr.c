/*
 * mpi_attr.c - attributes on communicators (MPI 4.0, sec. 7.7), kept in
 * the layer's attribute store (mpi_attr_store.c): keyvals with copy and
 * delete callbacks, values set, read and deleted per communicator, copied
 * by MPI_Comm_dup through the copy callback and deleted through the
 * delete callback when the communicator is freed, the attribute deleted
 * or set again, or MPI_COMM_SELF freed by MPI_Finalize. MPI_COMM_WORLD
 * carries the predefined attributes (MPI_TAG_UB, MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE),
 * read-only. The
 * MPI-1 names (MPI_Keyval_create, MPI_Attr_put, MPI_Attr_get, MPI_Attr_delete,
 * MPI_Keyval_free) are the same calls.
 *
 * Like every handle of the layer, keyvals and attributes are the rank's
 * own (thread-local), as in MPI where each process has its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

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

int vpmpi_comm_attr_predef(int comm, int keyval, void **value, int *flag)
{
	const int *v;

	switch (keyval) {
	case MPI_TAG_UB: v = &tag_ub; break;
	case MPI_HOST: v = &host; break;
	case MPI_IO: v = &io; break;
	case MPI_WTIME_IS_GLOBAL: v = &wtime_global; break;
	case MPI_APPNUM: v = &appnum; break;
	case MPI_UNIVERSE_SIZE: v = &universe; break;
	case MPI_LASTUSEDCODE: v = vpmpi_last_used_code(); break;
	default:
		return 0;
	}
	/* MPI 4.0 sec. 9.1.2: attached to MPI_COMM_WORLD */
	*flag = comm == MPI_COMM_WORLD;
	if (*flag) {
		universe = vp_size(vpmpi_me.comm[MPI_COMM_WORLD]);
		*value = (void *)v;
	}
	return 1;
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
			   MPI_Comm_delete_attr_function *delete_fn,
			   int *keyval, void *extra_state)
{
	return vpmpi_keyval_create(VPMPI_ATTR_COMM, copy_fn, delete_fn, keyval,
				   extra_state, "MPI_Comm_create_keyval");
}

int MPI_Comm_free_keyval(int *keyval)
{
	return vpmpi_keyval_free(VPMPI_ATTR_COMM, keyval,
				 "MPI_Comm_free_keyval");
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
	static const char call[] = "MPI_Comm_set_attr";

	if (!VPMPI_IS_INTER(comm) && !vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	return vpmpi_attr_set(VPMPI_ATTR_COMM, comm, keyval, attribute_val,
			      call);
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	static const char call[] = "MPI_Comm_get_attr";

	if (!VPMPI_IS_INTER(comm) && !vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	return vpmpi_attr_get(VPMPI_ATTR_COMM, comm, keyval, attribute_val,
			      flag, call);
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
	static const char call[] = "MPI_Comm_delete_attr";

	if (!VPMPI_IS_INTER(comm) && !vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	return vpmpi_attr_delete(VPMPI_ATTR_COMM, comm, keyval, call);
}

int vpmpi_attrs_copy(MPI_Comm from, MPI_Comm to)
{
	return vpmpi_attr_copy_all(VPMPI_ATTR_COMM, from, to, "MPI_Comm_dup");
}

int vpmpi_attrs_drop(MPI_Comm comm)
{
	return vpmpi_attr_drop_all(VPMPI_ATTR_COMM, comm, "MPI_Comm_free");
}

void vpmpi_attrs_free(void)
{
	vpmpi_attr_store_free();
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
