/*
 * request.c - nonblocking point to point: vp_isend and vp_irecv start a
 * transfer; vp_wait, vp_waitall, vp_waitany, vp_test and vp_testall
 * complete it (MPI standard, sec. 3.7, "Nonblocking communication").
 *
 * A request comes from its rank's pool and goes back to it when it
 * completes. Freed requests wait in a queue and are used again oldest
 * first, and the pool's memory lives until the run ends. Each slot counts
 * its uses (a 16-bit generation), and a handle carries the generation of
 * the request it names in the pointer's top 16 bits (user space on x86-64
 * and AArch64 lies below 2^48): a handle used after its request completed
 * (waited twice through a copy, or kept after completion) is recognised
 * as stale, however many requests came since, unless its slot was used
 * again a multiple of 65536 times (a slot waits behind REQ_CHUNK freed
 * ones, so at least 64 x 65536 requests later). Where a pointer has no
 * spare top bits (32-bit, or an address above 2^48) handles are plain
 * pointers, and a freed request waits behind REQ_QUARANTINE others
 * before it is reused.
 *
 * VP_CHECK=buffers: a send buffer changed before its nonblocking send
 * completed is an error (MPI 4.0, sec. 3.7.2: the sender must not modify
 * it until then). vp_isend and vp_issend take a checksum of the buffer
 * and the send's completion (in vp_wait, vp_test, ...) takes it again;
 * a difference fails the run naming the rank, the completing call, the
 * destination, the tag and the size. The cost is two passes over the
 * buffer per nonblocking send (a multiply and a rotation per 8 bytes
 * each), nothing when the check is off. A change is caught whether or
 * not the transport had copied the message already (MPI forbids it
 * either way); a change undone before completion is not seen.
 *
 * A request named twice in one array call (vp_waitall, vp_testall,
 * vp_waitany) is refused: the pool marks each request of the array with
 * the call's stamp, so the check is one pass. The pool keeps
 * no list of its live requests (a rank that returns with some open finds
 * them by scanning its chunks), and a send and a receive complete by
 * separate functions: both keep a nonblocking ping-pong as fast as the
 * blocking one.
 *
 * Model clock (Grama et al., sec. 2.5.1, with one send and one receive
 * port per rank): vp_isend stamps its message when posted, starting it
 * when the send port is free, so sends leave in the order posted; T does
 * not move until the wait, which takes T to when the port is done with the
 * send. A receive completes at max(T at the wait, arrival) under the
 * receive-port rule, and waitall completes its requests in array order, so
 * model times do not depend on which message arrived first in real time.
 * The events log VP__EV_ISEND at the post and VP__EV_SEND_DONE at the wait,
 * so the congested replay follows the same rules (a wait right after its
 * isend turns the pair into the blocking send's one event, clock.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "runtime.h"
#include "trace/trace.h"

#define VP__REQ_LIVE 0x76702d72u  /* "vp-r" */
#define VP__REQ_FREED 0x64656164u /* "dead" */
#define REQ_CHUNK 64
#define REQ_QUARANTINE 1024

struct vp_req {
	unsigned magic;
	uint16_t gen;  /* the slot's uses, as carried by its handles */
	unsigned mark; /* the pool's stamp of the array call that saw it */
	int is_send;
	int done; /* the transfer is over; the request is not completed yet */
	unsigned not_yet; /* a seeded run's tests that hid its completion */
	int cancelled; /* a receive vp_cancel took back before any match */
	vp_comm *comm;
	int peer; /* as the caller named it: a rank of comm, or a constant */
	int peer_world;
	int tag;
	size_t n;
	/* a send */
	void *pending; /* the transport's, while the buffer is lent */
	const void *buf; /* VP_CHECK=buffers: the buffer and its checksum */
	uint64_t sum;
	uint32_t seq;  /* the model's number of the message */
	double send_end;
	size_t event; /* where the clock's log has its VP__EV_ISEND */
	/* a receive */
	struct vp__xrecv xr;
	uint32_t expect_type; /* vp_msg_types' code when it was posted */
	struct vp__trace_op op;
	struct vp_req *next; /* the quarantine's queue, once freed */
};

/* The calling thread's rank: requests carry no communicator argument. */
static __thread struct vp__rank *self;

void vp__requests_enter(struct vp__rank *r)
{
	self = r;
}

/* Not inlined: a rank that is a fiber may resume on another thread, and
 * a compiler may keep a thread-local variable's address across a call. */
