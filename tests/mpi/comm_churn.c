/*
 * comm_churn.c - communicators made and freed over a run without bound:
 * 20000 rounds, each making a communicator (MPI_Comm_dup of the world,
 * every 4th an MPI_Comm_split into halves, every 16th an intercommunicator
 * between the halves) and freeing it; every 1000th round sums the world
 * ranks over it first. The 16 communicators made last are held while
 * the next are made. Rank 0 prints the sum of what was received.
 * ref-np: 4
 * san-np: 2
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 20000
#define HELD 16

int main(int argc, char **argv)
{
	MPI_Comm held[HELD], half;
	long sum = 0, all = 0;
	int r, p, i, got;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
	for (i = 0; i < HELD; i++)
		held[i] = MPI_COMM_NULL;
	for (i = 0; i < ROUNDS; i++) {
		MPI_Comm *c = &held[i % HELD];

		if (*c != MPI_COMM_NULL)
			MPI_Comm_free(c);
		if (i % 16 == 15 && p > 1)
			MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
					     1 - r % 2, 7, c);
		else if (i % 4 == 3)
			MPI_Comm_split(MPI_COMM_WORLD, r % 2, p - r, c);
		else
			MPI_Comm_dup(MPI_COMM_WORLD, c);
		if (i % 1000 == 999) { /* on an intercommunicator: the
					* remote group's sum */
			MPI_Allreduce(&r, &got, 1, MPI_INT, MPI_SUM, *c);
			sum += got;
		}
	}
	for (i = 0; i < HELD; i++)
		MPI_Comm_free(&held[i]);
	MPI_Comm_free(&half);
	MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("%d communicators made and freed on %d ranks: sum %ld\n",
		       ROUNDS, p, all);
	MPI_Finalize();
	return 0;
}
