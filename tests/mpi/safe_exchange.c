/* safe_exchange.c - MPI's safe exchange: every rank posts its receive
 * first (MPI_Irecv from its left neighbour), the ranks meet in a barrier,
 * and then each sends to its right neighbour and waits. A send whose
 * matching receive is posted completes (MPI 4.0, sec. 3.5, "Progress"):
 * MPI_Send of 100 KiB (past any eager limit) and MPI_Ssend of 8 bytes
 * alike, whatever the size, however the requests are completed (MPI_Wait,
 * MPI_Waitall, MPI_Waitany, an MPI_Test loop), with MPI_ANY_SOURCE and
 * MPI_ANY_TAG receives, and with an MPI_Ibarrier open meanwhile. From
 * three ranks on, rank 0 also blocks in a receive from rank 2 while rank
 * 1 synchronously sends to rank 0's posted receive before it releases
 * rank 2. Every rank checks every byte; rank 0 prints the verdict.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSIZES 5
static const int sizes[NSIZES] = { 0, 8, 65536, 65537, 102400 };

static unsigned char byte_of(int src, int i, int round)
{
	return (unsigned char)(src * 31 + i * 7 + round * 13 + 1);
}

/* Completes the send (maybe MPI_REQUEST_NULL) and the receive. */
static void complete(int how, MPI_Request *rq, MPI_Status *st)
{
	int idx, done = 0, flag;
	MPI_Status sts[2];

	switch (how) {
	case 0:
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		MPI_Wait(&rq[1], st);
		break;
	case 1:
		MPI_Waitall(2, rq, sts);
		*st = sts[1];
		break;
	case 2:
		for (;;) {
			MPI_Waitany(2, rq, &idx, &sts[0]);
			if (idx == MPI_UNDEFINED)
				break;
			if (idx == 1)
				*st = sts[0];
		}
		break;
	default:
		while (done < 2) {
			done = 0;
			MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
			done += flag;
			if (rq[1] != MPI_REQUEST_NULL) {
				MPI_Test(&rq[1], &flag, &sts[0]);
				if (flag)
					*st = sts[0];
			}
			done += rq[1] == MPI_REQUEST_NULL;
		}
	}
}

static int one_round(int rank, int size, int round, int n, int mode, int how,
		     int wild, unsigned char *sb, unsigned char *rb)
{
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	int tag = round % 50, i, got, bad = 0;
	MPI_Request rq[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL }, ib;
	MPI_Status st;

	for (i = 0; i < n; i++)
		sb[i] = byte_of(rank, i, round);
	memset(rb, 0xEE, (size_t)n + 1);
	MPI_Irecv(rb, n, MPI_BYTE, wild == 1 ? MPI_ANY_SOURCE : left,
		  wild == 2 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &rq[1]);
	MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted */
	/* a nonblocking barrier open across the exchange, every third round */
	if (round % 3 == 0)
		MPI_Ibarrier(MPI_COMM_WORLD, &ib);
	if (mode == 0)
		MPI_Send(sb, n, MPI_BYTE, right, tag, MPI_COMM_WORLD);
	else if (mode == 1)
		MPI_Ssend(sb, n, MPI_BYTE, right, tag, MPI_COMM_WORLD);
	else
		MPI_Isend(sb, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &rq[0]);
	complete(how, rq, &st);
	if (round % 3 == 0)
		MPI_Wait(&ib, MPI_STATUS_IGNORE);
	MPI_Get_count(&st, MPI_BYTE, &got);
	bad += got != n || st.MPI_SOURCE != left || st.MPI_TAG != tag;
	for (i = 0; i < n; i++)
		bad += rb[i] != byte_of(left, i, round);
	bad += rb[n] != 0xEE;
	return bad;
}

/* Rank 0 blocks in a receive from rank 2 while rank 1's synchronous send
 * to rank 0's posted receive must complete before rank 1 releases 2. */
static int third_rank(int rank)
{
	int x = 0, y = 7, bad = 0;
	MPI_Request q;

	if (rank == 0)
		MPI_Irecv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &q);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		MPI_Recv(&y, 1, MPI_INT, 2, 3, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
		bad += x != 11 || y != 33;
	} else if (rank == 1) {
		x = 11;
		MPI_Ssend(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		MPI_Send(&x, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
	} else if (rank == 2) {
		MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		y = 33;
		MPI_Send(&y, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
	}
	return bad;
}

int main(int argc, char **argv)
{
	int rank, size, s, mode, how, wild, round = 0, bad = 0, all_bad;
	unsigned char *sb, *rb;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	sb = malloc((size_t)sizes[NSIZES - 1] + 1);
	rb = malloc((size_t)sizes[NSIZES - 1] + 1);
	for (s = 0; s < NSIZES; s++)
		for (mode = 0; mode < 3; mode++)
			for (how = 0; how < 4; how++, round++) {
				wild = round % 3; /* named, any source, any tag */
				bad += one_round(rank, size, round, sizes[s],
						 mode, how, wild, sb, rb);
			}
	if (size >= 3)
		bad += third_rank(rank);
	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("safe exchange on %d ranks: %s (%d bad)\n", size,
		       all_bad ? "WRONG" : "ok", all_bad);
	free(sb);
	free(rb);
	MPI_Finalize();
	return 0;
}
