/*
 * replay.c - the congested model time: the logged events of every rank
 * replayed with the same max-plus rules (clock.c), with the per-byte time
 * scaled by the largest link load (Grama et al., sec. 2.5.1: a link shared
 * by k messages gives each 1/k of its bandwidth). Only the alpha-beta
 * models replay: their sender overhead is 0, so a posted send leaves T.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "../bulk.h"
#include "model.h"

struct replay_rank {
	size_t next;      /* next event */
	double t;         /* model time */
	struct vp__ports ports;
	double *arrivals; /* arrival of each of this rank's sends, by seq */
	double *ends;     /* when the send port was done with each */
	uint32_t sent;    /* sends replayed */
	int half;         /* a sendrecv whose send part is done */
	double t0, send_end;
};

/* Replays the send part of e. */
static void replay_send(const struct vp__model *m, struct replay_rank *rr,
			const struct vp__event *e)
{
	struct vp__cost cost = vp__model_cost(m, e->bytes_send, (int)e->hops);
	double start = vp__ports_send(&rr->ports, m, rr->t, cost.hold);

	rr->ends[rr->sent] = start + cost.done;
	rr->arrivals[rr->sent++] = start + cost.latency;
	rr->send_end = start + cost.done;
}

/* Replays rank r's events (clock c) from where it stopped, until one
 * waits for a send its sender has not replayed yet or none is left;
 * returns whether it replayed any. */
static int replay_events(const struct vp__model *m, struct replay_rank *rr,
			 int r, const struct vp__clock *c)
{
	struct replay_rank *me = &rr[r];
	size_t n = c->events.len;
	int progress = 0;

	while (me->next < n) {
		const struct vp__event *e = vp__vec_at(&c->events, me->next);
		struct replay_rank *src;
		double arr;

		if (e->kind == VP__EV_COMPUTE) {
			me->t += e->work;
			me->next++;
			progress = 1;
			continue;
		}
		if (e->kind == VP__EV_ISEND) {
			replay_send(m, me, e);
			me->next++;
			progress = 1;
			continue;
		}
		if (e->kind == VP__EV_SEND_DONE || e->kind == VP__EV_ARRIVED) {
			double end = e->kind == VP__EV_ARRIVED
					 ? me->arrivals[e->recv_seq]
					 : me->ends[e->recv_seq];
			me->t = me->t > end ? me->t : end;
			me->next++;
			progress = 1;
			continue;
		}
		if (e->kind != VP__EV_RECV && !me->half) {
			me->t0 = me->t;
			replay_send(m, me, e);
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
		arr = vp__ports_recv(&me->ports, m, src->arrivals[e->recv_seq],
				     e->bytes_recv);
		if (e->kind == VP__EV_RECV) {
			me->t = me->t > arr ? me->t : arr;
		} else {
			double rcv = me->t0 > arr ? me->t0 : arr;
			me->t = me->send_end > rcv ? me->send_end : rcv;
			me->half = 0;
		}
		me->next++;
		progress = 1;
	}
	return progress;
}

/*
 * Every rank's replay state and its sends' times come in one block of
 * vp__bulk_alloc (zeroed), which the kernel backs with huge pages where it
 * can: at p = 4096 after a ring exchange and a barrier the block is about
 * 2.4 MB, and taken as a calloc and 8192 mallocs its pages would be zeroed
 * one fault at a time, each costing microseconds on a virtual machine.
 */
double vp__model_replay(const struct vp__model *model,
			const struct vp__clock *const *clocks, int p,
			double factor)
{
	struct vp__model m = *model;
	struct replay_rank *rr;
	double result = 0, *times;
	size_t sends = 0, bytes;
	int r, progress = 1, done = 0;

	m.tw *= factor;
	for (r = 0; r < p; r++)
		sends += (size_t)clocks[r]->send_seq + 1;
	bytes = (size_t)p * sizeof(*rr) + 2 * sends * sizeof(double);
	rr = vp__bulk_alloc(bytes);
	if (!rr)
		return -1;
	times = (double *)(rr + p);
	for (r = 0; r < p; r++) {
		size_t n = (size_t)clocks[r]->send_seq + 1;

		rr[r].arrivals = times;
		rr[r].ends = times + n;
		times += 2 * n;
	}
	while (progress && done < p) {
		progress = 0;
		done = 0;
		for (r = 0; r < p; r++) {
			if (replay_events(&m, rr, r, clocks[r]))
				progress = 1;
			if (rr[r].next == clocks[r]->events.len)
				done++;
		}
	}
	for (r = 0; r < p; r++)
		if (rr[r].t > result)
			result = rr[r].t;
	if (done < p)
		result = -1; /* unmatched receives: the run failed */
	vp__bulk_free(rr, bytes);
	return result;
}
