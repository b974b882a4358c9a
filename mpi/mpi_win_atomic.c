/*
 * mpi_win_atomic.c - the one-sided atomics (MPI 4.0, sec. 12.3.4,
 * 12.3.5): MPI_Get_accumulate, MPI_Rget_accumulate, MPI_Fetch_and_op and
 * MPI_Compare_and_swap, on vp's (vp_get_accumulate, vp_fetch_and_op,
 * vp_compare_and_swap; runtime/window_atomic.c): each reads and combines
 * the target's elements under the target's accumulate lock, so it is
 * atomic per element with respect to every accumulate and atomic to the
 * same bytes, under fences and locks alike.
 *
 * Ops: every predefined op on the datatypes MPI defines it for (MPI 4.0,
 * sec. 6.9.2), and MPI_REPLACE and MPI_NO_OP on any datatype. Pairs vp's
 * reductions take (sums, products, bit operations and signed orders of
 * 8-, 32- and 64-bit integers; floats and doubles) go to
 * vp_get_accumulate; the others (short and unsigned orders, the logical
 * ops, long double, MPI_MAXLOC and MPI_MINLOC) are combined by the
 * layer's own kernel (mpi_op.c) inside vp_win_update, under the same
 * target lock, so they are atomic with the rest. Any datatype may be
 * derived: the origin's and result's are packed and unpacked here, a
 * target datatype that is not contiguous (a pair type's gap, a vector)
 * is gathered from its layout and scattered back inside the same
 * atomic. MPI_Compare_and_swap takes the integer types and MPI_BYTE
 * (and MPI_C_BOOL, a 1-byte integer here): those of 1, 4 or 8 bytes by
 * vp_compare_and_swap, the others (2 bytes: MPI_SHORT, MPI_INT16_T ...)
 * by vp_win_update, under the same lock, charged as a get-accumulate of
 * their bytes (the compare value is not counted). Anything else is
 * refused with
 * MPI_ERR_OP or MPI_ERR_TYPE naming op and datatype.
 *
 * MPI_Accumulate comes here (vpmpi_accumulate_atomic) for MPI_REPLACE,
 * MPI_NO_OP and the pairs vp's reductions lack, so that they too are
 * atomic with the rest; it is charged as vp_accumulate where vp's
 * reductions do it, as a round trip (vp_win_update) where the layer's
 * kernel does.
 *
 * MPI_Rget_accumulate completes when it returns (the ranks share memory);
 * its request is complete at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_win.h"

/* An atomic's target: the window, its communicator and the target's
 * byte offset, after the common checks. MPI_SUCCESS, or the error class
 * raised; *w NULL (and MPI_SUCCESS) for MPI_PROC_NULL. */
static int target_of(MPI_Win win, int target, MPI_Aint disp, int count,
		     vp_win **w, MPI_Comm *comm, size_t *off, const char *call)
{
	const int *units;
	vp_win *vw = vpmpi_win_parts(win, call, comm, &units);
	int p, rc;

	*w = NULL;
	if (!vw)
		return MPI_ERR_WIN;
	if (target == MPI_PROC_NULL)
		return MPI_SUCCESS;
	MPI_Comm_size(*comm, &p);
	if (target < 0 || target >= p)
		return vpmpi_err(*comm, MPI_ERR_RANK, call,
				 "target %d is outside [0, %d)", target, p);
	if (disp < 0 || count < 0)
		return vpmpi_err(*comm, MPI_ERR_ARG, call, "%s %ld is negative",
				 disp < 0 ? "target_disp" : "target_count",
				 disp < 0 ? (long)disp : (long)count);
	if ((rc = vpmpi_win_epoch_check(vpmpi_win(win, call), target, call)))
		return rc;
	*off = (size_t)disp * (size_t)units[target];
	*w = vw;
	return MPI_SUCCESS;
}

/* The origin and the target hold no byte: the operation is empty. */
static int nothing_moves(int origin_count, MPI_Datatype origin_type,
			 int target_count, const struct vpmpi_type *tt)
{
	int osize = 0;

	if (target_count && tt->size)
		return 0;
	return origin_count == 0 ||
	       (MPI_Type_size(origin_type, &osize) == MPI_SUCCESS && !osize);
}

