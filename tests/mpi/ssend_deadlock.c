/* ssend_deadlock.c - two ranks that each MPI_Ssend to the other before
 * receiving: unsafe (MPI_Send would work only while it buffers), and
 * with synchronous sends a deadlock, which vp reports with its cycle
 * where a real MPI would hang.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	int r, x = 1, y;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	if (r < 2) {
		MPI_Ssend(&x, 1, MPI_INT, 1 - r, 0, MPI_COMM_WORLD);
		MPI_Recv(&y, 1, MPI_INT, 1 - r, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
