/* explore_order.c - a master that assumes the results it takes with
 * MPI_ANY_SOURCE come in rank order: it files the i-th message as worker
 * i's and asserts so. The workers form a pipeline: worker w waits for a
 * go from worker w - 1, computes (50 ms), sends its result, then passes
 * the go on. Worker w + 1's result is sent after worker w's, but MPI
 * orders only the messages of one sender (MPI 4.0, sec. 3.5), so a
 * wildcard may take it first. Run freely, worker w + 1 computes after its
 * go and the master has long taken worker w's result, so the results
 * nearly always come in rank order and the bug hides; when worker w + 1's
 * result is matched before worker w's, the assertion fails.
 * "explore_order fixed" files each result by its status's MPI_SOURCE and
 * is right under every schedule. Prints one line (rank 0).
 * run-by: test_explore_mpi.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RESULT, GO };

/* a computation of 50 ms (a sleep stands for it), giving 10 * rank */
static int compute(int rank)
{
	struct timespec t = { 0, 50 * 1000 * 1000 };

	nanosleep(&t, NULL);
	return 10 * rank;
}

static void worker(int rank, int size)
{
	int go = 1, v;

	if (rank > 1)
		MPI_Recv(&go, 1, MPI_INT, rank - 1, GO, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	v = compute(rank);
	MPI_Send(&v, 1, MPI_INT, 0, RESULT, MPI_COMM_WORLD);
	if (rank + 1 < size)
		MPI_Send(&go, 1, MPI_INT, rank + 1, GO, MPI_COMM_WORLD);
}

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
		worker(rank, size);
		MPI_Finalize();
		return 0;
	}
	by = calloc((size_t)size, sizeof(int));
	for (w = 1; w < size; w++) {
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, RESULT,
			 MPI_COMM_WORLD, &st);
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
