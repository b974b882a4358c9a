/* explore_deadlock.c - a deadlock that needs one particular wildcard
 * match. Rank 2 sends rank 0 a short note, then a token to rank 1, which
 * only then sends rank 0 its data. Rank 0 takes the first message with
 * MPI_ANY_SOURCE, believing it must be the note (rank 1 sends only after
 * the note was sent), then rank 1's data by name. But MPI orders only the
 * messages of one sender (MPI 4.0, sec. 3.5): the wildcard may take rank
 * 1's data, and then the named receive can never match and the job
 * deadlocks. Run freely, rank 1 computes for 50 ms after the
 * token, rank 0 has long taken the note, and this nearly always passes;
 * "explore_deadlock fixed" takes both with MPI_ANY_SOURCE and never
 * deadlocks. Ranks beyond 2 take no part.
 * run-by: test_explore_mpi.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { NOTE, TOKEN };

int main(int argc, char **argv)
{
	int rank, fixed = argc > 1 && !strcmp(argv[1], "fixed");
	double v = 0;
	struct timespec compute = { 0, 50 * 1000 * 1000 };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&v, 1, MPI_DOUBLE, MPI_ANY_SOURCE, NOTE,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&v, 1, MPI_DOUBLE, fixed ? MPI_ANY_SOURCE : 1, NOTE,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("rank 0 has both messages\n");
	} else if (rank == 1) {
		MPI_Recv(&v, 1, MPI_DOUBLE, 2, TOKEN, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		nanosleep(&compute, NULL); /* stands for a computation */
		MPI_Send(&v, 1, MPI_DOUBLE, 0, NOTE, MPI_COMM_WORLD);
	} else if (rank == 2) {
		MPI_Send(&v, 1, MPI_DOUBLE, 0, NOTE, MPI_COMM_WORLD);
		MPI_Send(&v, 1, MPI_DOUBLE, 1, TOKEN, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
