/*
 * mpi_win_lock.c - passive target synchronization (MPI 4.0, sec. 12.5.3
 * and 12.5.4): MPI_Win_lock, MPI_Win_unlock, MPI_Win_lock_all,
 * MPI_Win_unlock_all, the flushes and MPI_Win_sync, on vp's (vp_win_lock
 * and the others, runtime/window_lock.c): the origin takes the target's
 * lock and reaches its memory itself, the target calls nothing.
 *
 * MPI_MODE_NOCHECK is the only assertion these calls take (sec. 12.5.5):
 * with it no lock is taken, as the program promises that no other rank
 * holds or asks for a conflicting one. An epoch error (an unlock without
 * its lock, a second lock of one target, a fence with a lock held, an
 * operation outside every epoch) is MPI_ERR_RMA_SYNC, raised through the
 * window's error handler (MPI_ERRORS_RETURN returns it) with a message
 * naming the rank, the call and the target: the calls ask vp which
 * epochs are open (vp_win_epochs) before vp would refuse them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mpi_win.h"

static int check_assert(const struct mpi_win *m, int assert, const char *call)
{
	if (assert & ~MPI_MODE_NOCHECK)
		return vpmpi_win_err(m, MPI_ERR_ARG, call,
				     "assert %d is not 0 or MPI_MODE_NOCHECK",
				     assert);
	return MPI_SUCCESS;
}

/* rank is a rank of m's window (not MPI_PROC_NULL). */
static int check_rank(const struct mpi_win *m, int rank, const char *call)
{
	int p = vp_size(m->c);

	if (rank >= 0 && rank < p)
		return MPI_SUCCESS;
	return vpmpi_win_err(m, MPI_ERR_RANK, call,
			     "rank %d is outside [0, %d)", rank, p);
}

/* The epochs open on m (vp_win_epochs); 0 when vp cannot say (it names
 * that error itself on the call). */
static int epochs(const struct mpi_win *m, int target)
{
	int e = vp_win_epochs(m->w, target);

	return e < 0 ? 0 : e;
}

static int sync_err(const struct mpi_win *m, const char *call,
		    const char *what)
{
	return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call, "%s", what);
}

int vpmpi_win_unlocked(const struct mpi_win *m, const char *call)
{
	int e = epochs(m, MPI_PROC_NULL);

	if (!(e & VP_EPOCH_LOCKED))
		return MPI_SUCCESS;
	return sync_err(m, call,
			e & VP_EPOCH_LOCK_ALL
			    ? "a passive-target epoch is open (MPI_Win_lock_all"
			      "): call MPI_Win_unlock_all first"
			    : "a passive-target epoch is open (MPI_Win_lock)"
			      ": call MPI_Win_unlock first");
}

/* A lock (all: MPI_Win_lock_all) may begin on target. */
static int may_lock(const struct mpi_win *m, int target, int all,
		    const char *call)
{
	int e = epochs(m, target);

	if (e & VP_EPOCH_LOCK_ALL)
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				"this rank holds MPI_Win_lock_all (target "
				"%d): call MPI_Win_unlock_all first",
				target);
	if (all && (e & VP_EPOCH_LOCKED))
		return sync_err(m, call,
				"this rank holds an MPI_Win_lock: call "
				"MPI_Win_unlock first");
	if (!all && (e & VP_EPOCH_LOCK))
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				"this rank holds a lock on target %d already",
				target);
	if (e & VP_EPOCH_FENCE_OPS)
		return sync_err(m, call,
				"operations of the fence epoch await their "
				"MPI_Win_fence (before any lock)");
	return MPI_SUCCESS;
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	static const char call[] = "MPI_Win_lock";
	struct mpi_win *m = vpmpi_win(win, call);
	int rc, type;

	if (!m)
		return MPI_ERR_WIN;
	if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
		return vpmpi_win_err(m, MPI_ERR_ARG, call,
				     "lock type %d is not MPI_LOCK_SHARED or "
				     "MPI_LOCK_EXCLUSIVE",
				     lock_type);
	if ((rc = check_assert(m, assert, call)))
		return rc;
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if ((rc = check_rank(m, rank, call)) ||
	    (rc = may_lock(m, rank, 0, call)))
		return rc;
	type = lock_type == MPI_LOCK_SHARED ? VP_LOCK_SHARED
					    : VP_LOCK_EXCLUSIVE;
	if (assert & MPI_MODE_NOCHECK)
		type |= VP_LOCK_NOCHECK;
	return vpmpi_ret(vp_win_lock(m->w, type, rank));
}

