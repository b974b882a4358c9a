/*
 * window_remote.c - passive target and the one-sided atomics where ranks
 * do not share memory (the mpi transport): over the transport's RMA
 * (transport.h, struct vp__rma: the MPI library's own passive target,
 * mpi/rma.c), so the target calls nothing.
 *
 * A window carried as messages (window_messages.c) attaches each rank's
 * memory to the transport's RMA as well, and a lock block of its own:
 *   [0] the lock word: 0 free, n shared lockers, EXCL + n: exclusive
 *   [1] the rank that took it last (for reports)
 *   [2] model: the last exclusive release arrived (a double)
 *   [3] model: the last release of any kind arrived (a double)
 *   [4 + r] 1 while rank r waits for this lock
 * A locker adds its share (1, or EXCL) with an atomic fetch-and-add and
 * holds the lock if what it fetched allows (shared: no EXCL in it;
 * exclusive: 0), else takes its share back. The first to add to a free
 * word gets it, so two exclusive lockers never both give up. A releaser
 * takes its share back, then reads the waiting flags and wakes each
 * waiter with a message the termination detection counts; so does a
 * locker whose taking back left the lock free for others. A waiter
 * registers its flag before the try after which it sleeps, and sleeps
 * only until a wake comes after that try: either its try sees the
 * release, or the releaser sees its flag (every access is an atomic
 * completed at the target before the next). A rank that waits for a lock
 * is therefore passive like a receiver, and a lock never granted is a
 * deadlock the detection finds and names, without a timeout.
 *
 * Every operation is complete at the origin when it returns and at the
 * target at the epoch's flush or unlock; accumulates and the atomics of
 * every window go through the same RMA, whose accumulates are atomic per
 * location (MPI 4.0, sec. 12.7.1). The model is window_lock.c's, so model
 * times are those of the threads transport.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

#define EXCL ((int64_t)1 << 32)
#define WORD_STATE 0
#define WORD_HOLDER 1
#define WORD_EXCL_FREE 2
#define WORD_ANY_FREE 3
#define WORD_WAITING 4

static const struct vp__rma *rma_of(const vp_win *w)
{
	return vp__tx(w->comm->me)->rma;
}

void vp__win_remote_setup(vp_comm *c, struct win_messages *msg, void *base,
			  size_t bytes, uint64_t mine[3])
{
	struct vp__rank *me = c->me;
	const struct vp__rma *rma = vp__tx(me)->rma;
	size_t words = WORD_WAITING + (size_t)c->group->size;
	int64_t *block;

	mine[0] = bytes;
	mine[1] = mine[2] = 0;
	if (!rma || !(block = calloc(words, sizeof(*block))))
		return;
	if (rma->attach(me->tx, block, words * sizeof(*block), &mine[2])) {
		free(block);
		mine[2] = 0;
		return;
	}
	if (base && bytes && rma->attach(me->tx, base, bytes, &mine[1])) {
		rma->detach(me->tx, block);
		free(block);
		mine[2] = 0;
		return;
	}
	if (base && bytes)
		msg->attached = base;
	msg->lock_mine = block;
}

int vp__win_remote_adopt(vp_comm *c, struct win_messages *msg,
			 const uint64_t *table)
{
	int p = c->group->size, i, all = 1;
	size_t n = (size_t)(unsigned)p;

	for (i = 0; i < p; i++)
		all &= table[3 * i + 2] != 0;
	if (!all)
		return VP_OK; /* fences only */
	msg->addr = calloc(n, sizeof(*msg->addr));
	msg->lock_at = calloc(n, sizeof(*msg->lock_at));
	if (!msg->addr || !msg->lock_at)
		return VP_ENOMEM;
	for (i = 0; i < p; i++) {
		msg->addr[i] = table[3 * i + 1];
		msg->lock_at[i] = table[3 * i + 2];
	}
	msg->rma = 1;
	return VP_OK;
}

void vp__win_remote_free(vp_win *w, struct win_messages *msg)
{
	const struct vp__rma *rma;

	if (!msg)
		return;
	rma = w ? rma_of(w) : NULL;
	if (rma && msg->attached)
		rma->detach(w->comm->me->tx, msg->attached);
	if (rma && msg->lock_mine)
		rma->detach(w->comm->me->tx, msg->lock_mine);
	msg->attached = NULL;
	if (rma || !w) {
		free(msg->lock_mine);
		msg->lock_mine = NULL;
	}
	free(msg->addr);
	free(msg->lock_at);
	msg->addr = msg->lock_at = NULL;
	msg->rma = 0;
}

int vp__win_remote_attach(vp_win *w, void *base, size_t bytes,
			  const char *call)
{
	uint64_t addr = 0;

	if (!w->msg || !w->msg->rma || !bytes)
		return VP_OK;
	if (rma_of(w)->attach(w->comm->me->tx, base, bytes, &addr))
		return vp__fail(w->comm->me, VP_ENOMEM, call,
				"the MPI library attached no more memory to "
				"its window (Open MPI: raise "
				"OMPI_MCA_osc_rdma_max_attach)");
	return VP_OK;
}

