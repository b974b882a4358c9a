/*
 * receive.c - matching messages to receives in the threads transport, by
 * MPI's rules (MPI standard, sec. 3.5, "Semantics of point-to-point
 * communication").
 *
 * Three places a message can be:
 *   in its mailbox  sent, not yet taken by the receiver (mailbox.h);
 *   aside           taken while no receive wanted it (MPI's "unexpected
 *                   messages"): kept in its mailbox's list in order, each
 *                   stamped with the order the receiver saw it (seen);
 *   delivered       copied into a receive's buffer.
 * And three ways to receive:
 *   direct   a blocking receive from a named source while the rank has no
 *            posted receives: it searches the aside list, then takes the
 *            mailbox's messages in order, setting aside other tags. This is
 *            the fast path: a message first in line costs what an untagged
 *            receive always cost.
 *   posted   vp_irecv, any receive from VP_ANY_SOURCE, and a blocking
 *            receive made while receives are posted: it searches the aside
 *            lists; if nothing matches it joins the rank's queue of posted
 *            receives, in post order. Progress then takes every message
 *            that has arrived in the mailboxes the posted receives look at
 *            and gives each to the oldest posted receive that matches it,
 *            or sets it aside.
 *   probe    drains the same way, then reports the first match aside.
 * Invariant: nothing aside matches a posted receive (a receive searches
 * the aside lists before it is queued, and progress offers every message to
 * the queue before setting it aside). Hence MPI's two rules hold: a message
 * goes to the oldest posted receive that matches it, and messages of one
 * (sender, tag, communicator) are received in the order sent.
 *
 * VP_ANY_SOURCE looks at every mailbox of the context whose destination is
 * this rank (a list rebuilt when the rank's inbox changes); among messages
 * set aside it takes the one seen first. Which sender's message a wildcard
 * gets when several have arrived follows the real interleaving.
 *
 * Blocking for several things (a waitall, a wildcard, a probe): the rank
 * publishes a watch set (struct thr_watch) and parks in THR_WAIT_SET, which
 * any sender to it may ring. The deadlock verifier reads the watch set:
 * the rank is ready if a watched mailbox holds a message, its inbox got a
 * new mailbox, or a watched rendezvous buffer was taken. Progress before
 * blocking empties the watched mailboxes, so "ready" is exact.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../schedule.h"
#include "threads.h"

static int tag_matches(int want, int tag)
{
	return want == VP_ANY_TAG || want == tag;
}

static int recv_matches(const struct vp__xrecv *r, int ctx, int src, int tag)
{
	return r->ctx == ctx && (r->src == VP_ANY_SOURCE || r->src == src) &&
	       tag_matches(r->tag, tag);
}

/* ---- messages set aside ---- */

static void aside_add(struct thr_rank *me, struct vp__mailbox *mb,
		      struct vp__msg *m)
{
	m->seen = me->seen++;
	m->unx_next = NULL;
	if (mb->unx_tail)
		mb->unx_tail->unx_next = m;
	else
		mb->unx_head = m;
	mb->unx_tail = m;
	mb->unx_count++;
}

static struct vp__msg *aside_first(const struct vp__mailbox *mb, int tag)
{
	struct vp__msg *m;

	for (m = mb->unx_head; m; m = m->unx_next)
		if (tag_matches(tag, m->tag))
			return m;
	return NULL;
}

static void aside_unlink(struct vp__mailbox *mb, struct vp__msg *m)
{
	struct vp__msg **pp, *prev = NULL;

	for (pp = &mb->unx_head; *pp != m; prev = *pp, pp = &(*pp)->unx_next)
		;
	*pp = m->unx_next;
	if (mb->unx_tail == m)
		mb->unx_tail = prev;
	mb->unx_count--;
}

/* A fastbox message no receive wants yet: copied into a header of the
 * receiver's own pool, so that its slot goes back to the sender. */
static int aside_slot(struct thr_rank *me, struct vp__mailbox *mb,
		      struct vp__fb_slot *s)
{
	struct vp__msg *m = vp__msg_alloc(me, s->len);

	if (!m)
		return VP_ENOMEM;
	m->len = s->len;
	m->src_world = mb->src;
	m->tag = s->tag;
	m->env = s->env;
	m->rdv_buf = NULL;
	if (s->len)
		vp__fastbox_copy_out(m->payload,
				     vp__fastbox_payload_in(mb, s), s->len);
	vp__fastbox_release(mb, s);
	aside_add(me, mb, m);
	return VP_OK;
}

/* The mailboxes of context ctx whose destination is me, for
 * VP_ANY_SOURCE; NULL when there is no memory. */
static struct vp__mailbox **any_list(struct thr_rank *me, int ctx, int *n)
{
	struct thr_inbox *in = &me->inbox;
	unsigned gen = atomic_load(&in->gen);
	struct vp__mailbox *mb;
	size_t b;

