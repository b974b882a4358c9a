/* crash.c - how a rank's process ends, by argv[1]:
 *   big       every rank sums a 1 MiB array on its stack (the process's
 *             stack, ulimit -s, as an MPI process has); with vpmpirun
 *             --stack-size 64K it cannot fit, and the job ends naming the
 *             rank and its stack's size
 *   fork      rank 1 forks twice; the children end with exit(0) and
 *             exit(7), which the parent sees, and the job goes on
 * or rank 1 ends its process while the others wait for it; the job ends
 * as under mpirun:
 *   abort     abort()                        signal 6
 *   segv      a write through NULL           signal 11
 *   fpe       raise(SIGFPE)                  signal 8
 *   abort256  MPI_Abort(MPI_COMM_WORLD, 256) never success
 *   atexit    atexit(f), then exit(5)        status 5, f runs
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

static int child_status(int code)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0)
		exit(code);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

static void at_exit(void)
{
	fprintf(stderr, "crash: the atexit handler ran\n");
}

static void end_rank_1(const char *how, int argc)
{
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

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	int rank, size, r, x = 0;
	long mine, total = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(how, "big")) {
		mine = sum_on_stack(rank);
		MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0,
			   MPI_COMM_WORLD);
		if (rank == 0)
			printf("big stack: %d ranks, 1 MiB each on the stack, "
			       "sum %ld\n",
			       size, total);
	} else if (!strcmp(how, "fork")) {
		if (rank == 1) {
			r = child_status(0);
			printf("children exited with %d and %d\n", r,
			       child_status(7));
		}
		MPI_Barrier(MPI_COMM_WORLD);
	} else if (rank == 1) {
		end_rank_1(how, argc);
		for (r = 0; r < size; r++)
			if (r != 1)
				MPI_Send(&x, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		printf("crash: rank %d went on\n", rank);
	}
	MPI_Finalize();
	return 0;
}
