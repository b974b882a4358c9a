/*
 * window_messages.c - one-sided windows where the ranks do not share
 * memory (the mpi transport): every put, get and accumulate is a message
 * to the target, applied by the target in its next fence.
 *
 * This is how MPI libraries without hardware RMA build MPI_Put over their
 * point-to-point layer (active messages, e.g. MPICH's ch3 RMA; Gropp and
 * Thakur 2007). It is done here above the transport seam rather than with
 * MPI's own RMA for three reasons: only the thread that called vp_run may
 * talk to MPI, so a target could not serve an origin between its own vp
 * calls anyway; a rank blocked in MPI_Win_fence would be invisible to the
 * deadlock detection and to a failure on another process, both of which
 * see every vp message; and the same code runs on every transport
 * (VP_WIN=messages selects it on threads, where the tests run it under
 * the sanitizers).
 *
 * The protocol, on the runtime space of the window's communicator:
 *   - vp_put, vp_accumulate: a header (kind, offset, bytes, type, op) and
 *     the data, sent at once (the origin's buffer may be reused);
 *     vp_get: a header only; the origin remembers where the reply goes.
 *     Operations to the caller's own window are done in place.
 *   - vp_win_fence: each rank sends an END to every other rank, then takes
 *     every other rank's operations, in the order they were made, up to
 *     its END (answering each get with a reply on tag + 1), then receives
 *     the replies to its own gets, then waits for its sends to complete.
 *     2 (p - 1) small messages per rank and fence beyond the operations;
 *     the first fence, which no operation can precede, sends none.
 * None of these messages is modelled: window.c charges each operation as
 * one message on the route and the fence as a barrier, on every transport
 * alike, so model times are the same.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "window.h"

struct win_get {
	int target;
	void *buf;
	size_t n;
};

struct win_sent {
	void *pending; /* the transport's handle: NULL once complete */
	void *packet;
	int dst;
};

struct op_header {
	uint32_t kind;
	int32_t type, op;
	uint32_t spare;
	uint64_t offset, bytes;
};

static int runtime_ctx(const vp_win *w)
{
	return w->comm->group->id * VP__SPACES + VP__SPACE_RUNTIME;
}

int vp__win_uses_messages(const struct vp__rank *me)
{
	const char *v = getenv("VP_WIN");

	/* a job of one process shares its one rank's memory with itself */
	return (!vp__tx(me)->shares_memory && me->world->p > 1) ||
	       (v && !strcmp(v, "messages"));
}

/* Rank 0 gathers every rank's window size (and, with the transport's
 * RMA, the addresses of its base and lock block: window_remote.c) and
 * hands out the table with the window's tag: [tag, then per rank r:
 * bytes, base address, lock block address]. */
int vp__win_messages_create(vp_comm *c, void *base, size_t bytes,
			    struct win_shared **out_sh,
			    struct win_messages **out_msg)
{
	struct vp__rank *me = c->me;
	int p = c->group->size, i, rc = VP_OK;
	size_t n = 1 + 3 * (size_t)p, mine_n = 3 * sizeof(uint64_t);
	uint64_t *table = calloc(n, sizeof(*table)), mine[3];
	struct win_shared *sh = vp__win_shared_new(p, 1);
	struct win_messages *msg = calloc(1, sizeof(*msg));
	const struct vp_win *made;

	if (!table || !sh || !msg) {
		free(table);
		free(msg);
		if (sh)
			vp__win_shared_release(sh);
		return vp__fail(me, VP_ENOMEM, "vp_win_create",
				"no memory for a window of %d ranks", p);
	}
	vp__win_remote_setup(c, msg, base, bytes, mine);
	if (c->rank == 0) {
		/* tags 1 + 2k and 2 + 2k for rank 0's k-th window: unique in
		 * this communicator's runtime space (vp_comm_split uses 0) */
		for (made = me->wins; made; made = made->next)
			table[0] += 2;
		table[0] += 1;
		memcpy(&table[1], mine, mine_n);
		for (i = 1; i < p && !rc; i++)
			rc = vp__rt_recv(c, i, &table[1 + 3 * i], mine_n,
					 "vp_win_create");
		for (i = 1; i < p && !rc; i++)
			rc = vp__rt_send(c, i, table, n * sizeof(*table),
					 "vp_win_create");
	} else if (!(rc = vp__rt_send(c, 0, mine, mine_n, "vp_win_create"))) {
		rc = vp__rt_recv(c, 0, table, n * sizeof(*table),
				 "vp_win_create");
	}
	if (!rc) {
		for (i = 0; i < p; i++)
			sh->bytes[i] = (size_t)table[1 + 3 * i];
		sh->base[c->rank] = base;
		msg->tag = (int)table[0];
		if (vp__win_remote_adopt(c, msg, table + 1))
			rc = vp__fail(me, VP_ENOMEM, "vp_win_create",
				      "no memory for a window of %d ranks", p);
	}
	free(table);
	if (rc) {
		vp__win_shared_release(sh);
		vp__win_messages_free(msg);
		return rc;
	}
	*out_sh = sh;
	*out_msg = msg;
	return VP_OK;
}

