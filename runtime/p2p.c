/*
 * p2p.c - blocking point-to-point messages: vp_send, vp_recv, vp_sendrecv,
 * and vp_probe.
 *
 * Each call goes down the layers in one direction: its arguments are
 * checked here once (a failure names the rank, the call and the bad value,
 * and aborts the run); the model clock stamps the message's envelope
 * (model/); the trace records the call when asked (trace/); the transport
 * moves the bytes (transport.h). On receipt the transport hands the
 * envelope back, and the clock and the trace read it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include "runtime.h"
#include "trace/trace.h"

const char *vp__peer_name(const vp_comm *c, int w, char *buf, size_t len)
{
	int r;

	if (w == VP_ANY_SOURCE) {
		snprintf(buf, len, "any rank");
		return buf;
	}
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

/*
 * A seeded run may leave a user's standard send unbuffered: MPI 4.0, sec.
 * 3.4, lets a standard send either copy the message aside or wait for its
 * receive, and a program whose sends complete only when buffered is
 * unsafe (sec. 3.5). The schedule draws it (schedule.c); a collective's
 * own sends, and a layer's buffered-mode send (MPI_Bsend, MPI_Ibsend),
 * are left as they are.
 */
int vp__p2p_sync_of(vp_comm *c, int sync)
{
	struct vp__world *w = c->me->world;
	const char *call;

	if (sync || !w->scheduled || c->space != VP__SPACE_USER)
		return sync;
	call = vp__rank_user_call(c->me);
	if (strstr(call, "Bsend") || strstr(call, "bsend"))
		return 0;
	return vp__sched_unbuffered(&w->sched) ? VP__SYNC_UNBUFFERED : 0;
}

/* A modelled send: stamp, post. Returns the hops, or a VP_E* code. */
int vp__p2p_post(vp_comm *c, int dst_world, int tag, const void *buf, size_t n,
		 struct vp__envelope *env, int sync, void **pending)
{
	struct vp__rank *me = c->me;
	struct vp__world *w = me->world;
	int hops, rc;

	hops = vp__clock_send(&me->clock, &w->model, &w->topo, me->world_rank,
			      dst_world, n, env);
	vp__trace_stamp(&me->trace, env);
	vp__coll_stamp(c, env);
	if (c->space == VP__SPACE_USER) /* else coll_stamp's hash stands */
		env->type_code = me->send_type;
	rc = vp__tx(me)->post_send(me->tx, vp__ctx(c), dst_world, tag, buf, n,
				  env, sync, pending);
	return rc ? rc : hops;
}

/* A modelled receive: take the message; the clock and the trace read its
 * envelope. Returns VP_OK with the message's completion time in *done. A
 * reduction's receive (x) has the transport combine the message where it
 * lies, or, on a transport that cannot, receives it into buf (scratch)
 * and combines it from there. */
static int take(vp_comm *c, int src_world, int tag, void *buf, size_t n,
		const struct vp__xcombine *x, size_t *len,
		struct vp__envelope *env, int *got_src, int *got_tag,
		double *done, const char *call)
{
	const struct vp__transport *tx = vp__tx(c->me);
	struct vp__rank *me = c->me;
	char peer[64];
	int rc;

	if (x && tx->recv_combine)
		rc = tx->recv_combine(me->tx, vp__ctx(c), src_world, tag, x, n,
				      len, env, got_src, got_tag);
	else
		rc = tx->recv(me->tx, vp__ctx(c), src_world, tag, buf, n, len,
			      env, got_src, got_tag);
	src_world = rc ? src_world : *got_src;
	if (rc == VP_ENOMEM)
		return vp__fail(me, rc, call, "no memory for a mailbox");
	if (rc)
		return vp__fail(me, rc, call, "waiting for %s: %s",
				vp__peer_name(c, src_world, peer, sizeof(peer)),
				vp_strerror(rc));
	/* the collective check only where collectives send (inline test:
	 * every message passes here) */
	if ((c->space == VP__SPACE_COLL &&
	     (rc = vp__coll_check(c, src_world, env, call))) ||
	    (rc = vp__type_check(c, src_world, *got_tag, vp__recv_type(c), env,
				 call)))
		return rc;
	if (me->world->trace.on) /* the trace's calls check it: once */
		vp__trace_arrived(&me->trace, env);
	*done = vp__clock_recv(&me->clock, &me->world->model, env, *len);
	if (*len > n)
		return vp__fail(
		    me, VP_ETRUNC, call,
		    "message of %zu bytes from %s does not fit "
		    "the %zu-byte receive buffer (nothing written)",
		    *len, vp__peer_name(c, src_world, peer, sizeof(peer)), n);
	if (x && *len != n)
		return vp__fail(me, VP_ETRUNC, call,
				"message of %zu bytes from %s for a reduction "
				"of %zu bytes (%zu elements; nothing written)",
				*len,
				vp__peer_name(c, src_world, peer, sizeof(peer)),
				n, x->count);
	if (x && !tx->recv_combine)
		x->fn(x, buf);
	return VP_OK;
}

