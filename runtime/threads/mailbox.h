/*
 * mailbox.h - the lock-free hand-off between one sender and one receiver.
 *
 * A mailbox carries the messages of one ordered pair (source -> destination)
 * in one message space (context). It is liburcu's wait-free concurrent queue,
 * cds_wfcq, used with a single consumer:
 *   - enqueue is wait-free (one xchg on the tail, then a store linking the
 *     previous node), so a sender never waits for a receiver to post a send;
 *   - only the destination rank dequeues, so the lock-free double-underscore
 *     dequeue needs no mutex;
 *   - the node is embedded in the message header, so the queue allocates
 *     nothing; headers come from the sender's pool (pool.c) and go back to it
 *     through a lock-free return stack, never through malloc/free per message.
 * Why not the others: rculfqueue needs RCU registration and read-side locks
 * on every operation; wfstack/lfstack are LIFO and break FIFO per pair; a
 * bounded SPSC ring gives back-pressure, so eager sends could block and join
 * the deadlock analysis.
 *
 * The nonblocking dequeue may answer CDS_WFCQ_WOULDBLOCK when a sender is
 * between its tail xchg and its link store: the message is arriving, so the
 * receiver retries (relaxing the CPU, yielding after a while); it never takes
 * liburcu's 10 ms sleep.
 *
 * Synchronization table (X = may run concurrently on the same mailbox):
 *
 *                 enqueue   dequeue   empty    first(peek)
 *   enqueue          X         X        X          X
 *   dequeue          X         -        X          -
 *   empty            X         X        X          X
 *   first(peek)      X         -        X          -
 *
 * dequeue/first run only on the destination rank's thread; empty is also
 * called by the deadlock verifier from any thread (read only). The payload
 * of a message is written before enqueue; enqueue's xchg is a full barrier,
 * and the dequeue's dependent loads order the reads after it.
 *
 * Rendezvous (messages above eager_max): the header carries the sender's
 * buffer and an atomic state:
 *   POSTED  --receiver claims (CAS)-->  CLAIMED  --copy done-->  DONE
 *   POSTED  --sender cancels on abort (CAS)-->  CANCELLED
 * The sender waits for DONE (or cancels) before its buffer may be reused;
 * a receiver that finds CANCELLED drops the header back to its owner.
 * Progress: the hand-off is wait-free for the sender of an eager message and
 * lock-free for the receiver; only rendezvous senders wait for their receiver.
 *
 * The fastbox (small messages): a mailbox also has a few one-cache-line
 * slots, written only by its sender and read only by its receiver, in the
 * spirit of Open MPI's vader fastboxes. A message of at most VP__FB_BYTES
 * (VP__FB_MEDIUM, its payload in the slot's share of an extension: below)
 * goes into the next slot when the receiver has consumed what that slot
 * held before; else, as every larger message, into the queue, so a full
 * fastbox never makes a sender wait. The sender fills slot number h (of the
 * sender's running count) and stores its state h + 1 with release; the
 * receiver, expecting number t, takes the slot when its state is t + 1
 * (acquire), copies out and stores its count of consumed slots (release)
 * beside the queue's tail. The receiver never writes a slot, and the
 * sender reads the consumed count only when its cached copy says the box
 * is full, so a
 * message costs about two cache-line transfers instead of the queue's five
 * or six (tail, node link, header, return stack).
 * Order across the two channels: the sender numbers the messages of the
 * mailbox (gseq); the receiver delivers number `expect` from whichever
 * channel holds it. Each channel is FIFO, so the next message is at the
 * head of one of them. The sender publishes a slot before it enqueues a
 * later message (the enqueue's xchg is a full barrier), so a receiver that
 * dequeued a message ahead of its turn finds the missing one in the
 * fastbox; it keeps the early one aside (pending) for the next receive.
 *
 * The direct channel (one copy, direct.c): a receiver about to wait for the
 * next message of a mailbox lends its buffer there (number `want` = the
 * message it expects next, its tag, its capacity). A sender whose next
 * message is number `want`, matches the tag and fits claims the loan (CAS
 * POSTED -> FILLING), copies straight into the receiver's buffer, writes
 * the message's length, tag and envelope on the loan's own line and
 * publishes FILLED; it never waits, whatever the size. A medium message
 * (past VP__FB_BYTES) tries a loan before the fastbox; only one-way
 * receives lend at those sizes (receive.c, lendable). The receiver takes
 * message number `want` from whichever of the three channels holds it,
 * so order per pair holds. A loan is withdrawn
 * (CAS POSTED -> NONE) as soon as the receiver takes anything else; that
 * never fails, since a sender that sent number `want` another way can no
 * longer claim it. The state word counts loans in its upper bits, so a
 * sender that read a loan's terms cannot claim a later loan with them.
 *
 * Names: mb a mailbox; fb (fb_*, VP__FB_*) the fastbox; dc (dc_*,
 * VP__DC_*) the direct channel; rdv (VP__RDV_*) a rendezvous; unx (unx_*)
 * the mailbox's unexpected messages (taken in order, their tag wanted by
 * no receive yet); gseq a message's number in its mailbox.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_MAILBOX_H
#define VP_RUNTIME_MAILBOX_H

#define _LGPL_SOURCE
#include <sched.h>
/* liburcu sleeps 10 ms when a node is half-linked; yield instead. */
#define CDS_WFCQ_WAIT_SLEEP(msec) sched_yield()
#include <urcu/wfcqueue.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../transport.h"

