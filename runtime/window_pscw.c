/*
 * window_pscw.c - generalized active target synchronization: vp_win_post,
 * vp_win_start, vp_win_complete, vp_win_wait, vp_win_test (MPI 4.0,
 * sec. 12.5.2, post-start-complete-wait).
 *
 * A target exposes its window to a group of origins (post ... wait); an
 * origin accesses the windows of a group of targets (start ... complete);
 * only those ranks synchronize, unlike a fence. The synchronization is
 * carried by two messages per (origin, target) pair in the runtime space
 * of the window's communicator, as MPI libraries without hardware support
 * do it (Gropp and Thakur 2007):
 *   - vp_win_post sends POST to each origin of its group and returns;
 *   - vp_win_start receives POST from each target of its group: it blocks
 *     until they all posted, since operations take effect when they are
 *     called (ranks share memory) and must not touch a window its owner
 *     still uses in an earlier epoch;
 *   - vp_win_complete sends COMPLETE to each target of its group;
 *   - vp_win_wait receives COMPLETE from each origin of its post group;
 *     vp_win_test takes those that have arrived and says whether all did.
 * The waits are ordinary receives of the runtime, so a rank blocked in one
 * is seen by the deadlock detection (a start whose target never posts, a
 * wait for an origin that never completes, are reported as deadlocks
 * naming the call and the rank awaited) and a fiber yields its carrier.
 * Where windows are carried as messages (window_messages.c), complete also
 * sends the END of its operations to each target and takes the replies to
 * its gets, and wait applies each origin's operations up to its END.
 *
 * The model: POST carries the target's T, and start advances the origin's
 * T to the latest of them (an operation cannot begin before its target's
 * exposure did); complete advances T to its operations' last arrival (as a
 * fence does) and COMPLETE carries it; wait advances the target's T to the
 * latest COMPLETE of its group. The messages themselves are not charged,
 * so the synchronization costs what the waits make it cost.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "window.h"

enum { PSCW_POST = 0, PSCW_COMPLETE = 1 };

/* A rank's epochs on one window. Only the rank itself reads or writes it. */
struct win_pscw {
	int *access; /* the targets of vp_win_start, nacc of them */
	int nacc, access_open;
	int *expose; /* the origins of vp_win_post, nexp of them */
	int nexp, expose_open;
	char *done;  /* per origin of expose: its COMPLETE was taken */
	int *ended;  /* per origin of expose: its operations' END was taken
		      * (operations carried as messages) */
	int ndone;
	int cap;     /* room in access, expose and done */
};

static int runtime_ctx(const vp_win *w)
{
	return w->comm->group->id * VP__SPACES + VP__SPACE_RUNTIME;
}

/* The window's record of epochs, made at the first call. */
static struct win_pscw *state(vp_win *w, int p, const char *call)
{
	struct win_pscw *s = w->pscw;

	if (s)
		return s;
	if (!(s = calloc(1, sizeof(*s))) ||
	    !(s->access = malloc((size_t)p * sizeof(int))) ||
	    !(s->expose = malloc((size_t)p * sizeof(int))) ||
	    !(s->done = malloc((size_t)p)) ||
	    !(s->ended = malloc((size_t)p * sizeof(int)))) {
		if (s) {
			free(s->access);
			free(s->expose);
			free(s->done);
		}
		free(s);
		vp__fail(w->comm->me, VP_ENOMEM, call,
			 "no memory for the epochs of a window of %d ranks", p);
		return NULL;
	}
	s->cap = p;
	w->pscw = s;
	return s;
}

void vp__win_pscw_free(vp_win *w)
{
	if (!w->pscw)
		return;
	free(w->pscw->access);
	free(w->pscw->expose);
	free(w->pscw->done);
	free(w->pscw->ended);
	free(w->pscw);
	w->pscw = NULL;
}

int vp__win_pscw_access(const vp_win *w)
{
	return w->pscw && w->pscw->access_open;
}

int vp__win_pscw_epochs(const vp_win *w)
{
	if (!w->pscw)
		return 0;
	return (w->pscw->access_open ? VP_EPOCH_START : 0) |
	       (w->pscw->expose_open ? VP_EPOCH_POST : 0);
}

