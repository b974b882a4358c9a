/*
 * model.c - the model clock (README, "The model clock").
 *
 * Each rank has a virtual time T. A send of m bytes starts at
 * max(T, send port free), holds the port for ts + tw*m and arrives at
 * start + ts + th*hops + tw*m (cut-through). A receive completes at
 * max(T, arrival). vp_sendrecv overlaps both: T = max of the completions.
 * Only causal history enters these max-plus rules, so the times are the same
 * whatever the thread interleaving.
 *
 * Contention: every message records [start, start + ts + tw*m) on each
 * directed link of its route; after the run a sweep finds the most
 * overlapping intervals on one link (max_link_load). The congested time
 * replays the logged events with tw scaled by that load, the textbook's
 * congestion factor applied to the whole run.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

double vp__model_send(struct vp__rank *me, int dst_world, size_t n,
		      int *hops)
{
	struct vp__world *w = me->world;
	double start = me->clock > me->port_free ? me->clock : me->port_free;
	double hold = w->opts.ts + w->opts.tw * (double)n;
	int h = vp__topo_distance(&w->topo, me->world_rank, dst_world);
	struct vp__transfer tr = {me->world_rank, dst_world, start,
				  start + hold};

	if (h)
		vp__vec_push(&me->transfers, &tr);
	me->port_free = start + hold;
	*hops = h;
	return start + w->opts.ts + w->opts.th * h + w->opts.tw * (double)n;
}

/*
 * The receive port: a rank takes in one transfer at a time, so a message of
 * n bytes is complete no earlier than the previous one plus ts + tw*n. In
 * the book's algorithms each step receives one message and this changes
 * nothing; a root taking p-1 messages (linear gather or reduce) pays
 * (p-1)(ts + tw*m), as the single-port model says. Returns the completion.
 */
static double recv_port(double arrival, double *port_free, double ts,
			double tw, size_t n)
{
	double serial = *port_free + ts + tw * (double)n;
	double done = arrival > serial ? arrival : serial;

	*port_free = done;
	return done;
}

double vp__model_recv(struct vp__rank *me, double arrival, size_t n)
{
	return recv_port(arrival, &me->rport_free, me->world->opts.ts,
			 me->world->opts.tw, n);
}

void vp__model_log(struct vp__rank *me, int kind, int dst, int src,
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

	vp__vec_push(&me->events, &e);
}

/* ---- link load ----
 *
 * A transfer holds each link of its route during [start, end). Sweeping the
 * start and end points in time order (ends first at equal times: the
 * intervals are half-open) while counting per link gives the most transfers
 * that overlap on one link. Work is the total route length; memory is one
 * record per message plus one counter per link. A fully connected topology
 * has p(p-1) links but one link per route, so there the points are sorted by
 * (link, time) instead and counted link by link.
 */

struct endpoint {
	uint64_t link; /* fully connected only */
	double t;
	int delta; /* -1 end, +1 start */
	const struct vp__transfer *tr;
};

static int cmp_time(const void *a, const void *b)
{
	const struct endpoint *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;
}

static int cmp_link_time(const void *a, const void *b)
{
	const struct endpoint *x = a, *y = b;

	if (x->link != y->link)
		return x->link < y->link ? -1 : 1;
	return cmp_time(a, b);
}

static uint64_t sweep_full(struct endpoint *ep, size_t n)
{
	uint64_t best = 0;
	int64_t cur = 0;
	size_t i;

	qsort(ep, n, sizeof(*ep), cmp_link_time);
	for (i = 0; i < n; i++) {
		if (i == 0 || ep[i].link != ep[i - 1].link)
			cur = 0;
		cur += ep[i].delta;
		if (cur > (int64_t)best)
			best = (uint64_t)cur;
	}
	return best;
}

static uint64_t sweep_routed(struct vp__world *w, struct endpoint *ep,
			     size_t n)
{
	size_t slots = vp__topo_link_slots(&w->topo), i;
	int max_hops = vp__topo_max_hops(&w->topo);
	int32_t *count = calloc(slots, sizeof(*count));
	uint64_t *route = malloc(((size_t)max_hops + 1) * sizeof(*route));
	uint64_t best = 0;
	int h, k;

	if (!count || !route) {
		free(count);
		free(route);
		return 0;
	}
	qsort(ep, n, sizeof(*ep), cmp_time);
	for (i = 0; i < n; i++) {
		h = vp__topo_route(&w->topo, ep[i].tr->src, ep[i].tr->dst,
				   route, max_hops);
		for (k = 0; k < h; k++) {
			int32_t *c = &count[vp__topo_link_index(&w->topo,
								 route[k])];
			*c += ep[i].delta;
			if (*c > (int64_t)best)
				best = (uint64_t)*c;
		}
	}
	free(count);
	free(route);
	return best;
}

