/*
 * threads.h - the threads transport: ranks as threads of one process,
 * messages through lock-free mailboxes (mailbox.h), waiting with spin,
 * yield and a futex doorbell (wait.c), exact deadlock detection
 * (deadlock.c). Only files in threads/ include this header; the runtime
 * above sees the transport through transport.h alone.
 *
 * Ownership in one line each:
 *   thr_world  made by world_new, shared by all rank threads.
 *   thr_rank   private to its thread, except the fields marked "shared".
 *   mailbox    one per (context, source, destination), created lazily by
 *              whichever end meets it first; see mailbox.h.
 *   message    allocated from and recycled to its sender's pool (pool.c).
 *
 * Names: thr_ and THR_ are the threads transport's own (internal to
 * threads/); tw is a rank's struct thr_world (thr_rank.tw), not the
 * model's per-byte time; me the calling rank's struct thr_rank.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_THREADS_H
#define VP_THREADS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../transport.h"
#include "mailbox.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define HAVE_VALGRIND 1
#endif
#endif

/* 1 under valgrind, whose 3.19 does not know the newer system calls
 * (futex_waitv, process_madvise) and warns of each: they are not tried
 * there. 0 where valgrind's header was missing at build time. */
static inline int thr_under_valgrind(void)
{
#ifdef HAVE_VALGRIND
	return RUNNING_ON_VALGRIND != 0;
#else
	return 0;
#endif
}

#define THR_CACHELINE 64
#define THR_NCLASS 24 /* payload size classes: inline, 512 B .. 2 GiB */

_Static_assert(sizeof(struct vp__fb_slot) == 2 * THR_CACHELINE,
	       "a fastbox slot is two cache lines");

/* What a blocked rank waits for (deadlock report and verification). */
enum thr_wait_kind {
	THR_WAIT_NONE = 0,
	THR_WAIT_RECV,     /* a message in mailbox */
	THR_WAIT_RDV_DONE, /* its receiver to copy a rendezvous message */
	THR_WAIT_SET,      /* anything of its watch set (receive.c) */
	THR_WAIT_FLAG,     /* a shared flag to change (thr_wait_flag) */
};

/* waiting_on of a rank that any sender may wake (THR_WAIT_SET). */
#define THR_ANY_PEER (-2)

/* One entry of a blocked rank's watch set: a mailbox that may get a
 * message, this rank's inbox getting a new mailbox (VP_ANY_SOURCE), or a
 * lent send buffer. Atomic fields: the deadlock verifier reads them from
 * another thread while the rank is blocked. say: the request it stands for
 * (enum vp__xwait_kind + 1), or 0 for the extra mailboxes of a receive
 * from any source. */
enum thr_watch_kind { THR_W_MAILBOX, THR_W_NEW_MAILBOX, THR_W_SEND };
struct thr_watch {
	atomic_int kind, say, peer, tag;
	atomic_size_t bytes;
	atomic_uint gen;
	_Atomic(struct vp__mailbox *) mb;
	_Atomic(struct vp__msg *) rdv;
};

/* Arrays a rank outgrew: kept until the run ends, since the verifier may
 * still be reading one. */
struct thr_retired {
	struct thr_retired *next;
	void *array;
};

/* Open-addressing map (context, direction, peer) -> mailbox, rank private. */
struct vp__peer_map {
	uint64_t *keys;
	struct vp__mailbox **vals;
	size_t cap, len;
};

/* The waiting policy of one run (wait.c explains the numbers). */
struct thr_wait_policy {
	unsigned spin_long;  /* spins while the running ranks fit the CPUs */
	unsigned spin_short; /* spins when they do not */
	unsigned spin_ns;    /* the longest a spin lasts, whatever its count */
	unsigned yields;     /* hand-offs tried before parking, at least */
	unsigned yield_ns;   /* ... and more while this long has not passed */
	unsigned flag_yield_ns; /* the same for a wait at a shared flag */
	unsigned spin_poll;  /* polls of a receive before publishing a wait */
	/* 1: a rank parked at a shared flag sleeps on the flag's word too,
	 * and one FUTEX_WAKE wakes them all (wait.c, thr_wake_flag) */
	int flag_futex;
};

/* The mailboxes whose destination is one rank (mailbox.c). */
#define INBOX_MIN_BUCKETS 16
struct thr_inbox {
	pthread_mutex_t lock;
	struct vp__mailbox **buckets; /* a power of two of them */
	size_t nbuckets, count;
	atomic_uint gen; /* bumped when a mailbox is made or released */
};