int vp__win_pscw_target(vp_win *w, int target, const char *call)
{
	const struct win_pscw *s = w->pscw;
	int i;

	if (!s || !s->access_open)
		return VP_OK;
	for (i = 0; i < s->nacc; i++)
		if (s->access[i] == target)
			return VP_OK;
	return vp__fail(w->comm->me, VP_ESYNC, call,
			"target %d is not in the group of vp_win_start (an "
			"access epoch to %d rank%s)",
			target, s->nacc, s->nacc == 1 ? "" : "s");
}

int vp__win_pscw_idle(vp_win *w, const char *call)
{
	const struct win_pscw *s = w->pscw;

	if (!s || (!s->access_open && !s->expose_open))
		return VP_OK;
	return vp__fail(w->comm->me, VP_ESYNC, call,
			"an epoch of %s is open on this window: end it with "
			"%s first",
			s->access_open ? "vp_win_start" : "vp_win_post",
			s->access_open ? "vp_win_complete" : "vp_win_wait");
}

/* Copies the group ranks[0 .. n) into out after checking it: ranks of the
 * window's communicator, each at most once. */
static int group_copy(vp_win *w, const int *ranks, int n, int *out,
		      const char *call)
{
	struct vp__rank *me = w->comm->me;
	int p = w->comm->group->size, i, j;

	if (n < 0 || n > p)
		return vp__fail(me, VP_EINVAL, call,
				"the group has %d ranks; the window's "
				"communicator %d",
				n, p);
	if (n && !ranks)
		return vp__fail(me, VP_EINVAL, call,
				"the group's ranks are NULL (n = %d)", n);
	for (i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= p)
			return vp__fail(me, VP_ERANK, call,
					"group rank %d is outside [0, %d)",
					ranks[i], p);
		for (j = 0; j < i; j++)
			if (ranks[j] == ranks[i])
				return vp__fail(me, VP_EINVAL, call,
						"rank %d is twice in the "
						"group",
						ranks[i]);
		out[i] = ranks[i];
	}
	return VP_OK;
}

/* The sync message of kind to rank dst: the caller's T. */
static int sync_send(vp_win *w, int dst, int kind, const char *call)
{
	struct vp__rank *me = w->comm->me;
	double t = me->clock.t;

	return vp__runtime_send_tag(me, runtime_ctx(w),
				    vp__to_world(w->comm, dst),
				    VP__WIN_PSCW_TAG(w->id, kind), &t,
				    sizeof(t), call);
}

/* Receives the sync message of kind from src; T reaches its time. */
static int sync_recv(vp_win *w, int src, int kind, const char *call)
{
	struct vp__rank *me = w->comm->me;
	double t = 0;
	int rc;

	rc = vp__runtime_recv(me, runtime_ctx(w), vp__to_world(w->comm, src),
			      VP__WIN_PSCW_TAG(w->id, kind), &t, sizeof(t),
			      call);
	if (!rc && t > me->clock.t)
		me->clock.t = t;
	return rc;
}

/* A new epoch of the caller's (access: 1, exposure: 0) may open. */
static int epoch_enter(vp_win *w, const int *ranks, int n, int access,
		       const char *call, struct win_pscw **out)
{
	struct win_pscw *s;
	int rc;

	if ((rc = vp__win_enter(w, call)))
		return rc;
	if (!(s = state(w, w->comm->group->size, call)))
		return VP_ENOMEM;
	if (access ? s->access_open : s->expose_open)
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"an epoch of %s is open already: end it with "
				"%s first",
				access ? "vp_win_start" : "vp_win_post",
				access ? "vp_win_complete" : "vp_win_wait");
	if ((rc = group_copy(w, ranks, n, access ? s->access : s->expose,
			     call)))
		return rc;
	*out = s;
	return VP_OK;
}

int vp_win_post(vp_win *w, const int *ranks, int n)
{
	static const char call[] = "vp_win_post";
	struct win_pscw *s;
	int rc, i;

	if ((rc = epoch_enter(w, ranks, n, 0, call, &s)))
		return rc;
	for (i = 0; i < n && !rc; i++)
		rc = sync_send(w, s->expose[i], PSCW_POST, call);
	if (rc)
		return rc;
	memset(s->done, 0, (size_t)n);
	memset(s->ended, 0, (size_t)n * sizeof(int));
	s->nexp = n;
	s->ndone = 0;
	s->expose_open = 1;
	return VP_OK;
}

int vp_win_start(vp_win *w, const int *ranks, int n)
{
	static const char call[] = "vp_win_start";
	struct win_pscw *s;
	int rc, i;

	if ((rc = epoch_enter(w, ranks, n, 1, call, &s)))
		return rc;
	for (i = 0; i < n && !rc; i++)
		rc = sync_recv(w, s->access[i], PSCW_POST, call);
	if (rc)
		return rc;
	s->nacc = n;
	s->access_open = 1;
	return VP_OK;
}

