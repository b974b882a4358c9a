/*
 * mpi_loops.h - the MPI side of vp-bench's measurements: one call of an
 * operation with the MPI library's own functions, and the timed loop
 * around it. Included by the MPI twin (vp-mpi-bench.c, for --compare-mpi)
 * and by vp-bench --transport mpi, so both time MPI the same way.
 *
 * The loop is vp-bench's: ITERS / 10 + 2 warm-up calls discarded, then
 * ITERS calls, each after a barrier; every rank times its own call and an
 * iteration's time is the slowest rank's (MPI_MAX over ranks). Ping-pong is
 * timed by rank 0 alone, without barriers: the one-way time is half a
 * round trip. BYTES per rank (per block for the block collectives),
 * unsigned bytes summed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_MPI_LOOPS_H
#define VP_BENCH_MPI_LOOPS_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_buffer.h"

static int mpi_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The operations mpi_call knows, by name; mpi_measure resolves the name
 * once, before its timed loop, so that the loop times the call and not
 * the lookup (vp-bench's own loop does the same). */
static const char *const mpi_ops[] = {
	"barrier",   "bcast",          "reduce",   "allreduce",
	"allgather", "reduce_scatter", "scan",     "scatter",
	"gather",    "alltoall",       "pingpong", NULL
};
enum {
	MPI_OP_BARRIER,
	MPI_OP_BCAST,
	MPI_OP_REDUCE,
	MPI_OP_ALLREDUCE,
	MPI_OP_ALLGATHER,
	MPI_OP_REDUCE_SCATTER,
	MPI_OP_SCAN,
	MPI_OP_SCATTER,
	MPI_OP_GATHER,
	MPI_OP_ALLTOALL,
	MPI_OP_PINGPONG
};

static int mpi_op_code(const char *op)
{
	int k;

	for (k = 0; mpi_ops[k]; k++)
		if (!strcmp(op, mpi_ops[k]))
			return k;
	return -1;
}

static int mpi_call(MPI_Comm w, int code, char *in, char *out, int n, int p,
		    int me)
{
	MPI_Datatype u8 = MPI_UNSIGNED_CHAR;

	switch (code) {
	case MPI_OP_BARRIER:
		return MPI_Barrier(w);
	case MPI_OP_BCAST:
		return MPI_Bcast(out, n, u8, 0, w);
	case MPI_OP_REDUCE:
		return MPI_Reduce(in, out, n, u8, MPI_SUM, 0, w);
	case MPI_OP_ALLREDUCE:
		return MPI_Allreduce(in, out, n, u8, MPI_SUM, w);
	case MPI_OP_ALLGATHER:
		return MPI_Allgather(in, n, u8, out, n, u8, w);
	case MPI_OP_REDUCE_SCATTER:
		return MPI_Reduce_scatter_block(in, out, n, u8, MPI_SUM, w);
	case MPI_OP_SCAN:
		return MPI_Scan(in, out, n, u8, MPI_SUM, w);
	case MPI_OP_SCATTER:
		return MPI_Scatter(in, n, u8, out, n, u8, 0, w);
	case MPI_OP_GATHER:
		return MPI_Gather(in, n, u8, out, n, u8, 0, w);
	case MPI_OP_ALLTOALL:
		return MPI_Alltoall(in, n, u8, out, n, u8, w);
	case MPI_OP_PINGPONG:
		if (p < 2)
			return -1;
		if (me == 0) {
			MPI_Send(in, n, u8, 1, 0, w);
			return MPI_Recv(out, n, u8, 1, 0, w, MPI_STATUS_IGNORE);
		}
		if (me == 1) {
			MPI_Recv(out, n, u8, 0, 0, w, MPI_STATUS_IGNORE);
			return MPI_Send(in, n, u8, 0, 0, w);
		}
		return MPI_SUCCESS;
	}
	return -1;
}

/* Times op on the communicator w (a duplicate of MPI_COMM_WORLD, or it);
 * the loop's barriers and the reduction of the times are on
 * MPI_COMM_WORLD. On rank 0, t[] = min, median, p99 and max in
 * microseconds. An unknown op aborts the job. */
static void mpi_measure_on(MPI_Comm w, const char *op, int bytes, int iters,
			   int p, int me, double t[4])
{
	size_t room = bench_room(op, p, (size_t)bytes);
	char *in = bench_buffer(room), *out = bench_buffer(room);
	double *span = calloc((size_t)iters, sizeof(double));
	double *slowest = calloc((size_t)iters, sizeof(double));
	int code = mpi_op_code(op), pingpong = code == MPI_OP_PINGPONG, i;
	int warm = iters / 10 + 2;

	for (i = 0; i < warm; i++)
		if (mpi_call(w, code, in, out, bytes, p, me) != MPI_SUCCESS) {
			if (me == 0)
				fprintf(stderr,
					"mpi_measure: unknown op "
					"'%s'\n",
					op);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = 0; i < iters; i++) {
		double t0;

		if (!pingpong)
			MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		mpi_call(w, code, in, out, bytes, p, me);
		span[i] = (MPI_Wtime() - t0) * 1e6 / (pingpong ? 2 : 1);
		if (pingpong && me != 0)
			span[i] = 0;
	}
	MPI_Reduce(span, slowest, iters, MPI_DOUBLE, MPI_MAX, 0,
		   MPI_COMM_WORLD);
	if (me == 0) {
		int q =
		    (iters * 99) / 100 < iters ? (iters * 99) / 100 : iters - 1;

		qsort(slowest, (size_t)iters, sizeof(double), mpi_cmp_double);
		t[0] = slowest[0];
		t[1] = slowest[iters / 2];
		t[2] = slowest[q];
		t[3] = slowest[iters - 1];
	}
	free(in);
	free(out);
	free(span);
	free(slowest);
}

/* mpi_measure_on MPI_COMM_WORLD. */
static void mpi_measure(const char *op, int bytes, int iters, int p, int me,
			double t[4])
{
	mpi_measure_on(MPI_COMM_WORLD, op, bytes, iters, p, me, t);
}

#endif