	if (me->any.mbs && me->any.ctx == ctx && me->any.gen == gen) {
		*n = me->any.n;
		return me->any.mbs;
	}
	pthread_mutex_lock(&in->lock);
	if (me->any.cap < (int)in->count + 1) {
		int cap = (int)in->count + 16;
		void *a = realloc(me->any.mbs, (size_t)cap * sizeof(mb));
		if (!a) {
			pthread_mutex_unlock(&in->lock);
			return NULL;
		}
		me->any.mbs = a;
		me->any.cap = cap;
	}
	me->any.n = 0;
	for (b = 0; b < in->nbuckets; b++)
		for (mb = in->buckets[b]; mb; mb = mb->next)
			if (mb->ctx == ctx)
				me->any.mbs[me->any.n++] = mb;
	me->any.ctx = ctx;
	me->any.gen = atomic_load(&in->gen);
	pthread_mutex_unlock(&in->lock);
	*n = me->any.n;
	return me->any.mbs;
}

/* The first message aside matching (ctx, src, tag), the one seen first for
 * VP_ANY_SOURCE, and its mailbox in *at; NULL when none. VP_ENOMEM in *rc
 * when a list could not be made. */
static struct vp__msg *aside_find(struct thr_rank *me, int ctx, int src,
				  int tag, struct vp__mailbox **at, int *rc)
{
	struct vp__mailbox **list, *mb;
	struct vp__msg *m, *best = NULL;
	int i, n;

	*rc = VP_OK;
	if (src >= 0) {
		if (!(mb = vp__mailbox_get(me, ctx, src, me->world_rank))) {
			*rc = VP_ENOMEM;
			return NULL;
		}
		*at = mb;
		return mb->unx_head ? aside_first(mb, tag) : NULL;
	}
	if (!(list = any_list(me, ctx, &n))) {
		*rc = VP_ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (list[i]->unx_head && (m = aside_first(list[i], tag)) &&
		    (!best || m->seen < best->seen)) {
			best = m;
			*at = list[i];
		}
	return best;
}

/* ---- delivery ---- */

/* The payload of len bytes at data goes to r: copied into its buffer, or
 * combined into its result (a reduction's receive: only a message of its
 * exact length). Nothing is written when the message is longer than the
 * buffer. */
static inline void put(const struct vp__xrecv *r, const void *data,
		       size_t len)
{
	if (r->combine) {
		if (len == r->n && len)
			r->combine->fn(r->combine, data);
	} else if (len <= r->n && len) {
		memcpy(r->buf, data, len);
	}
}

/* Copies out a queued message and gives its header back (or, for a
 * rendezvous, copies from the sender's buffer and releases the sender). */
static int deliver(struct thr_rank *me, struct vp__msg *m, int src,
		   const struct vp__xrecv *r)
{
	int expected = VP__RDV_POSTED;

	if (!m->rdv_buf) {
		put(r, m->payload, m->len);
		vp__msg_release(m);
		return VP_OK;
	}
	/* the copy or combine may be shared with the sender (rdv_copy.c) */
	vp__rdv_share(m, r);
	if (!atomic_compare_exchange_strong(&m->rdv_state, &expected,
					    VP__RDV_CLAIMED)) {
		/* The sender withdrew it: the run is aborting. */
		vp__msg_release(m);
		return VP_EABORT;
	}
	/* a parked sender's wake-up overlaps the copy (wait.c) */
	thr_wake_for_copy(me->tw, src, me->world_rank);
	/* a reduction combines straight from the sender's buffer */
	if (m->rdv_dst)
		vp__rdv_copy_front(m);
	else
		put(r, m->rdv_buf, m->len);
	/* After DONE the sender may reuse the header: read nothing from it
	 * past this store. */
	atomic_store(&m->rdv_state, VP__RDV_DONE);
	thr_wake(me->tw, src, me->world_rank);
	return VP_OK;
}

/* A seeded run hashes which sender each wildcard receive took. */
static void note_any(struct thr_rank *me, const struct vp__xrecv *r)
{
	if (r->src < 0 && me->tw->sched)
		vp__sched_note_match(me->tw->sched, me->world_rank,
				     r->got_src);
}

static void fill_from_msg(struct thr_rank *me, struct vp__xrecv *r,
			  struct vp__msg *m, int src)
{
	r->len = m->len;
	r->got_src = src;
	note_any(me, r);
	r->got_tag = m->tag;
	r->env = m->env;
	r->rc = deliver(me, m, src, r);
	r->done = 1;
}

static void fill_from_slot(struct vp__xrecv *r, struct vp__mailbox *mb,
			   struct vp__fb_slot *s)
{
	r->len = s->len;
	r->got_src = mb->src;
	r->got_tag = s->tag;
	r->env = s->env;
	if (r->combine || r->len > r->n)
		put(r, vp__fastbox_payload_in(mb, s), r->len);
	else
		vp__fastbox_copy_out(r->buf, vp__fastbox_payload_in(mb, s),
				     r->len);
	vp__fastbox_release(mb, s);
	r->rc = VP_OK;
	r->done = 1;
}

/* ---- lent buffers (direct.c) ---- */

/* Whether r's buffer may be lent to a sender: larger than a fastbox
 * slot's own payload (smaller messages go through the fastbox anyway).
 * A medium buffer (VP__FB_BYTES < n <= VP__FB_MEDIUM, which the fastbox's
 * extension could carry too) is lent only to a one-way message: not for
 * an exchange's receive, nor a reduction's: one way, a loan saves the
 * receiver copying the data out of lines the other CPU wrote; in an
 * exchange, where both ends send and receive at once, the fastbox is the
 * faster (docs/performance.md, "Measurements behind the code").
 * Senders fill
 * loans only with messages up to eager_max (transport.c: a longer one goes
 * by rendezvous and the receiver pulls it, writing its own lines), so a
 * reduction's result, whose message is exactly r->n bytes, is not lent
 * above that: a long result is combined faster by its receiver from the
 * partner's buffer; up to eager_max the loan saves the eager copy. */
static int lendable(const struct thr_rank *me, const struct vp__xrecv *r)
{
	if (r->n <= VP__FB_MEDIUM)
		return r->n > VP__FB_BYTES && !r->combine && r != me->exch_recv;
	return !r->combine || r->n <= me->tw->eager_max;
}

/* Lends r's buffer for the next message of mb. */
static void lend(struct vp__mailbox *mb, struct vp__xrecv *r)
{
	vp__direct_lend(mb, r->buf, r->n, r->tag, r->combine);
	mb->dc_owner = r;
}

/* The receiver takes a message of mb another way: the loan, if any, comes
 * back. That cannot fail: the message taken is the one the loan was for,
 * or a later one, so no sender can claim it any more (mailbox.h). */
static void lend_end(struct vp__mailbox *mb)
{
	if (!mb->dc_owner)
		return;
	if (!vp__direct_withdraw(mb))
		abort();
	mb->dc_owner = NULL;
}

/* The message its sender copied into the lent buffer: completes the
 * receive that lent it. */
static struct vp__xrecv *fill_direct(struct vp__mailbox *mb)
{
	struct vp__xrecv *r = mb->dc_owner;

	mb->dc_owner = NULL;
	r->len = mb->dc_len;
	r->got_src = mb->src;
	r->got_tag = mb->dc_got_tag;
	r->env = mb->dc_env;
	vp__direct_release(mb);
	r->rc = VP_OK;
	r->done = 1;
	return r;
}

/* r gives its buffer up (the run is failing, or the request goes): takes
 * the loan back, or, if a sender is copying into it, lets it finish and
 * completes r (a sender may not write into a buffer given up). */
static void unlend(struct vp__mailbox *mb, struct vp__xrecv *r)
{
	struct vp__delivery d;

	if (mb->dc_owner != r)
		return;
	if (vp__direct_withdraw(mb)) {
		mb->dc_owner = NULL;
		return;
	}
	while (vp__mailbox_take(mb, &d) <= 0 || !d.direct)
		sched_yield();
	fill_direct(mb);
}

/* ---- posted receives ---- */

static void posted_add(struct thr_rank *me, struct vp__xrecv *r)
{
	r->next = NULL;
	if (me->posted_tail)
		me->posted_tail->next = r;
	else
		me->posted = r;
	me->posted_tail = r;
}

static void posted_unlink(struct thr_rank *me, struct vp__xrecv *r)
{
	struct vp__xrecv **pp, *prev = NULL;

	for (pp = &me->posted; *pp && *pp != r;
	     prev = *pp, pp = &(*pp)->next)
		;
	if (!*pp)
		return;
	*pp = r->next;
	if (me->posted_tail == r)
		me->posted_tail = prev;
}

/* The oldest posted receive that takes message (ctx, src, tag), unlinked. */
static struct vp__xrecv *posted_take(struct thr_rank *me, int ctx, int src,
				     int tag)
{
	struct vp__xrecv *r;

	for (r = me->posted; r; r = r->next)
		if (recv_matches(r, ctx, src, tag)) {
			posted_unlink(me, r);
			return r;
		}
	return NULL;
}

/* ---- taking what has arrived ---- */

/* Takes every message that has arrived in mb: each goes to the oldest
 * posted receive that matches it, or aside. */
static int drain(struct thr_rank *me, struct vp__mailbox *mb)
{
	struct vp__delivery d;
	struct vp__xrecv *r;
	unsigned tries = 0;
	int got, tag, rc;

	for (;;) {
		got = vp__mailbox_take(mb, &d);
		if (!got)
			return VP_OK;
		if (got < 0) { /* a sender is linking its node right now */
			if (++tries % 64 == 0)
				sched_yield();
			else
				caa_cpu_relax();
			continue;
		}
		thr_count_progress(me);
		if (d.direct) {
			posted_unlink(me, fill_direct(mb));
			continue;
		}
		lend_end(mb);
		tag = d.slot ? d.slot->tag : d.m->tag;
		r = me->posted ? posted_take(me, mb->ctx, mb->src, tag) : NULL;
		if (r && d.slot) {
			fill_from_slot(r, mb, d.slot);
			note_any(me, r);
		} else if (r)
			fill_from_msg(me, r, d.m, mb->src);
		else if (d.slot && (rc = aside_slot(me, mb, d.slot)))
			return rc;
		else if (!d.slot)
			aside_add(me, mb, d.m);
	}
}

/* Adds the mailboxes a receive of (ctx, src) looks at to this pass's list,
 * once each. */
static int collect(struct thr_rank *me, int ctx, int src)
{
	struct vp__mailbox *one, **list;
	int i, n;

	if (src >= 0) {
		if (!(one = vp__mailbox_get(me, ctx, src, me->world_rank)))
			return VP_ENOMEM;
		list = &one;
		n = 1;
	} else if (!(list = any_list(me, ctx, &n))) {
		return VP_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (list[i]->drain_pass == me->drain_pass)
			continue;
		if (me->ndrain == me->drain_cap) {
			int cap = me->drain_cap ? 2 * me->drain_cap : 16;
			void *a = realloc(me->drain, (size_t)cap * sizeof(*list));
			if (!a)
				return VP_ENOMEM;
			me->drain = a;
			me->drain_cap = cap;
		}
		list[i]->drain_pass = me->drain_pass;
		me->drain[me->ndrain++] = list[i];
	}
	return VP_OK;
}

/* Lends the buffers of posted receives to their senders: for each mailbox,
 * that of the oldest posted receive that could take its next message, if
 * it names its source and its buffer is larger than a fastbox slot. After
 * a receive from VP_ANY_SOURCE nothing is lent (it may be older than a
 * sender's receive and must get that sender's message first). */
static int lend_posted(struct thr_rank *me)
{
	struct vp__mailbox *mb;
	struct vp__xrecv *r;

	me->lend_pass++;
	for (r = me->posted; r && r->src >= 0; r = r->next) {
		if (!(mb = vp__mailbox_get(me, r->ctx, r->src, me->world_rank)))
			return VP_ENOMEM;
		if (mb->lend_pass == me->lend_pass)
			continue; /* an older receive has this mailbox */
		mb->lend_pass = me->lend_pass;
		if (!mb->dc_owner && lendable(me, r))
			lend(mb, r);
	}
	return VP_OK;
}

/* A seeded run: the mailboxes holding messages are drained in an order
 * the schedule draws, so which sender's message a wildcard receive takes
 * among those that have arrived is a choice of the seed. Each mailbox
 * stays FIFO (MPI's non-overtaking rule is per sender); the empty ones
 * go last. */
static void shuffle_arrivals(struct thr_rank *me)
{
	struct vp__mailbox *t;
	int i, j, full = 0;

	for (i = 0; i < me->ndrain; i++)
		if (vp__mailbox_has_message(me->drain[i])) {
			t = me->drain[full];
			me->drain[full++] = me->drain[i];
			me->drain[i] = t;
		}
	for (i = full - 1; i > 0; i--) {
		j = (int)vp__sched_draw(me->tw->sched, (uint64_t)i + 1,
					VP__CHOICE_ARRIVAL);
		t = me->drain[i];
		me->drain[i] = me->drain[j];
		me->drain[j] = t;
	}
}

/* One progress pass over the posted receives' mailboxes, and those of
 * (ctx, src) when ctx >= 0 (a probe's). */
static int pass(struct thr_rank *me, int ctx, int src)
{
	struct vp__xrecv *r;
	int i, rc = VP_OK;

	me->drain_pass++;
	me->ndrain = 0;
	for (r = me->posted; r && !rc; r = r->next)
		rc = collect(me, r->ctx, r->src);
	if (!rc && ctx >= 0)
		rc = collect(me, ctx, src);
	if (me->tw->sched)
		shuffle_arrivals(me);
	for (i = 0; i < me->ndrain && !rc; i++)
		rc = drain(me, me->drain[i]);
	return rc ? rc : lend_posted(me);
}

int thr_progress(void *tx)
{
	struct thr_rank *me = tx;

	return me->posted ? pass(me, -1, 0) : VP_OK;
}

int thr_progress_point(void *tx)
{
	thr_sched_point(tx);
	return thr_progress(tx);
}

int thr_post_recv(void *tx, struct vp__xrecv *r)
{
	struct thr_rank *me = tx;
	struct vp__mailbox *mb = NULL;
	struct vp__msg *m;
	int rc;

	r->done = 0;
	r->rc = VP_OK;
	m = aside_find(me, r->ctx, r->src, r->tag, &mb, &rc);
	if (rc)
		return rc;
	if (m) {
		aside_unlink(mb, m);
		fill_from_msg(me, r, m, mb->src);
		return VP_OK;
	}
	if (me->posted || r->src < 0) {
		posted_add(me, r);
		return pass(me, -1, 0);
	}
	/* The only posted receive, from a named source. A buffer no larger
	 * than a fastbox slot's payload is not lent: what has arrived is
	 * matched at the next progress, probe, cancel or wait (the wait
	 * takes it as vp_recv would), which saves the pass a post followed
	 * by its wait made twice. Else the pass reduces to draining its one
	 * mailbox (which aside_find just looked up) and, if r is still waiting,
	 * lending r's buffer as lend_posted would. */
	posted_add(me, r);
	if (r->n <= VP__FB_BYTES)
		return VP_OK;
	if ((rc = drain(me, mb)))
		return rc;
	if (!r->done && !mb->dc_owner && lendable(me, r))
		lend(mb, r);
	return VP_OK;
}

void thr_cancel_recv(void *tx, struct vp__xrecv *r)
{
	struct thr_rank *me = tx;
	struct vp__mailbox *mb;

	if (!r->done && r->src >= 0 &&
	    (mb = vp__mailbox_get(me, r->ctx, r->src, me->world_rank)))
		unlend(mb, r);
	if (!r->done)
		posted_unlink(me, r);
}

int thr_send_done(void *tx, void *pending)
{
	struct vp__msg *rdv = pending;

	(void)tx;
	return !rdv || atomic_load(&rdv->rdv_state) == VP__RDV_DONE;
}

/* ---- blocking on a watch set ---- */

static int watch_reserve(struct thr_rank *me, int need)
{
	struct thr_retired *old;
	struct thr_watch *w;
	int cap = me->watch_cap ? me->watch_cap : 8;

	if (need <= me->watch_cap)
		return VP_OK;
	while (cap < need)
		cap *= 2;
	w = calloc((size_t)cap, sizeof(*w));
	old = malloc(sizeof(*old));
	if (!w || !old) {
		free(w);
		free(old);
		return VP_ENOMEM;
	}
	old->array = atomic_load(&me->watch);
	old->next = me->retired;
	me->retired = old;
	atomic_store(&me->watch, w);
	me->watch_cap = cap;
	return VP_OK;
}

static void watch_put(struct thr_rank *me, int i, int kind, int say,
		      const struct vp__xwait *x, struct vp__mailbox *mb,
		      struct vp__msg *rdv)
{
	struct thr_watch *w = &atomic_load(&me->watch)[i];

	atomic_store_explicit(&w->kind, kind, memory_order_relaxed);
	atomic_store_explicit(&w->say, say, memory_order_relaxed);
	atomic_store_explicit(&w->peer, x->peer, memory_order_relaxed);
	atomic_store_explicit(&w->tag, x->tag, memory_order_relaxed);
	atomic_store_explicit(&w->bytes, x->bytes, memory_order_relaxed);
	atomic_store_explicit(&w->gen, me->watch_gen, memory_order_relaxed);
	atomic_store_explicit(&w->mb, mb, memory_order_relaxed);
	atomic_store_explicit(&w->rdv, rdv, memory_order_relaxed);
}

/* The watch entries x takes: 1, or for a receive or probe from any source
 * one for a new mailbox and one for each mailbox of its context; -1 when
 * the list could not be made. */
static int watch_need(struct thr_rank *me, const struct vp__xwait *x)
{
	int cnt;

	if (x->kind == VP__XW_SEND || x->peer >= 0)
		return 1;
	return any_list(me, x->ctx, &cnt) ? 1 + cnt : -1;
}

/* Puts x's entries at *len, within need; say as in struct thr_watch. */
static int watch_add(struct thr_rank *me, const struct vp__xwait *x, int say,
		     int *len, int need)
{
	struct vp__mailbox **list, *one;
	int k, cnt;

	if (x->kind == VP__XW_SEND) {
		watch_put(me, (*len)++, THR_W_SEND, say, x, NULL, x->pending);
		return VP_OK;
	}
	if (x->peer >= 0) {
		one = vp__mailbox_get(me, x->ctx, x->peer, me->world_rank);
		if (!one)
			return VP_ENOMEM;
		watch_put(me, (*len)++, THR_W_MAILBOX, say, x, one, NULL);
		return VP_OK;
	}
	/* any source: a new mailbox, or any of those there are */
	if (!(list = any_list(me, x->ctx, &cnt)))
		return VP_ENOMEM;
	if (*len + 1 + cnt > need) /* made since: gen says ready */
		cnt = need - *len - 1;
	watch_put(me, (*len)++, THR_W_NEW_MAILBOX, say, x, NULL, NULL);
	for (k = 0; k < cnt; k++)
		watch_put(me, (*len)++, THR_W_MAILBOX, 0, x, list[k], NULL);
	return VP_OK;
}

static void xwait_of_posted(const struct vp__xrecv *r, struct vp__xwait *x)
{
	*x = (struct vp__xwait){ VP__XW_RECV, r->ctx, r->src, r->tag, r->n,
				 NULL };
}

/*
 * Fills the watch set from w[0..n) and, after them, the rank's posted
 * receives (unnamed in reports: say 0); returns its length or VP_ENOMEM.
 * A posted receive is watched whatever the rank waits for: a message its
 * sender cannot complete without it (a rendezvous or synchronous send)
 * may be the one thing that lets the others run, and MPI's progress rule
 * (MPI 4.0, sec. 3.5) says it completes while this rank waits elsewhere.
 */
static int watch_fill(struct thr_rank *me, const struct vp__xwait *w, int n)
{
	struct vp__xrecv *r;
	struct vp__xwait x;
	int i, k, rc, len = 0, need = 0;

	/* a reader that finds the rank awake may see a set half made: it
	 * sees none (the rank is not blocked, so it concludes nothing) */
	atomic_store(&me->nwatch, 0);
	/* the inbox as it was before the lists are read: a mailbox made
	 * after this makes the set ready at once */
	me->watch_gen = atomic_load(&me->inbox.gen);
	/* the size first: the array is reallocated only between fills */
	for (i = 0; i < n; i++, need += k)
		if ((k = watch_need(me, &w[i])) < 0)
			return VP_ENOMEM;
	for (r = me->posted; r; r = r->next, need += k) {
		xwait_of_posted(r, &x);
		if ((k = watch_need(me, &x)) < 0)
			return VP_ENOMEM;
	}
	if ((rc = watch_reserve(me, need)))
		return rc;
	for (i = 0; i < n; i++)
		if ((rc = watch_add(me, &w[i], w[i].kind + 1, &len, need)))
			return rc;
	for (r = me->posted; r; r = r->next) {
		xwait_of_posted(r, &x);
		if ((rc = watch_add(me, &x, 0, &len, need)))
			return rc;
	}
	return len;
}

int thr_watch_posted(struct thr_rank *me)
{
	int len = watch_fill(me, NULL, 0);

	if (len >= 0)
		atomic_store(&me->nwatch, len);
	return len;
}

int thr_watch_ready(struct thr_rank *r)
{
	struct thr_watch *w = atomic_load(&r->watch);
	int i, n = atomic_load(&r->nwatch);
	struct vp__mailbox *mb;
	struct vp__msg *m;

	for (i = 0; i < n; i++)
		switch (atomic_load_explicit(&w[i].kind,
					     memory_order_relaxed)) {
		case THR_W_MAILBOX:
			mb = atomic_load_explicit(&w[i].mb,
						  memory_order_relaxed);
			if (mb && vp__mailbox_has_message(mb))
				return 1;
			break;
		case THR_W_NEW_MAILBOX:
			if (atomic_load(&r->inbox.gen) !=
			    atomic_load_explicit(&w[i].gen,
						 memory_order_relaxed))
				return 1;
			break;
		case THR_W_SEND:
			m = atomic_load_explicit(&w[i].rdv,
						 memory_order_relaxed);
			if (m && atomic_load(&m->rdv_state) == VP__RDV_DONE)
				return 1;
			break;
		}
	return 0;
}

static int recv_direct(struct thr_rank *me, struct vp__xrecv *r);

/* Is the rank's only posted receive the one thing w waits for? */
static struct vp__xrecv *only_receive(struct thr_rank *me,
				      const struct vp__xwait *w, int n)
{
	struct vp__xrecv *r = me->posted;

	return n == 1 && w->kind == VP__XW_RECV && w->peer >= 0 && r &&
			       !r->next && r->src == w->peer &&
			       r->ctx == w->ctx && r->tag == w->tag
		   ? r
		   : NULL;
}

/* The one rank w[0..n) all wait for, or THR_ANY_PEER. */
static int one_peer(const struct vp__xwait *w, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (w[i].peer < 0 || w[i].peer != w[0].peer)
			return THR_ANY_PEER;
	return n ? w[0].peer : THR_ANY_PEER;
}

int thr_block_set(void *tx, const struct vp__xwait *w, int n)
{
	struct thr_rank *me = tx;
	struct vp__xrecv *only = only_receive(me, w, n);
	unsigned polls, budget;
	int len, rc;

	/* vp_wait on the one posted receive, from a named source: the
	 * direct path takes it as vp_recv would (it is the next message of
	 * its mailbox that matches, and no other receive is posted) */
	if (only) {
		posted_unlink(me, only);
		rc = recv_direct(me, only);
		if (!only->done)
			posted_add(me, only); /* the run is failing */
		return only->done ? VP_OK : rc; /* a withdrawn rendezvous is
						   reported at completion */
	}
	if ((len = watch_fill(me, w, n)) < 0)
		return len;
	atomic_store(&me->nwatch, len);
	/* a short wait is cheaper without publishing it (wait.c) */
	budget = thr_poll_budget(me->tw);
	for (polls = 0; polls < budget; polls++) {
		if (thr_watch_ready(me))
			return VP_OK;
		caa_cpu_relax();
	}
	/* any sender may make the set ready (watch_also); the peer named
	 * is for the report's wait-for graph */
	atomic_store(&me->watch_also, 1);
	rc = thr_block(me, THR_WAIT_SET, one_peer(w, n), 0, NULL, NULL, 0);
	atomic_store(&me->watch_also, 0);
	return rc;
}

/* Appends s to a bounded buffer. */
static void append(char *buf, size_t len, size_t *at, const char *s)
{
	size_t k = strlen(s);

	if (*at + 1 >= len)
		return;
	if (k > len - *at - 1)
		k = len - *at - 1;
	memcpy(buf + *at, s, k);
	*at += k;
	buf[*at] = '\0';
}

void thr_watch_describe(struct thr_rank *r, char *buf, size_t len)
{
	struct thr_watch *w = atomic_load(&r->watch);
	int i, n = atomic_load(&r->nwatch), shown = 0;
	size_t at = 0;
	char who[32], tag[32], one[192];

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		int kind = atomic_load(&w[i].say) - 1;
		int peer = atomic_load(&w[i].peer), t = atomic_load(&w[i].tag);
		size_t bytes = atomic_load(&w[i].bytes);

		if (kind < 0)
			continue;
		if (peer == VP_ANY_SOURCE)
			snprintf(who, sizeof(who), "any rank");
		else
			snprintf(who, sizeof(who), "rank %d", peer);
		if (t == VP_ANY_TAG)
			snprintf(tag, sizeof(tag), "any tag");
		else
			snprintf(tag, sizeof(tag), "tag %d", t);
		if (kind == VP__XW_SEND)
			snprintf(one, sizeof(one),
				 "a send to %s, %s, of %zu bytes (rendezvous: "
				 "its receiver must take it)",
				 who, tag, bytes);
		else if (kind == VP__XW_PROBE)
			snprintf(one, sizeof(one), "a probe for %s, %s", who,
				 tag);
		else
			snprintf(one, sizeof(one),
				 "a receive from %s, %s, into a %zu-byte "
				 "buffer",
				 who, tag, bytes);
		if (shown++)
			append(buf, len, &at, "; ");
		append(buf, len, &at, one);
	}
}

