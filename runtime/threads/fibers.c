/*
 * fibers.c - ranks as fibers: p user-level contexts run by as many carrier
 * threads as there are CPUs (vp_opts.fibers, VP_FIBERS=1).
 *
 * Why: with a kernel thread per rank, a wait that finds nothing is a
 * kernel context switch, and when ranks outnumber the CPUs nearly every
 * wait is one. A sched_yield hand-off among a thousand threads costs
 * microseconds (their stacks and task structures fall out of the caches),
 * a switch between fibers a fraction of that (context.c's makes no system
 * call), and a pairwise all-to-all at p = 1024 makes about 10^6 such
 * waits.
 *
 * How: each carrier loops: take the rank at the head of its run queue
 * (or of another carrier's, when its own is empty),
 * switch to its context, and when the fiber switches back, act on why:
 *   YIELD  to the back of the queue (a vp_test loop found nothing done);
 *   PARK   the second half of wait.c's doorbell protocol: count it
 *          blocked, look for a deadlock, re-check its condition. The bell
 *          goes to 1 only here, after the fiber's context is saved, and
 *          whoever flips it back to 0 (a sender, the deadlock check, a
 *          failing run, or this re-check) queues it: exactly one party
 *          queues a parked fiber, so none ever runs on two carriers;
 *   EXIT   its rank function returned; the rank leaves (thr_rank_exit).
 * A carrier with nothing to run in any queue sleeps on a condition
 * variable; the last
 * rank to leave ends them all. A fiber that calls pthread_exit() ends its
 * carrier's thread: the carrier's cleanup handler reports the rank as the
 * threads transport does and starts a thread to carry on in its place.
 *
 * What changes for the program (docs/fibers.md, "Ranks as fibers"):
 * thread-local variables, errno and pthread_self() belong to the carrier
 * and are shared by the ranks it runs; a rank that waits outside vp (a
 * mutex another rank holds, sleep, spinning on memory another rank writes)
 * keeps its carrier from every other rank. The MPI layer keeps per-rank
 * state in thread-local variables and so runs its ranks as threads.
 *
 * The switch (context.c) is annotated for AddressSanitizer, ThreadSanitizer
 * and valgrind, which otherwise take a switch of stacks for corruption.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "threads.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(__SANITIZE_ADDRESS__)
#define __SANITIZE_ADDRESS__ 1
#endif
#if __has_feature(thread_sanitizer) && !defined(__SANITIZE_THREAD__)
#define __SANITIZE_THREAD__ 1
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#endif
enum thr_switch { SWITCH_YIELD, SWITCH_PARK, SWITCH_EXIT, SWITCH_SCHED };

struct thr_fiber {
	struct thr_context ctx;
	char *stack;
	size_t stack_size;
	void *fake_stack; /* AddressSanitizer's, while switched out */
	void *tsan;       /* ThreadSanitizer's fiber */
	unsigned vg_stack;
	int started;
};

struct thr_carrier {
	/* its run queue: ranks readied on this carrier, FIFO; a carrier
	 * with none takes the oldest of another's */
	pthread_mutex_t qlock;
	struct thr_rank *head, *tail;
	atomic_int queued;
	struct thr_world *w;
	pthread_t thread;
	struct thr_context ctx; /* the carrier's loop */
	struct thr_rank *current;
	void *fake_stack;
	const void
	    *stack_lo; /* the carrier's own stack, for AddressSanitizer */
	size_t stack_size;
	void *tsan;
	unsigned char alt[THR_ALT_STACK]; /* its SIGSEGV stack */
};

/* The carrier of the calling thread. Read it through current_carrier():
 * a fiber may resume on another thread, and a compiler may keep a
 * thread-local variable's address across a call within one function. */
static __thread struct thr_carrier *on_carrier;

static __attribute__((noinline)) struct thr_carrier *current_carrier(void)
{
	return on_carrier;
}

/* ---- switching, with the sanitizers told ---- */

/* Carrier c runs rank r until r switches back. */
static void carrier_to_fiber(struct thr_carrier *c, struct thr_rank *r)
{
	struct thr_fiber *f = &c->w->fib.fiber[r->world_rank];

	c->current = r;
	vp__requests_enter(r->rank);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_start_switch_fiber(&c->fake_stack, f->stack, f->stack_size);
#endif
#ifdef __SANITIZE_THREAD__
	__tsan_switch_to_fiber(f->tsan, 0);
#endif
	thr_context_switch(&c->ctx, &f->ctx);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_finish_switch_fiber(c->fake_stack, NULL, NULL);
#endif
	vp__requests_enter(NULL);
	c->current = NULL;
}

