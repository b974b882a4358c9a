/*
 * model.h - the model clock: every message is also timed in the textbook's
 * cost model, deterministically (docs/models.md, "The model clock").
 *
 * The clock sits above the transport seam. For each send it stamps the
 * message's envelope (arrival time, send number); on receipt it reads the
 * envelope back. The cost of one message lives in one place,
 * vp__model_cost; the link-load sweep (load.c) and the congested replay
 * (replay.c) use it too.
 *
 * A rank's clock is private to the rank's thread while the ranks run;
 * vp__model_finish reads every rank's after they are joined.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_MODEL_H
#define VP_RUNTIME_MODEL_H

#include <stdint.h>

#include "../../topology/topology.h"
#include "../transport.h"
#include "../vec.h"
#include "vp.h"

/* The run's cost model (vp_model's fields; docs/models.md, "Cost models"). */
struct vp__model {
	vp_model_kind kind;
	double ts, tw, th; /* alpha-beta, saf */
	double L, o, g, G; /* logp, loggp; g also bsp's per byte */
	double l;          /* bsp: per superstep */
	int ports;         /* 1..VP__PORTS_MAX; 0: unlimited */
};

#define VP__PORTS_MAX 16

/*
 * What one message of n bytes over hops links costs, from the moment s its
 * send starts (the sender's T, once a send port is free):
 *   cpu      the sender's processor is busy until s + cpu, even for a
 *            nonblocking send (LogP's o; 0 in alpha-beta)
 *   done     a blocking send returns, a wait on an isend completes, at
 *            s + done
 *   hold     the send port is busy until s + hold
 *   latency  the last byte is in at s + latency
 *   step     store-and-forward: link k of the route is busy from
 *            s + k*step (0: every link during [s, s + hold))
 */
struct vp__cost {
	double cpu, done, hold, latency, step;
};

/*
 * The rules of every model, in one place (each model's formula is the
 * one its source gives; docs/models.md, "Cost models", states them):
 *  alpha-beta (Grama et al., sec. 2.5.1, cut-through routing):
 *     hold = done = ts + tw*n, latency = ts + th*l + tw*n
 *  alpha-beta:saf (ibid., store-and-forward): the same hold, latency
 *     ts + (tw*n + th)*l (l >= 1), each link in turn
 *  loggp (Alexandrov et al. 1995): cpu = done = o, the bytes leave during
 *     (n-1)*G after it, latency = o + (n-1)*G + L, the next send starts
 *     max(g, o + (n-1)*G) after this one (hold)
 *  logp (Culler et al. 1993): loggp with G = 0 (a message is one packet)
 *  bsp (Valiant 1990): messages cost nothing here; the superstep's end
 *     charges h*g (superstep.c)
 */
static inline struct vp__cost vp__model_cost(const struct vp__model *m,
					     size_t n, int hops)
{
	struct vp__cost c = { 0, 0, 0, 0, 0 };
	double bytes = (double)n, tail;

	switch (m->kind) {
	case VP_MODEL_ALPHA_BETA:
		c.hold = c.done = m->ts + m->tw * bytes;
		c.latency = m->ts + m->th * (double)hops + m->tw * bytes;
		break;
	case VP_MODEL_ALPHA_BETA_SAF:
		c.hold = c.done = m->ts + m->tw * bytes;
		c.step = m->tw * bytes + m->th;
		c.latency = m->ts + c.step * (double)(hops > 1 ? hops : 1);
		break;
	case VP_MODEL_LOGP:
	case VP_MODEL_LOGGP:
		tail = m->kind == VP_MODEL_LOGGP && n > 1
			   ? m->G * (bytes - 1)
			   : 0;
		c.cpu = c.done = m->o;
		c.hold = m->g > m->o + tail ? m->g : m->o + tail;
		c.latency = m->o + tail + m->L;
		break;
	case VP_MODEL_BSP:
		break;
	}
	return c;
}

/* The receive side: a message of n bytes is taken no earlier than gap
 * after the previous one on the same receive port (alpha-beta: its own
 * transfer time, the single-port rule; LogP: g), and then costs the
 * receiver cpu (LogP's o). */
static inline double vp__model_recv_gap(const struct vp__model *m, size_t n)
{
	switch (m->kind) {
	case VP_MODEL_ALPHA_BETA:
	case VP_MODEL_ALPHA_BETA_SAF:
		return m->ts + m->tw * (double)n;
	case VP_MODEL_LOGP:
	case VP_MODEL_LOGGP:
		return m->g;
	default:
		return 0;
	}
}

static inline double vp__model_recv_cpu(const struct vp__model *m)
{
	return m->kind == VP_MODEL_LOGP || m->kind == VP_MODEL_LOGGP ? m->o
								     : 0;
}

/* A rank's ports: when each send and receive port is free again. With
 * ports = k, a transfer takes the one free first (the multi-port model).
 * A port's two ways side by side: with one port, both on one line. */
struct vp__port {
	double send, recv;
};
struct vp__ports {
	struct vp__port at[VP__PORTS_MAX];
};

/* The start of a send at time t holding a port for hold; occupies it. */
double vp__ports_send(struct vp__ports *pt, const struct vp__model *m,
		      double t, double hold);
/* When a message arriving at arrival is taken by the receive port (the
 * gap rule above); occupies it. */
double vp__ports_recv(struct vp__ports *pt, const struct vp__model *m,
		      double arrival, size_t n);

/* spec.c: parses a model spec over base (the fields of vp_opts); VP_OK or
 * VP_EINVAL with err set. */
int vp__model_parse(const char *spec, const struct vp__model *base,
		    struct vp__model *m, char *err, size_t errlen);
void vp__model_public(const struct vp__model *m, vp_model *out);

