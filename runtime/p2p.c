/*
 * p2p.c - blocking point-to-point messages: vp_send, vp_recv, vp_sendrecv.
 *
 * Protocols (README, "Semantics"):
 *   eager       n <= eager_max: the sender copies into a pooled header, queues
 *               it and returns at once (two copies, no waiting).
 *   rendezvous  n > eager_max: the sender queues a header pointing at its own
 *               buffer and waits; the receiver copies straight from that
 *               buffer (one copy), marks it DONE and wakes the sender.
 * Messages of one ordered pair in one context keep their order: one FIFO
 * mailbox per (context, source, destination), one consumer.
 *
 * Arguments are checked once here, at the public entry points; a failure
 * names the rank, the call and the bad value, and aborts the run.
 */
#include <stdio.h>
#include <string.h>

#include "trace.h"

int vp__post_send(struct vp__rank *me, int ctx, int dst_world,
		  const void *buf, size_t n, int modelled,
		  struct vp__msg **rdv_out)
{
	struct vp__world *w = me->world;
	int eager = n <= w->opts.eager_max, hops = 0;
	struct vp__mailbox *mb;
	struct vp__fb_slot *slot;
	struct vp__msg *m;
	double arrival = 0;
	uint32_t seq = 0, step = 0;

	mb = vp__mailbox_get(me, ctx, me->world_rank, dst_world);
	if (!mb)
		return VP_ENOMEM;
	*rdv_out = NULL;
	if (n <= VP__FB_BYTES && (slot = vp__fastbox_claim(mb))) {
		if (modelled) {
			slot->arrival = vp__model_send(me, dst_world, n, &hops);
			slot->seq = me->send_seq++;
			slot->step = ++me->step;
		}
		slot->len = (uint32_t)n;
		slot->modelled = (uint32_t)modelled;
		if (n)
			memcpy(slot->payload, buf, n);
		vp__fastbox_publish(mb, slot);
		goto posted;
	}
	m = vp__msg_alloc(me, eager ? n : 0);
	if (!m)
		return VP_ENOMEM;
	if (modelled) {
		arrival = vp__model_send(me, dst_world, n, &hops);
		seq = me->send_seq++;
		step = ++me->step;
	}
	m->len = n;
	m->src_world = me->world_rank;
	m->modelled = modelled;
	m->arrival = arrival;
	m->seq = seq;
	m->step = step;
	if (eager) {
		if (n)
			memcpy(m->payload, buf, n);
		m->rdv_buf = NULL;
	} else {
		m->rdv_buf = buf;
		atomic_store_explicit(&m->rdv_state, VP__RDV_POSTED,
				      memory_order_relaxed);
		*rdv_out = m;
	}
	vp__mailbox_enqueue(mb, m);
posted:
	vp__wake(w, dst_world, me->world_rank);
	return hops;
}

int vp__complete_send(struct vp__rank *me, struct vp__msg *rdv, int dst_world)
{
	int rc, expected = VP__RDV_POSTED;

	if (!rdv)
		return VP_OK;
	rc = vp__block(me, VP__WAIT_RDV_DONE, dst_world, NULL, rdv, rdv->len);
	if (rc == VP_OK)
		goto recycle;
	/* The run is failing. Withdraw the buffer unless the receiver is
	 * already copying from it; then let the copy finish first. */
	if (atomic_compare_exchange_strong(&rdv->rdv_state, &expected,
					   VP__RDV_CANCELLED))
		return rc; /* the header now belongs to whoever dequeues it */
	while (atomic_load(&rdv->rdv_state) != VP__RDV_DONE)
		sched_yield();
recycle:
	vp__msg_release(rdv);
	return rc;
}

/* Takes the next message of a mailbox, waiting for it if needed. */
static int take(struct vp__rank *me, struct vp__mailbox *mb, int src_world,
		size_t n, struct vp__delivery *d)
{
	unsigned tries = 0, polls = 0, budget = 0;
	int rc, got;

	for (;;) {
		got = vp__mailbox_take(mb, d);
		if (got > 0)
			return VP_OK;
		if (got == 0 && polls == 0)
			budget = vp__poll_budget(me->world);
		if (got == 0 && polls < budget) {
			polls++;
			caa_cpu_relax();
			continue;
		}
		if (got < 0) {
			/* a sender is linking its node right now */
			if (++tries % 64 == 0)
				sched_yield();
			else
				caa_cpu_relax();
			continue;
		}
		rc = vp__block(me, VP__WAIT_RECV, src_world, mb, NULL, n);
		if (rc)
			return rc;
	}
}

