/* mpi4_p2p_coll.c - MPI 4.0 calls Open MPI 4.1 lacks: MPI_Isendrecv and
 * MPI_Isendrecv_replace around a ring (sec. 3.10), persistent collectives
 * started twice, two of them started in different orders on different
 * ranks (sec. 6.13: they match in the order they were made), and the
 * large-count MPI_Send_c / MPI_Recv_c (sec. 19.2); a nonblocking
 * reduction and broadcast whose user op and derived datatype are freed
 * before the wait (sec. 6.12: the call keeps them). Prints one line
 * (rank 0).
 * no-ref: Open MPI 4.1 has none of these MPI 4.0 calls
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int sendrecvs(int r, int p)
{
	int right = (r + 1) % p, left = (r + p - 1) % p, bad = 0;
	int x[2] = { r, -r }, y[2] = { -1, -1 }, z[2] = { 5 * r, 6 * r };
	MPI_Request q;
	MPI_Status st;

	MPI_Isendrecv(x, 2, MPI_INT, right, 1, y, 2, MPI_INT, MPI_ANY_SOURCE,
		      1, MPI_COMM_WORLD, &q);
	MPI_Wait(&q, &st);
	bad += y[0] != left || y[1] != -left || st.MPI_SOURCE != left;
	MPI_Isendrecv_replace(z, 2, MPI_INT, right, 2, left, 2, MPI_COMM_WORLD,
			      &q);
	MPI_Wait(&q, &st);
	bad += z[0] != 5 * left || z[1] != 6 * left || st.MPI_TAG != 2;
	return bad;
}

static int persistent(int r, int p)
{
	int bad = 0, v = -1, s, sum = -1, k;
	MPI_Request q[3];

	MPI_Bcast_init(&v, 1, MPI_INT, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL,
		       &q[0]);
	MPI_Allreduce_init(&s, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
			   MPI_INFO_NULL, &q[1]);
	MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]);
	for (k = 1; k <= 2; k++) {
		v = r == p - 1 ? 40 + k : -1;
		s = k * r;
		if (r % 2) { /* the starts in another order: still matched */
			MPI_Start(&q[1]);
			MPI_Start(&q[0]);
		} else {
			MPI_Startall(2, q);
		}
		MPI_Start(&q[2]);
		MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
		bad += v != 40 + k || sum != k * p * (p - 1) / 2;
		bad += q[0] == MPI_REQUEST_NULL; /* inactive, not freed */
	}
	for (k = 0; k < 3; k++)
		MPI_Request_free(&q[k]);
	return bad;
}

static void maxabs(void *in, void *inout, int *len, MPI_Datatype *type)
{
	int *a = in, *b = inout;

	(void)type;
	for (int i = 0; i < *len; i++)
		b[i] = abs(a[i]) > abs(b[i]) ? a[i] : b[i];
}

static int freed_early(int r, int p)
{
	int v = r % 2 ? -r : r, m = 0, pair[4] = { 0 }, bad = 0;
	MPI_Request q[2];
	MPI_Datatype two;
	MPI_Op op;

	MPI_Op_create(maxabs, 1, &op);
	MPI_Type_vector(2, 1, 2, MPI_INT, &two);
	MPI_Type_commit(&two);
	if (r == 0)
		pair[0] = 11, pair[2] = 22;
	MPI_Iallreduce(&v, &m, 1, MPI_INT, op, MPI_COMM_WORLD, &q[0]);
	MPI_Ibcast(pair, 1, two, 0, MPI_COMM_WORLD, &q[1]);
	MPI_Op_free(&op);
	MPI_Type_free(&two);
	MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
	bad += abs(m) != p - 1 || pair[0] != 11 || pair[2] != 22;
	return bad;
}

int main(int argc, char **argv)
{
	int r, p, bad, big[4] = { 1, 2, 3, 4 }, got[4] = { 0 };
	MPI_Count n = 4;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	bad = sendrecvs(r, p) + persistent(r, p) + freed_early(r, p);
	if (r == 0)
		MPI_Send_c(big, n, MPI_INT, p - 1, 3, MPI_COMM_WORLD);
	if (r == p - 1) {
		MPI_Recv_c(got, n, MPI_INT, 0, 3, MPI_COMM_WORLD,
			   MPI_STATUS_IGNORE);
		bad += got[3] != 4;
	}
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("MPI 4.0 point to point and persistent collectives on "
		       "%d ranks: ok (%d bad)\n",
		       p, bad);
	MPI_Finalize();
	return 0;
}
