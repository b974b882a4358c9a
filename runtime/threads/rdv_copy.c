/*
 * rdv_copy.c - a rendezvous message copied by both of its ends.
 *
 * The receiver of a rendezvous message copies it straight from the sender's
 * buffer (transport.c), while the sender waits for the copy to end. Where the
 * sender's thread would spin beside the copy (wait.c, copy_under_way: the
 * running ranks fit on the CPUs, threads not fibers), it copies a share
 * instead, so that both cores copy: the message is cut into chunks of CHUNK
 * bytes, the receiver takes them from the front and the sender from the back,
 * each by one CAS on the word that holds both ends of what is left, so each
 * end copies one contiguous run, the same run each time a loop repeats the
 * call (its own cache's share). The receiver, out of chunks, waits for the
 * sender's last chunk (the count of copied chunks: release by each copier,
 * acquire here), then marks the message DONE; the sender, out of chunks,
 * waits for DONE. A reduction's receive shares its combine the same way,
 * chunk by chunk (the ops work element by element, and a chunk is a whole
 * number of elements of any type). A message longer than the receive buffer
 * is left to the receiver alone (it reports the truncation and writes
 * nothing), and so is one shorter than SHARE_MIN.
 *
 * Two threads each copying a half end sooner than one copying the whole,
 * by more than half for long messages copied in a loop: each half stays
 * in its own CPU's caches from one copy to the next.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sched.h>
#include <string.h>

#include "threads.h"

#define CHUNK ((size_t)64 << 10)
#define SHARE_MIN (2 * CHUNK)

void vp__rdv_share(struct vp__msg *m, const struct vp__xrecv *r)
{
	size_t chunks = 0;

	if (m->len >= SHARE_MIN &&
	    (r->combine ? m->len == r->n && r->combine->count : m->len <= r->n))
		chunks = (m->len + CHUNK - 1) / CHUNK;
	m->rdv_dst = !chunks ? NULL : r->combine ? r->combine->out : r->buf;
	m->rdv_combine = r->combine;
	m->rdv_chunks = (uint32_t)chunks;
	atomic_store_explicit(&m->rdv_left, (uint64_t)chunks << 32,
			      memory_order_relaxed);
	atomic_store_explicit(&m->rdv_copied, 0, memory_order_relaxed);
}

/* Takes the next chunk from the front or the back into *k; 0 when none
 * is left. */
static int take_chunk(struct vp__msg *m, int back, uint32_t *k)
{
	uint64_t left = atomic_load_explicit(&m->rdv_left, memory_order_relaxed);
	uint64_t next;
	uint32_t lo, hi;

	do {
		lo = (uint32_t)left;
		hi = (uint32_t)(left >> 32);
		if (lo >= hi)
			return 0;
		next = back ? (uint64_t)(hi - 1) << 32 | lo
			    : (uint64_t)hi << 32 | (lo + 1);
	} while (!atomic_compare_exchange_weak_explicit(
	    &m->rdv_left, &left, next, memory_order_relaxed,
	    memory_order_relaxed));
	*k = back ? hi - 1 : lo;
	return 1;
}

static void copy_chunk(struct vp__msg *m, uint32_t k)
{
	size_t at = (size_t)k * CHUNK;
	size_t n = m->len - at < CHUNK ? m->len - at : CHUNK;

	const struct vp__xcombine *x = m->rdv_combine;

	if (x) { /* the same combine on this chunk's elements */
		size_t es = m->len / x->count;
		struct vp__xcombine part = *x;

		part.mine = (const char *)x->mine + at;
		part.out = (char *)x->out + at;
		part.count = n / es;
		x->fn(&part, (const char *)m->rdv_buf + at);
	} else {
		memcpy((char *)m->rdv_dst + at, (const char *)m->rdv_buf + at,
		       n);
	}
	atomic_fetch_add_explicit(&m->rdv_copied, 1, memory_order_release);
}

void vp__rdv_copy_front(struct vp__msg *m)
{
	unsigned spins = 0;
	uint32_t k;

	while (take_chunk(m, 0, &k))
		copy_chunk(m, k);
	/* the sender's chunk in progress: a few microseconds, unless its
	 * CPU was taken from it */
	while (atomic_load_explicit(&m->rdv_copied, memory_order_acquire) <
	       m->rdv_chunks) {
		if (++spins % 1024 == 0)
			sched_yield();
		else
			caa_cpu_relax();
	}
}

void vp__rdv_copy_back(struct vp__msg *m)
{
	uint32_t k;

	/* acquire: CLAIMED was stored after rdv_dst and the chunks */
	if (atomic_load_explicit(&m->rdv_state, memory_order_acquire) !=
		VP__RDV_CLAIMED ||
	    !m->rdv_dst)
		return;
	while (take_chunk(m, 1, &k))
		copy_chunk(m, k);
}
