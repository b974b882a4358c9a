/* exit_stdin.c - process semantics: only rank 0 reads standard input
 * (the others see end of file); exit(0) on a rank ends that rank as
 * returning from main does; with an argument, the last rank calls
 * exit(5), which ends the job with status 5.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int r, p, n = -1, got, sum;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	got = scanf("%d", &n) == 1;
	MPI_Reduce(&got, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("stdin: rank 0 read %d; %d of %d ranks read a number\n",
		       n, sum, p);
	if (argc > 1 && r == p - 1)
		exit(5);
	MPI_Finalize();
	exit(0);
}
