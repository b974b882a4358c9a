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
 * (it is passed over at that one point while another rank is ready), so
 * a priority schedule (PCT) cannot spin on it forever.
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

/* Whether r may run now; me, polling (idle), is passed over. */
static int ready(struct thr_world *w, struct thr_rank *r,
		 const struct thr_rank *me)
{
	if (atomic_load_explicit(&r->exited, memory_order_relaxed))
		return 0;
	if (r == me && me->sched_idle)
		return 0;
	if (!r->sched_blocked)
		return 1;
	return thr_wait_ready(r) || status_code(w);
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
	int i, n;

	for (;;) {
		for (i = n = 0; i < w->p; i++)
			if (ready(w, &w->ranks[i], me))
				w->sched_ready[n++] = i;
		if (n)
			return &w->ranks[vp__sched_pick(
			    w->sched, w->sched_ready, n,
			    me ? me->world_rank : -1)];
		if (me && me->sched_idle &&
		    !atomic_load_explicit(&me->exited, memory_order_relaxed))
			return me; /* nothing else can run: it polls on */
		if (atomic_load(&w->alive) == 0)
			return NULL;
		stuck(w);
	}
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
	switch_to(w, me, thr_sched_pick(w, me));
	me->sched_blocked = 0;
}

/* A rank thread's end (after thr_rank_exit): the baton goes on. */
void thr_sched_leave(struct thr_rank *me)
{
	struct thr_rank *next = thr_sched_pick(me->tw, NULL);

	if (next)
		thr_sched_give(next);
}
