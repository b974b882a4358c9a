/* explore_deadlock.c - a deadlock that needs one particular wildcard
 * match: rank 0 takes a first message from MPI_ANY_SOURCE (meant to be
 * rank 2's short note, rank 1 being busy computing first), then rank 1's
 * by name. When rank 1's message is the one the wildcard takes, the named
 * receive can never match and the job deadlocks; run freely, whether it
 * does depends on timing (rank 1 computing first makes it less likely).
 * "explore_deadlock fixed" takes both with MPI_ANY_SOURCE and never
 * deadlocks. Ranks beyond 2 take no part.
 * run-by: test_explore_mpi.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, i, fixed = argc > 1 && !strcmp(argv[1], "fixed");
	double v = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&v, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Recv(&v, 1, MPI_DOUBLE, fixed ? MPI_ANY_SOURCE : 1, 0,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("rank 0 has both messages\n");
	} else if (rank <= 2) {
		for (i = 1; rank == 1 && i <= 200000; i++)
			v += 1.0 / ((double)i * i); /* rank 1 computes first */
		MPI_Send(&v, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
