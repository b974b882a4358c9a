/* exact_sum.c - sums whose rounding depends on the order: 2^60 on rank 1,
 * -2^60 on the last rank, 1 on the others (3 or more ranks). Their exact
 * sum is p - 2; summed left to right in rank order it is 0. With
 * VP_REPRODUCIBLE=1 vp's MPI_Allreduce, MPI_Reduce and MPI_Scan give p - 2
 * whatever the algorithm.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(void)
{
	int rank, size;
	double x, all, root = 0, prefix;

	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	x = rank == 1 ? 0x1p60 : rank == size - 1 ? -0x1p60 : 1.0;
	MPI_Allreduce(&x, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Reduce(&x, &root, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Scan(&x, &prefix, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Bcast(&root, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (rank == size - 1)
		printf("sums on %d ranks: allreduce %g reduce %g scan %g\n",
		       size, all, root, prefix);
	MPI_Finalize();
	return 0;
}
