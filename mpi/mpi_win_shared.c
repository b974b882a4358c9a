/*
 * mpi_win_shared.c - the window kinds beside MPI_Win_create and
 * MPI_Win_allocate (MPI 4.0, sec. 12.2.3 - 12.2.4, 12.2.7), a window's
 * info and its error handler (sec. 9.3.2):
 *   - MPI_Win_allocate_shared on vp_win_allocate: all of vp's ranks share
 *     one address space, so every communicator's ranks may share a window
 *     (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED gives them all). The
 *     ranks' memories are one block, rank i's right after rank i - 1's,
 *     with alloc_shared_noncontig or without (the hint allows another
 *     layout, it does not ask for one); MPI_Win_shared_query gives any
 *     rank's address, size and disp_unit for plain loads and stores;
 *   - MPI_Win_create_dynamic, MPI_Win_attach, MPI_Win_detach on vp's
 *     dynamic windows: a target displacement is an address at the target
 *     (MPI_Get_address, MPI_Aint_add), its disp_unit 1;
 *   - MPI_Win_set_info keeps a copy of the hints, MPI_Win_get_info hands
 *     a copy back (none changes what vp does);
 *   - MPI_Win_set_errhandler: MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN or
 *     a handler of MPI_Win_create_errhandler; without one the window's
 *     errors go to its communicator's handler.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_win.h"

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
			    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	static const char call[] = "MPI_Win_allocate_shared";
	char v[8] = "";
	int flag = 0, rc;
	struct mpi_win *m;

	if (!baseptr)
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "baseptr is NULL");
	if (info != MPI_INFO_NULL &&
	    (rc = MPI_Info_get(info, "alloc_shared_noncontig", sizeof(v) - 1,
			       v, &flag)))
		return rc;
	rc = vpmpi_win_make(NULL, size, disp_unit, comm, win, NULL,
			    MPI_WIN_FLAVOR_SHARED, call);
	if (rc)
		return rc;
	m = vpmpi_win(*win, call);
	m->noncontig = flag && !strcmp(v, "true");
	*(void **)baseptr = m->base;
	return MPI_SUCCESS;
}

int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
			 int *disp_unit, void *baseptr)
{
	static const char call[] = "MPI_Win_shared_query";
	struct mpi_win *m = vpmpi_win(win, call);
	void *base;
	size_t bytes = 0;
	int p, r, rc;

	if (!m)
		return MPI_ERR_WIN;
	p = vp_size(m->c);
	if (!size || !disp_unit || !baseptr)
		return vpmpi_win_err(m, MPI_ERR_ARG, call,
				     "a result pointer is NULL");
	if (m->flavor == MPI_WIN_FLAVOR_DYNAMIC)
		return vpmpi_win_err(m, MPI_ERR_RMA_FLAVOR, call,
				     "a dynamic window has no memory of its "
				     "own to share");
	if (rank != MPI_PROC_NULL && (rank < 0 || rank >= p))
		return vpmpi_win_err(m, MPI_ERR_RANK, call,
				     "rank %d is outside [0, %d)", rank, p);
	/* MPI_PROC_NULL: the lowest rank with memory */
	for (r = rank == MPI_PROC_NULL ? 0 : rank; r < p; r++) {
		if ((rc = vp_win_shared_query(m->w, r, &base, &bytes)))
			return vpmpi_ret(rc);
		if (rank != MPI_PROC_NULL || bytes)
			break;
	}
	if (r == p) { /* nobody has memory */
		*size = 0;
		*disp_unit = m->my_unit;
		*(void **)baseptr = NULL;
		return MPI_SUCCESS;
	}
	*size = (MPI_Aint)bytes;
	*disp_unit = m->disp_unit[r];
	*(void **)baseptr = bytes ? base : NULL; /* no memory: NULL, as
						   * MPICH and Open MPI say */
	return MPI_SUCCESS;
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	(void)info;
	return vpmpi_win_make(MPI_BOTTOM, 0, 1, comm, win, NULL,
			      MPI_WIN_FLAVOR_DYNAMIC, "MPI_Win_create_dynamic");
}

/* The dynamic window win, or NULL after the error. */
static struct mpi_win *dynamic(MPI_Win win, int *rc, const char *call)
{
	struct mpi_win *m = vpmpi_win(win, call);

