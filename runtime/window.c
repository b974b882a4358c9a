/*
 * window.c - one-sided communication with fences: vp_win_create, vp_put,
 * vp_get, vp_accumulate, vp_win_fence, vp_win_free (MPI standard, ch. 11,
 * active target with MPI_Win_fence; Valiant's BSP supersteps, 1990).
 *
 * Ranks share one address space, so an operation reads or writes the
 * target's window directly when it is called; an accumulate holds the
 * target's lock, so accumulates to one target are atomic with respect to
 * each other. The model charges each operation as one message of its bytes
 * between origin and target, leaving from the origin's send port (the
 * target is passive: its ports are not used) over the route's links. The
 * fence closes the epoch: T reaches the arrival of the rank's last
 * operation, and a barrier makes every rank wait for all the others, so
 * every operation of the epoch is complete when any rank leaves the fence:
 * one superstep, costing the slowest rank's work plus a barrier.
 *
 * Handles: a freed window keeps its memory until the run ends (so using it
 * is reported, not undefined); the bases and sizes of all ranks live in one
 * record shared by the window's ranks, freed at the run's end.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "window.h"

#define VP__WIN_LIVE 0x76702d77u  /* "vp-w" */
#define VP__WIN_FREED 0x66726565u /* "free" */

struct win_shared *vp__win_shared_new(int p, int refs)
{
	struct win_shared *sh = calloc(1, sizeof(*sh));
	int i;

	if (!sh)
		return NULL;
	sh->p = p;
	sh->base = calloc((size_t)p, sizeof(*sh->base));
	sh->bytes = calloc((size_t)p, sizeof(*sh->bytes));
	sh->lock = calloc((size_t)p, sizeof(*sh->lock));
	if (!sh->base || !sh->bytes || !sh->lock) {
		free(sh->base);
		free(sh->bytes);
		free(sh->lock);
		free(sh);
		return NULL;
	}
	for (i = 0; i < p; i++)
		pthread_mutex_init(&sh->lock[i], NULL);
	atomic_init(&sh->refs, refs);
	return sh;
}

void vp__win_shared_release(struct win_shared *sh)
{
	int i;

	if (!sh || atomic_fetch_sub(&sh->refs, 1) != 1)
		return;
	vp__win_regions_free(sh);
	free(sh->block);
	for (i = 0; i < sh->p; i++)
		pthread_mutex_destroy(&sh->lock[i]);
	vp__win_locks_free(sh);
	free(sh->base);
	free(sh->bytes);
	free(sh->lock);
	free(sh);
}

void vp__windows_free(struct vp__rank *r)
{
	struct vp_win *w, *next;

	for (w = r->wins; w; w = next) {
		next = w->next;
		vp__win_pscw_free(w);
		vp__win_kinds_free(w, 0);
		vp__win_shared_release(w->sh);
		vp__win_messages_free(w->msg);
		vp__win_lock_free(w);
		vp__win_defer_free(w);
		free(w);
	}
	r->wins = NULL;
}

/* Rank 0 gathers every (base, bytes) and hands out the shared record. */
int vp__win_exchange(vp_comm *c, void *base, size_t bytes,
		     struct win_shared **out, const char *call)
{
	struct { void *base; size_t bytes; } mine = { base, bytes }, got;
	struct win_shared *sh = NULL;
	int i, rc = VP_OK, p = c->group->size;

	if (c->rank != 0) {
		if ((rc = vp__rt_send(c, 0, &mine, sizeof(mine), call)) ||
		    (rc = vp__rt_recv(c, 0, &sh, sizeof(sh), call)))
			return rc;
		*out = sh;
		return sh ? VP_OK : VP_ENOMEM;
	}
	sh = vp__win_shared_new(p, p);
	if (sh) {
		sh->base[0] = base;
		sh->bytes[0] = bytes;
	}
	for (i = 1; i < p && !rc; i++) {
		rc = vp__rt_recv(c, i, &got, sizeof(got), call);
		if (!rc && sh) {
			sh->base[i] = got.base;
			sh->bytes[i] = got.bytes;
		}
	}
	/* everyone learns the record, or NULL when there was no memory */
	for (i = 1; i < p && !rc; i++)
		rc = vp__rt_send(c, i, &sh, sizeof(sh), call);
	*out = sh;
	return rc ? rc : sh ? VP_OK : VP_ENOMEM;
}

