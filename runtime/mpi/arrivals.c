/*
 * arrivals.c - how messages come in on the MPI transport (mpi_tx.h): the
 * pre-posted receives for whole messages, the payloads sent apart, and
 * the pools of buffers and message records they use.
 *
 * Why pre-posted receives. Probing for a message and then receiving it
 * (MPI_Iprobe, MPI_Get_count, a malloc, MPI_Recv) costs two trips through
 * MPI's matching and an allocation per message. A receive posted ahead
 * of time lets MPI copy an eager message straight into it as it arrives;
 * testing the oldest one is one call.
 *
 * Order. All MPT_SLOTS receives match any source and the same tag, and
 * MPI matches an incoming message to the oldest posted receive that
 * matches (MPI 4.0, section 3.5, "Order"). So the slots fill in the order
 * they were posted, and taking them in that order (the oldest first, each
 * reposted at the back) is taking messages in arrival order, which keeps
 * every sender's messages in send order.
 *
 * Payloads sent apart. A header says how long its payload is; the payload
 * follows as its own MPI message from the same sender (tag
 * MPT_TAG_PAYLOAD), and MPI holds it (its rendezvous) until we post its
 * receive: into the vp receive's buffer when one takes the message (one
 * copy, done by MPI), so a message nothing waits for yet stays unclaimed
 * until a receive comes. Payloads of one sender are always received in the
 * order of their headers, which pairs each with its header (MPI's order
 * again): before one is received, the unclaimed ones ahead of it from the
 * same sender are received into buffers of their own.
 *
 * The sender waits for its payload to go, so an unclaimed one must not
 * wait for ever: a process that waits with nothing arriving for
 * DRAIN_AFTER turns, or whose rank function returned, receives every
 * unclaimed payload into buffers of their own (mpt_drain). A process with
 * a payload in flight either way is not passive (termination.c): the
 * transfer will end without anyone's help, and until it does the run has
 * not settled.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_tx.h"

void mpt_out_of_memory(const char *what, size_t bytes)
{
	fprintf(stderr,
		"vp (mpi transport): no memory for %s of %zu bytes; the job "
		"stops\n",
		what, bytes);
	MPI_Abort(MPI_COMM_WORLD, 1);
}

/* ---- pools ---- */

char *mpt_buf_get(struct mpt *t)
{
	char *b = t->bufs;

	if (b) {
		memcpy(&t->bufs, b, sizeof(char *));
		return b;
	}
	if (!(b = malloc(MPT_SLOT_BYTES)))
		mpt_out_of_memory("a message buffer", MPT_SLOT_BYTES);
	return b;
}

void mpt_buf_put(struct mpt *t, char *buf)
{
	memcpy(buf, &t->bufs, sizeof(char *));
	t->bufs = buf;
}

struct mpt_msg *mpt_msg_get(struct mpt *t)
{
	struct mpt_msg *m = t->free_msgs;

	if (m)
		t->free_msgs = m->next;
	else if (!(m = malloc(sizeof(*m))))
		mpt_out_of_memory("a message record", sizeof(*m));
	m->next = NULL;
	m->raw = m->payload = NULL;
	m->preq = MPI_REQUEST_NULL;
	m->r = NULL;
	m->requested = 0;
	return m;
}

void mpt_msg_put(struct mpt *t, struct mpt_msg *m)
{
	m->next = t->free_msgs;
	t->free_msgs = m;
}

void mpt_pools_free(struct mpt *t)
{
	struct mpt_msg *m;
	char *b;

	while ((b = t->bufs)) {
		memcpy(&t->bufs, b, sizeof(char *));
		free(b);
	}
	while ((m = t->free_msgs)) {
		t->free_msgs = m->next;
		free(m);
	}
	free(t->apart);
	t->apart = NULL;
	t->napart = t->cap_apart = 0;
}

/* ---- the slots ---- */

static int slot_post(struct mpt *t, struct mpt_slot *s)
{
	return MPI_Irecv(s->buf, MPT_SLOT_BYTES, MPI_BYTE, MPI_ANY_SOURCE,
			 MPT_TAG_WHOLE, t->data, &s->req) == MPI_SUCCESS
		   ? VP_OK
		   : VP_ENOMEM;
}

int mpt_slots_post(struct mpt *t)
{
	int i;

	t->slot_head = t->slots_taken = 0;
	for (i = 0; i < MPT_SLOTS; i++) {
		t->slots[i].buf = mpt_buf_get(t);
		if (slot_post(t, &t->slots[i]))
			return VP_ENOMEM;
	}
	return VP_OK;
}

