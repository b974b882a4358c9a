/*
 * mpi_win.c - MPI one-sided communication with fences (MPI 3.1, sec. 11:
 * active target, MPI_Win_fence synchronization) on vp's windows
 * (vp_win_create, vp_put, vp_get, vp_accumulate, vp_win_fence): each
 * operation is charged by the model as a message on the route to the
 * target, each fence as a superstep.
 *
 * A window remembers every rank's disp_unit (exchanged at creation), so a
 * target displacement is target_disp x the target's unit bytes into its
 * window. Either datatype may be derived and non-contiguous: the origin's
 * data is packed (a get's unpacked) here, and the packed bytes go to, or
 * come from, the target's type map one contiguous run at a time, each run
 * one vp operation (and one message for the model). Both sides hold the
 * same bytes. MPI_Accumulate reduces element by element, atomically with
 * respect to other accumulates, with the predefined ops vp's collectives
 * take on their types; its target type has one basic type (MPI 4.0 sec.
 * 12.3.4), which the origin's elements match. MPI_REPLACE, MPI_NO_OP and
 * the other predefined (datatype, op) pairs go to mpi_win_atomic.c.
 *
 * Passive target and the atomics are in mpi_win_lock.c and
 * mpi_win_atomic.c; post-start-complete-wait in mpi_win_pscw.c; shared
 * and dynamic windows, info and error handlers in mpi_win_shared.c; the
 * request-based operations in mpi_rma_request.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_win.h"

/* The rank's windows by handle (from 1), nwins of room, grown as needed;
 * a freed window's handle is reused. */
static __thread struct mpi_win **wins;
static __thread int nwins;

static struct mpi_win *win_of(MPI_Win win, const char *call)
{
	return vpmpi_win(win, call);
}

struct mpi_win *vpmpi_win(MPI_Win win, const char *call)
{
	if (win > 0 && win < nwins && wins[win]) {
		vpmpi_calling(call);
		return wins[win];
	}
	vpmpi_fail(MPI_ERR_WIN, call,
		   win == MPI_WIN_NULL ? "the window is MPI_WIN_NULL"
				       : "window %d is not a live window of "
					 "this rank",
		   win);
	return NULL;
}

/* Room in wins for handle h: 0 or -1. */
static int win_room(int h)
{
	int n = nwins ? nwins : 8;
	struct mpi_win **w;

	if (h < nwins)
		return 0;
	while (n <= h)
		n *= 2;
	if (!(w = realloc(wins, (size_t)n * sizeof(*w))))
		return -1;
	memset(w + nwins, 0, (size_t)(n - nwins) * sizeof(*w));
	wins = w;
	nwins = n;
	return 0;
}

/* The vp window of a flavor (MPI_WIN_FLAVOR_*) for m. */
static int vp_window(struct mpi_win *m, size_t size, int flavor)
{
	switch (flavor) {
	case MPI_WIN_FLAVOR_SHARED:
		return vp_win_allocate(m->c, size, &m->base, &m->w);
	case MPI_WIN_FLAVOR_DYNAMIC:
		return vp_win_create_dynamic(m->c, &m->w);
	}
	return vp_win_create(m->c, m->base, size, &m->w);
}

static int create(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm,
		  MPI_Win *win, void *mine, const char *call)
{
	return vpmpi_win_make(base, size, disp_unit, comm, win, mine,
			      mine ? MPI_WIN_FLAVOR_ALLOCATE
				   : MPI_WIN_FLAVOR_CREATE,
			      call);
}

