/*
 * mpi_type_attr.c - attributes on datatypes (MPI 4.0, sec. 7.7.4), kept
 * in the layer's attribute store (mpi_attr_store.c): keyvals with copy
 * and delete callbacks, values set, read and deleted per datatype (the
 * predefined ones too), copied by MPI_Type_dup through the copy callback
 * and deleted through the delete callback when the datatype is freed, the
 * attribute deleted or set again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int keyval, void *extra,
			  void *in, void *out, int *flag)
{
	(void)oldtype, (void)keyval, (void)extra, (void)in, (void)out;
	*flag = 0;
	return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int keyval, void *extra, void *in,
		    void *out, int *flag)
{
	(void)oldtype, (void)keyval, (void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype type, int keyval, void *value,
			    void *extra)
{
	(void)type, (void)keyval, (void)value, (void)extra;
	return MPI_SUCCESS;
}

/* MPI_SUCCESS when type is a datatype of the rank, else the error. */
static int check_type(MPI_Datatype type, const char *call)
{
	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	return vpmpi_type_any(type, call) ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
			   MPI_Type_delete_attr_function *delete_fn,
			   int *keyval, void *extra_state)
{
	return vpmpi_keyval_create(VPMPI_ATTR_TYPE, copy_fn, delete_fn, keyval,
				   extra_state, "MPI_Type_create_keyval");
}

int MPI_Type_free_keyval(int *keyval)
{
	return vpmpi_keyval_free(VPMPI_ATTR_TYPE, keyval,
				 "MPI_Type_free_keyval");
}

int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *attribute_val)
{
	static const char call[] = "MPI_Type_set_attr";
	int rc;

	if ((rc = check_type(type, call)))
		return rc;
	return vpmpi_attr_set(VPMPI_ATTR_TYPE, type, keyval, attribute_val,
			      call);
}

int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *attribute_val,
		      int *flag)
{
	static const char call[] = "MPI_Type_get_attr";
	int rc;

	if ((rc = check_type(type, call)))
		return rc;
	return vpmpi_attr_get(VPMPI_ATTR_TYPE, type, keyval, attribute_val,
			      flag, call);
}

int MPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
	static const char call[] = "MPI_Type_delete_attr";
	int rc;

	if ((rc = check_type(type, call)))
		return rc;
	return vpmpi_attr_delete(VPMPI_ATTR_TYPE, type, keyval, call);
}