static int grow(void **array, int *cap, int need, size_t each)
{
	void *bigger;
	int n = *cap ? *cap : 8;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (!(bigger = realloc(*array, (size_t)n * each)))
		return -1;
	*array = bigger;
	*cap = n;
	return 0;
}

/* Sends packet (n bytes, ours until its send completes) to dst. */
static int post(vp_win *w, int dst, int tag, void *packet, size_t n,
		const char *call)
{
	struct vp__rank *me = w->comm->me;
	struct win_messages *m = w->msg;
	struct vp__envelope env = { 0 };
	void *pending = NULL;
	int rc;

	if (!packet)
		return vp__fail(me, VP_ENOMEM, call, "no memory");
	if (grow((void **)&m->sent, &m->capsent, m->nsent + 1,
		 sizeof(*m->sent))) {
		free(packet);
		return vp__fail(me, VP_ENOMEM, call, "no memory");
	}
	rc = vp__tx(me)->post_send(me->tx, runtime_ctx(w),
				   vp__to_world(w->comm, dst), tag, packet, n,
				   &env, 0, &pending);
	if (rc) {
		free(packet);
		return vp__fail(me, rc, call, "no memory");
	}
	if (!pending) { /* the transport copied it */
		free(packet);
		return VP_OK;
	}
	m->sent[m->nsent++] =
	    (struct win_sent){ pending, packet, vp__to_world(w->comm, dst) };
	return VP_OK;
}

static void *packet_new(enum win_op_kind kind, size_t offset, size_t bytes,
			vp_type type, vp_op op, const void *data,
			size_t data_bytes)
{
	struct op_header h = { (uint32_t)kind, (int32_t)type, (int32_t)op, 0,
			       offset, bytes };
	char *packet = malloc(sizeof(h) + data_bytes);

	if (packet) {
		memcpy(packet, &h, sizeof(h));
		if (data_bytes)
			memcpy(packet + sizeof(h), data, data_bytes);
	}
	return packet;
}

int vp__win_messages_op(vp_win *w, enum win_op_kind kind, int target,
			size_t offset, const void *buf, size_t count,
			vp_type type, vp_op op)
{
	static const char *const calls[] = { "", "vp_put", "vp_get",
					     "vp_accumulate", "" };
	struct win_messages *m = w->msg;
	size_t bytes = kind == WIN_ACCUMULATE ? count * vp_type_size(type)
					      : count;
	size_t data = kind == WIN_GET ? 0 : bytes;
	void *packet = packet_new(kind, offset, bytes, type, op, buf, data);

	if (!packet ||
	    (kind == WIN_GET && grow((void **)&m->gets, &m->capgets,
				     m->ngets + 1, sizeof(*m->gets)))) {
		free(packet);
		return vp__fail(w->comm->me, VP_ENOMEM, calls[kind],
				"no memory");
	}
	if (kind == WIN_GET)
		m->gets[m->ngets++] =
		    (struct win_get){ target, (void *)buf, bytes };
	return post(w, target, m->tag, packet, sizeof(struct op_header) + data,
		    calls[kind]);
}

static int apply_at(vp_win *w, int origin, const struct op_header *h,
		    const char *data, char *base);

/* Applies one operation from origin to the caller's window; a get is
 * answered. The origin checked the range, type and op; they are checked
 * again in case the window's sizes disagree (they cannot, but a wrong
 * byte here would write outside the window). */
static int apply(vp_win *w, int origin, const struct op_header *h,
		 const char *data, size_t data_bytes)
{
	struct vp__rank *me = w->comm->me;
	char *base = vp__win_at(w, w->comm->rank, (size_t)h->offset);
	size_t have = w->sh->bytes[w->comm->rank];

	if (w->dynamic && (h->kind == WIN_GET || data_bytes == h->bytes)) {
		/* a dynamic window: the offset is an address, checked
		 * against the regions attached here */
		int rc = vp__win_range(w, w->comm->rank, (size_t)h->offset,
				       (size_t)h->bytes, "vp_win_fence");

		return rc ? rc : apply_at(w, origin, h, data, base);
	}
	if (h->offset > have || h->bytes > have - h->offset ||
	    (h->kind != WIN_GET && data_bytes != h->bytes))
		return vp__fail(me, VP_EINVAL, "vp_win_fence",
				"an operation from rank %d on bytes [%llu, "
				"%llu + %llu) does not fit this window of %zu "
				"bytes",
				origin, (unsigned long long)h->offset,
				(unsigned long long)h->offset,
				(unsigned long long)h->bytes, have);
	return apply_at(w, origin, h, data, base);
}

