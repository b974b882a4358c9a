/*
 * schedule.c - a seeded run's ranks, one at a time (vp_opts.schedule).
 *
 * Exactly one rank runs; it holds the baton. At each scheduling point (a
 * send, a receive, a probe, a progress pass, a test that found nothing, a
 * wait whose condition is false, a rank's end) the holder asks the
 * schedule (../schedule.c) which of the ready ranks runs next and hands
 * the baton over:
 *   threads  each rank thread sleeps on its own futex word (turn) until
 *            it is given the baton; the giver stores 1 and wakes it, then
 *            sleeps on its own. The MPI layer keeps per-rank state in
 *            thread-local variables, so its ranks stay threads.
 *   fibers   one carrier thread; the holder names the next rank and
 *            switches to the carrier, which switches to it (fibers.c).
 * A rank is ready when it is not blocked, or is blocked and what it waits
 * for holds (wait.c, thr_wait_ready), or the run is failing (its call then
 * returns the run's error). Since only the holder runs, every state the
 * holder reads is one no other rank can change meanwhile: the choices, the
 * messages' arrival order and therefore every match follow from the seed.
 * When no rank is ready and not all have ended, no rank can ever run
 * again: the run is deadlocked, exactly, and deadlock.c reports it.
 *
 * A rank polling in a test loop that found nothing yields to the others
 * (it is passed over at that one point while another rank is ready, and
 * under PCT its priority drops below every other), so a priority
 * schedule cannot spin on it forever, nor on two ranks polling in turn.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../schedule.h"
#include "threads.h"

static int status_code(struct thr_world *w)
{
	return vp__world_status(w->w);
}

/* ---- the ready set ----
 *
 * The ranks that may run are kept in runq (unordered; pos[r] is r's place,
 * -1 when it is not there): every rank at the start, less those blocked
 * in a wait and those that have ended. A blocked rank comes back when
 * what it waits for holds. Only a running rank can make that so, and it
 * then wakes the rank (thr_wake, as in a free run: a message posted, a
 * rendezvous copied): here that pokes it onto a list the next pick looks
 * at, so a pick costs the pokes since the last one, not a look at every
 * rank. Before a run is called deadlocked every rank is looked at all the
 * same, and once the run fails every blocked rank is ready (its call
 * returns the run's error). The set changes only in the baton holder's
 * sequence of steps, so its order, and hence every draw, follows from the
 * seed.
 */

static void runq_add(struct thr_world *w, int r)
{
	if (w->sched_pos[r] >= 0)
		return;
	w->sched_pos[r] = w->sched_nrun;
	w->sched_runq[w->sched_nrun++] = r;
}

static void runq_del(struct thr_world *w, int r)
{
	int at = w->sched_pos[r], last;

	if (at < 0)
		return;
	last = w->sched_runq[--w->sched_nrun];
	w->sched_runq[at] = last;
	w->sched_pos[last] = at;
	w->sched_pos[r] = -1;
}

int thr_sched_init(struct thr_world *w)
{
	int i;

	w->sched_runq = malloc((size_t)w->p * sizeof(int));
	w->sched_pos = malloc((size_t)w->p * sizeof(int));
	w->sched_poked = malloc((size_t)w->p * sizeof(int));
	if (!w->sched_runq || !w->sched_pos || !w->sched_poked)
		return VP_ENOMEM;
	for (i = 0; i < w->p; i++) {
		w->sched_runq[i] = i;
		w->sched_pos[i] = i;
	}
	w->sched_nrun = w->p;
	return VP_OK;
}

void thr_sched_free(struct thr_world *w)
{
	free(w->sched_runq);
	free(w->sched_pos);
	free(w->sched_poked);
}

/* Something r may wait for happened (wait.c, thr_wake). */
void thr_sched_poke(struct thr_world *w, struct thr_rank *r)
{
	if (!r->sched_blocked || r->sched_poke)
		return;
	r->sched_poke = 1;
	w->sched_poked[w->sched_npoked++] = r->world_rank;
}

/* A blocked rank that may run again joins the ready set. */
static void recheck(struct thr_world *w, struct thr_rank *r)
{
	if (r->sched_blocked &&
	    !atomic_load_explicit(&r->exited, memory_order_relaxed) &&
	    (thr_wait_ready(r) || status_code(w)))
		runq_add(w, r->world_rank);
}

