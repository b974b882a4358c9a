/*
 * vp-mpi-bench.c - the MPI twin of vp-bench's measurement loops, so that
 * `vp-bench --compare-mpi` times vp and Open MPI doing exactly the same
 * thing. Built by vp-bench with mpicc and run with mpirun; not part of the
 * library.
 *
 *   mpirun -np P vp-mpi-bench OP:BYTES:ITERS ...
 *
 * OP is pingpong (P = 2), barrier, bcast, reduce, allreduce, allgather,
 * reduce_scatter, scan, scatter, gather or alltoall; the loop is in
 * mpi_loops.h.
 * Output, from rank 0, one CSV row per measurement:
 *   op,mpi,p,bytes,iters,min_us,p50_us,p99_us,max_us,0
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mpi_loops.h"

int main(int argc, char **argv)
{
	int p, me, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	for (i = 1; i < argc; i++) {
		char op[32];
		int bytes, iters;
		double t[4] = { 0, 0, 0, 0 };

		if (sscanf(argv[i], "%31[a-z_]:%d:%d", op, &bytes, &iters) !=
			3 ||
		    bytes < 0 || iters < 1) {
			if (me == 0)
				fprintf(stderr,
					"vp-mpi-bench: '%s' is not "
					"OP:BYTES:ITERS\n",
					argv[i]);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		mpi_measure(op, bytes, iters, p, me, t);
		if (me == 0)
			printf("%s,mpi,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,0\n", op, p,
			       bytes, iters, t[0], t[1], t[2], t[3]);
		fflush(stdout);
	}
	MPI_Finalize();
	return 0;
}
