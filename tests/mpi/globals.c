/* globals.c - a program that keeps its rank in a global variable, as a
 * third of small MPI programs do, and a static counter: under a real MPI
 * every process has its own; under vpmpirun every rank has its own copy
 * of the program's globals (with --shared-globals they are shared, and
 * this program sees the others' writes).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int my_rank;
static int calls;

static void count(void)
{
	calls++;
}

int main(int argc, char **argv)
{
	int p, i, bad, mine;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	/* the rank kept on the stack: with shared globals another rank may
	 * overwrite my_rank before it is read back (then two ranks would
	 * print) */
	MPI_Comm_rank(MPI_COMM_WORLD, &mine);
	for (i = 0; i <= my_rank; i++)
		count();
	MPI_Barrier(MPI_COMM_WORLD); /* every rank has written by now */
	bad = my_rank != mine || calls != mine + 1; /* shared: differs on at
						      * least three ranks */
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (mine == 0)
		printf("globals on %d ranks: %s\n", p,
		       bad ? "shared between ranks" : "one copy per rank");
	MPI_Finalize();
	return 0;
}
