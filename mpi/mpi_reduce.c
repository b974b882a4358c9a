/*
 * mpi_reduce.c - MPI's reductions: Reduce, Allreduce, Scan, Exscan,
 * Reduce_scatter and Reduce_scatter_block.
 *
 * A (datatype, op) pair that vp reduces exactly runs on vp's own
 * collective (its algorithm choice, its model, its report). Any other pair
 * (user ops, MAXLOC, logical ops, unsigned MIN/MAX, short and long double
 * types, non-contiguous datatypes) runs here, on packed data, with
 * algorithms that keep MPI's order of operands so that a non-commutative
 * user op gets x0 op x1 op ... op x(p-1):
 *   reduce   an ordered binomial tree into rank 0 (Grama et al., sec. 4.1,
 *            run in reverse): ceil(log2 p) steps of ts + tw m, plus one
 *            message to the root when it is not rank 0;
 *   allreduce  that reduce, then vp_bcast from rank 0;
 *   scan, exscan  recursive doubling (Grama et al., sec. 4.3, prefix sums
 *            on a hypercube; any p as in MPICH): ceil(log2 p) exchanges;
 *   reduce_scatter  the reduce, then a scatter (vp_scatter or Scatterv).
 * The messages travel on vp's collective context under vp_coll_begin, so
 * the model charges them and the mismatch checks cover them; --stats names
 * the layer's algorithm and why it ran.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

extern vp_alg vpmpi_algs[VP_COLL_COUNT_];

/* A reduction's arguments, checked: the communicator, the datatype, and
 * the bytes of count items; NULL after an error. */
static vp_comm *args(MPI_Comm comm, int count, MPI_Datatype type, MPI_Op op,
		     const struct vpmpi_type **t, long *n, const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);

	if (!c || vpmpi_check_op(comm, type, op, call))
		return NULL;
	if ((*n = vpmpi_bytes(comm, count, type, call)) < 0)
		return NULL;
	*t = vpmpi_type_any(type, call);
	return c;
}

/* Two buffers of n bytes, the first holding count packed items of t
 * from buf; 0 or the error raised. */
static int packed_pair(MPI_Comm h, const struct vpmpi_type *t, const void *buf,
		       int count, long n, char **acc, char **tmp,
		       const char *call)
{
	*acc = malloc(n ? (size_t)n : 1);
	*tmp = malloc(n ? (size_t)n : 1);
	if (!*acc || !*tmp) {
		free(*acc);
		free(*tmp);
		return vpmpi_err(h, MPI_ERR_NO_MEM, call,
				 "no memory for 2 x %ld bytes", n);
	}
	if (buf)
		vpmpi_pack(t, count, buf, *acc);
	return MPI_SUCCESS;
}

static void swap(char **a, char **b)
{
	char *t = *a;

	*a = *b;
	*b = t;
}

static int begin(vp_comm *c, const char *call, vp_alg alg, int count,
		 MPI_Datatype type, MPI_Op op, int root)
{
	vp_coll_sig sig = { call, alg, (size_t)count, type, op, root,
			    0,    0,   0,	  NULL };

	return vp_coll_begin(c, &sig);
}

/* The ordered binomial reduction of *acc into rank root; *acc is the
 * result there. Messages land in *tmp, or, where *tmp is NULL or the
 * program's input (user: read, never written), in whichever of own[0..1]
 * *acc is not (both allocated where this rank receives). */
static int tree_reduce(vp_comm *c, char **acc, char **tmp, const char *user,
		       char *const own[2], long n, int count,
		       MPI_Datatype type, MPI_Op op, int root)
{
	vp_comm *cc = vp_coll_comm(c);
	int r = vp_rank(c), p = vp_size(c), mask, rc;

	for (mask = 1; mask < p; mask <<= 1) {
		if (r & mask) {
			if ((rc = vp_send_tag(cc, r - mask, 0, *acc,
					      (size_t)n)))
				return rc;
			break;
		}
		if (r + mask < p) {
			if (!*tmp || *tmp == user)
				*tmp = own[own[0] == *acc];
			if ((rc = vp_recv_tag(cc, r + mask, 0, *tmp, (size_t)n,
					      NULL)))
				return rc;
			/* acc covers [r, r + mask), tmp the ranks after */
			vpmpi_combine(op, type, count, *acc, *tmp);
			swap(acc, tmp);
		}
	}
	if (root == 0)
		return VP_OK;
	if (r == 0)
		return vp_send_tag(cc, root, 0, *acc, (size_t)n);
	if (r != root)
		return VP_OK;
	if (!*tmp || *tmp == user)
		*tmp = own[own[0] == *acc];
	swap(acc, tmp);
	return vp_recv_tag(cc, 0, 0, *acc, (size_t)n, NULL);
}

