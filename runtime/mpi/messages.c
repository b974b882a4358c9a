/*
 * messages.c - the MPI transport's messages (mpi_tx.h): packed sends, the
 * progress engine that pulls every arrived message off MPI, matching in
 * MPI's order (a message goes to the oldest posted receive that matches
 * it, else waits in arrival order), synchronous sends, probes.
 */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_tx.h"

/* ---- sends ---- */

static int send_packed(struct mpt *t, int dst, const struct mpt_header *h,
		       const void *payload, size_t n)
{
	size_t total = sizeof(*h) + n;
	struct mpt_send *s;
	char *buf;

	if (total > INT_MAX)
		return VP_ENOMEM; /* one MPI message: counts are ints */
	if (t->nsends == t->cap_sends) {
		int cap = t->cap_sends ? 2 * t->cap_sends : 16;
		struct mpt_send *a = realloc(t->sends, (size_t)cap * sizeof(*a));
		if (!a)
			return VP_ENOMEM;
		t->sends = a;
		t->cap_sends = cap;
	}
	if (!(buf = malloc(total)))
		return VP_ENOMEM;
	memcpy(buf, h, sizeof(*h));
	if (n)
		memcpy(buf + sizeof(*h), payload, n);
	s = &t->sends[t->nsends];
	if (MPI_Isend(buf, (int)total, MPI_BYTE, dst, 0, t->data, &s->req) !=
	    MPI_SUCCESS) {
		free(buf);
		return VP_ENOMEM;
	}
	s->buf = buf;
	t->nsends++;
	t->count++; /* Safra: one more message in flight */
	return VP_OK;
}

void mpt_sends_reap(struct mpt *t, int wait)
{
	int i, k = 0, done;

	for (i = 0; i < t->nsends; i++) {
		struct mpt_send *s = &t->sends[i];

		if (wait)
			MPI_Wait(&s->req, MPI_STATUS_IGNORE);
		else
			MPI_Test(&s->req, &done, MPI_STATUS_IGNORE);
		if (s->req == MPI_REQUEST_NULL)
			free(s->buf);
		else
			t->sends[k++] = *s;
	}
	t->nsends = k;
}

int mpt_post_send(void *me, int ctx, int dst, int tag, const void *buf,
		  size_t n, const struct vp__envelope *env, int sync,
		  void **pending)
{
	struct mpt *t = me;
	struct mpt_header h = { sync ? MPT_SYNC : MPT_DATA, ctx, tag, 0, n,
				*env };
	struct mpt_sync *s = NULL;
	int rc;

	*pending = NULL;
	if (sync) {
		if (!(s = calloc(1, sizeof(*s))))
			return VP_ENOMEM;
		s->id = h.sync_id = ++t->next_sync;
		s->dst = dst;
		s->tag = tag;
		s->bytes = n;
	}
	if ((rc = send_packed(t, dst, &h, buf, n))) {
		free(s);
		return rc;
	}
	if (s) {
		s->next = t->syncs;
		t->syncs = s;
		*pending = s;
	}
	return VP_OK;
}

