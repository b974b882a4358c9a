/*
 * model.h - the model clock: every message is also timed in the textbook's
 * cost model, deterministically (README, "The model clock").
 *
 * The clock sits above the transport seam. For each send it stamps the
 * message's envelope (arrival time, send number); on receipt it reads the
 * envelope back. The cost of one message lives in one place,
 * vp__model_cost; the link-load sweep (load.c) and the congested replay
 * (replay.c) use it too.
 *
 * A rank's clock is private to the rank's thread while the ranks run;
 * vp__model_finish reads every rank's after they are joined.
 */
#ifndef VP_RUNTIME_MODEL_H
#define VP_RUNTIME_MODEL_H

#include <stdint.h>

#include "../../topology/topology.h"
#include "../transport.h"
#include "../vec.h"
#include "vp.h"

/* The parameters of the alpha-beta model with cut-through routing. */
struct vp__model {
	double ts; /* startup per message */
	double tw; /* per byte */
	double th; /* per hop */
};

/* What one message of n bytes over hops links costs. */
struct vp__cost {
	double hold;    /* the sender's port is busy this long */
	double latency; /* from the start of the send to the last byte in */
};

/*
 * Cut-through routing (Grama et al., sec. 2.5.1): the port is held
 * for ts + tw*n, the message arrives ts + th*hops + tw*n after it starts.
 */
static inline struct vp__cost vp__model_cost(const struct vp__model *m,
					     size_t n, int hops)
{
	struct vp__cost c;

	c.hold = m->ts + m->tw * (double)n;
	c.latency = m->ts + m->th * (double)hops + m->tw * (double)n;
	return c;
}

/* One model-clock event in a rank's log, replayed for the congested time. */
enum vp__event_kind {
	VP__EV_SEND,
	VP__EV_RECV,
	VP__EV_SENDRECV,
	VP__EV_ISEND,     /* a send that does not move T (vp_isend, vp_put) */
	VP__EV_SEND_DONE, /* T reaches the end of own send recv_seq (a wait) */
	VP__EV_ARRIVED,   /* T reaches the arrival of own send recv_seq */
};
struct vp__event {
	uint8_t kind;
	int32_t peer_send; /* destination world rank (SEND, SENDRECV) */
	int32_t peer_recv; /* source world rank (RECV, SENDRECV) */
	uint32_t hops;
	uint32_t recv_seq; /* sender's sequence number of the received msg */
	size_t bytes_send;
	size_t bytes_recv; /* length of the received message (RECV, SENDRECV) */
};

/* One modelled message: it holds every link of its route during
 * [start, end); link loads are computed from these after the run. */
struct vp__transfer {
	int32_t src, dst;
	double start, end;
};

/* One rank's clock. */
struct vp__clock {
	double t;                 /* model time T */
	double port_free;         /* when the send port is free again */
	double rport_free;        /* when the receive port is free again */
	double last_start;        /* start of the last send (for the trace) */
	uint32_t send_seq;        /* modelled messages sent so far */
	uint64_t messages, bytes; /* modelled messages received */
	struct vp__vec events;    /* struct vp__event */
	struct vp__vec transfers; /* struct vp__transfer */
};

void vp__clock_init(struct vp__clock *c);
void vp__clock_free(struct vp__clock *c);

/* A send of n bytes from world rank me to dst: stamps env (arrival, seq),
 * occupies the send port, records the transfer; returns the hops. T is not
 * moved: the caller decides when the send part completes. */
int vp__clock_send(struct vp__clock *c, const struct vp__model *m,
		   const struct vp__topo *topo, int me, int dst, size_t n,
		   struct vp__envelope *env);
/* A message of n bytes with envelope env is taken: returns when its
 * receive completes (receive port rules); counts it. */
double vp__clock_recv(struct vp__clock *c, const struct vp__model *m,
		      const struct vp__envelope *env, size_t n);
/* The receive port rule (clock.c); replay.c uses it too. */
double vp__model_recv_port(const struct vp__model *m, double arrival,
			   double *port_free, size_t n);
/* Appends an event for the congested replay. */
void vp__clock_log(struct vp__clock *c, int kind, int dst, int src,
		   uint32_t hops, uint32_t recv_seq, size_t bytes,
		   size_t rbytes);

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
