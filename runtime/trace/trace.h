/*
 * trace.h - what a traced run records, and the two writers that draw it.
 *
 * When vp_opts.trace or vp_opts.svg is set, every public point-to-point call
 * (vp_send, vp_recv, vp_sendrecv, and so every collective; each request
 * from post to completion; each one-sided operation) appends one
 * struct vp__trace_op to its rank's log. After the threads are joined,
 * trace.c matches each send to the receive that took it (by sender and
 * sequence number), computes each message's link load, and hands the list of
 * messages to trace_json.c (Perfetto) and trace_svg.c (space-time diagram).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_TRACE_H
#define VP_RUNTIME_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../transport.h"
#include "trace_rank.h"
#include "vp.h"

/* The run (runtime.h). runtime.h includes trace_rank.h, the trace's part of
 * a rank, so this header names the run without including runtime.h. */
struct vp__world;

/* One call of one rank. Model times are the rank's clock T. */
struct vp__trace_op {
	uint8_t kind;     /* VP__EV_SEND, VP__EV_RECV or VP__EV_SENDRECV */
	int32_t dst, src; /* world ranks; -1 where the call has no such part */
	uint32_t send_seq, recv_seq; /* sender's sequence number of each part */
	uint32_t step;               /* the send part's step */
	uint32_t hops;
	size_t sbytes, rbytes;
	double begin, end;          /* model: T at entry and at return */
	double send_start, arrival; /* model: the send part's transfer */
	double wbegin, wend, wsend; /* wall us since the run began */
	const char *label, *alg;    /* what sent it, e.g. "bcast" "binomial" */
	const char *rma; /* "put", "get", "accumulate": a one-sided operation
			  * (kind VP__EV_SEND, dst its target, no receive) */
};

/* One delivered message: its send and its receive (NULL for a one-sided
 * operation: it ends on the target's line at its arrival). */
struct vp__trace_msg {
	int src, dst;
	const struct vp__trace_op *send, *recv;
	uint32_t load; /* most transfers sharing one of its links with it */
};

struct vp__trace {
	struct vp__world *w;
	struct vp__trace_msg *msgs;
	size_t nmsgs;
	size_t nops;
	size_t unmatched; /* sends nobody received (a failed run) */
	double ts, tw;
	const vp_stats *st;
};

double vp__trace_wall_us(void);
/* The calls of p2p.c, in order; each does nothing unless tracing. */
void vp__trace_begin(const vp_comm *c, struct vp__trace_op *op, int kind);
void vp__trace_sent(const vp_comm *c, struct vp__trace_op *op, int dst,
		    size_t n, int hops, const struct vp__envelope *env);
void vp__trace_received(const vp_comm *c, struct vp__trace_op *op, int src,
			uint32_t seq, size_t n);
void vp__trace_end(const vp_comm *c, struct vp__trace_op *op);
/* The Lamport step of every message (kept whether or not tracing: a trace
 * numbers a run's steps from its start): a send is one step after the
 * sender's last, a receive lifts the receiver to the message's step. */
static inline void vp__trace_stamp(struct vp__trace_rank *t,
				   struct vp__envelope *env)
{
	env->step = ++t->step;
}

static inline void vp__trace_arrived(struct vp__trace_rank *t,
				     const struct vp__envelope *env)
{
	if (env->step > t->step)
		t->step = env->step;
}

/* vp_coll_note: a collective names its own messages, steps restart. */
void vp__trace_coll(vp_comm *c, const char *op, const char *alg);

/* trace.c: opens the files (0, or VP_EINVAL with a message in err). */
int vp__trace_open(struct vp__world *w, char *err, size_t errlen);
/* trace.c: after the join: match, weigh, write, close. */
void vp__trace_finish(struct vp__world *w, const vp_stats *st);
void vp__trace_close(struct vp__world *w);

/* trace_json.c and trace_svg.c */
void vp__trace_write_json(const struct vp__trace *t, FILE *f);
void vp__trace_write_svg(const struct vp__trace *t, FILE *f);

#endif /* VP_RUNTIME_TRACE_H */
