/*
 * loops.c - the timed loops of the basic suite, each a vp_run body, and
 * the runs that repeat them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_rows.h"
#include "loops.h"
#include "vp.h"

int pingpong_fn(vp_comm *c, void *arg)
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
			rc = vp_send(c, 1, b, j->bytes)
				 ?: vp_recv(c, 1, b, j->bytes);
		else
			rc = vp_recv(c, 0, b, j->bytes)
				 ?: vp_send(c, 0, b, j->bytes);
	}
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	free(b);
	return rc;
}

/* The software path of one message: a single rank sends bytes to itself
 * and receives them (full:1), so no cache line moves between CPUs. What
 * a one-way message costs beyond that is the hand-off between the two
 * ranks' CPUs. */
int self_message_fn(vp_comm *c, void *arg)
{
	struct job *j = arg;
	char *b = calloc(1, j->bytes + 1);
	int i, rc = 0, warm = j->iters / 10 + 1;
	double t0 = 0;

	for (i = -warm; i < j->iters && !rc; i++) {
		if (i == 0)
			t0 = now_us();
		rc = vp_send(c, 0, b, j->bytes) ?: vp_recv(c, 0, b, j->bytes);
	}
	j->per_iter_us = (now_us() - t0) / j->iters;
	free(b);
	return rc;
}

/* One-way streaming of large messages with a zero-byte ack per message. */
int stream_fn(vp_comm *c, void *arg)
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
			rc = vp_send(c, 1, b, j->bytes)
				 ?: vp_recv(c, 1, NULL, 0);
		else
			rc = vp_recv(c, 0, b, j->bytes)
				 ?: vp_send(c, 0, NULL, 0);
	}
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	free(b);
	return rc;
}

int ring_fn(vp_comm *c, void *arg)
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
		rc = rc
			 ?: vp_sendrecv(c, (me + 1) % p, s, j->bytes,
					(me - 1 + p) % p, r, j->bytes);
	}
	rc = rc ?: vp_barrier(c); /* the slowest rank has finished */
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	free(s);
	free(r);
	return rc;
}

/* The ping-pong with vp_isend/vp_irecv and vp_wait (as OSU's latency test
 * with nonblocking calls). */
int ipingpong_fn(vp_comm *c, void *arg)
{
	struct job *j = arg;
	char *b = calloc(1, j->bytes + 1);
	int me = vp_rank(c), i, rc = 0, warm = j->iters / 10 + 1;
	vp_request r;
	double t0 = 0;

	for (i = -warm; i < j->iters && !rc; i++) {
		if (i == 0) {
			rc = vp_barrier(c);
			t0 = now_us();
		}
		if (me == 0)
			rc = vp_isend(c, 1, 0, b, j->bytes, &r) ?:
			     vp_wait(&r, NULL) ?:
			     vp_irecv(c, 1, 0, b, j->bytes, &r) ?:
			     vp_wait(&r, NULL);
		else
			rc = vp_irecv(c, 0, 0, b, j->bytes, &r) ?:
			     vp_wait(&r, NULL) ?:
			     vp_isend(c, 0, 0, b, j->bytes, &r) ?:
			     vp_wait(&r, NULL);
	}
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters;
	free(b);
	return rc;
}

/* Bandwidth with a window of 64 messages in flight (OSU's osu_bw): rank 0
 * isends 64, waits for them and for a 4-byte ack; rank 1 posts 64 irecvs,
 * waits and acks. per_iter_us is per message. */
int window_bw_fn(vp_comm *c, void *arg)
{
	struct job *j = arg;
	char *b = calloc(BW_WINDOW, j->bytes + 1), ack[4] = { 0 };
	vp_request r[BW_WINDOW];
	int me = vp_rank(c), i, k, rc = 0;
	double t0 = 0;

	if (!b)
		return VP_ENOMEM;
	for (i = -2; i < j->iters && !rc; i++) {
		if (i == 0) {
			rc = vp_barrier(c);
			t0 = now_us();
		}
		for (k = 0; k < BW_WINDOW && !rc; k++)
			rc = me == 0 ? vp_isend(c, 1, 1, b + k * j->bytes,
						j->bytes, &r[k])
				     : vp_irecv(c, 0, 1, b + k * j->bytes,
						j->bytes, &r[k]);
		rc = rc ?: vp_waitall(BW_WINDOW, r, NULL);
		rc = rc
			 ?: me == 0 ? vp_recv(c, 1, ack, sizeof(ack))
				    : vp_send(c, 0, ack, sizeof(ack));
	}
	if (me == 0)
		j->per_iter_us = (now_us() - t0) / j->iters / BW_WINDOW;
	free(b);
	return rc;
}