/* A fastbox message: copy it out and free the slot. */
static size_t take_slot(struct vp__rank *me, struct vp__mailbox *mb,
			struct vp__fb_slot *s, void *buf, size_t n,
			double *arrival, uint32_t *seq)
{
	size_t len = s->len;

	*arrival = s->arrival;
	*seq = s->seq;
	if (s->modelled) {
		me->messages++;
		me->bytes += len;
		if (s->step > me->step) /* the trace's Lamport step */
			me->step = s->step;
	}
	if (len <= n && len)
		memcpy(buf, s->payload, len);
	vp__fastbox_release(mb, s);
	return len;
}

int vp__do_recv(struct vp__rank *me, int ctx, int src_world, void *buf,
		size_t n, size_t *got, double *arrival, uint32_t *seq,
		const char *call)
{
	struct vp__delivery d;
	struct vp__mailbox *mb;
	struct vp__msg *m;
	size_t len;
	int rc, expected = VP__RDV_POSTED;

	mb = vp__mailbox_get(me, ctx, src_world, me->world_rank);
	if (!mb)
		return vp__fail(me, VP_ENOMEM, call, "no memory for a mailbox");
	rc = take(me, mb, src_world, n, &d);
	if (rc)
		return vp__fail(me, rc, call, "waiting for rank %d: %s",
				src_world, vp_strerror(rc));
	if (d.slot) {
		len = take_slot(me, mb, d.slot, buf, n, arrival, seq);
		if (got)
			*got = len;
		goto check_len;
	}
	m = d.m;
	len = m->len;
	*arrival = m->arrival;
	*seq = m->seq;
	if (got)
		*got = len;
	if (m->modelled) {
		me->messages++;
		me->bytes += len;
		if (m->step > me->step) /* the trace's Lamport step */
			me->step = m->step;
	}
	if (!m->rdv_buf) {
		if (len <= n && len)
			memcpy(buf, m->payload, len);
		vp__msg_release(m);
	} else if (!atomic_compare_exchange_strong(&m->rdv_state, &expected,
						   VP__RDV_CLAIMED)) {
		/* The sender withdrew it: the run is aborting. */
		vp__msg_release(m);
		vp__check_running(me);
		return VP_EABORT;
	} else {
		if (len <= n)
			memcpy(buf, m->rdv_buf, len);
		/* After DONE the sender may reuse the header: read nothing
		 * from it past this store. */
		atomic_store(&m->rdv_state, VP__RDV_DONE);
		vp__wake(me->world, src_world, me->world_rank);
	}
check_len:
	if (len > n)
		return vp__fail(me, VP_ETRUNC, call,
				"message of %zu bytes from rank %d does not fit "
				"the %zu-byte receive buffer (nothing written)",
				len, src_world, n);
	return VP_OK;
}

/* ---- public entry points ---- */

static int check_peer(vp_comm *c, int peer, const char *call,
		      const char *role)
{
	struct vp__rank *me = c->me;
	struct vp__world *w = c->world;
	int size = c->group->size, wr;

	if (peer < 0 || peer >= size)
		return vp__fail(me, VP_ERANK, call,
				"%s %d is outside [0, %d)", role, peer, size);
	wr = vp__to_world(c, peer);
	if (w->opts.strict && wr != me->world_rank &&
	    !vp__topo_is_neighbor(&w->topo, me->world_rank, wr))
		return vp__fail(me, VP_ENOLINK, call,
				"strict mode: %s %d (world rank %d) is not a "
				"neighbour of world rank %d on %s",
				role, peer, wr, me->world_rank, w->topo.spec);
	return VP_OK;
}

static int check_buf(vp_comm *c, const void *buf, size_t n, const char *call,
		     const char *what)
{
	if (!buf && n)
		return vp__fail(c->me, VP_EINVAL, call,
				"%s is NULL but its size is %zu", what, n);
	return VP_OK;
}