/* Every rank looked at: the ended ones leave, the ready ones join. */
static void sweep(struct thr_world *w)
{
	int i;

	for (i = 0; i < w->p; i++)
		if (atomic_load_explicit(&w->ranks[i].exited,
					 memory_order_relaxed))
			runq_del(w, i);
		else
			recheck(w, &w->ranks[i]);
}

/* No rank can run: the deadlock report fails the run, after which every
 * blocked rank is ready (its call returns VP_EDEADLOCK). A barrier that
 * sends no messages is not used under a schedule (thr_crowded), but a
 * wait at a shared flag is given up first all the same. */
static void stuck(struct thr_world *w)
{
	if (thr_give_up_flags(w))
		return;
	if (status_code(w)) {
		fprintf(stderr,
			"vp: internal error: a failing seeded run has no rank "
			"to run (%s:%d)\n",
			__FILE__, __LINE__);
		abort();
	}
	thr_deadlock_report(w);
}

struct thr_rank *thr_sched_pick(struct thr_world *w, struct thr_rank *me)
{
	int idle = me && me->sched_idle && w->sched_pos[me->world_rank] >= 0;

	if (!w->sched_started) { /* ranks that could not start are gone */
		w->sched_started = 1;
		sweep(w);
	}

	while (w->sched_npoked) {
		struct thr_rank *r = &w->ranks[w->sched_poked[--w->sched_npoked]];

		r->sched_poke = 0;
		recheck(w, r);
	}
	if (!w->sched_swept && status_code(w)) {
		w->sched_swept = 1; /* failing: every blocked rank returns */
		sweep(w);
	}
	if (idle) { /* polling in vain: the others first */
		vp__sched_yield(w->sched, me->world_rank);
		runq_del(w, me->world_rank);
	}
	if (!w->sched_nrun)
		sweep(w);
	while (!w->sched_nrun) {
		if (idle)
			break;
		if (atomic_load(&w->alive) == 0)
			return NULL;
		stuck(w);
		sweep(w);
	}
	if (idle)
		runq_add(w, me->world_rank);
	if (idle && w->sched_nrun == 1)
		return me; /* nothing else can run: it polls on */
	return &w->ranks[vp__sched_pick(w->sched, w->sched_runq,
					w->sched_nrun - idle,
					me ? me->world_rank : -1)];
}

/* A rank blocks (it leaves the ready set until it may run again) or
 * ends. */
static void leave_runq(struct thr_rank *me)
{
	runq_del(me->tw, me->world_rank);
}

void thr_sched_gone(struct thr_rank *r)
{
	leave_runq(r);
}

/* ---- the baton of rank threads ---- */

void thr_sched_give(struct thr_rank *to)
{
	atomic_store(&to->turn, 1);
	syscall(SYS_futex, (int *)&to->turn, FUTEX_WAKE_PRIVATE, 1, NULL,
		NULL, 0);
}

void thr_sched_take(struct thr_rank *me)
{
	while (atomic_exchange(&me->turn, 0) == 0)
		syscall(SYS_futex, (int *)&me->turn, FUTEX_WAIT_PRIVATE, 0,
			NULL, NULL, 0);
}

/* me hands the baton to next and returns when it has it again. */
static void switch_to(struct thr_world *w, struct thr_rank *me,
		      struct thr_rank *next)
{
	if (next == me)
		return;
	if (w->fibers) {
		w->sched_next = next;
		thr_fiber_switch(me);
		return;
	}
	thr_sched_give(next);
	thr_sched_take(me);
}

void thr_sched_point(struct thr_rank *me)
{
	struct thr_world *w = me->tw;

	if (w->sched)
		switch_to(w, me, thr_sched_pick(w, me));
}

void thr_sched_idle(struct thr_rank *me)
{
	struct thr_world *w = me->tw;
	struct thr_rank *next;

	me->sched_idle = 1;
	next = thr_sched_pick(w, me);
	me->sched_idle = 0;
	switch_to(w, me, next);
}

void thr_sched_block(struct thr_rank *me)
{
	struct thr_world *w = me->tw;

	me->sched_blocked = 1;
	leave_runq(me);
	switch_to(w, me, thr_sched_pick(w, me));
	me->sched_blocked = 0;
}

/* A rank thread's end (after thr_rank_exit): the baton goes on. */
void thr_sched_leave(struct thr_rank *me)
{
	struct thr_rank *next;

	leave_runq(me);
	next = thr_sched_pick(me->tw, NULL);

	if (next)
		thr_sched_give(next);
}
