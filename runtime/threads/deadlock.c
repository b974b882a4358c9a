/*
 * deadlock.c - exact deadlock detection without timeouts.
 *
 * wait.c counts blocked ranks. When a rank's own increment makes blocked
 * equal alive, or a rank exits and alive falls to blocked, that rank runs one
 * verification pass here:
 *   e1 = epoch; every live rank has its bell at 1 and its awaited condition
 *   false; e2 = epoch; e1 == e2 and blocked == alive still.
 * An unblock always bumps the epoch, and only a running rank can make a
 * condition true, so an unchanged epoch means no rank ran during the pass:
 * the state read is one consistent snapshot, nothing can ever arrive, and the
 * deadlock is real. A rank whose condition already holds is merely between
 * its bell and its re-check (or missed a wake-up); the pass wakes it and
 * gives up. Slow is never reported as deadlocked.
 *
 * Every blocked rank waits on exactly one peer (a receive names its source,
 * a rendezvous send its destination), so the wait-for graph is a function;
 * the report lists each blocked rank and walks the graph to its cycle.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threads.h"

/* Whether r waits in a standard send a seeded schedule left unbuffered
 * (a deadlock there is the program's reliance on buffering). */
static int unbuffered(struct thr_rank *r)
{
	struct vp__msg *m =
	    atomic_load_explicit(&r->wait_msg, memory_order_relaxed);

	return m && m->unbuffered;
}

const char *thr_describe(struct thr_rank *r, int stable, char *buf, size_t len)
{
	int kind = atomic_load_explicit(&r->wait_kind, memory_order_relaxed);
	int peer = atomic_load(&r->waiting_on);
	size_t bytes =
	    atomic_load_explicit(&r->wait_bytes, memory_order_relaxed);
	const char *gone = peer >= 0 && atomic_load(&r->tw->ranks[peer].exited)
			       ? ", which has exited"
			       : "";
	int tag = atomic_load_explicit(&r->wait_tag, memory_order_relaxed);
	char call[160], tag_text[32] = "";

	/* the user's tags, not those of a collective's own messages */
	if (!vp__rank_in_collective(r->rank))
		snprintf(tag_text, sizeof(tag_text),
			 tag == VP_ANY_TAG ? ", any tag" : ", tag %d", tag);
	/* a rank that may wake meanwhile: only its atomically kept call */
	if (stable)
		vp__rank_doing(r->rank, call, sizeof(call));
	else
		snprintf(call, sizeof(call), "%s", vp__rank_last_call(r->rank));
	if (kind == THR_WAIT_RDV_DONE && stable && unbuffered(r)) {
		snprintf(buf, len,
			 "rank %d's %s of %zu bytes to rank %d waits for a "
			 "matching receive: the program is unsafe (it relies "
			 "on MPI buffering the message), see MPI 4.0 sec. 3.5",
			 r->world_rank, vp__rank_user_call(r->rank), bytes,
			 peer);
	} else if (kind == THR_WAIT_FLAG) {
		snprintf(buf, len,
			 "rank %d in %s waits for the other ranks to arrive",
			 r->world_rank, call);
	} else if (kind == THR_WAIT_SET) {
		int n = snprintf(buf, len, "rank %d in %s waits for ",
				 r->world_rank, call);
		if (n > 0 && (size_t)n < len)
			thr_watch_describe(r, buf + n, len - (size_t)n);
	} else if (kind == THR_WAIT_RECV)
		snprintf(
		    buf, len,
		    "rank %d in %s waits for rank %d%s: recv into %zu-byte "
		    "buffer%s",
		    r->world_rank, call, peer, gone, bytes, tag_text);
	else
		snprintf(buf, len,
			 "rank %d in %s waits for rank %d%s: send %zu bytes "
			 "(rendezvous, receiver must copy)%s",
			 r->world_rank, call, peer, gone, bytes, tag_text);
	return buf;
}

static void waiter(void *ctx, int i, struct vp__waiter *out, char *line,
		   size_t len)
{
	struct thr_rank *r = &((struct thr_world *)ctx)->ranks[i];

	out->exited = atomic_load(&r->exited);
	out->peer = atomic_load(&r->waiting_on);
	out->in_coll = vp__rank_in_collective(r->rank);
	if (line)
		thr_describe(r, 1, line, len);
}

/* Fails the run with the report: every blocked call returns. */
void thr_deadlock_report(struct thr_world *w)
{
	int p2p_cycle;
	char *rep = vp__deadlock_report(w->p, waiter, w, &p2p_cycle);

	vp__world_cycle_cause(w->w, p2p_cycle);
	vp__world_fail(w->w, -1, VP_EDEADLOCK,
		       rep ? rep : "deadlock (no memory for the report)");
	free(rep);
}

void thr_deadlock_check(struct thr_rank *me)
{
	struct thr_world *w = me->tw;
	unsigned long e1;
	int i;

	pthread_mutex_lock(&w->verify_lock);
	if (vp__world_status(w->w))
		goto out;
	e1 = atomic_load(&w->epoch);
	/* alive 0: every rank left meanwhile (a fiber parked by its carrier
	 * may be woken, run on another carrier and return before this) */
	if (atomic_load(&w->alive) == 0 ||
	    atomic_load(&w->blocked) != atomic_load(&w->alive))
		goto out;
	for (i = 0; i < w->p; i++) {
		struct thr_rank *r = &w->ranks[i];
		if (atomic_load(&r->exited))
			continue;
		if (atomic_load(&r->bell) != 1)
			goto out;
		if (thr_wait_ready(r)) {
			/* Between bell and re-check, or a lost wake-up:
			 * either way, wake it rather than hang. */
			thr_wake(w, i, atomic_load(&r->waiting_on));
			goto out;
		}
	}
	if (atomic_load(&w->epoch) != e1 ||
	    atomic_load(&w->blocked) != atomic_load(&w->alive))
		goto out;
	/* Ranks in a barrier that sends no messages (coll_sync.c) send them
	 * instead, and block where the messages leave them: a report then
	 * names the waits the barrier's messages would have made. */
	if (thr_give_up_flags(w))
		goto out;
	thr_deadlock_report(w); /* fails the run: every blocked call returns */
out:
	pthread_mutex_unlock(&w->verify_lock);
}
