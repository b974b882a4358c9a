/*
 * window_atomic.c - the one-sided atomics: vp_get_accumulate,
 * vp_fetch_and_op, vp_compare_and_swap (MPI 4.0, sec. 12.3.4 and
 * 12.3.5), and the application of every accumulate (vp_accumulate too).
 *
 * Each holds the target's accumulate lock (a mutex per target of the
 * window's shared record, held only while the bytes are read and
 * combined: nothing there waits or yields) while it reads the target's
 * elements and combines the origin's into them with vp_reduce_local, the
 * kernel of the collectives' reductions. So accumulates, atomics and
 * their fetches to the same bytes are atomic with respect to each other,
 * from any number of ranks, under fences and under locks alike, as MPI
 * requires for the same op and basic type (sec. 12.7.1). VP_REPLACE
 * writes the origin's elements, VP_NO_OP leaves the target's as they are
 * (an atomic read).
 *
 * The model charges each of these calls as a round trip: the request
 * carries the origin's elements to the target, the reply brings the
 * target's back (window_lock.c). Windows carried as messages (the mpi
 * transport) reach the target with the transport's RMA instead
 * (window_remote.c: MPI_Get_accumulate, MPI_Fetch_and_op,
 * MPI_Compare_and_swap), atomic there as here; vp_win_update, whose
 * function runs at the target's memory, has no such form and fails there,
 * as all of these do without the RMA (VP_WIN=messages).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <string.h>

#include "window.h"

int vp__win_apply(vp_win *w, int target, size_t offset, const void *in,
		  void *result, size_t count, vp_type type, vp_op op)
{
	char *at = (char *)w->sh->base[target] + offset;
	size_t n = count * vp_type_size(type);
	int rc = VP_OK;

	if ((unsigned)op > VP_NO_OP)
		return VP_EINVAL;
	pthread_mutex_lock(&w->sh->lock[target]);
	if (result && n)
		memcpy(result, at, n);
	if (op == VP_REPLACE && n)
		memmove(at, in, n);
	else if (op != VP_REPLACE && op != VP_NO_OP)
		rc = vp_reduce_local(in, at, count, type, op);
	pthread_mutex_unlock(&w->sh->lock[target]);
	return rc;
}

/* The checks every atomic makes: VP_OK, 1 for VP_PROC_NULL (nothing to
 * do), or the error. *n is the bytes of count elements. */
static int enter(vp_win *w, int target, size_t offset, const void *origin,
		 void *result, size_t count, vp_type type, vp_op op,
		 size_t *n, const char *call)
{
	struct vp__rank *me;
	size_t es;
	int rc;

	if ((rc = vp__win_check(w, call)))
		return rc;
	me = w->comm->me;
	if (w->msg && !w->msg->rma)
		return vp__fail(me, VP_EINVAL, call,
				"one-sided atomics need ranks that share "
				"memory or the transport's RMA; %s: vp_put, "
				"vp_get and vp_accumulate only",
				vp__win_no_rma(w));
	if (w->msg && !strcmp(call, "vp_win_update"))
		return vp__fail(me, VP_EINVAL, call,
				"vp_win_update runs its function at the "
				"target's memory, which needs ranks that share "
				"memory (the mpi transport's windows take "
				"vp_fetch_and_op and vp_compare_and_swap)");
	if ((unsigned)type > VP_DOUBLE)
		return vp__fail(me, VP_EINVAL, call, "type %d is not a vp_type",
				(int)type);
	if ((unsigned)op > VP_NO_OP)
		return vp__fail(me, VP_EINVAL, call,
				"op %d is not a vp_op (VP_SUM .. VP_BXOR, "
				"VP_REPLACE, VP_NO_OP)",
				(int)op);
	es = vp_type_size(type);
	if (count > SIZE_MAX / es)
		return vp__fail(me, VP_EINVAL, call, "count %zu overflows",
				count);
	*n = count * es;
	if ((rc = vp__win_check_target(w, target, offset, *n,
				       op == VP_NO_OP ? result : origin,
				       call)))
		return rc;
	if ((rc = vp__check_buf(w->comm, result, *n, call, "result")))
		return rc;
	if (offset % es)
		return vp__fail(me, VP_EINVAL, call,
				"offset %zu is not a multiple of the type's "
				"%zu bytes",
				offset, es);
	return VP_OK;
}

