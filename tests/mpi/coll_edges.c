/*
 * coll_edges.c - collectives at their edges, as MPICH's test suite calls
 * them: gathers and scatters of nothing from NULL buffers (every rank
 * still takes part, so the next collective matches); the reduction ops on
 * MPI_CHAR (a C integer to MPICH and Open MPI); MPI_Reduce_scatter,
 * MPI_Ireduce_scatter and MPI_Reduce_scatter_block on an
 * intercommunicator of the even and the odd ranks, whose groups split the
 * other group's reduced vector in blocks of their own choosing; an
 * MPI_Iallgather whose messages MPI_Waitany completes (with a receive
 * beside it) before MPI_Waitall finishes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TOTAL 7 /* the items of each group's vector */
#define ROWS 4	/* the results every rank reports to rank 0 */

/* The largest error code of four collectives of nothing. */
static int empty_calls(int rank)
{
	int rc[4], i, worst = 0;

	if (rank == 0)
		rc[0] = MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, NULL, 0,
				   MPI_BYTE, 0, MPI_COMM_WORLD);
	else
		rc[0] = MPI_Gather(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, 0,
				   MPI_COMM_WORLD);
	rc[1] = MPI_Scatter(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, 0,
			    MPI_COMM_WORLD);
	rc[2] = MPI_Allgather(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE,
			      MPI_COMM_WORLD);
	rc[3] = MPI_Alltoall(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE,
			     MPI_COMM_WORLD);
	for (i = 0; i < 4; i++)
		worst = rc[i] > worst ? rc[i] : worst;
	return worst;
}

static void char_ops(int rank)
{
	static const MPI_Op ops[] = { MPI_SUM,	MPI_PROD, MPI_MAX,  MPI_MIN,
				      MPI_LAND, MPI_LOR,  MPI_LXOR, MPI_BAND,
				      MPI_BOR,	MPI_BXOR };
	static const char *names[] = { "sum",  "prod", "max", "min",  "land",
				       "lor",  "lxor", "band", "bor", "bxor" };
	char in[3] = { (char)(rank + 1), (char)(rank == 0 ? 0x0f : 0x3c),
		       (char)(rank % 2 ? -3 : 2) }, out[3];
	unsigned i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		MPI_Allreduce(in, out, 3, MPI_CHAR, ops[i], MPI_COMM_WORLD);
		if (rank == 0)
			printf("MPI_CHAR %s: %d %d %d\n", names[i], out[0],
			       out[1], out[2]);
	}
}

/* 1 if the Iallgather waited for by Waitany, then Waitall, is right. */
static int waitany_iallgather(int rank, int size)
{
	int x[2] = { rank, -rank }, all[2 * 16], tok = -1, idx, i, ok = 1;
	MPI_Request req[2];

	MPI_Iallgather(x, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &req[0]);
	MPI_Irecv(&tok, 1, MPI_INT, (rank + size - 1) % size, 3,
		  MPI_COMM_WORLD, &req[1]);
	MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
	MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD);
	MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	for (i = 0; i < size; i++)
		ok &= all[2 * i] == i && all[2 * i + 1] == -i;
	return ok && tok == (rank + size - 1) % size;
}

/* This rank's share of TOTAL items in a group of n: rank 0 the most. */
static int share(int i, int n)
{
	return TOTAL / n + (i < TOTAL % n);
}

/* The rows this rank reports: what the three calls gave it. */
static void inter_calls(MPI_Comm ic, int wrank, int *row)
{
	int lsize, rsize, lrank, i, send[64], got[TOTAL], counts[TOTAL];
	MPI_Request req;

	MPI_Comm_size(ic, &lsize);
	MPI_Comm_remote_size(ic, &rsize);
	MPI_Comm_rank(ic, &lrank);
	for (i = 0; i < 64; i++)
		send[i] = 100 * wrank + i;
	for (i = 0; i < lsize; i++)
		counts[i] = share(i, lsize);
	MPI_Reduce_scatter(send, got, counts, MPI_INT, MPI_SUM, ic);
	row[0] = got[0];
	row[1] = got[counts[lrank] - 1];
	MPI_Ireduce_scatter(send, got, counts, MPI_INT, MPI_MAX, ic, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	row[2] = got[counts[lrank] - 1];
	/* lsize * rsize items a group, rsize to each of its own ranks */
	MPI_Reduce_scatter_block(send, got, rsize, MPI_INT, MPI_SUM, ic);
	row[3] = got[rsize - 1];
}

int main(int argc, char **argv)
{
	int rank, size, rc, worst = 0, row[ROWS] = { 0 }, *rows = NULL, i;
	MPI_Comm half, ic;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	rc = empty_calls(rank);
	MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (rank == 0)
		printf("the empty calls' largest error code: %d\n", worst);
	char_ops(rank);
	rc = size <= 16 ? waitany_iallgather(rank, size) : 1;
	MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (rank == 0)
		printf("Iallgather through Waitany and Waitall: %s\n",
		       worst ? "right on every rank" : "wrong");
	if (size >= 2 && size <= 2 * TOTAL) {
		MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
		MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 7,
				     &ic);
		inter_calls(ic, rank, row);
		MPI_Comm_free(&ic);
		MPI_Comm_free(&half);
	}
	if (rank == 0)
		rows = malloc((size_t)size * ROWS * sizeof(*rows));
	MPI_Gather(row, ROWS, MPI_INT, rows, ROWS, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; rank == 0 && size >= 2 && i < size; i++)
		printf("rank %d: reduce_scatter %d..%d, ireduce_scatter max "
		       "%d, block %d\n",
		       i, rows[ROWS * i], rows[ROWS * i + 1],
		       rows[ROWS * i + 2], rows[ROWS * i + 3]);
	free(rows);
	MPI_Finalize();
	return 0;
}
