/* crash.c - rank 1 ends its process in the way argv[1] names while the
 * others wait for it; the job ends as under mpirun:
 *   abort     abort()                        signal 6
 *   segv      a write through NULL           signal 11
 *   fpe       raise(SIGFPE)                  signal 8
 *   abort256  MPI_Abort(MPI_COMM_WORLD, 256) never success
 *   atexit    atexit(f), then exit(5)        status 5, f runs */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void at_exit(void)
{
	fprintf(stderr, "crash: the atexit handler ran\n");
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	int rank, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1) {
		if (!strcmp(how, "abort"))
			abort();
		if (!strcmp(how, "segv"))
			*(volatile int *)(size_t)(argc - 2) = 1;
		if (!strcmp(how, "fpe"))
			raise(SIGFPE);
		if (!strcmp(how, "abort256"))
			MPI_Abort(MPI_COMM_WORLD, 256);
		if (!strcmp(how, "atexit")) {
			atexit(at_exit);
			exit(5);
		}
	}
	if (rank != 1) {
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		int size, r;

		MPI_Comm_size(MPI_COMM_WORLD, &size);
		for (r = 0; r < size; r++)
			if (r != 1)
				MPI_Send(&x, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
	}
	printf("crash: rank %d went on\n", rank);
	MPI_Finalize();
	return 0;
}