int vp__runtime_send(struct vp__rank *me, int ctx, int dst_world,
		     const void *buf, size_t n, const char *call)
{
	return vp__runtime_send_tag(me, ctx, dst_world, 0, buf, n, call);
}

int vp__runtime_send_tag(struct vp__rank *me, int ctx, int dst_world,
			 int tag, const void *buf, size_t n, const char *call)
{
	struct vp__envelope env = { 0 };
	void *pending;
	int rc;

	rc = vp__tx(me)->post_send(me->tx, ctx, dst_world, tag, buf, n, &env,
				  0, &pending);
	if (rc)
		return vp__fail(me, rc, call, "no memory");
	return vp__tx(me)->complete_send(me->tx, pending, dst_world);
}

int vp__runtime_recv(struct vp__rank *me, int ctx, int src_world, int tag,
		     void *buf, size_t n, const char *call)
{
	struct vp__envelope env;
	size_t len;
	int rc, got_tag, from;

	rc = vp__tx(me)->recv(me->tx, ctx, src_world, tag, buf, n, &len, &env,
			     &from, &got_tag);
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

/* The argument checks past their inline fast paths (runtime.h). */
int vp__check_peer_named(vp_comm *c, int peer, const char *call,
			 const char *role)
{
	struct vp__rank *me = c->me;
	struct vp__world *w = c->world;
	int size = c->group->size, wr;

	if (peer == VP_PROC_NULL)
		return VP_OK;
	if (peer < 0 || peer >= size)
		return vp__fail(me, VP_ERANK, call, "%s %d is outside [0, %d)",
				role, peer, size);
	wr = vp__to_world(c, peer);
	/* strict mode: one link per message. The tree's leaves share no
	 * link (each has one, to its switch): every message there is routed
	 * through switches, and strict mode accepts any pair (docs/models.md,
	 * "Strict mode"). */
	if (w->opts.strict && wr != me->world_rank &&
	    w->topo.kind != VP__TOPO_TREE &&
	    !vp__topo_is_neighbor(&w->topo, me->world_rank, wr))
		return vp__fail(me, VP_ENOLINK, call,
				"strict mode: %s %d (world rank %d) is not a "
				"neighbour of world rank %d on %s",
				role, peer, wr, me->world_rank, w->topo.spec);
	return VP_OK;
}

int vp__check_buf_named(vp_comm *c, const void *buf, size_t n,
			const char *call, const char *what)
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

int vp__check_tag_named(vp_comm *c, int tag, int any_ok, const char *call)
{
	if ((tag >= 0 && tag <= VP_TAG_MAX) || (any_ok && tag == VP_ANY_TAG))
		return VP_OK;
	return vp__fail(c->me, VP_EINVAL, call,
			"tag %d is outside [0, VP_TAG_MAX = %d]%s", tag,
			VP_TAG_MAX, any_ok ? " and is not VP_ANY_TAG" : "");
}

/* A send whose arguments are checked. */
static int send_checked(vp_comm *c, int dst, int tag, const void *buf, size_t n,
			int sync, const char *call)
{
	struct vp__rank *me = c->me;
	struct vp__trace_op op;
	struct vp__envelope env;
	char peer[64];
	void *pending;
	int rc, dw, traced;

	if (dst == VP_PROC_NULL)
		return VP_OK;
	dw = vp__to_world(c, dst);
	traced = me->world->trace.on; /* the trace's calls check it: once */
	if (traced)
		vp__trace_begin(c, &op, VP__EV_SEND);
	rc = vp__p2p_post(c, dw, tag, buf, n, &env, vp__p2p_sync_of(c, sync),
			  &pending);
	if (rc < 0)
		return vp__fail(me, rc, call, "no memory for %zu bytes", n);
	if (traced)
		vp__trace_sent(c, &op, dw, n, rc, &env);
	me->clock.t = me->clock.send_done;
	vp__clock_log(&me->clock, VP__EV_SEND, dw, -1, (uint32_t)rc, 0, n, 0);
	if (me->script) /* a collective being recorded (coll_script.c) */
		vp__script_send(me, dw, n);
	rc = vp__tx(me)->complete_send(me->tx, pending, dw);
	if (rc)
		return vp__fail(me, rc, call, "sending %zu bytes to %s: %s", n,
				vp__peer_name(c, dw, peer, sizeof(peer)),
				vp_strerror(rc));
	if (traced)
		vp__trace_end(c, &op);
	return VP_OK;
}

/* A receive whose arguments are checked; st may be NULL; x: a
 * reduction's (take). */
int vp__recv_checked(vp_comm *c, int src, int tag, void *buf, size_t n,
		     const struct vp__xcombine *x, vp_status *st,
		     const char *call)
{
	struct vp__rank *me = c->me;
	struct vp__trace_op op;
	struct vp__envelope env;
	double done;
	size_t len;
	int rc, sw, got_src, got_tag, traced;

	if (src == VP_PROC_NULL) {
		if (st)
			*st = (vp_status){ VP_PROC_NULL, VP_ANY_TAG, 0, 0 };
		return VP_OK;
	}
	sw = src == VP_ANY_SOURCE ? VP_ANY_SOURCE : vp__to_world(c, src);
	traced = me->world->trace.on;
	if (traced)
		vp__trace_begin(c, &op, VP__EV_RECV);
	rc = take(c, sw, tag, buf, n, x, &len, &env, &got_src, &got_tag,
		  &done, call);
	if (rc)
		return rc;
	sw = got_src;
	if (st)
		*st = (vp_status){ vp__from_world(c, sw), got_tag, len, 0 };
	if (done > me->clock.t)
		me->clock.t = done;
	vp__clock_log(&me->clock, VP__EV_RECV, -1, sw, 0, env.seq, 0, len);
	if (me->script)
		vp__script_recv(me, sw, env.seq, len);
	if (traced) {
		vp__trace_received(c, &op, sw, env.seq, len);
		vp__trace_end(c, &op);
	}
	return VP_OK;
}

int vp_send_tag(vp_comm *c, int dst, int tag, const void *buf, size_t n)
{
	int rc;

	if (!c)
		return vp__null_comm(c, "vp_send_tag");
	if ((rc = vp__enter(c, "vp_send_tag")) ||
	    (rc = vp__check_peer(c, dst, "vp_send_tag", "destination")) ||
	    (rc = vp__check_tag(c, tag, 0, "vp_send_tag")) ||
	    (rc = vp__check_buf(c, buf, n, "vp_send_tag", "buffer")))
		return rc;
	return send_checked(c, dst, tag, buf, n, 0, "vp_send_tag");
}

int vp_ssend_tag(vp_comm *c, int dst, int tag, const void *buf, size_t n)
{
	int rc;

	if (!c)
		return vp__null_comm(c, "vp_ssend_tag");
	if ((rc = vp__enter(c, "vp_ssend_tag")) ||
	    (rc = vp__check_peer(c, dst, "vp_ssend_tag", "destination")) ||
	    (rc = vp__check_tag(c, tag, 0, "vp_ssend_tag")) ||
	    (rc = vp__check_buf(c, buf, n, "vp_ssend_tag", "buffer")))
		return rc;
	return send_checked(c, dst, tag, buf, n, 1, "vp_ssend_tag");
}

int vp_send(vp_comm *c, int dst, const void *buf, size_t n)
{
	int rc;

	if (!c)
		return vp__null_comm(c, "vp_send");
	if ((rc = vp__enter(c, "vp_send")) ||
	    (rc = vp__check_peer(c, dst, "vp_send", "destination")) ||
	    (rc = vp__check_buf(c, buf, n, "vp_send", "buffer")))
		return rc;
	return send_checked(c, dst, 0, buf, n, 0, "vp_send");
}

int vp_recv_tag(vp_comm *c, int src, int tag, void *buf, size_t n,
		vp_status *st)
{
	int rc;

	if (!c)
		return vp__null_comm(c, "vp_recv_tag");
	if ((rc = vp__enter(c, "vp_recv_tag")) ||
	    (rc = vp__check_source(c, src, "vp_recv_tag")) ||
	    (rc = vp__check_tag(c, tag, 1, "vp_recv_tag")) ||
	    (rc = vp__check_buf(c, buf, n, "vp_recv_tag", "buffer")))
		return rc;
	return vp__recv_checked(c, src, tag, buf, n, NULL, st, "vp_recv_tag");
}

int vp_recv_len(vp_comm *c, int src, void *buf, size_t n, size_t *got)
{
	vp_status st;
	int rc;

	if (!c)
		return vp__null_comm(c, "vp_recv");
	if ((rc = vp__enter(c, "vp_recv")) ||
	    (rc = vp__check_source(c, src, "vp_recv")) ||
	    (rc = vp__check_buf(c, buf, n, "vp_recv", "buffer")))
		return rc;
	rc = vp__recv_checked(c, src, 0, buf, n, NULL, &st, "vp_recv");
	if (!rc && got)
		*got = st.bytes;
	return rc;
}

int vp_recv(vp_comm *c, int src, void *buf, size_t n)
{
	return vp_recv_len(c, src, buf, n, NULL);
}

/* An exchange whose arguments are checked: the send posted, the receive
 * taken, then the send completed (the receive may copy from our own
 * rendezvous send when src is us). x: a reduction's receive (take). */
int vp__sendrecv_checked(vp_comm *c, int dst, const void *sbuf, size_t sn,
			 int src, void *rbuf, size_t rn,
			 const struct vp__xcombine *x, const char *call)
{
	struct vp__rank *me = c->me;
	struct vp__trace_op op;
	struct vp__envelope senv, renv;
	char peer[64];
	void *pending;
	double done, send_end;
	size_t rlen;
	int rc, dw, sw, hops, rtag, rsrc, traced;

	if (dst == VP_PROC_NULL) /* the receive alone (or nothing) */
		return vp__recv_checked(c, src, 0, rbuf, rn, x, NULL, call);
	if (src == VP_PROC_NULL)
		return send_checked(c, dst, 0, sbuf, sn, 0, call);
	dw = vp__to_world(c, dst);
	sw = src == VP_ANY_SOURCE ? VP_ANY_SOURCE : vp__to_world(c, src);
	traced = me->world->trace.on; /* the trace's calls check it: once */
	if (traced)
		vp__trace_begin(c, &op, VP__EV_SENDRECV);
	/* the partner of an exchange may send into rbuf (combine into
	 * x->out) straight away */
	if (vp__tx(me)->lend_recv)
		vp__tx(me)->lend_recv(me->tx, vp__ctx(c), sw, 0, rbuf, rn, x);
	hops = vp__p2p_post(c, dw, 0, sbuf, sn, &senv, 0, &pending);
	if (hops < 0) {
		if (vp__tx(me)->unlend_recv)
			vp__tx(me)->unlend_recv(me->tx, vp__ctx(c), sw);
		return vp__fail(me, hops, call, "no memory for %zu bytes", sn);
	}
	if (traced)
		vp__trace_sent(c, &op, dw, sn, hops, &senv);
	send_end = me->clock.send_done;
	/* the receive starts once the processor is done posting the send
	 * (LogP's o; at once in alpha-beta) */
	me->clock.t = me->clock.send_cpu;
	rc = take(c, sw, 0, rbuf, rn, x, &rlen, &renv, &rsrc, &rtag, &done,
		  call);
	if (rc) {
		vp__tx(me)->complete_send(me->tx, pending, dw);
		return rc;
	}
	sw = rsrc;
	rc = vp__tx(me)->complete_send(me->tx, pending, dw);
	if (rc)
		return vp__fail(
		    me, rc, call, "sending %zu bytes to %s: %s", sn,
		    vp__peer_name(c, dw, peer, sizeof(peer)), vp_strerror(rc));
	me->clock.t = done > me->clock.t ? done : me->clock.t;
	if (send_end > me->clock.t)
		me->clock.t = send_end;
	vp__clock_log(&me->clock, VP__EV_SENDRECV, dw, sw, (uint32_t)hops,
		      renv.seq, sn, rlen);
	if (me->script)
		vp__script_sendrecv(me, dw, sn, sw, renv.seq, rlen);
	if (traced) {
		vp__trace_received(c, &op, sw, renv.seq, rlen);
		vp__trace_end(c, &op);
	}
	return VP_OK;
}

int vp_sendrecv(vp_comm *c, int dst, const void *sbuf, size_t sn, int src,
		void *rbuf, size_t rn)
{
	int rc;

	if (!c)
		return vp__null_comm(c, "vp_sendrecv");
	if ((rc = vp__enter(c, "vp_sendrecv")) ||
	    (rc = vp__check_peer(c, dst, "vp_sendrecv", "destination")) ||
	    (rc = vp__check_source(c, src, "vp_sendrecv")) ||
	    (rc = vp__check_buf(c, sbuf, sn, "vp_sendrecv", "send buffer")) ||
	    (rc = vp__check_buf(c, rbuf, rn, "vp_sendrecv", "receive buffer")))
		return rc;
	if (sbuf && rbuf && vp__overlap(sbuf, sn, rbuf, rn))
		return vp__fail(c->me, VP_EINVAL, "vp_sendrecv",
				"send and receive buffers overlap");
	return vp__sendrecv_checked(c, dst, sbuf, sn, src, rbuf, rn, NULL,
				    "vp_sendrecv");
}

/* vp_probe and vp_iprobe: the message a receive of (src, tag) would take,
 * left in place. A blocking probe moves T to its arrival (it cannot return
 * before the message is in); an iprobe moves nothing. */
static int probe(vp_comm *c, int src, int tag, int blocking, int *found,
		 vp_status *st, const char *call)
{
	struct vp__rank *me = c->me;
	struct vp__xprobe got;
	char peer[64];
	int rc, sw;

	if ((rc = vp__enter(c, call)) ||
	    (rc = vp__check_source(c, src, call)) ||
	    (rc = vp__check_tag(c, tag, 1, call)))
		return rc;
	if (src == VP_PROC_NULL) {
		*found = 1;
		if (st)
			*st = (vp_status){ VP_PROC_NULL, VP_ANY_TAG, 0, 0 };
		return VP_OK;
	}
	sw = src == VP_ANY_SOURCE ? VP_ANY_SOURCE : vp__to_world(c, src);
	rc = vp__tx(me)->probe(me->tx, vp__ctx(c), sw, tag, blocking, found,
			      &got);
	if (rc == VP_ENOMEM)
		return vp__fail(me, rc, call, "no memory for a mailbox");
	if (rc)
		return vp__fail(me, rc, call, "waiting for %s: %s",
				vp__peer_name(c, sw, peer, sizeof(peer)),
				vp_strerror(rc));
	if (!*found) {
		if (vp__tx(me)->idle)
			vp__tx(me)->idle(me->tx);
		return VP_OK;
	}
	vp__script_spoil(me); /* moves T without a message */
	if (blocking && got.env.arrival > me->clock.t)
		me->clock.t = got.env.arrival;
	if (st)
		*st = (vp_status){ vp__from_world(c, got.src), got.tag,
				   got.len, 0 };
	return VP_OK;
}

int vp_probe(vp_comm *c, int src, int tag, vp_status *st)
{
	int found;

	if (!c)
		return vp__null_comm(c, "vp_probe");
	return probe(c, src, tag, 1, &found, st, "vp_probe");
}

int vp_iprobe(vp_comm *c, int src, int tag, int *found, vp_status *st)
{
	if (!c)
		return vp__null_comm(c, "vp_iprobe");
	if (!found) {
		int rc = vp__enter(c, "vp_iprobe");
		return rc ? rc
			  : vp__fail(c->me, VP_EINVAL, "vp_iprobe",
				     "the found pointer is NULL");
	}
	return probe(c, src, tag, 0, found, st, "vp_iprobe");
}
