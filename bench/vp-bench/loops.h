/*
 * loops.h - the basic suite's timed loops (vp_run bodies taking a struct
 * job) and the runs that repeat them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_LOOPS_H
#define VP_BENCH_LOOPS_H

#include <stddef.h>

#include "bench_rows.h"
#include "vp.h"

struct job {
	size_t bytes;
	int iters;
	double per_iter_us; /* written by rank 0 */
	double model;
};

/* Messages in flight in window_bw_fn. */
#define BW_WINDOW 64

/* Ping-pong of bytes between ranks 0 and 1, blocking calls. */
int pingpong_fn(vp_comm *c, void *arg);
/* One rank sending bytes to itself and receiving them (full:1). */
int self_message_fn(vp_comm *c, void *arg);
/* One-way streaming of large messages with a zero-byte ack each. */
int stream_fn(vp_comm *c, void *arg);
/* Each rank a sendrecv with its ring neighbours. */
int ring_fn(vp_comm *c, void *arg);
/* The ping-pong with vp_isend/vp_irecv and vp_wait. */
int ipingpong_fn(vp_comm *c, void *arg);
/* Bandwidth with BW_WINDOW messages in flight; per_iter_us per message. */
int window_bw_fn(vp_comm *c, void *arg);
/* Barriers in a loop. */
int barrier_fn(vp_comm *c, void *arg);

/* Runs fn REPS times on topo; the summary of the per-iteration times
 * (times scale), and in *model the model time of one iteration. */
struct summary measure(const char *topo, int (*fn)(vp_comm *, void *),
		       size_t bytes, int iters, double scale, double *model);

/* The nonblocking / blocking 8-byte ping-pong ratio, the two alternating
 * in chunks of one run: the median over REPS runs. */
double pingpong_pair_ratio(int iters);

/* A ring exchange and a barrier on ring:p start to finish, reps times;
 * prints its row and the memory per rank. */
struct summary run_start_to_finish(int p, int reps);

#endif