int vpmpi_win_make(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm,
		   MPI_Win *win, void *mine, int flavor, const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);
	struct mpi_win *m = NULL;
	int h, rc;

	if (!c) {
		free(mine);
		return MPI_ERR_COMM;
	}
	if (size < 0 || disp_unit < 1 || !win) {
		free(mine);
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 !win       ? "the window pointer is NULL"
				 : size < 0 ? "size %ld is negative"
					    : "disp_unit %ld is not positive",
				 size < 0 ? (long)size : (long)disp_unit);
	}
	for (h = 1; h < nwins && wins[h]; h++)
		;
	if (win_room(h) || !(m = calloc(1, sizeof(*m))) ||
	    !(m->disp_unit = malloc((size_t)vp_size(c) * sizeof(int)))) {
		free(m);
		free(mine);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for window %d", h);
	}
	m->c = c;
	m->comm = comm;
	m->mine = mine;
	m->base = base;
	m->size = size;
	m->my_unit = disp_unit;
	m->flavor = flavor;
	rc =
	    vp_allgather(c, &disp_unit, m->disp_unit, 1, VP_INT32, VP_ALG_AUTO);
	if (!rc)
		rc = vp_window(m, (size_t)size, flavor);
	if (rc) {
		free(m->disp_unit);
		free(m);
		free(mine);
		return vpmpi_ret(rc);
	}
	wins[h] = m;
	m->self = h;
	*win = h;
	return MPI_SUCCESS;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win)
{
	(void)info;
	return create(base, size, disp_unit, comm, win, NULL, "MPI_Win_create");
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
		     void *baseptr, MPI_Win *win)
{
	void *mem = calloc(1, size > 0 ? (size_t)size : 1);
	int rc;

	(void)info;
	if (!mem)
		return vpmpi_err(comm, MPI_ERR_NO_MEM, "MPI_Win_allocate",
				 "no memory for %ld bytes", (long)size);
	rc = create(mem, size, disp_unit, comm, win, mem, "MPI_Win_allocate");
	if (!rc)
		*(void **)baseptr = mem;
	return rc;
}

int vpmpi_win_query(MPI_Win win, void **base, MPI_Aint *size,
		    int *disp_unit, int *flavor)
{
	struct mpi_win *m;

	if (win <= 0 || win >= nwins || !(m = wins[win]))
		return -1;
	*base = m->base;
	*size = m->size;
	*disp_unit = m->my_unit;
	*flavor = m->flavor;
	return 0;
}

vp_win *vpmpi_win_parts(MPI_Win win, const char *call, MPI_Comm *comm,
			const int **disp_unit)
{
	struct mpi_win *m = win_of(win, call);

	if (!m)
		return NULL;
	*comm = m->comm;
	*disp_unit = m->disp_unit;
	return m->w;
}

int MPI_Win_fence(int assert, MPI_Win win)
{
	struct mpi_win *m = win_of(win, "MPI_Win_fence");

	(void)assert; /* the MPI_MODE_* hints change nothing here */
	if (!m)
		return MPI_ERR_WIN;
	if (vpmpi_win_pscw_idle(m, "MPI_Win_fence") ||
	    vpmpi_win_unlocked(m, "MPI_Win_fence"))
		return MPI_ERR_RMA_SYNC;
	return vpmpi_ret(vp_win_fence(m->w));
}

int MPI_Win_free(MPI_Win *win)
{
	struct mpi_win *m;
	int rc;

	if (!win || !(m = win_of(*win, "MPI_Win_free")))
		return MPI_ERR_WIN;
	if (vpmpi_win_pscw_idle(m, "MPI_Win_free") ||
	    vpmpi_win_unlocked(m, "MPI_Win_free"))
		return MPI_ERR_RMA_SYNC;
	if ((rc = vpmpi_win_attrs_drop(*win))) /* MPI: before it goes */
		return rc;
	vpmpi_name_drop(VPMPI_NAME_WIN, *win);
	rc = vp_win_free(m->w);
	wins[*win] = NULL;
	if (m->info != MPI_INFO_NULL)
		MPI_Info_free(&m->info);
	free(m->access);
	free(m->disp_unit);
	free(m->mine);
	free(m);
	*win = MPI_WIN_NULL;
	return vpmpi_ret(rc);
}

/* The target's byte offset (of its datatype's origin: a run may lie
 * before or after it) after checking that target_count items of
 * target_type hold the origin's n bytes; -1 after the error. */
static long target_offset(struct mpi_win *m, int target, MPI_Aint disp,
			  int count, MPI_Datatype type, long n,
			  const struct vpmpi_type **tt, const char *call)
{
	const struct vpmpi_type *t = vpmpi_type(m->comm, type, call);

	if (!t)
		return -1;
	if (target < 0 || target >= vp_size(m->c)) {
		vpmpi_err(m->comm, MPI_ERR_RANK, call,
			  "target %d is outside [0, %d)", target,
			  vp_size(m->c));
		return -1;
	}
	if (disp < 0 || count < 0) {
		vpmpi_err(m->comm, MPI_ERR_ARG, call, "%s %ld is negative",
			  disp < 0 ? "target_disp" : "target_count",
			  disp < 0 ? (long)disp : (long)count);
		return -1;
	}
	if ((long)count * t->size != n) {
		vpmpi_err(m->comm, MPI_ERR_TYPE, call,
			  "the origin holds %ld bytes but the target %ld (%d "
			  "items of %ld bytes)",
			  n, (long)count * t->size, count, t->size);
		return -1;
	}
	*tt = t;
	return (long)disp * m->disp_unit[target];
}

