/* own_library.c - a program linked with a shared library of its own
 * (own_library_lib.c, built as libownlib.so and linked -lownlib), which
 * keeps a global variable: every rank stores its rank there, waits for
 * the others to store theirs, and reads it back. Under mpirun each
 * process has its own copy of the library and reads its own rank; ranks
 * that shared one copy would read another's.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

void ownlib_set(int v);
int ownlib_get(void);

int main(int argc, char **argv)
{
	int rank, p, bad;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	ownlib_set(rank);
	MPI_Barrier(MPI_COMM_WORLD); /* every rank has stored by now */
	bad = ownlib_get() != rank;
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("own library on %d ranks: %s\n", p,
		       bad ? "shared between ranks" : "one copy per rank");
	MPI_Finalize();
	return 0;
}