/* The run is over and nothing is in flight: the slots are empty. */
void mpt_slots_cancel(struct mpt *t)
{
	int i;

	for (i = 0; i < MPT_SLOTS; i++) {
		struct mpt_slot *s = &t->slots[i];

		if (s->req != MPI_REQUEST_NULL) { /* taken ones are inactive */
			MPI_Cancel(&s->req);
			MPI_Wait(&s->req, MPI_STATUS_IGNORE);
		}
		if (s->buf)
			mpt_buf_put(t, s->buf);
		s->buf = NULL;
	}
}

/* ---- payloads sent apart ---- */

static void apart_add(struct mpt *t, struct mpt_msg *m)
{
	if (t->napart == t->cap_apart) {
		int cap = t->cap_apart ? 2 * t->cap_apart : 16;
		struct mpt_msg **a =
		    realloc(t->apart, (size_t)cap * sizeof(*a));
		if (!a)
			mpt_out_of_memory("the payloads in flight",
					  (size_t)cap * sizeof(*a));
		t->apart = a;
		t->cap_apart = cap;
	}
	t->apart[t->napart++] = m;
	t->transfers++;
}

static void apart_remove(struct mpt *t, int i)
{
	t->apart[i] = t->apart[--t->napart];
	t->transfers--;
}

/* Posts the receive of m's payload: into dst, or (NULL) a buffer of its
 * own. */
static void payload_post(struct mpt *t, struct mpt_msg *m, void *dst)
{
	size_t n = m->h.len;

	if (!dst && !(dst = m->payload = malloc(n)))
		mpt_out_of_memory("an arriving message", n);
	MPI_Irecv(dst, (int)n, MPI_BYTE, m->src, MPT_TAG_PAYLOAD, t->data,
		  &m->preq);
	m->requested = 1;
	apart_add(t, m);
}

static int unclaimed(const struct mpt_msg *m)
{
	return !m->raw && !m->requested;
}

/* Receives the unclaimed payloads in the unexpected queue ahead of upto
 * (NULL: all of it) from src (VP_ANY_SOURCE: from anyone) into buffers of
 * their own. */
static void drain(struct mpt *t, int src, const struct mpt_msg *upto)
{
	struct mpt_msg *m;

	for (m = t->unexp; m && m != upto && t->unclaimed; m = m->next)
		if (unclaimed(m) && (src == VP_ANY_SOURCE || m->src == src)) {
			payload_post(t, m, NULL);
			t->unclaimed--;
		}
}

void mpt_drain(struct mpt *t)
{
	drain(t, VP_ANY_SOURCE, NULL);
}

void mpt_drain_ahead(struct mpt *t, const struct mpt_msg *m)
{
	drain(t, m->src, m);
}

void mpt_claim(struct mpt *t, struct vp__xrecv *r, struct mpt_msg *m)
{
	t->unclaimed--;
	m->r = r;
	payload_post(t, m, mpt_payload_dest(r, m->h.len));
}

int mpt_unclaimed(const struct mpt_msg *m)
{
	return unclaimed(m);
}

/* m's payload is in: a receive it went to is done; an unexpected message
 * waits on in its queue, whole now. */
static void payload_in(struct mpt *t, struct mpt_msg *m)
{
	if (!m->r)
		return;
	if (!m->payload) /* into r's buffer */
		mpt_landed(m->r);
	m->r->done = 1;
	free(m->payload); /* a truncated message's: nothing is written */
	mpt_msg_put(t, m);
}

static int payloads_progress(struct mpt *t)
{
	int i = 0, n = 0, flag;

	while (i < t->napart) {
		struct mpt_msg *m = t->apart[i];

		MPI_Test(&m->preq, &flag, MPI_STATUS_IGNORE);
		if (!flag) {
			i++;
			continue;
		}
		apart_remove(t, i); /* the last one moved to i */
		payload_in(t, m);
		n++;
	}
	return n;
}

static int apart_index(struct mpt *t, const struct mpt_msg *m,
		       const struct vp__xrecv *r)
{
	int i;

	for (i = 0; i < t->napart; i++)
		if ((m && t->apart[i] == m) || (r && t->apart[i]->r == r))
			return i;
	return -1;
}

void mpt_apart_finish(struct mpt *t, struct mpt_msg *m)
{
	int i = apart_index(t, m, NULL);

	if (i < 0)
		return; /* in already */
	MPI_Wait(&m->preq, MPI_STATUS_IGNORE);
	apart_remove(t, i);
}