/* Just switched in (first time or resumed): on a carrier, which may not
 * be the one it left. */
static void fiber_arrived(struct thr_fiber *f)
{
#ifdef __SANITIZE_ADDRESS__
	struct thr_carrier *c = current_carrier();

	__sanitizer_finish_switch_fiber(f->fake_stack, &c->stack_lo,
					&c->stack_size);
#else
	(void)f;
#endif
}

/* The calling fiber gives its carrier back, saying why; returns when a
 * carrier resumes it (never for SWITCH_EXIT). */
static void fiber_to_carrier(struct thr_rank *me, int why)
{
	struct thr_carrier *c = current_carrier();
	struct thr_fiber *f = &me->tw->fib.fiber[me->world_rank];

	me->switch_why = why;
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_start_switch_fiber(why == SWITCH_EXIT ? NULL
							  : &f->fake_stack,
				       c->stack_lo, c->stack_size);
#endif
#ifdef __SANITIZE_THREAD__
	__tsan_switch_to_fiber(c->tsan, 0);
#endif
	thr_context_switch(&f->ctx, &c->ctx);
	fiber_arrived(f);
}

/* ---- the run queues ----
 *
 * One queue a carrier. A rank readied by a fiber goes to the queue of the
 * carrier that fiber runs on, so partners of an exchange tend to run on
 * one CPU with their mailboxes in its cache, and each queue's lock is
 * mostly taken by one carrier; a carrier whose queue is empty takes the
 * oldest rank of another's. A rank readied off the carriers (the deadlock
 * check, a failing run, the start) goes to the queue its number picks.
 *
 * A carrier that finds every queue empty sleeps on idle. It counts itself
 * in sleeping and then looks at the queues once more; a readier counts
 * the rank queued and then reads sleeping (all seq_cst), so either the
 * sleeper sees the rank or the readier sees the sleeper and signals,
 * under the lock the sleeper holds until its wait begins.
 */

static void queue_push(struct thr_carrier *c, struct thr_rank *r)
{
	pthread_mutex_lock(&c->qlock);
	r->run_next = NULL;
	if (c->tail)
		c->tail->run_next = r;
	else
		c->head = r;
	c->tail = r;
	atomic_fetch_add(&c->queued, 1);
	pthread_mutex_unlock(&c->qlock);
}

static struct thr_rank *queue_pop(struct thr_carrier *c)
{
	struct thr_rank *r;

	if (!atomic_load(&c->queued)) /* seq_cst: the sleeper's look */
		return NULL;
	pthread_mutex_lock(&c->qlock);
	r = c->head;
	if (r) {
		c->head = r->run_next;
		if (!c->head)
			c->tail = NULL;
		r->run_next = NULL;
		atomic_fetch_sub(&c->queued, 1);
	}
	pthread_mutex_unlock(&c->qlock);
	return r;
}

void thr_fiber_ready(struct thr_world *w, struct thr_rank *r)
{
	struct thr_fibers *f = &w->fib;
	struct thr_carrier *c = current_carrier();

	if (w->sched) /* a seeded run has no run queue (schedule.c) */
		return;
	if (!c || c->w != w)
		c = &f->carriers[r->world_rank % f->ncarriers];
	queue_push(c, r);
	if (atomic_load(&f->sleeping)) {
		pthread_mutex_lock(&f->lock);
		pthread_cond_signal(&f->idle);
		pthread_mutex_unlock(&f->lock);
	}
}

/* Carrier c's own queue first, then the others'. */
static struct thr_rank *take_any(struct thr_world *w, struct thr_carrier *c)
{
	struct thr_fibers *f = &w->fib;
	struct thr_rank *r = queue_pop(c);
	int i, me = (int)(c - f->carriers);

	for (i = 1; !r && i < f->ncarriers; i++)
		r = queue_pop(&f->carriers[(me + i) % f->ncarriers]);
	return r;
}

/* The next rank for carrier c, waiting for one; NULL once every rank has
 * left. */
static struct thr_rank *next_ready(struct thr_world *w, struct thr_carrier *c)
{
	struct thr_fibers *f = &w->fib;
	struct thr_rank *r = take_any(w, c);

