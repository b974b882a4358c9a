/* fork.c - a rank forks; its child, a copy of the process as under any
 * program, ends with exit(): the parent sees the child's status, and the
 * job goes on. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	int rank, a, b;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1) {
		a = child_status(0);
		b = child_status(7);
		printf("children exited with %d and %d\n", a, b);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
