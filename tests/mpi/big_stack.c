/* big_stack.c - every rank keeps a 1 MiB array on its stack, as an MPI
 * process may (its stack is the process's, ulimit -s): the job sums it
 * everywhere. With vpmpirun --stack-size 64K it cannot fit, and the job
 * ends naming the rank and its stack's size. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define BYTES (1 << 20)

static __attribute__((noinline)) long sum_on_stack(int rank)
{
	volatile unsigned char a[BYTES];
	long sum = 0;
	int i;

	for (i = 0; i < BYTES; i++)
		a[i] = (unsigned char)(1 + (rank & 1));
	for (i = 0; i < BYTES; i++)
		sum += a[i];
	return sum;
}

int main(int argc, char **argv)
{
	int rank, size;
	long mine, total = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	mine = sum_on_stack(rank);
	MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf(
		    "big stack: %d ranks, 1 MiB each on the stack, sum %ld\n",
		    size, total);
	MPI_Finalize();
	return 0;
}