/* ---- the blocking receive, and probe ---- */

/* The receive with posted receives: queued behind them, then waited for. */
static int recv_posted(struct thr_rank *me, struct vp__xrecv *r)
{
	struct vp__xwait w = { VP__XW_RECV, r->ctx, r->src, r->tag, r->n,
			       NULL };
	int rc = thr_post_recv(me, r);

	while (!rc && !r->done) {
		rc = thr_block_set(me, &w, 1);
		if (!rc)
			rc = pass(me, -1, 0);
	}
	if (rc) {
		thr_cancel_recv(me, r);
		return rc;
	}
	return r->rc;
}

/* Takes the next message of a mailbox, waiting for it if needed. Before it
 * waits, a receive with a buffer larger than a fastbox slot lends it to the
 * sender (direct.c); d.direct then says the message is in r's buffer. */
static int take(struct thr_rank *me, struct vp__mailbox *mb,
		struct vp__xrecv *r, struct vp__delivery *d)
{
	unsigned tries = 0, polls = 0, budget = 0;
	int rc, got;

	for (;;) {
		got = vp__mailbox_take(mb, d);
		if (got > 0) {
			if (!d->direct)
				lend_end(mb);
			return VP_OK;
		}
		/* no other receive is posted: a loan here is r's */
		if (got == 0 && !mb->dc_owner && lendable(me, r)) {
			lend(mb, r);
			continue; /* it may have arrived meanwhile */
		}
		if (got == 0 && polls == 0)
			budget = thr_poll_budget(me->tw);
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
		rc = thr_block(me, THR_WAIT_RECV, r->src, r->tag, mb, NULL, r->n);
		if (rc) {
			unlend(mb, r);
			return rc;
		}
	}
}

