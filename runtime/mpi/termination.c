/*
 * termination.c - waiting, and knowing when waiting is over for good, across
 * the processes of an MPI job.
 *
 * A process waits by turning: it pulls arrived messages (arrivals.c),
 * handles control messages, and yields the CPU (oversubscribed jobs share
 * cores). A process is passive while it waits for something a turn did not
 * bring, or after its rank function returned; it becomes active again only
 * when a message arrives.
 *
 * Whether every process is passive and nothing is in flight is decided by
 * Safra's token algorithm (E. W. Dijkstra, "Shmuel Safra's version of
 * termination detection", EWD998, 1987): each process counts the data
 * messages it sent minus those it received and turns black when it
 * receives one; a token goes round the ring 0 -> 1 -> ... -> P-1 -> 0,
 * each passive process adding its count and its colour and turning white.
 * When the token comes back white to a white, passive process 0 and the
 * counts sum to zero, no message is in flight and every process was
 * passive all the while: nothing can ever change. Then either every rank
 * function returned (the run's end, announced to all) or some rank still
 * waits for something that cannot come: a deadlock, reported exactly as
 * the threads transport reports it (every blocked rank, what it waits for,
 * the cycle of the wait-for graph). No timeout is involved.
 *
 * A failure (a rank's error, a deadlock) is sent to every other process,
 * which fails its run with the same message: its blocked calls return
 * VP_EABORT (or VP_EDEADLOCK), its rank function returns, and the
 * detection then finds the run's end.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_tx.h"

enum {
	CTL_TOKEN = 1,
	CTL_FAIL,
	CTL_QUERY,
	CTL_STATE,
	CTL_END,
	CTL_COLL_ASK,
	CTL_COLL_ANSWER
};

/* Passive turns process 0 waits before it starts a round of the token,
 * so that a job that is merely busy does not keep the token circling. */
#define IDLE_BEFORE_ROUND 256u

/* A busy process looks for control messages every CONTROL_EVERY-th turn
 * (an idle one every turn): MPI_Iprobe is a pass of MPI's progress engine,
 * whose cost shows in a short message's time even at every 16th turn.
 * A failure elsewhere then reaches a busy process within a few tens of
 * microseconds. */
#define CONTROL_EVERY 256u

/* What a process tells process 0 for a deadlock report. */
struct mpt_state {
	int finished;   /* the rank function returned */
	int peer;       /* the one rank it waits for, else -1 */
	int in_coll;    /* blocked inside a collective */
	char head[256]; /* "rank 2 in vp_recv waits for rank 1" */
	char tail[768]; /* ": recv into 8-byte buffer, tag 7" */
};

/* Control messages: a copy is sent with MPI_Isend (kept until done). */
static void ctl_send(struct mpt *t, int dst, int tag, const void *buf, size_t n)
{
	char *copy = malloc(n ? n : 1);

	if (!copy)
		return;
	memcpy(copy, buf, n);
	mpt_isend(t, t->ctl, dst, tag, copy, n);
}

static void ctl_send_all(struct mpt *t, int tag, const void *buf, size_t n)
{
	int i;

	for (i = 0; i < t->p; i++)
		if (i != t->me)
			ctl_send(t, i, tag, buf, n);
}

/* ---- failures ---- */

/* This process's first error, to every other process. */
static void announce_failure(struct mpt *t)
{
	int head[3], rank, p2p;
	char *msg, *buf;
	size_t n;

	head[0] = vp__world_error(t->w, &rank, &msg, &p2p);
	head[1] = rank;
	head[2] = p2p;
	n = msg ? strlen(msg) + 1 : 1;
	if (!(buf = malloc(sizeof(head) + n)))
		return;
	memcpy(buf, head, sizeof(head));
	memcpy(buf + sizeof(head), msg ? msg : "", n);
	ctl_send_all(t, CTL_FAIL, buf, sizeof(head) + n);
	free(buf);
}

/* A failure of this run, here: every blocked call returns. remote: it
 * came from another process (not to be announced again). */
static void fail_here(struct mpt *t, int code, int rank, int p2p,
		      const char *msg, int remote)
{
	if (vp__world_status(t->w))
		return; /* failing already: the first error stays */
	t->applying_remote = remote;
	if (p2p)
		vp__world_cycle_cause(t->w, 1);
	vp__world_fail(t->w, rank, code, msg);
	t->applying_remote = 0;
}

void mpt_wake_all(void *tx_world)
{
	struct mpt *t = tx_world;

	/* Any thread may call this (a watchdog); only the rank's thread
	 * talks to MPI, at its next turn. */
	if (!t->applying_remote)
		atomic_store(&t->to_announce, 1);
}

