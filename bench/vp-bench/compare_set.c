/*
 * compare_set.c - the rows vp-bench compares with an MPI library, and how
 * each side's row is kept.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_mpi.h"
#include "bench_rows.h"
#include "compare_set.h"
#include "measure_op.h"

int compare_largest;

/* The comparison set: what the goals need, plus the sizes of the plot,
 * and at p = 2 between threads a medium size (256 bytes: the goal is
 * every size, and messages of 89-512 bytes take their own path, the
 * fastbox's extension) and the goal's largest, 16 MiB (--compare-mpi
 * alone). */
int compare_jobs(int p, struct row *want, int max, char *list, size_t len)
{
	static const char *ops[] = { "barrier",   "bcast",     "reduce",
				     "allreduce", "allgather", "alltoall" };
	static const size_t sizes[] = {
		8, 256, 1024, 65536, 1048576, 16777216
	};
	int n = 0, o, s;

	list[0] = 0;
	for (o = -1; o < 6; o++)
		for (s = 0; s < 6 && n < max; s++) {
			const char *op = o < 0 ? "pingpong" : ops[o];
			size_t b = sizes[s];

			if (o < 0 && p != 2)
				continue;
			if (o == 0 && s) /* the barrier has no size */
				continue;
			if (b == 256 && (p != 2 || bench_transport))
				continue;
			if (p > 8 && b > 65536)
				continue;
			/* the goal's largest size: --compare-mpi only */
			if (b > 1048576 && (p != 2 || !compare_largest))
				continue;
			memset(&want[n], 0, sizeof(want[n]));
			snprintf(want[n].op, sizeof(want[n].op), "%s", op);
			want[n].p = p;
			want[n].bytes = o == 0 ? 0 : b;
			want[n].iters = iterations(b, p) * (o < 0 ? 10 : 1);
			snprintf(list + strlen(list), len - strlen(list),
				 " %s:%zu:%d", op, want[n].bytes,
				 want[n].iters);
			n++;
		}
	return n;
}

/* The comparison set at p, measured by the Open MPI twin: how many rows
 * (want and got alike), or -1 after the error. */
int openmpi_rows(const char *twin, int p, struct row *want, struct row *got,
		 char *list, size_t len)
{
	int nw = compare_jobs(p, want, 64, list, len), ng;

	progress("Open MPI p=%d (%d measurements)", p, nw);
	ng =
	    mpi_run(twin, p, (int)sysconf(_SC_NPROCESSORS_ONLN), list, got, 64);
	if (ng != nw) {
		fprintf(stderr,
			"vp-bench: Open MPI gave %d of %d rows at p = "
			"%d\n",
			ng, nw, p);
		return -1;
	}
	return nw;
}

/* vp's topology for a comparison row: the ping-pong on one link. */
void spec_of(int p, const char *op, char *spec, size_t len)
{
	snprintf(spec, len,
		 p == 2 && !strcmp(op, "pingpong") ? "line:2" : "full:%d", p);
}

/* The lower median of two measurements of the same thing (noise only ever
 * adds time). */
void keep_best(struct row *best, const struct row *r, int first)
{
	if (first || r->s.p50 < best->s.p50)
		*best = *r;
}
