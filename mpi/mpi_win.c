/*
 * mpi_win.c - MPI one-sided communication with fences (MPI 3.1, sec. 11:
 * active target, MPI_Win_fence synchronization) on vp's windows
 * (vp_win_create, vp_put, vp_get, vp_accumulate, vp_win_fence): each
 * operation is charged by the model as a message on the route to the
 * target, each fence as a superstep.
 *
 * A window remembers every rank's disp_unit (exchanged at creation), so a
 * target displacement is target_disp x the target's unit bytes into its
 * window. The origin buffer may have any datatype (it is packed or
 * unpacked here); the target's datatype must be contiguous (a basic type
 * or a dense derived one) and hold the same bytes as the origin's.
 * MPI_Accumulate reduces element by element, atomically with respect to
 * other accumulates, with the predefined ops vp's collectives take on
 * their types, and MPI_REPLACE (a put).
 *
 * Not here (they are not declared, so a program using them fails to link):
 * passive target (MPI_Win_lock, MPI_Win_flush), post-start-complete-wait,
 * MPI_Get_accumulate, MPI_Rput and the other request-based operations,
 * dynamic windows.
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

#define MAX_WINS 64

struct mpi_win {
	vp_win *w;
	vp_comm *c;
	MPI_Comm comm;
	int *disp_unit; /* every rank's */
	void *mine;     /* MPI_Win_allocate's memory, freed with the window */
	void *base;     /* this rank's window and its size (MPI_WIN_BASE) */
	MPI_Aint size;
	int my_unit;
};

static __thread struct mpi_win *wins[MAX_WINS];

static struct mpi_win *win_of(MPI_Win win, const char *call)
{
	if (win > 0 && win < MAX_WINS && wins[win]) {
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

static int create(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm,
		  MPI_Win *win, void *mine, const char *call)
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
	for (h = 1; h < MAX_WINS && wins[h]; h++)
		;
	if (h == MAX_WINS || !(m = calloc(1, sizeof(*m))) ||
	    !(m->disp_unit = malloc((size_t)vp_size(c) * sizeof(int)))) {
		free(m);
		free(mine);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no room for another window (%d at most)",
				 MAX_WINS - 1);
	}
	m->c = c;
	m->comm = comm;
	m->mine = mine;
	m->base = base;
	m->size = size;
	m->my_unit = disp_unit;
	rc =
	    vp_allgather(c, &disp_unit, m->disp_unit, 1, VP_INT32, VP_ALG_AUTO);
	if (!rc)
		rc = vp_win_create(c, base, (size_t)size, &m->w);
	if (rc) {
		free(m->disp_unit);
		free(m);
		free(mine);
		return vpmpi_ret(rc);
	}
	wins[h] = m;
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

	if (win <= 0 || win >= MAX_WINS || !(m = wins[win]))
		return -1;
	*base = m->base;
	*size = m->size;
	*disp_unit = m->my_unit;
	*flavor = m->mine ? MPI_WIN_FLAVOR_ALLOCATE : MPI_WIN_FLAVOR_CREATE;
	return 0;
}

int MPI_Win_fence(int assert, MPI_Win win)
{
	struct mpi_win *m = win_of(win, "MPI_Win_fence");

	(void)assert; /* the MPI_MODE_* hints change nothing here */
	if (!m)
		return MPI_ERR_WIN;
	return vpmpi_ret(vp_win_fence(m->w));
}

int MPI_Win_free(MPI_Win *win)
{
	struct mpi_win *m;
	int rc;

	if (!win || !(m = win_of(*win, "MPI_Win_free")))
		return MPI_ERR_WIN;
	if ((rc = vpmpi_win_attrs_drop(*win))) /* MPI: before it goes */
		return rc;
	vpmpi_name_drop(VPMPI_NAME_WIN, *win);
	rc = vp_win_free(m->w);
	wins[*win] = NULL;
	free(m->disp_unit);
	free(m->mine);
	free(m);
	*win = MPI_WIN_NULL;
	return vpmpi_ret(rc);
}

/* The target's byte offset and the contiguous bytes of target_count items
 * of target_type, which must match the origin's n bytes; -1 after the
 * error. */
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
	if (!vpmpi_dense(t)) {
		vpmpi_err(m->comm, MPI_ERR_TYPE, call,
			  "the target datatype is not contiguous (only "
			  "contiguous target types are supported)");
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
	rc = vpmpi_ret(vp_put(op.m->w, target_rank, (size_t)op.off, op.bytes,
			      (size_t)op.n));
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
	rc = vpmpi_ret(vp_get(op.m->w, target_rank, (size_t)op.off, op.bytes,
			      (size_t)op.n));
	if (!rc && op.tmp && (ot = vpmpi_type(op.m->comm, origin_type, call)))
		vpmpi_recv_done(op.tmp, origin_addr, origin_count, ot, op.n);
	else
		free(op.tmp);
	return rc;
}

int MPI_Accumulate(const void *origin_addr, int origin_count,
		   MPI_Datatype origin_type, int target_rank,
		   MPI_Aint target_disp, int target_count,
		   MPI_Datatype target_type, MPI_Op op, MPI_Win win)
{
	static const char call[] = "MPI_Accumulate";
	struct operation o;
	vp_type vt;
	vp_op vop;
	size_t vcount;
	int rc;

	if (op == MPI_REPLACE)
		return MPI_Put(origin_addr, origin_count, origin_type,
			       target_rank, target_disp, target_count,
			       target_type, win);
	rc = operation(&o, win, origin_addr, origin_count, origin_type,
		       target_rank, target_disp, target_count, target_type, 0,
		       call);
	if (rc || !o.m)
		return rc;
	if (!vpmpi_native(o.tt, target_type, op, target_count, &vt, &vop,
			  &vcount)) {
		free(o.tmp);
		return vpmpi_err(o.m->comm, MPI_ERR_OP, call,
				 "%s on %s is not an accumulate vp can do "
				 "(predefined ops on basic types only, and "
				 "MPI_REPLACE)",
				 vpmpi_op_name(op),
				 vpmpi_type_name(target_type));
	}
	rc = vpmpi_ret(vp_accumulate(o.m->w, target_rank, (size_t)o.off,
				     o.bytes, vcount, vt, vop));
	free(o.tmp);
	return rc;
}

void vpmpi_wins_free(void)
{
	int h;

	for (h = 1; h < MAX_WINS; h++)
		if (wins[h]) { /* the program did not free it: a leak */
			free(wins[h]->disp_unit);
			free(wins[h]->mine);
			free(wins[h]);
			wins[h] = NULL;
		}
}
