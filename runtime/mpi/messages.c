/*
 * messages.c - the MPI transport's messages (mpi_tx.h): sends (whole, or
 * a header and a payload apart), synchronous sends, matching in MPI's
 * order (a message goes to the oldest posted receive that matches it,
 * else waits in arrival order), receives, probes. How messages come in
 * is arrivals.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_tx.h"

/* ---- sends ---- */

int mpt_isend(struct mpt *t, MPI_Comm comm, int dst, int tag, char *buf,
	      size_t n)
{
	struct mpt_send *s;

	if (t->nsends == t->cap_sends) {
		int cap = t->cap_sends ? 2 * t->cap_sends : 16;
		struct mpt_send *a =
		    realloc(t->sends, (size_t)cap * sizeof(*a));
		if (!a)
			goto fail;
		t->sends = a;
		t->cap_sends = cap;
	}
	s = &t->sends[t->nsends];
	if (MPI_Isend(buf, (int)n, MPI_BYTE, dst, tag, comm, &s->req) !=
	    MPI_SUCCESS)
		goto fail;
	s->buf = buf;
	t->nsends++;
	return VP_OK;
fail:
	free(buf);
	return VP_ENOMEM;
}

/* A header, and the payload too when it fits (n bytes, else NULL, 0), as
 * one whole message on the data communicator. MPI_Send returns as soon as
 * MPI has copied it out (a whole message is under MPI's eager limit), so
 * one packing buffer serves every send and no request needs reaping. */
static int send_whole(struct mpt *t, int dst, const struct mpt_header *h,
		      const void *payload, size_t n)
{
	memcpy(t->packing, h, sizeof(*h));
	if (n)
		memcpy(t->packing + sizeof(*h), payload, n);
	if (MPI_Send(t->packing, (int)(sizeof(*h) + n), MPI_BYTE, dst,
		     MPT_TAG_WHOLE, t->data) != MPI_SUCCESS)
		return VP_ENOMEM;
	t->count++; /* Safra: one more message in flight */
	mpt_moved(t);
	return VP_OK;
}

int mpt_send_ack(struct mpt *t, int dst, uint32_t id)
{
	struct mpt_header ack = { .kind = MPT_ACK, .sync_id = id };

	return send_whole(t, dst, &ack, NULL, 0);
}

int mpt_send_wake(struct mpt *t, int dst)
{
	struct mpt_header wake = { .kind = MPT_WAKE };

	return send_whole(t, dst, &wake, NULL, 0);
}

void mpt_sends_reap(struct mpt *t, int wait)
{
	int i, k = 0, done;

	for (i = 0; i < t->nsends; i++) {
		struct mpt_send *s = &t->sends[i];

		if (wait)
			MPI_Wait(&s->req, MPI_STATUS_IGNORE);
		else
			MPI_Test(&s->req, &done, MPI_STATUS_IGNORE);
		if (s->req != MPI_REQUEST_NULL)
			t->sends[k++] = *s;
		else
			free(s->buf);
	}
	t->nsends = k;
}

static int pend_done(const struct mpt_pend *p)
{
	return (!p->sync || p->acked) && p->preq == MPI_REQUEST_NULL;
}

int mpt_pends_reap(struct mpt *t)
{
	struct mpt_pend *p;
	int n = 0, flag;

	for (p = t->pends; p; p = p->next)
		if (p->preq != MPI_REQUEST_NULL) {
			MPI_Test(&p->preq, &flag, MPI_STATUS_IGNORE);
			if (flag) {
				t->transfers--;
				n++;
			}
		}
	return n;
}