int vp_win_complete(vp_win *w)
{
	static const char call[] = "vp_win_complete";
	struct win_pscw *s;
	int rc, i;

	if ((rc = vp__win_enter(w, call)))
		return rc;
	s = w->pscw;
	if (!s || !s->access_open)
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"no access epoch is open: call vp_win_start "
				"first");
	for (i = 0; w->msg && i < s->nacc && !rc; i++)
		if (s->access[i] != w->comm->rank)
			rc = vp__win_messages_end(w, s->access[i], call);
	if (!rc && w->msg)
		rc = vp__win_messages_settle(w, s->expose,
					     s->ended, s->expose_open ? s->nexp : 0,
					     call);
	if (rc)
		return rc;
	if (w->msg && w->msg->rma) /* atomics (window_remote.c) are done */
		vp__win_remote_flush(w, -1);
	vp__win_arrived(w);
	for (i = 0; i < s->nacc && !rc; i++)
		rc = sync_send(w, s->access[i], PSCW_COMPLETE, call);
	s->access_open = 0;
	return rc;
}

/* Takes origin k's operations (where they travel as messages) and its
 * COMPLETE. */
static int take_complete(vp_win *w, struct win_pscw *s, int k,
			 const char *call)
{
	int origin = s->expose[k], rc = VP_OK;

	if (w->msg && origin != w->comm->rank && !s->ended[k])
		rc = vp__win_messages_take(w, origin, 1, &s->ended[k], call);
	rc = rc < 0 ? rc : VP_OK;
	if (!rc)
		rc = sync_recv(w, origin, PSCW_COMPLETE, call);
	if (!rc) {
		s->done[k] = 1;
		s->ndone++;
	}
	return rc;
}

/* The exposure epoch is open (for vp_win_wait and vp_win_test). */
static int exposed(vp_win *w, const char *call, struct win_pscw **out)
{
	int rc;

	if ((rc = vp__win_enter(w, call)))
		return rc;
	if (!w->pscw || !w->pscw->expose_open)
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"no exposure epoch is open: call vp_win_post "
				"first");
	*out = w->pscw;
	return VP_OK;
}

int vp_win_wait(vp_win *w)
{
	static const char call[] = "vp_win_wait";
	struct win_pscw *s = NULL;
	int rc, k;

	if ((rc = exposed(w, call, &s)))
		return rc;
	for (k = 0; k < s->nexp && !rc; k++)
		if (!s->done[k])
			rc = take_complete(w, s, k, call);
	if (rc)
		return rc;
	s->expose_open = 0;
	if (w->msg && w->msg->rma) /* the origins' atomics, seen here */
		vp__tx(w->comm->me)->rma->sync(w->comm->me->tx);
	return VP_OK;
}

int vp_win_test(vp_win *w, int *done)
{
	static const char call[] = "vp_win_test";
	struct vp__rank *me;
	struct vp__xprobe pr;
	struct win_pscw *s = NULL;
	int rc, k, found;

	if ((rc = exposed(w, call, &s)))
		return rc;
	me = w->comm->me;
	if (!done)
		return vp__fail(me, VP_EINVAL, call, "done is NULL");
	*done = 0;
	for (k = 0; k < s->nexp; k++) {
		if (s->done[k])
			continue;
		/* its COMPLETE follows its operations (one sender's
		 * messages arrive in order): when it is here, so are they */
		rc = vp__tx(me)->probe(me->tx, runtime_ctx(w),
				       vp__to_world(w->comm, s->expose[k]),
				       VP__WIN_PSCW_TAG(w->id, PSCW_COMPLETE),
				       0, &found, &pr);
		if (rc)
			return vp__fail(me, rc, call, "%s", vp_strerror(rc));
		if (found && (rc = take_complete(w, s, k, call)))
			return rc;
	}
	if (s->ndone < s->nexp) {
		if (vp__tx(me)->idle)
			vp__tx(me)->idle(me->tx);
		return VP_OK;
	}
	s->expose_open = 0;
	if (w->msg && w->msg->rma) /* the origins' atomics, seen here */
		vp__tx(w->comm->me)->rma->sync(w->comm->me->tx);
	*done = 1;
	return VP_OK;
}