__attribute__((noinline)) struct vp__rank *vp__self(void)
{
	return self;
}

/* ---- handles ---- */

#if UINTPTR_MAX > 0xffffffffu
#define GEN_SHIFT 48
#define ADDR_MASK ((UINT64_C(1) << GEN_SHIFT) - 1)
/* Whether the pool's slots have spare top bits for a generation. */
static int tagged(const struct vp_req *r)
{
	return !((uintptr_t)r & ~(uintptr_t)ADDR_MASK);
}

static struct vp_req *req_of(vp_request h)
{
	return (struct vp_req *)((uintptr_t)h & ADDR_MASK);
}

static uint16_t gen_of(vp_request h)
{
	return (uint16_t)((uintptr_t)h >> GEN_SHIFT);
}

static vp_request handle_of(struct vp_req *r)
{
	if (!tagged(r))
		return r;
	return (vp_request)((uintptr_t)r | (uintptr_t)r->gen << GEN_SHIFT);
}
#else
static int tagged(const struct vp_req *r)
{
	(void)r;
	return 0;
}

static struct vp_req *req_of(vp_request h)
{
	return h;
}

static uint16_t gen_of(vp_request h)
{
	return h->gen;
}

static vp_request handle_of(struct vp_req *r)
{
	return r;
}
#endif

/* ---- the pool ---- */

static struct vp_req *req_new(struct vp__rank *me)
{
	struct vp__req_pool *p = &me->reqs;
	struct vp_req *r;

	/* a freed slot comes back behind REQ_CHUNK others when its handles
	 * carry its generation (a stale handle then goes unseen only after
	 * 64 x 65536 newer requests), behind REQ_QUARANTINE when not */
	if (p->queue && p->nqueued > (tagged(p->queue) ? REQ_CHUNK
						       : REQ_QUARANTINE)) {
		r = p->queue;
		p->queue = r->next;
		p->nqueued--;
	} else {
		if (!p->room) {
			struct vp__req_chunk *ch = malloc(
			    sizeof(*ch) + REQ_CHUNK * sizeof(struct vp_req));
			if (!ch)
				return NULL;
			ch->next = p->chunks;
			p->chunks = ch;
			p->fresh = (struct vp_req *)(ch + 1);
			p->room = REQ_CHUNK;
		}
		r = p->fresh++;
		p->room--;
		r->gen = 0;
		r->mark = 0;
	}
	r->gen++;
	r->magic = VP__REQ_LIVE; /* the caller fills the rest */
	p->nlive++;
	return r;
}

/* Into the quarantine's tail. */
static void req_free(struct vp__rank *me, struct vp_req *r)
{
	struct vp__req_pool *p = &me->reqs;

	p->nlive--;
	r->magic = VP__REQ_FREED;
	r->next = NULL;
	if (p->queue)
		p->queue_tail->next = r;
	else
		p->queue = r;
	p->queue_tail = r;
	p->nqueued++;
}

/* Calls fn on each live request of the pool (the run's end, rare): the
 * pool keeps no list of them, which saves every start and completion two
 * links. */
static void req_each_live(struct vp__rank *me,
			  void (*fn)(struct vp__rank *, struct vp_req *, void *),
			  void *arg)
{
	struct vp__req_chunk *ch;
	struct vp_req *r, *end;

	for (ch = me->reqs.chunks; ch; ch = ch->next) {
		r = (struct vp_req *)(ch + 1);
		end = ch == me->reqs.chunks ? me->reqs.fresh : r + REQ_CHUNK;
		for (; r < end; r++)
			if (r->magic == VP__REQ_LIVE)
				fn(me, r, arg);
	}
}

static void count_on(struct vp__rank *me, struct vp_req *r, void *arg)
{
	const vp_comm **c = arg;

	(void)me;
	if (r->comm->user == c[0])
		c[1] = (const vp_comm *)((uintptr_t)c[1] + 1);
}

int vp__comm_requests(struct vp__rank *me, const vp_comm *user)
{
	const vp_comm *arg[2] = { user, NULL };

	req_each_live(me, count_on, arg);
	return (int)(uintptr_t)arg[1];
}

void vp__requests_free(struct vp__rank *me)
{
	struct vp__req_chunk *ch, *next;

	for (ch = me->reqs.chunks; ch; ch = next) {
		next = ch->next;
		free(ch);
	}
	memset(&me->reqs, 0, sizeof(me->reqs));
}

