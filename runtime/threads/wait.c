/*
 * wait.c - how a rank waits: spin, then yield, then park on its doorbell.
 *
 * The policy follows from what a wait costs on a machine whose ranks
 * outnumber its CPUs: a cache line moves between CPUs in about 0.1 us, a
 * sched_yield hand-off on one CPU takes about 1 us, and a futex wake costs
 * a few us on the same CPU but tens of us when it must wake an idle one
 * (vp-bench measures each; docs/performance.md, "How a rank waits", gives
 * the figures and the runs that chose the limits below):
 *   - While the running ranks (alive - blocked) fit on the CPUs, the peer we
 *     wait for is probably running right now: spin long (up to the cost of
 *     a cross-CPU wake), then yield a few times, then park. Spinning
 *     shorter than the wake cost is bistable: every wait would pay the
 *     wake.
 *   - When ranks outnumber CPUs, the peer needs our CPU to make progress:
 *     do not spin, yield twice and then for up to about a wake's cost,
 *     then park, which takes us off the run queue. A yield loop without a
 *     bound collapses at thousands of ranks; parking at once leaves a
 *     partner on the other CPU paying a cross-CPU wake every round. The
 *     budget is time, not a count: with many ranks runnable one yield
 *     outlasts it.
 *   - A wait for a shared flag (the collectives without messages,
 *     coll_sync.c: every rank waits for the last to arrive) yields longer
 *     before it parks: the last arrival is usually a few dozen us away,
 *     and a parked rank costs a wake. Each rank keeps its own bell there
 *     too, and the last arrival skips the bells when no rank is parked.
 * The limits are SPIN_LONG, SPIN_SHORT, YIELDS, YIELD_NS and FLAG_YIELD_NS
 * below, per run in struct thr_wait_policy; a tuning run sets them in the
 * environment (VP_SPIN_LONG, ..., read strictly).
 *
 * Lost-wake-up freedom: the waiter publishes what it waits for, sets its bell
 * to 1 with a seq_cst exchange, re-checks, and only then sleeps with
 * FUTEX_WAIT(bell, 1). A waker first makes the condition true with a full
 * barrier (enqueue's exchange; the fastbox slot, the direct channel's FILLED
 * and the rendezvous DONE are seq_cst stores: a release store alone would
 * let the bell's load pass it, and both sides would miss), then loads the
 * bell;
 * only when it is 1 and the waiter waits for this waker does it exchange the
 * bell to 0 and FUTEX_WAKE. Either the waiter's re-check sees the condition
 * or the waker sees the bell: no system call on the fast path, no lost wake.
 * A wait at a shared flag sleeps on the flag's word as well, and its waker
 * takes the bell down without a FUTEX_WAKE of its own, then wakes every
 * sleeper at the flag with one (thr_wake_rank, thr_wake_flag, below).
 *
 * Counting for deadlock detection: the rank that flips its bell 0->1 counts
 * itself blocked; whoever flips it 1->0 uncounts it and bumps the epoch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "threads.h"

/* The defaults (the policy above; docs/performance.md has the runs). */
#define SPIN_LONG 20000 /* ~ 40-60 us of pause: above a cross-CPU wake */
#define SPIN_SHORT 0    /* any spin here costs (above) */
#define SPIN_NS 60000   /* and no longer than 60 us, whatever a pause costs */
#define YIELDS 2        /* hand-offs tried before parking, at least */
#define YIELD_NS 30000  /* and for 30 us: below a cross-CPU wake (below) */
#define FLAG_YIELD_NS 300000 /* a wait at a shared flag: 300 us (above) */
/* Polls of a receive's own mailbox before thr_block publishes what the rank
 * waits for: the published fields share the doorbell's line, which every
 * sender reads, so a short wait is cheaper without them (~2 us). */
#define SPIN_POLL 1000

static unsigned env_or(const char *name, unsigned dflt)
{
	const char *s = getenv(name);

	return s && *s ? (unsigned)strtoul(s, NULL, 10) : dflt;
}