/* A wrong op for the type (VP_BAND on VP_DOUBLE): found on a copy of one
 * element, before the target is touched. */
static int check_op(vp_win *w, const void *origin, vp_type type, vp_op op,
		    const char *call)
{
	unsigned char probe[16];

	if (op == VP_REPLACE || op == VP_NO_OP)
		return VP_OK;
	memcpy(probe, origin, vp_type_size(type));
	if (vp_reduce_local(origin, probe, 1, type, op))
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"op %d does not apply to type %d", (int)op,
				(int)type);
	return VP_OK;
}

static int get_accumulate(vp_win *w, int target, size_t offset,
			  const void *origin, void *result, size_t count,
			  vp_type type, vp_op op, const char *call)
{
	size_t n = 0;
	int rc = enter(w, target, offset, origin, result, count, type, op, &n,
		       call);

	if (rc)
		return rc < 0 ? rc : VP_OK;
	if (count && (rc = check_op(w, origin, type, op, call)))
		return rc;
	if (vp__win_rma(w, target, 1)) {
		if ((rc = vp__win_remote_acc(w, target, offset, origin, result,
					     count, type, op, call)))
			return rc;
	} else if ((rc = vp__win_apply(w, target, offset, origin, result,
				       count, type, op)))
		return vp__fail(w->comm->me, rc, call,
				"op %d does not apply to type %d", (int)op,
				(int)type);
	vp__win_lock_charge(w, target, op == VP_NO_OP ? 0 : n, n, 1, call + 3);
	return VP_OK;
}

int vp_get_accumulate(vp_win *w, int target, size_t offset,
		      const void *origin, void *result, size_t count,
		      vp_type type, vp_op op)
{
	return get_accumulate(w, target, offset, origin, result, count, type,
			      op, "vp_get_accumulate");
}

int vp_fetch_and_op(vp_win *w, int target, size_t offset, const void *origin,
		    void *result, vp_type type, vp_op op)
{
	return get_accumulate(w, target, offset, origin, result, 1, type, op,
			      "vp_fetch_and_op");
}

int vp_compare_and_swap(vp_win *w, int target, size_t offset,
			const void *origin, const void *compare, void *result,
			vp_type type)
{
	static const char call[] = "vp_compare_and_swap";
	size_t n = 0;
	unsigned char old[8];
	char *at;
	int rc = enter(w, target, offset, origin, result, 1, type, VP_REPLACE,
		       &n, call);

	if (rc)
		return rc < 0 ? rc : VP_OK;
	if (type == VP_FLOAT || type == VP_DOUBLE)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"type %d is not an integer type (VP_BYTE, "
				"VP_INT32, VP_INT64)",
				(int)type);
	if ((rc = vp__check_buf(w->comm, compare, n, call, "compare")))
		return rc;
	if (vp__win_rma(w, target, 1)) {
		if ((rc = vp__win_remote_cas(w, target, offset, origin,
					     compare, old, type, call)))
			return rc;
	} else {
		at = (char *)w->sh->base[target] + offset;
		pthread_mutex_lock(&w->sh->lock[target]);
		memcpy(old, at, n);
		if (!memcmp(old, compare, n))
			memmove(at, origin, n);
		pthread_mutex_unlock(&w->sh->lock[target]);
	}
	memcpy(result, old, n);
	vp__win_lock_charge(w, target, 2 * n, n, 1, "compare_and_swap");
	return VP_OK;
}

int vp_win_update(vp_win *w, int target, size_t offset, size_t n,
		  void *result, void (*fn)(void *bytes, size_t n, void *arg),
		  void *arg)
{
	static const char call[] = "vp_win_update";
	size_t bytes = 0;
	char *at;
	/* no result: none to check (any buffer that is not NULL passes) */
	void *into = result ? result : &bytes;
	int rc = enter(w, target, offset, into, into, n, VP_BYTE, VP_NO_OP,
		       &bytes, call);

	if (rc)
		return rc < 0 ? rc : VP_OK;
	if (!fn)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"the function is NULL");
	at = (char *)w->sh->base[target] + offset;
	pthread_mutex_lock(&w->sh->lock[target]);
	if (n && result)
		memcpy(result, at, n);
	fn(at, n, arg);
	pthread_mutex_unlock(&w->sh->lock[target]);
	vp__win_lock_charge(w, target, n, result ? n : 0, 1, "update");
	return VP_OK;
}
