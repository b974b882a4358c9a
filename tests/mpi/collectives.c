/* collectives.c - the common collectives with results every rank checks:
 * Bcast, Reduce and Allreduce (MAX, MIN, SUM, PROD on int, long and
 * double; MPI_IN_PLACE), Scan, Gather, Scatter, Allgather, Alltoall, and a
 * Comm_split into even and odd ranks. Rank 0 prints the sums it got.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, i, bad = 0, all_bad, v, mx, mn, sum, scan, sub_rank,
			  sub_size, sub_sum;
	long lprod, lone;
	double d, dsum;
	int *all, *blk, *to, *from;
	MPI_Comm half;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	all = malloc(sizeof(int) * size);
	blk = malloc(sizeof(int) * size);
	to = malloc(sizeof(int) * size);
	from = malloc(sizeof(int) * size);

	v = rank == 0 ? 42 : -1;
	MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	bad += v != 42;

	v = 3 * rank + 1;
	MPI_Allreduce(&v, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(&v, &mn, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	sum = v;
	MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	bad += mx != 3 * (size - 1) + 1 || mn != 1 ||
	       sum != 3 * size * (size - 1) / 2 + size;
	lone = 2;
	MPI_Reduce(&lone, &lprod, 1, MPI_LONG, MPI_PROD, size - 1,
		   MPI_COMM_WORLD);
	bad += rank == size - 1 && lprod != 1L << size;
	d = 0.5 * rank;
	MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	bad += dsum != 0.25 * size * (size - 1);
	v = rank + 1;
	MPI_Scan(&v, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	bad += scan != (rank + 1) * (rank + 2) / 2;

	v = rank * rank;
	MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; rank == 0 && i < size; i++)
		bad += all[i] != i * i;
	for (i = 0; i < size; i++)
		blk[i] = 10 * i;
	MPI_Scatter(blk, 1, MPI_INT, &v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	bad += v != 10 * rank;
	v = rank + 7;
	MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		bad += all[i] != i + 7;
	for (i = 0; i < size; i++)
		to[i] = 1000 * rank + i;
	MPI_Alltoall(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		bad += from[i] != 1000 * i + rank;

	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	MPI_Comm_rank(half, &sub_rank);
	MPI_Comm_size(half, &sub_size);
	MPI_Allreduce(&rank, &sub_sum, 1, MPI_INT, MPI_SUM, half);
	bad += sub_rank != rank / 2 || sub_size != (size + 1 - rank % 2) / 2;
	MPI_Comm_free(&half);
	bad += half != MPI_COMM_NULL;
	MPI_Barrier(MPI_COMM_WORLD);

	MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("collectives on %d ranks: max %d min %d sum %d dsum %.2f "
		       "scan %d; %s\n",
		       size, mx, mn, sum, dsum, scan,
		       all_bad ? "FAILED" : "ok");
	free(all);
	free(blk);
	free(to);
	free(from);
	MPI_Finalize();
	return all_bad != 0;
}
