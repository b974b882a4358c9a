/* explore_iprobe.c - an MPI_Iprobe loop racing a message with another
 * tag. Rank 1 sends DATA to rank 0, then a token to rank 2, which then
 * sends DONE to rank 0: DATA is sent before DONE, but by another rank, so
 * nothing orders their arrival at rank 0. Rank 0 polls with
 * MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) and stops at DONE; when DONE is
 * seen first, DATA is never received, which vp reports. "explore_iprobe
 * fixed" stops once it has both. "explore_iprobe hang" has rank 0 wait
 * outside MPI forever (a run that never ends). Ranks beyond 2 take no
 * part.
 * run-by: test_explore_mpi.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { DATA = 1, DONE = 2, TOKEN = 3 };

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int rank, v = 1, flag, data = 0, done = 0;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		while (!strcmp(mode, "hang"))
			pause();
		while (!done || (!data && !strcmp(mode, "fixed"))) {
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
				   &flag, &st);
			if (!flag)
				continue;
			MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			data += st.MPI_TAG == DATA;
			done += st.MPI_TAG == DONE;
		}
		printf("rank 0 stopped at DONE with %d DATA\n", data);
	} else if (rank == 1) {
		MPI_Send(&v, 1, MPI_INT, 0, DATA, MPI_COMM_WORLD);
		MPI_Send(&v, 1, MPI_INT, 2, TOKEN, MPI_COMM_WORLD);
	} else if (rank == 2) {
		MPI_Recv(&v, 1, MPI_INT, 1, TOKEN, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 0, DONE, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