/*
 * A wait at a shared flag (the collectives without messages, coll_sync.c)
 * sleeps on two words at once, its bell and the flag (futex_waitv, Linux
 * 5.16), so that the last arrival, having uncounted the sleepers, wakes
 * them all with one FUTEX_WAKE on the flag instead of a system call for
 * each: with thousands of ranks on a few CPUs a loop of wake-ups is
 * preempted by the ranks it wakes, one at a time. Where
 * the kernel lacks the call (ENOSYS; valgrind 3.19 does not know it
 * either), or the ranks are fibers, each sleeper is woken by a system
 * call of its own; VP_FLAG_FUTEX=0 asks for that too.
 */
#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449 /* x86-64 and arm64 alike */
#endif
#define WAITV_U32 2         /* FUTEX_32: a 32-bit word */
#define WAITV_PRIVATE 128   /* FUTEX_PRIVATE_FLAG */

/* The kernel's struct futex_waitv (linux/futex.h), spelt out for older
 * headers. */
struct thr_futex_waitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

static int futex_waitv_works(void)
{
	if (thr_under_valgrind())
		return 0;
	/* no words to wait on: EINVAL where the call exists */
	return syscall(SYS_futex_waitv, NULL, 0, 0, NULL, 0) == -1 &&
	       errno == EINVAL;
}

void thr_wait_policy_init(struct thr_wait_policy *p, int fibers)
{
	p->flag_futex = !fibers && env_or("VP_FLAG_FUTEX", 1) &&
			futex_waitv_works();
	p->spin_long = env_or("VP_SPIN_LONG", SPIN_LONG);
	p->spin_short = env_or("VP_SPIN_SHORT", SPIN_SHORT);
	p->spin_ns = env_or("VP_SPIN_NS", SPIN_NS);
	p->yields = env_or("VP_YIELDS", YIELDS);
	p->yield_ns = env_or("VP_YIELD_NS", YIELD_NS);
	p->flag_yield_ns = env_or("VP_FLAG_YIELD_NS", FLAG_YIELD_NS);
	p->spin_poll = env_or("VP_SPIN_POLL", SPIN_POLL);
}

/*
 * The kernel's table of futex waiters. Since Linux 6.17 a process that
 * starts a thread gets a private table sized for its CPUs, 16 slots on
 * a 2-CPU machine, and every FUTEX_WAKE walks the list of its slot: with
 * 32,000 ranks parked that is 2,000 waiters a slot. Before its ranks
 * start, a run asks for a slot per rank (64 bytes each; prctl
 * PR_FUTEX_HASH, which only grows the table here, never shrinks what the
 * process has). Older kernels refuse the call (EINVAL) and
 * use one global table, sized at boot; nothing changes there.
 */
#ifndef PR_FUTEX_HASH
#define PR_FUTEX_HASH 78
#define PR_FUTEX_HASH_SET_SLOTS 1
#define PR_FUTEX_HASH_GET_SLOTS 2
#endif
#define FUTEX_SLOTS_MAX (1 << 20) /* 64 MiB of kernel memory at most */

void thr_futex_table_fit(int waiters)
{
	long have = prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_GET_SLOTS, 0, 0, 0);
	long want = 16;

	while (want < waiters && want < FUTEX_SLOTS_MAX)
		want *= 2;
	/* 0: no thread was started yet (the kernel makes its small table
	 * at the first) or the process chose the global table */
	if (have >= 0 && have < want)
		prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_SET_SLOTS, want, 0, 0);
}