/* The direct receive: its own mailbox, in order. */
static int recv_direct(struct thr_rank *me, struct vp__xrecv *r)
{
	struct vp__delivery d;
	struct vp__mailbox *mb;
	struct vp__msg *m;
	int rc;

	mb = vp__mailbox_get(me, r->ctx, r->src, me->world_rank);
	if (!mb)
		return VP_ENOMEM;
	if (mb->dc_owner == &me->ahead) /* lent ahead for this receive */
		mb->dc_owner = r;
	/* messages set aside earlier come first: they arrived first */
	if ((m = mb->unx_head ? aside_first(mb, r->tag) : NULL))
		aside_unlink(mb, m);
	while (!m) {
		if ((rc = take(me, mb, r, &d)))
			return rc;
		thr_count_progress(me);
		if (d.direct) {
			fill_direct(mb); /* r's: the only receive */
			return VP_OK;
		}
		if (d.slot && tag_matches(r->tag, d.slot->tag)) {
			fill_from_slot(r, mb, d.slot);
			return VP_OK;
		}
		if (d.slot) {
			if ((rc = aside_slot(me, mb, d.slot)))
				return rc;
		} else if (tag_matches(r->tag, d.m->tag)) {
			m = d.m;
		} else {
			aside_add(me, mb, d.m);
		}
	}
	fill_from_msg(me, r, m, r->src);
	return r->rc;
}

