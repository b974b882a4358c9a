/* p2p.c - point-to-point matching as MPI defines it: tags received out of
 * order, MPI_ANY_SOURCE with the sender in the status, probe and
 * MPI_Get_count, nonblocking calls completed with Waitall/Waitany/Test,
 * Sendrecv around a ring, Sendrecv_replace, MPI_Cancel of a receive that
 * nothing matched and of one already matched. Every rank checks what it got;
 * rank 0 prints the verdict.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, i, got, flag, idx;
	int left, right, x, y[3], out[3], z[64];
	MPI_Status st;
	MPI_Request req[3];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;

	/* tags: three messages to the right, received in reverse tag order
	 * (the sends complete after the receives: a program may not count on
	 * MPI buffering them, MPI 4.0 sec. 3.5) */
	for (i = 0; i < 3; i++) {
		out[i] = 100 * rank + i;
		MPI_Isend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD,
			  &req[i]);
	}
	for (i = 2; i >= 0; i--) {
		MPI_Recv(&y[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &st);
		bad += y[i] != 100 * left + i || st.MPI_TAG != i ||
		       st.MPI_SOURCE != left;
	}
	MPI_Waitall(3, req, MPI_STATUSES_IGNORE);

	/* any source: rank 0 hears from everyone, names them by status */
	if (rank == 0) {
		int seen = 0;
		for (i = 1; i < size; i++) {
			MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_INT, &got);
			bad += got != st.MPI_SOURCE;
			MPI_Recv(z, 64, MPI_INT, st.MPI_SOURCE, 5,
				 MPI_COMM_WORLD, &st);
			seen |= 1 << st.MPI_SOURCE;
		}
		bad += size > 1 && seen != ((1 << size) - 2);
	} else {
		for (i = 0; i < rank; i++)
			z[i] = rank;
		MPI_Send(z, rank, MPI_INT, 0, 5, MPI_COMM_WORLD);
	}

	/* nonblocking exchange with both neighbours, completed by Waitany
	 * and Test */
	MPI_Irecv(&y[0], 1, MPI_INT, left, 9, MPI_COMM_WORLD, &req[0]);
	MPI_Irecv(&y[1], 1, MPI_INT, right, 9, MPI_COMM_WORLD, &req[1]);
	x = rank;
	MPI_Isend(&x, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &req[2]);
	MPI_Send(&x, 1, MPI_INT, left, 9, MPI_COMM_WORLD);
	MPI_Waitany(3, req, &idx, &st);
	do
		MPI_Test(&req[2], &flag, MPI_STATUS_IGNORE);
	while (!flag);
	MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
	bad += y[0] != left || y[1] != right || req[0] != MPI_REQUEST_NULL;

	/* Sendrecv and Sendrecv_replace around the ring */
	MPI_Sendrecv(&rank, 1, MPI_INT, right, 11, &x, 1, MPI_INT, left, 11,
		     MPI_COMM_WORLD, &st);
	bad += x != left || st.MPI_SOURCE != left;
	x = rank;
	MPI_Sendrecv_replace(&x, 1, MPI_INT, left, 12, right, 12,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	bad += x != right;

	/* MPI_Cancel: a receive nothing will match is taken back; one whose
	 * message had arrived (probed) before it was posted is not */
	MPI_Irecv(&x, 1, MPI_INT, left, 13, MPI_COMM_WORLD, &req[0]);
	MPI_Cancel(&req[0]);
	MPI_Wait(&req[0], &st);
	MPI_Test_cancelled(&st, &flag);
	bad += !flag;
	MPI_Isend(&rank, 1, MPI_INT, right, 14, MPI_COMM_WORLD, &req[1]);
	MPI_Probe(left, 14, MPI_COMM_WORLD, &st);
	MPI_Irecv(&x, 1, MPI_INT, left, 14, MPI_COMM_WORLD, &req[0]);
	MPI_Cancel(&req[0]);
	MPI_Wait(&req[0], &st);
	MPI_Test_cancelled(&st, &flag);
	MPI_Wait(&req[1], MPI_STATUS_IGNORE);
	bad += flag || x != left;

	MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("p2p on %d ranks: %s (%d bad)\n", size,
		       all_bad ? "FAILED" : "ok", all_bad);
	MPI_Finalize();
	return all_bad != 0;
}
