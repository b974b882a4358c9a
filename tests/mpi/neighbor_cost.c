/*
 * neighbor_cost.c - one MPI_Neighbor_alltoall of 4 doubles a neighbour on
 * a periodic 2-D grid, made blocking (argv[1] "blocking"), nonblocking
 * ("nonblocking": MPI_Ineighbor_alltoall, MPI_Wait) or persistent
 * ("persistent": MPI_Neighbor_alltoall_init, MPI_Start, MPI_Wait,
 * MPI_Request_free). vp's model must charge the three alike: one message
 * a neighbour (test_mpi_cases.sh compares their --stats lines).
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <string.h>

int main(int argc, char **argv)
{
	int p, dims[2] = { 0, 0 }, periods[2] = { 1, 1 }, i;
	const char *how = argc > 1 ? argv[1] : "blocking";
	double x[16], y[16];
	MPI_Comm grid;
	MPI_Request q;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Dims_create(p, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	for (i = 0; i < 16; i++)
		x[i] = i;
	if (!strcmp(how, "nonblocking")) {
		MPI_Ineighbor_alltoall(x, 4, MPI_DOUBLE, y, 4, MPI_DOUBLE, grid,
				       &q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
	} else if (!strcmp(how, "persistent")) {
		MPI_Neighbor_alltoall_init(x, 4, MPI_DOUBLE, y, 4, MPI_DOUBLE,
					   grid, MPI_INFO_NULL, &q);
		MPI_Start(&q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
		MPI_Request_free(&q);
	} else {
		MPI_Neighbor_alltoall(x, 4, MPI_DOUBLE, y, 4, MPI_DOUBLE, grid);
	}
	MPI_Comm_free(&grid);
	MPI_Finalize();
	return 0;
}
