/* onesided.c - one-sided communication with fences, as halo exchanges and
 * counters use it:
 *   - MPI_Win_create over an int array (disp_unit 4): each rank puts its
 *     rank into slot 1 of its right neighbour's window, gets slot 0 of its
 *     left neighbour's, and adds rank + 1 into slot 2 of rank 0's with
 *     MPI_Accumulate (MPI_SUM), between two fences;
 *   - MPI_Win_allocate with disp_unit 8 (doubles): a strided origin
 *     (MPI_Type_vector) put contiguously into the neighbour's window, and
 *     MPI_REPLACE and MPI_MAX accumulates;
 *   - MPI_PROC_NULL targets do nothing.
 * Every rank checks; rank 0 prints the verdict.
 *
 * no-ref: Open MPI 4.1 here creates no window on one process, nor on
 *   any number with the single-copy mechanism off, as the reference runs
 *   need it (MPI_Win_create fails with MPI_ERR_WIN): the program checks
 *   its own results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, mem[3], one, got = -1, i;
	int left, right;
	double *dw, strided[6], top;
	MPI_Win win, dwin;
	MPI_Datatype every_other;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;

	mem[0] = 100 + rank;
	mem[1] = -1;
	mem[2] = 0;
	one = rank + 1;
	MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
	MPI_Put(&rank, 1, MPI_INT, right, 1, 1, MPI_INT, win);
	MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, win);
	MPI_Accumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win);
	MPI_Put(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
	bad += mem[1] != left || got != 100 + left;
	bad += rank == 0 && mem[2] != size * (size + 1) / 2;
	MPI_Win_free(&win);
	bad += win != MPI_WIN_NULL;

	MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &dw, &dwin);
	for (i = 0; i < 4; i++)
		dw[i] = 0;
	for (i = 0; i < 6; i++)
		strided[i] = 10 * rank + i;
	MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &every_other);
	MPI_Type_commit(&every_other);
	top = rank;
	MPI_Win_fence(0, dwin);
	MPI_Put(strided, 1, every_other, right, 0, 3, MPI_DOUBLE, dwin);
	MPI_Win_fence(0, dwin);
	MPI_Accumulate(&top, 1, MPI_DOUBLE, 0, 3, 1, MPI_DOUBLE, MPI_MAX, dwin);
	MPI_Win_fence(0, dwin);
	bad += dw[0] != 10 * left || dw[1] != 10 * left + 2 ||
	       dw[2] != 10 * left + 4;
	bad += rank == 0 && dw[3] != size - 1;
	MPI_Win_fence(0, dwin);
	MPI_Accumulate(&top, 1, MPI_DOUBLE, right, 3, 1, MPI_DOUBLE,
		       MPI_REPLACE, dwin);
	MPI_Win_fence(0, dwin);
	bad += dw[3] != left;
	MPI_Type_free(&every_other);
	MPI_Win_free(&dwin);

	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("one-sided windows on %d ranks: %s (%d bad)\n", size,
		       all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