/* One model-clock event in a rank's log, replayed for the congested time. */
enum vp__event_kind {
	VP__EV_SEND,
	VP__EV_RECV,
	VP__EV_SENDRECV,
	VP__EV_ISEND,     /* a send that does not move T (vp_isend, vp_put) */
	VP__EV_SEND_DONE, /* T reaches the end of own send recv_seq (a wait) */
	VP__EV_ARRIVED,   /* T reaches the arrival of own send recv_seq */
	VP__EV_COMPUTE,   /* T moves by work (vp_compute) */
};
struct vp__event {
	uint8_t kind;
	int32_t peer_send; /* destination world rank (SEND, SENDRECV) */
	int32_t peer_recv; /* source world rank (RECV, SENDRECV) */
	uint32_t hops;
	uint32_t recv_seq; /* sender's sequence number of the received msg */
	union {
		size_t bytes_send;
		double work; /* COMPUTE */
	};
	size_t bytes_recv; /* length of the received message (RECV, SENDRECV) */
};

/* One modelled message: it holds every link of its route during
 * [start, end); link loads are computed from these after the run. */
struct vp__transfer {
	int32_t src, dst;
	double start, end;
	double step; /* store-and-forward: link k busy k*step later */
	double lead; /* ... and from ts after that (the first link: at once) */
};

/* One rank's clock. What a modelled message reads and writes comes first,
 * on two lines with the first port: where the ranks outnumber the CPUs,
 * one rank charges every rank's clock for a collective (coll_sync.c), and
 * each line of a clock is then a miss. */
struct vp__clock {
	double t;                 /* model time T */
	double last_start;        /* start of the last send (for the trace) */
	double send_cpu;          /* the last send: T after posting it */
	double send_done;         /* the last send: when it completes */
	uint32_t send_seq;        /* modelled messages sent so far */
	/* whether events and transfers are logged: not where no link can
	 * carry two messages at once (vp__model_may_congest) */
	int logs;
	uint64_t messages, bytes; /* modelled messages received */
	uint64_t link_msgs;       /* modelled messages that crossed a link */
	uint64_t supersteps;      /* barriers and fences made */
	struct vp__ports ports;   /* when each port is free again */
	/* bsp: the open superstep's work and bytes sent and received */
	double w;
	uint64_t h_sent, h_recv;
	struct vp__vec events;    /* struct vp__event */
	struct vp__vec transfers; /* struct vp__transfer */
};

/* Whether a link can carry two messages at once under model m on t, so
 * that the link load and the congested time need the run's log. Not when
 * every route is one link, the model holds a link exactly as long as the
 * sender's one port (the alpha-beta models with ports=1): a directed link
 * then carries only its sender's messages, one after the other (load 1),
 * and the congested replay scales tw by 1 (the model time). */
int vp__model_may_congest(const struct vp__model *m, const struct vp__topo *t);

/* A clock for a run under m on t. */
void vp__clock_init(struct vp__clock *c, const struct vp__model *m,
		    const struct vp__topo *t);
void vp__clock_free(struct vp__clock *c);
/* Events a clock's logs start with in lent memory at p ranks, and the
 * bytes that takes (vp__clock_lend). */
size_t vp__clock_lent_events(int p);
size_t vp__clock_lent_bytes(size_t n);
/* The logs of c start in mem, room for n events each
 * (vp__clock_lent_bytes(n), aligned to 8), which the caller frees after
 * vp__clock_free(c); nothing when c logs nothing. */
void vp__clock_lend(struct vp__clock *c, void *mem, size_t n);

/* A send of n bytes from world rank me to dst: stamps env (arrival, seq),
 * occupies a send port, records the transfer; returns the hops. T is not
 * moved: the caller moves it to send_cpu (posted) or send_done (a
 * blocking send, a wait). */
int vp__clock_send(struct vp__clock *c, const struct vp__model *m,
		   const struct vp__topo *topo, int me, int dst, size_t n,
		   struct vp__envelope *env);
/* A message of n bytes with envelope env is taken by a receive that
 * starts at T: returns when it completes (port rules, then the receiver's
 * cpu); counts it. T is not moved. */
double vp__clock_recv(struct vp__clock *c, const struct vp__model *m,
		      const struct vp__envelope *env, size_t n);
/* vp_compute: t units of local work. */
void vp__clock_compute(struct vp__clock *c, const struct vp__model *m,
		       double t);
/* Appends an event for the congested replay. */
void vp__clock_log(struct vp__clock *c, int kind, int dst, int src,
		   uint32_t hops, uint32_t recv_seq, size_t bytes,
		   size_t rbytes);

/* The wait of the posted send seq, whose VP__EV_ISEND is the log's event
 * number event: VP__EV_SEND_DONE, or that event made a VP__EV_SEND when it
 * is still the last one. */
void vp__clock_send_done(struct vp__clock *c, size_t event, int dst,
			 uint32_t seq, size_t bytes);

/* After the run: model_time, messages, bytes, max_link_load and the
 * congested time from the clocks of all p ranks (clocks[r] is rank r's). */
void vp__model_finish(const struct vp__model *m, const struct vp__topo *t,
		      const struct vp__clock *const *clocks, int p,
		      vp_stats *st);

/* load.c: the most transfers overlapping on one directed link (>= 1 when a
 * message moved), or 0 with *failed set when there was no memory. */
uint64_t vp__model_link_load(const struct vp__topo *t,
			     const struct vp__clock *const *clocks, int p,
			     int *failed);
/* replay.c: max final time with the per-byte time scaled by factor, or -1
 * when the logs do not replay (an unmatched receive, no memory). */
double vp__model_replay(const struct vp__model *m,
			const struct vp__clock *const *clocks, int p,
			double factor);

#endif /* VP_RUNTIME_MODEL_H */
