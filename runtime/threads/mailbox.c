/*
 * mailbox.c - lazy creation and lookup of mailboxes, and the queue hand-off.
 *
 * A world with p ranks may have up to p^2 ordered pairs; only pairs that talk
 * get a mailbox. Lookup is two-level: each rank's private peer map (no
 * synchronization) answers the hot path; on a miss the destination's
 * inbox, a hash table that grows, behind a mutex of its own, finds or
 * creates the mailbox, so sender and receiver that meet it at the same time
 * share one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "threads.h"

/* The direct channel's loan and the message's terms share one line
 * (mailbox.h): the receiver that sees FILLED has the rest in hand. */
_Static_assert(offsetof(struct vp__mailbox, dc_env) +
		       sizeof(struct vp__envelope) <=
		   offsetof(struct vp__mailbox, dc_state) + 64,
	       "the direct channel fits one cache line");

#ifdef __SANITIZE_THREAD__
/* TSan cannot see liburcu's inline-assembly atomics: tell it about the
 * hand-off explicitly. */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define HANDOFF_RELEASE(p) __tsan_release(p)
#define HANDOFF_ACQUIRE(p) __tsan_acquire(p)
#else
#define HANDOFF_RELEASE(p) ((void)(p))
#define HANDOFF_ACQUIRE(p) ((void)(p))
#endif

static uint64_t inbox_hash(int ctx, int src)
{
	uint64_t h = (uint64_t)(uint32_t)ctx * 0x9E3779B97F4A7C15ull;

	h ^= (uint64_t)(uint32_t)src * 0xC2B2AE3D27D4EB4Full;
	return h ^ (h >> 29);
}

/* Doubles an inbox's buckets; with its lock held. 0, or -1 (it stays). */
static int inbox_grow(struct thr_inbox *in)
{
	size_t n = in->nbuckets ? 2 * in->nbuckets : INBOX_MIN_BUCKETS, b;
	struct vp__mailbox **nb = calloc(n, sizeof(*nb)), *mb, *next;

	if (!nb)
		return -1;
	for (b = 0; b < in->nbuckets; b++)
		for (mb = in->buckets[b]; mb; mb = next) {
			size_t k = inbox_hash(mb->ctx, mb->src) & (n - 1);
			next = mb->next;
			mb->next = nb[k];
			nb[k] = mb;
		}
	free(in->buckets);
	in->buckets = nb;
	in->nbuckets = n;
	return 0;
}

/* The mailbox (ctx, src -> dst), found or made in dst's inbox; called with
 * no lock held. Senders to different ranks never share a lock, and a table
 * that grows keeps every lookup short (a p = 1024 all-to-all makes p^2
 * mailboxes). */
static struct vp__mailbox *registry_get(struct thr_world *w, int ctx, int src,
					int dst)
{
	struct thr_inbox *in = &w->ranks[dst].inbox;
	struct vp__mailbox *mb;
	size_t b;

	pthread_mutex_lock(&in->lock);
	if (in->nbuckets) {
		b = inbox_hash(ctx, src) & (in->nbuckets - 1);
		for (mb = in->buckets[b]; mb; mb = mb->next)
			if (mb->ctx == ctx && mb->src == src)
				goto out;
	}
	if (in->count >= in->nbuckets && inbox_grow(in) && !in->nbuckets) {
		mb = NULL;
		goto out;
	}
	mb = aligned_alloc(64, sizeof(*mb));
	if (!mb)
		goto out;
	memset(mb, 0, sizeof(*mb));
	__cds_wfcq_init(&mb->head, &mb->tail);
	mb->ctx = ctx;
	mb->src = src;
	mb->dst = dst;
	b = inbox_hash(ctx, src) & (in->nbuckets - 1);
	mb->next = in->buckets[b];
	in->buckets[b] = mb;
	in->count++;
	atomic_fetch_add(&in->gen, 1);
out:
	pthread_mutex_unlock(&in->lock);
	return mb;
}

