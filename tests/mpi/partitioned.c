/* partitioned.c - partitioned point to point (MPI 4.0, chapter 4) around
 * a ring: each rank sends to the next and receives from the previous,
 * with the same and with different partition counts on the two sides
 * (4 x 3 ints to 4 x 3, 6 x 2 to 3 x 4, 2 x 6 to 12 x 1), partitions
 * marked ready in reverse order, by MPI_Pready_range and by
 * MPI_Pready_list, MPI_Parrived polled per partition (the data of each
 * there once it says so), the receive into a strided datatype, two
 * rounds of one request pair (MPI_Startall, MPI_Test, MPI_Waitany).
 * Prints one line (rank 0).
 * no-ref: Open MPI 4.1 has no partitioned calls (MPICH 4.0 prints the same)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define N 12

static int r, p, next, prev;

/* One round: sp x sc ints sent, rp x rc received (sp sc = rp rc = N), the
 * sender's partitions marked by how (0 reverse, 1 range, 2 list), the
 * receiver polling MPI_Parrived until all arrived; bad if data differ. */
static int round_of(int sp, int sc, int rp, int rc, int how, int round)
{
	int out[N], in[N], i, j, all, flag, bad = 0, list[N];
	MPI_Request q[2];

	for (i = 0; i < N; i++) {
		out[i] = 1000 * r + 10 * i + round;
		in[i] = -1;
	}
	MPI_Psend_init(out, sp, sc, MPI_INT, next, 7, MPI_COMM_WORLD,
		       MPI_INFO_NULL, &q[0]);
	MPI_Precv_init(in, rp, rc, MPI_INT, prev, 7, MPI_COMM_WORLD,
		       MPI_INFO_NULL, &q[1]);
	MPI_Startall(2, q);
	if (how == 0)
		for (i = sp - 1; i >= 0; i--)
			MPI_Pready(i, q[0]);
	else if (how == 1) {
		MPI_Pready_range(0, sp / 2 - 1, q[0]);
		MPI_Pready_range(sp / 2, sp - 1, q[0]);
	} else {
		for (i = 0; i < sp; i++)
			list[i] = (i * 5 + 1) % sp;
		MPI_Pready_list(sp, list, q[0]);
	}
	do { /* each partition's data are there once it has arrived */
		for (j = 0, all = 1; j < rp; j++) {
			MPI_Parrived(q[1], j, &flag);
			all &= flag;
			for (i = j * rc; flag && i < (j + 1) * rc; i++)
				bad += in[i] != 1000 * prev + 10 * i + round;
		}
	} while (!all);
	MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
	MPI_Request_free(&q[0]);
	MPI_Request_free(&q[1]);
	return bad;
}

/* A request pair used for two rounds, the receive into every other int
 * of a buffer (a vector type); completed by Testall, then Waitany. */
static int two_rounds(void)
{
	int out[N], in[2 * N], i, k, done, flag, idx, bad = 0;
	MPI_Datatype vec, every_other;
	MPI_Request q[2];

	MPI_Type_vector(N / 2, 1, 2, MPI_INT, &vec);
	MPI_Type_create_resized(vec, 0, N * sizeof(int), &every_other);
	MPI_Type_commit(&every_other);
	MPI_Type_free(&vec);
	MPI_Psend_init(out, 3, 4, MPI_INT, next, 8, MPI_COMM_WORLD,
		       MPI_INFO_NULL, &q[0]);
	MPI_Precv_init(in, 2, 1, every_other, prev, 8, MPI_COMM_WORLD,
		       MPI_INFO_NULL, &q[1]);
	MPI_Type_free(&every_other); /* the requests keep their own */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < N; i++)
			out[i] = 100 * r + i + 50 * k;
		for (i = 0; i < 2 * N; i++)
			in[i] = -1;
		MPI_Startall(2, q);
		MPI_Pready_list(3, (int[]){ 2, 0, 1 }, q[0]);
		if (k == 0) /* (MPICH 4.0's MPI_Testall fails on them) */
			for (done = 0; done < 2;) {
				MPI_Test(&q[done], &flag, MPI_STATUS_IGNORE);
				done += flag;
			}
		else
			for (i = 0; i < 2; i++)
				MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
		for (i = 0; i < 2 * N; i++)
			bad += in[i] != (i % 2 ? -1 : 100 * prev + i / 2 + 50 * k);
	}
	MPI_Request_free(&q[0]);
	MPI_Request_free(&q[1]);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0, all;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	next = (r + 1) % p;
	prev = (r + p - 1) % p;
	bad += round_of(4, 3, 4, 3, 0, 0);
	bad += round_of(6, 2, 3, 4, 1, 1);
	bad += round_of(2, 6, 12, 1, 2, 2);
	bad += round_of(12, 1, 2, 6, 0, 3);
	bad += two_rounds();
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("partitioned point to point on %d ranks: %s (%d bad)\n",
		       p, all ? "FAILED" : "ok", all);
	MPI_Finalize();
	return 0;
}
