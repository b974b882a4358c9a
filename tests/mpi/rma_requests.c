/* rma_requests.c - the request-based one-sided operations (MPI 4.0,
 * sec. 12.3.5): MPI_Rput, MPI_Rget and MPI_Raccumulate, completed by
 * MPI_Wait, MPI_Test, MPI_Waitany and MPI_Waitall, inside passive-target epochs (the
 * only ones that admit them), MPI_Win_lock_all's:
 *   - each rank puts its rank into its right neighbour's slot 0 and waits
 *     for the request; gets the neighbour's slot 1 and tests until done;
 *   - two gets completed one at a time by MPI_Waitany: each call names
 *     one of them (never MPI_UNDEFINED while one is left), then none;
 *   - every rank adds rank + 1 into rank 0's slot 2, and a strided
 *     origin (MPI_Type_vector) into the neighbour's slots 3 .. 5, the
 *     requests completed together by MPI_Waitall;
 *   - a request completes before the epoch ends: the origin buffer may
 *     be reused at once, a get's buffer read.
 * Every rank checks; rank 0 prints the verdict.
 *
 * ref-osc: sm,pt2pt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, mem[6], i, flag = 0, got = -1;
	int right, left, one, strided[6], two[2], first, second, none;
	MPI_Request req[2];
	MPI_Datatype every_other;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	for (i = 0; i < 6; i++)
		mem[i] = i == 1 ? 10 * rank : 0;
	MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_lock_all(0, win);
	one = rank;
	MPI_Rput(&one, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req[0]);
	MPI_Wait(&req[0], MPI_STATUS_IGNORE);
	bad += req[0] != MPI_REQUEST_NULL;
	one = -7; /* the origin buffer is free again */
	MPI_Rget(&got, 1, MPI_INT, right, 1, 1, MPI_INT, win, &req[0]);
	while (!flag)
		MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
	bad += got != 10 * right;
	MPI_Rget(&two[0], 1, MPI_INT, right, 1, 1, MPI_INT, win, &req[0]);
	MPI_Rget(&two[1], 1, MPI_INT, left, 1, 1, MPI_INT, win, &req[1]);
	MPI_Waitany(2, req, &first, MPI_STATUS_IGNORE);
	MPI_Waitany(2, req, &second, MPI_STATUS_IGNORE);
	MPI_Waitany(2, req, &none, MPI_STATUS_IGNORE);
	bad += first < 0 || first > 1 || second != 1 - first;
	bad += none != MPI_UNDEFINED;
	bad += two[0] != 10 * right || two[1] != 10 * left;
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);

	for (i = 0; i < 6; i++)
		strided[i] = i % 2 ? -1 : 100 * rank + i;
	MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
	MPI_Type_commit(&every_other);
	one = rank + 1;
	MPI_Win_lock_all(0, win);
	MPI_Raccumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win,
			&req[0]);
	MPI_Raccumulate(strided, 1, every_other, right, 3, 3, MPI_INT,
			MPI_SUM, win, &req[1]);
	MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	bad += req[0] != MPI_REQUEST_NULL || req[1] != MPI_REQUEST_NULL;
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	bad += mem[0] != left;
	bad += rank == 0 && mem[2] != size * (size + 1) / 2;
	for (i = 0; i < 3; i++)
		bad += mem[3 + i] != 100 * left + 2 * i;
	MPI_Type_free(&every_other);
	MPI_Win_free(&win);
	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("request-based one-sided on %d ranks: %s (%d bad)\n",
		       size, all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
