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
 * operation outside every epoch) is MPI_ERR_RMA_SYNC, with vp's message
 * naming the rank, the call and the target.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

static int check_assert(MPI_Comm comm, int assert, const char *call)
{
	if (assert & ~MPI_MODE_NOCHECK)
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "assert %d is not 0 or MPI_MODE_NOCHECK",
				 assert);
	return MPI_SUCCESS;
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	static const char call[] = "MPI_Win_lock";
	const int *units;
	MPI_Comm comm;
	vp_win *w = vpmpi_win_parts(win, call, &comm, &units);
	int rc, type;

	if (!w)
		return MPI_ERR_WIN;
	if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "lock type %d is not MPI_LOCK_SHARED or "
				 "MPI_LOCK_EXCLUSIVE",
				 lock_type);
	if ((rc = check_assert(comm, assert, call)))
		return rc;
	type = lock_type == MPI_LOCK_SHARED ? VP_LOCK_SHARED
					    : VP_LOCK_EXCLUSIVE;
	if (assert & MPI_MODE_NOCHECK)
		type |= VP_LOCK_NOCHECK;
	return vpmpi_ret(vp_win_lock(w, type, rank));
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
	const int *units;
	MPI_Comm comm;
	vp_win *w = vpmpi_win_parts(win, "MPI_Win_unlock", &comm, &units);

	return w ? vpmpi_ret(vp_win_unlock(w, rank)) : MPI_ERR_WIN;
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
	static const char call[] = "MPI_Win_lock_all";
	const int *units;
	MPI_Comm comm;
	vp_win *w = vpmpi_win_parts(win, call, &comm, &units);
	int rc;

	if (!w)
		return MPI_ERR_WIN;
	if ((rc = check_assert(comm, assert, call)))
		return rc;
	return vpmpi_ret(vp_win_lock_all(
	    w, assert & MPI_MODE_NOCHECK ? VP_LOCK_NOCHECK : 0));
}

/* The calls that take the window alone, or a target and the window. */
static int by_window(MPI_Win win, const char *call, int (*fn)(vp_win *))
{
	const int *units;
	MPI_Comm comm;
	vp_win *w = vpmpi_win_parts(win, call, &comm, &units);

	return w ? vpmpi_ret(fn(w)) : MPI_ERR_WIN;
}

static int by_target(int rank, MPI_Win win, const char *call,
		     int (*fn)(vp_win *, int))
{
	const int *units;
	MPI_Comm comm;
	vp_win *w = vpmpi_win_parts(win, call, &comm, &units);

	return w ? vpmpi_ret(fn(w, rank)) : MPI_ERR_WIN;
}

int MPI_Win_unlock_all(MPI_Win win)
{
	return by_window(win, "MPI_Win_unlock_all", vp_win_unlock_all);
}

int MPI_Win_flush(int rank, MPI_Win win)
{
	return by_target(rank, win, "MPI_Win_flush", vp_win_flush);
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
	return by_target(rank, win, "MPI_Win_flush_local", vp_win_flush_local);
}

int MPI_Win_flush_all(MPI_Win win)
{
	return by_window(win, "MPI_Win_flush_all", vp_win_flush_all);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
	return by_window(win, "MPI_Win_flush_local_all",
			 vp_win_flush_local_all);
}

int MPI_Win_sync(MPI_Win win)
{
	return by_window(win, "MPI_Win_sync", vp_win_sync);
}