/* The calls that end or flush the epoch of target (MPI_PROC_NULL:
 * nothing to do): the caller holds its lock (all: MPI_Win_lock_all;
 * own: a lock of its own, not lock_all's). */
static int held(const struct mpi_win *m, int target, int own,
		const char *call)
{
	int rc, e;

	if ((rc = check_rank(m, target, call)))
		return rc;
	e = epochs(m, target);
	if (!(e & VP_EPOCH_LOCK))
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				"this rank holds no lock on target %d (call "
				"MPI_Win_lock or MPI_Win_lock_all first)",
				target);
	if (own && (e & VP_EPOCH_LOCK_ALL))
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				"this rank holds MPI_Win_lock_all, not a lock "
				"of target %d: call MPI_Win_unlock_all",
				target);
	return MPI_SUCCESS;
}

static int by_target(int rank, MPI_Win win, int own, const char *call,
		     int (*fn)(vp_win *, int))
{
	struct mpi_win *m = vpmpi_win(win, call);
	int rc;

	if (!m)
		return MPI_ERR_WIN;
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if ((rc = held(m, rank, own, call)))
		return rc;
	return vpmpi_ret(fn(m->w, rank));
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
	return by_target(rank, win, 1, "MPI_Win_unlock", vp_win_unlock);
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
	static const char call[] = "MPI_Win_lock_all";
	struct mpi_win *m = vpmpi_win(win, call);
	int rc;

	if (!m)
		return MPI_ERR_WIN;
	if ((rc = check_assert(m, assert, call)) ||
	    (rc = may_lock(m, MPI_PROC_NULL, 1, call)))
		return rc;
	return vpmpi_ret(vp_win_lock_all(
	    m->w, assert & MPI_MODE_NOCHECK ? VP_LOCK_NOCHECK : 0));
}

/* The calls that take the window alone: need (VP_EPOCH_*) is open. */
static int by_window(MPI_Win win, int need, const char *call,
		     int (*fn)(vp_win *))
{
	struct mpi_win *m = vpmpi_win(win, call);

	if (!m)
		return MPI_ERR_WIN;
	if (need && !(epochs(m, MPI_PROC_NULL) & need))
		return sync_err(m, call,
				need == VP_EPOCH_LOCK_ALL
				    ? "this rank holds no MPI_Win_lock_all"
				    : "this rank holds no lock (call "
				      "MPI_Win_lock or MPI_Win_lock_all first)");
	return vpmpi_ret(fn(m->w));
}

int MPI_Win_unlock_all(MPI_Win win)
{
	return by_window(win, VP_EPOCH_LOCK_ALL, "MPI_Win_unlock_all",
			 vp_win_unlock_all);
}

int MPI_Win_flush(int rank, MPI_Win win)
{
	return by_target(rank, win, 0, "MPI_Win_flush", vp_win_flush);
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
	return by_target(rank, win, 0, "MPI_Win_flush_local",
			 vp_win_flush_local);
}

int MPI_Win_flush_all(MPI_Win win)
{
	return by_window(win, VP_EPOCH_LOCKED, "MPI_Win_flush_all",
			 vp_win_flush_all);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
	return by_window(win, VP_EPOCH_LOCKED, "MPI_Win_flush_local_all",
			 vp_win_flush_local_all);
}

int MPI_Win_sync(MPI_Win win)
{
	return by_window(win, 0, "MPI_Win_sync", vp_win_sync);
}
