/*
 * vp-bench.c - message-passing overhead of vp next to the machine's physical
 * limits, measured in the same run (the machine is shared and noisy: each
 * figure is the median, min and max of several repetitions, and goals are
 * ratios between figures of this one run).
 *
 *   probe: cache-line ping-pong between two threads (one-way), memcpy 16 MiB
 *   p = 2: one-way latency of 8 bytes (ping-pong / 2), bandwidth of 16 MiB
 *   p = 64 on the available cores: ring exchange and vp_barrier per iteration
 *   p = 4096: vp_run of one ring exchange and one barrier, start to finish
 *
 * Output: a '#' header, then one aligned row per measurement:
 *   op topo p bytes iters min_us p50_us p99_us max_us model_us
 * then the goals with the measured ratios. --csv prints the rows as CSV.
 * An iteration's time is the slowest rank's (rank 0 times after a barrier
 * that everybody leaves together).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vp.h"

#define REPS 7

static int csv;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct summary {
	double min, p50, p99, max;
};

static struct summary summarize(double *v, int n)
{
	struct summary s;

	qsort(v, (size_t)n, sizeof(double), cmp_double);
	s.min = v[0];
	s.p50 = v[n / 2];
	s.p99 = v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
	s.max = v[n - 1];
	return s;
}

static void row(const char *op, const char *topo, int p, size_t bytes,
		int iters, struct summary s, double model)
{
	if (csv)
		printf("%s,%s,%d,%zu,%d,%.3f,%.3f,%.3f,%.3f,%.1f\n", op, topo,
		       p, bytes, iters, s.min, s.p50, s.p99, s.max, model);
	else
		printf("%-18s %-10s %5d %9zu %7d %10.3f %10.3f %10.3f %10.3f "
		       "%10.1f\n",
		       op, topo, p, bytes, iters, s.min, s.p50, s.p99, s.max,
		       model);
	fflush(stdout);
}

/* ---- physical probes ---- */

static _Alignas(64) atomic_int line_flag;
static int probe_iters = 200000;

static void *probe_partner(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < probe_iters; i++) {
		while (atomic_load_explicit(&line_flag, memory_order_acquire) !=
		       2 * i + 1)
			;
		atomic_store_explicit(&line_flag, 2 * i + 2,
				      memory_order_release);
	}
	return NULL;
}

/* One-way time of a cache line bouncing between two spinning threads. */
static double probe_cacheline_us(void)
{
	pthread_t t;
	double t0, t1;
	int i;

	atomic_store(&line_flag, 0);
	pthread_create(&t, NULL, probe_partner, NULL);
	t0 = now_us();
	for (i = 0; i < probe_iters; i++) {
		atomic_store_explicit(&line_flag, 2 * i + 1,
				      memory_order_release);
		while (atomic_load_explicit(&line_flag, memory_order_acquire) !=
		       2 * i + 2)
			;
	}
	t1 = now_us();
	pthread_join(t, NULL);
	return (t1 - t0) / (2.0 * probe_iters);
}

/* Single-thread memcpy bandwidth of n bytes, in bytes per microsecond. */
static double probe_memcpy_bpus(size_t n)
{
	char *a = malloc(n), *b = malloc(n);
	double best = 0;
	int i;

	memset(a, 1, n);
	memset(b, 2, n);
	for (i = 0; i < 10; i++) {
		double t0 = now_us(), bw;
		memcpy(b, a, n);
		bw = (double)n / (now_us() - t0);
		if (bw > best)
			best = bw;
	}
	free(a);
	free(b);
	return best;
}

/* ---- vp measurements ---- */

struct job {
	size_t bytes;
	int iters;
	double per_iter_us; /* written by rank 0 */
	double model;
};

static int pingpong_fn(vp_comm *c, void *arg)
{
	struct job *j = arg;
	char *b = calloc(1, j->bytes + 1);
	int me = vp_rank(c), i, rc = 0, warm = j->iters / 10 + 1;
	double t0 = 0;

	for (i = -warm; i < j->iters && !rc; i++) {
		if (i == 0) {
			rc = vp_barrier(c);
			t0 = now_us();
		}
		if (me == 0)
			rc = vp_send(c, 1, b, j->bytes) ?:
			     vp_recv(c, 1, b, j->bytes);
		else
			rc = vp_recv(c, 0, b, j->bytes) ?:
			     vp_send(c, 0, b, j->bytes);
	}
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	free(b);
	return rc;
}

/* One-way streaming of large messages with a zero-byte ack per message. */
static int stream_fn(vp_comm *c, void *arg)
{
	struct job *j = arg;
	char *b = malloc(j->bytes);
	int me = vp_rank(c), i, rc = 0;
	double t0 = 0;

	memset(b, me, j->bytes);
	for (i = -2; i < j->iters && !rc; i++) {
		if (i == 0) {
			rc = vp_barrier(c);
			t0 = now_us();
		}
		if (me == 0)
			rc = vp_send(c, 1, b, j->bytes) ?: vp_recv(c, 1, NULL, 0);
		else
			rc = vp_recv(c, 0, b, j->bytes) ?: vp_send(c, 0, NULL, 0);
	}
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	free(b);
	return rc;
}

static int ring_fn(vp_comm *c, void *arg)
{
	struct job *j = arg;
	int me = vp_rank(c), p = vp_size(c), i, rc = 0;
	char *s = calloc(1, j->bytes + 1), *r = calloc(1, j->bytes + 1);
	double t0 = 0;

	for (i = -5; i < j->iters && !rc; i++) {
		if (i == 0) {
			rc = vp_barrier(c);
			t0 = now_us();
		}
		rc = rc ?: vp_sendrecv(c, (me + 1) % p, s, j->bytes,
				       (me - 1 + p) % p, r, j->bytes);
	}
	rc = rc ?: vp_barrier(c); /* the slowest rank has finished */
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	free(s);
	free(r);
	return rc;
}

