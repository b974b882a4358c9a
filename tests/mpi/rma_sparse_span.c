/* rma_sparse_span.c - an accumulate whose target datatype holds a few
 * elements far apart costs the elements' bytes, not the span between
 * them (MPI 4.0 sec. 12.3.4: only the type map's elements are combined).
 * Rank 0's window is 16 Mi ints (64 MiB, allocated and never touched
 * but at the ends); ends is 2 ints, at 0 and at 16 Mi - 1. Every rank,
 * in one fence epoch, 10 times: MPI_Accumulate and MPI_Get_accumulate
 * MPI_SUM of {1, 2} through ends, and MPI_Get_accumulate MPI_NO_OP; then
 * rank 0 MPI_Get_accumulate MPI_REPLACE.
 * The process's peak resident memory may grow by less than 16 MiB
 * meanwhile (a copy of the span would take 64 MiB); rank 0 checks the
 * ends and prints the count of wrong values.
 *
 * no-ref: the memory bound holds for vp; Open MPI's window components
 *   may copy as they please
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <sys/resource.h>

#define N (16 * 1024 * 1024)

static long peak_kib(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

int main(int argc, char **argv)
{
	int r, p, i, bad = 0, all, *w, one[2] = { 1, 2 }, old[2], big[2];
	int at[2] = { 0, N - 1 };
	long before, grown;
	MPI_Datatype ends;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Type_create_indexed_block(2, 1, at, MPI_INT, &ends);
	MPI_Type_commit(&ends);
	MPI_Win_allocate(r ? 0 : (MPI_Aint)N * sizeof(int), sizeof(int),
			 MPI_INFO_NULL, MPI_COMM_WORLD, &w, &win);
	if (!r)
		w[0] = w[N - 1] = 0;
	MPI_Win_fence(0, win);
	before = peak_kib();
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = 0; i < 10; i++) {
		MPI_Accumulate(one, 2, MPI_INT, 0, 0, 1, ends, MPI_SUM, win);
		MPI_Get_accumulate(one, 2, MPI_INT, old, 2, MPI_INT, 0, 0, 1,
				   ends, MPI_SUM, win);
		MPI_Get_accumulate(one, 2, MPI_INT, old, 2, MPI_INT, 0, 0, 1,
				   ends, MPI_NO_OP, win);
	}
	MPI_Win_fence(0, win);
	big[0] = 20 * p, big[1] = 40 * p;
	if (!r) {
		bad += w[0] != big[0] || w[N - 1] != big[1];
		MPI_Get_accumulate(one, 2, MPI_INT, old, 2, MPI_INT, 0, 0, 1,
				   ends, MPI_REPLACE, win);
		bad += old[0] != big[0] || old[1] != big[1];
	}
	MPI_Win_fence(0, win);
	if (!r)
		bad += w[0] != 1 || w[N - 1] != 2;
	MPI_Barrier(MPI_COMM_WORLD);
	grown = peak_kib() - before;
	bad += grown >= 16 * 1024;
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (!r)
		printf("sparse target types on %d ranks: %s (%d bad)\n", p,
		       all ? "WRONG" : "ok", all);
	MPI_Win_free(&win);
	MPI_Type_free(&ends);
	MPI_Finalize();
	return 0;
}