/* ---- the deadlock report ---- */

static void describe_one(const struct vp__xwait *x, char *out, size_t len)
{
	char who[32], tag[32];

	if (x->peer == VP_ANY_SOURCE)
		snprintf(who, sizeof(who), "any rank");
	else
		snprintf(who, sizeof(who), "rank %d", x->peer);
	if (x->tag == VP_ANY_TAG)
		snprintf(tag, sizeof(tag), "any tag");
	else
		snprintf(tag, sizeof(tag), "tag %d", x->tag);
	if (x->kind == VP__XW_SEND)
		snprintf(out, len,
			 "a send to %s, %s, of %zu bytes (synchronous: its "
			 "receiver must take it)",
			 who, tag, x->bytes);
	else if (x->kind == VP__XW_PROBE)
		snprintf(out, len, "a probe for %s, %s", who, tag);
	else
		snprintf(out, len,
			 "a receive from %s, %s, into a %zu-byte buffer", who,
			 tag, x->bytes);
}

/* This process's part of the report. */
static void my_state(struct mpt *t, struct mpt_state *s)
{
	const struct mpt_waiting *wt = &t->waiting;
	char call[160], tag[32] = "";
	size_t at;
	int i;

	memset(s, 0, sizeof(*s));
	s->finished = t->finished;
	s->peer = -1;
	if (t->finished)
		return;
	s->in_coll = vp__rank_in_collective(t->rank);
	vp__rank_doing(t->rank, call, sizeof(call));
	if (!s->in_coll && wt->kind && strcmp(wt->kind, "set"))
		snprintf(tag, sizeof(tag),
			 wt->tag == VP_ANY_TAG ? ", any tag" : ", tag %d",
			 wt->tag);
	if (!wt->kind) {
		snprintf(s->head, sizeof(s->head), "rank %d in %s waits", t->me,
			 call);
	} else if (!strcmp(wt->kind, "lock")) {
		s->peer = wt->peer;
		if (wt->peer >= 0)
			snprintf(s->head, sizeof(s->head),
				 "rank %d in %s waits for rank %d", t->me, call,
				 wt->peer);
		else
			snprintf(s->head, sizeof(s->head), "rank %d in %s waits",
				 t->me, call);
		snprintf(s->tail, sizeof(s->tail), ": %s", wt->text);
	} else if (!strcmp(wt->kind, "set")) {
		snprintf(s->head, sizeof(s->head), "rank %d in %s waits for ",
			 t->me, call);
		for (i = 0, at = 0; i < wt->n && at < sizeof(s->tail); i++) {
			char one[192];
			describe_one(&wt->set[i], one, sizeof(one));
			at +=
			    (size_t)snprintf(s->tail + at, sizeof(s->tail) - at,
					     "%s%s", i ? "; " : "", one);
		}
	} else if (wt->peer == VP_ANY_SOURCE) {
		snprintf(s->head, sizeof(s->head),
			 "rank %d in %s waits for any rank", t->me, call);
		snprintf(s->tail, sizeof(s->tail), ": %s%s",
			 !strcmp(wt->kind, "probe") ? "probe" : "recv", tag);
	} else {
		s->peer = wt->peer;
		snprintf(s->head, sizeof(s->head),
			 "rank %d in %s waits for rank %d", t->me, call,
			 wt->peer);
		if (!strcmp(wt->kind, "send"))
			snprintf(s->tail, sizeof(s->tail),
				 ": send %zu bytes (synchronous, receiver must "
				 "take it)%s",
				 wt->bytes, tag);
		else if (!strcmp(wt->kind, "probe"))
			snprintf(s->tail, sizeof(s->tail), ": probe%s", tag);
		else
			snprintf(s->tail, sizeof(s->tail),
				 ": recv into %zu-byte buffer%s", wt->bytes,
				 tag);
	}
}

static void waiter(void *ctx, int i, struct vp__waiter *out, char *line,
		   size_t len)
{
	const struct mpt_state *st = ctx, *s = &st[i];

	out->exited = s->finished;
	out->peer = s->peer;
	out->in_coll = s->in_coll;
	if (line)
		snprintf(line, len, "%s%s%s", s->head,
			 s->peer >= 0 && st[s->peer].finished
			     ? ", which has exited"
			     : "",
			 s->tail);
}

/* Process 0, with every state: the report, failing the run everywhere. */
static void report(struct mpt *t)
{
	int p2p_cycle;
	char *rep = vp__deadlock_report(t->p, waiter, t->states, &p2p_cycle);

	fail_here(t, VP_EDEADLOCK, -1, p2p_cycle,
		  rep ? rep : "deadlock (no memory for the report)", 0);
	free(rep);
}

