/*
 * dims_ties.c - MPI_Dims_create among equally balanced grids picks the
 * one MPICH picks (MPI 4.0 sec. 8.5.2 leaves the choice open; MPICH's
 * topo/dims5 lists its answers): 590520 nodes in 4 dimensions have two
 * grids of spread 18, 98784 in 5 two of spread 7. Each line is one call's
 * grid, printed by rank 0.
 * no-ref: Open MPI picks other grids among equally balanced ones
 */
#include <mpi.h>
#include <stdio.h>

static void show(int n, int nd, int fixed_at, int fixed)
{
	int dims[8] = { 0 }, i;

	if (fixed_at >= 0)
		dims[fixed_at] = fixed;
	MPI_Dims_create(n, nd, dims);
	printf("%d in %dd:", n, nd);
	for (i = 0; i < nd; i++)
		printf(" %d", dims[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		show(590520, 4, -1, 0);
		show(98784, 5, -1, 0);
		show(134064, 5, -1, 0);
		show(100, 3, -1, 0);
		show(2 * 3 * 1000003, 3, -1, 0);
		show(64, 3, 1, 2);
		show(1, 3, -1, 0);
	}
	MPI_Finalize();
	return 0;
}