int vp_win_create(vp_comm *c, void *base, size_t bytes, vp_win **win)
{
	struct vp__rank *me;
	struct win_shared *sh = NULL;
	struct win_messages *msg = NULL;
	int rc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, "vp_win_create")))
		return rc;
	me = c->me;
	if (!win)
		return vp__fail(me, VP_EINVAL, "vp_win_create",
				"the window pointer is NULL");
	*win = NULL;
	if ((rc = vp__check_buf(c, base, bytes, "vp_win_create", "base")))
		return rc;
	if (vp__win_uses_messages(me))
		rc = vp__win_messages_create(c, base, bytes, &sh, &msg);
	else if ((rc = vp__win_exchange(c, base, bytes, &sh,
					"vp_win_create")) == VP_ENOMEM)
		rc = vp__fail(me, rc, "vp_win_create",
			      "no memory for a window of %d ranks",
			      c->group->size);
	if (rc)
		return rc;
	return vp__win_made(c, sh, msg, win, "vp_win_create");
}

int vp__win_made(vp_comm *c, struct win_shared *sh, struct win_messages *msg,
		 vp_win **win, const char *call)
{
	struct vp__rank *me = c->me;
	struct vp_win *w;

	if (!(w = calloc(1, sizeof(*w)))) {
		vp__win_shared_release(sh);
		vp__win_messages_free(msg);
		return vp__fail(me, VP_ENOMEM, call, "no memory for a window");
	}
	w->magic = VP__WIN_LIVE;
	w->comm = c;
	w->sh = sh;
	w->msg = msg;
	w->id = ++c->windows;
	w->next = me->wins;
	me->wins = w;
	*win = w;
	return VP_OK;
}

/* The window is live, the caller is its rank, and an epoch is open (if
 * in_epoch). */
static int win_enter(vp_win *w, const char *call, int in_epoch)
{
	int rc;

	if (!w || (w->magic != VP__WIN_LIVE && w->magic != VP__WIN_FREED))
		return VP_EINVAL; /* not a window: no rank to name */
	if ((rc = vp__enter(w->comm, call)))
		return rc;
	if (w->magic == VP__WIN_FREED)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"the window was freed by vp_win_free");
	if (in_epoch && !w->fences && !w->nheld && !vp__win_pscw_access(w))
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"outside an epoch: call vp_win_fence (on every "
				"rank) or vp_win_start before the first "
				"operation, or vp_win_lock the target");
	return VP_OK;
}

int vp__win_enter(vp_win *w, const char *call)
{
	return win_enter(w, call, 0);
}

int vp__win_check(vp_win *w, const char *call)
{
	return win_enter(w, call, 0);
}

/* Target and byte range are inside the target's window: VP_OK, 1 for
 * VP_PROC_NULL (nothing to do), or the error. */
static int check_target(vp_win *w, int target, size_t offset, size_t n,
			const void *buf, const char *call)
{
	vp_comm *c = w->comm;
	int rc;

	if (target == VP_PROC_NULL)
		return 1;
	if (target < 0 || target >= c->group->size)
		return vp__fail(c->me, VP_ERANK, call,
				"target %d is outside [0, %d)", target,
				c->group->size);
	if ((rc = vp__check_buf(c, buf, n, call, "buffer")) ||
	    (rc = vp__win_pscw_target(w, target, call)))
		return rc;
	if ((rc = vp__win_range(w, target, offset, n, call)))
		return rc;
	return vp__win_access(w, target, call);
}

int vp__win_check_target(vp_win *w, int target, size_t offset, size_t n,
			 const void *buf, const char *call)
{
	return check_target(w, target, offset, n, buf, call);
}

/* The operation travels as a message (the target is another rank and
 * the window does not share memory). */
static int remote(const vp_win *w, int target)
{
	return w->msg && target != w->comm->rank;
}

/* bsp: the operation's bytes in h at both ends. The origin's send was
 * counted as sent; a get is received instead. The target counts what
 * arrives by messages itself (window_messages.c, apply); into a shared
 * window the origin adds it to the target's tally, which the target reads
 * in its superstep's end (superstep.c). */
static void bsp_count(vp_win *w, int target, size_t n, int get)
{
	struct vp__rank *me = w->comm->me;
	struct vp__rank *t = &me->world->ranks[vp__to_world(w->comm, target)];

	if (get) {
		me->clock.h_sent -= n;
		me->clock.h_recv += n;
	}
	if (remote(w, target))
		return;
	if (t == me) {
		if (get)
			me->clock.h_sent += n;
		else
			me->clock.h_recv += n;
		return;
	}
	atomic_fetch_add(get ? &t->bsp_out : &t->bsp_in, (uint64_t)n);
}

/* The model: one message of n bytes between origin and target; the trace
 * draws it as an arrow into the target's line. */
