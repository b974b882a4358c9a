/*
 * clock.c - the model clock of one rank, in any of the cost models
 * (model.h: vp__model_cost holds each model's rules).
 *
 * Each rank has a virtual time T. A send of m bytes starts at
 * max(T, a send port free), holds the port for the model's hold and
 * arrives latency after its start. A receive completes at max(T, arrival),
 * no earlier than its receive port allows, plus the receiver's overhead
 * (LogP's o). vp_sendrecv overlaps both: T = max of the completions. Only
 * causal history enters these max-plus rules, so the times are the same
 * whatever the thread interleaving.
 *
 * Contention: every message records [start, start + ts + tw*m) on each
 * directed link of its route (load.c sweeps them after the run); the
 * congested time replays the logged events with tw scaled by the largest
 * load (replay.c), the textbook's congestion factor applied to the run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "model.h"

int vp__model_may_congest(const struct vp__model *m, const struct vp__topo *t)
{
	return !((m->kind == VP_MODEL_ALPHA_BETA ||
		  m->kind == VP_MODEL_ALPHA_BETA_SAF) &&
		 m->ports == 1 && vp__topo_max_hops(t) <= 1);
}

void vp__clock_init(struct vp__clock *c, const struct vp__model *m,
		    const struct vp__topo *t)
{
	memset(c, 0, sizeof(*c));
	c->logs = vp__model_may_congest(m, t);
	c->events.elem = sizeof(struct vp__event);
	c->transfers.elem = sizeof(struct vp__transfer);
}

/*
 * The events each log holds in lent memory: a message and the book's
 * barrier (ceil(log2 p) rounds) with one to spare, and at least 16. Past
 * it a log is malloc'd, and a barrier without its messages charges every
 * rank's log from its last arrival's thread (coll_sync.c), so a room one
 * event short would make that thread malloc a log for every rank.
 */
size_t vp__clock_lent_events(int p)
{
	size_t n = 2;

	while (p > 1) {
		n++;
		p = (p + 1) / 2;
	}
	return n < 16 ? 16 : n;
}

size_t vp__clock_lent_bytes(size_t n)
{
	return vp__vec_lent_bytes(sizeof(struct vp__event), n) +
	       vp__vec_lent_bytes(sizeof(struct vp__transfer), n);
}

void vp__clock_lend(struct vp__clock *c, void *mem, size_t n)
{
	if (!c->logs)
		return;
	vp__vec_lend(&c->events, mem, n);
	vp__vec_lend(&c->transfers,
		     (char *)mem +
			 vp__vec_lent_bytes(sizeof(struct vp__event), n),
		     n);
}

void vp__clock_free(struct vp__clock *c)
{
	vp__vec_free(&c->events);
	vp__vec_free(&c->transfers);
}

/* The earliest free of the k ports, one way (k = 0: no port limit,
 * index -1). */
static int first_free(const struct vp__ports *pt, int k, int recv)
{
	int i, best = 0;

	if (k <= 0)
		return -1;
	for (i = 1; i < k; i++)
		if (recv ? pt->at[i].recv < pt->at[best].recv
			 : pt->at[i].send < pt->at[best].send)
			best = i;
	return best;
}

double vp__ports_send(struct vp__ports *pt, const struct vp__model *m,
		      double t, double hold)
{
	int i = first_free(pt, m->ports, 0);
	double start;

	if (i < 0)
		return t;
	start = t > pt->at[i].send ? t : pt->at[i].send;
	pt->at[i].send = start + hold;
	return start;
}

/*
 * The receive port: a rank takes in one transfer at a time per port, so a
 * message is complete no earlier than the previous one on its port plus
 * the model's gap (alpha-beta: ts + tw*n). In the book's algorithms each
 * step receives one message and this changes nothing; a root taking p-1
 * messages (linear gather or reduce) pays (p-1)(ts + tw*m), as the
 * single-port model says.
 */
double vp__ports_recv(struct vp__ports *pt, const struct vp__model *m,
		      double arrival, size_t n)
{
	int i = first_free(pt, m->ports, 1);
	double serial, done;

	if (i < 0)
		return arrival;
	serial = pt->at[i].recv + vp__model_recv_gap(m, n);
	done = arrival > serial ? arrival : serial;
	pt->at[i].recv = done;
	return done;
}

int vp__clock_send(struct vp__clock *c, const struct vp__model *m,
		   const struct vp__topo *topo, int me, int dst, size_t n,
		   struct vp__envelope *env)
{
	int h = vp__topo_distance(topo, me, dst);
	struct vp__cost cost = vp__model_cost(m, n, h);
	double start = vp__ports_send(&c->ports, m, c->t, cost.hold);
	struct vp__transfer tr = { me, dst, start, start + cost.hold,
				   cost.step, m->ts };

	if (m->kind == VP_MODEL_BSP) {
		c->h_sent += n;
		tr.end = start + m->g * (double)n;
	}
	if (h)
		c->link_msgs++;
	if (h && c->logs) {
		struct vp__transfer *at = vp__vec_append(&c->transfers);
		if (at)
			*at = tr;
	}
	c->last_start = start;
	c->send_cpu = cost.cpu > 0 ? start + cost.cpu : c->t;
	c->send_done = start + cost.done;
	env->arrival = start + cost.latency;
	env->seq = c->send_seq++;
	return h;
}

