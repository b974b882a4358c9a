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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threads.h"

/* Bytes of report per blocked rank (one line each) and for the rest. */
#define LINE_BYTES 1024
#define REPORT_BYTES 1024

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
	if (kind == THR_WAIT_SET) {
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

/* Appends to a bounded report buffer. */
static void add(char *rep, size_t cap, size_t *len, const char *s)
{
	int n = snprintf(rep + *len, cap - *len, "%s", s);

	if (n > 0)
		*len = *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

static void report(struct thr_world *w)
{
	char *rep, line[LINE_BYTES];
	size_t cap = REPORT_BYTES + LINE_BYTES * (size_t)w->p, len = 0;
	int i, nblocked = 0, start = -1, cur, steps;
	char *seen;

	rep = malloc(cap);
	seen = calloc((size_t)w->p, 1);
	if (!rep || !seen) {
		vp__world_fail(w->w, -1, VP_EDEADLOCK,
			       "deadlock (no memory for the report)");
		free(rep);
		free(seen);
		return;
	}
	rep[0] = '\0';
	for (i = 0; i < w->p; i++)
		if (!atomic_load(&w->ranks[i].exited))
			nblocked++;
	snprintf(line, sizeof(line),
		 "deadlock: all %d live ranks are blocked and nothing they "
		 "wait for can arrive\n",
		 nblocked);
	add(rep, cap, &len, line);
	for (i = 0; i < w->p; i++) {
		struct thr_rank *r = &w->ranks[i];
		if (atomic_load(&r->exited))
			continue;
		if (start < 0)
			start = i;
		add(rep, cap, &len, "  ");
		add(rep, cap, &len, thr_describe(r, 1, line, sizeof(line)));
		add(rep, cap, &len, "\n");
	}
	/* Walk the wait-for function from the first blocked rank. */
	for (cur = start, steps = 0; cur >= 0 && !seen[cur] && steps <= w->p;
	     steps++) {
		seen[cur] = 1;
		if (atomic_load(&w->ranks[cur].exited))
			break;
		cur = atomic_load(&w->ranks[cur].waiting_on);
	}
	if (cur >= 0 && atomic_load(&w->ranks[cur].exited)) {
		snprintf(line, sizeof(line),
			 "  the chain ends at rank %d, which has exited\n",
			 cur);
		add(rep, cap, &len, line);
	} else if (cur >= 0) {
		int first = cur, n = 0, p2p_only = 1;
		add(rep, cap, &len, "  cycle:");
		do {
			p2p_only &= !vp__rank_in_collective(w->ranks[cur].rank);
			if (n++ < 16) {
				snprintf(line, sizeof(line), " %d ->", cur);
				add(rep, cap, &len, line);
			}
			cur = atomic_load(&w->ranks[cur].waiting_on);
		} while (cur != first && n <= w->p);
		if (n > 16) {
			snprintf(line, sizeof(line), " ... (%d ranks) ->", n);
			add(rep, cap, &len, line);
		}
		snprintf(line, sizeof(line), " %d\n", first);
		add(rep, cap, &len, line);
		vp__world_cycle_cause(w->w, p2p_only);
	}
	vp__world_fail(w->w, -1, VP_EDEADLOCK, rep);
	free(rep);
	free(seen);
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
	if (atomic_load(&w->blocked) != atomic_load(&w->alive))
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
	report(w); /* fails the run: every blocked call returns */
out:
	pthread_mutex_unlock(&w->verify_lock);
}