/* The target datatype's elements in vp's terms for op. */
static int elements(MPI_Comm comm, const struct vpmpi_type *t,
		    MPI_Datatype type, int count, MPI_Op op, vp_type *vt,
		    vp_op *vop, size_t *vcount, const char *call)
{
	if (op >= VPMPI_FIRST_OP)
		return vpmpi_err(comm, MPI_ERR_OP, call,
				 "a user-defined op is not allowed in a "
				 "one-sided accumulate (MPI 4.0, sec. 12.3.4)");
	if (!vpmpi_dense(t)) { /* the layout's own path (update below) */
		*vcount = 0;
		return op == MPI_REPLACE || op == MPI_NO_OP
			   ? MPI_SUCCESS
			   : vpmpi_check_op(comm, type, op, call);
	}
	if (op == MPI_REPLACE || op == MPI_NO_OP) {
		*vt = VP_BYTE;
		*vop = op == MPI_REPLACE ? VP_REPLACE : VP_NO_OP;
		*vcount = (size_t)count * (size_t)t->size;
		return MPI_SUCCESS;
	}
	if (vpmpi_native(t, type, op, count, vt, vop, vcount))
		return MPI_SUCCESS;
	/* the layer's own kernel, under the target's lock (update below) */
	*vcount = 0;
	return vpmpi_check_op(comm, type, op, call);
}

/* What update applies: op of count items of type t, from the origin's
 * packed bytes; fetch: where the target's values before go, packed (NULL:
 * not wanted); sparse: the layout is not contiguous (else the target's
 * bytes are combined where they lie), packed then room to combine it in
 * (an op other than MPI_REPLACE and MPI_NO_OP); lo: where the bytes
 * update is given lie from the datatype's origin. */
struct combine {
	MPI_Op op;
	MPI_Datatype type;
	const struct vpmpi_type *t;
	int count;
	const void *origin;
	char *fetch;
	int sparse;
	char *packed;
	long lo;
};

/* Copies between the target's bytes at span (count items of t, in
 * type-map order) and packed: into packed when in. */
static void gather(const struct vpmpi_type *t, int count, char *span,
		   char *packed, int in)
{
	vpmpi_tree_copy(t, count, span, packed, count * t->size, in);
}

/* vp_win_update's function: inside the target's atomic, the values
 * before into fetch, then op applied, each touching the datatype's bytes
 * only (never the whole span between them). */
static void update(void *bytes, size_t n, void *arg)
{
	const struct combine *c = arg;
	char *at = (char *)bytes - c->lo;
	size_t size = (size_t)c->count * (size_t)c->t->size;

	if (c->fetch) {
		if (c->sparse)
			gather(c->t, c->count, at, c->fetch, 1);
		else
			memcpy(c->fetch, bytes, n);
	}
	if (c->op == MPI_NO_OP)
		return;
	if (c->op == MPI_REPLACE) {
		if (c->sparse)
			gather(c->t, c->count, at, (char *)c->origin, 0);
		else
			memcpy(bytes, c->origin, size);
		return;
	}
	if (!c->packed) {
		vpmpi_combine(c->op, c->type, c->count, c->origin, bytes);
		return;
	}
	if (c->fetch)
		memcpy(c->packed, c->fetch, size);
	else
		gather(c->t, c->count, at, c->packed, 1);
	vpmpi_combine(c->op, c->type, c->count, c->origin, c->packed);
	gather(c->t, c->count, at, c->packed, 0);
}

/* The lowest and highest byte the blocks of count items reach (the
 * last item ->shift past the first). */
struct span {
	long shift, low, high;
	int seen;
};

static int block_reach(const struct vpmpi_block *b, void *arg)
{
	struct span *s = arg;
	long a = b->off, z = s->shift + b->off;

	if (z < a) { /* a negative extent */
		long x = a;

		a = z;
		z = x;
	}
	z += b->len;
	if (!s->seen || a < s->low)
		s->low = a;
	if (!s->seen || z > s->high)
		s->high = z;
	s->seen = 1;
	return 0;
}