double vp__clock_recv(struct vp__clock *c, const struct vp__model *m,
		      const struct vp__envelope *env, size_t n)
{
	double in;

	c->messages++;
	c->bytes += n;
	if (m->kind == VP_MODEL_BSP) {
		c->h_recv += n;
		return c->t;
	}
	in = vp__ports_recv(&c->ports, m, env->arrival, n);
	return (in > c->t ? in : c->t) + vp__model_recv_cpu(m);
}

void vp__clock_compute(struct vp__clock *c, const struct vp__model *m,
		       double t)
{
	struct vp__event e = { .kind = VP__EV_COMPUTE, .work = t };

	if (m->kind == VP_MODEL_BSP) {
		c->w += t;
		return;
	}
	c->t += t;
	if (c->logs)
		vp__vec_push(&c->events, &e);
}

void vp__clock_log(struct vp__clock *c, int kind, int dst, int src,
		   uint32_t hops, uint32_t recv_seq, size_t bytes,
		   size_t rbytes)
{
	struct vp__event *e;

	if (!c->logs || !(e = vp__vec_append(&c->events)))
		return; /* dropped ones are counted, reported with the stats */
	*e = (struct vp__event){
		.kind = (uint8_t)kind,
		.peer_send = dst,
		.peer_recv = src,
		.hops = hops,
		.recv_seq = recv_seq,
		.bytes_send = bytes,
		.bytes_recv = rbytes,
	};
}

void vp__clock_send_done(struct vp__clock *c, size_t event, int dst,
			 uint32_t seq, size_t bytes)
{
	struct vp__event *e;

	/* Nothing logged since the isend: T was send_cpu = T at the post,
	 * at most the send's end, so the wait takes T to that end exactly
	 * as the blocking send does, and the replay (replay.c) gives
	 * VP__EV_SEND the same time as VP__EV_ISEND then VP__EV_SEND_DONE.
	 * One event instead of two. */
	if (!c->logs)
		return;
	if (c->events.len == event + 1 &&
	    (e = vp__vec_at(&c->events, event))->kind == VP__EV_ISEND) {
		e->kind = VP__EV_SEND;
		return;
	}
	vp__clock_log(c, VP__EV_SEND_DONE, dst, -1, 0, seq, bytes, 0);
}

/* bsp: the time at which the open superstep of the run's end closes, or
 * -1 when no rank did anything after its last superstep. */
static double bsp_close(const struct vp__model *m,
			const struct vp__clock *const *clocks, int p)
{
	double end = -1;
	int r;

	for (r = 0; r < p; r++) {
		const struct vp__clock *c = clocks[r];
		uint64_t h = c->h_sent > c->h_recv ? c->h_sent : c->h_recv;
		double t = c->t + c->w + m->g * (double)h;

		if ((c->w > 0 || h) && t > end)
			end = t;
	}
	return end < 0 ? -1 : end + m->l;
}

void vp__model_finish(const struct vp__model *m, const struct vp__topo *t,
		      const struct vp__clock *const *clocks, int p,
		      vp_stats *st)
{
	double time = 0, congested = -1, closed;
	int r, failed;

	st->messages = 0;
	st->bytes = 0;
	st->supersteps = 0;
	for (r = 0; r < p; r++) {
		if (clocks[r]->t > time)
			time = clocks[r]->t;
		st->messages += clocks[r]->messages;
		st->bytes += clocks[r]->bytes;
		if (clocks[r]->supersteps > st->supersteps)
			st->supersteps = clocks[r]->supersteps;
		if (clocks[r]->events.dropped || clocks[r]->transfers.dropped)
			st->incomplete |= VP_STATS_LOG_DROPPED;
	}
	if (m->kind == VP_MODEL_BSP && (closed = bsp_close(m, clocks, p)) >= 0) {
		time = closed > time ? closed : time;
		st->supersteps++;
	}
	st->model_time = time;
	if (!vp__model_may_congest(m, t)) {
		uint64_t crossed = 0;
		for (r = 0; r < p; r++)
			crossed += clocks[r]->link_msgs;
		st->max_link_load = crossed ? 1 : 0;
		st->model_time_congested = time;
		return;
	}
	st->max_link_load = vp__model_link_load(t, clocks, p, &failed);
	if (failed)
		st->incomplete |= VP_STATS_LOAD_UNKNOWN;
	/* The congested replay scales tw: it is defined for the alpha-beta
	 * models; the others report their model time. */
	if (m->kind == VP_MODEL_ALPHA_BETA ||
	    m->kind == VP_MODEL_ALPHA_BETA_SAF) {
		congested = vp__model_replay(
		    m, clocks, p,
		    (double)(st->max_link_load > 1 ? st->max_link_load : 1));
		if (congested < 0)
			st->incomplete |= VP_STATS_REPLAY_FAILED;
	}
	st->model_time_congested = congested < 0 ? time : congested;
}
