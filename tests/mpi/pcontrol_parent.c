/* pcontrol_parent.c - MPI_Pcontrol at every level (MPI 4.0 sec. 15.2.4:
 * nothing happens without a profiling library) and MPI_Comm_get_parent
 * (sec. 11.8.2: MPI_COMM_NULL in a job no one spawned). Prints one line
 * (rank 0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int r, rc = 0, level;
	MPI_Comm parent = MPI_COMM_WORLD;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	for (level = 0; level <= 2; level++)
		rc |= MPI_Pcontrol(level);
	rc |= MPI_Pcontrol(3, "an argument the standard allows");
	rc |= MPI_Comm_get_parent(&parent);
	if (r == 0)
		printf("MPI_Pcontrol returns %s; the parent is %s\n",
		       rc ? "an error" : "MPI_SUCCESS",
		       parent == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a comm");
	MPI_Finalize();
	return 0;
}