/* The bytes count items of t reach, from their lowest *lo (before the
 * datatype's origin when negative: a negative stride or lower bound) to
 * their highest: their span. */
static long span_of(const struct vpmpi_type *t, int count, long *lo)
{
	struct span s = { (long)(count - 1) * t->extent, 0, 0, 0 };

	if (count)
		vpmpi_type_each(t, 1, 0, block_reach, &s);
	*lo = s.low;
	return s.high - s.low;
}

/* The generic path: op applied by the layer's kernel inside
 * vp_win_update, the target's bytes gathered from their layout when it
 * is not contiguous; rbytes gets the packed values before. */
static int generic(MPI_Comm comm, vp_win *w, int target, size_t off,
		   const struct vpmpi_type *tt, MPI_Datatype type, int count,
		   MPI_Op op, const void *obytes, void *rbytes, long n,
		   const char *call)
{
	struct combine cb = { op,     type, tt,   count, obytes,
			      rbytes, 0,    NULL, 0 };
	long span = n;
	int rc;

	if ((cb.sparse = !vpmpi_dense(tt))) {
		span = span_of(tt, count, &cb.lo);
		if (cb.lo < 0 && (size_t)-cb.lo > off)
			return vpmpi_err(comm, MPI_ERR_ARG, call,
					 "target datatype %s reaches %ld bytes "
					 "before target %d's window",
					 vpmpi_type_name(type),
					 (long)((size_t)-cb.lo - off), target);
		if (op != MPI_REPLACE && op != MPI_NO_OP &&
		    !(cb.packed = malloc((size_t)n + 1)))
			return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
					 "no memory for %ld bytes", n);
	}
	rc = vpmpi_ret(vp_win_update(w, target, off + (size_t)cb.lo,
				     (size_t)span, NULL, update, &cb));
	free(cb.packed);
	return rc;
}

/* The origin's packed bytes for n target bytes: MPI_SUCCESS with *bytes
 * set (NULL for MPI_NO_OP), or the class raised. */
static int origin_bytes(MPI_Comm comm, const void *addr, int count,
			MPI_Datatype type, long n, MPI_Op op,
			const void **bytes, void **tmp, const char *call)
{
	long have = 0;
	int failed = MPI_SUCCESS;

	*bytes = NULL;
	*tmp = NULL;
	if (op == MPI_NO_OP)
		return MPI_SUCCESS;
	if (!(*bytes = vpmpi_send_bytes(comm, addr, count, type, &have, tmp,
					&failed, call)))
		return failed;
	if (have != n) {
		free(*tmp);
		*tmp = NULL;
		return vpmpi_err(comm, MPI_ERR_TYPE, call,
				 "the origin holds %ld bytes, the target "
				 "datatype %ld",
				 have, n);
	}
	return MPI_SUCCESS;
}

/* A get_accumulate without its fetch (MPI_Accumulate): vp_accumulate,
 * or the generic path with the old values dropped. */
static int accumulate(MPI_Comm comm, vp_win *w, int target, size_t off,
		      const struct vpmpi_type *tt, MPI_Datatype type,
		      int count, MPI_Op op, const void *obytes, long n,
		      size_t vcount, vp_type vt, vp_op vop, const char *call)
{
	if (vcount || !n)
		return vpmpi_ret(vp_accumulate(w, target, off, obytes, vcount,
					       vt, vop));
	return generic(comm, w, target, off, tt, type, count, op, obytes,
		       NULL, n, call);
}