/* "vp_isend to rank 1, tag 7, 8 bytes" */
static const char *req_name(const struct vp_req *r, char *buf, size_t len)
{
	char peer[64], tag[24];

	if (r->peer == VP_ANY_SOURCE)
		snprintf(peer, sizeof(peer), "any rank");
	else if (r->peer == VP_PROC_NULL)
		snprintf(peer, sizeof(peer), "VP_PROC_NULL");
	else
		snprintf(peer, sizeof(peer), "rank %d", r->peer);
	if (r->tag == VP_ANY_TAG)
		snprintf(tag, sizeof(tag), "any tag");
	else
		snprintf(tag, sizeof(tag), "tag %d", r->tag);
	snprintf(buf, len, "%s %s, %s, %zu bytes",
		 r->is_send ? "vp_isend to" : "vp_irecv from", peer, tag, r->n);
	return buf;
}

/*
 * A rank returned from its function: requests it did not complete are a
 * misused handle. The first names them (unless the run already failed);
 * then receives are withdrawn and lent send buffers taken back, so no
 * other rank touches memory that is gone.
 */
struct unsettled {
	char *msg;
	size_t at, len;
	int k;
};

static void name_one(struct vp__rank *me, struct vp_req *r, void *arg)
{
	struct unsettled *u = arg;
	char one[128];

	(void)me;
	if (u->at < u->len)
		u->at += (size_t)snprintf(u->msg + u->at, u->len - u->at,
					  "%s%s", u->k++ ? "; " : "",
					  req_name(r, one, sizeof(one)));
}

/* Withdraws a receive, takes back a lent send buffer. */
static void take_back(struct vp__rank *me, struct vp_req *r, void *arg)
{
	(void)arg;
	if (!r->is_send)
		vp__tx(me)->cancel_recv(me->tx, &r->xr);
	else if (r->pending)
		vp__tx(me)->complete_send(me->tx, r->pending, r->peer_world);
	req_free(me, r);
}

void vp__requests_settle(struct vp__rank *me)
{
	struct vp__req_pool *p = &me->reqs;
	char msg[VP__ERRMSG_BYTES];
	struct unsettled u = { msg, 0, sizeof(msg), 0 };

	if (!p->nlive)
		return;
	if (!vp__world_status(me->world)) {
		u.at = (size_t)snprintf(msg, sizeof(msg),
					"rank %d: rank function: returned with "
					"%d request%s not completed (complete "
					"each with vp_wait or vp_test): ",
					me->world_rank, p->nlive,
					p->nlive == 1 ? "" : "s");
		req_each_live(me, name_one, &u);
		vp__world_fail(me->world, me->world_rank, VP_EINVAL, msg);
	}
	req_each_live(me, take_back, NULL);
}

/* ---- checks ---- */

static int req_check_failed(vp_request h, int i, const char *call)
    __attribute__((noinline, cold));

/* The request that handle h names may be completed by the calling thread:
 * VP_OK, or the error (the run fails naming it). */
static inline int req_check(vp_request h, int i, const char *call)
{
	struct vp_req *r = req_of(h);

	if (__builtin_expect(r->magic == VP__REQ_LIVE, 1) &&
	    r->gen == gen_of(h) && r->comm->magic == VP__COMM_LIVE &&
	    r->comm->me == vp__self())
		return vp__enter_mine(r->comm, call);
	return req_check_failed(h, i, call);
}

/* req_check's every other case, named. */
static int req_check_failed(vp_request h, int i, const char *call)
{
	struct vp__rank *me = vp__self();
	struct vp_req *r = req_of(h);
	char idx[32] = "";

	if (!me)
		return VP_EINVAL; /* not a rank's thread: nobody to name */
	if (i >= 0)
		snprintf(idx, sizeof(idx), " %d", i);
	if (r->magic != VP__REQ_LIVE && r->magic != VP__REQ_FREED)
		return vp__fail(me, VP_EINVAL, call,
				"request%s (%p) is not a request from vp_isend "
				"or vp_irecv",
				idx, (void *)h);
	if (r->magic == VP__REQ_FREED || r->gen != gen_of(h))
		return vp__fail(me, VP_EINVAL, call,
				"request%s was already completed (waited or "
				"tested before through another copy of the "
				"handle): the handle is stale%s",
				idx,
				r->magic == VP__REQ_LIVE
				    ? ", and its slot now holds a newer request"
				    : "");
	if (r->comm->me != me)
		return vp__fail(me, VP_EINVAL, call,
				"request%s belongs to rank %d, not to this "
				"rank: only the rank that started a request "
				"completes it",
				idx, r->comm->me->world_rank);
	return vp__enter(r->comm, call);
}

