/* icollectives.c - nonblocking collectives as overlap code uses them:
 *   - MPI_Iallreduce, MPI_Ireduce, MPI_Ibcast, MPI_Igather, MPI_Iscatter,
 *     MPI_Iallgather, MPI_Ialltoall, MPI_Iscan, MPI_Iexscan and
 *     MPI_Ireduce_scatter_block started together and completed with one
 *     MPI_Waitall, every result checked (in place too);
 *   - a non-commutative user op reduces in rank order;
 *   - MPI_Ibarrier completed by MPI_Test in a loop while a point-to-point
 *     exchange goes on, and by MPI_Waitany among other requests;
 *   - the progress rule: rank 0 starts an MPI_Ibcast, sends to rank 1 and
 *     only then waits, while rank 1 receives first and starts the bcast
 *     after (a blocking bcast there would hang).
 * Every rank checks; rank 0 prints the verdict.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

/* (a, b) o (c, d) = (a, b + c): keeps the leftmost first element, so the
 * result shows the order the ranks were combined in */
static void first_of(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout, i;

	(void)t;
	for (i = 0; i < *len; i += 2) {
		b[i + 1] += a[i + 1];
		b[i] = a[i];
	}
}

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, i, flag, idx, x, y;
	int sum, sum2, root_sum = -1, bc[3], g[64], sc[64], one, ag[64];
	int out[64], in[64], pair[2], folded[2], scan, exscan = -1, rs;
	MPI_Request req[12], two[2];
	MPI_Op op;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	for (i = 0; i < size; i++) {
		out[i] = 1000 * rank + i;
		sc[i] = 7 * i;
	}
	x = rank + 1;
	sum2 = rank + 1;
	if (rank == 0)
		bc[0] = 5, bc[1] = 6, bc[2] = 7;
	MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[0]);
	MPI_Ireduce(&x, &root_sum, 1, MPI_INT, MPI_MAX, size - 1,
		    MPI_COMM_WORLD, &req[1]);
	MPI_Ibcast(bc, 3, MPI_INT, 0, MPI_COMM_WORLD, &req[2]);
	MPI_Igather(&x, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[3]);
	MPI_Iscatter(sc, 1, MPI_INT, &one, 1, MPI_INT, 0, MPI_COMM_WORLD,
		     &req[4]);
	MPI_Iallgather(&x, 1, MPI_INT, ag, 1, MPI_INT, MPI_COMM_WORLD, &req[5]);
	MPI_Ialltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD, &req[6]);
	MPI_Iallreduce(MPI_IN_PLACE, &sum2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
		       &req[7]);
	MPI_Op_create(first_of, 0, &op);
	pair[0] = rank;
	pair[1] = 1;
	MPI_Iallreduce(pair, folded, 1, MPI_2INT, op, MPI_COMM_WORLD, &req[8]);
	MPI_Iscan(&x, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[9]);
	MPI_Iexscan(&x, &exscan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[10]);
	MPI_Ireduce_scatter_block(out, &rs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
				  &req[11]);
	MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
	bad += scan != (rank + 1) * (rank + 2) / 2;
	bad += rank > 0 && exscan != rank * (rank + 1) / 2;
	bad += rs != 1000 * size * (size - 1) / 2 + size * rank;
	bad += sum != size * (size + 1) / 2 || sum2 != sum;
	bad += rank == size - 1 && root_sum != size;
	bad += bc[0] != 5 || bc[1] != 6 || bc[2] != 7;
	for (i = 0; rank == 0 && i < size; i++)
		bad += g[i] != i + 1;
	bad += one != 7 * rank;
	for (i = 0; i < size; i++)
		bad += ag[i] != i + 1 || in[i] != 1000 * i + rank;
	bad += folded[0] != 0 || folded[1] != size;
	MPI_Op_free(&op);

	/* a barrier tested while messages go round */
	MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 4, &y, 1, MPI_INT,
		     (rank + size - 1) % size, 4, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	bad += y != (rank + size - 1) % size;
	do
		MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
	while (!flag);
	bad += req[0] != MPI_REQUEST_NULL;

	/* Waitany among a barrier and a receive */
	MPI_Ibarrier(MPI_COMM_WORLD, &two[0]);
	MPI_Irecv(&y, 1, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD,
		  &two[1]);
	MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD);
	for (i = 0; i < 2; i++) {
		MPI_Waitany(2, two, &idx, MPI_STATUS_IGNORE);
		bad += idx != 0 && idx != 1;
	}
	bad += two[0] != MPI_REQUEST_NULL || two[1] != MPI_REQUEST_NULL ||
	       y != (rank + size - 1) % size;

	/* progress: the bcast completes though rank 1 starts it late */
	x = rank == 0 ? 42 : 0;
	if (rank == 0) {
		MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]);
		if (size > 1)
			MPI_Send(&rank, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
		MPI_Wait(&req[0], MPI_STATUS_IGNORE);
	} else {
		if (rank == 1)
			MPI_Recv(&y, 1, MPI_INT, 0, 6, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]);
		MPI_Wait(&req[0], MPI_STATUS_IGNORE);
	}
	bad += x != 42;

	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("nonblocking collectives on %d ranks: %s (%d bad)\n",
		       size, all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
