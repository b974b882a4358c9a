/* errors.c - MPI_ERRORS_RETURN: with it set on MPI_COMM_WORLD, a send to
 * a rank that does not exist, a bad tag, a negative count and an unknown
 * datatype return their error classes and the program goes on;
 * MPI_Error_string describes them. A handler of the program's own
 * (MPI_Comm_create_errhandler) on a duplicate of MPI_COMM_WORLD is called
 * for a bad rank and by MPI_Comm_call_errhandler. Rank 0 prints what it
 * got.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

static int calls, first_class;

static void handler(MPI_Comm *comm, int *code, ...)
{
	(void)comm;
	if (!calls++)
		MPI_Error_class(*code, &first_class);
}

int main(int argc, char **argv)
{
	int r, p, x = 1, e[4], cls[4], len, i;
	char msg[MPI_MAX_ERROR_STRING];
	MPI_Errhandler eh, mine;
	MPI_Comm dup;
	int back;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
	e[0] = MPI_Send(&x, 1, MPI_INT, p + 5, 0, MPI_COMM_WORLD);
	e[1] = MPI_Send(&x, 1, MPI_INT, 0, -4, MPI_COMM_WORLD);
	e[2] = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	e[3] = MPI_Bcast(&x, 1, MPI_INT, p + 1, MPI_COMM_WORLD);
	for (i = 0; i < 4; i++)
		MPI_Error_class(e[i], &cls[i]);
	MPI_Error_string(e[0], msg, &len);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_create_errhandler(handler, &mine);
	MPI_Comm_set_errhandler(dup, mine);
	back = MPI_Send(&x, 1, MPI_INT, p + 5, 0, dup);
	MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER);
	MPI_Errhandler_free(&mine);
	MPI_Comm_free(&dup);
	if (r == 0)
		printf("errors returned: rank %s, tag %s, count %s, root %s; "
		       "handler %s; %s; own handler called %d times (%s), "
		       "the call returned %s\n",
		       cls[0] == MPI_ERR_RANK ? "MPI_ERR_RANK" : "?",
		       cls[1] == MPI_ERR_TAG ? "MPI_ERR_TAG" : "?",
		       cls[2] == MPI_ERR_COUNT ? "MPI_ERR_COUNT" : "?",
		       cls[3] == MPI_ERR_ROOT ? "MPI_ERR_ROOT" : "?",
		       eh == MPI_ERRORS_RETURN ? "MPI_ERRORS_RETURN" : "?",
		       len > 0 ? "described" : "no text", calls,
		       first_class == MPI_ERR_RANK ? "MPI_ERR_RANK" : "?",
		       back != MPI_SUCCESS ? "an error" : "MPI_SUCCESS");
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
