/* explore_flush.c - a one-sided update read before it was flushed. Rank
 * 1 puts a value into rank 0's window in a passive-target epoch, then
 * tells rank 0 with a message, and flushes only at its unlock; rank 0
 * reads its window once the message is in. MPI completes the put at the
 * target only by the origin's MPI_Win_flush or MPI_Win_unlock (MPI 4.0,
 * sec. 12.5.4), so the value may not be there yet. Ranks sharing memory
 * make a put land at once, and run freely this always passes; a schedule
 * that keeps the put back until the flush shows it. "explore_flush fixed"
 * flushes before the message. Ranks beyond 1 take part in the window
 * only. Prints one line (rank 0).
 * run-by: test_explore_mpi.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, x = 0, v = 42, token = 1, seen,
		  fixed = argc > 1 && !strcmp(argv[1], "fixed");
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(&x, sizeof(x), sizeof(x), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	if (rank == 1) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
		if (fixed)
			MPI_Win_flush(0, win);
		MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Win_unlock(0, win);
	} else if (rank == 0) {
		MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		seen = x;
		MPI_Win_unlock(0, win);
		assert(seen == 42 && "rank 1's put is at rank 0 once its "
				     "message is (no MPI_Win_flush before it)");
		printf("rank 0 sees %d\n", seen);
	}
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
