/* create_group.c - MPI_Comm_create_group: the even ranks of
 * MPI_COMM_WORLD make a communicator among themselves while the odd ranks
 * make theirs at the same time (another tag), neither half waiting for the
 * other; each sums its world ranks there. Every rank checks its size and
 * rank; rank 0 and rank 1 report, rank 0 prints. An empty group gives
 * MPI_COMM_NULL.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, n, i, bad = 0, all_bad, sum, sub_rank, sub_size;
	int members[64], odd_sum = 0;
	MPI_Group world, half;
	MPI_Comm comm, none;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	for (i = rank % 2, n = 0; i < size; i += 2)
		members[n++] = i;
	MPI_Group_incl(world, n, members, &half);
	MPI_Comm_create_group(MPI_COMM_WORLD, half, rank % 2 ? 20 : 10, &comm);
	MPI_Comm_rank(comm, &sub_rank);
	MPI_Comm_size(comm, &sub_size);
	bad += sub_rank != rank / 2 || sub_size != n;
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
	if (rank == 1)
		MPI_Send(&sum, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
	if (rank == 0 && size > 1)
		MPI_Recv(&odd_sum, 1, MPI_INT, 1, 5, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 0, &none);
	bad += none != MPI_COMM_NULL;
	MPI_Comm_free(&comm);
	MPI_Group_free(&half);
	MPI_Group_free(&world);
	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("create_group on %d ranks: even ranks sum %d, odd ranks "
		       "sum %d; %s\n",
		       size, sum, odd_sum, all_bad ? "WRONG" : "ok");
	MPI_Finalize();
	return 0;
}
