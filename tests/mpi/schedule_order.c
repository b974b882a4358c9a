/*
 * schedule_order.c - a master/worker program whose output depends on the
 * interleaving: rank 0 hands out tasks and takes results with
 * MPI_ANY_SOURCE, printing which worker each came from; every worker
 * prints a line per task, and all ranks print as they go. Under a
 * deterministic schedule (VP_SCHEDULE) the whole output, its order too,
 * is the same run after run; run freely it varies.
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define TASKS 10

int main(int argc, char **argv)
{
	int rank, size, k, next = 0, busy = 0, v, got = 0;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size == 1) {
		printf("schedule order on 1 rank: nothing to hand out\n");
		MPI_Finalize();
		return 0;
	}
	if (rank == 0) {
		for (k = 1; k < size; k++, busy++) {
			v = next < TASKS ? next++ : -1;
			busy -= v < 0;
			MPI_Send(&v, 1, MPI_INT, k, 1, MPI_COMM_WORLD);
		}
		while (busy) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2,
				 MPI_COMM_WORLD, &st);
			printf("rank 0: result %d from rank %d\n", v,
			       st.MPI_SOURCE);
			got += v;
			busy--;
			v = next < TASKS ? next++ : -1;
			busy += v >= 0;
			MPI_Send(&v, 1, MPI_INT, st.MPI_SOURCE, 1,
				 MPI_COMM_WORLD);
		}
	} else {
		for (;;) {
			MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
			if (v < 0)
				break;
			printf("rank %d: task %d\n", rank, v);
			v *= v;
			MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		}
	}
	MPI_Allreduce(MPI_IN_PLACE, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d: done, sum %d\n", rank, got);
	MPI_Finalize();
	return 0;
}