	*rc = MPI_ERR_WIN;
	if (m && m->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
		*rc = vpmpi_win_err(m, MPI_ERR_RMA_FLAVOR, call,
				    "the window is not dynamic "
				    "(MPI_Win_create_dynamic)");
		return NULL;
	}
	return m;
}

int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
	static const char call[] = "MPI_Win_attach";
	int rc;
	struct mpi_win *m = dynamic(win, &rc, call);

	if (!m)
		return rc;
	if (size < 0)
		return vpmpi_win_err(m, MPI_ERR_ARG, call,
				     "size %ld is negative", (long)size);
	return vpmpi_ret(vp_win_attach(m->w, base, (size_t)size));
}

int MPI_Win_detach(MPI_Win win, const void *base)
{
	int rc;
	struct mpi_win *m = dynamic(win, &rc, "MPI_Win_detach");

	if (!m)
		return rc;
	return vpmpi_ret(vp_win_detach(m->w, base));
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info)
{
	struct mpi_win *m = vpmpi_win(win, "MPI_Win_set_info");
	MPI_Info copy = MPI_INFO_NULL;
	int rc;

	if (!m)
		return MPI_ERR_WIN;
	if (info != MPI_INFO_NULL && (rc = MPI_Info_dup(info, &copy)))
		return rc;
	if (m->info != MPI_INFO_NULL)
		MPI_Info_free(&m->info);
	m->info = copy;
	return MPI_SUCCESS;
}

int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
	struct mpi_win *m = vpmpi_win(win, "MPI_Win_get_info");

	if (!m)
		return MPI_ERR_WIN;
	if (!info_used)
		return vpmpi_win_err(m, MPI_ERR_ARG, "MPI_Win_get_info",
				     "info_used is NULL");
	if (m->info != MPI_INFO_NULL)
		return MPI_Info_dup(m->info, info_used);
	return MPI_Info_create(info_used);
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function *fn,
			      MPI_Errhandler *errhandler)
{
	return vpmpi_errhandler_new(VPMPI_ERRH_WIN, (vpmpi_fn *)fn,
				    errhandler, "MPI_Win_create_errhandler");
}

static MPI_Win_errhandler_function *win_handler(MPI_Errhandler eh)
{
	return (MPI_Win_errhandler_function *)vpmpi_errhandler_of(
	    eh, VPMPI_ERRH_WIN);
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
	struct mpi_win *m = vpmpi_win(win, "MPI_Win_set_errhandler");

	if (!m)
		return MPI_ERR_WIN;
	if (errhandler != MPI_ERRORS_ARE_FATAL &&
	    errhandler != MPI_ERRORS_RETURN &&
	    errhandler != MPI_ERRORS_ABORT && !win_handler(errhandler))
		return vpmpi_win_err(m, MPI_ERR_ARG, "MPI_Win_set_errhandler",
				     "error handler %d is not "
				     "MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, "
				     "MPI_ERRORS_ABORT or one made by "
				     "MPI_Win_create_errhandler",
				     errhandler);
	m->errh = errhandler;
	return MPI_SUCCESS;
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
	struct mpi_win *m = vpmpi_win(win, "MPI_Win_get_errhandler");

	if (!m)
		return MPI_ERR_WIN;
	if (!errhandler)
		return vpmpi_win_err(m, MPI_ERR_ARG, "MPI_Win_get_errhandler",
				     "the handle pointer is NULL");
	*errhandler = m->errh ? m->errh : MPI_ERRORS_ARE_FATAL;
	return MPI_SUCCESS;
}

int MPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
	struct mpi_win *m = vpmpi_win(win, "MPI_Win_call_errhandler");

	if (!m)
		return MPI_ERR_WIN;
	vpmpi_win_err(m, errorcode, "MPI_Win_call_errhandler", "error code %d",
		      errorcode);
	return MPI_SUCCESS;
}

/* A window's user handler: called with the window and the class, after
 * which the call returns the class (MPI 4.0, sec. 9.3). */
int vpmpi_win_handler_call(const struct mpi_win *m, int mpi_class)
{
	MPI_Win_errhandler_function *fn = win_handler(m->errh);
	MPI_Win w = m->self;
	int code = mpi_class;

	if (!fn)
		return 0;
	fn(&w, &code);
	return 1;
}