static void charge(vp_win *w, int target, size_t n, const char *what)
{
	struct vp__rank *me = w->comm->me;
	struct vp__world *world = me->world;
	struct vp__trace_op op;
	struct vp__envelope env = { 0 };
	int tw = vp__to_world(w->comm, target), hops;

	if (vp__win_locked(w, target)) { /* passive target: window_lock.c */
		if (!strcmp(what, "get"))
			vp__win_lock_charge(w, target, 0, n, 1, what);
		else
			vp__win_lock_charge(w, target, n, 0, 0, what);
		return;
	}
	vp__trace_begin(w->comm, &op, VP__EV_SEND);
	hops = vp__clock_send(&me->clock, &world->model, &world->topo,
			      me->world_rank, tw, n, &env);
	me->clock.t = me->clock.send_cpu; /* LogP: the origin's o */
	vp__trace_stamp(&me->trace, &env);
	vp__trace_sent(w->comm, &op, tw, n, hops, &env);
	op.rma = what;
	vp__trace_end(w->comm, &op);

	vp__clock_log(&me->clock, VP__EV_ISEND, tw, -1, (uint32_t)hops, 0, n,
		      0);
	if (world->model.kind == VP_MODEL_BSP)
		bsp_count(w, target, n, !strcmp(what, "get"));
	w->last_target = target;
	me->clock.messages++;
	me->clock.bytes += n;
	if (!w->ops || env.arrival >= w->arrival) {
		w->arrival = env.arrival;
		w->last = env.seq;
	}
	w->ops++;
}

int vp_put(vp_win *w, int target, size_t offset, const void *buf, size_t n)
{
	int rc;

	if ((rc = win_enter(w, "vp_put", 1)) ||
	    (rc = check_target(w, target, offset, n, buf, "vp_put")))
		return rc < 0 ? rc : VP_OK;
	if (vp__win_rma(w, target, 0))
		rc = vp__win_remote_put(w, target, offset, buf, n, "vp_put");
	else if (remote(w, target))
		rc = vp__win_messages_op(w, WIN_PUT, target, offset, buf, n, 0,
					 0);
	else if (n && !vp__win_defer_put(w, target, offset, buf, n))
		memmove(vp__win_at(w, target, offset), buf, n);
	if (rc)
		return rc;
	charge(w, target, n, "put");
	return VP_OK;
}

int vp_get(vp_win *w, int target, size_t offset, void *buf, size_t n)
{
	int rc;

	if ((rc = win_enter(w, "vp_get", 1)) ||
	    (rc = check_target(w, target, offset, n, buf, "vp_get")))
		return rc < 0 ? rc : VP_OK;
	if (vp__win_rma(w, target, 0))
		rc = vp__win_remote_get(w, target, offset, buf, n, "vp_get");
	else if (remote(w, target))
		rc = vp__win_messages_op(w, WIN_GET, target, offset, buf, n, 0,
					 0);
	else if (n)
		memmove(buf, vp__win_at(w, target, offset), n);
	if (rc)
		return rc;
	charge(w, target, n, "get");
	return VP_OK;
}

/* An accumulate of a lock epoch over the transport's RMA
 * (window_remote.c), its op checked on a copy first. */
static int lock_epoch_accumulate(vp_win *w, int target, size_t offset,
				 const void *buf, size_t count, vp_type type,
				 vp_op op)
{
	unsigned char probe[16];
	size_t es = vp_type_size(type);
	int rc;

	if (op < VP_REPLACE && count) {
		memcpy(probe, buf, es);
		if (vp_reduce_local(buf, probe, 1, type, op))
			return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
					"op %d does not apply to type %d",
					(int)op, (int)type);
	} else if ((unsigned)op > VP_NO_OP) {
		return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
				"op %d is not a vp_op", (int)op);
	}
	if ((rc = vp__win_remote_acc(w, target, offset, buf, NULL, count,
				     type, op, "vp_accumulate")))
		return rc;
	charge(w, target, count * es, "accumulate");
	return VP_OK;
}

int vp_accumulate(vp_win *w, int target, size_t offset, const void *buf,
		  size_t count, vp_type type, vp_op op)
{
	size_t es = vp_type_size(type), n;
	int rc;

	if ((rc = win_enter(w, "vp_accumulate", 1)))
		return rc;
	if ((unsigned)type > VP_DOUBLE)
		return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
				"type %d is not a vp_type", (int)type);
	if (count > SIZE_MAX / es)
		return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
				"count %zu overflows", count);
	n = count * es;
	if ((rc = check_target(w, target, offset, n, buf, "vp_accumulate")))
		return rc < 0 ? rc : VP_OK;
	if (offset % es)
		return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
				"offset %zu is not a multiple of the type's "
				"%zu bytes",
				offset, es);
	if (vp__win_rma(w, target, 0))
		return lock_epoch_accumulate(w, target, offset, buf, count,
					     type, op);
	if (remote(w, target) && op < VP_REPLACE) {
		/* the target applies it: find a wrong op here, on a copy */
		unsigned char probe[16];

		memcpy(probe, buf, es);
		rc = vp_reduce_local(buf, probe, 1, type, op);
	} else if (!remote(w, target)) {
		rc = vp__win_apply(w, target, offset, buf, NULL, count, type,
				   op);
	} else if (op != VP_REPLACE && op != VP_NO_OP) {
		rc = VP_EINVAL;
	}
	if (rc)
		return vp__fail(w->comm->me, rc, "vp_accumulate",
				"op %d does not apply to type %d", (int)op,
				(int)type);
	/* as messages, the target applies them one at a time: a replace is
	 * a put there */
	if (remote(w, target) && op != VP_NO_OP &&
	    (rc = vp__win_messages_op(w,
				      op == VP_REPLACE ? WIN_PUT
						       : WIN_ACCUMULATE,
				      target, offset, buf,
				      op == VP_REPLACE ? n : count, type,
				      op)))
		return rc;
	charge(w, target, n, "accumulate");
	return VP_OK;
}