/* ---- a collective call's record, for naming a mismatch ---- */

/* How long a process that found a mismatched collective waits for the
 * sender's record of the call (seconds). The sender answers at its next
 * turn; one computing outside vp answers late, and the report then gives
 * the two hashes instead of the differing argument. */
#define COLL_ANSWER_WAIT 2.0

struct mpt_coll_question {
	int ctx;
	uint32_t want;
};

struct mpt_coll_answer {
	int ctx;
	uint32_t want;
	int known;
	vp_coll_sig sig; /* its call pointer is not sent: name is */
	char name[VP__COLL_NAME_MAX];
};

static void answer_coll(struct mpt *t, int asker, const char *buf, size_t bytes)
{
	struct mpt_coll_question q;
	struct mpt_coll_answer a;

	if (bytes < sizeof(q))
		return;
	memcpy(&q, buf, sizeof(q));
	memset(&a, 0, sizeof(a));
	a.ctx = q.ctx;
	a.want = q.want;
	a.known = vp__rank_coll_record(t->rank, q.ctx, q.want, &a.sig);
	if (a.known)
		snprintf(a.name, sizeof(a.name), "%s", a.sig.call);
	a.sig.call = NULL;
	a.sig.elem = NULL; /* text of this process */
	ctl_send(t, asker, CTL_COLL_ANSWER, &a, sizeof(a));
}

/* The answer the waiting question expects (same process, context and
 * call), else nothing: a late answer to an earlier question. */
static void take_answer(struct mpt *t, int from, const char *buf, size_t bytes)
{
	struct mpt_coll_answer a;

	if (t->asking != from + 1 || t->answered || bytes < sizeof(a))
		return;
	memcpy(&a, buf, sizeof(a));
	if (a.ctx != t->answer->ctx || a.want != t->answer->want)
		return;
	*t->answer = a;
	t->answered = 1;
}

int mpt_coll_record(void *me, int src, int ctx, uint32_t want, vp_coll_sig *out,
		    char *name, size_t len)
{
	struct mpt *t = me;
	struct mpt_coll_answer a = { .ctx = ctx, .want = want };
	struct mpt_coll_question q = { ctx, want };
	double give_up = MPI_Wtime() + COLL_ANSWER_WAIT;

	if (src == t->me || src < 0 || src >= t->p)
		return 0;
	t->asking = src + 1;
	t->answered = 0;
	t->answer = &a;
	ctl_send(t, src, CTL_COLL_ASK, &q, sizeof(q));
	/* turns (answering questions too: the sender may be asking us)
	 * without passing the token: this process is not passive */
	while (!t->answered && !vp__world_status(t->w) &&
	       MPI_Wtime() < give_up) {
		mpt_turn(t);
		if (!t->answered)
			sched_yield();
	}
	t->asking = 0;
	t->answer = NULL;
	if (!t->answered || !a.known)
		return 0;
	*out = a.sig;
	snprintf(name, len, "%s", a.name);
	out->call = name;
	return 1;
}

/* ---- the token ---- */

static void terminated(struct mpt *t, int all_finished)
{
	if (all_finished) {
		ctl_send_all(t, CTL_END, "", 0);
		t->ended = 1;
		return;
	}
	free(t->states);
	t->states = calloc((size_t)t->p, sizeof(struct mpt_state));
	if (!t->states) {
		fail_here(t, VP_EDEADLOCK, -1, 0,
			  "deadlock (no memory for the report)", 0);
		return;
	}
	t->querying = 1;
	t->answers = 1;
	my_state(t, (struct mpt_state *)(void *)t->states + t->me);
	ctl_send_all(t, CTL_QUERY, "", 0);
	if (t->answers == t->p) {
		t->querying = 0;
		report(t);
	}
}

/* Called in a passive turn: pass the token on, or (process 0) judge it. */
static void passive(struct mpt *t)
{
	/* a payload in flight ends by itself, and may complete a receive:
	 * not passive until it has */
	if (!t->has_token || t->querying || t->ended || t->transfers)
		return;
	if (t->me != 0) {
		t->token.q += t->count;
		t->token.black |= t->black;
		t->token.all_finished &= t->finished;
		t->black = 0;
		t->has_token = 0;
		ctl_send(t, (t->me + 1) % t->p, CTL_TOKEN, &t->token,
			 sizeof(t->token));
		return;
	}
	if (t->round_back) { /* a round came back */
		t->round_back = 0;
		if (!t->token.black && !t->black &&
		    t->token.q + t->count == 0) {
			terminated(t, t->token.all_finished && t->finished);
			return;
		}
		t->black = 0; /* not yet: a new round, later */
		t->idle = 0;
		return;
	}
	if (t->idle < IDLE_BEFORE_ROUND)
		return;
	t->token = (struct mpt_token){ 0, 0, 1 };
	t->black = 0;
	t->has_token = 0;
	ctl_send(t, 1 % t->p, CTL_TOKEN, &t->token, sizeof(t->token));
}