static int check_array(int n, vp_request *reqs, const char *call)
{
	if (!vp__self())
		return VP_EINVAL;
	if (n < 0)
		return vp__fail(vp__self(), VP_EINVAL, call,
				"count %d is negative", n);
	if (n && !reqs)
		return vp__fail(vp__self(), VP_EINVAL, call,
				"the request array is NULL but its count is %d",
				n);
	return VP_OK;
}

/* ---- starting ---- */

/* Field by field: a request is started on every message, and the trace
 * record (written only when tracing) and the transport's part are large. */
static void req_init(struct vp_req *r, vp_comm *c, int is_send, int peer,
		     int tag, size_t n)
{
	r->is_send = is_send;
	r->done = 0;
	r->not_yet = 0;
	r->cancelled = 0;
	r->comm = c;
	r->peer = peer;
	r->peer_world = -1;
	r->tag = tag;
	r->n = n;
	r->pending = NULL;
}

/* A checksum of n bytes: 8 at a time, each word mixed in with a multiply
 * and a rotation (position-dependent, so swapped words differ). */
static uint64_t checksum(const void *buf, size_t n)
{
	const unsigned char *b = buf;
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
		h = h << 27 | h >> 37;
	}
	for (w = 0; i < n; i++)
		w = w << 8 | b[i];
	h = (h ^ w) * 0x94D049BB133111EBull;
	return h ^ h >> 31;
}

/* vp_isend and vp_issend: sync 1 lends the buffer until the receive has
 * taken the message (the rendezvous protocol, whatever the size). */
static int isend(vp_comm *c, int dst, int tag, const void *buf, size_t n,
		 vp_request *req, int sync, const char *call)
{
	struct vp__envelope env;
	struct vp__rank *me;
	struct vp_req *r;
	int rc, hops;

	if (!c)
		return vp__null_comm(c, call);
	if ((rc = vp__enter(c, call)) ||
	    (rc = vp__check_peer(c, dst, call, "destination")) ||
	    (rc = vp__check_tag(c, tag, 0, call)) ||
	    (rc = vp__check_buf(c, buf, n, call, "buffer")))
		return rc;
	me = c->me;
	if (!req)
		return vp__fail(me, VP_EINVAL, call,
				"the request pointer is NULL");
	if (!(r = req_new(me)))
		return vp__fail(me, VP_ENOMEM, call, "no memory for a request");
	req_init(r, c, 1, dst, tag, n);
	*req = handle_of(r);
	r->buf = NULL;
	if (me->world->check_buffers && n) {
		r->buf = buf;
		r->sum = checksum(buf, n);
	}
	if (dst == VP_PROC_NULL) {
		r->done = 1;
		return VP_OK;
	}
	r->peer_world = vp__to_world(c, dst);
	if (me->world->trace.on) /* the trace's calls check it too: once */
		vp__trace_begin(c, &r->op, VP__EV_SEND);
	hops = vp__p2p_post(c, r->peer_world, tag, buf, n, &env,
			    vp__p2p_sync_of(c, sync), &r->pending);
	if (hops < 0)
		return vp__fail(me, hops, call, "no memory for %zu bytes", n);
	/* no pending buffer: the transport copied it, the send is over
	 * (transport.h); vp_wait then goes straight to completing it */
	r->done = !r->pending;
	r->seq = env.seq;
	r->send_end = me->clock.send_done;
	me->clock.t = me->clock.send_cpu;
	if (me->world->trace.on)
		vp__trace_sent(c, &r->op, r->peer_world, n, hops, &env);
	r->event = me->clock.events.len;
	vp__clock_log(&me->clock, VP__EV_ISEND, r->peer_world, -1,
		      (uint32_t)hops, 0, n, 0);
	return VP_OK;
}

int vp_isend(vp_comm *c, int dst, int tag, const void *buf, size_t n,
	     vp_request *req)
{
	return isend(c, dst, tag, buf, n, req, 0, "vp_isend");
}

int vp_issend(vp_comm *c, int dst, int tag, const void *buf, size_t n,
	      vp_request *req)
{
	return isend(c, dst, tag, buf, n, req, 1, "vp_issend");
}