int barrier_fn(vp_comm *c, void *arg)
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
			   &got, sizeof(got))
		   ?: vp_barrier(c);
}

struct summary measure(const char *topo, int (*fn)(vp_comm *, void *),
		       size_t bytes, int iters, double scale, double *model)
{
	double v[REPS];
	int k;

	for (k = 0; k < REPS; k++) {
		vp_opts o = { .topology = topo,
			      .ts = 1,
			      .tw = 0.001,
			      .fibers = bench_fibers };
		struct job j = { .bytes = bytes, .iters = iters };
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

/*
 * The blocking and the nonblocking 8-byte ping-pong in the same run, in
 * alternating chunks: the two ranks' threads, their placement on the CPUs
 * and the machine's load are the same for both, which separate runs do
 * not give (placement alone moves a ping-pong several times over).
 * Rank 0 writes each chunk's time per round trip.
 */
#define PAIR_CHUNKS 10
struct pair_job {
	int iters; /* per chunk */
	double blocking[PAIR_CHUNKS], nonblocking[PAIR_CHUNKS];
};

static int pingpong_pair_fn(vp_comm *c, void *arg)
{
	struct pair_job *j = arg;
	char b[8] = { 0 };
	int me = vp_rank(c), k, i, rc = 0;
	vp_request r;
	double t0;

	for (k = -1; k < 2 * PAIR_CHUNKS && !rc; k++) { /* -1: warm-up */
		int nb = k < 0 || k % 2;

		rc = vp_barrier(c);
		t0 = now_us();
		for (i = 0; i < j->iters && !rc; i++) {
			if (nb && me == 0)
				rc = vp_isend(c, 1, 0, b, 8, &r) ?:
				     vp_wait(&r, NULL) ?:
				     vp_irecv(c, 1, 0, b, 8, &r) ?:
				     vp_wait(&r, NULL);
			else if (nb)
				rc = vp_irecv(c, 0, 0, b, 8, &r) ?:
				     vp_wait(&r, NULL) ?:
				     vp_isend(c, 0, 0, b, 8, &r) ?:
				     vp_wait(&r, NULL);
			else if (me == 0)
				rc = vp_send(c, 1, b, 8) ?: vp_recv(c, 1, b, 8);
			else
				rc = vp_recv(c, 0, b, 8) ?: vp_send(c, 0, b, 8);
		}
		if (me == 0 && k >= 0)
			(nb ? j->nonblocking : j->blocking)[k / 2] =
			    (now_us() - t0) / j->iters;
	}
	return rc;
}

/* REPS runs of pingpong_pair_fn: the median over runs of each run's
 * nonblocking / blocking ratio of medians. */
double pingpong_pair_ratio(int iters)
{
	double ratio[REPS];
	int k;

	for (k = 0; k < REPS; k++) {
		vp_opts o = { .topology = "line:2", .fibers = bench_fibers };
		struct pair_job j = { .iters = iters };
		vp_stats st;

		if (vp_run(&o, pingpong_pair_fn, &j, &st)) {
			fprintf(stderr, "vp-bench: ping-pong pair failed: %s\n",
				st.error);
			exit(1);
		}
		ratio[k] = summarize(j.nonblocking, PAIR_CHUNKS).p50 /
			   summarize(j.blocking, PAIR_CHUNKS).p50;
	}
	return summarize(ratio, REPS).p50;
}

/* vp_run of a ring exchange and a barrier on ring:p, start to finish as
 * the user sees it (thread creation, the run, the model's
 * post-processing, teardown), reps times; prints its row and the memory
 * per rank. */
struct summary run_start_to_finish(int p, int reps)
{
	double v[REPS];
	char topo[32];
	struct summary s;
	vp_stats st;
	int k;

	snprintf(topo, sizeof(topo), "ring:%d", p);
	vp_opts o = { .topology = topo, .fibers = bench_fibers };
	for (k = 0; k < reps; k++) {
		double t0 = now_us();
		if (vp_run(&o, once_fn, NULL, &st)) {
			fprintf(stderr, "vp-bench: %s failed: %s\n", topo,
				st.error);
			exit(1);
		}
		v[k] = now_us() - t0;
	}
	s = summarize(v, reps);
	emit(bench_fibers ? "run_ring_barrier_fibers" : "run_ring_barrier",
	     topo, p, 4, 1, s, st.model_time);
	note("p = %d%s: %zu KiB runtime memory in all (%zu B per rank), %zu "
	     "KiB stack reserved per rank",
	     p, bench_fibers ? " as fibers" : "", st.peak_bytes / 1024,
	     st.peak_bytes / (size_t)p, st.stack_size / 1024);
	return s;
}