	if (r)
		return r;
	pthread_mutex_lock(&f->lock);
	atomic_fetch_add(&f->sleeping, 1);
	while (!(r = take_any(w, c)) && !f->done)
		pthread_cond_wait(&f->idle, &f->lock);
	atomic_fetch_sub(&f->sleeping, 1);
	pthread_mutex_unlock(&f->lock);
	return r;
}

/* A rank left: after the last one, every carrier stops. */
static void rank_left(struct thr_world *w, struct thr_rank *r)
{
	thr_rank_exit(r);
	if (atomic_load(&w->alive) > 0)
		return;
	pthread_mutex_lock(&w->fib.lock);
	w->fib.done = 1;
	pthread_cond_broadcast(&w->fib.idle);
	pthread_mutex_unlock(&w->fib.lock);
}

/* ---- what fibers call ---- */

void thr_fiber_park(struct thr_rank *me)
{
	fiber_to_carrier(me, SWITCH_PARK);
}

void thr_fiber_yield(struct thr_rank *me)
{
	fiber_to_carrier(me, SWITCH_YIELD);
}

void thr_fiber_switch(struct thr_rank *me)
{
	fiber_to_carrier(me, SWITCH_SCHED);
}

static void fiber_main(void)
{
	struct thr_carrier *c = current_carrier();
	struct thr_rank *r = c->current;

	fiber_arrived(&r->tw->fib.fiber[r->world_rank]);
	vp__rank_main(r->rank);
	fiber_to_carrier(r, SWITCH_EXIT);
	abort(); /* an exited fiber is never resumed */
}

/* ---- carriers ---- */

static void *carrier_main(void *arg);

/* A fiber called pthread_exit(): glibc unwound to this thread's start and
 * runs this on the way out. The rank is over, as in the threads
 * transport; another thread takes the carrier's place. */
static void carrier_lost(void *arg)
{
	struct thr_carrier *c = arg;
	struct thr_world *w = c->w;
	struct thr_rank *r = c->current;
	pthread_t next;

	if (!r)
		return;
	c->current = NULL;
	vp__requests_enter(NULL);
	vp__rank_exited_early(r->rank);
	rank_left(w, r);
	pthread_mutex_lock(&w->fib.lock);
	if (pthread_create(&next, NULL, carrier_main, c) == 0)
		c->thread = next;
	else
		w->fib.started--; /* the others carry on */
	pthread_mutex_unlock(&w->fib.lock);
}

/* A seeded run's one carrier: it runs the rank the schedule picks, at the
 * start and after a rank's end, else the one the fiber that switched out
 * named (schedule.c). */
static void carrier_sched(struct thr_carrier *c)
{
	struct thr_world *w = c->w;
	struct thr_rank *r = thr_sched_pick(w, NULL);

	while (r) {
		carrier_to_fiber(c, r);
		if (r->switch_why == SWITCH_EXIT) {
			rank_left(w, r);
			r = thr_sched_pick(w, NULL);
		} else {
			r = w->sched_next;
		}
	}
}

static void *carrier_main(void *arg)
{
	struct thr_carrier *c = arg;
	struct thr_world *w = c->w;
	struct thr_rank *r;

	on_carrier = c;
	thr_stacks_enter_alt(&w->stacks, c->alt);
#ifdef __SANITIZE_THREAD__
	c->tsan = __tsan_get_current_fiber();
#endif
	pthread_cleanup_push(carrier_lost, c);
	if (w->sched)
		carrier_sched(c);
	while (!w->sched && (r = next_ready(w, c))) {
		carrier_to_fiber(c, r);
		switch (r->switch_why) {
		case SWITCH_YIELD:
			thr_fiber_ready(w, r);
			break;
		case SWITCH_PARK:
			thr_park_finish(r);
			break;
		default:
			rank_left(w, r);
		}
	}
	pthread_cleanup_pop(0);
	thr_stacks_leave(&w->stacks);
	on_carrier = NULL;
	return NULL;
}

/* Rank r's context on its stack, queued to run. */
static int fiber_make(struct thr_world *w, int rank)
{
	struct thr_fiber *f = &w->fib.fiber[rank];

	if (!w->stacks.base ||
	    thr_stacks_region(&w->stacks, rank, &f->stack, &f->stack_size) ||
	    thr_context_make(&f->ctx, f->stack, f->stack_size, fiber_main))
		return -1;
#ifdef __SANITIZE_THREAD__
	f->tsan = __tsan_create_fiber(0);
#endif
#ifdef HAVE_VALGRIND
	f->vg_stack =
	    VALGRIND_STACK_REGISTER(f->stack, f->stack + f->stack_size);
#endif
	f->started = 1;
	thr_fiber_ready(w, &w->ranks[rank]);
	return 0;
}