int vp_irecv(vp_comm *c, int src, int tag, void *buf, size_t n, vp_request *req)
{
	struct vp__rank *me;
	struct vp_req *r;
	int rc;

	if (!c)
		return vp__null_comm(c, "vp_irecv");
	if ((rc = vp__enter(c, "vp_irecv")) ||
	    (rc = vp__check_source(c, src, "vp_irecv")) ||
	    (rc = vp__check_tag(c, tag, 1, "vp_irecv")) ||
	    (rc = vp__check_buf(c, buf, n, "vp_irecv", "buffer")))
		return rc;
	me = c->me;
	if (!req)
		return vp__fail(me, VP_EINVAL, "vp_irecv",
				"the request pointer is NULL");
	if (!(r = req_new(me)))
		return vp__fail(me, VP_ENOMEM, "vp_irecv",
				"no memory for a request");
	req_init(r, c, 0, src, tag, n);
	*req = handle_of(r);
	if (src == VP_PROC_NULL) {
		r->done = 1;
		return VP_OK;
	}
	r->peer_world = src == VP_ANY_SOURCE ? src : vp__to_world(c, src);
	r->xr.ctx = vp__ctx(c);
	r->xr.src = r->peer_world;
	r->xr.tag = tag;
	r->xr.buf = buf;
	r->xr.n = n;
	r->xr.combine = NULL;
	r->expect_type = vp__recv_type(c);
	if (me->world->trace.on)
		vp__trace_begin(c, &r->op, VP__EV_RECV);
	if ((rc = vp__tx(me)->post_recv(me->tx, &r->xr)))
		return vp__fail(me, rc, "vp_irecv",
				"no memory to post the receive");
	return VP_OK;
}

/* ---- completing ---- */

static int is_done(struct vp_req *r)
{
	struct vp__rank *me = r->comm->me;

	if (!r->done)
		r->done = r->is_send ? vp__tx(me)->send_done(me->tx, r->pending)
				     : r->xr.done;
	return r->done;
}

/* A send is done: the clock and the trace take it, and it goes back to the
 * pool. */
static int complete_send(struct vp_req *r, vp_status *st, const char *call)
{
	vp_comm *c = r->comm;
	struct vp__rank *me = c->me;
	char peer[64];
	int rc = VP_OK;

	if (st)
		*st = (vp_status){ r->peer, r->tag, r->n, 0 };
	if (r->buf && checksum(r->buf, r->n) != r->sum) {
		rc = vp__fail(me, VP_EINVAL, call,
			      "the send buffer of vp_isend to %s, tag %d, %zu "
			      "bytes changed before the send completed "
			      "(VP_CHECK=buffers; MPI forbids modifying it "
			      "until then)",
			      vp__peer_name(c, r->peer_world, peer,
					    sizeof(peer)),
			      r->tag, r->n);
		if (r->pending)
			vp__tx(me)->complete_send(me->tx, r->pending,
						  r->peer_world);
		goto out;
	}
	if (r->pending &&
	    (rc = vp__tx(me)->complete_send(me->tx, r->pending, r->peer_world))) {
		rc = vp__fail(me, rc, call, "sending to %s: %s",
			      vp__peer_name(c, r->peer_world, peer, sizeof(peer)),
			      vp_strerror(rc));
		goto out;
	}
	if (r->send_end > me->clock.t)
		me->clock.t = r->send_end;
	vp__clock_send_done(&me->clock, r->event, r->peer_world, r->seq, r->n);
	if (me->world->trace.on)
		vp__trace_end(c, &r->op);
out:
	req_free(me, r);
	return rc;
}

/* A receive is done: the clock, the trace, the type check and the status
 * take it, and it goes back to the pool. */