/* tree_reduce into rank 0 on two packed buffers of the caller's. */
static int tree_reduce_into0(vp_comm *c, char **acc, char **tmp, long n,
			     int count, MPI_Datatype type, MPI_Op op)
{
	char *const own[2] = { *acc, *tmp };

	return tree_reduce(c, acc, tmp, NULL, own, n, count, type, op, 0);
}

static const char *why_not_native(MPI_Op op)
{
	return op >= VPMPI_FIRST_OP
		   ? "MPI layer: a user op (ordered, sec. 4.1 tree)"
		   : "MPI layer: vp does not reduce this (datatype, op) "
		     "(ordered, sec. 4.1 tree)";
}

/* The buffers of the layer's reduce: a dense input is reduced where it
 * lies (*acc is the program's input, read only), else packed into
 * own[0]; a rank that receives gets two buffers of its own. 0 or the
 * error raised. */
static int reduce_buffers(vp_comm *c, MPI_Comm h, const struct vpmpi_type *t,
			  const void *in, int count, long n, int root,
			  char **acc, char *own[2], const char *call)
{
	int r = vp_rank(c), p = vp_size(c);
	int recv = (!(r & 1) && r + 1 < p) || (r == root && root != 0);

	own[0] = own[1] = NULL;
	*acc = (char *)in;
	if (!recv && vpmpi_dense(t))
		return MPI_SUCCESS;
	if (!(own[0] = malloc(n ? (size_t)n : 1)) ||
	    !(own[1] = malloc(n ? (size_t)n : 1))) {
		free(own[0]);
		return vpmpi_err(h, MPI_ERR_NO_MEM, call,
				 "no memory for 2 x %ld bytes", n);
	}
	if (!vpmpi_dense(t)) {
		vpmpi_pack(t, count, in, own[0]);
		*acc = own[0];
	}
	return MPI_SUCCESS;
}

/* The layer's reduce of count items into root (in place: the root's
 * input is recvbuf); the result unpacked there (all: on every rank, by
 * vp_bcast from the root, straight into recvbuf when it is dense). */
static int generic_reduce(vp_comm *c, MPI_Comm h,
			  const struct vpmpi_type *t, const void *sendbuf,
			  void *recvbuf, int count, long n,
			  MPI_Datatype type, MPI_Op op, int root, int all,
			  const char *call)
{
	char *acc, *tmp = NULL, *own[2];
	int rc, r = vp_rank(c), dense = vpmpi_dense(t);
	const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

	if ((rc = reduce_buffers(c, h, t, in, count, n, root, &acc, own,
				 call)))
		return rc;
	rc = begin(c, call, VP_ALG_BINOMIAL, count, type, op, root);
	if (!rc)
		rc = tree_reduce(c, &acc, &tmp, dense ? in : NULL, own, n,
				 count, type, op, root);
	if (!rc && all && r != root && dense)
		acc = recvbuf; /* the result arrives where it belongs */
	if (!rc && all)
		rc = vp_bcast(c, acc, (size_t)n, VP_BYTE, root, VP_ALG_AUTO);
	if (!rc && (all || r == root) && acc != recvbuf)
		vpmpi_unpack(t, count, acc, n, recvbuf);
	if (!rc)
		vp_coll_note(c, all ? VP_COLL_ALLREDUCE : VP_COLL_REDUCE,
			     VP_ALG_BINOMIAL, why_not_native(op));
	free(own[0]);
	free(own[1]);
	return vpmpi_ret(rc);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_reduce(sendbuf, recvbuf, count, type, op, root,
				       comm);
	const struct vpmpi_type *t;
	vp_type vt;
	vp_op vop;
	size_t vcount;
	long n;
	vp_comm *c = args(comm, count, type, op, &t, &n, "MPI_Reduce");

	if (!c)
		return MPI_ERR_ARG;
	if (root < 0 || root >= vp_size(c))
		return vpmpi_err(comm, MPI_ERR_ROOT, "MPI_Reduce",
				 "root %d is outside [0, %d)", root,
				 vp_size(c));
	if (sendbuf == MPI_IN_PLACE && vp_rank(c) != root)
		return vpmpi_err(comm, MPI_ERR_BUFFER, "MPI_Reduce",
				 "MPI_IN_PLACE is for the root (%d) only",
				 root);
	if (vpmpi_native(t, type, op, count, &vt, &vop, &vcount))
		return vpmpi_ret(vp_reduce(c, sendbuf, recvbuf, vcount, vt,
					   vop, root,
					   vpmpi_algs[VP_COLL_REDUCE]));
	return generic_reduce(c, comm, t, sendbuf, recvbuf, count, n, type, op,
			      root, 0, "MPI_Reduce");
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_allreduce(sendbuf, recvbuf, count, type, op,
					  comm, "MPI_Allreduce");
	const struct vpmpi_type *t;
	vp_type vt;
	vp_op vop;
	size_t vcount;
	long n;
	vp_comm *c = args(comm, count, type, op, &t, &n, "MPI_Allreduce");

	if (!c)
		return MPI_ERR_ARG;
	if (vpmpi_native(t, type, op, count, &vt, &vop, &vcount))
		return vpmpi_ret(vp_allreduce(c, sendbuf, recvbuf, vcount, vt,
					      vop,
					      vpmpi_algs[VP_COLL_ALLREDUCE]));
	return generic_reduce(c, comm, t, sendbuf, recvbuf, count, n, type, op,
			      0, 1, "MPI_Allreduce");
}

