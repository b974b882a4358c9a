/* errors_abort.c - MPI_ERRORS_ABORT (MPI 4.0 sec. 9.3) on a duplicate of
 * MPI_COMM_WORLD, whose own handler returns errors: rank 1 sends to rank
 * 99 on the duplicate while the others wait for it, and the job ends as
 * MPI_Abort(MPI_ERR_RANK) would, no rank going on. With argument "call",
 * rank 1 calls MPI_Comm_call_errhandler(dup, 5) instead: exit status 5.
 * MPI_Comm_get_errhandler gives the handler back.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int r, x = 0;
	MPI_Comm dup;
	MPI_Errhandler eh;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT);
	MPI_Comm_get_errhandler(dup, &eh);
	if (r == 0)
		printf("handler of the duplicate: %s\n",
		       eh == MPI_ERRORS_ABORT ? "MPI_ERRORS_ABORT" : "other");
	MPI_Barrier(MPI_COMM_WORLD);
	if (r == 1 && argc > 1 && !strcmp(argv[1], "call"))
		MPI_Comm_call_errhandler(dup, 5);
	else if (r == 1)
		MPI_Send(&x, 1, MPI_INT, 99, 0, dup);
	MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	printf("not reached\n");
	MPI_Finalize();
	return 0;
}
