/* partitioned_early.c - vp sends each partition of a partitioned send
 * (MPI 4.0, chapter 4) as soon as MPI_Pready marks it: between ranks 0
 * and 1, MPI_Parrived finds partition 1 arrived while the sender has not
 * marked partition 0, which is not there. MPI leaves when partitions
 * travel to the implementation (MPICH 4.0 sends nothing before the last
 * one is ready: there this program would wait forever). Prints one line
 * (rank 0).
 * no-ref: vp's own delivery of each partition as it is marked
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

static int r;

/* Ranks 0 and 1: partition 1 arrives, partition 0 not yet marked. */
static int early_bird(void)
{
	int buf[4] = { 1, 2, 3, 4 }, got[4] = { 0 }, flag = 1, tok = 0, bad = 0;
	MPI_Request q;
	MPI_Status st;

	if (r == 0) {
		MPI_Psend_init(buf, 2, 2, MPI_INT, 1, 9, MPI_COMM_WORLD,
			       MPI_INFO_NULL, &q);
		MPI_Start(&q);
		MPI_Recv(&tok, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &st);
		MPI_Pready(1, q);
		MPI_Recv(&tok, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &st);
		MPI_Pready(0, q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
	} else if (r == 1) {
		MPI_Precv_init(got, 2, 2, MPI_INT, 0, 9, MPI_COMM_WORLD,
			       MPI_INFO_NULL, &q);
		MPI_Start(&q);
		MPI_Parrived(q, 0, &flag);
		bad += flag; /* nothing sent yet */
		MPI_Send(&tok, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		do
			MPI_Parrived(q, 1, &flag);
		while (!flag);
		bad += got[2] != 3 || got[3] != 4;
		MPI_Parrived(q, 0, &flag);
		bad += flag; /* partition 0 is not marked ready yet */
		MPI_Send(&tok, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		MPI_Wait(&q, &st);
		bad += got[0] != 1 || got[1] != 2 || st.MPI_SOURCE != 0 ||
		       st.MPI_TAG != 9;
	}
	if (r < 2)
		MPI_Request_free(&q);
	return bad;
}

int main(int argc, char **argv)
{
	int p, bad = 0, all;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	if (p > 1)
		bad += early_bird();
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("partitions as they are marked ready: %s (%d bad)\n",
		       all ? "FAILED" : "ok", all);
	MPI_Finalize();
	return 0;
}