static uint64_t max_link_load(struct vp__world *w)
{
	size_t total = 0, n = 0, k;
	struct endpoint *ep;
	uint64_t best;
	int r;

	for (r = 0; r < w->p; r++)
		total += w->ranks[r].transfers.len;
	if (!total)
		return 0;
	ep = malloc(2 * total * sizeof(*ep));
	if (!ep)
		return 1;
	for (r = 0; r < w->p; r++) {
		for (k = 0; k < w->ranks[r].transfers.len; k++) {
			const struct vp__transfer *tr =
				vp__vec_at(&w->ranks[r].transfers, k);
			uint64_t l = vp__link(tr->src, tr->dst);
			/* A zero-length transfer (ts = tw = 0) occupies no
			 * time; it still makes the link used (load >= 1). */
			if (!(tr->end > tr->start))
				continue;
			ep[n++] = (struct endpoint){l, tr->start, 1, tr};
			ep[n++] = (struct endpoint){l, tr->end, -1, tr};
		}
	}
	best = w->topo.kind == VP__TOPO_FULL ? sweep_full(ep, n)
					     : sweep_routed(w, ep, n);
	free(ep);
	return best ? best : 1;
}

/* ---- replay: the same max-plus rules over the logged events ---- */

struct replay_rank {
	size_t next;	   /* next event */
	double t, port;	   /* model time, send port free */
	double rport;	   /* receive port free */
	double *arrivals;  /* arrival of each of this rank's sends, by seq */
	uint32_t sent;	   /* sends replayed */
	int half;	   /* a sendrecv whose send part is done */
	double t0, send_end;
};

/* Replays the send part; returns 0. */
static void replay_send(struct vp__world *w, struct replay_rank *rr,
			const struct vp__event *e, double tw)
{
	double start = rr->t > rr->port ? rr->t : rr->port;
	double hold = w->opts.ts + tw * (double)e->bytes_send;

	rr->arrivals[rr->sent++] = start + w->opts.ts +
				   w->opts.th * e->hops +
				   tw * (double)e->bytes_send;
	rr->port = start + hold;
	rr->send_end = start + hold;
}

/* Max final time of the run replayed with per-byte time tw; -1 on error. */
static double replay(struct vp__world *w, double tw)
{
	struct replay_rank *rr = calloc((size_t)w->p, sizeof(*rr));
	double result = 0;
	int r, progress = 1, done = 0;

	if (!rr)
		return -1;
	for (r = 0; r < w->p; r++) {
		rr[r].arrivals = malloc(
			((size_t)w->ranks[r].send_seq + 1) * sizeof(double));
		if (!rr[r].arrivals) {
			result = -1;
			goto out;
		}
	}
	while (progress && done < w->p) {
		progress = 0;
		done = 0;
		for (r = 0; r < w->p; r++) {
			struct replay_rank *me = &rr[r];
			size_t n = w->ranks[r].events.len;

			while (me->next < n) {
				const struct vp__event *e = vp__vec_at(
					&w->ranks[r].events, me->next);
				struct replay_rank *src;
				double arr;

				if (e->kind != VP__EV_RECV && !me->half) {
					me->t0 = me->t;
					replay_send(w, me, e, tw);
					if (e->kind == VP__EV_SEND) {
						me->t = me->send_end;
						me->next++;
						progress = 1;
						continue;
					}
					me->half = 1;
					progress = 1;
				}
				src = &rr[e->peer_recv];
				if (src->sent <= e->recv_seq)
					break; /* its sender is behind */
				arr = recv_port(src->arrivals[e->recv_seq],
						&me->rport, w->opts.ts, tw,
						e->bytes_recv);
				if (e->kind == VP__EV_RECV) {
					me->t = me->t > arr ? me->t : arr;
				} else {
					double rcv = me->t0 > arr ? me->t0 : arr;
					me->t = me->send_end > rcv
							? me->send_end
							: rcv;
					me->half = 0;
				}
				me->next++;
				progress = 1;
			}
			if (me->next == n)
				done++;
		}
	}
	for (r = 0; r < w->p; r++)
		if (rr[r].t > result)
			result = rr[r].t;
	if (done < w->p)
		result = -1; /* unmatched receives: the run failed */
out:
	for (r = 0; r < w->p; r++)
		free(rr[r].arrivals);
	free(rr);
	return result;
}

void vp__model_finish(struct vp__world *w, vp_stats *st)
{
	double t = 0, congested;
	int r;

	st->messages = 0;
	st->bytes = 0;
	for (r = 0; r < w->p; r++) {
		if (w->ranks[r].clock > t)
			t = w->ranks[r].clock;
		st->messages += w->ranks[r].messages;
		st->bytes += w->ranks[r].bytes;
	}
	st->model_time = t;
	st->max_link_load = max_link_load(w);
	congested = replay(w, w->opts.tw * (double)(st->max_link_load > 1
							    ? st->max_link_load
							    : 1));
	st->model_time_congested = congested < 0 ? t : congested;
}
