/*
 * mpi_win_pscw.c - generalized active target synchronization (MPI 4.0,
 * sec. 12.5.2): MPI_Win_post, MPI_Win_start, MPI_Win_complete,
 * MPI_Win_wait, MPI_Win_test on vp's vp_win_post ... vp_win_test, and
 * MPI_Win_get_group.
 *
 * The groups are translated to ranks of the window's communicator. The
 * assert argument's hints (MPI_MODE_NOCHECK, NOSTORE, NOPUT) change
 * nothing: the post and start messages are sent whatever it says, which a
 * correct program cannot tell apart. A call out of its epoch's order
 * (MPI_Win_complete without MPI_Win_start, an operation on a target
 * outside the start group, ...) fails with MPI_ERR_RMA_SYNC, through the
 * window's error handler, naming the rank, the call and the target; a
 * mismatch that can never complete (a start whose target never posts) is
 * a deadlock, reported by vp with every rank's wait.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_win.h"

int vpmpi_win_err(const struct mpi_win *m, int mpi_class, const char *call,
		  const char *fmt, ...)
{
	vp_comm *world = vpmpi_me.comm[MPI_COMM_WORLD];
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (vpmpi_me.call_c) /* raised inside a large-count call's sibling */
		call = vpmpi_me.call_c;
	if (m->errh == MPI_ERRORS_ABORT && world)
		vpmpi_errors_abort(mpi_class, call, msg);
	if (m->errh && m->errh != MPI_ERRORS_ARE_FATAL && world) {
		/* MPI_ERRORS_RETURN, or the program's handler */
		snprintf(vpmpi_me.last_error, sizeof(vpmpi_me.last_error),
			 "rank %d: %.60s: %.300s", vp_rank(world), call, msg);
		vpmpi_me.last_class = mpi_class;
		vpmpi_win_handler_call(m, mpi_class);
		return mpi_class;
	}
	if (m->errh == MPI_ERRORS_ARE_FATAL && world) {
		vp_abort(world, VP_EINVAL, call, "%s", msg);
		vpmpi_leave(VP_EINVAL);
	}
	return vpmpi_err(m->comm, mpi_class, call, "%s", msg);
}

int vpmpi_win_epoch_check(const struct mpi_win *m, int target,
			  const char *call)
{
	int i, e;

	if (target == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (m->access_open) {
		for (i = 0; i < m->naccess; i++)
			if (m->access[i] == target)
				return MPI_SUCCESS;
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				     "target %d is not in the group of "
				     "MPI_Win_start (%d rank%s)",
				     target, m->naccess,
				     m->naccess == 1 ? "" : "s");
	}
	e = vp_win_epochs(m->w, target);
	if (e < 0 || e & (VP_EPOCH_LOCK | VP_EPOCH_FENCE))
		return MPI_SUCCESS; /* e < 0: vp names the error */
	return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
			     "target %d is outside every epoch: this rank holds "
			     "no lock on it (MPI_Win_lock, MPI_Win_lock_all), "
			     "and no MPI_Win_fence or MPI_Win_start opened one",
			     target);
}

int vpmpi_win_passive_check(const struct mpi_win *m, int target,
			    const char *call)
{
	int e;

	if (target < 0 || target >= vp_size(m->c)) /* MPI_PROC_NULL, or
						     * the operation's error */
		return MPI_SUCCESS;
	e = vp_win_epochs(m->w, target);
	if (e < 0 || e & VP_EPOCH_LOCK)
		return MPI_SUCCESS;
	return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
			     "target %d is not in a passive-target epoch: "
			     "request-based operations need a lock on it "
			     "(MPI_Win_lock or MPI_Win_lock_all; MPI 4.0, "
			     "sec. 12.3.5)",
			     target);
}

int vpmpi_win_pscw_idle(const struct mpi_win *m, const char *call)
{
	if (!m->access_open && !m->expose_open)
		return MPI_SUCCESS;
	return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
			     "an epoch of %s is open: call %s first",
			     m->access_open ? "MPI_Win_start" : "MPI_Win_post",
			     m->access_open ? "MPI_Win_complete"
					    : "MPI_Win_wait");
}

/* The window ranks of group's members into *ranks (malloc'd, *n of them;
 * NULL when empty): MPI_SUCCESS or the error raised. */
