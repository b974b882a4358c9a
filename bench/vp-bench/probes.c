/*
 * probes.c - the machine's own speed, measured beside vp in the same run:
 * a cache line bounced between two threads, a flag passed each way on a
 * line of its own, and one thread's memcpy.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rows.h"
#include "probes.h"

static _Alignas(64) atomic_int line_flag;
static _Alignas(64) atomic_int line_there;
static _Alignas(64) atomic_int line_back;
int probe_iters = 200000;
/* the bounce in progress: the caller writes odd counts to *bounce_there,
 * the partner answers with the next even count in *bounce_back */
static atomic_int *bounce_there, *bounce_back;

static void *probe_partner(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < probe_iters; i++) {
		while (atomic_load_explicit(bounce_there,
					    memory_order_acquire) != 2 * i + 1)
			;
		atomic_store_explicit(bounce_back, 2 * i + 2,
				      memory_order_release);
	}
	return NULL;
}

/* One-way time of a count passed to a spinning partner in *there and
 * answered in *back (the same flag or two). */
static double probe_bounce_us(atomic_int *there, atomic_int *back)
{
	pthread_t t;
	double t0, t1;
	int i;

	atomic_store(there, 0);
	atomic_store(back, 0);
	bounce_there = there;
	bounce_back = back;
	pthread_create(&t, NULL, probe_partner, NULL);
	t0 = now_us();
	for (i = 0; i < probe_iters; i++) {
		atomic_store_explicit(there, 2 * i + 1, memory_order_release);
		while (atomic_load_explicit(back, memory_order_acquire) !=
		       2 * i + 2)
			;
	}
	t1 = now_us();
	pthread_join(t, NULL);
	return (t1 - t0) / (2.0 * probe_iters);
}

/* One-way time of a cache line bouncing between two spinning threads. */
double probe_cacheline_us(void)
{
	return probe_bounce_us(&line_flag, &line_flag);
}

/*
 * One-way time of a flag passed back and forth on two lines, each
 * written by one thread only: what any protocol with a line per
 * direction pays, as vp's fastbox and Open MPI's do. Set against the
 * one-line ping-pong above, it says what a line per direction costs a
 * hand-off, whatever the protocol above it.
 */
double probe_two_lines_us(void)
{
	return probe_bounce_us(&line_there, &line_back);
}

/* Single-thread memcpy bandwidth of n bytes, in bytes per microsecond. */
double probe_memcpy_bpus(size_t n)
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

/* The placement's probe: the median of three bounces of a cache line
 * between two threads of this process. */
double placement_us(void)
{
	double v[3];
	int k;

	for (k = 0; k < 3; k++)
		v[k] = probe_cacheline_us();
	return summarize(v, 3).p50;
}
