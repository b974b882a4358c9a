/* unsupported.c - MPI_MAX on MPI_UNSIGNED, which this subset cannot
 * reduce exactly: the job fails, naming the op and the type, rather than
 * answering wrong. */
#include <mpi.h>

int main(int argc, char **argv)
{
	unsigned v = 4000000000u, out = 0;

	MPI_Init(&argc, &argv);
	MPI_Allreduce(&v, &out, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