static int get_accumulate(const void *origin_addr, int origin_count,
			  MPI_Datatype origin_type, void *result_addr,
			  int result_count, MPI_Datatype result_type,
			  int target, MPI_Aint disp, int target_count,
			  MPI_Datatype target_type, MPI_Op op, MPI_Win win,
			  const char *call)
{
	const struct vpmpi_type *tt, *rt = NULL;
	const void *obytes;
	void *otmp = NULL, *rtmp = NULL, *rbytes;
	MPI_Comm comm;
	vp_win *w;
	size_t off = 0, vcount;
	vp_type vt;
	vp_op vop;
	long n, rn = 0;
	int rc = target_of(win, target, disp, target_count, &w, &comm, &off,
			   call),
	    failed = MPI_SUCCESS;

	if (rc || !w)
		return rc;
	if (!(tt = vpmpi_type(comm, target_type, call)) ||
	    (result_type != MPI_DATATYPE_NULL &&
	     !(rt = vpmpi_type(comm, result_type, call))))
		return MPI_ERR_TYPE;
	if (nothing_moves(origin_count, origin_type, target_count, tt))
		return MPI_SUCCESS; /* no element to combine or fetch */
	if ((rc = elements(comm, tt, target_type, target_count, op, &vt, &vop,
			   &vcount, call)))
		return rc;
	n = (long)target_count * tt->size;
	if ((rc = origin_bytes(comm, origin_addr, origin_count, origin_type, n,
			       op, &obytes, &otmp, call)))
		return rc;
	if (result_type == MPI_DATATYPE_NULL) { /* MPI_Accumulate */
		rc = accumulate(comm, w, target, off, tt, target_type,
				target_count, op, obytes, n, vcount, vt, vop,
				call);
		free(otmp);
		return rc;
	}
	if (!(rbytes = vpmpi_recv_bytes(comm, result_addr, result_count,
					result_type, &rn, &rtmp, &failed,
					call))) {
		free(otmp);
		return failed;
	}
	if (rn != n) {
		free(otmp);
		free(rtmp);
		return vpmpi_err(comm, MPI_ERR_TYPE, call,
				 "the result holds %ld bytes, the target "
				 "datatype %ld",
				 rn, n);
	}
	if (vcount || !n) {
		rc = vpmpi_ret(vp_get_accumulate(w, target, off, obytes,
						 rbytes, vcount, vt, vop));
	} else {
		rc = generic(comm, w, target, off, tt, target_type,
			     target_count, op, obytes, rbytes, n, call);
	}
	free(otmp);
	if (!rc && rtmp)
		vpmpi_recv_done(rtmp, result_addr, result_count, rt, rn);
	else
		free(rtmp);
	return rc;
}

int MPI_Get_accumulate(const void *origin_addr, int origin_count,
		       MPI_Datatype origin_type, void *result_addr,
		       int result_count, MPI_Datatype result_type,
		       int target_rank, MPI_Aint target_disp, int target_count,
		       MPI_Datatype target_type, MPI_Op op, MPI_Win win)
{
	return get_accumulate(origin_addr, origin_count, origin_type,
			      result_addr, result_count, result_type,
			      target_rank, target_disp, target_count,
			      target_type, op, win, "MPI_Get_accumulate");
}

int vpmpi_accumulate_atomic(const void *origin_addr, int origin_count,
			    MPI_Datatype origin_type, int target_rank,
			    MPI_Aint target_disp, int target_count,
			    MPI_Datatype target_type, MPI_Op op, MPI_Win win)
{
	return get_accumulate(origin_addr, origin_count, origin_type, NULL, 0,
			      MPI_DATATYPE_NULL, target_rank, target_disp,
			      target_count, target_type, op, win,
			      "MPI_Accumulate");
}

int vpmpi_accumulate_native(MPI_Datatype type, int count, MPI_Op op)
{
	const struct vpmpi_type *t = vpmpi_lookup(type), *basic;
	size_t vcount;
	vp_type vt;
	vp_op vop;

	if (!t || op == MPI_REPLACE || op == MPI_NO_OP)
		return 0;
	if (vpmpi_dense(t))
		return vpmpi_native(t, type, op, count, &vt, &vop, &vcount);
	basic = t->elem ? vpmpi_lookup(t->elem) : NULL;
	return basic &&
	       vpmpi_native(basic, t->elem, op, 1, &vt, &vop, &vcount);
}