#define VP__INLINE_BYTES 192

enum vp__rdv_state {
	VP__RDV_POSTED,
	VP__RDV_CLAIMED,
	VP__RDV_DONE,
	VP__RDV_CANCELLED,
};

struct thr_rank;

struct vp__msg {
	struct cds_wfcq_node qnode; /* link in the mailbox queue */
	struct vp__msg *ret_next;   /* link in the owner's return stack */
	struct vp__msg *all_next;   /* owner's list of every header */
	struct thr_rank *owner;     /* pool the header returns to */
	int size_class;             /* 0: payload inline */
	int src_world;
	int tag;                    /* the sender's tag (matching) */
	struct vp__msg *unx_next;   /* link in the receiver's unexpected list */
	uint64_t seen;              /* set aside as the receiver's seen-th */
	uint32_t gseq;           /* the mailbox's message number */
	size_t len;              /* payload bytes */
	struct vp__envelope env; /* carried, never read here */
	const void *rdv_buf;     /* rendezvous: the sender's buffer */
	atomic_int rdv_state;
	/* a standard send a seeded schedule left unbuffered (post_send's
	 * sync VP__SYNC_UNBUFFERED): a deadlock report calls it unsafe */
	int unbuffered;
	/* a rendezvous copied by both ends (rdv_copy.c): the receiver's
	 * buffer or result (NULL: the receiver copies alone) and combine,
	 * set before CLAIMED; the
	 * chunks not yet taken (front in the low 32 bits, back in the high);
	 * the chunks copied, and how many there are */
	void *rdv_dst;
	const struct vp__xcombine *rdv_combine; /* the receiver's, or NULL */
	_Atomic uint64_t rdv_left;
	atomic_uint rdv_copied;
	uint32_t rdv_chunks;
	unsigned char *payload; /* inline_data or a heap buffer */
	unsigned char inline_data[VP__INLINE_BYTES];
};

#define VP__FB_SLOTS 4
#define VP__FB_BYTES 88
/* Medium messages (VP__FB_BYTES < n <= VP__FB_MEDIUM) go through the
 * fastbox too, their payload in the slot's share of an extension that the
 * sender makes on the mailbox's first such message (VP__FB_SLOTS x
 * VP__FB_MEDIUM bytes), so a mailbox that never carries one stays small.
 * A fastbox message is one cache-line hand-off each way where the direct
 * channel takes three in a row (a loan, a claim and FILLED); at 1 KiB the
 * payload's sixteen lines cross either way and outweigh that, so the
 * extension stops at 512 bytes. */
#define VP__FB_MEDIUM 512

/* One fastbox slot: two cache lines, the first holding the header and
 * the first 24 bytes of payload. */
struct vp__fb_slot {
	atomic_uint state; /* h + 1 once message h of the fastbox is in */
	uint32_t len;
	uint32_t gseq; /* the mailbox's message number */
	int32_t tag;   /* the sender's tag (matching) */
	struct vp__envelope env;
	unsigned char payload[VP__FB_BYTES];
};