/* The epoch's operations are complete here: T reaches the last arrival,
 * then every rank waits for the others in a barrier checked as the call
 * (vp_win_fence or vp_win_free) on this window: a rank in a fence and one
 * in a free, a vp_barrier or a fence of another window are in different
 * collective calls, and the run fails with VP_EMISMATCH naming both
 * (coll_check.c) before any rank goes on to touch a freed window. */
static int close_epoch(vp_win *w, const char *call)
{
	vp_coll_sig sig = { .call = call, .count = (size_t)w->id,
			    .type = -1, .op = -1, .root = -1 };
	int rc;

	if ((rc = vp__win_pscw_idle(w, call)))
		return rc;
	if (w->msg && (rc = vp__win_messages_fence(w)))
		return rc;
	if (w->msg && w->msg->rma) /* the epoch's atomics, at the targets */
		vp__win_remote_flush(w, -1);
	vp__win_arrived(w);
	rc = vp__barrier_as(w->comm, &sig);
	if (w->msg && w->msg->rma) /* and seen here */
		vp__tx(w->comm->me)->rma->sync(w->comm->me->tx);
	return rc;
}

void vp__win_arrived(vp_win *w)
{
	struct vp__rank *me = w->comm->me;

	if (w->ops) {
		if (w->arrival > me->clock.t)
			me->clock.t = w->arrival;
		vp__clock_log(&me->clock, VP__EV_ARRIVED, -1, -1, 0, w->last, 0,
			      0);
	}
	w->ops = 0;
}

int vp_win_fence(vp_win *w)
{
	int rc;

	if ((rc = win_enter(w, "vp_win_fence", 0)) ||
	    (rc = vp__win_lock_none(w, "vp_win_fence")))
		return rc;
	rc = close_epoch(w, "vp_win_fence");
	w->fences++;
	return rc;
}

int vp_win_free(vp_win *w)
{
	int rc;

	if ((rc = win_enter(w, "vp_win_free", 0)) ||
	    (rc = vp__win_lock_none(w, "vp_win_free")))
		return rc;
	/* nobody may still be reading or writing any window */
	if ((rc = close_epoch(w, "vp_win_free")))
		return rc;
	w->magic = VP__WIN_FREED;
	vp__win_remote_free(w, w->msg);
	vp__win_kinds_free(w, 1);
	return VP_OK;
}

/* A rank returned from its function: operations of an epoch that no fence
 * closed are a wrong program (MPI: they may never happen), on every
 * transport, even where they took effect at once. */
void vp__windows_settle(struct vp__rank *r)
{
	struct vp_win *w;

	for (w = r->wins; w; w = w->next) {
		if (w->magic == VP__WIN_LIVE && w->nheld &&
		    !vp__world_status(r->world)) {
			char msg[VP__ERRMSG_BYTES];

			snprintf(msg, sizeof(msg),
				 "rank %d: rank function: returned holding "
				 "%d lock%s of vp_win_lock (passive target); "
				 "vp_win_unlock each",
				 r->world_rank, w->nheld,
				 w->nheld == 1 ? "" : "s");
			vp__world_fail(r->world, r->world_rank, VP_ESYNC, msg);
		}
		if (w->magic != VP__WIN_LIVE || !w->ops)
			continue;
		if (!vp__world_status(r->world)) {
			char msg[VP__ERRMSG_BYTES];

			snprintf(msg, sizeof(msg),
				 "rank %d: rank function: returned with %d "
				 "one-sided operation%s of an epoch that no "
				 "vp_win_fence closed (the last one to rank "
				 "%d); fence, or free the window, on every "
				 "rank",
				 r->world_rank, w->ops, w->ops == 1 ? "" : "s",
				 w->last_target);
			vp__world_fail(r->world, r->world_rank, VP_EINVAL,
				       msg);
		}
		if (w->msg)
			vp__win_messages_withdraw(w);
	}
}