void mpt_apart_withdraw(struct mpt *t, struct vp__xrecv *r)
{
	int i = apart_index(t, NULL, r);
	struct mpt_msg *m;

	if (i < 0)
		return;
	m = t->apart[i];
	/* the payload is on its way into r's buffer: it must land before
	 * that buffer goes back to its owner */
	MPI_Wait(&m->preq, MPI_STATUS_IGNORE);
	apart_remove(t, i);
	payload_in(t, m);
}

/* ---- taking what arrived ---- */

/* The oldest posted receive that matches m, taken off the queue. */
static struct vp__xrecv *posted_match(struct mpt *t, const struct mpt_msg *m)
{
	struct vp__xrecv **pp, *r;

	for (pp = &t->posted; (r = *pp); pp = &r->next)
		if (mpt_matches(r->ctx, r->src, r->tag, m)) {
			*pp = r->next;
			if (!*pp)
				t->posted_tail = pp;
			return r;
		}
	return NULL;
}

static void unexpected(struct mpt *t, struct mpt_msg *m)
{
	m->next = NULL;
	*t->unexp_tail = m;
	t->unexp_tail = &m->next;
}

/* The whole message in slot s (bytes long, from src). */
static void taken(struct mpt *t, struct mpt_slot *s, int bytes, int src)
{
	struct mpt_msg arrived, *m;
	struct vp__xrecv *r;

	t->count--; /* Safra: received, and this process turns black */
	t->black = 1;
	mpt_moved(t);
	if ((size_t)bytes < sizeof(arrived.h))
		return; /* not ours: the data communicator is vp's alone */
	memcpy(&arrived.h, s->buf, sizeof(arrived.h));
	arrived.src = src;
	if (arrived.h.kind == MPT_ACK) {
		mpt_acknowledged(t, arrived.h.sync_id);
		return;
	}
	if (arrived.h.kind == MPT_WAKE) {
		t->wakes++;
		return;
	}
	r = posted_match(t, &arrived);
	if (arrived.h.len <= MPT_WHOLE_MAX) {
		if (r) { /* the common case: a receive waits for it */
			mpt_matched(t, r, &arrived);
			mpt_deliver(r, s->buf + sizeof(arrived.h),
				    arrived.h.len);
			r->done = 1;
			return;
		}
		m = mpt_msg_get(t); /* the slot's buffer goes with it */
		m->src = src;
		m->h = arrived.h;
		m->raw = s->buf;
		s->buf = mpt_buf_get(t);
		unexpected(t, m);
		return;
	}
	m = mpt_msg_get(t);
	m->src = src;
	m->h = arrived.h;
	if (r) {
		mpt_matched(t, r, m);
		drain(t, src, NULL); /* ahead of it from src: all unexpected */
		m->r = r;
		payload_post(t, m, mpt_payload_dest(r, m->h.len));
		return;
	}
	unexpected(t, m); /* unclaimed until a receive takes it */
	t->unclaimed++;
}

/* Reposts the slots taken since the last pull, oldest first, so that the
 * ring stays in posting order. Done at the next pull rather than at once:
 * a receiver answers first and reposts while its answer travels. */
static void slots_repost(struct mpt *t)
{
	while (t->slots_taken) {
		int i = (t->slot_head + MPT_SLOTS - t->slots_taken) % MPT_SLOTS;

		if (slot_post(t, &t->slots[i]))
			mpt_out_of_memory("a pre-posted receive",
					  MPT_SLOT_BYTES);
		t->slots_taken--;
	}
}

int mpt_pull(struct mpt *t)
{
	struct mpt_slot *s;
	int n = 0, flag, bytes;
	MPI_Status st;

	if (t->nsends)
		mpt_sends_reap(t, 0);
	if (t->pends)
		n += mpt_pends_reap(t);
	if (t->napart)
		n += payloads_progress(t);
	slots_repost(t);
	/* One whole message a pull: a test that finds the next slot empty
	 * costs a pass of MPI's progress engine, and the caller (a wait
	 * loop, a nonblocking call) comes back for more. */
	s = &t->slots[t->slot_head];
	MPI_Test(&s->req, &flag, &st);
	if (flag) {
		MPI_Get_count(&st, MPI_BYTE, &bytes);
		taken(t, s, bytes, st.MPI_SOURCE);
		t->slot_head = (t->slot_head + 1) % MPT_SLOTS;
		t->slots_taken++;
		n++;
	}
	t->fresh += n;
	return n;
}