/* A blocking receive: direct when it may be, else posted; the results
 * out of r. */
static int recv_blocking(struct thr_rank *me, struct vp__xrecv *r,
			 size_t *len, struct vp__envelope *env, int *got_src,
			 int *got_tag)
{
	int rc;

	thr_sched_point(me);
	rc = r->src >= 0 && !me->posted ? recv_direct(me, r)
					: recv_posted(me, r);

	if (r->done) {
		*len = r->len;
		*env = r->env;
		*got_src = r->got_src;
		*got_tag = r->got_tag;
	}
	return rc;
}

int thr_recv(void *tx, int ctx, int src, int tag, void *buf, size_t n,
	     size_t *len, struct vp__envelope *env, int *got_src, int *got_tag)
{
	struct thr_rank *me = tx;
	struct vp__xrecv r = { .ctx = ctx, .src = src, .tag = tag, .buf = buf,
			       .n = n };
	int rc;

	if (me->exch_next && me->exch_ctx == ctx && me->exch_src == src)
		me->exch_recv = &r;
	me->exch_next = 0;
	rc = recv_blocking(tx, &r, len, env, got_src, got_tag);
	me->exch_recv = NULL;
	return rc;
}

/* A reduction's receive: as thr_recv, but the message is combined where it
 * lies: by the receiver from a fastbox slot, a queued copy or a rendezvous
 * sender's buffer (put), or by the sender into the lent result (direct.c). */
