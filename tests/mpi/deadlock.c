/* deadlock.c - ranks 0 and 1 each wait for the other first: vp reports the
 * deadlock with its wait-for cycle and the job fails (a real MPI hangs).
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank < 2) {
		MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