struct vp__mailbox *vp__mailbox_lookup(struct thr_rank *me, int ctx, int src,
				       int dst, uint64_t key, int outgoing)
{
	struct vp__mailbox *mb = vp__peer_map_find(&me->peers, key);

	if (!mb) {
		mb = registry_get(me->tw, ctx, src, dst);
		if (mb && vp__peer_map_put(&me->peers, key, mb))
			return NULL;
	}
	me->last_key[outgoing] = key;
	me->last_mb[outgoing] = mb;
	return mb;
}

void vp__mailbox_enqueue(struct vp__mailbox *mb, struct vp__msg *m)
{
	m->gseq = mb->gseq++;
	HANDOFF_RELEASE(m);
	cds_wfcq_node_init(&m->qnode);
	cds_wfcq_enqueue(&mb->head, &mb->tail, &m->qnode);
}

static struct vp__msg *dequeue(struct vp__mailbox *mb)
{
	struct cds_wfcq_node *n =
	    __cds_wfcq_dequeue_nonblocking(&mb->head, &mb->tail);

	if (!n || n == CDS_WFCQ_WOULDBLOCK)
		return (struct vp__msg *)n;
	HANDOFF_ACQUIRE(caa_container_of(n, struct vp__msg, qnode));
	return caa_container_of(n, struct vp__msg, qnode);
}

struct vp__fb_slot *vp__fastbox_claim(struct vp__mailbox *mb)
{
	if (mb->fb_head - mb->fb_seen >= VP__FB_SLOTS) {
		mb->fb_seen = atomic_load_explicit(&mb->fb_consumed,
						   memory_order_acquire);
		if (mb->fb_head - mb->fb_seen >= VP__FB_SLOTS)
			return NULL; /* full: the receiver is behind */
	}
	return &mb->fb[mb->fb_head % VP__FB_SLOTS];
}

int vp__fastbox_fits(struct thr_rank *me, struct vp__mailbox *mb, size_t n)
{
	if (n <= VP__FB_BYTES)
		return 1;
	if (n > VP__FB_MEDIUM)
		return 0;
	if (!mb->fb_ext &&
	    (mb->fb_ext = aligned_alloc(64, VP__FB_SLOTS * VP__FB_MEDIUM)))
		me->fb_exts++;
	return mb->fb_ext != NULL;
}

void vp__fastbox_publish(struct vp__mailbox *mb, struct vp__fb_slot *s)
{
	s->gseq = mb->gseq++;
	mb->fb_head++;
	/* seq_cst, not release: the sender's wake-up then loads the
	 * receiver's bell, and a load may pass a release store (wait.c) */
	atomic_store_explicit(&s->state, mb->fb_head, memory_order_seq_cst);
}

void vp__fastbox_release(struct vp__mailbox *mb, struct vp__fb_slot *s)
{
	unsigned t = atomic_load_explicit(&mb->fb_tail, memory_order_relaxed);

	(void)s;
	mb->expect++;
	atomic_store_explicit(&mb->fb_tail, t + 1, memory_order_relaxed);
	atomic_store_explicit(&mb->fb_consumed, t + 1, memory_order_release);
}

/* Is the next fastbox message in? */
static struct vp__fb_slot *fastbox_ready(struct vp__mailbox *mb)
{
	unsigned t = atomic_load_explicit(&mb->fb_tail, memory_order_relaxed);
	struct vp__fb_slot *s = &mb->fb[t % VP__FB_SLOTS];

	return atomic_load_explicit(&s->state, memory_order_acquire) == t + 1
		   ? s
		   : NULL;
}

/* The slot holding message number want, or NULL. */
static struct vp__fb_slot *fastbox_next(struct vp__mailbox *mb, uint32_t want)
{
	struct vp__fb_slot *s = fastbox_ready(mb);

	return s && s->gseq == want ? s : NULL;
}