struct vp__mailbox {
	/* consumer side: written by the destination only (the deadlock
	 * verifier reads the atomics from any thread) */
	struct __cds_wfcq_head head;
	int ctx, src, dst;
	struct vp__mailbox *next;          /* registry chain */
	uint32_t expect;                   /* next message number to deliver */
	atomic_uint fb_tail;               /* fastbox messages consumed */
	_Atomic(struct vp__msg *) pending; /* dequeued ahead of its turn */
	/* messages taken in order whose tag no receive wanted yet, oldest
	 * first (the receiver's own; transport.c) */
	struct vp__msg *unx_head, *unx_tail;
	uint32_t unx_count;
	unsigned drain_pass; /* the receiver's last progress pass over it */
	unsigned lend_pass;  /* ... and its last look for a receive to lend */
	struct vp__xrecv *dc_owner; /* the receive whose buffer is lent */
	/* the sender's fb_ext as the receiver last read it: that line
	 * changes with every message the sender numbers */
	const unsigned char *fb_ext_seen;
	/* The direct channel, one line: the loan's terms, written by the
	 * receiver before it publishes POSTED, then the message's own terms,
	 * written by the sender while FILLING. A receiver that sees FILLED
	 * finds everything it needs on the line that told it so: one
	 * cache-line hand-off each way, not a second fetch of the
	 * sender's line of counters. */
	_Alignas(64) atomic_uint dc_state; /* loans << 2 | VP__DC_* */
	_Atomic uint32_t dc_want; /* the message number the loan is for */
	atomic_int dc_tag;
	_Atomic uint32_t dc_cap; /* the buffer's bytes, at most UINT32_MAX */
	_Atomic(void *) dc_buf;
	/* a reduction's loan: the sender combines into dc_buf instead of
	 * copying (struct vp__xcombine; NULL: a plain copy) */
	_Atomic(const struct vp__xcombine *) dc_combine;
	int dc_got_tag; /* the sender's: its tag, length and envelope */
	uint32_t dc_len;
	struct vp__envelope dc_env;
	/* A reduction's loan points dc_combine here: the receiver's combine
	 * (its operand, result, count, type, op), on a line of its own that
	 * the receiver rewrites only when they change. The receiver's
	 * struct vp__xcombine lives in its stack frame, a line it has just
	 * written, so a sender reading it there fetched a second line from
	 * the other CPU at every call; a loop that reduces the same buffers
	 * call after call leaves this line unwritten, shared by both
	 * caches. Read by the sender only once its claim of the loan
	 * succeeded, and rewritten only while no loan is out. */
	_Alignas(64) struct vp__xcombine dc_terms;
	/* producer side on its own line: senders xchg the tail; keeping it
	 * apart stops the receiver's head updates from bouncing it. Only a
	 * queued message writes it: the receiver's empty check reads it on
	 * every poll, so nothing the sender writes for a fastbox message may
	 * share it. The receiver's consumed count may: the sender reads it
	 * (acquire) only when its count of free slots runs out, once every
	 * VP__FB_SLOTS messages at most (beside fb_tail it would slow every
	 * exchange; here it costs nothing a line of its own would save). */
	_Alignas(64) struct cds_wfcq_tail tail;
	atomic_uint fb_consumed;
	/* the sender's own counters */
	_Alignas(64) uint32_t gseq; /* next message number (the sender's) */
	uint32_t fb_head; /* fastbox messages sent */
	uint32_t fb_seen; /* the receiver's consumed count, last read */
	/* medium payloads (VP__FB_MEDIUM per slot), or NULL before the
	 * first; written once by the sender before it publishes the slot
	 * that first uses it, so the receiver's acquire of that slot's state
	 * orders the pointer too */
	unsigned char *fb_ext;
	_Alignas(64) struct vp__fb_slot fb[VP__FB_SLOTS];
};

/* Where the sender writes slot s's payload (s->len set): in the slot, or
 * a medium message's in the slot's share of the extension. */
static inline unsigned char *vp__fastbox_payload(struct vp__mailbox *mb,
						 struct vp__fb_slot *s)
{
	return s->len <= VP__FB_BYTES
		   ? s->payload
		   : mb->fb_ext + (size_t)(s - mb->fb) * VP__FB_MEDIUM;
}

/* Where the receiver reads it, once it has acquired the slot's state
 * (which orders the sender's fb_ext before it). */
static inline const unsigned char *
vp__fastbox_payload_in(struct vp__mailbox *mb, const struct vp__fb_slot *s)
{
	if (s->len <= VP__FB_BYTES)
		return s->payload;
	if (!mb->fb_ext_seen)
		mb->fb_ext_seen = mb->fb_ext;
	return mb->fb_ext_seen + (size_t)(s - mb->fb) * VP__FB_MEDIUM;
}

/* Copies a message out of a fastbox slot (dst is the receiver's buffer):
 * a line at a time, then 16 bytes at a time, then the rest. On this path
 * the loop is faster than glibc's memcpy for messages of a few hundred
 * bytes and no slower for others (docs/performance.md, "Measurements
 * behind the code", says by how much and what is not known of why). */
