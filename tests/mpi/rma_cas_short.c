/* rma_cas_short.c - MPI_Compare_and_swap on a 2-byte integer type (MPI
 * 4.0, sec. 12.3.4: any C integer type): every rank increments rank 0's
 * MPI_SHORT counter by a compare-and-swap loop inside MPI_Win_lock_all,
 * so the counter ends at the rank count only if each swap is atomic and
 * returns the value it compared. Rank 0 prints it.
 *
 * ref-osc: sm,pt2pt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, tries = 0;
	short mem = 0, next, seen, old;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win_create(&mem, sizeof(mem), sizeof(short), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_lock_all(0, win);
	for (seen = 0;; seen = old, tries++) {
		next = (short)(seen + 1);
		MPI_Compare_and_swap(&next, &seen, &old, MPI_SHORT, 0, 0, win);
		MPI_Win_flush(0, win);
		if (old == seen)
			break;
	}
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("MPI_SHORT compare-and-swap counter on %d ranks: %d "
		       "(%s)\n",
		       size, mem, mem == size ? "ok" : "WRONG");
	MPI_Win_free(&win);
	MPI_Finalize();
	return tries < 0;
}
