/* cancel_sends.c - MPI_Cancel of every kind of send request (MPI 4.0
 * sec. 3.8.4): a standard, buffered, ready and synchronous send, each
 * nonblocking and persistent, cancelled right after it starts. MPI lets
 * the cancel succeed or fail; either way MPI_Wait then completes the
 * request and MPI_Test_cancelled says which happened. Rank 0 tells rank 1
 * the flag, and rank 1 receives the message exactly when it was not
 * cancelled: nothing is lost, nothing is received twice.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { KINDS = 7 };
static const char *const names[KINDS] = {
	"Isend", "Ibsend", "Irsend", "Send_init", "Bsend_init",
	"Rsend_init", "Ssend_init"
};

/* Rank 0: starts send kind k of value v with tag k, cancels it, waits;
 * returns MPI_Test_cancelled's flag. */
static int start_and_cancel(int k, int *v)
{
	MPI_Request r;
	MPI_Status st;
	int flag = 0;

	switch (k) {
	case 0: MPI_Isend(v, 1, MPI_INT, 1, k, MPI_COMM_WORLD, &r); break;
	case 1: MPI_Ibsend(v, 1, MPI_INT, 1, k, MPI_COMM_WORLD, &r); break;
	case 2: MPI_Irsend(v, 1, MPI_INT, 1, k, MPI_COMM_WORLD, &r); break;
	case 3: MPI_Send_init(v, 1, MPI_INT, 1, k, MPI_COMM_WORLD, &r); break;
	case 4: MPI_Bsend_init(v, 1, MPI_INT, 1, k, MPI_COMM_WORLD, &r); break;
	case 5: MPI_Rsend_init(v, 1, MPI_INT, 1, k, MPI_COMM_WORLD, &r); break;
	default: MPI_Ssend_init(v, 1, MPI_INT, 1, k, MPI_COMM_WORLD, &r);
	}
	if (k >= 3)
		MPI_Start(&r);
	MPI_Cancel(&r);
	MPI_Wait(&r, &st);
	MPI_Test_cancelled(&st, &flag);
	if (k >= 3)
		MPI_Request_free(&r);
	return flag;
}

int main(int argc, char **argv)
{
	int rank, size, k, v, got, flag, bsize = 4 * (MPI_BSEND_OVERHEAD + 8);
	void *buf = malloc(bsize);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Buffer_attach(buf, bsize);
	if (size < 2 && rank == 0)
		printf("cancel_sends needs 2 ranks\n");
	for (k = 0; k < KINDS && size >= 2; k++) {
		v = 100 + k;
		if (rank == 0) {
			MPI_Request r;
			/* rank 1 is ready (its receive posted for a ready
			 * or synchronous send) */
			MPI_Irecv(&got, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &r);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
			flag = start_and_cancel(k, &v);
			MPI_Send(&flag, 1, MPI_INT, 1, 98, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Request r = MPI_REQUEST_NULL;
			/* the ready sends need their receive posted, and a
			 * synchronous one not cancelled completes only when
			 * received */
			if (k == 2 || k == 5 || k == 6)
				MPI_Irecv(&got, 1, MPI_INT, 0, k,
					  MPI_COMM_WORLD, &r);
			MPI_Send(&k, 1, MPI_INT, 0, 99, MPI_COMM_WORLD);
			MPI_Recv(&flag, 1, MPI_INT, 0, 98, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			if (r != MPI_REQUEST_NULL && flag)
				MPI_Cancel(&r); /* its send was taken back */
			if (r != MPI_REQUEST_NULL)
				MPI_Wait(&r, MPI_STATUS_IGNORE);
			else if (!flag)
				MPI_Recv(&got, 1, MPI_INT, 0, k,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (!flag && got != v)
				printf("%s: received %d, not %d\n", names[k],
				       got, v);
			else
				printf("%s: cancelled or received once\n",
				       names[k]);
		}
	}
	MPI_Buffer_detach(&buf, &bsize);
	free(buf);
	MPI_Finalize();
	return 0;
}