int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
			MPI_Datatype origin_type, void *result_addr,
			int result_count, MPI_Datatype result_type,
			int target_rank, MPI_Aint target_disp,
			int target_count, MPI_Datatype target_type, MPI_Op op,
			MPI_Win win, MPI_Request *request)
{
	static const char call[] = "MPI_Rget_accumulate";
	struct vpmpi_request *r;
	const int *units;
	MPI_Comm comm;
	vp_comm *c;
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the request pointer is NULL");
	*request = MPI_REQUEST_NULL;
	if (!vpmpi_win_parts(win, call, &comm, &units))
		return MPI_ERR_WIN;
	if (target_rank != MPI_PROC_NULL &&
	    (rc = vpmpi_win_passive_check(vpmpi_win(win, call), target_rank,
					  call)))
		return rc;
	if ((rc = get_accumulate(origin_addr, origin_count, origin_type,
				 result_addr, result_count, result_type,
				 target_rank, target_disp, target_count,
				 target_type, op, win, call)))
		return rc;
	if (!(c = vpmpi_comm(comm, call)))
		return MPI_ERR_COMM;
	if (!(r = vpmpi_request_new()))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	/* done already: a request that completes at once */
	if ((rc = vp_isend(c, VP_PROC_NULL, 0, NULL, 0, &r->vr)))
		return vpmpi_ret(rc);
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Fetch_and_op(const void *origin_addr, void *result_addr,
		     MPI_Datatype type, int target_rank, MPI_Aint target_disp,
		     MPI_Op op, MPI_Win win)
{
	return get_accumulate(origin_addr, 1, type, result_addr, 1, type,
			      target_rank, target_disp, 1, type, op, win,
			      "MPI_Fetch_and_op");
}

/* The vp type of one element for compare-and-swap (integer types and
 * MPI_BYTE; sec. 12.3.4); *vt = -1 for a size vp's own call does not take
 * (2 bytes: MPI_SHORT ...), done by vp_win_update and swap_if. */
static int cas_type(MPI_Comm comm, MPI_Datatype type, int *vt,
		    const char *call)
{
	const struct vpmpi_type *t = vpmpi_type(comm, type, call);
	int floating = type == MPI_FLOAT || type == MPI_DOUBLE ||
		       type == MPI_LONG_DOUBLE;

	if (!t)
		return MPI_ERR_TYPE;
	if (!floating && t->elem == type && vpmpi_dense(t) && t->size > 0 &&
	    t->size <= 16) {
		*vt = t->size == 1   ? VP_BYTE
		      : t->size == 4 ? VP_INT32
		      : t->size == 8 ? VP_INT64
				     : -1;
		return MPI_SUCCESS;
	}
	return vpmpi_err(comm, MPI_ERR_TYPE, call,
			 "%s is not an integer type or MPI_BYTE (what "
			 "compare-and-swap takes)",
			 vpmpi_type_name(type));
}

/* vp_win_update's function for compare-and-swap: the target's bytes
 * become the origin's where they equal compare's. */
struct cas {
	const void *origin, *compare;
};

static void swap_if(void *bytes, size_t n, void *arg)
{
	const struct cas *c = arg;

	if (!memcmp(bytes, c->compare, n))
		memcpy(bytes, c->origin, n);
}

int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
			 void *result_addr, MPI_Datatype type, int target_rank,
			 MPI_Aint target_disp, MPI_Win win)
{
	static const char call[] = "MPI_Compare_and_swap";
	MPI_Comm comm;
	vp_win *w;
	size_t off = 0;
	int vt = VP_BYTE, size;
	struct cas c = { origin_addr, compare_addr };
	int rc = target_of(win, target_rank, target_disp, 1, &w, &comm, &off,
			   call);

	if (rc || !w)
		return rc;
	if ((rc = cas_type(comm, type, &vt, call)))
		return rc;
	if (vt >= 0)
		return vpmpi_ret(vp_compare_and_swap(w, target_rank, off,
						     origin_addr, compare_addr,
						     result_addr, (vp_type)vt));
	if (!origin_addr || !compare_addr)
		return vpmpi_err(comm, MPI_ERR_BUFFER, call,
				 "the %s buffer is NULL",
				 origin_addr ? "compare" : "origin");
	MPI_Type_size(type, &size);
	return vpmpi_ret(vp_win_update(w, target_rank, off, (size_t)size,
				       result_addr, swap_if, &c));
}
