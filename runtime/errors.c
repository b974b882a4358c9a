/*
 * errors.c - error codes, per-rank messages, and the run-wide abort.
 *
 * A failing call writes "rank R: call: what was wrong" into its rank's
 * message, records it as the run's first error if it is the first, and
 * aborts the run: the status becomes VP_EABORT and every parked rank is
 * woken, so every blocked call returns VP_EABORT. Nothing hangs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

const char *vp_strerror(int code)
{
	switch (code) {
	case VP_OK:
		return "success";
	case VP_EINVAL:
		return "invalid argument";
	case VP_ERANK:
		return "rank out of range";
	case VP_ENOLINK:
		return "no link to that rank (strict mode)";
	case VP_ETRUNC:
		return "message truncated: receive buffer too small";
	case VP_EDEADLOCK:
		return "deadlock: every live rank is blocked";
	case VP_EABORT:
		return "run aborted: another rank failed";
	case VP_EALG:
		return "algorithm unknown or not applicable";
	case VP_ENOMEM:
		return "out of memory";
	case VP_EMISMATCH:
		return "collective calls do not match across ranks";
	case VP_EUNRECEIVED:
		return "messages were sent but never received";
	case VP_EWATCHDOG:
		return "watchdog: no progress for too long";
	case VP_ETYPE:
		return "message type does not match the receive's";
	case VP_ESYNC:
		return "one-sided call outside its synchronization epoch";
	}
	return "unknown error code";
}

void vp__record_error(struct vp__world *w, int rank, int code, const char *msg)
{
	pthread_mutex_lock(&w->error_lock);
	if (w->error_code == VP_OK) {
		w->error_code = code;
		w->error_rank = rank;
		w->error = strdup(msg);
		/* out of memory, the message is kept in the world's own
		 * room, cut if it must be, never lost */
		if (!w->error)
			snprintf(w->error_kept, sizeof(w->error_kept), "%s",
				 msg);
	}
	pthread_mutex_unlock(&w->error_lock);
}

int vp__world_error(struct vp__world *w, int *rank, char **msg,
		    int *p2p_cycle)
{
	int code;

	pthread_mutex_lock(&w->error_lock);
	code = w->error_code;
	*rank = w->error_rank;
	*msg = w->error;
	*p2p_cycle = w->p2p_cycle;
	pthread_mutex_unlock(&w->error_lock);
	return code;
}

void vp__world_adopt_error(struct vp__world *w, int rank, int code,
			   const char *msg, int p2p_cycle)
{
	char *copy = code != VP_OK && msg ? strdup(msg) : NULL;

	pthread_mutex_lock(&w->error_lock);
	free(w->error);
	w->error = copy;
	w->error_code = code;
	w->error_rank = code != VP_OK ? rank : -1;
	w->p2p_cycle = p2p_cycle;
	pthread_mutex_unlock(&w->error_lock);
}

const char *vp__rank_last_call(const struct vp__rank *r)
{
	const char *d = atomic_load_explicit(&r->doing, memory_order_relaxed);

	return d ? d : "none yet";
}

/* Only while r is blocked (or from r's own thread): the collective's name
 * is not published atomically. "vp_recv", "vp_barrier (its vp_send)", and
 * under a layer's call "MPI_Recv (vp_recv_tag)" or "MPI_Bcast (vp_bcast,
 * its vp_send)". */
const char *vp__rank_doing(const struct vp__rank *r, char *buf, size_t len)
{
	const char *coll = r->trace.label[1];
	const char *d = vp__rank_last_call(r);
	const char *layer =
	    atomic_load_explicit(&r->layer_call, memory_order_relaxed);
	int in_coll = atomic_load_explicit(&r->doing_space,
					   memory_order_relaxed) ==
			  VP__SPACE_COLL &&
		      coll;

	if (layer && in_coll)
		snprintf(buf, len, "%s (vp_%s, its %s)", layer, coll, d);
	else if (layer)
		snprintf(buf, len, "%s (%s)", layer, d);
	else if (in_coll)
		snprintf(buf, len, "vp_%s (its %s)", coll, d);
	else
		snprintf(buf, len, "%s", d);
	return buf;
}

int vp__rank_in_collective(const struct vp__rank *r)
{
	return atomic_load_explicit(&r->doing_space, memory_order_relaxed) ==
	       VP__SPACE_COLL;
}

void vp__world_cycle_cause(struct vp__world *w, int p2p_only)
{
	pthread_mutex_lock(&w->error_lock);
	w->p2p_cycle = p2p_only;
	pthread_mutex_unlock(&w->error_lock);
}

int vp_call_as(vp_comm *c, const char *call)
{
	if (!c || c->magic != VP__COMM_LIVE)
		return VP_EINVAL;
	atomic_store_explicit(&c->me->layer_call, call, memory_order_relaxed);
	return VP_OK;
}

/* "rank R: call: ..."; a point-to-point call made by a collective is named
 * after the collective the user called, and a call made for a layer above
 * vp after the layer's call too. */