static void futex_wait(atomic_int *addr, int val)
{
	syscall(SYS_futex, (int *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *addr)
{
	syscall(SYS_futex, (int *)addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Whether r waits at flag (for the waker of flag: r cannot wait at it
 * again before the waker arrives at the group's next call). */
static int waits_at(struct thr_rank *r, atomic_int *flag)
{
	return atomic_load_explicit(&r->wait_kind, memory_order_relaxed) ==
		   THR_WAIT_FLAG &&
	       atomic_load_explicit(&r->wait_flag, memory_order_relaxed) ==
		   flag;
}

/* Sleeps while the bell is 1; at a shared flag, also until the flag's
 * word leaves old or a FUTEX_WAKE on it (thr_wake_flag). */
static void sleep_on_bell(struct thr_rank *me, enum thr_wait_kind kind)
{
	if (kind == THR_WAIT_FLAG && me->tw->wait.flag_futex) {
		struct thr_futex_waitv v[2] = {
			{ 1, (uintptr_t)&me->bell, WAITV_U32 | WAITV_PRIVATE,
			  0 },
			{ (uint32_t)atomic_load_explicit(&me->wait_flag_old,
							 memory_order_relaxed),
			  (uintptr_t)atomic_load_explicit(
			      &me->wait_flag, memory_order_relaxed),
			  WAITV_U32 | WAITV_PRIVATE, 0 },
		};
		syscall(SYS_futex_waitv, v, 2, 0, NULL, 0);
	} else {
		futex_wait(&me->bell, 1);
	}
}

/* Whether what r waits for itself holds (its posted receives aside). */
static int own_ready(struct thr_rank *r)
{
	struct vp__mailbox *mb;
	struct vp__msg *m;

	switch (atomic_load_explicit(&r->wait_kind, memory_order_relaxed)) {
	case THR_WAIT_RECV:
		mb = atomic_load_explicit(&r->wait_mb, memory_order_relaxed);
		return vp__mailbox_has_message(mb);
	case THR_WAIT_RDV_DONE:
		m = atomic_load_explicit(&r->wait_msg, memory_order_relaxed);
		return atomic_load(&m->rdv_state) == VP__RDV_DONE;
	case THR_WAIT_SET:
		return thr_watch_ready(r);
	case THR_WAIT_FLAG:
		return atomic_load(atomic_load_explicit(
			   &r->wait_flag, memory_order_relaxed)) !=
			   atomic_load_explicit(&r->wait_flag_old,
						memory_order_relaxed) ||
		       atomic_load(&r->flag_given_up);
	}
	return 1;
}

int thr_wait_ready(struct thr_rank *r)
{
	if (own_ready(r))
		return 1;
	/* a message for one of its posted receives: r must take it */
	return atomic_load(&r->watch_also) &&
	       atomic_load_explicit(&r->wait_kind, memory_order_relaxed) !=
		   THR_WAIT_SET &&
	       thr_watch_ready(r);
}

/* Flips r's bell 1->0 if it is 1; the flipper uncounts r and, asked to
 * wake it, wakes its thread, or queues its fiber to run (fibers.c: a
 * fiber's bell is 1 only while it is switched out). */
static void unblock(struct thr_world *w, struct thr_rank *r, int wake)
{
	if (atomic_exchange(&r->bell, 0) == 1) {
		atomic_fetch_add(&w->epoch, 1);
		atomic_fetch_sub(&w->blocked, 1);
		if (wake && w->fibers)
			thr_fiber_ready(w, r);
		else if (wake)
			futex_wake(&r->bell);
	}
}

void thr_wake(struct thr_world *w, int target, int waker)
{
	struct thr_rank *r = &w->ranks[target];

	int on;

	if (w->sched) { /* a seeded run's next pick looks at r */
		thr_sched_poke(w, r);
		return;
	}
	if (w->fibers) /* after the caller's condition, before the bell */
		atomic_fetch_add(&r->pokes, 1);
	if (atomic_load(&r->bell) != 1)
		return;
	on = atomic_load(&r->waiting_on);
	if (on != waker && on != THR_ANY_PEER && !atomic_load(&r->watch_also))
		return;
	unblock(w, r, 1);
}

void thr_wake_all(struct thr_world *w)
{
	int i;

	for (i = 0; i < w->p; i++)
		unblock(w, &w->ranks[i], 1);
}

unsigned long thr_since_ns(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long)((t.tv_sec - t0->tv_sec) * 1000000000L +
			       (t.tv_nsec - t0->tv_nsec));
}

static int running_fits(struct thr_world *w)
{
	int running = atomic_load_explicit(&w->alive, memory_order_relaxed) -
		      atomic_load_explicit(&w->blocked, memory_order_relaxed);

	return running <= w->ncpu;
}

/* More ranks are running than there are CPUs: a rank polling in a test
 * loop gives its CPU away (as Open MPI's mpi_yield_when_idle), or the
 * sender it waits for may wait a whole time slice to run. */
void thr_idle(void *tx)
{
	struct thr_rank *me = tx;

	if (me->tw->sched)
		thr_sched_idle(me);
	else if (me->tw->fibers) /* no one else runs on this carrier else */
		thr_fiber_yield(me);
	else if (!running_fits(me->tw))
		sched_yield();
}

unsigned thr_poll_budget(struct thr_world *w)
{
	if (w->sched) /* the rank polled for cannot run meanwhile */
		return 0;
	return running_fits(w) ? w->wait.spin_poll : 0;
}

/* Sets r's bell to 1; the rank that flips it 0->1 counts r blocked, and
 * when that leaves no rank running, checks for a deadlock. */
static void ring_bell(struct thr_rank *r)
{
	struct thr_world *w = r->tw;

	if (atomic_exchange(&r->bell, 1) == 0) {
		int b = atomic_fetch_add(&w->blocked, 1) + 1;
		if (b >= atomic_load(&w->alive))
			thr_deadlock_check(r);
	}
}

static int status_code(struct thr_world *w)
{
	return vp__world_status(w->w);
}

/*
 * A sender waiting for its rendezvous message while the receiver copies
 * it (CLAIMED): the copy is running on another CPU and ends within its
 * length over the memory's bandwidth, so the sender takes a share of the
 * copy (rdv_copy.c), then spins until it ends instead of yielding and
 * parking, while the running ranks fit on the CPUs (never with fibers,
 * whose carrier has other ranks to run). A receiver that claims a
 * message whose sender has parked wakes it before it copies
 * (thr_wake_for_copy), so that the wake-up, tens of microseconds to an
 * idle virtual CPU, overlaps the copy instead of following it.
 */
static int copy_under_way(struct thr_rank *me, enum thr_wait_kind kind,
			  struct vp__msg *msg)
{
	return kind == THR_WAIT_RDV_DONE && !me->tw->fibers && !me->tw->sched &&
	       atomic_load_explicit(&msg->rdv_state, memory_order_relaxed) ==
		   VP__RDV_CLAIMED &&
	       running_fits(me->tw);
}

void thr_wake_for_copy(struct thr_world *w, int sender, int receiver)
{
	int running = atomic_load_explicit(&w->alive, memory_order_relaxed) -
		      atomic_load_explicit(&w->blocked, memory_order_relaxed);

	/* the sender would spin beside this copy: only with a CPU for it */
	if (!w->fibers && running < w->ncpu)
		thr_wake(w, sender, receiver);
}

/* A seeded run's wait: the others run while this rank cannot
 * (schedule.c); no bell, no spin. 0 once ready, or the run's error. */
static int sched_wait(struct thr_rank *me)
{
	int rc;

	while (!thr_wait_ready(me)) {
		if ((rc = status_code(me->tw)))
			return rc;
		thr_sched_block(me);
	}
	return 0;
}

/* block_once's result when only a posted receive's message woke it. */
#define WOKEN_FOR_POSTED 1

/* Publishes what the rank waits for, which the deadlock check and its
 * wakers read; waiting_on last, seq_cst (the lost-wake-up rule above). */
static void announce_wait(struct thr_rank *me, enum thr_wait_kind kind,
			  int peer, int tag, struct vp__mailbox *mb,
			  struct vp__msg *msg, size_t bytes)
{
	atomic_store_explicit(&me->wait_mb, mb, memory_order_relaxed);
	atomic_store_explicit(&me->wait_msg, msg, memory_order_relaxed);
	atomic_store_explicit(&me->wait_bytes, bytes, memory_order_relaxed);
	atomic_store_explicit(&me->wait_tag, tag, memory_order_relaxed);
	atomic_store_explicit(&me->wait_kind, kind, memory_order_relaxed);
	atomic_store(&me->waiting_on, peer);
}

/* The rank waits for nothing any more (announce_wait undone). */
static void withdraw_wait(struct thr_rank *me)
{
	atomic_store_explicit(&me->wait_kind, THR_WAIT_NONE,
			      memory_order_relaxed);
	atomic_store(&me->waiting_on, -1);
}

/* Woken (or come) while the receiver copies the rendezvous message: the
 * rank counts as running again, takes its share of the copy unless it
 * has (*helped), and spins to the copy's end; returns the world's status
 * when that stops the run first, else 0. */
static int spin_through_copy(struct thr_rank *me, enum thr_wait_kind kind,
			     struct vp__msg *msg, int *helped)
{
	struct thr_world *w = me->tw;
	unsigned i;
	int rc;

	unblock(w, me, 0);
	if (!*helped)
		vp__rdv_copy_back(msg);
	*helped = 1;
	for (i = 0; copy_under_way(me, kind, msg); i++) {
		if ((i & 255) == 255 && (rc = status_code(w)))
			return rc;
		caa_cpu_relax();
	}
	return 0;
}

/* Whether a waiting rank yields its CPU once more rather than park, and
 * counts it in *yields: the first wait.yields yields are not timed (most
 * waits of a crowded run end within them, and a clock read costs a cold
 * line of the VM's clock page at every rank's turn); then it yields while
 * yield_ns have not passed since the first timed one (*t0). */
static int yield_again(const struct thr_world *w, unsigned *yields,
		       unsigned yield_ns, struct timespec *t0)
{
	if (*yields == w->wait.yields && yield_ns)
		clock_gettime(CLOCK_MONOTONIC, t0);
	if (*yields < w->wait.yields ||
	    (yield_ns && thr_since_ns(t0) < yield_ns)) {
		(*yields)++;
		return 1;
	}
	return 0;
}

/* Every 256th spin of a wait: the run's failure, if any; else the spin
 * is cut short (*spins) once wait.spin_ns have passed since the 256th
 * (*s0). A pause costs ten times more on some CPUs than on others, and a
 * spin's count alone would then hold the CPU that the awaited rank, or
 * another process, needs. */
static int spin_check(struct thr_world *w, unsigned i, unsigned *spins,
		      struct timespec *s0)
{
	if (i == 255)
		clock_gettime(CLOCK_MONOTONIC, s0);
	else if (i < *spins && thr_since_ns(s0) >= w->wait.spin_ns)
		*spins = i + 1;
	return status_code(w);
}

/* A fiber waits parked by the carrier (thr_park_finish), resumed once
 * something flipped the bell back: 1 once it is ready, 0 with *rc the
 * run's failure. */
static int park_until_ready(struct thr_rank *me, int *rc)
{
	for (;;) {
		if (thr_wait_ready(me))
			return 1;
		if ((*rc = status_code(me->tw)))
			return 0;
		thr_fiber_park(me);
	}
}

static int block_once(struct thr_rank *me, enum thr_wait_kind kind, int peer,
		      int tag, struct vp__mailbox *mb, struct vp__msg *msg,
		      size_t bytes)
{
	struct thr_world *w = me->tw;
	unsigned i, spins, yields = 0;
	unsigned yield_ns = kind == THR_WAIT_FLAG ? w->wait.flag_yield_ns
						 : w->wait.yield_ns;
	struct timespec t0 = { 0, 0 }, s0 = { 0, 0 };
	int rc, helped = 0;

	announce_wait(me, kind, peer, tag, mb, msg, bytes);
	if (w->sched && (rc = sched_wait(me))) /* no bell, no spin */
		goto stop;
	if (w->sched)
		goto ready;
	spins = running_fits(w) ? w->wait.spin_long : w->wait.spin_short;
	/* a start that lasts: this rank may wait for ranks not made yet,
	 * and its spins and yields would take the CPU of the thread making
	 * them; it parks at once (transport.c, run) */
	if (atomic_load_explicit(&w->starting, memory_order_relaxed)) {
		spins = 0;
		yields = UINT_MAX; /* past the untimed ones */
		yield_ns = 0;
	}
	for (i = 0; i < spins || copy_under_way(me, kind, msg); i++) {
		if (thr_wait_ready(me))
			goto ready;
		if (!helped && copy_under_way(me, kind, msg)) {
			vp__rdv_copy_back(msg); /* a share of the copy */
			helped = 1;
		}
		if ((i & 255) == 255 && (rc = spin_check(w, i, &spins, &s0)))
			goto stop;
		caa_cpu_relax();
	}
	if (spins && thr_wait_ready(me)) /* a copy spun past the spins */
		goto ready;
	if (w->fibers)
		goto park;
	for (;;) {
		/* woken (or come) while the receiver copies: spin to its end */
		if (copy_under_way(me, kind, msg)) {
			if ((rc = spin_through_copy(me, kind, msg, &helped)))
				goto stop;
			if (thr_wait_ready(me))
				goto ready;
		}
		if (yield_again(w, &yields, yield_ns, &t0)) {
			sched_yield();
			if (thr_wait_ready(me))
				goto ready;
			continue;
		}
		ring_bell(me);
		if (thr_wait_ready(me)) {
			unblock(w, me, 0);
			goto ready;
		}
		if ((rc = status_code(w))) {
			unblock(w, me, 0);
			goto stop;
		}
		sleep_on_bell(me, kind);
		/* Woken (or spurious): look before re-arming the bell, so a
		 * real wake-up does not count us blocked again. */
		if (thr_wait_ready(me)) {
			unblock(w, me, 0);
			goto ready;
		}
	}
park:
	if (!park_until_ready(me, &rc))
		goto stop;
ready:
	rc = own_ready(me) ? VP_OK : WOKEN_FOR_POSTED;
stop:
	withdraw_wait(me);
	return rc;
}

/*
 * A rank with receives posted may wait for something else (its own
 * rendezvous or synchronous send, a receive, a shared flag) while a sender
 * waits for one of those receives to take its message. MPI's progress
 * rule (MPI 4.0, sec. 3.5) says the sender's send completes: a posted
 * receive makes the message deliverable without its program calling
 * anything. So such a wait watches the posted receives' mailboxes too
 * (watch_also, thr_watch_posted): a message there wakes the rank, which
 * takes it (thr_progress: matched, copied, a rendezvous sender released)
 * and waits again. The deadlock check reads the same condition, so a
 * rank with a deliverable message for a posted receive is never counted
 * as stuck, while the report still names what the rank itself waits for.
 * Each pass empties the watched mailboxes, so the rank sleeps between
 * messages rather than spinning on one it cannot use.
 */
int thr_block(struct thr_rank *me, enum thr_wait_kind kind, int peer, int tag,
	      struct vp__mailbox *mb, struct vp__msg *msg, size_t bytes)
{
	int rc;

	/* thr_block_set watched them already; a direct receive runs only
	 * while no receive is posted (receive.c, recv_blocking) */
	if (kind == THR_WAIT_SET || kind == THR_WAIT_RECV)
		return block_once(me, kind, peer, tag, mb, msg, bytes);
	for (;;) {
		/* a failing run's posted buffers may be gone: no progress */
		if (me->posted && !status_code(me->tw)) {
			if ((rc = thr_progress(me)) < 0 ||
			    (rc = thr_watch_posted(me)) < 0)
				return rc;
			atomic_store(&me->watch_also, rc > 0);
		}
		rc = block_once(me, kind, peer, tag, mb, msg, bytes);
		atomic_store(&me->watch_also, 0);
		if (rc != WOKEN_FOR_POSTED)
			return rc;
	}
}

/*
 * The carrier's half of parking fiber r, which has switched out. While its
 * bell is 0 no waker queues r, so its wait state and the mailbox it waits
 * on are safe to read: look first. Once the bell is up, a waker may queue
 * r and another carrier run it on, past its wait, to a vp_comm_free that
 * frees that mailbox; so the re-check after the bell reads only r's poke
 * count and the run's status. A waker makes its condition true, then
 * counts a poke, then loads the bell (all seq_cst): either the poke is
 * seen here, or the waker sees the bell up and unblocks r itself.
 */
void thr_park_finish(struct thr_rank *r)
{
	struct thr_world *w = r->tw;
	unsigned pokes = atomic_load(&r->pokes);

	if (thr_wait_ready(r)) {
		thr_fiber_ready(w, r);
		return;
	}
	ring_bell(r);
	if (atomic_load(&r->pokes) != pokes || status_code(w))
		unblock(w, r, 1);
}

/*
 * Waits until *flag is no longer old (the barrier that sends no messages,
 * coll_sync.c): 0 then; 1 when the deadlock check gave the wait up
 * because every rank was blocked (the caller then sends its messages, so
 * that a report shows what the messages would have shown); or the run's
 * error. The waker stores the flag (seq_cst) before it looks at the bell,
 * as every waker does (above).
 */
int thr_wait_flag(void *tx, atomic_int *flag, int old)
{
	struct thr_rank *me = tx;
	int rc;

	atomic_store_explicit(&me->wait_flag, flag, memory_order_relaxed);
	atomic_store_explicit(&me->wait_flag_old, old, memory_order_relaxed);
	while (atomic_load(flag) == old) {
		if (atomic_exchange(&me->flag_given_up, 0))
			return 1;
		if ((rc = thr_block(me, THR_WAIT_FLAG, THR_ANY_PEER, 0, NULL,
				    NULL, 0)))
			return rc;
	}
	atomic_store(&me->flag_given_up, 0);
	return 0;
}

/*
 * After flag changed: a rank asleep at flag is uncounted here and woken by
 * thr_wake_flag's one FUTEX_WAKE; any other is woken now. The bell's
 * exchange synchronizes with the waiter's own (seq_cst), so the second
 * look at what it waits for sees a wait it rang for since the first look;
 * it is woken at once there, as that wait's waker would find its bell
 * already down.
 */
void thr_wake_rank(void *tx, int target, atomic_int *flag)
{
	struct thr_rank *me = tx;
	struct thr_world *w = me->tw;
	struct thr_rank *r = &w->ranks[target];

	if (!w->wait.flag_futex || !waits_at(r, flag)) {
		thr_wake(w, target, me->world_rank);
		return;
	}
	if (atomic_exchange(&r->bell, 0) != 1)
		return;
	atomic_fetch_add(&w->epoch, 1);
	atomic_fetch_sub(&w->blocked, 1);
	if (!waits_at(r, flag))
		futex_wake(&r->bell);
}

void thr_wake_flag(void *tx, atomic_int *flag)
{
	struct thr_rank *me = tx;

	if (me->tw->wait.flag_futex)
		syscall(SYS_futex, (int *)flag, FUTEX_WAKE_PRIVATE, INT_MAX,
			NULL, NULL, 0);
}

/*
 * 1 when no thread of the run is parked or about to park, so that a waker
 * whose flag is already stored need not look at each waiter's bell (at
 * p = 64 the last arrival of a meeting would read 63 bells, lines their
 * waiters wrote, about half of them on the other CPU). Why one load
 * suffices: a waiter counts itself blocked (ring_bell's fetch_add, after
 * its bell's exchange) before its last look at the flag, and the waker
 * stored the flag (seq_cst) before this load; if the load reads no one
 * blocked, the waiter's add comes later in the single order of seq_cst
 * operations, and so does its look, which sees the flag. Not for fibers:
 * a parked fiber's carrier looks at its pokes only (thr_park_finish).
 */
int thr_none_parked(void *tx)
{
	struct thr_rank *me = tx;

	return !me->tw->fibers && atomic_load(&me->tw->blocked) == 0;
}

/* More ranks than CPUs (as threads, or as fibers on a carrier a CPU).
 * Never in a seeded run: its barriers send their messages, whose order
 * the schedule decides (a wait at a shared flag would not be a choice of
 * the seed). */
int thr_crowded(void *tx)
{
	struct thr_rank *me = tx;

	return !me->tw->sched && me->tw->p > me->tw->ncpu;
}

int thr_give_up_flags(struct thr_world *w)
{
	int i, n = 0;

	for (i = 0; i < w->p; i++) {
		struct thr_rank *r = &w->ranks[i];

		if (atomic_load(&r->exited) ||
		    atomic_load_explicit(&r->wait_kind,
					 memory_order_relaxed) != THR_WAIT_FLAG)
			continue;
		atomic_store(&r->flag_given_up, 1);
		thr_wake(w, i, THR_ANY_PEER);
		n++;
	}
	return n;
}
