/* undefined_op.c - MPI_MAXLOC on MPI_INT, a pair MPI leaves undefined
 * (MAXLOC takes the value-and-index pair types): the job fails, naming
 * the op and the type, rather than answering wrong.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	int v = 4, out = 0;

	MPI_Init(&argc, &argv);
	MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