static void format_error(struct vp__rank *me, const char *call, const char *fmt,
			 va_list ap)
{
	char doing[160];
	int n;
	const char *layer = me->layer_call;

	if (me->doing && !strcmp(call, vp__rank_last_call(me)) &&
	    (me->doing_space == VP__SPACE_COLL || layer))
		call = vp__rank_doing(me, doing, sizeof(doing));
	else if (layer && !strncmp(call, "vp_", 3)) { /* not vp_abort's text */
		snprintf(doing, sizeof(doing), "%s (%s)", layer, call);
		call = doing;
	}
	n = snprintf(me->errmsg, sizeof(me->errmsg),
		     "rank %d: %s: ", me->world_rank, call);

	if (n < 0 || (size_t)n >= sizeof(me->errmsg))
		n = 0;
	vsnprintf(me->errmsg + n, sizeof(me->errmsg) - (size_t)n, fmt, ap);
}

int vp__world_status(const struct vp__world *w)
{
	int s = atomic_load_explicit(&w->status, memory_order_acquire);

	return s == VP_EDEADLOCK ? VP_EDEADLOCK : s ? VP_EABORT : VP_OK;
}

void vp__world_fail(struct vp__world *w, int rank, int code, const char *msg)
{
	int expected = 0;

	vp__record_error(w, rank, code, msg);
	if (atomic_compare_exchange_strong(&w->status, &expected,
					   code == VP_EDEADLOCK ? VP_EDEADLOCK
								: VP_EABORT))
		w->tx_ops->wake_all(w->tx);
}

/* Records me->errmsg as the run's error (if first) and aborts the run. */
static int abort_run(struct vp__rank *me, int code)
{
	/* Calls that fail because the run is already failing do not start a
	 * new abort; the first error stays the one reported. */
	if (code == VP_EABORT || code == VP_EDEADLOCK)
		return code;
	vp__world_fail(me->world, me->world_rank, code, me->errmsg);
	return code;
}

int vp__fail(struct vp__rank *me, int code, const char *call, const char *fmt,
	     ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_error(me, call, fmt, ap);
	va_end(ap);
	return abort_run(me, code);
}

/* Writes c's rank message for vp_abort / vp_error; returns code. */
static int raise_error(vp_comm *c, int code, const char *call, const char *fmt,
		       va_list ap)
{
	format_error(c->me, call ? call : "?", fmt ? fmt : "", ap);
	c->me->raised = code;
	return code;
}

/*
 * vp_abort always aborts, as MPI_Abort does, and its message is the run's
 * error unless another rank failed first; code 0 counts as VP_EABORT. The
 * run's result is code (a positive code too: a user's own error number).
 */
int vp_abort(vp_comm *c, int code, const char *call, const char *fmt, ...)
{
	va_list ap;

	if (!c || c->magic != VP__COMM_LIVE)
		return VP_EINVAL;
	if (!code)
		code = VP_EABORT;
	va_start(ap, fmt);
	raise_error(c, code, call, fmt, ap);
	va_end(ap);
	vp__world_fail(c->world, c->me->world_rank, code, c->me->errmsg);
	return code;
}

int vp_error(vp_comm *c, int code, const char *call, const char *fmt, ...)
{
	va_list ap;

	if (!c || code >= 0)
		return VP_EINVAL;
	va_start(ap, fmt);
	raise_error(c, code, call, fmt, ap);
	va_end(ap);
	return code;
}

int vp__enter_slow(vp_comm *c, const char *call)
{
	struct vp__rank *me;
	char msg[VP__ERRMSG_BYTES];

	if (c->magic != VP__COMM_LIVE) {
		if (c->magic != VP__COMM_FREED)
			return VP_EINVAL; /* not a handle at all: no rank */
		return vp__fail(c->me, VP_EINVAL, call,
				"the communicator was freed by vp_comm_free");
	}
	me = c->me;
	if (vp__self() != me) {
		/* Not the rank's thread: write nothing of the rank's. */
		snprintf(msg, sizeof(msg),
			 "rank %d: %s: called from a thread that is not rank "
			 "%d's own (a helper thread?); each rank's calls must "
			 "come from the thread vp_run started for it",
			 me->world_rank, call, me->world_rank);
		vp__world_fail(c->world, me->world_rank, VP_EINVAL, msg);
		return VP_EINVAL;
	}
	atomic_store_explicit(&me->doing, call, memory_order_relaxed);
	atomic_store_explicit(&me->doing_space, c->space, memory_order_relaxed);
	return vp__check_running(me);
}

int vp__null_comm(const vp_comm *c, const char *call)
{
	struct vp__rank *me = vp__self();

	if (c || !me)
		return VP_EINVAL; /* not a rank's thread: nobody to name */
	return vp__fail(me, VP_EINVAL, call, "the communicator is NULL");
}

int vp__check_running(struct vp__rank *me)
{
	struct vp__world *w = me->world;
	int s = atomic_load_explicit(&w->status, memory_order_acquire);
	int first;

	if (s == 0)
		return VP_OK;
	pthread_mutex_lock(&w->error_lock);
	first = w->error_rank;
	pthread_mutex_unlock(&w->error_lock);
	snprintf(me->errmsg, sizeof(me->errmsg),
		 "rank %d: run %s; first error at rank %d", me->world_rank,
		 s == VP_EDEADLOCK ? "deadlocked" : "aborted", first);
	return VP_EABORT;
}

const char *vp_errmsg(const vp_comm *c)
{
	return c ? c->me->errmsg : "vp_errmsg: NULL communicator";
}

const char *vp__rank_user_call(const struct vp__rank *r)
{
	const char *layer =
	    atomic_load_explicit(&r->layer_call, memory_order_relaxed);

	return layer ? layer : vp__rank_last_call(r);
}
