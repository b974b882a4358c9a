/* attr_store.c - attributes on datatypes, communicators and windows from
 * one store (MPI 4.0 sec. 7.7): a datatype's attributes copied by
 * MPI_Type_dup through their copy callback and deleted by MPI_Type_free
 * through their delete callback; a communicator's deleted last set first
 * when it is freed; a keyval freed while an attribute uses it still names
 * it and its callbacks still run; a keyval of one kind refused on another
 * (vp: MPI_ERR_KEYVAL); error classes and codes the program adds, with their
 * strings, and MPI_LASTUSEDCODE (sec. 9.5). Prints one line (rank 0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int order[8], norder, copies;

static int copy_fn(MPI_Datatype t, int key, void *extra, void *in, void *out,
		   int *flag)
{
	(void)t, (void)key, (void)extra;
	copies++;
	*(void **)out = (char *)in + 1; /* the copy's value: one more */
	*flag = 1;
	return MPI_SUCCESS;
}

static int del_fn(int obj, int key, void *value, void *extra)
{
	(void)obj, (void)key, (void)value;
	if (norder < 8)
		order[norder++] = *(int *)extra;
	return MPI_SUCCESS;
}

static int type_attrs(void)
{
	MPI_Datatype t, d;
	int key, one = 1, bad = 0, flag;
	char base[4], *v;

	MPI_Type_contiguous(2, MPI_INT, &t);
	MPI_Type_create_keyval(copy_fn, (MPI_Type_delete_attr_function *)del_fn,
			       &key, &one);
	MPI_Type_set_attr(t, key, base);
	MPI_Type_dup(t, &d);
	MPI_Type_get_attr(d, key, &v, &flag);
	bad += !flag || v != base + 1 || copies != 1;
	/* a predefined type carries attributes too */
	MPI_Type_set_attr(MPI_INT, key, base + 2);
	MPI_Type_get_attr(MPI_INT, key, &v, &flag);
	bad += !flag || v != base + 2;
	MPI_Type_delete_attr(MPI_INT, key);
	MPI_Type_free_keyval(&key); /* still in use: it lives on */
	bad += key != MPI_KEYVAL_INVALID;
	norder = 0;
	MPI_Type_free(&t);
	MPI_Type_free(&d);
	bad += norder != 2; /* both delete callbacks ran */
	return bad;
}

static int comm_order(void)
{
	MPI_Comm c;
	int k[3], tag[3] = { 10, 11, 12 }, i, bad = 0, saved;

	norder = 0;
	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	for (i = 0; i < 3; i++) {
		MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
				       (MPI_Comm_delete_attr_function *)del_fn,
				       &k[i], &tag[i]);
	}
	MPI_Comm_set_attr(c, k[1], NULL);
	MPI_Comm_set_attr(c, k[0], NULL);
	MPI_Comm_set_attr(c, k[2], NULL);
	saved = k[0];
	MPI_Comm_free_keyval(&k[0]);
	/* freed, but its attribute keeps it: it still names it */
	bad += MPI_Comm_delete_attr(c, saved) != MPI_SUCCESS;
	bad += norder != 1 || order[0] != 10;
	MPI_Comm_set_attr(c, k[1], NULL); /* replaced: deleted first */
	bad += norder != 2 || order[1] != 11;
	norder = 0;
	MPI_Comm_free(&c); /* set last: k[1], then k[2] before it */
	bad += norder != 2 || order[0] != 11 || order[1] != 12;
	MPI_Comm_free_keyval(&k[1]);
	MPI_Comm_free_keyval(&k[2]);
	return bad;
}

static int kinds_and_errors(void)
{
	int wkey, cls, code, code2, len, *last, flag, bad = 0, c;
	char s[MPI_MAX_ERROR_STRING];

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN,
			      &wkey, NULL);
	MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, wkey, NULL), &c);
	bad += c == MPI_SUCCESS;
	MPI_Win_free_keyval(&wkey);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Add_error_class(&cls);
	MPI_Add_error_code(cls, &code);
	MPI_Add_error_code(MPI_ERR_ARG, &code2);
	MPI_Add_error_string(code, "my code");
	bad += cls <= MPI_ERR_LASTCODE || code <= cls || code2 <= code;
	MPI_Error_class(code, &c);
	bad += c != cls;
	MPI_Error_class(code2, &c);
	bad += c != MPI_ERR_ARG;
	MPI_Error_string(code, s, &len);
	bad += strcmp(s, "my code") != 0 || len != 7;
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
	bad += !flag || *last != code2;
	return bad;
}

int main(int argc, char **argv)
{
	int r, p, bad;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	bad = type_attrs() + comm_order() + kinds_and_errors();
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("attribute store on %d ranks: ok (%d bad)\n", p, bad);
	MPI_Finalize();
	return 0;
}