/* Inclusive (MPI_Scan) or exclusive (MPI_Exscan) prefix reduction by
 * recursive doubling, keeping the operands in rank order. */
static int generic_scan(vp_comm *c, MPI_Comm h, const struct vpmpi_type *t,
			const void *sendbuf, void *recvbuf, int count, long n,
			MPI_Datatype type, MPI_Op op, int exclusive,
			const char *call)
{
	vp_comm *cc = vp_coll_comm(c);
	int r = vp_rank(c), p = vp_size(c), mask, rc, have = 0;
	const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
	char *partial, *tmp, *result;

	if ((rc = packed_pair(h, t, in, count, n, &partial, &tmp, call)))
		return rc;
	if (!(result = malloc(n ? (size_t)n : 1))) {
		free(partial);
		free(tmp);
		return vpmpi_err(h, MPI_ERR_NO_MEM, call,
				 "no memory for %ld bytes", n);
	}
	memcpy(result, partial, (size_t)n);
	have = !exclusive; /* result holds something */
	rc = begin(c, call, VP_ALG_RECURSIVE_DOUBLING, count, type, op, -1);
	for (mask = 1; !rc && mask < p; mask <<= 1) {
		int dst = r ^ mask;

		if (dst >= p)
			continue;
		if ((rc = vp_sendrecv(cc, dst, partial, (size_t)n, dst, tmp,
				      (size_t)n)))
			break;
		if (dst < r) { /* tmp: ranks just below partial's and result's */
			vpmpi_combine(op, type, count, tmp, partial);
			if (have)
				vpmpi_combine(op, type, count, tmp, result);
			else
				memcpy(result, tmp, (size_t)n);
			have = 1;
		} else { /* tmp: ranks just above partial's */
			vpmpi_combine(op, type, count, partial, tmp);
			swap(&partial, &tmp);
		}
	}
	/* MPI leaves rank 0's result of an exclusive scan undefined: its
	 * buffer is left as it was */
	if (!rc && have)
		vpmpi_unpack(t, count, result, n, recvbuf);
	if (!rc)
		vp_coll_note(c, VP_COLL_SCAN, VP_ALG_RECURSIVE_DOUBLING,
			     exclusive ? "MPI layer: MPI_Exscan (sec. 4.3 "
					 "recursive doubling)"
				       : "MPI layer: vp does not reduce this "
					 "(datatype, op) (sec. 4.3 recursive "
					 "doubling)");
	free(partial);
	free(tmp);
	free(result);
	return vpmpi_ret(rc);
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
	     MPI_Op op, MPI_Comm comm)
{
	const struct vpmpi_type *t;
	vp_type vt;
	vp_op vop;
	size_t vcount;
	long n;
	vp_comm *c = args(comm, count, type, op, &t, &n, "MPI_Scan");

	if (!c)
		return MPI_ERR_ARG;
	if (vpmpi_native(t, type, op, count, &vt, &vop, &vcount))
		return vpmpi_ret(vp_scan(c, sendbuf, recvbuf, vcount, vt, vop,
					 vpmpi_algs[VP_COLL_SCAN]));
	return generic_scan(c, comm, t, sendbuf, recvbuf, count, n, type, op, 0,
			    "MPI_Scan");
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	const struct vpmpi_type *t;
	long n;
	vp_comm *c = args(comm, count, type, op, &t, &n, "MPI_Exscan");

	if (!c)
		return MPI_ERR_ARG;
	return generic_scan(c, comm, t, sendbuf, recvbuf, count, n, type, op, 1,
			    "MPI_Exscan");
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
			     int recvcount, MPI_Datatype type, MPI_Op op,
			     MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_reduce_scatter(sendbuf, recvbuf, NULL, recvcount,
					       type, op, comm,
					       "MPI_Reduce_scatter_block");
	const struct vpmpi_type *t;
	vp_type vt;
	vp_op vop;
	size_t vcount;
	long n;
	vp_comm *c = args(comm, recvcount, type, op, &t, &n,
			  "MPI_Reduce_scatter_block");
	int p, rc;
	char *acc, *tmp, *whole;

	if (!c)
		return MPI_ERR_ARG;
	p = vp_size(c);
	if (sendbuf != MPI_IN_PLACE &&
	    vpmpi_native(t, type, op, recvcount, &vt, &vop, &vcount))
		return vpmpi_ret(vp_reduce_scatter(
		    c, sendbuf, recvbuf, vcount, vt, vop,
		    vpmpi_algs[VP_COLL_REDUCE_SCATTER]));
	/* the reduce of all p blocks into rank 0, then a scatter */
	if ((rc = packed_pair(comm, t,
			      sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
			      p * recvcount, (long)p * n, &acc, &tmp,
			      "MPI_Reduce_scatter_block")))
		return rc;
	if (vpmpi_native(t, type, op, p * recvcount, &vt, &vop, &vcount))
		rc = vp_reduce(c, acc, tmp, vcount, vt, vop, 0, VP_ALG_AUTO),
		swap(&acc, &tmp);
	else if (!(rc = begin(c, "MPI_Reduce_scatter_block", VP_ALG_BINOMIAL,
			      recvcount, type, op, 0)))
		rc = tree_reduce_into0(c, &acc, &tmp, (long)p * n,
				       p * recvcount, type, op);
	whole = acc;
	if (!rc)
		rc = vp_scatter(c, whole, tmp, (size_t)n, VP_BYTE, 0,
				VP_ALG_AUTO);
	if (!rc)
		vpmpi_unpack(t, recvcount, tmp, n, recvbuf);
	free(acc);
	free(tmp);
	return vpmpi_ret(rc);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype type, MPI_Op op,
		       MPI_Comm comm)
{
	if (!recvcounts)
		return vpmpi_err(comm, MPI_ERR_COUNT, "MPI_Reduce_scatter",
				 "recvcounts is NULL");
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_reduce_scatter(sendbuf, recvbuf, recvcounts, 0,
					       type, op, comm,
					       "MPI_Reduce_scatter");
	const struct vpmpi_type *t;
	vp_type vt;
	vp_op vop;
	size_t vcount;
	long n, total = 0;
	vp_comm *c = args(comm, 0, type, op, &t, &n, "MPI_Reduce_scatter");
	int p, i, rc, *bytes = NULL, *displs = NULL, r;
	char *acc, *tmp;

	if (!c)
		return MPI_ERR_ARG;
	p = vp_size(c);
	r = vp_rank(c);
	for (i = 0; i < p; i++) {
		if (recvcounts[i] < 0)
			return vpmpi_err(comm, MPI_ERR_COUNT,
					 "MPI_Reduce_scatter",
					 "recvcounts[%d] = %d is negative", i,
					 recvcounts[i]);
		total += recvcounts[i];
	}
	n = total * t->size;
	if ((rc = packed_pair(comm, t,
			      sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
			      (int)total, n, &acc, &tmp,
			      "MPI_Reduce_scatter")))
		return rc;
	if (vpmpi_native(t, type, op, (int)total, &vt, &vop, &vcount)) {
		rc = vp_reduce(c, acc, tmp, vcount, vt, vop, 0, VP_ALG_AUTO);
		swap(&acc, &tmp);
	} else if (!(rc = begin(c, "MPI_Reduce_scatter", VP_ALG_BINOMIAL,
				(int)total, type, op, 0)))
		rc = tree_reduce_into0(c, &acc, &tmp, n, (int)total, type, op);
	if (rc) {
		free(acc);
		free(tmp);
		return vpmpi_ret(rc);
	}
	/* the blocks from rank 0, in packed bytes */
	if (r == 0) {
		bytes = malloc((size_t)p * sizeof(int));
		displs = malloc((size_t)p * sizeof(int));
		if (!bytes || !displs) {
			free(bytes);
			free(displs);
			free(acc);
			free(tmp);
			return vpmpi_err(comm, MPI_ERR_NO_MEM,
					 "MPI_Reduce_scatter",
					 "no memory for %d counts", p);
		}
		for (i = 0, total = 0; i < p; i++) {
			bytes[i] = (int)(recvcounts[i] * t->size);
			displs[i] = (int)total;
			total += bytes[i];
		}
	}
	rc = MPI_Scatterv(acc, bytes, displs, MPI_BYTE, tmp,
			  (int)(recvcounts[r] * t->size), MPI_BYTE, 0, comm);
	if (!rc)
		vpmpi_unpack(t, recvcounts[r], tmp, recvcounts[r] * t->size,
			     recvbuf);
	free(bytes);
	free(displs);
	free(acc);
	free(tmp);
	return rc;
}