static int window_ranks(struct mpi_win *m, MPI_Group group, int **ranks,
			int *n, const char *call)
{
	MPI_Group mine;
	int *in, i, rc;

	*ranks = NULL;
	if (group == MPI_GROUP_NULL)
		return vpmpi_win_err(m, MPI_ERR_GROUP, call,
				     "the group is MPI_GROUP_NULL");
	if ((rc = MPI_Group_size(group, n)))
		return rc;
	if (!*n)
		return MPI_SUCCESS;
	in = malloc(2 * (size_t)*n * sizeof(int));
	if (!in)
		return vpmpi_win_err(m, MPI_ERR_NO_MEM, call,
				     "no memory for a group of %d", *n);
	for (i = 0; i < *n; i++)
		in[i] = i;
	if (!(rc = MPI_Comm_group(m->comm, &mine))) {
		rc = MPI_Group_translate_ranks(group, *n, in, mine, in + *n);
		MPI_Group_free(&mine);
	}
	for (i = 0; !rc && i < *n; i++)
		if (in[*n + i] == MPI_UNDEFINED)
			rc = vpmpi_win_err(m, MPI_ERR_GROUP, call,
					   "member %d of the group is not in "
					   "the window's communicator",
					   i);
	if (rc) {
		free(in);
		return rc;
	}
	memmove(in, in + *n, (size_t)*n * sizeof(int));
	*ranks = in;
	vpmpi_calling(call); /* the group calls above named themselves */
	return MPI_SUCCESS;
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
	static const char call[] = "MPI_Win_post";
	struct mpi_win *m = vpmpi_win(win, call);
	int *ranks, n, rc;

	(void)assert;
	if (!m)
		return MPI_ERR_WIN;
	if (m->expose_open)
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				     "an exposure epoch is open already: call "
				     "MPI_Win_wait first");
	if ((rc = window_ranks(m, group, &ranks, &n, call)))
		return rc;
	rc = vp_win_post(m->w, ranks, n);
	free(ranks);
	if (rc)
		return vpmpi_ret(rc);
	m->expose_open = 1;
	return MPI_SUCCESS;
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
	static const char call[] = "MPI_Win_start";
	struct mpi_win *m = vpmpi_win(win, call);
	int *ranks, n, rc;

	(void)assert;
	if (!m)
		return MPI_ERR_WIN;
	if (m->access_open)
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				     "an access epoch is open already: call "
				     "MPI_Win_complete first");
	if ((rc = window_ranks(m, group, &ranks, &n, call)))
		return rc;
	if ((rc = vp_win_start(m->w, ranks, n))) {
		free(ranks);
		return vpmpi_ret(rc);
	}
	free(m->access);
	m->access = ranks;
	m->naccess = n;
	m->access_open = 1;
	return MPI_SUCCESS;
}

int MPI_Win_complete(MPI_Win win)
{
	static const char call[] = "MPI_Win_complete";
	struct mpi_win *m = vpmpi_win(win, call);
	int rc;

	if (!m)
		return MPI_ERR_WIN;
	if (!m->access_open)
		return vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				     "no access epoch is open: call "
				     "MPI_Win_start first");
	if ((rc = vp_win_complete(m->w)))
		return vpmpi_ret(rc);
	m->access_open = 0;
	return MPI_SUCCESS;
}

/* The exposure epoch is open (MPI_Win_wait, MPI_Win_test). */
static struct mpi_win *exposed(MPI_Win win, int *rc, const char *call)
{
	struct mpi_win *m = vpmpi_win(win, call);

	*rc = MPI_ERR_WIN;
	if (m && !m->expose_open) {
		*rc = vpmpi_win_err(m, MPI_ERR_RMA_SYNC, call,
				    "no exposure epoch is open: call "
				    "MPI_Win_post first");
		return NULL;
	}
	return m;
}

int MPI_Win_wait(MPI_Win win)
{
	int rc;
	struct mpi_win *m = exposed(win, &rc, "MPI_Win_wait");

	if (!m)
		return rc;
	if ((rc = vp_win_wait(m->w)))
		return vpmpi_ret(rc);
	m->expose_open = 0;
	return MPI_SUCCESS;
}

int MPI_Win_test(MPI_Win win, int *flag)
{
	static const char call[] = "MPI_Win_test";
	int rc;
	struct mpi_win *m = exposed(win, &rc, call);

	if (!m)
		return rc;
	if (!flag)
		return vpmpi_win_err(m, MPI_ERR_ARG, call, "flag is NULL");
	if ((rc = vp_win_test(m->w, flag)))
		return vpmpi_ret(rc);
	if (*flag)
		m->expose_open = 0;
	return MPI_SUCCESS;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
	struct mpi_win *m = vpmpi_win(win, "MPI_Win_get_group");

	if (!m)
		return MPI_ERR_WIN;
	if (!group)
		return vpmpi_win_err(m, MPI_ERR_ARG, "MPI_Win_get_group",
				     "the group pointer is NULL");
	return MPI_Comm_group(m->comm, group);
}