/* Applies the checked operation h at base (the target's bytes). */
static int apply_at(vp_win *w, int origin, const struct op_header *h,
		    const char *data, char *base)
{
	struct vp__rank *me = w->comm->me;
	void *reply;

	if (h->kind == WIN_GET) /* bsp's h: what this target sends... */
		me->clock.h_sent += h->bytes;
	else /* ... and takes in */
		me->clock.h_recv += h->bytes;
	switch (h->kind) {
	case WIN_PUT:
		if (h->bytes)
			memmove(base, data, h->bytes);
		return VP_OK;
	case WIN_ACCUMULATE:
		if (!vp_type_size(h->type))
			break;
		return vp_reduce_local(data, base,
				       h->bytes / vp_type_size(h->type),
				       h->type, h->op)
			   ? vp__fail(me, VP_EINVAL, "vp_win_fence",
				      "an accumulate from rank %d has op %d "
				      "on type %d",
				      origin, h->op, h->type)
			   : VP_OK;
	case WIN_GET:
		if (!(reply = malloc(h->bytes ? h->bytes : 1)))
			return vp__fail(me, VP_ENOMEM, "vp_win_fence",
					"no memory");
		if (h->bytes)
			memcpy(reply, base, h->bytes);
		return post(w, origin, w->msg->tag + 1, reply, h->bytes,
			    "vp_win_fence");
	}
	return vp__fail(me, VP_EINVAL, "vp_win_fence",
			"a message of kind %u (type %d) from rank %d is not a "
			"window operation",
			h->kind, h->type, origin);
}

/* Takes origin's operations on this window up to its END (*ended then
 * 1); not blocking: only those that have arrived (*took counts them). */
static int take_operations(vp_win *w, int origin, char **scratch,
			   size_t *room, int blocking, int *ended, int *took)
{
	struct vp__rank *me = w->comm->me;
	int ow = vp__to_world(w->comm, origin), found, rc;
	struct vp__xprobe pr;
	struct op_header h;

	for (;;) {
		rc = vp__tx(me)->probe(me->tx, runtime_ctx(w), ow, w->msg->tag,
				       blocking, &found, &pr);
		if (rc)
			return vp__fail(me, rc, "vp_win_fence",
					"waiting for rank %d's operations: %s",
					origin, vp_strerror(rc));
		if (!found)
			return VP_OK;
		if (pr.len < sizeof(h))
			return vp__fail(me, VP_EINVAL, "vp_win_fence",
					"a message of %zu bytes from rank %d "
					"is not a window operation",
					pr.len, origin);
		if (pr.len > *room) {
			char *bigger = realloc(*scratch, pr.len);

			if (!bigger)
				return vp__fail(me, VP_ENOMEM, "vp_win_fence",
						"no memory for an operation "
						"of %zu bytes",
						pr.len);
			*scratch = bigger;
			*room = pr.len;
		}
		if ((rc = vp__runtime_recv(me, runtime_ctx(w), ow, w->msg->tag,
					   *scratch, pr.len, "vp_win_fence")))
			return rc;
		memcpy(&h, *scratch, sizeof(h));
		(*took)++;
		if (h.kind == WIN_END) {
			*ended = 1;
			return VP_OK;
		}
		if ((rc = apply(w, origin, &h, *scratch + sizeof(h),
				pr.len - sizeof(h))))
			return rc;
	}
}

/* Waits for every send still in flight; on a failing run the transport
 * withdraws them. */
static int complete_sends(vp_win *w)
{
	struct vp__rank *me = w->comm->me;
	struct win_messages *m = w->msg;
	int i, rc = VP_OK, r;

	for (i = 0; i < m->nsent; i++) {
		r = vp__tx(me)->complete_send(me->tx, m->sent[i].pending,
					      m->sent[i].dst);
		if (r && !rc)
			rc = r;
		free(m->sent[i].packet);
	}
	m->nsent = 0;
	return rc;
}

int vp__win_messages_fence(vp_win *w)
{
	struct vp__rank *me = w->comm->me;
	struct win_messages *m = w->msg;
	int p = w->comm->group->size, self = w->comm->rank, i, rc = VP_OK;
	int ended = 0, took = 0;
	char *scratch = NULL;
	size_t room = 0;

	if (!w->fences) /* no epoch was open: nothing can be in flight */
		return VP_OK;
	for (i = 0; i < p && !rc; i++)
		if (i != self)
			rc = post(w, i, m->tag,
				  packet_new(WIN_END, 0, 0, 0, 0, NULL, 0),
				  sizeof(struct op_header), "vp_win_fence");
	for (i = 0; i < p && !rc; i++)
		if (i != self)
			rc = take_operations(w, i, &scratch, &room, 1, &ended,
					     &took);
	free(scratch);
	for (i = 0; i < m->ngets && !rc; i++)
		rc = vp__runtime_recv(
		    me, runtime_ctx(w), vp__to_world(w->comm, m->gets[i].target),
		    m->tag + 1, m->gets[i].buf, m->gets[i].n, "vp_win_fence");
	m->ngets = 0;
	i = complete_sends(w);
	return rc ? rc : i;
}

