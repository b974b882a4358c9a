/* rma_types.c - one-sided operations whose target datatype is derived and
 * not contiguous (MPI 4.0 sec. 12.3: the origin's data is laid out at the
 * target by the target's type map). A is N x N, A[i][j] = base + i N + j;
 * column is one column of it (MPI_Type_vector), xpose the whole matrix in
 * column-major order (columns side by side, MPICH's rma/transpose tests):
 *   - on MPI_COMM_SELF, B = A accumulates A through xpose (MPICH's
 *     rma/transpose6): B[j][i] = A[j][i] + A[i][j];
 *   - on MPI_COMM_WORLD, each rank puts its A into the next rank's B
 *     through xpose (B is the transpose of the sender's A), gets the next
 *     rank's A through xpose (the transpose again), puts its A through
 *     xpose on both sides (a copy), and every rank accumulates rank + 1
 *     into column 0 of rank 0's window through column.
 * Every element is checked; rank 0 prints the count of wrong ones.
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

#define N 10

static int A[N][N], B[N][N], C[N][N];

static void fill(int m[N][N], int base)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			m[i][j] = base + i * N + j;
}

int main(int argc, char **argv)
{
	int r, p, i, j, bad = 0, all, next, prev, ones[N];
	MPI_Datatype column, xpose;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	next = (r + 1) % p;
	prev = (r + p - 1) % p;
	MPI_Type_vector(N, 1, N, MPI_INT, &column);
	MPI_Type_create_hvector(N, 1, sizeof(int), column, &xpose);
	MPI_Type_commit(&column);
	MPI_Type_commit(&xpose);

	/* transpose6 on MPI_COMM_SELF */
	fill(A, 0);
	fill(B, 0);
	MPI_Win_create(B, sizeof(B), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF,
		       &win);
	MPI_Win_fence(0, win);
	MPI_Accumulate(A, N * N, MPI_INT, 0, 0, 1, xpose, MPI_SUM, win);
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			bad += B[j][i] != A[j][i] + A[i][j];

	/* put and get through xpose on MPI_COMM_WORLD */
	fill(A, 1000 * r);
	MPI_Win_create(B, sizeof(B), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
		       &win);
	MPI_Win_fence(0, win);
	MPI_Put(A, N * N, MPI_INT, next, 0, 1, xpose, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			bad += B[j][i] != 1000 * prev + i * N + j;
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);

	MPI_Win_create(A, sizeof(A), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
		       &win);
	MPI_Win_fence(0, win);
	MPI_Get(C, N * N, MPI_INT, next, 0, 1, xpose, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			bad += C[j][i] != 1000 * next + i * N + j;
	MPI_Win_free(&win);

	/* xpose on both sides: a plain copy; then the column sums */
	fill(B, -1);
	MPI_Win_create(B, sizeof(B), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
		       &win);
	MPI_Win_fence(0, win);
	MPI_Put(A, 1, xpose, next, 0, 1, xpose, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			bad += B[i][j] != 1000 * prev + i * N + j;
	for (i = 0; i < N; i++)
		ones[i] = r + 1;
	MPI_Win_fence(0, win);
	MPI_Accumulate(ones, N, MPI_INT, 0, 0, 1, column, MPI_SUM, win);
	MPI_Win_fence(0, win);
	for (i = 0; r == 0 && i < N; i++)
		for (j = 0; j < N; j++)
			bad += B[i][j] != 1000 * prev + i * N + j +
					      (j ? 0 : p * (p + 1) / 2);
	MPI_Win_free(&win);

	MPI_Type_free(&column);
	MPI_Type_free(&xpose);
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("one-sided with derived target datatypes on %d ranks: "
		       "%s (%d bad)\n",
		       p, all ? "WRONG" : "ok", all);
	MPI_Finalize();
	return 0;
}
