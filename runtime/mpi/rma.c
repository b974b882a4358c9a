/*
 * rma.c - one-sided access between the processes of the job with the MPI
 * library's own passive target (MPI 4.0, sec. 12.5.3): the transport's
 * struct vp__rma (transport.h).
 *
 * One dynamic window (MPI_Win_create_dynamic, sec. 12.2.4) over a
 * duplicate of MPI_COMM_WORLD is made by every process when its first run
 * starts, where all of them are anyway, opened by one
 * MPI_Win_lock_all(MPI_MODE_NOCHECK), and kept for the process's later
 * runs until MPI_Finalize. So no MPI collective call and no MPI
 * synchronization call is ever made while the ranks run: vp's windows
 * attach their memory to it (MPI_Win_attach is local) and name it by
 * address, and each operation is an MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate, MPI_Fetch_and_op or MPI_Compare_and_swap completed
 * at the origin at once (MPI_Win_flush_local) and at the target by a
 * flush (MPI_Win_flush). Accumulates of every vp window go through this
 * one MPI window, so MPI's atomicity of accumulates to the same location
 * (sec. 12.7.1) holds across processes.
 *
 * Waiting: a rank that waits for something another process changes with
 * RMA (a lock, window_remote.c) is woken by a message of kind MPT_WAKE,
 * counted by the termination detection like any data message, so such a
 * rank is passive while it waits and a lock never granted is found as a
 * deadlock, reported with what the rank waits for.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_tx.h"

/* The most bytes one MPI call moves (its count is an int). */
#define CHUNK ((size_t)1 << 30)

/* The window of the process, made at its first run of more than one
 * process and kept for the next runs (making one costs a collective
 * call and shared memory; a program may call vp_run many times): its
 * communicator, and 1 open, -1 none could be made, 0 not tried. */
static MPI_Win process_win = MPI_WIN_NULL;
static MPI_Comm process_comm = MPI_COMM_NULL;
static int process_state;

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first (MPI 4.0, sec.
 * 11.2.4): the window is freed there, with every process in the call. */
static int at_finalize(MPI_Comm c, int key, void *value, void *extra)
{
	(void)c;
	(void)key;
	(void)value;
	(void)extra;
	if (process_state == 1) {
		MPI_Win_unlock_all(process_win);
		MPI_Win_free(&process_win);
		MPI_Comm_free(&process_comm);
	}
	process_state = 0;
	return MPI_SUCCESS;
}

static int make_window(void)
{
	int made, key;

	MPI_Comm_dup(MPI_COMM_WORLD, &process_comm);
	/* a library that makes no window (Open MPI without a one-sided
	 * component for these processes) says so instead of aborting */
	MPI_Comm_set_errhandler(process_comm, MPI_ERRORS_RETURN);
	made = MPI_Win_create_dynamic(MPI_INFO_NULL, process_comm,
				      &process_win);
	if (made != MPI_SUCCESS) {
		MPI_Comm_free(&process_comm);
		return -1;
	}
	MPI_Win_set_errhandler(process_win, MPI_ERRORS_RETURN);
	if (MPI_Win_lock_all(MPI_MODE_NOCHECK, process_win) != MPI_SUCCESS) {
		MPI_Win_free(&process_win);
		MPI_Comm_free(&process_comm);
		return -1;
	}
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &key, NULL);
	MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
	return 1;
}

int mpt_rma_start(struct mpt *t)
{
	if (t->p < 2)
		return 0; /* one process: its windows are in its own memory */
	if (!process_state)
		process_state = make_window();
	t->win = process_win;
	t->win_open = process_state == 1;
	return t->win_open;
}

void mpt_rma_end(struct mpt *t)
{
	int i;

	/* the run's windows end with it: their memory leaves the window */
	for (i = 0; t->win_open && i < t->nattached; i++)
		MPI_Win_detach(t->win, t->attached[i]);
	free(t->attached);
	t->attached = NULL;
	t->nattached = t->capattached = 0;
	t->win_open = 0;
}