struct thr_rank {
	/* shared: the doorbell. 1 = parked or about to park (counted blocked).
	 * Alone on its line: every sender to this rank reads it. */
	_Alignas(THR_CACHELINE) atomic_int bell;
	atomic_int waiting_on; /* world rank awaited, -1 none */
	atomic_int wait_kind;  /* enum thr_wait_kind */
	_Atomic(struct vp__mailbox *) wait_mb;
	_Atomic(struct vp__msg *) wait_msg;
	atomic_size_t wait_bytes;
	atomic_int wait_tag; /* the awaited message's tag, for reports */
	/* THR_WAIT_FLAG: the flag, the value it must leave, and whether the
	 * deadlock check gave the wait up (the run would hang otherwise) */
	_Atomic(atomic_int *) wait_flag;
	atomic_int wait_flag_old;
	atomic_int flag_given_up;
	atomic_int exited; /* set once the rank function returned */
	/* 1 while the rank's watch set holds its posted receives beside
	 * what it waits for (wait.c, thr_block; receive.c, thr_block_set):
	 * a message for any of them makes the wait ready, and any sender
	 * may wake it, whatever waiting_on names */
	atomic_int watch_also;
	/* fibers: wake-ups aimed at this rank, counted by every waker, so
	 * the carrier that parks it need not read its wait state once its
	 * bell is up (thr_park_finish) */
	atomic_uint pokes;

	/* shared: messages receivers hand back to this rank's pool.
	 * Own line: pushed by every receiver, popped by the owner. */
	_Alignas(THR_CACHELINE) _Atomic(struct vp__msg *) returned;

	/* private to the rank's thread from here on */
	_Alignas(THR_CACHELINE) int world_rank;
	struct thr_world *tw;
	struct vp__rank *rank; /* the runtime's rank this thread runs */
	struct vp__msg *free_list[THR_NCLASS];
	struct vp__msg *all_msgs; /* every message this pool ever made */
	size_t pool_bytes;
	uint64_t direct_sent; /* messages copied into a lent buffer */
	uint64_t fb_exts;     /* fastbox extensions made (medium messages) */
	struct vp__peer_map peers;
	/* the last mailbox looked up in each direction ([1]: as its source)
	 * and its peer map key: a ping-pong finds both here */
	uint64_t last_key[2];
	struct vp__mailbox *last_mb[2];
	pthread_t thread;
	/* messages moved: written by the rank only, read by the watchdog */
	atomic_ulong progress;
	/* receive.c: posted receives in post order; the order messages set
	 * aside were seen; the mailboxes of one context (VP_ANY_SOURCE); the
	 * mailboxes one progress pass drains */
	struct vp__xrecv *posted, *posted_tail;
	uint64_t seen;
	struct {
		int ctx;
		unsigned gen;
		struct vp__mailbox **mbs;
		int n, cap;
	} any;
	unsigned drain_pass;
	unsigned lend_pass; /* lend_posted's count (receive.c) */
	struct vp__xrecv ahead; /* the receive lent ahead (thr_lend_recv) */
	/* the receive half of an exchange: thr_lend_recv names its source
	 * (exch_next), thr_recv marks the receive while it runs (exch_recv);
	 * a medium message's receive is lent for one-way messages only */
	int exch_next, exch_ctx, exch_src;
	struct vp__xrecv *exch_recv;
	struct vp__mailbox **drain;
	int ndrain, drain_cap;
	/* shared with the verifier: what the rank waits for in THR_WAIT_SET */
	_Atomic(struct thr_watch *) watch;
	atomic_int nwatch;
	int watch_cap;
	unsigned watch_gen; /* the inbox's gen when the set was made */
	struct thr_retired *retired;
	/* fibers.c: the next rank in the run queue; why the fiber last
	 * switched to its carrier (enum thr_switch) */
	struct thr_rank *run_next;
	int switch_why;
	/* schedule.c, a seeded run: the baton's futex word (1: this rank's
	 * turn); blocked in a wait, and polling (passed over once); written
	 * by the rank, read by the baton's next holder */
	atomic_int turn;
	int sched_blocked, sched_idle, sched_poke;
	/* shared: senders to this rank find their mailboxes here */
	_Alignas(THR_CACHELINE) struct thr_inbox inbox;
};

