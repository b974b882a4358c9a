/* explore_order.c - a master that assumes the results it takes with
 * MPI_ANY_SOURCE come in rank order: it files the i-th message as worker
 * i's and asserts so. Whenever a later worker's result is matched first
 * the assertion fails; run freely, whether it does depends on timing, so
 * the bug comes and goes. "explore_order fixed" files each result by its
 * status's MPI_SOURCE and is right under every schedule. Prints one line
 * (rank 0).
 * run-by: test_explore_mpi.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, size, w, v, fixed = argc > 1 && !strcmp(argv[1], "fixed");
	long sum = 0;
	int *by;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank != 0) {
		v = 10 * rank;
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Finalize();
		return 0;
	}
	by = calloc((size_t)size, sizeof(int));
	for (w = 1; w < size; w++) {
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
			 &st);
		if (!fixed)
			assert(st.MPI_SOURCE == w && "results come in rank order");
		by[fixed ? st.MPI_SOURCE : w] = v;
	}
	for (w = 1; w < size; w++)
		sum += (long)w * by[w];
	printf("weighted sum of %d results: %ld\n", size - 1, sum);
	free(by);
	MPI_Finalize();
	return 0;
}
