/*
 * p2p.c - blocking point-to-point messages: vp_send, vp_recv, vp_sendrecv.
 *
 * Each call goes down the layers in one direction: its arguments are
 * checked here once (a failure names the rank, the call and the bad value,
 * and aborts the run); the model clock stamps the message's envelope
 * (model/); the trace records the call when asked (trace/); the transport
 * moves the bytes (transport.h). On receipt the transport hands the
 * envelope back, and the clock and the trace read it.
 */
#include <stdio.h>
#include <string.h>

#include "trace/trace.h"

const char *vp__peer_name(const vp_comm *c, int w, char *buf, size_t len)
{
	int r;

	if (c->is_world || !c->group->world_of) {
		snprintf(buf, len, "rank %d", w);
		return buf;
	}
	for (r = 0; r < c->group->size; r++)
		if (c->group->world_of[r] == w)
			break;
	snprintf(buf, len, "sub-rank %d (world rank %d)", r, w);
	return buf;
}

static const struct vp__transport *tx_of(const struct vp__rank *me)
{
	return me->world->tx_ops;
}

/* A modelled send: stamp, post. Returns the hops, or a VP_E* code. */
static int post(vp_comm *c, int dst_world, const void *buf, size_t n,
		struct vp__envelope *env, void **pending)
{
	struct vp__rank *me = c->me;
	struct vp__world *w = me->world;
	int hops, rc;

	hops = vp__clock_send(&me->clock, &w->model, &w->topo, me->world_rank,
			      dst_world, n, env);
	vp__trace_stamp(me, env);
	vp__coll_stamp(c, env);
	rc = tx_of(me)->post_send(me->tx, vp__ctx(c), dst_world, buf, n, env,
				  pending);
	return rc ? rc : hops;
}

/* A modelled receive: take the message; the clock and the trace read its
 * envelope. Returns VP_OK with the message's completion time in *done. */
static int take(vp_comm *c, int src_world, void *buf, size_t n, size_t *len,
		struct vp__envelope *env, double *done, const char *call)
{
	struct vp__rank *me = c->me;
	char peer[64];
	int rc;

	rc = tx_of(me)->recv(me->tx, vp__ctx(c), src_world, buf, n, len, env);
	if (rc == VP_ENOMEM)
		return vp__fail(me, rc, call, "no memory for a mailbox");
	if (rc)
		return vp__fail(me, rc, call, "waiting for %s: %s",
				vp__peer_name(c, src_world, peer, sizeof(peer)),
				vp_strerror(rc));
	if ((rc = vp__coll_check(c, src_world, env, call)))
		return rc;
	vp__trace_arrived(me, env);
	*done = vp__clock_recv(&me->clock, &me->world->model, env, *len);
	if (*len > n)
		return vp__fail(
		    me, VP_ETRUNC, call,
		    "message of %zu bytes from %s does not fit "
		    "the %zu-byte receive buffer (nothing written)",
		    *len, vp__peer_name(c, src_world, peer, sizeof(peer)), n);
	return VP_OK;
}

int vp__runtime_send(struct vp__rank *me, int ctx, int dst_world,
		     const void *buf, size_t n, const char *call)
{
	struct vp__envelope env = { 0 };
	void *pending;
	int rc;

	rc = tx_of(me)->post_send(me->tx, ctx, dst_world, buf, n, &env,
				  &pending);
	if (rc)
		return vp__fail(me, rc, call, "no memory");
	return tx_of(me)->complete_send(me->tx, pending, dst_world);
}

int vp__runtime_recv(struct vp__rank *me, int ctx, int src_world, void *buf,
		     size_t n, const char *call)
{
	struct vp__envelope env;
	size_t len;
	int rc;

	rc = tx_of(me)->recv(me->tx, ctx, src_world, buf, n, &len, &env);
	if (rc)
		return vp__fail(me, rc, call, "waiting for rank %d: %s",
				src_world, vp_strerror(rc));
	if (len > n)
		return vp__fail(me, VP_ETRUNC, call,
				"runtime message of %zu bytes from rank %d, "
				"%zu expected",
				len, src_world, n);
	return VP_OK;
}

/* ---- public entry points ---- */

static int check_peer(vp_comm *c, int peer, const char *call, const char *role)
{
	struct vp__rank *me = c->me;
	struct vp__world *w = c->world;
	int size = c->group->size, wr;

	if (peer < 0 || peer >= size)
		return vp__fail(me, VP_ERANK, call, "%s %d is outside [0, %d)",
				role, peer, size);
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
	if (buf == VP_IN_PLACE)
		return vp__fail(c->me, VP_EINVAL, call,
				"%s is VP_IN_PLACE, which only collectives "
				"accept",
				what);
	if (!buf && n)
		return vp__fail(c->me, VP_EINVAL, call,
				"%s is NULL but its size is %zu", what, n);
	return VP_OK;
}