/* The rank threads' stacks (stacks.c). Below each stack a guard of
 * THR_GUARD bytes: a frame up to that size cannot jump it. */
#define THR_GUARD ((size_t)64 << 10)
struct thr_stacks {
	char *base;   /* one mapping: p slots */
	size_t slot;  /* bytes per rank */
	size_t size;  /* the stack proper */
	size_t guard; /* THR_GUARD, in whole pages */
	int p;
	int guarded;    /* guard pages and alternate stacks in the slots */
	int markers;    /* the guards are madvise's markers, not mappings */
	int marked;     /* ... every slot's set at once (stacks.c, mark_all) */
	int watch_slot; /* the SIGSEGV handler's entry, -1 none */
};

int thr_stacks_map(struct thr_stacks *s, int p, size_t stack_size);
/* The stack of rank's thread into attr: 0, or -1 (use glibc's). */
int thr_stacks_attr(struct thr_stacks *s, int rank, pthread_attr_t *attr);
/* Rank's stack, its guard page set: 0 and *lo, *size, or -1. */
int thr_stacks_region(struct thr_stacks *s, int rank, char **lo, size_t *size);
/* A carrier thread's alternate signal stack, on (mem: THR_ALT_STACK bytes)
 * and off with thr_stacks_leave. */
#define THR_ALT_STACK ((size_t)16 << 10)
void thr_stacks_enter_alt(const struct thr_stacks *s, void *mem);
/* In the rank's thread: its alternate signal stack on, and off. */
void thr_stacks_enter(const struct thr_stacks *s, int rank);
void thr_stacks_leave(const struct thr_stacks *s);
void thr_stacks_unmap(struct thr_stacks *s);
/* Why only started of p threads could start (err from pthread_create). */
void thr_stacks_why(const struct thr_stacks *s, int started, int err, char *buf,
		    size_t len);

/* Messages left in mailboxes released before the run's end. */
#define THR_RELEASED_NAMED 4
struct thr_released {
	pthread_mutex_t lock;
	uint64_t messages;
	int npairs;
	struct vp__unreceived first[THR_RELEASED_NAMED];
};

/* Ranks as fibers (fibers.c): user-level contexts that carrier threads,
 * one per CPU, switch inside vp's blocking calls. */
struct thr_fiber;
struct thr_carrier;
struct thr_fibers {
	int ncarriers, started;
	struct thr_carrier *carriers;
	struct thr_fiber *fiber; /* fiber[r]: rank r's context */
	/* The idle carriers (the run queues are the carriers', fibers.c):
	 * lines of their own, away from what each message reads. */
	_Alignas(THR_CACHELINE) pthread_mutex_t lock;
	pthread_cond_t idle;
	atomic_int sleeping; /* carriers waiting for work */
	int done;            /* every rank has exited */
};

struct thr_world {
	struct vp__world *w;
	int p;
	int ncpu;
	int fibers; /* 1: ranks are fibers on carrier threads (fibers.c) */
	struct thr_fibers fib;
	_Alignas(THR_CACHELINE) size_t eager_max; /* read-mostly from here */
	size_t stack_size;
	struct thr_wait_policy wait;
	/* a seeded run's schedule (schedule.c), NULL when the ranks run
	 * freely; its list of ready ranks, and the fiber to run next */
	struct vp__sched *sched;
	int *sched_runq, *sched_pos, *sched_poked;
	int sched_nrun, sched_npoked, sched_swept, sched_started;
	struct thr_rank *sched_next;
	/* 1 while a start that has lasted goes on (transport.c, run): a
	 * rank that waits then parks at once (wait.c) */
	atomic_int starting;
	atomic_int unstarted; /* rank threads not yet running */
	struct thr_rank *ranks;
	struct thr_released released;
	struct thr_stacks stacks;
	double watchdog; /* seconds without progress; 0: off */
	pthread_t watch_thread;
	atomic_int watch_stop;
	/* the watchdog naps on watch_cond; thr_watchdog_stop wakes it */
	pthread_mutex_t watch_lock;
	pthread_cond_t watch_cond;

	/* Deadlock detection counters (wait.c, deadlock.c). */
	_Alignas(THR_CACHELINE) atomic_int blocked;
	atomic_int alive;
	atomic_ulong epoch; /* bumped by every unblock */
	pthread_mutex_t verify_lock;
};