static int complete_recv(struct vp_req *r, vp_status *st, const char *call)
{
	vp_comm *c = r->comm;
	struct vp__rank *me = c->me;
	struct vp__xrecv *x = &r->xr;
	char peer[64];
	double done;
	int rc, traced;

	if (x->rc) {
		if (st)
			*st = (vp_status){ VP_PROC_NULL, VP_ANY_TAG, 0, 0 };
		rc = vp__fail(me, x->rc, call, "receiving from %s: %s",
			      vp__peer_name(c, x->got_src, peer, sizeof(peer)),
			      vp_strerror(x->rc));
		goto out;
	}
	if (st)
		*st = (vp_status){ vp__from_world(c, x->got_src), x->got_tag,
				   x->len, 0 };
	traced = me->world->trace.on;
	if (traced)
		vp__trace_arrived(&me->trace, &x->env);
	done = vp__clock_recv(&me->clock, &me->world->model, &x->env, x->len);
	if (done > me->clock.t)
		me->clock.t = done;
	vp__clock_log(&me->clock, VP__EV_RECV, -1, x->got_src, 0, x->env.seq, 0,
		      x->len);
	if (traced) {
		vp__trace_received(c, &r->op, x->got_src, x->env.seq, x->len);
		vp__trace_end(c, &r->op);
	}
	if ((rc = vp__type_check(c, x->got_src, x->got_tag, r->expect_type,
				 &x->env, call)))
		goto out;
	if (x->len > x->n)
		rc = vp__fail(me, VP_ETRUNC, call,
			      "message of %zu bytes from %s does not fit the "
			      "%zu-byte buffer of vp_irecv (nothing written)",
			      x->len,
			      vp__peer_name(c, x->got_src, peer, sizeof(peer)),
			      x->n);
out:
	req_free(me, r);
	return rc;
}

/* The request is done: complete_send or complete_recv, or one with nothing
 * to take (VP_PROC_NULL, or a receive cancelled before anything came: no
 * clock, no message). */
static int complete(struct vp_req *r, vp_status *st, const char *call)
{
	if (r->peer != VP_PROC_NULL && !r->cancelled)
		return r->is_send ? complete_send(r, st, call)
				  : complete_recv(r, st, call);
	if (st)
		*st = r->cancelled ? (vp_status){ r->peer, r->tag, 0, 1 }
				   : (vp_status){ VP_PROC_NULL, VP_ANY_TAG, 0,
						  0 };
	if (r->cancelled)
		vp__trace_end(r->comm, &r->op);
	req_free(r->comm->me, r);
	return VP_OK;
}

/* What a request not done waits for, for the transport's block. */
static void xwait_of(const struct vp_req *r, struct vp__xwait *w)
{
	if (r->is_send)
		*w = (struct vp__xwait){ VP__XW_SEND, 0,    r->peer_world,
					 r->tag,      r->n, r->pending };
	else
		*w = (struct vp__xwait){ VP__XW_RECV, r->xr.ctx, r->xr.src,
					 r->tag,      r->n,      NULL };
}

#define ALL 1
#define ANY 0

/* Waits until all (or any) of the n requests are done; NULL entries are
 * skipped. */
static int wait_until(struct vp__rank *me, vp_request *reqs, int n, int all,
		      const char *call)
{
	struct vp__xwait one, *w = &one;
	int i, k, rc, pending;
	/* one receive not done yet: straight to the transport's block, which
	 * takes its message as a blocking receive would (or returns once
	 * something is ready); progress runs on the next turn */
	int skip = n == 1 && reqs[0] && !req_of(reqs[0])->is_send &&
		   !req_of(reqs[0])->done;

	for (;; skip = 0) {
		if (!skip && (rc = vp__tx(me)->progress(me->tx)))
			break;
		for (i = 0, pending = 0; i < n; i++)
			if (reqs[i] && !is_done(req_of(reqs[i])))
				pending++;
			else if (reqs[i] && !all)
				goto out;
		if (!pending)
			goto out;
		if (pending > 1 && w == &one &&
		    !(w = malloc((size_t)n * sizeof(*w)))) {
			rc = VP_ENOMEM;
			break;
		}
		for (i = 0, k = 0; i < n; i++)
			if (reqs[i] && !req_of(reqs[i])->done)
				xwait_of(req_of(reqs[i]), &w[k++]);
		if ((rc = vp__tx(me)->block(me->tx, w, k)))
			break;
	}
	if (w != &one)
		free(w);
	if (rc == VP_ENOMEM)
		return vp__fail(me, rc, call, "no memory to wait");
	return vp__fail(me, rc, call, "waiting for %d request%s: %s", n,
			n == 1 ? "" : "s", vp_strerror(rc));
out:
	if (w != &one)
		free(w);
	return VP_OK;
}

/* vp_wait on one receive: what wait_until does for it, without its
 * bookkeeping for n requests (the transport's block takes the message
 * as a blocking receive would, or returns once something is ready). */
