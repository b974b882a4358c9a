/*
 * pool.c - per-rank recycling of message headers and eager payloads.
 *
 * A cross-thread malloc/free per message costs about a hundred ns; a pool
 * costs a few. Each rank allocates headers for the messages it sends. The
 * receiver, done with a header, pushes it on the owner's return stack (a
 * lock-free stack: CAS push by any thread, the owner takes the whole stack
 * with one exchange, so there is no ABA). The owner sorts returned headers
 * into free lists by payload size class.
 *
 * Size classes: 0 = inline payload (VP__INLINE_BYTES), class c >= 1 holds a
 * heap buffer of 256 << c bytes. Every header ever made is on the owner's
 * all_msgs list, so teardown frees everything, wherever a header was left
 * (queued, returned or free) when the run ended.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "threads.h"

static int size_class(size_t len)
{
	int c = 1;

	if (len <= VP__INLINE_BYTES)
		return 0;
	while (((size_t)256 << c) < len)
		c++;
	return c;
}

/* Takes every header receivers gave back and files it by class. */
static void reclaim_returned(struct thr_rank *me)
{
	struct vp__msg *m =
	    atomic_exchange_explicit(&me->returned, NULL, memory_order_acquire);
	while (m) {
		struct vp__msg *next = m->ret_next;
		m->ret_next = me->free_list[m->size_class];
		me->free_list[m->size_class] = m;
		m = next;
	}
}

struct vp__msg *vp__msg_alloc(struct thr_rank *me, size_t len)
{
	int c = size_class(len);
	struct vp__msg *m;

	if (c >= THR_NCLASS)
		return NULL;
	if (!me->free_list[c])
		reclaim_returned(me);
	m = me->free_list[c];
	if (m) {
		me->free_list[c] = m->ret_next;
		return m;
	}
	m = malloc(sizeof(*m));
	if (!m)
		return NULL;
	m->size_class = c;
	m->owner = me;
	if (c == 0) {
		m->payload = m->inline_data;
	} else {
		m->payload = malloc((size_t)256 << c);
		if (!m->payload) {
			free(m);
			return NULL;
		}
		me->pool_bytes += (size_t)256 << c;
	}
	me->pool_bytes += sizeof(*m);
	m->all_next = me->all_msgs;
	me->all_msgs = m;
	return m;
}

void vp__msg_release(struct vp__msg *m)
{
	struct thr_rank *owner = m->owner;
	struct vp__msg *head =
	    atomic_load_explicit(&owner->returned, memory_order_relaxed);

	do {
		m->ret_next = head;
	} while (!atomic_compare_exchange_weak_explicit(&owner->returned, &head,
							m, memory_order_release,
							memory_order_relaxed));
}

void vp__pool_free(struct thr_rank *r)
{
	struct vp__msg *m = r->all_msgs, *next;

	for (; m; m = next) {
		next = m->all_next;
		if (m->size_class)
			free(m->payload);
		free(m);
	}
	r->all_msgs = NULL;
}
