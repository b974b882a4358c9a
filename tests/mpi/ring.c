/* ring.c - a token passes around the ring of ranks; each adds its rank.
 * Prints one line (rank 0) that does not depend on the MPI library.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, token = 0;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size == 1) {
		printf("ring of 1: token 0\n");
		MPI_Finalize();
		return 0;
	}
	if (rank == 0) {
		MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
		MPI_Recv(&token, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD, &st);
		printf("ring of %d: token %d from %d tag %d\n", size, token,
		       st.MPI_SOURCE, st.MPI_TAG);
	} else {
		MPI_Recv(&token, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, &st);
		token += rank;
		MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 7,
			 MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