static void fibers_free(struct thr_world *w)
{
	int i;

	for (i = 0; w->fib.fiber && i < w->p; i++) {
		struct thr_fiber *f = &w->fib.fiber[i];

		if (!f->started)
			continue;
#ifdef __SANITIZE_THREAD__
		__tsan_destroy_fiber(f->tsan);
#endif
#ifdef HAVE_VALGRIND
		VALGRIND_STACK_DEREGISTER(f->vg_stack);
#endif
	}
	free(w->fib.fiber);
	for (i = 0; w->fib.carriers && i < w->fib.ncarriers; i++)
		pthread_mutex_destroy(&w->fib.carriers[i].qlock);
	free(w->fib.carriers);
	w->fib.fiber = NULL;
	w->fib.carriers = NULL;
	pthread_cond_destroy(&w->fib.idle);
	pthread_mutex_destroy(&w->fib.lock);
}

/* Joins carrier c's thread, and the threads that replaced it. */
static void carrier_join(struct thr_world *w, struct thr_carrier *c)
{
	pthread_t t;

	for (;;) {
		pthread_mutex_lock(&w->fib.lock);
		t = c->thread;
		pthread_mutex_unlock(&w->fib.lock);
		pthread_join(t, NULL);
		pthread_mutex_lock(&w->fib.lock);
		if (pthread_equal(t, c->thread)) {
			pthread_mutex_unlock(&w->fib.lock);
			return;
		}
		pthread_mutex_unlock(&w->fib.lock);
	}
}

int thr_fibers_run(struct thr_world *w)
{
	struct thr_fibers *f = &w->fib;
	pthread_mutexattr_t attr;
	char msg[512];
	int i, made, rc = 0;

	/* The run queue's lock is taken by every wake and every switch, from
	 * both carriers, and held briefly: one that spins a little before it
	 * sleeps in the kernel (glibc's adaptive mutex) spares most of those
	 * takes a system call. */
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&f->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	pthread_cond_init(&f->idle, NULL);
	f->ncarriers = w->ncpu < w->p ? w->ncpu : w->p;
	if (w->sched) /* one rank at a time (schedule.c) */
		f->ncarriers = 1;
	f->fiber = calloc((size_t)w->p, sizeof(*f->fiber));
	f->carriers = calloc((size_t)f->ncarriers, sizeof(*f->carriers));
	for (i = 0; f->carriers && i < f->ncarriers; i++) {
		pthread_mutexattr_init(&attr);
		pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
		pthread_mutex_init(&f->carriers[i].qlock, &attr);
		pthread_mutexattr_destroy(&attr);
	}
	thr_stacks_map(&w->stacks, w->p, w->stack_size);
	for (made = 0; f->fiber && f->carriers && made < w->p; made++)
		if (fiber_make(w, made))
			break;
	if (made < w->p) {
		char why[256];

		thr_stacks_why(&w->stacks, made, ENOMEM, why, sizeof(why));
		snprintf(msg, sizeof(msg),
			 "vp_run: could only make %d of %d rank fibers (no "
			 "memory for their stacks or contexts): %s",
			 made, w->p, why);
		for (i = made; i < w->p; i++)
			atomic_store(&w->ranks[i].exited, 1);
		atomic_fetch_sub(&w->alive, w->p - made);
		vp__world_fail(w->w, made, VP_ENOMEM, msg);
		rc = VP_ENOMEM;
		if (!made)
			goto out;
	}
	for (i = 0; i < f->ncarriers; i++) {
		struct thr_carrier *c = &f->carriers[i];

		c->w = w;
		pthread_mutex_lock(&f->lock);
		if (pthread_create(&c->thread, NULL, carrier_main, c) == 0)
			f->started++;
		pthread_mutex_unlock(&f->lock);
		if (f->started == i)
			break;
	}
	if (!f->started) { /* no carrier: nothing can run */
		vp__world_fail(w->w, 0, VP_ENOMEM,
			       "vp_run: could not start a carrier thread for "
			       "the rank fibers");
		rc = VP_ENOMEM;
		goto out;
	}
	for (i = 0; i < f->ncarriers && i < f->started; i++)
		carrier_join(w, &f->carriers[i]);
out:
	thr_stacks_unmap(&w->stacks);
	fibers_free(w);
	return rc;
}