int vp_send(vp_comm *c, int dst, const void *buf, size_t n)
{
	struct vp__trace_op op;
	struct vp__msg *rdv;
	int rc, dw;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__check_running(c->me)) ||
	    (rc = check_peer(c, dst, "vp_send", "destination")) ||
	    (rc = check_buf(c, buf, n, "vp_send", "buffer")))
		return rc;
	dw = vp__to_world(c, dst);
	vp__trace_begin(c, &op, VP__EV_SEND);
	rc = vp__post_send(c->me, vp__ctx(c), dw, buf, n, 1, &rdv);
	if (rc < 0)
		return vp__fail(c->me, rc, "vp_send", "no memory for %zu bytes",
				n);
	vp__trace_sent(c, &op, dw, n, rc);
	c->me->clock = c->me->port_free;
	vp__model_log(c->me, VP__EV_SEND, dw, -1, (uint32_t)rc, 0, n, 0);
	rc = vp__complete_send(c->me, rdv, dw);
	if (rc)
		return vp__fail(c->me, rc, "vp_send",
				"sending %zu bytes to rank %d: %s", n, dst,
				vp_strerror(rc));
	vp__trace_end(c, &op);
	return VP_OK;
}

int vp_recv_len(vp_comm *c, int src, void *buf, size_t n, size_t *got)
{
	struct vp__trace_op op;
	double arrival;
	size_t len;
	uint32_t seq;
	int rc, sw;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__check_running(c->me)) ||
	    (rc = check_peer(c, src, "vp_recv", "source")) ||
	    (rc = check_buf(c, buf, n, "vp_recv", "buffer")))
		return rc;
	sw = vp__to_world(c, src);
	vp__trace_begin(c, &op, VP__EV_RECV);
	rc = vp__do_recv(c->me, vp__ctx(c), sw, buf, n, &len, &arrival, &seq,
			 "vp_recv");
	if (rc)
		return rc;
	if (got)
		*got = len;
	arrival = vp__model_recv(c->me, arrival, len);
	if (arrival > c->me->clock)
		c->me->clock = arrival;
	vp__model_log(c->me, VP__EV_RECV, -1, sw, 0, seq, 0, len);
	vp__trace_received(c, &op, sw, seq, len);
	vp__trace_end(c, &op);
	return VP_OK;
}

int vp_recv(vp_comm *c, int src, void *buf, size_t n)
{
	return vp_recv_len(c, src, buf, n, NULL);
}

int vp_sendrecv(vp_comm *c, int dst, const void *sbuf, size_t sn, int src,
		void *rbuf, size_t rn)
{
	struct vp__trace_op op;
	struct vp__rank *me;
	struct vp__msg *rdv;
	double t0, arrival, send_end;
	size_t rlen;
	uint32_t seq;
	int rc, dw, sw, hops;

	if (!c)
		return VP_EINVAL;
	me = c->me;
	if ((rc = vp__check_running(me)) ||
	    (rc = check_peer(c, dst, "vp_sendrecv", "destination")) ||
	    (rc = check_peer(c, src, "vp_sendrecv", "source")) ||
	    (rc = check_buf(c, sbuf, sn, "vp_sendrecv", "send buffer")) ||
	    (rc = check_buf(c, rbuf, rn, "vp_sendrecv", "receive buffer")))
		return rc;
	if (sbuf && rbuf && sn && rn && (const char *)sbuf < (char *)rbuf + rn &&
	    (const char *)rbuf < (const char *)sbuf + sn)
		return vp__fail(me, VP_EINVAL, "vp_sendrecv",
				"send and receive buffers overlap");
	dw = vp__to_world(c, dst);
	sw = vp__to_world(c, src);
	t0 = me->clock;
	vp__trace_begin(c, &op, VP__EV_SENDRECV);
	hops = vp__post_send(me, vp__ctx(c), dw, sbuf, sn, 1, &rdv);
	if (hops < 0)
		return vp__fail(me, hops, "vp_sendrecv",
				"no memory for %zu bytes", sn);
	vp__trace_sent(c, &op, dw, sn, hops);
	send_end = me->port_free;
	/* The receive may copy from our own rendezvous send when src is us,
	 * so it runs before we wait for our send to be taken. */
	rc = vp__do_recv(me, vp__ctx(c), sw, rbuf, rn, &rlen, &arrival, &seq,
			 "vp_sendrecv");
	if (rc) {
		vp__complete_send(me, rdv, dw);
		return rc;
	}
	rc = vp__complete_send(me, rdv, dw);
	if (rc)
		return vp__fail(me, rc, "vp_sendrecv",
				"sending %zu bytes to rank %d: %s", sn, dst,
				vp_strerror(rc));
	arrival = vp__model_recv(me, arrival, rlen);
	me->clock = arrival > t0 ? arrival : t0;
	if (send_end > me->clock)
		me->clock = send_end;
	vp__model_log(me, VP__EV_SENDRECV, dw, sw, (uint32_t)hops, seq, sn,
		      rlen);
	vp__trace_received(c, &op, sw, seq, rlen);
	vp__trace_end(c, &op);
	return VP_OK;
}