static int wait_recv(struct vp__rank *me, struct vp_req *r)
{
	struct vp__xwait w;
	int rc = VP_OK;

	while (!r->xr.done) {
		xwait_of(r, &w);
		if ((rc = vp__tx(me)->block(me->tx, &w, 1)) ||
		    (!r->xr.done && (rc = vp__tx(me)->progress(me->tx))))
			break;
	}
	if (!rc) {
		r->done = 1;
		return VP_OK;
	}
	if (rc == VP_ENOMEM)
		return vp__fail(me, rc, "vp_wait", "no memory to wait");
	return vp__fail(me, rc, "vp_wait", "waiting for 1 request: %s",
			vp_strerror(rc));
}

int vp_wait(vp_request *req, vp_status *st)
{
	struct vp_req *r;
	int rc;

	if (!req)
		return vp__self() ? vp__fail(vp__self(), VP_EINVAL, "vp_wait",
					     "the request pointer is NULL")
				  : VP_EINVAL;
	if (!*req) {
		if (st)
			*st = (vp_status){ VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };
		return VP_OK;
	}
	if ((rc = req_check(*req, -1, "vp_wait")))
		return rc;
	r = req_of(*req);
	if (!r->done && !r->is_send)
		rc = wait_recv(r->comm->me, r);
	else if (!r->done)
		rc = wait_until(r->comm->me, req, 1, ALL, "vp_wait");
	if (rc)
		return rc;
	*req = VP_REQUEST_NULL;
	return complete(r, st, "vp_wait");
}

/* A seeded run's test may say "not yet" of a completed operation a few
 * times (MPI 4.0, sec. 3.7.3: a test reports completion eventually, not
 * at once); the schedule draws when. */
static int hide_done(struct vp__rank *me, struct vp_req *r)
{
	struct vp__sched *s = vp__world_sched(me->world);

	return s && vp__sched_not_yet(s, &r->not_yet);
}

int vp_test(vp_request *req, int *done, vp_status *st)
{
	struct vp__rank *me;
	struct vp_req *r;
	int rc;

	if (!req || !done)
		return vp__self() ? vp__fail(vp__self(), VP_EINVAL, "vp_test",
					     "%s pointer is NULL",
					     req ? "the done" : "the request")
				  : VP_EINVAL;
	if (!*req) {
		*done = 1;
		if (st)
			*st = (vp_status){ VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };
		return VP_OK;
	}
	if ((rc = req_check(*req, -1, "vp_test")))
		return rc;
	r = req_of(*req);
	me = r->comm->me;
	if ((rc = vp__tx(me)->progress(me->tx)))
		return vp__fail(me, rc, "vp_test", "no memory");
	*done = is_done(r) && !hide_done(me, r);
	if (!*done) {
		if (vp__tx(me)->idle)
			vp__tx(me)->idle(me->tx);
		return VP_OK;
	}
	*req = VP_REQUEST_NULL;
	return complete(r, st, "vp_test");
}

/* MPI standard, sec. 3.8.4: a receive is cancelled if the transport can
 * take it back before a message matched it; cancel_recv also finishes a
 * receive that was being filled, which then completes as usual. */
int vp_cancel(vp_request *req)
{
	struct vp__rank *me;
	struct vp_req *r;
	int rc;

	if (!req)
		return vp__self() ? vp__fail(vp__self(), VP_EINVAL, "vp_cancel",
					     "the request pointer is NULL")
				  : VP_EINVAL;
	if (!*req)
		return VP_OK; /* VP_REQUEST_NULL: nothing to cancel */
	if ((rc = req_check(*req, -1, "vp_cancel")))
		return rc;
	r = req_of(*req);
	me = r->comm->me;
	if (r->is_send || r->done || r->peer == VP_PROC_NULL)
		return VP_OK;
	/* what has arrived is matched first (a transport may leave a posted
	 * receive unmatched until its next progress): a receive whose
	 * message came is not cancelled */
	if ((rc = vp__tx(me)->progress(me->tx)))
		return vp__fail(me, rc, "vp_cancel", "matching what arrived: %s",
				vp_strerror(rc));
	vp__tx(me)->cancel_recv(me->tx, &r->xr);
	if (!r->xr.done) {
		r->cancelled = 1;
		r->done = 1;
	}
	return VP_OK;
}

/* The error for an array that names one request at i and at a later j. */
static int repeated(struct vp_req *r, int i, int j, const char *call)
{
	char one[128];

	return vp__fail(r->comm->me, VP_EINVAL, call,
			"requests %d and %d are the same request (%s): an "
			"array may name a request once",
			i, j, req_name(r, one, sizeof(one)));
}

/* Checks every non-null request of an array, and that none comes twice:
 * each is marked with this call's stamp; a request found marked already
 * is looked for among those before it (a mark left by a call 2^32 calls
 * ago is not a repeat). */