/* The library's error as VP_EINVAL, its text in err. */
static int failed(int code, const char *call, char *err, size_t errlen)
{
	char text[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (code == MPI_SUCCESS)
		return VP_OK;
	if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
		snprintf(text, sizeof(text), "error %d", code);
	snprintf(err, errlen, "%s failed: %s", call, text);
	return VP_EINVAL;
}

static int rma_attach(void *me, void *base, size_t n, uint64_t *addr)
{
	struct mpt *t = me;
	MPI_Aint a = 0;

	if (!t->win_open)
		return VP_EINVAL;
	if (n && t->nattached == t->capattached) {
		int cap = t->capattached ? 2 * t->capattached : 16;
		void **more = realloc(t->attached, (size_t)cap * sizeof(*more));

		if (!more)
			return VP_ENOMEM;
		t->attached = more;
		t->capattached = cap;
	}
	if (n && MPI_Win_attach(t->win, base, (MPI_Aint)n) != MPI_SUCCESS)
		return VP_EINVAL;
	if (n)
		t->attached[t->nattached++] = base;
	MPI_Get_address(base, &a);
	*addr = (uint64_t)a;
	return VP_OK;
}

static void rma_detach(void *me, void *base)
{
	struct mpt *t = me;

	int i;

	for (i = 0; t->win_open && i < t->nattached; i++)
		if (t->attached[i] == base) {
			MPI_Win_detach(t->win, base);
			t->attached[i] = t->attached[--t->nattached];
			return;
		}
}

static int rma_put(void *me, int target, uint64_t addr, const void *buf,
		   size_t n, char *err, size_t errlen)
{
	struct mpt *t = me;
	size_t at, k;
	int rc = MPI_SUCCESS;

	for (at = 0; at < n && rc == MPI_SUCCESS; at += k) {
		k = n - at < CHUNK ? n - at : CHUNK;
		rc = MPI_Put((const char *)buf + at, (int)k, MPI_BYTE, target,
			     (MPI_Aint)(addr + at), (int)k, MPI_BYTE, t->win);
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Win_flush_local(target, t->win);
	return failed(rc, "MPI_Put", err, errlen);
}

static int rma_get(void *me, int target, uint64_t addr, void *buf, size_t n,
		   char *err, size_t errlen)
{
	struct mpt *t = me;
	size_t at, k;
	int rc = MPI_SUCCESS;

	for (at = 0; at < n && rc == MPI_SUCCESS; at += k) {
		k = n - at < CHUNK ? n - at : CHUNK;
		rc = MPI_Get((char *)buf + at, (int)k, MPI_BYTE, target,
			     (MPI_Aint)(addr + at), (int)k, MPI_BYTE, t->win);
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Win_flush_local(target, t->win);
	return failed(rc, "MPI_Get", err, errlen);
}

static MPI_Datatype mpi_type(vp_type type)
{
	switch (type) {
	case VP_BYTE:
		return MPI_UINT8_T;
	case VP_INT32:
		return MPI_INT32_T;
	case VP_INT64:
		return MPI_INT64_T;
	case VP_FLOAT:
		return MPI_FLOAT;
	default:
		return MPI_DOUBLE;
	}
}

static MPI_Op mpi_op(vp_op op)
{
	switch (op) {
	case VP_SUM:
		return MPI_SUM;
	case VP_PROD:
		return MPI_PROD;
	case VP_MIN:
		return MPI_MIN;
	case VP_MAX:
		return MPI_MAX;
	case VP_BAND:
		return MPI_BAND;
	case VP_BOR:
		return MPI_BOR;
	case VP_BXOR:
		return MPI_BXOR;
	case VP_REPLACE:
		return MPI_REPLACE;
	default:
		return MPI_NO_OP;
	}
}

static int rma_accumulate(void *me, int target, uint64_t addr, const void *in,
			  void *result, size_t count, vp_type type, vp_op op,
			  char *err, size_t errlen)
{
	struct mpt *t = me;
	MPI_Datatype dt = mpi_type(type);
	size_t es = vp_type_size(type), at, k, most = CHUNK / es;
	int rc = MPI_SUCCESS;

	if (result && count == 1)
		rc = MPI_Fetch_and_op(in, result, dt, target, (MPI_Aint)addr,
				      mpi_op(op), t->win);
	for (at = 0; at < count && rc == MPI_SUCCESS && !(result && count == 1);
	     at += k) {
		k = count - at < most ? count - at : most;
		if (result)
			rc = MPI_Get_accumulate(
			    (const char *)in + at * es, (int)k, dt,
			    (char *)result + at * es, (int)k, dt, target,
			    (MPI_Aint)(addr + at * es), (int)k, dt, mpi_op(op),
			    t->win);
		else
			rc = MPI_Accumulate((const char *)in + at * es, (int)k,
					    dt, target,
					    (MPI_Aint)(addr + at * es), (int)k,
					    dt, mpi_op(op), t->win);
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Win_flush_local(target, t->win);
	return failed(rc, result ? "MPI_Get_accumulate" : "MPI_Accumulate",
		      err, errlen);
}

static int rma_compare_swap(void *me, int target, uint64_t addr,
			    const void *origin, const void *compare,
			    void *result, vp_type type, char *err,
			    size_t errlen)
{
	struct mpt *t = me;
	int rc = MPI_Compare_and_swap(origin, compare, result, mpi_type(type),
				      target, (MPI_Aint)addr, t->win);

	if (rc == MPI_SUCCESS)
		rc = MPI_Win_flush_local(target, t->win);
	return failed(rc, "MPI_Compare_and_swap", err, errlen);
}

static int rma_flush(void *me, int target)
{
	struct mpt *t = me;

	if (!t->win_open)
		return VP_OK;
	return (target < 0 ? MPI_Win_flush_all(t->win)
			   : MPI_Win_flush(target, t->win)) == MPI_SUCCESS
		   ? VP_OK
		   : VP_EINVAL;
}

static void rma_sync(void *me)
{
	struct mpt *t = me;

	if (t->win_open)
		MPI_Win_sync(t->win);
}

static int rma_wake(void *me, int world_rank)
{
	return mpt_send_wake(me, world_rank);
}

static unsigned rma_wakes(void *me)
{
	return ((struct mpt *)me)->wakes;
}

static int woken(struct mpt *t, void *seen)
{
	return t->wakes != *(unsigned *)seen;
}

static int rma_wait(void *me, unsigned seen, int peer, const char *lock_text)
{
	struct mpt *t = me;
	struct mpt_waiting what = { "lock", peer, 0, 0, NULL, 0, lock_text };

	return mpt_wait(t, woken, &seen, &what);
}

const struct vp__rma mpt_rma = {
	.attach = rma_attach,
	.detach = rma_detach,
	.put = rma_put,
	.get = rma_get,
	.accumulate = rma_accumulate,
	.compare_swap = rma_compare_swap,
	.flush = rma_flush,
	.sync = rma_sync,
	.wake = rma_wake,
	.wakes = rma_wakes,
	.wait = rma_wait,
};