/* wait.c: blocking with spin, yield and park; lost-wake-up free. A rank
 * with receives posted keeps them progressing while it waits (MPI's
 * progress rule): it returns only once what it waits for is true. */
int thr_block(struct thr_rank *me, enum thr_wait_kind kind, int peer,
	      int tag,
	      struct vp__mailbox *mb, struct vp__msg *msg, size_t bytes);
void thr_wake(struct thr_world *w, int target, int waker);
/* rdv_copy.c: a rendezvous message copied by both ends. The receiver,
 * before it claims m, offers the copy (or combine) into r to share; after
 * claiming, copies from the front and waits for the sender's share. The
 * sender, waiting while m is CLAIMED, copies from the back. */
void vp__rdv_share(struct vp__msg *m, const struct vp__xrecv *r);
void vp__rdv_copy_front(struct vp__msg *m);
void vp__rdv_copy_back(struct vp__msg *m);
/* A receiver about to copy sender's rendezvous message wakes it if it has
 * parked and a CPU is free for it: it then spins until the copy ends
 * (wait.c, copy_under_way). */
void thr_wake_for_copy(struct thr_world *w, int sender, int receiver);
void thr_wake_all(struct thr_world *w);
int thr_wait_ready(struct thr_rank *r);
/* Polls to try before blocking: the policy's spin_poll while the running
 * ranks fit on the CPUs, else 0. */
unsigned thr_poll_budget(struct thr_world *w);
/* Nanoseconds since *t0 (CLOCK_MONOTONIC). */
unsigned long thr_since_ns(const struct timespec *t0);
void thr_idle(void *tx); /* transport op: a test found nothing done */
/* transport ops wait_flag and wake_rank (wait.c) */
int thr_wait_flag(void *tx, atomic_int *flag, int old);
void thr_wake_rank(void *tx, int target, atomic_int *flag);
void thr_wake_flag(void *tx, atomic_int *flag);
int thr_none_parked(void *tx);
int thr_crowded(void *tx);
/* deadlock.c's way out for ranks waiting on a flag: gives each such wait
 * up and wakes it; how many there were. */
int thr_give_up_flags(struct thr_world *w);
/* The policy of a run: wait.c's defaults, VP_SPIN_LONG, VP_SPIN_SHORT,
 * VP_YIELDS, VP_YIELD_NS and VP_SPIN_POLL in the environment override them
 * (read once per run, for tuning sweeps). */
void thr_wait_policy_init(struct thr_wait_policy *p, int fibers);
/* Grows the kernel's futex table of this process to a slot a waiter
 * (wait.c). */
void thr_futex_table_fit(int waiters);

/* receive.c: the receive side of the transport's operations */
int thr_recv(void *tx, int ctx, int src, int tag, void *buf, size_t n,
	     size_t *len, struct vp__envelope *env, int *got_src, int *got_tag);
int thr_recv_combine(void *tx, int ctx, int src, int tag,
		     const struct vp__xcombine *x, size_t n, size_t *len,
		     struct vp__envelope *env, int *got_src, int *got_tag);
int thr_post_recv(void *tx, struct vp__xrecv *r);
int thr_progress(void *tx);
void thr_cancel_recv(void *tx, struct vp__xrecv *r);
int thr_send_done(void *tx, void *pending);
int thr_block_set(void *tx, const struct vp__xwait *w, int n);
int thr_probe(void *tx, int ctx, int src, int tag, int blocking, int *found,
	      struct vp__xprobe *out);
void thr_lend_recv(void *tx, int ctx, int src, int tag, void *buf, size_t n,
		   const struct vp__xcombine *x);
void thr_unlend_recv(void *tx, int ctx, int src);
/* Whether the caller's receive from peer on ctx is lent ahead (the send
 * now leaving is the first half of an exchange with peer). */
int thr_exchanging(struct thr_rank *me, int ctx, int peer);
/* The watch set made of the caller's posted receives alone (thr_block
 * waits for them beside its own condition): their number, or VP_ENOMEM. */
int thr_watch_posted(struct thr_rank *me);
/* Is something of r's watch set ready? (any thread) */
int thr_watch_ready(struct thr_rank *r);
/* The watch set in words, for a deadlock report. */
void thr_watch_describe(struct thr_rank *r, char *buf, size_t len);
void thr_receive_free(struct thr_rank *r);