void vp__win_remote_detach(vp_win *w, void *base)
{
	if (w->msg && w->msg->rma)
		rma_of(w)->detach(w->comm->me->tx, base);
}

const char *vp__win_no_rma(const vp_win *w)
{
	if (!rma_of(w))
		return "windows carried as messages without the transport's "
		       "RMA (VP_WIN=messages)";
	if (w->comm->me->world->p > 1 && w->msg && !w->msg->lock_at)
		return "the MPI library made no window, or attached no more "
		       "memory to it when this one was made (Open MPI: raise "
		       "OMPI_MCA_osc_rdma_max_attach)";
	return "this window";
}

int vp__win_rma(const vp_win *w, int target, int atomic)
{
	return w->msg && w->msg->rma && (atomic || vp__win_locked(w, target));
}

/* target's bytes at offset, by address (a dynamic window's offsets are
 * addresses already). */
static uint64_t at(const vp_win *w, int target, size_t offset)
{
	return w->dynamic ? (uint64_t)offset
			  : w->msg->addr[target] + (uint64_t)offset;
}

static int failed(vp_win *w, int rc, const char *err, const char *call)
{
	if (!rc)
		return VP_OK;
	return vp__fail(w->comm->me, rc, call, "%s", err);
}

int vp__win_remote_put(vp_win *w, int target, size_t offset,
		       const void *buf, size_t n, const char *call)
{
	char err[VP__ERRMSG_BYTES / 2] = "";

	if (!n)
		return VP_OK;
	return failed(w,
		      rma_of(w)->put(w->comm->me->tx,
				     vp__to_world(w->comm, target),
				     at(w, target, offset), buf, n, err,
				     sizeof(err)),
		      err, call);
}

int vp__win_remote_get(vp_win *w, int target, size_t offset, void *buf,
		       size_t n, const char *call)
{
	char err[VP__ERRMSG_BYTES / 2] = "";

	if (!n)
		return VP_OK;
	return failed(w,
		      rma_of(w)->get(w->comm->me->tx,
				     vp__to_world(w->comm, target),
				     at(w, target, offset), buf, n, err,
				     sizeof(err)),
		      err, call);
}

int vp__win_remote_acc(vp_win *w, int target, size_t offset, const void *in,
		       void *result, size_t count, vp_type type, vp_op op,
		       const char *call)
{
	char err[VP__ERRMSG_BYTES / 2] = "";

	if (!count || (op == VP_NO_OP && !result))
		return VP_OK;
	return failed(w,
		      rma_of(w)->accumulate(w->comm->me->tx,
					    vp__to_world(w->comm, target),
					    at(w, target, offset), in, result,
					    count, type, op, err, sizeof(err)),
		      err, call);
}

int vp__win_remote_cas(vp_win *w, int target, size_t offset,
		       const void *origin, const void *compare, void *result,
		       vp_type type, const char *call)
{
	char err[VP__ERRMSG_BYTES / 2] = "";

	return failed(w,
		      rma_of(w)->compare_swap(w->comm->me->tx,
					      vp__to_world(w->comm, target),
					      at(w, target, offset), origin,
					      compare, result, type, err,
					      sizeof(err)),
		      err, call);
}

void vp__win_remote_flush(vp_win *w, int target)
{
	rma_of(w)->flush(w->comm->me->tx,
			 target < 0 ? -1 : vp__to_world(w->comm, target));
}

/* ---- the lock words ---- */

/* An atomic on word k of target's lock block: *old gets what was there. */
static int word_op(vp_win *w, int target, int k, int64_t v, int64_t *old,
		   vp_op op, const char *call)
{
	struct vp__rank *me = w->comm->me;
	const struct vp__rma *rma = rma_of(w);
	int tw = vp__to_world(w->comm, target), rc;
	int64_t ignored;
	char err[VP__ERRMSG_BYTES / 2] = "";

	rc = rma->accumulate(me->tx, tw,
			     w->msg->lock_at[target] + 8u * (uint64_t)k, &v,
			     old ? old : &ignored, 1, VP_INT64, op, err,
			     sizeof(err));
	if (!rc)
		rc = rma->flush(me->tx, tw);
	return failed(w, rc, err, call);
}

/* Wakes every rank that waits for target's lock (but the caller). */
static int wake_waiters(vp_win *w, int target, const char *call)
{
	int p = w->comm->group->size, i, rc;
	int64_t *flags = calloc((size_t)p, sizeof(*flags));
	int64_t *none = calloc((size_t)p, sizeof(*none));
	char err[VP__ERRMSG_BYTES / 2] = "";
	struct vp__rank *me = w->comm->me;
	const struct vp__rma *rma = rma_of(w);
	int tw = vp__to_world(w->comm, target);

	if (!flags || !none) {
		free(flags);
		free(none);
		return vp__fail(me, VP_ENOMEM, call, "no memory");
	}
	rc = rma->accumulate(me->tx, tw,
			     w->msg->lock_at[target] + 8u * WORD_WAITING, none,
			     flags, (size_t)p, VP_INT64, VP_NO_OP, err,
			     sizeof(err));
	for (i = 0; i < p && !rc; i++)
		if (flags[i] && i != w->comm->rank)
			rc = rma->wake(me->tx, vp__to_world(w->comm, i));
	free(flags);
	free(none);
	return failed(w, rc, err[0] ? err : "a wake was not sent", call);
}

