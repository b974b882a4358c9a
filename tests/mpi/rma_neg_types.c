/* rma_neg_types.c - one-sided operations whose target datatype reaches
 * below its origin (MPI 4.0 sec. 12.3: the target's type map is laid at
 * target_disp, and a map may hold negative displacements: a vector of
 * negative stride, a type resized to a negative lower bound; MPICH's
 * dtpools instances use both). Each rank's window is 32 ints,
 * w[i] = 100 rank + i; down is 3 ints at 0, -2 and -4 (MPI_Type_vector
 * of stride -2), low the same resized to lower bound -4 ints and extent
 * 12 ints. Each rank, in one fence epoch, to the next rank:
 *   - MPI_Accumulate MPI_REPLACE of {1, 2, 3} through down at 10:
 *     w[10] = 1, w[8] = 2, w[6] = 3;
 *   - MPI_Accumulate MPI_SUM of {1, 2, 3} through down at 11: w[11],
 *     w[9], w[7] grow by 1, 2, 3;
 *   - MPI_Get_accumulate MPI_SUM of {1000, ... 6000} through 2 low at 5:
 *     w[5], w[3], w[1], w[17], w[15], w[13] grow by them, the result the
 *     values before;
 *   - MPI_Put of {7, 8, 9} through down at 30: w[30], w[28], w[26];
 * then, in a second epoch, MPI_Get of 3 ints through down at 10 ({1, 2,
 * 3}). Every element is checked; rank 0 prints the count of wrong ones.
 *
 * ref-osc: sm,pt2pt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define N 32

int main(int argc, char **argv)
{
	int r, p, i, next, bad = 0, all, w[N], want[N];
	int abc[3] = { 1, 2, 3 }, put[3] = { 7, 8, 9 }, got[3] = { 0 };
	int big[6] = { 1000, 2000, 3000, 4000, 5000, 6000 }, old[6];
	static const int at[6] = { 5, 3, 1, 17, 15, 13 };
	MPI_Datatype down, low;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	next = (r + 1) % p;
	MPI_Type_vector(3, 1, -2, MPI_INT, &down);
	MPI_Type_create_resized(down, -4 * (MPI_Aint)sizeof(int),
				12 * (MPI_Aint)sizeof(int), &low);
	MPI_Type_commit(&down);
	MPI_Type_commit(&low);
	for (i = 0; i < N; i++)
		w[i] = 100 * r + i;
	MPI_Win_create(w, sizeof(w), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_fence(0, win);
	MPI_Accumulate(abc, 3, MPI_INT, next, 10, 1, down, MPI_REPLACE, win);
	MPI_Accumulate(abc, 3, MPI_INT, next, 11, 1, down, MPI_SUM, win);
	MPI_Get_accumulate(big, 6, MPI_INT, old, 6, MPI_INT, next, 5, 2, low,
			   MPI_SUM, win);
	MPI_Put(put, 3, MPI_INT, next, 30, 1, down, win);
	MPI_Win_fence(0, win);
	MPI_Get(got, 3, MPI_INT, next, 10, 1, down, win);
	MPI_Win_fence(0, win);

	for (i = 0; i < N; i++)
		want[i] = 100 * r + i;
	for (i = 0; i < 3; i++) {
		want[10 - 2 * i] = abc[i];
		want[11 - 2 * i] += abc[i];
		want[30 - 2 * i] = put[i];
		bad += got[i] != abc[i];
	}
	for (i = 0; i < 6; i++) {
		want[at[i]] += big[i];
		bad += old[i] != 100 * next + at[i];
	}
	for (i = 0; i < N; i++)
		bad += w[i] != want[i];
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("target types below their origin on %d ranks: %s (%d "
		       "bad)\n",
		       p, all ? "WRONG" : "ok", all);
	MPI_Win_free(&win);
	MPI_Type_free(&down);
	MPI_Type_free(&low);
	MPI_Finalize();
	return 0;
}