/* What every operation starts from: the window, the origin's packed bytes
 * (n of them; tmp a packed copy to free, NULL when the user's buffer is
 * used), the target's byte offset and datatype. */
struct operation {
	struct mpi_win *m;
	void *bytes, *tmp;
	long n, off;
	const struct vpmpi_type *tt;
};

/* Checks an operation's arguments and packs the origin (a get: the bytes
 * to receive into). MPI_SUCCESS with op->m set, or with op->m NULL when
 * the target is MPI_PROC_NULL (nothing to do), or the error's class. */
static int operation(struct operation *op, MPI_Win win, const void *addr,
		     int count, MPI_Datatype type, int target, MPI_Aint disp,
		     int target_count, MPI_Datatype target_type, int get,
		     const char *call)
{
	struct mpi_win *m = win_of(win, call);
	int failed;

	op->m = NULL;
	op->tmp = NULL;
	if (!m)
		return MPI_ERR_WIN;
	if (target == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (target >= 0 && target < vp_size(m->c) &&
	    (failed = vpmpi_win_epoch_check(m, target, call)))
		return failed;
	op->bytes =
	    get ? vpmpi_recv_bytes(m->comm, (void *)addr, count, type, &op->n,
				   &op->tmp, &failed, call)
		: (void *)vpmpi_send_bytes(m->comm, addr, count, type, &op->n,
					   &op->tmp, &failed, call);
	if (!op->bytes)
		return failed;
	op->off = target_offset(m, target, disp, target_count, target_type,
				op->n, &op->tt, call);
	if (op->off < 0) {
		free(op->tmp);
		return MPI_ERR_ARG;
	}
	op->m = m;
	return MPI_SUCCESS;
}

/* One contiguous run of an operation: len bytes at the target's byte toff,
 * from or to the packed bytes at pos; MPI_SUCCESS or the error's class. */
typedef int run_fn(const struct operation *op, int target, size_t toff,
		   long pos, long len, const void *arg);

/* Calls fn on each contiguous run of count items of the target's datatype
 * in type-map order, which is the packed bytes' order (MPI 4.0
 * sec. 12.3: the target's type map applied at the target's buffer): one
 * run when the datatype is contiguous. */
struct run_walk {
	const struct operation *op;
	int target;
	run_fn *fn;
	const void *arg;
	const char *call;
	long pos;
};

static int run_block(const struct vpmpi_block *b, void *arg)
{
	struct run_walk *w = arg;
	long toff = w->op->off + b->off;
	int rc;

	if (toff < 0)
		return vpmpi_err(w->op->m->comm, MPI_ERR_ARG, w->call,
				 "a block of the target datatype reaches "
				 "byte %ld, before target %d's window",
				 toff, w->target);
	if ((rc = w->fn(w->op, w->target, (size_t)toff, w->pos, b->len,
			w->arg)))
		return rc;
	w->pos += b->len;
	return MPI_SUCCESS;
}

static int each_run(const struct operation *op, int target, int count,
		    run_fn *fn, const void *arg, const char *call)
{
	struct run_walk w = { op, target, fn, arg, call, 0 };

	if (vpmpi_dense(op->tt))
		return fn(op, target, (size_t)op->off, 0, op->n, arg);
	return vpmpi_type_each(op->tt, count, 0, run_block, &w);
}

static int put_run(const struct operation *op, int target, size_t toff,
		   long pos, long len, const void *arg)
{
	(void)arg;
	return vpmpi_ret(vp_put(op->m->w, target, toff,
				(const char *)op->bytes + pos, (size_t)len));
}

static int get_run(const struct operation *op, int target, size_t toff,
		   long pos, long len, const void *arg)
{
	(void)arg;
	return vpmpi_ret(vp_get(op->m->w, target, toff,
				(char *)op->bytes + pos, (size_t)len));
}

/* An accumulate's element type and op in vp's terms. */
struct acc {
	vp_type vt;
	vp_op vop;
};

static int acc_run(const struct operation *op, int target, size_t toff,
		   long pos, long len, const void *arg)
{
	const struct acc *a = arg;

	return vpmpi_ret(vp_accumulate(op->m->w, target, toff,
				       (const char *)op->bytes + pos,
				       (size_t)len / vp_type_size(a->vt), a->vt,
				       a->vop));
}

int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_type,
	    int target_rank, MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_type, MPI_Win win)
{
	struct operation op;
	int rc = operation(&op, win, origin_addr, origin_count, origin_type,
			   target_rank, target_disp, target_count, target_type,
			   0, "MPI_Put");

	if (rc || !op.m)
		return rc;
	rc = each_run(&op, target_rank, target_count, put_run, NULL,
		      "MPI_Put");
	free(op.tmp);
	return rc;
}

