/*
 * reproducible_cost.c - vp-bench --reproducible: what reproducible sums
 * (vp_opts.reproducible) cost. vp_allreduce with VP_SUM of doubles, AUTO
 * algorithm, on full:P, plain and reproducible in the same run, for three
 * kinds of data (the width of the fixed-point integers depends on the
 * span of the terms' magnitudes):
 *   narrow   1 + k/count: one binade
 *   uniform  uniform in (-1, 1)
 *   wide     uniform in (-1, 1) times 2^-30 .. 2^30
 * Per call: model time (ts = 1, tw = 0.001), payload bytes delivered and
 * wall time, each plain and reproducible and their ratio; and how many
 * elements the plain sum got wrong (not the correctly rounded exact sum,
 * which the reproducible one is).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_rows.h"
#include "modes.h"
#include "vp.h"

enum repro_data { REPRO_NARROW, REPRO_UNIFORM, REPRO_WIDE };

struct repro_job {
	enum repro_data data;
	size_t count;
	int iters;
	double wall_us; /* per call, rank 0 */
	double *result; /* rank 0's last result (count) */
};

static double repro_term(enum repro_data d, size_t k, int r, size_t count)
{
	uint64_t z = (k * 2654435761u) ^ ((uint64_t)r * 40503u + 17);
	double u;

	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 32;
	u = (double)(z >> 11) * 0x1p-53 * (z & 1 ? -1 : 1);
	switch (d) {
	case REPRO_NARROW:
		return 1 + (double)k / (double)count;
	case REPRO_UNIFORM:
		return u;
	default:
		return ldexp(u, (int)((z >> 3) % 61) - 30);
	}
}

static int repro_fn(vp_comm *c, void *arg)
{
	struct repro_job *j = arg;
	double *in = malloc(j->count * sizeof(double));
	double *out = malloc(j->count * sizeof(double)), t0;
	int it, rc = VP_OK;

	if (!in || !out) {
		free(in);
		free(out);
		return vp_abort(c, VP_ENOMEM, "vp-bench", "no memory");
	}
	for (size_t k = 0; k < j->count; k++)
		in[k] = repro_term(j->data, k, vp_rank(c), j->count);
	rc = vp_barrier(c);
	t0 = now_us();
	for (it = 0; it < j->iters && !rc; it++)
		rc = vp_allreduce(c, in, out, j->count, VP_DOUBLE, VP_SUM,
				  VP_ALG_AUTO);
	if (!rc && vp_rank(c) == 0) {
		j->wall_us = (now_us() - t0) / j->iters;
		memcpy(j->result, out, j->count * sizeof(double));
	}
	free(in);
	free(out);
	return rc;
}

static int reproducible_cost(int smoke)
{
	static const char *const kinds[] = { "narrow", "uniform", "wide" };
	static const int ps[] = { 8, 64 };
	static const size_t counts[] = { 1, 1024, 65536 };
	int failed = 0;

	printf("# vp-bench --reproducible: vp_allreduce VP_SUM of doubles, "
	       "auto algorithm, full:P, ts = 1, tw = 0.001; per call, plain "
	       "| reproducible (x ratio)\n");
	printf("# %3s %6s %-8s %21s %25s %23s %s\n", "p", "count", "data",
	       "model time", "bytes", "wall us", "plain sums not exact");
	for (size_t pi = 0; pi < (smoke ? 1u : 2u); pi++)
		for (size_t ci = 0; ci < (smoke ? 2u : 3u); ci++)
			for (int d = 0; d < 3; d++) {
				int p = ps[pi];
				size_t count = counts[ci];
				char topo[32];
				vp_opts o = { .topology = topo,
					      .ts = 1,
					      .tw = 0.001,
					      .quiet = 1 };
				struct repro_job j[2];
				vp_stats st[2];
				size_t wrong = 0;
				int mode, rc = 0;

				snprintf(topo, sizeof(topo), "full:%d", p);
				for (mode = 0; mode < 2; mode++) {
					j[mode] = (struct repro_job){
						.data = (enum repro_data)d,
						.count = count,
						.iters = count > 4096 || p > 8
							     ? 3
							     : 50,
						.result = malloc(count *
								 sizeof(double))
					};
					o.reproducible = mode;
					rc |= vp_run(&o, repro_fn, &j[mode],
						     &st[mode]);
				}
				if (rc) {
					printf("  %3d %6zu %-8s FAILED: %s\n",
					       p, count, kinds[d],
					       st[0].error[0] ? st[0].error
							      : st[1].error);
					failed++;
				} else {
					double per[2][2];

					for (mode = 0; mode < 2; mode++) {
						per[mode][0] =
						    st[mode].model_time /
						    j[mode].iters;
						per[mode][1] =
						    (double)st[mode].bytes /
						    j[mode].iters;
					}
					for (size_t k = 0; k < count; k++)
						wrong +=
						    memcmp(&j[0].result[k],
							   &j[1].result[k],
							   sizeof(double)) != 0;
					printf("  %3d %6zu %-8s %8.1f | %8.1f "
					       "(x%.2f) %9.0f | %9.0f (x%.2f) "
					       "%8.1f | %8.1f (x%.2f) %zu of "
					       "%zu\n",
					       p, count, kinds[d], per[0][0],
					       per[1][0], per[1][0] / per[0][0],
					       per[0][1], per[1][1],
					       per[1][1] / per[0][1],
					       j[0].wall_us, j[1].wall_us,
					       j[1].wall_us / j[0].wall_us,
					       wrong, count);
				}
				free(j[0].result);
				free(j[1].result);
			}
	return failed ? 1 : 0;
}

int mode_reproducible(const struct bench_args *a)
{
	(void)a;
	return reproducible_cost(bench_quick);
}
