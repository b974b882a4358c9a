/*
 * clock.c - the model clock of one rank (Grama et al., sec. 2.5.1, the
 * alpha-beta model with cut-through routing).
 *
 * Each rank has a virtual time T. A send of m bytes starts at
 * max(T, send port free), holds the port for ts + tw*m and arrives at
 * start + ts + th*hops + tw*m (vp__model_cost). A receive completes at
 * max(T, arrival), no earlier than the receive port allows. vp_sendrecv
 * overlaps both: T = max of the completions. Only causal history enters
 * these max-plus rules, so the times are the same whatever the thread
 * interleaving.
 *
 * Contention: every message records [start, start + ts + tw*m) on each
 * directed link of its route (load.c sweeps them after the run); the
 * congested time replays the logged events with tw scaled by the largest
 * load (replay.c), the textbook's congestion factor applied to the run.
 */
#include <string.h>

#include "model.h"

void vp__clock_init(struct vp__clock *c)
{
	memset(c, 0, sizeof(*c));
	c->events.elem = sizeof(struct vp__event);
	c->transfers.elem = sizeof(struct vp__transfer);
}

void vp__clock_free(struct vp__clock *c)
{
	vp__vec_free(&c->events);
	vp__vec_free(&c->transfers);
}

int vp__clock_send(struct vp__clock *c, const struct vp__model *m,
		   const struct vp__topo *topo, int me, int dst, size_t n,
		   struct vp__envelope *env)
{
	double start = c->t > c->port_free ? c->t : c->port_free;
	int h = vp__topo_distance(topo, me, dst);
	struct vp__cost cost = vp__model_cost(m, n, h);
	struct vp__transfer tr = { me, dst, start, start + cost.hold };

	if (h)
		vp__vec_push(&c->transfers, &tr);
	c->port_free = start + cost.hold;
	c->last_start = start;
	env->arrival = start + cost.latency;
	env->seq = c->send_seq++;
	return h;
}

/*
 * The receive port: a rank takes in one transfer at a time, so a message of
 * n bytes is complete no earlier than the previous one plus ts + tw*n. In
 * the book's algorithms each step receives one message and this changes
 * nothing; a root taking p-1 messages (linear gather or reduce) pays
 * (p-1)(ts + tw*m), as the single-port model says. Returns the completion.
 */
double vp__model_recv_port(const struct vp__model *m, double arrival,
			   double *port_free, size_t n)
{
	double serial = *port_free + vp__model_cost(m, n, 0).hold;
	double done = arrival > serial ? arrival : serial;

	*port_free = done;
	return done;
}

double vp__clock_recv(struct vp__clock *c, const struct vp__model *m,
		      const struct vp__envelope *env, size_t n)
{
	c->messages++;
	c->bytes += n;
	return vp__model_recv_port(m, env->arrival, &c->rport_free, n);
}

void vp__clock_log(struct vp__clock *c, int kind, int dst, int src,
		   uint32_t hops, uint32_t recv_seq, size_t bytes,
		   size_t rbytes)
{
	struct vp__event e = {
		.kind = (uint8_t)kind,
		.peer_send = dst,
		.peer_recv = src,
		.hops = hops,
		.recv_seq = recv_seq,
		.bytes_send = bytes,
		.bytes_recv = rbytes,
	};

	vp__vec_push(&c->events, &e);
}

void vp__model_finish(const struct vp__model *m, const struct vp__topo *t,
		      const struct vp__clock *const *clocks, int p,
		      vp_stats *st)
{
	double time = 0, congested;
	int r, failed;

	st->messages = 0;
	st->bytes = 0;
	for (r = 0; r < p; r++) {
		if (clocks[r]->t > time)
			time = clocks[r]->t;
		st->messages += clocks[r]->messages;
		st->bytes += clocks[r]->bytes;
		if (clocks[r]->events.dropped || clocks[r]->transfers.dropped)
			st->incomplete |= VP_STATS_LOG_DROPPED;
	}
	st->model_time = time;
	st->max_link_load = vp__model_link_load(t, clocks, p, &failed);
	if (failed)
		st->incomplete |= VP_STATS_LOAD_UNKNOWN;
	congested = vp__model_replay(
	    m, clocks, p,
	    (double)(st->max_link_load > 1 ? st->max_link_load : 1));
	if (congested < 0)
		st->incomplete |= VP_STATS_REPLAY_FAILED;
	st->model_time_congested = congested < 0 ? time : congested;
}