int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_type,
	    int target_rank, MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_type, MPI_Win win)
{
	static const char call[] = "MPI_Get";
	const struct vpmpi_type *ot;
	struct operation op;
	int rc = operation(&op, win, origin_addr, origin_count, origin_type,
			   target_rank, target_disp, target_count, target_type,
			   1, call);

	if (rc || !op.m)
		return rc;
	/* vp_get copies at once (the MPI layer runs on the threads
	 * transport, where ranks share memory): unpack now */
	rc = each_run(&op, target_rank, target_count, get_run, NULL, call);
	if (!rc && op.tmp && (ot = vpmpi_type(op.m->comm, origin_type, call)))
		vpmpi_recv_done(op.tmp, origin_addr, origin_count, ot, op.n);
	else
		free(op.tmp);
	return rc;
}

/* The element type and op of an accumulate into target_type (count items
 * of it, described by t), whose origin has type ot: MPI_SUCCESS, or the
 * error's class after raising it. */
static int acc_types(const struct operation *o, const struct vpmpi_type *ot,
		     MPI_Datatype target_type, int count, MPI_Op op,
		     struct acc *a, const char *call)
{
	const struct vpmpi_type *t = o->tt, *basic = vpmpi_lookup(t->elem);
	size_t vcount;

	if (ot->kind && t->kind && strcmp(ot->kind, t->kind))
		return vpmpi_err(o->m->comm, MPI_ERR_TYPE, call,
				 "the origin holds %s elements but the target "
				 "datatype %s elements",
				 ot->kind, t->kind);
	if (vpmpi_dense(t)
		? vpmpi_native(t, target_type, op, count, &a->vt, &a->vop,
			       &vcount)
		: t->elem && basic &&
		      vpmpi_native(basic, t->elem, op, 1, &a->vt, &a->vop,
				   &vcount))
		return MPI_SUCCESS;
	return vpmpi_err(o->m->comm, MPI_ERR_OP, call,
			 "%s on %s is not an accumulate vp can do (predefined "
			 "ops on datatypes of one basic type, and MPI_REPLACE)",
			 vpmpi_op_name(op), vpmpi_type_name(target_type));
}

int MPI_Accumulate(const void *origin_addr, int origin_count,
		   MPI_Datatype origin_type, int target_rank,
		   MPI_Aint target_disp, int target_count,
		   MPI_Datatype target_type, MPI_Op op, MPI_Win win)
{
	static const char call[] = "MPI_Accumulate";
	const struct vpmpi_type *ot;
	struct operation o;
	struct acc a;
	int rc;

	/* atomic with the other accumulates: mpi_win_atomic.c */
	if (!vpmpi_accumulate_native(target_type, target_count, op))
		return vpmpi_accumulate_atomic(origin_addr, origin_count,
					       origin_type, target_rank,
					       target_disp, target_count,
					       target_type, op, win);
	rc = operation(&o, win, origin_addr, origin_count, origin_type,
		       target_rank, target_disp, target_count, target_type, 0,
		       call);
	if (rc || !o.m)
		return rc;
	if (!(ot = vpmpi_type(o.m->comm, origin_type, call)))
		rc = MPI_ERR_TYPE;
	else if (o.n && /* no byte: nothing to combine, any types do */
		 !(rc = acc_types(&o, ot, target_type, target_count, op, &a,
				  call)))
		rc = each_run(&o, target_rank, target_count, acc_run, &a,
			      call);
	free(o.tmp);
	return rc;
}

void vpmpi_wins_free(void)
{
	int h;

	for (h = 1; h < nwins; h++)
		if (wins[h]) { /* the program did not free it: a leak */
			free(wins[h]->disp_unit);
			free(wins[h]->access);
			free(wins[h]->mine);
			free(wins[h]);
			wins[h] = NULL;
		}
	free(wins);
	wins = NULL;
	nwins = 0;
}
