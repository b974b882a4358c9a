/* many_comms.c - communicators and windows as many as a program makes:
 * each rank holds 1020 communicators from MPI_Comm_split at once (as
 * MPICH's comm/cmfree does), frees them and makes 1020 again (freed
 * handles are reused), checking an all-reduce on the last of each round;
 * meanwhile the last rank has a receive pending on a duplicate it freed
 * (MPI 4.0 sec. 7.4.3: the receive completes as usual), whose message
 * rank 0 sends at the end. Then each rank holds 100 windows at once, each
 * accumulating into one rank. Rank 0 prints the sum of it all and the
 * message.
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

#define NCOMM 1020
#define NWIN 100

static MPI_Comm comm[NCOMM];
static MPI_Win win[NWIN];

int main(int argc, char **argv)
{
	int r, p, i, round, sum, total = 0, x = 42, mem[NWIN], got = -1;
	MPI_Request req = MPI_REQUEST_NULL;
	MPI_Comm dup;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	if (r == p - 1)
		MPI_Irecv(&got, 1, MPI_INT, 0, 0, dup, &req);
	if (r > 0)
		MPI_Comm_free(&dup);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < NCOMM; i++)
			MPI_Comm_split(MPI_COMM_WORLD, 0, p - r, &comm[i]);
		MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, comm[NCOMM - 1]);
		total += sum;
		for (i = 0; i < NCOMM; i++)
			MPI_Comm_free(&comm[i]);
	}
	if (r == 0) {
		MPI_Send(&x, 1, MPI_INT, p - 1, 0, dup);
		MPI_Comm_free(&dup);
	}
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	for (i = 0; i < NWIN; i++) {
		mem[i] = 0;
		MPI_Win_create(&mem[i], sizeof(int), sizeof(int),
			       MPI_INFO_NULL, MPI_COMM_WORLD, &win[i]);
		MPI_Win_fence(0, win[i]);
		MPI_Accumulate(&x, 1, MPI_INT, (r + i) % p, 0, 1, MPI_INT,
			       MPI_SUM, win[i]);
	}
	for (i = 0; i < NWIN; i++) {
		MPI_Win_fence(0, win[i]);
		total += mem[i];
		MPI_Win_free(&win[i]);
	}
	MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM,
		      MPI_COMM_WORLD);
	if (r == p - 1 && p > 1)
		MPI_Send(&got, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
	if (r == 0 && p > 1)
		MPI_Recv(&got, 1, MPI_INT, p - 1, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	if (r == 0)
		printf("%d communicators twice and %d windows on %d ranks: "
		       "sum %d; received on a freed communicator: %d\n",
		       NCOMM, NWIN, p, total, got);
	MPI_Finalize();
	return 0;
}