static inline void vp__fastbox_copy_out(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	for (; n >= 64; n -= 64, d += 64, s += 64)
		__builtin_memcpy(d, s, 64);
	for (; n >= 16; n -= 16, d += 16, s += 16)
		__builtin_memcpy(d, s, 16);
	if (n)
		memcpy(d, s, n);
}

enum vp__dc_phase {
	VP__DC_NONE,
	VP__DC_POSTED,
	VP__DC_FILLING,
	VP__DC_FILLED,
};

/* What a receive takes: a queued header, a fastbox slot, or (direct) the
 * message its sender copied into the buffer the receiver lent. */
struct vp__delivery {
	struct vp__msg *m;
	struct vp__fb_slot *slot;
	int direct;
};

struct thr_world;

/* mailbox.c (vp__mailbox_get, inline, is in threads.h) */
struct vp__mailbox *vp__mailbox_lookup(struct thr_rank *me, int ctx, int src,
				       int dst, uint64_t key, int outgoing);
/* Queues m (numbering it); the sender's thread only. */
void vp__mailbox_enqueue(struct vp__mailbox *mb, struct vp__msg *m);
/* The fastbox slot for the next small message, or NULL when it is full;
 * fill it, then vp__fastbox_publish. The sender's thread only. */
struct vp__fb_slot *vp__fastbox_claim(struct vp__mailbox *mb);
/* Whether a message of n bytes may go through the fastbox: at most
 * VP__FB_MEDIUM, and past VP__FB_BYTES only once the extension is made
 * (made here, counted in me->fb_exts; 0 when there is no memory for it).
 * The sender's thread only. */
int vp__fastbox_fits(struct thr_rank *me, struct vp__mailbox *mb, size_t n);
void vp__fastbox_publish(struct vp__mailbox *mb, struct vp__fb_slot *s);
/* The next message in order: 1 and *d filled, 0 none yet, -1 one is being
 * linked (retry). The receiver's thread only. */
int vp__mailbox_take(struct vp__mailbox *mb, struct vp__delivery *d);
/* After copying out of d.slot: frees the slot for the sender. */
void vp__fastbox_release(struct vp__mailbox *mb, struct vp__fb_slot *s);
int vp__mailbox_has_message(struct vp__mailbox *mb);
void vp__mailboxes_free(struct thr_world *w);
/* Frees the mailboxes of contexts ctx_lo..ctx_hi, which nobody uses any
 * more, counting what was left unreceived in them. */
void vp__mailboxes_release(struct thr_world *w, int ctx_lo, int ctx_hi);

/* direct.c */
/* Lends buf (n bytes) for the next message of mb if it has tag `tag` (or
 * any tag); the receiver's thread only, with no loan out. With combine
 * (a reduction's receive, buf its result) the sender combines its message
 * into buf by combine->fn instead of copying it, and only a message of
 * exactly n bytes takes the loan. */
void vp__direct_lend(struct vp__mailbox *mb, void *buf, size_t n, int tag,
		     const struct vp__xcombine *combine);
/* Takes the loan back: 1, or 0 when a sender has claimed it (then the
 * message is, or will shortly be, FILLED: take it). The receiver's only. */
int vp__direct_withdraw(struct vp__mailbox *mb);
/* After vp__mailbox_take answered direct: the receiver has read dc_*. */
void vp__direct_release(struct vp__mailbox *mb);
/* Copies (or combines) the next message straight into a loan when its
 * terms allow:
 * 1 done (numbered), 0 not (send it another way). The sender's only. */
int vp__direct_fill(struct vp__mailbox *mb, int tag, const void *buf,
		    size_t n, const struct vp__envelope *env);
/* Is message number want in the direct channel? */
static inline int vp__direct_holds(struct vp__mailbox *mb, uint32_t want)
{
	return (atomic_load_explicit(&mb->dc_state, memory_order_acquire) &
		3u) == VP__DC_FILLED &&
	       atomic_load_explicit(&mb->dc_want, memory_order_relaxed) == want;
}

/* pool.c */
struct vp__msg *vp__msg_alloc(struct thr_rank *me, size_t len);
void vp__msg_release(struct vp__msg *m); /* any thread: back to its owner */
void vp__pool_free(struct thr_rank *r);

/* peer_map.c */
struct vp__peer_map;
struct vp__mailbox *vp__peer_map_find(const struct vp__peer_map *pm,
				      uint64_t key);
int vp__peer_map_put(struct vp__peer_map *pm, uint64_t key,
		     struct vp__mailbox *mb);
void vp__peer_map_free(struct vp__peer_map *pm);

#endif /* VP_RUNTIME_MAILBOX_H */