void vp__win_messages_withdraw(vp_win *w)
{
	(void)complete_sends(w);
	w->msg->ngets = 0;
}

void vp__win_messages_free(struct win_messages *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nsent; i++) /* the run is over: nothing reads them */
		free(m->sent[i].packet);
	free(m->sent);
	free(m->gets);
	vp__win_remote_free(NULL, m);
	free(m);
}

/* Post-start-complete-wait (window_pscw.c) ends an epoch pair by pair:
 * the origin's vp_win_complete sends END to each target of its group and
 * takes the replies to its gets; the target's vp_win_wait takes each
 * origin's operations up to its END (answering the gets). */
int vp__win_messages_end(vp_win *w, int target, const char *call)
{
	return post(w, target, w->msg->tag,
		    packet_new(WIN_END, 0, 0, 0, 0, NULL, 0),
		    sizeof(struct op_header), call);
}

int vp__win_messages_take(vp_win *w, int origin, int blocking, int *ended,
			  const char *call)
{
	char *scratch = NULL;
	size_t room = 0;
	int rc, took = 0;

	(void)call;
	rc = take_operations(w, origin, &scratch, &room, blocking, ended,
			     &took);
	free(scratch);
	return rc < 0 ? rc : took;
}

/* Whether the reply to get g has arrived: 1, 0, or the error. */
static int reply_here(vp_win *w, const struct win_get *g, const char *call)
{
	struct vp__rank *me = w->comm->me;
	struct vp__xprobe pr;
	int found, rc;

	rc = vp__tx(me)->probe(me->tx, runtime_ctx(w),
			       vp__to_world(w->comm, g->target),
			       w->msg->tag + 1, 0, &found, &pr);
	return rc ? vp__fail(me, rc, call, "%s", vp_strerror(rc)) : found;
}

/* Blocks until the reply to g or an operation of an origin not ended
 * may have arrived. */
static int block_on(vp_win *w, const struct win_get *g, const int *origins,
		    const int *ended, int n, struct vp__xwait *x,
		    const char *call)
{
	struct vp__rank *me = w->comm->me;
	int k, nx = 0, rc;

	x[nx++] = (struct vp__xwait){ VP__XW_PROBE, runtime_ctx(w),
				      vp__to_world(w->comm, g->target),
				      w->msg->tag + 1, g->n, NULL };
	for (k = 0; k < n; k++)
		if (!ended[k] && origins[k] != w->comm->rank)
			x[nx++] = (struct vp__xwait){
				VP__XW_PROBE, runtime_ctx(w),
				vp__to_world(w->comm, origins[k]), w->msg->tag,
				0, NULL };
	rc = vp__tx(me)->block(me->tx, x, nx);
	return rc ? vp__fail(me, rc, call, "%s", vp_strerror(rc)) : VP_OK;
}

int vp__win_messages_settle(vp_win *w, const int *origins, int *ended,
			    int n, const char *call)
{
	struct vp__rank *me = w->comm->me;
	struct win_messages *m = w->msg;
	struct vp__xwait *x = malloc(((size_t)n + 1) * sizeof(*x));
	int i, k, rc = x ? VP_OK : VP_ENOMEM, took, here;

	for (i = 0; i < m->ngets && !rc; i++) {
		/* the target answers in its own complete or wait: serve
		 * the origins of the caller's exposure meanwhile */
		while (!rc && !(here = reply_here(w, &m->gets[i], call))) {
			for (k = took = 0; k < n && !rc; k++)
				if (!ended[k] && origins[k] != w->comm->rank &&
				    (rc = vp__win_messages_take(
					 w, origins[k], 0, &ended[k], call)) > 0)
					took += rc, rc = 0;
			if (!rc && !took)
				rc = block_on(w, &m->gets[i], origins, ended, n,
					      x, call);
		}
		if (here < 0)
			rc = here;
		if (!rc)
			rc = vp__runtime_recv(
			    me, runtime_ctx(w),
			    vp__to_world(w->comm, m->gets[i].target),
			    m->tag + 1, m->gets[i].buf, m->gets[i].n, call);
	}
	free(x);
	m->ngets = 0;
	i = complete_sends(w);
	return rc ? rc : i;
}
