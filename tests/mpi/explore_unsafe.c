/* explore_unsafe.c - an exchange that relies on MPI buffering its
 * sends: each of two ranks sends its value to the other with MPI_Send,
 * then receives. MPI may complete a standard send before its receive is
 * posted (it buffers a short message) or only once it is (MPI 4.0, sec.
 * 3.5): a program that needs the first is unsafe. Run freely, vp buffers
 * such a short message, as every MPI library does, and it always passes;
 * under a schedule whose sends are not buffered both sends wait for a
 * receive that never comes, and vp reports the deadlock as an unsafe
 * program. "explore_unsafe fixed" exchanges with MPI_Sendrecv. Ranks
 * beyond 1 take no part. Prints one line per exchanging rank.
 * run-by: test_explore_mpi.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, peer, fixed = argc > 1 && !strcmp(argv[1], "fixed");
	double mine, theirs = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank <= 1) {
		peer = 1 - rank;
		mine = 1.5 + rank;
		if (fixed) {
			MPI_Sendrecv(&mine, 1, MPI_DOUBLE, peer, 0, &theirs, 1,
				     MPI_DOUBLE, peer, 0, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
		} else {
			MPI_Send(&mine, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
			MPI_Recv(&theirs, 1, MPI_DOUBLE, peer, 0,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		printf("rank %d got %g\n", rank, theirs);
	}
	MPI_Finalize();
	return 0;
}
