/*
 * vp-coll.c - wall time next to model time for every collective and
 * algorithm at p = 2, 8, 64 and 8 B, 64 KiB, 1 MiB per rank (per block for
 * the block collectives), on the fully connected topology with ts = 1 us,
 * tw = 0.001 us per byte (1 GB/s).
 *
 * Each (collective, algorithm, p, size) is one vp_run: a warm-up call, then
 * iterations each preceded by a barrier; an iteration's time is the slowest
 * rank's (max over ranks of its own span, taken after the barrier). Output:
 * "# op alg p bytes iters min_us p50_us max_us model_us book_us" (model_us:
 * the model clock's time of one call, run alone; book_us: vp_coll_formula,
 * -1 where the book has none). The block
 * collectives at p = 64 and 1 MiB (64 MiB per rank) are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vp.h"

#define MAXIT 20

struct bench {
	vp_coll op;
	vp_alg alg;
	size_t bytes;
	int iters;
	double span[MAXIT][64];
};

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int call(vp_comm *c, struct bench *b, char *in, char *out)
{
	size_t n = b->bytes;
	int p = vp_size(c);

	switch (b->op) {
	case VP_COLL_BCAST:
		return vp_bcast(c, out, n, VP_BYTE, 0, b->alg);
	case VP_COLL_REDUCE:
		return vp_reduce(c, in, out, n, VP_BYTE, VP_SUM, 0, b->alg);
	case VP_COLL_ALLREDUCE:
		return vp_allreduce(c, in, out, n, VP_BYTE, VP_SUM, b->alg);
	case VP_COLL_ALLGATHER:
		return vp_allgather(c, in, out, n, VP_BYTE, b->alg);
	case VP_COLL_REDUCE_SCATTER:
		return vp_reduce_scatter(c, in, out, n, VP_BYTE, VP_SUM,
					 b->alg);
	case VP_COLL_SCAN:
		return vp_scan(c, in, out, n, VP_BYTE, VP_SUM, b->alg);
	case VP_COLL_SCATTER:
		return vp_scatter(c, in, out, n, VP_BYTE, 0, b->alg);
	case VP_COLL_GATHER:
		return vp_gather(c, in, out, n, VP_BYTE, 0, b->alg);
	case VP_COLL_ALLTOALL:
		return vp_alltoall(c, in, out, n, VP_BYTE, b->alg);
	case VP_COLL_SHIFT:
		return vp_shift(c, in, out, n, VP_BYTE, p / 2 + 1, b->alg);
	case VP_COLL_COUNT_:
		break;
	}
	return VP_EINVAL;
}

static int body(vp_comm *c, void *arg)
{
	struct bench *b = arg;
	int p = vp_size(c), r = vp_rank(c), i, rc;
	char *in = calloc((size_t)p, b->bytes), *out = calloc((size_t)p, b->bytes);

	rc = in && out ? call(c, b, in, out) : VP_ENOMEM; /* warm-up */
	for (i = 0; i < b->iters && !rc; i++) {
		double t0;

		if ((rc = vp_barrier(c)))
			break;
		t0 = now_us();
		rc = call(c, b, in, out);
		b->span[i][r] = now_us() - t0;
	}
	free(in);
	free(out);
	return rc;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static const int ps[] = {2, 8, 64};
	static const size_t sizes[] = {8, 64 * 1024, 1024 * 1024};
	static struct bench b;
	int op, ai, pi, si;

	printf("# op alg p bytes iters min_us p50_us max_us model_us book_us\n");
	for (op = 0; op < VP_COLL_COUNT_; op++) {
		vp_alg algs[VP_ALG_COUNT_];
		int na = vp_coll_algorithms(op, algs, VP_ALG_COUNT_);

		for (ai = 0; ai < na; ai++)
			for (pi = 0; pi < 3; pi++)
				for (si = 0; si < 3; si++) {
					int p = ps[pi], i, r, block;
					char spec[32];
					vp_opts o = {.ts = 1, .tw = 0.001,
						     .quiet = 1};
					vp_stats st;
					double t[MAXIT], model;

					block = op == VP_COLL_ALLGATHER ||
						op == VP_COLL_REDUCE_SCATTER ||
						op == VP_COLL_SCATTER ||
						op == VP_COLL_GATHER ||
						op == VP_COLL_ALLTOALL;
					if (block && p == 64 && si == 2)
						continue;
					snprintf(spec, sizeof(spec), "full:%d",
						 p);
					o.topology = spec;
					memset(&b, 0, sizeof(b));
					b.op = op;
					b.alg = algs[ai];
					b.bytes = sizes[si];
					/* one call alone: its model time */
					if (vp_run(&o, body, &b, &st))
						continue; /* VP_EALG: not here */
					model = st.model_time;
					b.iters = si == 2 ? 5 : MAXIT;
					if (vp_run(&o, body, &b, &st))
						continue;
					for (i = 0; i < b.iters; i++) {
						t[i] = 0;
						for (r = 0; r < p; r++)
							if (b.span[i][r] > t[i])
								t[i] = b.span[i][r];
					}
					qsort(t, (size_t)b.iters, sizeof(double),
					      cmp);
					printf("%-14s %-21s %2d %7zu %2d %9.1f "
					       "%9.1f %9.1f %9.1f %9.1f\n",
					       vp_coll_name(op),
					       vp_alg_name(algs[ai]), p,
					       sizes[si], b.iters, t[0],
					       t[b.iters / 2], t[b.iters - 1],
					       model,
					       vp_coll_formula(op, algs[ai],
							       spec, p,
							       sizes[si],
							       p / 2 + 1, 1,
							       0.001, NULL));
					fflush(stdout);
				}
	}
	return 0;
}