int thr_recv_combine(void *tx, int ctx, int src, int tag,
		     const struct vp__xcombine *x, size_t n, size_t *len,
		     struct vp__envelope *env, int *got_src, int *got_tag)
{
	struct thr_rank *me = tx;
	struct vp__xrecv r = { .ctx = ctx, .src = src, .tag = tag,
			       .buf = x->out, .n = n, .combine = x };

	me->exch_next = 0;
	return recv_blocking(tx, &r, len, env, got_src, got_tag);
}

void thr_lend_recv(void *tx, int ctx, int src, int tag, void *buf, size_t n,
		   const struct vp__xcombine *x)
{
	struct thr_rank *me = tx;
	struct vp__mailbox *mb;

	struct vp__xrecv ahead = { .ctx = ctx, .src = src, .tag = tag,
				   .buf = x ? x->out : buf, .n = n,
				   .combine = x };

	/* the receive that comes next is this exchange's (lendable); a
	 * medium one is not lent, here or there */
	me->exch_next = 1;
	me->exch_ctx = ctx;
	me->exch_src = src;
	if (src < 0 || me->posted || n <= VP__FB_MEDIUM ||
	    !lendable(me, &ahead))
		return;
	mb = vp__mailbox_get(me, ctx, src, me->world_rank);
	if (!mb || mb->dc_owner || (mb->unx_head && aside_first(mb, tag)))
		return;
	me->ahead = ahead;
	lend(mb, &me->ahead);
}