/* Message number want in the fastbox or the direct channel: 1 and d
 * filled, else 0. The direct channel can hold one only while the receiver
 * has a loan out (dc_owner, its own field): no load of the sender's state
 * otherwise. */
static inline int unqueued_next(struct vp__mailbox *mb, uint32_t want,
				struct vp__delivery *d)
{
	if ((d->slot = fastbox_next(mb, want)))
		return 1;
	if (!mb->dc_owner || !vp__direct_holds(mb, want))
		return 0;
	d->direct = 1;
	mb->expect++;
	return 1;
}

int vp__mailbox_take(struct vp__mailbox *mb, struct vp__delivery *d)
{
	struct vp__msg *m =
	    atomic_load_explicit(&mb->pending, memory_order_relaxed);
	uint32_t want = mb->expect;

	d->m = NULL;
	d->slot = NULL;
	d->direct = 0;
	if (m && m->gseq == want) {
		atomic_store_explicit(&mb->pending, NULL, memory_order_relaxed);
		goto queued;
	}
	if (unqueued_next(mb, want, d))
		return 1;
	if (m) /* another channel holds the one before it: visible soon */
		return -1;
	m = dequeue(mb);
	if (!m || m == (struct vp__msg *)CDS_WFCQ_WOULDBLOCK)
		return m ? -1 : 0;
	if (m->gseq != want) {
		/* published before m was queued, so visible now */
		atomic_store_explicit(&mb->pending, m, memory_order_relaxed);
		return unqueued_next(mb, want, d) ? 1 : -1;
	}
queued:
	mb->expect++;
	d->m = m;
	return 1;
}

int vp__mailbox_has_message(struct vp__mailbox *mb)
{
	return atomic_load_explicit(&mb->pending, memory_order_relaxed) ||
	       fastbox_ready(mb) || !cds_wfcq_empty(&mb->head, &mb->tail) ||
	       (atomic_load_explicit(&mb->dc_state, memory_order_acquire) &
		3u) == VP__DC_FILLED;
}

static void count_left(struct thr_released *rel, const struct vp__mailbox *mb)
{
	uint32_t left = mb->gseq - mb->expect + mb->unx_count;

	if (!left)
		return;
	pthread_mutex_lock(&rel->lock);
	if (rel->npairs < THR_RELEASED_NAMED)
		rel->first[rel->npairs] =
		    (struct vp__unreceived){ mb->ctx, mb->src, mb->dst, left };
	rel->npairs++;
	rel->messages += left;
	pthread_mutex_unlock(&rel->lock);
}

void vp__mailboxes_release(struct thr_world *w, int ctx_lo, int ctx_hi)
{
	struct vp__mailbox **pp, *mb;
	size_t b;
	int r;

	for (r = 0; r < w->p; r++) {
		struct thr_inbox *in = &w->ranks[r].inbox;

		pthread_mutex_lock(&in->lock);
		for (b = 0; b < in->nbuckets; b++)
			for (pp = &in->buckets[b]; (mb = *pp);) {
				if (mb->ctx < ctx_lo || mb->ctx > ctx_hi) {
					pp = &mb->next;
					continue;
				}
				*pp = mb->next;
				count_left(&w->released, mb);
				free(mb->fb_ext);
				free(mb);
				in->count--;
				atomic_fetch_add(&in->gen, 1);
			}
		pthread_mutex_unlock(&in->lock);
	}
}

void vp__mailboxes_free(struct thr_world *w)
{
	struct vp__mailbox *mb, *next;
	size_t b;
	int r;

	for (r = 0; r < w->p; r++) {
		struct thr_inbox *in = &w->ranks[r].inbox;

		for (b = 0; b < in->nbuckets; b++)
			for (mb = in->buckets[b]; mb; mb = next) {
				next = mb->next;
				free(mb->fb_ext);
				free(mb);
			}
		free(in->buckets);
		in->buckets = NULL;
		in->nbuckets = in->count = 0;
		pthread_mutex_destroy(&in->lock);
	}
}