int vp_send(vp_comm *c, int dst, const void *buf, size_t n)
{
	struct vp__trace_op op;
	struct vp__envelope env;
	struct vp__rank *me;
	char peer[64];
	void *pending;
	int rc, dw;

	if (!c)
		return VP_EINVAL;
	me = c->me;
	if ((rc = vp__enter(c, "vp_send")) ||
	    (rc = check_peer(c, dst, "vp_send", "destination")) ||
	    (rc = check_buf(c, buf, n, "vp_send", "buffer")))
		return rc;
	dw = vp__to_world(c, dst);
	vp__trace_begin(c, &op, VP__EV_SEND);
	rc = post(c, dw, buf, n, &env, &pending);
	if (rc < 0)
		return vp__fail(me, rc, "vp_send", "no memory for %zu bytes",
				n);
	vp__trace_sent(c, &op, dw, n, rc, &env);
	me->clock.t = me->clock.port_free;
	vp__clock_log(&me->clock, VP__EV_SEND, dw, -1, (uint32_t)rc, 0, n, 0);
	rc = tx_of(me)->complete_send(me->tx, pending, dw);
	if (rc)
		return vp__fail(
		    me, rc, "vp_send", "sending %zu bytes to %s: %s", n,
		    vp__peer_name(c, dw, peer, sizeof(peer)), vp_strerror(rc));
	vp__trace_end(c, &op);
	return VP_OK;
}

int vp_recv_len(vp_comm *c, int src, void *buf, size_t n, size_t *got)
{
	struct vp__trace_op op;
	struct vp__envelope env;
	struct vp__rank *me;
	double done;
	size_t len;
	int rc, sw;

	if (!c)
		return VP_EINVAL;
	me = c->me;
	if ((rc = vp__enter(c, "vp_recv")) ||
	    (rc = check_peer(c, src, "vp_recv", "source")) ||
	    (rc = check_buf(c, buf, n, "vp_recv", "buffer")))
		return rc;
	sw = vp__to_world(c, src);
	vp__trace_begin(c, &op, VP__EV_RECV);
	rc = take(c, sw, buf, n, &len, &env, &done, "vp_recv");
	if (rc)
		return rc;
	if (got)
		*got = len;
	if (done > me->clock.t)
		me->clock.t = done;
	vp__clock_log(&me->clock, VP__EV_RECV, -1, sw, 0, env.seq, 0, len);
	vp__trace_received(c, &op, sw, env.seq, len);
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
	struct vp__envelope senv, renv;
	struct vp__rank *me;
	char peer[64];
	void *pending;
	double t0, done, send_end;
	size_t rlen;
	int rc, dw, sw, hops;

	if (!c)
		return VP_EINVAL;
	me = c->me;
	if ((rc = vp__enter(c, "vp_sendrecv")) ||
	    (rc = check_peer(c, dst, "vp_sendrecv", "destination")) ||
	    (rc = check_peer(c, src, "vp_sendrecv", "source")) ||
	    (rc = check_buf(c, sbuf, sn, "vp_sendrecv", "send buffer")) ||
	    (rc = check_buf(c, rbuf, rn, "vp_sendrecv", "receive buffer")))
		return rc;
	if (sbuf && rbuf && sn && rn &&
	    (const char *)sbuf < (char *)rbuf + rn &&
	    (const char *)rbuf < (const char *)sbuf + sn)
		return vp__fail(me, VP_EINVAL, "vp_sendrecv",
				"send and receive buffers overlap");
	dw = vp__to_world(c, dst);
	sw = vp__to_world(c, src);
	t0 = me->clock.t;
	vp__trace_begin(c, &op, VP__EV_SENDRECV);
	hops = post(c, dw, sbuf, sn, &senv, &pending);
	if (hops < 0)
		return vp__fail(me, hops, "vp_sendrecv",
				"no memory for %zu bytes", sn);
	vp__trace_sent(c, &op, dw, sn, hops, &senv);
	send_end = me->clock.port_free;
	/* The receive may copy from our own rendezvous send when src is us,
	 * so it runs before we wait for our send to be taken. */
	rc = take(c, sw, rbuf, rn, &rlen, &renv, &done, "vp_sendrecv");
	if (rc) {
		tx_of(me)->complete_send(me->tx, pending, dw);
		return rc;
	}
	rc = tx_of(me)->complete_send(me->tx, pending, dw);
	if (rc)
		return vp__fail(
		    me, rc, "vp_sendrecv", "sending %zu bytes to %s: %s", sn,
		    vp__peer_name(c, dw, peer, sizeof(peer)), vp_strerror(rc));
	me->clock.t = done > t0 ? done : t0;
	if (send_end > me->clock.t)
		me->clock.t = send_end;
	vp__clock_log(&me->clock, VP__EV_SENDRECV, dw, sw, (uint32_t)hops,
		      renv.seq, sn, rlen);
	vp__trace_received(c, &op, sw, renv.seq, rlen);
	vp__trace_end(c, &op);
	return VP_OK;
}