/* ---- control messages ---- */

static void on_control(struct mpt *t, const MPI_Status *st)
{
	int bytes;
	char *buf;

	MPI_Get_count(st, MPI_BYTE, &bytes);
	buf = malloc((size_t)bytes + 1);
	if (!buf) { /* nothing sensible is left to do */
		fprintf(stderr, "vp (mpi transport): no memory for a control "
				"message\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Recv(buf, bytes, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, t->ctl,
		 MPI_STATUS_IGNORE);
	buf[bytes] = '\0';
	switch (st->MPI_TAG) {
	case CTL_TOKEN:
		memcpy(&t->token, buf, sizeof(t->token));
		t->has_token = 1;
		t->round_back = t->me == 0;
		break;
	case CTL_FAIL: {
		int head[3];
		memcpy(head, buf, sizeof(head));
		fail_here(t, head[0], head[1], head[2], buf + sizeof(head), 1);
		break;
	}
	case CTL_QUERY: {
		struct mpt_state s;
		my_state(t, &s);
		ctl_send(t, st->MPI_SOURCE, CTL_STATE, &s, sizeof(s));
		break;
	}
	case CTL_STATE:
		if (t->querying) {
			memcpy((struct mpt_state *)(void *)t->states +
				   st->MPI_SOURCE,
			       buf, sizeof(struct mpt_state));
			if (++t->answers == t->p) {
				t->querying = 0;
				report(t);
			}
		}
		break;
	case CTL_END:
		t->ended = 1;
		break;
	case CTL_COLL_ASK:
		answer_coll(t, st->MPI_SOURCE, buf, (size_t)bytes);
		break;
	case CTL_COLL_ANSWER:
		take_answer(t, st->MPI_SOURCE, buf, (size_t)bytes);
		break;
	}
	free(buf);
}

int mpt_turn(struct mpt *t)
{
	MPI_Status st;
	int n, flag;

	n = mpt_pull(t);
	/* a plain load first: the exchange is a locked instruction, and
	 * was 5% of a ping-pong's time done every turn */
	if (atomic_load_explicit(&t->to_announce, memory_order_relaxed) &&
	    atomic_exchange(&t->to_announce, 0))
		announce_failure(t);
	/* control messages are rare (a token round starts after
	 * IDLE_BEFORE_ROUND idle turns): not worth an MPI call every turn */
	if (++t->turns % CONTROL_EVERY && t->idle < IDLE_BEFORE_ROUND &&
	    !t->asking)
		return n;
	for (;;) {
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, t->ctl, &flag, &st);
		if (!flag)
			break;
		on_control(t, &st);
	}
	return n;
}

int mpt_wait(struct mpt *t, int (*ready)(struct mpt *, void *), void *arg,
	     const struct mpt_waiting *what)
{
	int rc;

	t->waiting = *what;
	t->idle = 0;
	atomic_store_explicit(&t->in_vp_wait, 1, memory_order_relaxed);
	for (;;) {
		t->pulled_now = mpt_turn(t);
		if (ready(t, arg)) {
			rc = VP_OK;
			break;
		}
		if ((rc = vp__world_status(t->w)))
			break;
		if (!t->pulled_now) {
			if (++t->idle >= DRAIN_AFTER && t->unclaimed)
				mpt_drain(t); /* their senders wait */
			passive(t);
			if (t->crowded || t->idle % 1024 == 0)
				sched_yield();
		} else {
			t->idle = 0;
		}
	}
	t->waiting.kind = NULL;
	atomic_store_explicit(&t->in_vp_wait, 0, memory_order_relaxed);
	return rc;
}

void mpt_wait_end(struct mpt *t)
{
	t->finished = 1;
	atomic_store(&t->returned, 1);
	t->waiting.kind = NULL;
	t->idle = 0;
	while (!t->ended) {
		mpt_drain(t); /* nothing here will take them now */
		if (mpt_turn(t))
			t->idle = 0;
		else
			t->idle++;
		passive(t);
		if (!t->ended)
			sched_yield();
	}
}

void mpt_termination_free(struct mpt *t)
{
	free(t->states);
	t->states = NULL;
}