/* What the report of a rank waiting for the lock says. */
static void waiting_text(vp_win *w, int target, int excl, int *peer,
			 char *text, size_t len, const char *call)
{
	int64_t s = 0, h = -1;
	char held[64];

	word_op(w, target, WORD_STATE, 0, &s, VP_NO_OP, call);
	word_op(w, target, WORD_HOLDER, 0, &h, VP_NO_OP, call);
	*peer = h >= 0 && h < w->comm->group->size
		    ? vp__to_world(w->comm, (int)h)
		    : -1;
	if (s >= EXCL)
		snprintf(held, sizeof(held), "held exclusive by rank %d",
			 (int)h);
	else
		snprintf(held, sizeof(held), "held shared (last taken by rank "
			 "%d)", (int)h);
	snprintf(text, len, "%s lock on target %d, %s",
		 excl ? "an exclusive" : "a shared", target, held);
}

/* One try: 1 taken, 0 not (its share taken back; *retry when the lock
 * was left free meanwhile), or the error (< 0). */
static int try_take(vp_win *w, int target, int excl, int *retry,
		    const char *call)
{
	int64_t share = excl ? EXCL : 1, old = 0, now;
	int rc;

	if ((rc = word_op(w, target, WORD_STATE, share, &old, VP_SUM, call)))
		return rc;
	if (excl ? old == 0 : old < EXCL)
		return 1;
	if ((rc = word_op(w, target, WORD_STATE, -share, &old, VP_SUM, call)))
		return rc;
	now = old - share;
	/* taking back left the lock free for others (and maybe us) */
	*retry = excl ? now == 0 : now < EXCL;
	if (now == 0 || (excl && now < EXCL))
		if ((rc = wake_waiters(w, target, call)))
			return rc;
	return 0;
}

int vp__win_remote_lock(vp_win *w, int target, int excl, int take,
			double *excl_free, double *any_free, const char *call)
{
	const struct vp__rma *rma = rma_of(w);
	void *tx = w->comm->me->tx;
	int rc, registered = 0, retry, peer;
	unsigned seen;
	char text[160];
	double free_at[2] = { 0, 0 }, none[2] = { 0, 0 };

	for (; take;) {
		seen = rma->wakes(tx);
		retry = 0;
		if ((rc = try_take(w, target, excl, &retry, call)) < 0)
			return rc;
		if (rc == 1)
			break;
		if (!registered) {
			rc = word_op(w, target, WORD_WAITING + w->comm->rank, 1,
				     NULL, VP_REPLACE, call);
			if (rc)
				return rc;
			registered = 1;
			continue; /* a release may have come before */
		}
		if (retry)
			continue;
		waiting_text(w, target, excl, &peer, text, sizeof(text), call);
		if ((rc = rma->wait(tx, seen, peer, text)))
			return rc;
	}
	if ((registered &&
	     (rc = word_op(w, target, WORD_WAITING + w->comm->rank, 0, NULL,
			   VP_REPLACE, call))) ||
	    (take && (rc = word_op(w, target, WORD_HOLDER, w->comm->rank, NULL,
				   VP_REPLACE, call))))
		return rc;
	rc = rma->accumulate(tx, vp__to_world(w->comm, target),
			     w->msg->lock_at[target] + 8u * WORD_EXCL_FREE,
			     none, free_at, 2, VP_DOUBLE, VP_NO_OP, text,
			     sizeof(text));
	*excl_free = free_at[0];
	*any_free = free_at[1];
	return failed(w, rc, text, call);
}

int vp__win_remote_unlock(vp_win *w, int target, int excl, double t,
			  const char *call)
{
	const struct vp__rma *rma = rma_of(w);
	void *tx = w->comm->me->tx;
	int tw = vp__to_world(w->comm, target), rc;
	double times[2] = { excl ? t : 0, t };
	char err[VP__ERRMSG_BYTES / 2] = "";

	rc = rma->accumulate(tx, tw,
			     w->msg->lock_at[target] + 8u * WORD_EXCL_FREE,
			     times, NULL, 2, VP_DOUBLE, VP_MAX, err,
			     sizeof(err));
	if (!rc)
		rc = rma->flush(tx, tw);
	if ((rc = failed(w, rc, err, call)) ||
	    (rc = word_op(w, target, WORD_STATE, excl ? -EXCL : -1, NULL,
			  VP_SUM, call)))
		return rc;
	return wake_waiters(w, target, call);
}