static int check_all(int n, vp_request *reqs, const char *call)
{
	struct vp__req_pool *p;
	struct vp_req *r;
	int i, j, rc;

	if ((rc = check_array(n, reqs, call)))
		return rc;
	for (i = 0; i < n; i++)
		if (reqs[i] && (rc = req_check(reqs[i], i, call)))
			return rc;
	if (n < 2)
		return VP_OK;
	p = &vp__self()->reqs;
	if (!++p->stamp)
		p->stamp = 1;
	for (i = 0; i < n; i++) {
		if (!reqs[i])
			continue;
		r = req_of(reqs[i]);
		if (r->mark == p->stamp)
			for (j = 0; j < i; j++)
				if (reqs[j] && req_of(reqs[j]) == r)
					return repeated(r, j, i, call);
		r->mark = p->stamp;
	}
	return VP_OK;
}

/* Completes every request of the array, in array order. */
static int complete_all(int n, vp_request *reqs, vp_status *sts,
			const char *call)
{
	int i, rc, first = VP_OK;

	for (i = 0; i < n; i++) {
		struct vp_req *r = reqs[i] ? req_of(reqs[i]) : NULL;
		reqs[i] = VP_REQUEST_NULL;
		if (!r) {
			if (sts)
				sts[i] =
				    (vp_status){ VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };
			continue;
		}
		rc = complete(r, sts ? &sts[i] : NULL, call);
		if (rc && !first)
			first = rc;
	}
	return first;
}

int vp_waitall(int n, vp_request reqs[], vp_status sts[])
{
	int rc;

	if ((rc = check_all(n, reqs, "vp_waitall")) ||
	    (n && (rc = wait_until(vp__self(), reqs, n, ALL, "vp_waitall"))))
		return rc;
	return complete_all(n, reqs, sts, "vp_waitall");
}

int vp_testall(int n, vp_request reqs[], int *done, vp_status sts[])
{
	int i, rc;

	if ((rc = check_all(n, reqs, "vp_testall")))
		return rc;
	if (!done)
		return vp__fail(vp__self(), VP_EINVAL, "vp_testall",
				"the done pointer is NULL");
	if ((rc = vp__tx(vp__self())->progress(vp__self()->tx)))
		return vp__fail(vp__self(), rc, "vp_testall", "no memory");
	*done = 0;
	for (i = 0; i < n; i++)
		if (reqs[i] && !is_done(req_of(reqs[i]))) {
			if (vp__tx(vp__self())->idle)
				vp__tx(vp__self())->idle(vp__self()->tx);
			return VP_OK;
		}
	*done = 1;
	return complete_all(n, reqs, sts, "vp_testall");
}

/* The index of a done request of reqs (one is): the first, or in a
 * seeded run one the schedule draws (MPI 4.0, sec. 3.7.5, leaves the
 * choice open), hashed as the wildcard's match. */
static int any_done(struct vp__rank *me, vp_request *reqs, int n)
{
	struct vp__sched *s = vp__world_sched(me->world);
	int i, k, ndone = 0;

	for (i = 0; i < n; i++)
		ndone += reqs[i] && req_of(reqs[i])->done;
	k = s ? (int)vp__sched_draw(s, (uint64_t)ndone, VP__CHOICE_ANY) : 0;
	for (i = 0; i < n; i++)
		if (reqs[i] && req_of(reqs[i])->done && k-- == 0)
			break;
	if (s)
		vp__sched_note_match(s, me->world_rank, -1 - i);
	return i;
}

int vp_waitany(int n, vp_request reqs[], int *index, vp_status *st)
{
	struct vp_req *r;
	int i, rc;

	if ((rc = check_all(n, reqs, "vp_waitany")))
		return rc;
	if (!index)
		return vp__fail(vp__self(), VP_EINVAL, "vp_waitany",
				"the index pointer is NULL");
	*index = -1;
	for (i = 0; i < n && !reqs[i]; i++)
		;
	if (i == n) {
		if (st)
			*st = (vp_status){ VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };
		return VP_OK;
	}
	if ((rc = wait_until(vp__self(), reqs, n, ANY, "vp_waitany")))
		return rc;
	i = any_done(vp__self(), reqs, n);
	r = req_of(reqs[i]);
	reqs[i] = VP_REQUEST_NULL;
	*index = i;
	return complete(r, st, "vp_waitany");
}