int mpt_post_send(void *me, int ctx, int dst, int tag, const void *buf,
		  size_t n, const struct vp__envelope *env, int sync,
		  void **pending)
{
	struct mpt *t = me;
	struct mpt_header h = {
		sync ? MPT_SYNC : MPT_DATA, ctx, tag, 0, n, *env
	};
	int apart = n > MPT_WHOLE_MAX, rc;
	struct mpt_pend *p;

	*pending = NULL;
	if (n > INT_MAX)
		return VP_ENOMEM; /* one MPI message: counts are ints */
	if (!sync && !apart)
		return send_whole(t, dst, &h, buf, n);
	if (!(p = calloc(1, sizeof(*p))))
		return VP_ENOMEM;
	p->dst = dst;
	p->tag = tag;
	p->bytes = n;
	p->sync = sync;
	p->preq = MPI_REQUEST_NULL;
	if (sync)
		p->id = h.sync_id = ++t->next_sync;
	if ((rc = send_whole(t, dst, &h, apart ? NULL : buf, apart ? 0 : n))) {
		free(p);
		return rc;
	}
	/* the payload goes from the sender's buffer, lent until MPI is
	 * done with it (MPI's own rendezvous or single copy) */
	if (apart) {
		if (MPI_Isend((void *)(uintptr_t)buf, (int)n, MPI_BYTE, dst,
			      MPT_TAG_PAYLOAD, t->data,
			      &p->preq) != MPI_SUCCESS) {
			free(p); /* its header went: the receiver waits on */
			return VP_ENOMEM;
		}
		t->transfers++;
	}
	p->next = t->pends;
	t->pends = p;
	*pending = p;
	return VP_OK;
}