int thr_exchanging(struct thr_rank *me, int ctx, int peer)
{
	struct vp__mailbox *mb;

	if (me->ahead.src != peer || me->ahead.ctx != ctx)
		return 0;
	mb = vp__mailbox_get(me, ctx, peer, me->world_rank);
	return mb && mb->dc_owner == &me->ahead;
}

void thr_unlend_recv(void *tx, int ctx, int src)
{
	struct thr_rank *me = tx;
	struct vp__mailbox *mb;

	me->exch_next = 0;
	if (src >= 0 && (mb = vp__mailbox_get(me, ctx, src, me->world_rank)))
		unlend(mb, &me->ahead);
}

int thr_probe(void *tx, int ctx, int src, int tag, int blocking, int *found,
	      struct vp__xprobe *out)
{
	struct thr_rank *me = tx;
	struct vp__xwait w = { VP__XW_PROBE, ctx, src, tag, 0, NULL };
	struct vp__mailbox *mb = NULL;
	struct vp__msg *m;
	int rc;

	*found = 0;
	thr_sched_point(me);
	for (;;) {
		if ((rc = pass(me, ctx, src)))
			return rc;
		m = aside_find(me, ctx, src, tag, &mb, &rc);
		if (rc)
			return rc;
		if (m) {
			*found = 1;
			*out = (struct vp__xprobe){ mb->src, m->tag, m->len,
						    m->env };
			if (src < 0 && me->tw->sched)
				vp__sched_note_match(me->tw->sched,
						     me->world_rank, mb->src);
			return VP_OK;
		}
		if (!blocking)
			return VP_OK;
		if ((rc = thr_block_set(me, &w, 1)))
			return rc;
	}
}

void thr_receive_free(struct thr_rank *r)
{
	struct thr_retired *o, *next;

	for (o = r->retired; o; o = next) {
		next = o->next;
		free(o->array);
		free(o);
	}
	free(atomic_load(&r->watch));
	free(r->any.mbs);
	free(r->drain);
}