static void sync_forget(struct mpt *t, struct mpt_sync *s)
{
	struct mpt_sync **pp;

	for (pp = &t->syncs; *pp && *pp != s; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = s->next;
	free(s);
}

static int acked(struct mpt *t, void *arg)
{
	(void)t;
	return ((struct mpt_sync *)arg)->acked;
}

int mpt_complete_send(void *me, void *pending, int dst)
{
	struct mpt *t = me;
	struct mpt_sync *s = pending;
	struct mpt_waiting what = { "send", dst, 0, 0, NULL, 0 };
	int rc;

	if (!s)
		return VP_OK;
	what.tag = s->tag;
	what.bytes = s->bytes;
	rc = mpt_wait(t, acked, s, &what);
	sync_forget(t, s); /* a late acknowledgement finds no one: ignored */
	return rc;
}

int mpt_send_done(void *me, void *pending)
{
	struct mpt *t = me;

	mpt_pull(t);
	return !pending || ((struct mpt_sync *)pending)->acked;
}

/* ---- matching ---- */

static int matches(int ctx, int src, int tag, const struct mpt_msg *m)
{
	return m->h.ctx == ctx && (src == VP_ANY_SOURCE || src == m->src) &&
	       (tag == VP_ANY_TAG || tag == m->h.tag);
}

/* The receive r takes message m: its payload is copied (when it fits),
 * a synchronous sender is acknowledged, m is freed. */
static void take(struct mpt *t, struct vp__xrecv *r, struct mpt_msg *m)
{
	r->len = m->h.len;
	r->env = m->h.env;
	r->got_src = m->src;
	r->got_tag = m->h.tag;
	r->rc = VP_OK;
	if (m->h.len <= r->n && m->h.len)
		memcpy(r->buf, m->raw + sizeof(m->h), m->h.len);
	if (m->h.kind == MPT_SYNC) {
		struct mpt_header ack = { .kind = MPT_ACK,
					  .sync_id = m->h.sync_id };
		if (send_packed(t, m->src, &ack, NULL, 0))
			r->rc = VP_ENOMEM;
	}
	r->done = 1;
	free(m->raw);
	free(m);
}

/* An arrived message: to the oldest posted receive it matches, else to
 * the back of the unexpected queue. */
static void arrived(struct mpt *t, struct mpt_msg *m)
{
	struct vp__xrecv **pp, *r;

	for (pp = &t->posted; (r = *pp); pp = &r->next)
		if (matches(r->ctx, r->src, r->tag, m)) {
			*pp = r->next;
			if (!*pp)
				t->posted_tail = pp;
			take(t, r, m);
			return;
		}
	m->next = NULL;
	*t->unexp_tail = m;
	t->unexp_tail = &m->next;
}

static void acknowledged(struct mpt *t, uint32_t id)
{
	struct mpt_sync *s;

	for (s = t->syncs; s; s = s->next)
		if (s->id == id) {
			s->acked = 1;
			return;
		}
}

int mpt_pull(struct mpt *t)
{
	int flag, bytes, n = 0;
	MPI_Status st;

	mpt_sends_reap(t, 0);
	for (;;) {
		struct mpt_msg *m;

		MPI_Iprobe(MPI_ANY_SOURCE, 0, t->data, &flag, &st);
		if (!flag)
			return n;
		MPI_Get_count(&st, MPI_BYTE, &bytes);
		m = malloc(sizeof(*m));
		if (m)
			m->raw = malloc((size_t)bytes);
		if (!m || !m->raw || bytes < (int)sizeof(m->h)) {
			/* no memory: the message cannot be kept */
			char drop;
			MPI_Recv(&drop, 0, MPI_BYTE, st.MPI_SOURCE, 0, t->data,
				 MPI_STATUS_IGNORE);
			if (m)
				free(m->raw);
			free(m);
			vp__world_fail(t->w, t->me, VP_ENOMEM,
				       "vp (mpi transport): no memory for an "
				       "arriving message");
			return n;
		}
		MPI_Recv(m->raw, bytes, MPI_BYTE, st.MPI_SOURCE, 0, t->data,
			 MPI_STATUS_IGNORE);
		memcpy(&m->h, m->raw, sizeof(m->h));
		m->src = st.MPI_SOURCE;
		t->count--; /* Safra: received, and this process turns black */
		t->black = 1;
		t->fresh++;
		n++;
		if (m->h.kind == MPT_ACK) {
			acknowledged(t, m->h.sync_id);
			free(m->raw);
			free(m);
		} else {
			arrived(t, m);
		}
	}
}

/* ---- receives ---- */

int mpt_post_recv(void *me, struct vp__xrecv *r)
{
	struct mpt *t = me;
	struct mpt_msg **pp, *m;

	r->done = 0;
	r->next = NULL;
	mpt_pull(t);
	/* what waits unexpected matched none of the receives posted before
	 * this one: the oldest match is this receive's */
	for (pp = &t->unexp; (m = *pp); pp = &m->next)
		if (matches(r->ctx, r->src, r->tag, m)) {
			*pp = m->next;
			if (!*pp)
				t->unexp_tail = pp;
			take(t, r, m);
			return VP_OK;
		}
	*t->posted_tail = r;
	t->posted_tail = &r->next;
	return VP_OK;
}

void mpt_cancel_recv(void *me, struct vp__xrecv *r)
{
	struct mpt *t = me;
	struct vp__xrecv **pp;

	for (pp = &t->posted; *pp && *pp != r; pp = &(*pp)->next)
		;
	if (!*pp)
		return;
	*pp = r->next;
	if (!*pp)
		t->posted_tail = pp;
}

int mpt_progress(void *me)
{
	struct mpt *t = me;

	mpt_pull(t);
	t->fresh = 0;
	return VP_OK;
}

static int recv_done(struct mpt *t, void *arg)
{
	(void)t;
	return ((struct vp__xrecv *)arg)->done;
}

int mpt_recv(void *me, int ctx, int src, int tag, void *buf, size_t n,
	     size_t *len, struct vp__envelope *env, int *got_src, int *got_tag)
{
	struct mpt *t = me;
	struct vp__xrecv r = { .ctx = ctx, .src = src, .tag = tag, .buf = buf,
			       .n = n };
	struct mpt_waiting what = { "recv", src, tag, n, NULL, 0 };
	int rc;

	mpt_post_recv(t, &r);
	if (!r.done && (rc = mpt_wait(t, recv_done, &r, &what))) {
		mpt_cancel_recv(t, &r);
		return rc;
	}
	*len = r.len;
	*env = r.env;
	*got_src = r.got_src;
	*got_tag = r.got_tag;
	return r.rc;
}

/* Whatever arrives may complete one of the things waited for: the caller
 * looks again after each turn that pulled a message. */
static int pulled(struct mpt *t, void *arg)
{
	(void)arg;
	return t->pulled_now > 0;
}

int mpt_block(void *me, const struct vp__xwait *w, int n)
{
	struct mpt *t = me;
	struct mpt_waiting what = { "set", VP_ANY_SOURCE, VP_ANY_TAG, 0, w,
				    n };
	int i;

	/* Something arrived after the caller's progress (a send_done pulls
	 * too): it may have completed what the caller waits for. */
	if (t->fresh) {
		t->fresh = 0;
		return VP_OK;
	}
	for (i = 0; i < n; i++) /* an acknowledgement may be in already */
		if (w[i].kind == VP__XW_SEND &&
		    (!w[i].pending || ((struct mpt_sync *)w[i].pending)->acked))
			return VP_OK;
	if (n == 1) {
		what.kind = w[0].kind == VP__XW_SEND    ? "send"
			    : w[0].kind == VP__XW_PROBE ? "probe"
							: "recv";
		what.peer = w[0].peer;
		what.tag = w[0].tag;
		what.bytes = w[0].bytes;
	}
	return mpt_wait(t, pulled, NULL, &what);
}

static struct mpt_msg *find(struct mpt *t, int ctx, int src, int tag)
{
	struct mpt_msg *m;

	for (m = t->unexp; m; m = m->next)
		if (matches(ctx, src, tag, m))
			return m;
	return NULL;
}

struct probe_arg {
	int ctx, src, tag;
	struct mpt_msg *m;
};

static int probe_found(struct mpt *t, void *arg)
{
	struct probe_arg *a = arg;

	return (a->m = find(t, a->ctx, a->src, a->tag)) != NULL;
}

int mpt_probe(void *me, int ctx, int src, int tag, int blocking, int *found,
	      struct vp__xprobe *out)
{
	struct mpt *t = me;
	struct probe_arg a = { ctx, src, tag, NULL };
	struct mpt_waiting what = { "probe", src, tag, 0, NULL, 0 };
	int rc;

	mpt_pull(t);
	*found = probe_found(t, &a);
	if (!*found && blocking) {
		if ((rc = mpt_wait(t, probe_found, &a, &what)))
			return rc;
		*found = 1;
	}
	if (*found)
		*out = (struct vp__xprobe){ a.m->src, a.m->h.tag,
					    a.m->h.len, a.m->h.env };
	return VP_OK;
}

void mpt_idle(void *me)
{
	struct mpt *t = me;

	mpt_turn(t);
	if (t->crowded)
		sched_yield();
}

void mpt_messages_free(struct mpt *t)
{
	struct mpt_msg *m, *next;
	struct mpt_sync *s, *snext;

	for (m = t->unexp; m; m = next) {
		next = m->next;
		free(m->raw);
		free(m);
	}
	t->unexp = NULL;
	t->unexp_tail = &t->unexp;
	for (s = t->syncs; s; s = snext) {
		snext = s->next;
		free(s);
	}
	t->syncs = NULL;
	free(t->sends);
	t->sends = NULL;
	t->nsends = t->cap_sends = 0;
}