static void pend_forget(struct mpt *t, struct mpt_pend *p)
{
	struct mpt_pend **pp;

	for (pp = &t->pends; *pp && *pp != p; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = p->next;
	free(p);
}

static int pend_ready(struct mpt *t, void *arg)
{
	(void)t;
	return pend_done(arg);
}

int mpt_complete_send(void *me, void *pending, int dst)
{
	struct mpt *t = me;
	struct mpt_pend *p = pending;
	struct mpt_waiting what = { "send", dst, 0, 0, NULL, 0, NULL };
	int rc;

	if (!p)
		return VP_OK;
	what.tag = p->tag;
	what.bytes = p->bytes;
	rc = mpt_wait(t, pend_ready, p, &what);
	/* A failing run still lets a lent payload go out: its receiver
	 * receives every payload it is sent (taken by a receive, or drained
	 * when it idles or its rank returns), so this ends, and the buffer
	 * must not be given back while MPI reads it. */
	while (p->preq != MPI_REQUEST_NULL)
		mpt_idle(t);
	pend_forget(t, p); /* a late acknowledgement finds no one: ignored */
	return rc;
}

int mpt_send_done(void *me, void *pending)
{
	struct mpt *t = me;

	mpt_pull(t);
	return !pending || pend_done(pending);
}

/* ---- matching ---- */

int mpt_matches(int ctx, int src, int tag, const struct mpt_msg *m)
{
	return m->h.ctx == ctx && (src == VP_ANY_SOURCE || src == m->src) &&
	       (tag == VP_ANY_TAG || tag == m->h.tag);
}

void mpt_matched(struct mpt *t, struct vp__xrecv *r, const struct mpt_msg *m)
{
	r->len = m->h.len;
	r->env = m->h.env;
	r->got_src = m->src;
	r->got_tag = m->h.tag;
	r->rc = VP_OK;
	if (m->h.kind == MPT_SYNC && mpt_send_ack(t, m->src, m->h.sync_id))
		r->rc = VP_ENOMEM;
}

void mpt_acknowledged(struct mpt *t, uint32_t id)
{
	struct mpt_pend *p;

	for (p = t->pends; p; p = p->next)
		if (p->sync && p->id == id) {
			p->acked = 1;
			return;
		}
}

/* The receive r takes the unexpected message m: its payload is copied
 * (when it fits; a payload received apart once it is in) and m is freed,
 * or an unclaimed payload is received straight into r's buffer. */
static void take(struct mpt *t, struct vp__xrecv *r, struct mpt_msg *m)
{
	const char *payload = m->raw ? m->raw + sizeof(m->h) : m->payload;

	mpt_matched(t, r, m);
	if (mpt_unclaimed(m)) {
		r->done = 0;
		mpt_claim(t, r, m);
		return;
	}
	if (!m->raw)
		mpt_apart_finish(t, m);
	mpt_deliver(r, payload, m->h.len);
	if (m->raw)
		mpt_buf_put(t, m->raw);
	free(m->payload);
	r->done = 1;
	mpt_msg_put(t, m);
}

/* ---- receives ---- */

int mpt_post_recv(void *me, struct vp__xrecv *r)
{
	struct mpt *t = me;
	struct mpt_msg **pp, *m;

	r->done = 0;
	r->next = NULL;
	/* No pull first: whatever is still in the slots arrived after all
	 * that waits unexpected, and the next pull matches it to the oldest
	 * matching posted receive, this one included. What waits unexpected
	 * matched none of the receives posted before this one: the oldest
	 * match is this receive's. */
	for (pp = &t->unexp; (m = *pp); pp = &m->next)
		if (mpt_matches(r->ctx, r->src, r->tag, m)) {
			/* payloads of m's sender ahead of it come first (while
			 * m is still in the queue to say where to stop) */
			if (mpt_unclaimed(m))
				mpt_drain_ahead(t, m);
			*pp = m->next;
			if (!*pp)
				t->unexp_tail = pp;
			take(t, r, m);
			return VP_OK;
		}
	*t->posted_tail = r;
	t->posted_tail = &r->next;
	return VP_OK;
}

void mpt_cancel_recv(void *me, struct vp__xrecv *r)
{
	struct mpt *t = me;
	struct vp__xrecv **pp;

	for (pp = &t->posted; *pp && *pp != r; pp = &(*pp)->next)
		;
	if (!*pp) { /* matched: its payload may be on its way */
		mpt_apart_withdraw(t, r);
		return;
	}
	*pp = r->next;
	if (!*pp)
		t->posted_tail = pp;
}

int mpt_progress(void *me)
{
	struct mpt *t = me;

	mpt_pull(t);
	t->fresh = 0;
	return VP_OK;
}

static int recv_done(struct mpt *t, void *arg)
{
	(void)t;
	return ((struct vp__xrecv *)arg)->done;
}

/* A blocking receive (own, not posted yet) or the one lent already. */
static int receive(struct mpt *t, struct vp__xrecv *own, size_t *len,
		   struct vp__envelope *env, int *got_src, int *got_tag)
{
	struct vp__xrecv *r = own;
	struct mpt_waiting what = { "recv", own->src, own->tag, own->n, NULL,
				    0, NULL };
	int rc;

	if (t->lent_on) { /* posted already by mpt_lend_recv */
		t->lent_on = 0;
		r = &t->lent;
	} else {
		mpt_post_recv(t, r);
	}
	if (!r->done && (rc = mpt_wait(t, recv_done, r, &what))) {
		mpt_cancel_recv(t, r);
		return rc;
	}
	*len = r->len;
	*env = r->env;
	*got_src = r->got_src;
	*got_tag = r->got_tag;
	return r->rc;
}

int mpt_recv(void *me, int ctx, int src, int tag, void *buf, size_t n,
	     size_t *len, struct vp__envelope *env, int *got_src, int *got_tag)
{
	struct vp__xrecv own = {
		.ctx = ctx, .src = src, .tag = tag, .buf = buf, .n = n
	};

	return receive(me, &own, len, env, got_src, got_tag);
}

int mpt_recv_combine(void *me, int ctx, int src, int tag,
		     const struct vp__xcombine *x, size_t n, size_t *len,
		     struct vp__envelope *env, int *got_src, int *got_tag)
{
	struct mpt *t = me;
	struct vp__xrecv own = { .ctx = ctx, .src = src, .tag = tag, .n = n,
				 .combine = x };

	if (!t->lent_on)
		own.buf = mpt_landing(t, x, n);
	return receive(t, &own, len, env, got_src, got_tag);
}

/* vp_sendrecv's receive, posted before its send leaves: a partner that
 * exchanges with us at the same time then finds it posted, and a payload
 * sent apart goes straight into its buffer instead of a buffer of its own
 * (one copy instead of two). The recv (or, for a reduction's, x, the
 * recv_combine) that follows takes it over. */
void mpt_lend_recv(void *me, int ctx, int src, int tag, void *buf, size_t n,
		   const struct vp__xcombine *x)
{
	struct mpt *t = me;

	t->lent = (struct vp__xrecv){ .ctx = ctx,
				      .src = src,
				      .tag = tag,
				      .buf = x ? mpt_landing(t, x, n) : buf,
				      .n = n,
				      .combine = x };
	mpt_post_recv(t, &t->lent);
	t->lent_on = 1;
}

/* The send failed, so the run does: a message the lent receive took
 * already is dropped with it. */
void mpt_unlend_recv(void *me, int ctx, int src)
{
	struct mpt *t = me;

	(void)ctx;
	(void)src;
	if (t->lent_on)
		mpt_cancel_recv(t, &t->lent);
	t->lent_on = 0;
}

/* Whatever arrives may complete one of the things waited for: the caller
 * looks again after each turn that pulled a message. */
static int pulled(struct mpt *t, void *arg)
{
	(void)arg;
	return t->pulled_now > 0;
}

int mpt_block(void *me, const struct vp__xwait *w, int n)
{
	struct mpt *t = me;
	struct mpt_waiting what = { "set", VP_ANY_SOURCE, VP_ANY_TAG, 0, w, n, NULL };
	int i;

	/* Something arrived after the caller's progress (a send_done pulls
	 * too): it may have completed what the caller waits for. */
	if (t->fresh) {
		t->fresh = 0;
		return VP_OK;
	}
	for (i = 0; i < n; i++) /* a send may be done already */
		if (w[i].kind == VP__XW_SEND &&
		    (!w[i].pending || pend_done(w[i].pending)))
			return VP_OK;
	if (n == 1) {
		what.kind = w[0].kind == VP__XW_SEND    ? "send"
			    : w[0].kind == VP__XW_PROBE ? "probe"
							: "recv";
		what.peer = w[0].peer;
		what.tag = w[0].tag;
		what.bytes = w[0].bytes;
	}
	return mpt_wait(t, pulled, NULL, &what);
}

static struct mpt_msg *find(struct mpt *t, int ctx, int src, int tag)
{
	struct mpt_msg *m;

	for (m = t->unexp; m; m = m->next)
		if (mpt_matches(ctx, src, tag, m))
			return m;
	return NULL;
}

struct probe_arg {
	int ctx, src, tag;
	struct mpt_msg *m;
};

static int probe_found(struct mpt *t, void *arg)
{
	struct probe_arg *a = arg;

	return (a->m = find(t, a->ctx, a->src, a->tag)) != NULL;
}

int mpt_probe(void *me, int ctx, int src, int tag, int blocking, int *found,
	      struct vp__xprobe *out)
{
	struct mpt *t = me;
	struct probe_arg a = { ctx, src, tag, NULL };
	struct mpt_waiting what = { "probe", src, tag, 0, NULL, 0, NULL };
	int rc;

	mpt_pull(t);
	*found = probe_found(t, &a);
	if (!*found && blocking) {
		if ((rc = mpt_wait(t, probe_found, &a, &what)))
			return rc;
		*found = 1;
	}
	if (*found)
		*out = (struct vp__xprobe){ a.m->src, a.m->h.tag, a.m->h.len,
					    a.m->h.env };
	return VP_OK;
}

void mpt_idle(void *me)
{
	struct mpt *t = me;

	if (t->unclaimed && ++t->idle_calls % DRAIN_AFTER == 0)
		mpt_drain(t); /* a test loop must not hold a sender up */
	mpt_turn(t);
	if (t->crowded)
		sched_yield();
}

void mpt_messages_free(struct mpt *t)
{
	struct mpt_msg *m, *next;
	struct mpt_pend *p, *pnext;

	for (m = t->unexp; m; m = next) {
		next = m->next;
		if (m->raw)
			mpt_buf_put(t, m->raw);
		free(m->payload);
		free(m);
	}
	t->unexp = NULL;
	t->unexp_tail = &t->unexp;
	for (p = t->pends; p; p = pnext) {
		pnext = p->next;
		free(p);
	}
	t->pends = NULL;
	free(t->sends);
	t->sends = NULL;
	t->nsends = t->cap_sends = 0;
	mpt_pools_free(t);
	mpt_scratch_free(t);
}