static int barrier_fn(vp_comm *c, void *arg)
{
	struct job *j = arg;
	int i, rc = 0;
	double t0 = 0;

	for (i = -5; i < j->iters && !rc; i++) {
		if (i == 0) {
			rc = vp_barrier(c);
			t0 = now_us();
		}
		rc = rc ?: vp_barrier(c);
	}
	if (vp_rank(c) == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	return rc;
}

static int once_fn(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), got;

	(void)arg;
	return vp_sendrecv(c, (me + 1) % p, &me, sizeof(me), (me - 1 + p) % p,
			   &got, sizeof(got)) ?:
	       vp_barrier(c);
}

/* Runs fn REPS times; returns per-iteration times (us) in v. */
static struct summary measure(const char *topo, int (*fn)(vp_comm *, void *),
			      size_t bytes, int iters, double scale,
			      double *model)
{
	double v[REPS];
	int k;

	for (k = 0; k < REPS; k++) {
		vp_opts o = {.topology = topo, .ts = 1, .tw = 0.001};
		struct job j = {.bytes = bytes, .iters = iters};
		vp_stats st;
		if (vp_run(&o, fn, &j, &st)) {
			fprintf(stderr, "vp-bench: %s failed: %s\n", topo,
				st.error);
			exit(1);
		}
		v[k] = j.per_iter_us * scale;
		*model = st.model_time / (iters + 1);
	}
	return summarize(v, REPS);
}

static const char *met(int ok)
{
	return ok ? "met" : "NOT met";
}

int main(int argc, char **argv)
{
	struct summary lat, bw, ring, bar, big, cl;
	double probes[REPS], cl_us, memcpy_bpus, model, v[REPS];
	size_t mb16 = (size_t)16 << 20;
	int k, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv")) {
			csv = 1;
		} else {
			fprintf(stderr,
				"vp-bench: unknown argument '%s' (accepted: "
				"--csv)\n",
				argv[i]);
			return 2;
		}
	}
	if (csv)
		printf("op,topo,p,bytes,iters,min_us,p50_us,p99_us,max_us,"
		       "model_us\n");
	else
		printf("# %-16s %-10s %5s %9s %7s %10s %10s %10s %10s %10s\n",
		       "op", "topo", "p", "bytes", "iters", "min_us", "p50_us",
		       "p99_us", "max_us", "model_us");

	for (k = 0; k < REPS; k++)
		probes[k] = probe_cacheline_us();
	cl = summarize(probes, REPS);
	cl_us = cl.p50;
	row("probe_cacheline", "-", 2, 64, probe_iters, cl, 0);
	memcpy_bpus = probe_memcpy_bpus(mb16);
	for (k = 0; k < REPS; k++)
		v[k] = (double)mb16 / probe_memcpy_bpus(mb16);
	row("probe_memcpy", "-", 1, mb16, 10, summarize(v, REPS), 0);
	memcpy_bpus = (double)mb16 / summarize(v, REPS).p50;

	lat = measure("line:2", pingpong_fn, 8, 20000, 0.5, &model);
	row("pingpong_oneway", "line:2", 2, 8, 20000, lat, model / 2);
	bw = measure("line:2", stream_fn, mb16, 20, 1.0, &model);
	row("stream_16MiB", "line:2", 2, mb16, 20, bw, model);
	ring = measure("ring:64", ring_fn, 8, 2000, 1.0, &model);
	row("ring_exchange", "ring:64", 64, 8, 2000, ring, model);
	bar = measure("full:64", barrier_fn, 0, 2000, 1.0, &model);
	row("barrier", "full:64", 64, 0, 2000, bar, model);
	{
		vp_stats st;
		vp_opts o = {.topology = "ring:4096"};
		/* start to finish, as the user sees it: thread creation,
		 * the run, the model's post-processing and teardown */
		for (k = 0; k < REPS; k++) {
			double t0 = now_us();
			if (vp_run(&o, once_fn, NULL, &st))
				return 1;
			v[k] = now_us() - t0;
		}
		big = summarize(v, REPS);
		row("run_ring_barrier", "ring:4096", 4096, 4, 1, big,
		    st.model_time);
		printf("# p = 4096: %zu KiB runtime memory in all (%zu B per "
		       "rank), %zu KiB stack reserved per rank\n",
		       st.peak_bytes / 1024, st.peak_bytes / 4096,
		       st.stack_size / 1024);
	}

	printf("#\n# goals (ratios within this run; medians)\n");
	printf("# latency 8 B one-way   %8.3f us = %5.2f x cache line "
	       "(%.3f us)   goal <= 1.5x: %s\n",
	       lat.p50, lat.p50 / cl_us, cl_us, met(lat.p50 <= 1.5 * cl_us));
	printf("# bandwidth 16 MiB      %8.2f GB/s = %5.2f x memcpy (%.2f "
	       "GB/s)   goal >= 0.8x: %s\n",
	       (double)mb16 / bw.p50 / 1e3,
	       ((double)mb16 / bw.p50) / memcpy_bpus, memcpy_bpus / 1e3,
	       met(((double)mb16 / bw.p50) >= 0.8 * memcpy_bpus));
	printf("# barrier p = 64        %8.1f us   goal <= 110 us: %s\n",
	       bar.p50, met(bar.p50 <= 110));
	printf("# run p = 4096          %8.3f s    goal <= 0.5 s: %s\n",
	       big.p50 / 1e6, met(big.p50 <= 0.5e6));
	return 0;
}
