/* large_tags.c - tags far above MPI's minimum MPI_TAG_UB of 32767, as
 * programs written for MPICH (MPI_TAG_UB 2^28 - 1) and Open MPI (2^31 - 1)
 * use them: MPI_TAG_UB is at least 2^28 - 1, and each rank sends its right
 * neighbour one message under each of the tags 1000004 and 2^28 - 1,
 * received in the other order (the tags keep them apart). Prints one
 * line (rank 0) that does not depend on the MPI library.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	const int big = (1 << 28) - 1, mid = 1000004;
	int rank, size, flag, *ub, a, b, bad = 0;
	MPI_Request req[2];
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
	bad += !flag || *ub < big;
	a = rank;
	b = 100 + rank;
	MPI_Isend(&a, 1, MPI_INT, (rank + 1) % size, mid, MPI_COMM_WORLD,
		  &req[0]);
	MPI_Isend(&b, 1, MPI_INT, (rank + 1) % size, big, MPI_COMM_WORLD,
		  &req[1]);
	MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, big, MPI_COMM_WORLD, &st);
	bad += st.MPI_TAG != big || a != 100 + (rank + size - 1) % size;
	MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, mid, MPI_COMM_WORLD, &st);
	bad += st.MPI_TAG != mid || b != (rank + size - 1) % size;
	MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("large tags on %d ranks: %s\n", size,
		       bad ? "WRONG" : "ok");
	MPI_Finalize();
	return 0;
}