/* The mailbox of (ctx, src -> dst), one end being this rank, made on first
 * use; NULL when there is no memory. The last one looked up in each
 * direction is checked here, inline (a ping-pong finds both there); the
 * rank's peer map and the registry only when that misses (mailbox.c). */
static inline struct vp__mailbox *vp__mailbox_get(struct thr_rank *me,
						  int ctx, int src, int dst)
{
	/* the key: the context, and the other end of the pair with a bit
	 * saying whether we are its source or its destination */
	int outgoing = src == me->world_rank;
	int peer = outgoing ? dst : src;
	uint64_t key = ((uint64_t)(uint32_t)ctx << 32) |
		       ((uint64_t)outgoing << 31) | (uint32_t)peer;

	if (me->last_mb[outgoing] && me->last_key[outgoing] == key)
		return me->last_mb[outgoing];
	return vp__mailbox_lookup(me, ctx, src, dst, key, outgoing);
}

/* One more message moved (the watchdog reads it). */
static inline void thr_count_progress(struct thr_rank *me)
{
	atomic_store_explicit(
	    &me->progress,
	    atomic_load_explicit(&me->progress, memory_order_relaxed) + 1,
	    memory_order_relaxed);
}

/* fibers.c: ranks as fibers. run starts the carriers and returns when
 * every rank has exited. park: the calling fiber gives its carrier away
 * until thr_fiber_ready makes it runnable (its bell protocol is wait.c's,
 * finished on the carrier once the fiber's context is saved). yield: to
 * the back of the run queue. */
int thr_fibers_run(struct thr_world *w);
void thr_fiber_park(struct thr_rank *me);
void thr_fiber_yield(struct thr_rank *me);
void thr_fiber_ready(struct thr_world *w, struct thr_rank *r);
/* wait.c: the park's second half, on the carrier: counts r blocked, checks
 * for a deadlock, and makes r ready again when its condition already
 * holds or the run is failing. */
void thr_park_finish(struct thr_rank *r);
void thr_rank_exit(struct thr_rank *r); /* transport.c */

/* schedule.c: a seeded run's ranks one at a time. pick: the next rank
 * (NULL: all have ended), reporting a deadlock when none can run; me the
 * rank at its scheduling point or NULL. point: a scheduling point of a
 * running rank; idle: of a rank polling in vain; block: of a rank whose
 * wait's condition is false (returns when it runs again); leave: the
 * baton goes on after a rank thread's end. give/take: the baton of rank
 * threads. */
int thr_sched_init(struct thr_world *w);
void thr_sched_free(struct thr_world *w);
struct thr_rank *thr_sched_pick(struct thr_world *w, struct thr_rank *me);
void thr_sched_poke(struct thr_world *w, struct thr_rank *r);
void thr_sched_gone(struct thr_rank *r);
void thr_sched_point(struct thr_rank *me);
void thr_sched_idle(struct thr_rank *me);
void thr_sched_block(struct thr_rank *me);
void thr_sched_leave(struct thr_rank *me);
void thr_sched_give(struct thr_rank *to);
void thr_sched_take(struct thr_rank *me);
/* fibers.c: the fiber me switches to w->sched_next (through its carrier). */
void thr_fiber_switch(struct thr_rank *me);
/* receive.c: the progress op, a scheduling point first */
int thr_progress_point(void *tx);

/* deadlock.c */
void thr_deadlock_check(struct thr_rank *me);
/* Fails the run with the report of what each rank waits for (the run
 * must be deadlocked: no rank can ever run again). */
void thr_deadlock_report(struct thr_world *w);
/* One line on what blocked rank r waits for; stable: r cannot wake
 * meanwhile (a deadlock is verified). */
const char *thr_describe(struct thr_rank *r, int stable, char *buf, size_t len);

/* watchdog.c: 1 started, 0 not asked for, -1 could not start. */
int thr_watchdog_start(struct thr_world *w);
void thr_watchdog_stop(struct thr_world *w, int started);

/* peer_map.c */
struct vp__mailbox *vp__peer_map_find(const struct vp__peer_map *pm,
				      uint64_t key);
int vp__peer_map_put(struct vp__peer_map *pm, uint64_t key,
		     struct vp__mailbox *mb);
void vp__peer_map_free(struct vp__peer_map *pm);
/* Drops the entries of contexts ctx_lo..ctx_hi (their mailboxes go). */
void vp__peer_map_forget(struct vp__peer_map *pm, int ctx_lo, int ctx_hi);

#endif /* VP_THREADS_H */
