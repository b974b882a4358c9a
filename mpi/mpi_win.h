/*
 * mpi_win.h - what the files of MPI's one-sided communication share: a
 * rank's window record (mpi_win.c makes and frees it) and the calls
 * between them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VPMPI_WIN_H
#define VPMPI_WIN_H

#include "vpmpi.h"

struct mpi_win {
	vp_win *w;
	vp_comm *c;
	MPI_Comm comm;
	int *disp_unit; /* every rank's */
	void *mine;     /* MPI_Win_allocate's memory, freed with the window */
	void *base;     /* this rank's window and its size (MPI_WIN_BASE) */
	MPI_Aint size;
	int my_unit;
	/* window kinds, post-start-complete-wait, info and error handler
	 * (mpi_win_pscw.c, mpi_win_shared.c) */
	int flavor;         /* MPI_WIN_FLAVOR_* */
	int *access;        /* the targets of MPI_Win_start (window ranks) */
	int naccess;
	int access_open;    /* between MPI_Win_start and MPI_Win_complete */
	int expose_open;    /* between MPI_Win_post and MPI_Win_wait */
	int noncontig;      /* info alloc_shared_noncontig = true */
	MPI_Errhandler errh; /* 0: the communicator's */
	MPI_Info info;       /* MPI_Win_set_info's (a copy), or MPI_INFO_NULL */
	MPI_Win self;        /* this window's handle */
};

/* The live window win of the calling rank, or NULL after the error. */
struct mpi_win *vpmpi_win(MPI_Win win, const char *call);
/* A window of the given flavor over size bytes (MPI_Win_create: at base;
 * MPI_Win_allocate: mine, which the window frees; shared: vp allocates;
 * dynamic: none): MPI_SUCCESS or the error raised. */
int vpmpi_win_make(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm,
		   MPI_Win *win, void *mine, int flavor, const char *call);
/* An error of window m's, raised through its error handler. */
int vpmpi_win_err(const struct mpi_win *m, int mpi_class, const char *call,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Calls m's handler of MPI_Win_create_errhandler with mpi_class: 1, or
 * 0 when its handler is not one. */
int vpmpi_win_handler_call(const struct mpi_win *m, int mpi_class);
/* No epoch of post-start-complete-wait is open on m (MPI_Win_fence,
 * MPI_Win_free): MPI_SUCCESS, or MPI_ERR_RMA_SYNC raised. */
int vpmpi_win_pscw_idle(const struct mpi_win *m, const char *call);
/* An operation to target (window rank) in call is inside an epoch that
 * admits it (a lock on target, a fence, MPI_Win_start's group):
 * MPI_SUCCESS, or MPI_ERR_RMA_SYNC raised. */
int vpmpi_win_epoch_check(const struct mpi_win *m, int target,
			  const char *call);
/* The same for the request-based operations, which only a passive-target
 * epoch admits (MPI 4.0, sec. 12.3.5): a lock on target. */
int vpmpi_win_passive_check(const struct mpi_win *m, int target,
			    const char *call);
/* Passive target's checks (mpi_win_lock.c): the caller holds no lock on
 * m (MPI_Win_fence, MPI_Win_free): MPI_SUCCESS or MPI_ERR_RMA_SYNC
 * raised. */
int vpmpi_win_unlocked(const struct mpi_win *m, const char *call);

#endif
