/*
 * mpi_coll.c - MPI collectives on vp's: each runs the algorithm vp picks
 * for the run's topology (or the one VP_ALG_<COLLECTIVE> names), so the
 * model clock, the algorithm report (vpmpirun --stats) and the collective
 * mismatch checks all apply to MPI programs. Data-moving collectives move
 * packed bytes: the user's buffers themselves when their datatypes are
 * contiguous, packed copies otherwise. Reductions go to vp's collectives
 * when vp reduces the (datatype, op) pair exactly, and to the layer's own
 * algorithms otherwise (mpi_reduce.c). The send and receive signatures
 * must describe the same bytes (MPI's rule); a mismatch fails the call.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

vp_alg vpmpi_algs[VP_COLL_COUNT_]; /* set by the launcher; AUTO = 0 */

int MPI_Barrier(MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_barrier(comm);
	vp_comm *c = vpmpi_comm(comm, "MPI_Barrier");

	return c ? vpmpi_ret(vp_barrier(c)) : MPI_ERR_COMM;
}

/* Checks a root: 0 or the error raised. */
static int check_root(MPI_Comm h, vp_comm *c, int root, const char *call)
{
	if (root >= 0 && root < vp_size(c))
		return MPI_SUCCESS;
	return vpmpi_err(h, MPI_ERR_ROOT, call, "root %d is outside [0, %d)",
			 root, vp_size(c));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
	      MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_bcast(buf, count, type, root, comm);
	vp_comm *c = vpmpi_comm(comm, "MPI_Bcast");
	const struct vpmpi_type *t;
	void *tmp;
	long n;
	int rc;

	if (!c)
		return MPI_ERR_COMM;
	if ((rc = check_root(comm, c, root, "MPI_Bcast")))
		return rc;
	if ((n = vpmpi_bytes(comm, count, type, "MPI_Bcast")) < 0)
		return MPI_ERR_TYPE;
	t = vpmpi_type_any(type, "MPI_Bcast");
	vpmpi_coll_elems(c, type);
	if (vpmpi_dense(t))
		return vpmpi_ret(vp_bcast(c, buf, (size_t)n, VP_BYTE, root,
					  vpmpi_algs[VP_COLL_BCAST]));
	if (!(tmp = malloc((size_t)n)))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, "MPI_Bcast",
				 "no memory for %ld bytes", n);
	if (vp_rank(c) == root)
		vpmpi_pack(t, count, buf, tmp);
	rc = vp_bcast(c, tmp, (size_t)n, VP_BYTE, root,
		      vpmpi_algs[VP_COLL_BCAST]);
	if (!rc && vp_rank(c) != root)
		vpmpi_unpack(t, count, tmp, n, buf);
	free(tmp);
	return vpmpi_ret(rc);
}

/* ---- blocks: one rank's part of a gather, scatter, allgather or
 * all-to-all, as packed bytes ---- */

/* The packed bytes of p blocks of count items of t at buf: buf itself
 * when t is dense, else a packed copy in *tmp. NULL after an error. */
static void *packed_blocks(MPI_Comm h, const struct vpmpi_type *t,
			   const void *buf, int blocks, int count, void **tmp,
			   const char *call)
{
	static char nothing[1]; /* no bytes to send, no buffer */
	long n = (long)blocks * count * t->size;

	*tmp = NULL;
	if (vpmpi_dense(t))
		return buf || n ? (void *)buf : nothing;
	if (!(*tmp = malloc(n ? (size_t)n : 1))) {
		vpmpi_err(h, MPI_ERR_NO_MEM, call, "no memory for %ld bytes",
			  n);
		return NULL;
	}
	vpmpi_pack(t, blocks * count, buf, *tmp);
	return *tmp;
}

/* Where p blocks of count items of t arrive: recvbuf itself when t is
 * dense, else a packed buffer in *tmp (unpacked by unpack_blocks). NULL
 * after an error. */
static void *recv_blocks(MPI_Comm h, const struct vpmpi_type *t, int blocks,
			 int count, void *recvbuf, void **tmp,
			 const char *call)
{
	static char nothing[1]; /* no bytes to receive, no buffer */
	long n = (long)blocks * count * t->size;

	*tmp = NULL;
	if (vpmpi_dense(t))
		return recvbuf || n ? recvbuf : nothing;
	if (!(*tmp = malloc(n ? (size_t)n : 1)))
		vpmpi_err(h, MPI_ERR_NO_MEM, call, "no memory for %ld bytes",
			  n);
	return *tmp;
}

/* After the collective: unpack what arrived into the user's layout. */
static void unpack_blocks(const struct vpmpi_type *t, void *tmp, int blocks,
			  int count, void *buf)
{
	if (tmp) {
		vpmpi_unpack(t, blocks * count, tmp,
			     (long)blocks * count * t->size, buf);
		free(tmp);
	}
}

/* The send and receive types and the block's bytes; send side skipped
 * when in place. -1 after an error. */
static long block_args(MPI_Comm h, const void *sendbuf, int scount,
		       MPI_Datatype stype, const struct vpmpi_type **st,
		       int has_recv, int rcount, MPI_Datatype rtype,
		       const struct vpmpi_type **rt, const char *call)
{
	long sn = -1, rn = -1;

	*st = *rt = NULL;
	if (has_recv) {
		if ((rn = vpmpi_bytes(h, rcount, rtype, call)) < 0)
			return -1;
		*rt = vpmpi_type_any(rtype, call);
	}
	if (sendbuf != MPI_IN_PLACE) {
		if ((sn = vpmpi_bytes(h, scount, stype, call)) < 0)
			return -1;
		*st = vpmpi_type_any(stype, call);
	}
	if (sn >= 0 && rn >= 0 && sn != rn)
		return vpmpi_err(h, MPI_ERR_TRUNCATE, call,
				 "the send block is %ld bytes, the receive "
				 "block %ld",
				 sn, rn),
		       -1;
	/* this rank's block goes from its send to its receive buffer: the
	 * same signature (MPI 4.0 sec. 6.5), as far as kinds tell */
	if (*st && *rt && (*st)->committed && (*rt)->committed &&
	    (*st)->kind && (*rt)->kind && strcmp((*st)->kind, (*rt)->kind))
		return vpmpi_err(h, MPI_ERR_TYPE, call,
				 "the send block holds %s elements, the "
				 "receive block %s elements",
				 (*st)->kind, (*rt)->kind),
		       -1;
	return sn >= 0 ? sn : rn;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_rooted(1, sendbuf, NULL, NULL, sendcount,
				       sendtype, recvbuf, NULL, NULL, recvcount,
				       recvtype, root, comm, "MPI_Gather");
	vp_comm *c = vpmpi_comm(comm, "MPI_Gather");
	const struct vpmpi_type *st, *rt;
	void *stmp = NULL, *rtmp = NULL, *sb, *rb = NULL;
	int is_root, p, rc;
	long n;

	if (!c)
		return MPI_ERR_COMM;
	if ((rc = check_root(comm, c, root, "MPI_Gather")))
		return rc;
	is_root = vp_rank(c) == root;
	p = vp_size(c);
	n = block_args(comm, sendbuf, sendcount, sendtype, &st, is_root,
		       recvcount, recvtype, &rt, "MPI_Gather");
	if (n < 0)
		return MPI_ERR_TYPE;
	sb = (void *)sendbuf;
	if (sendbuf != MPI_IN_PLACE &&
	    !(sb = packed_blocks(comm, st, sendbuf, 1, sendcount, &stmp,
				 "MPI_Gather")))
		return MPI_ERR_NO_MEM;
	if (is_root &&
	    !(rb = recv_blocks(comm, rt, p, recvcount, recvbuf, &rtmp,
			       "MPI_Gather"))) {
		free(stmp);
		return MPI_ERR_NO_MEM;
	}
	if (is_root && rtmp && sendbuf == MPI_IN_PLACE) /* own block */
		vpmpi_pack(rt, recvcount,
			   (char *)recvbuf + (long)root * recvcount * rt->extent,
			   (char *)rtmp + (long)root * n);
	vpmpi_coll_elems(c, sendbuf == MPI_IN_PLACE ? recvtype : sendtype);
	rc = vp_gather(c, sb, rb, (size_t)n, VP_BYTE, root,
		       vpmpi_algs[VP_COLL_GATHER]);
	free(stmp);
	if (!rc && is_root)
		unpack_blocks(rt, rtmp, p, recvcount, recvbuf);
	else
		free(rtmp);
	return vpmpi_ret(rc);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_rooted(0, sendbuf, NULL, NULL, sendcount,
				       sendtype, recvbuf, NULL, NULL, recvcount,
				       recvtype, root, comm, "MPI_Scatter");
	vp_comm *c = vpmpi_comm(comm, "MPI_Scatter");
	const struct vpmpi_type *st = NULL, *rt = NULL;
	void *stmp = NULL, *rtmp = NULL, *sb = NULL, *rb;
	int is_root, p, rc;
	long n, sn;

	if (!c)
		return MPI_ERR_COMM;
	if ((rc = check_root(comm, c, root, "MPI_Scatter")))
		return rc;
	is_root = vp_rank(c) == root;
	p = vp_size(c);
	/* the receive side names the block everywhere (MPI_IN_PLACE: the
	 * root keeps its block in sendbuf, and names it there) */
	if (recvbuf == MPI_IN_PLACE) {
		if ((n = vpmpi_bytes(comm, sendcount, sendtype,
				     "MPI_Scatter")) < 0)
			return MPI_ERR_TYPE;
	} else {
		if ((n = vpmpi_bytes(comm, recvcount, recvtype,
				     "MPI_Scatter")) < 0)
			return MPI_ERR_TYPE;
		rt = vpmpi_type_any(recvtype, "MPI_Scatter");
	}
	if (is_root) {
		if ((sn = vpmpi_bytes(comm, sendcount, sendtype,
				      "MPI_Scatter")) < 0)
			return MPI_ERR_TYPE;
		if (sn != n)
			return vpmpi_err(comm, MPI_ERR_TRUNCATE, "MPI_Scatter",
					 "the send block is %ld bytes, the "
					 "receive block %ld",
					 sn, n);
		st = vpmpi_type_any(sendtype, "MPI_Scatter");
		if (!(sb = packed_blocks(comm, st, sendbuf, p, sendcount,
					 &stmp, "MPI_Scatter")))
			return MPI_ERR_NO_MEM;
	}
	rb = recvbuf;
	if (recvbuf != MPI_IN_PLACE &&
	    !(rb = recv_blocks(comm, rt, 1, recvcount, recvbuf, &rtmp,
			       "MPI_Scatter"))) {
		free(stmp);
		return MPI_ERR_NO_MEM;
	}
	vpmpi_coll_elems(c, recvbuf == MPI_IN_PLACE ? sendtype : recvtype);
	rc = vp_scatter(c, sb, rb, (size_t)n, VP_BYTE, root,
			vpmpi_algs[VP_COLL_SCATTER]);
	free(stmp);
	if (!rc && rtmp)
		unpack_blocks(rt, rtmp, 1, recvcount, recvbuf);
	else
		free(rtmp);
	return vpmpi_ret(rc);
}

/* Allgather and alltoall: blocks of every rank, each way. */
static int every_block(vp_coll op, const void *sendbuf, int sendcount,
		       MPI_Datatype sendtype, void *recvbuf, int recvcount,
		       MPI_Datatype recvtype, MPI_Comm comm, const char *call)
{
	int (*coll)(vp_comm *, const void *, void *, size_t, vp_type,
		    vp_alg) = op == VP_COLL_ALLGATHER ? vp_allgather
						      : vp_alltoall;
	vp_comm *c = vpmpi_comm(comm, call);
	const struct vpmpi_type *st, *rt;
	void *stmp = NULL, *rtmp = NULL, *sb, *rb;
	int p, rc, sblocks;
	long n;

	if (!c)
		return MPI_ERR_COMM;
	p = vp_size(c);
	sblocks = op == VP_COLL_ALLGATHER ? 1 : p;
	n = block_args(comm, sendbuf, sendcount, sendtype, &st, 1, recvcount,
		       recvtype, &rt, call);
	if (n < 0)
		return MPI_ERR_TYPE;
	sb = (void *)sendbuf;
	if (sendbuf != MPI_IN_PLACE &&
	    !(sb = packed_blocks(comm, st, sendbuf, sblocks, sendcount, &stmp,
				 call)))
		return MPI_ERR_NO_MEM;
	if (!(rb = recv_blocks(comm, rt, p, recvcount, recvbuf, &rtmp, call))) {
		free(stmp);
		return MPI_ERR_NO_MEM;
	}
	if (rtmp && sendbuf == MPI_IN_PLACE) { /* the input is in recvbuf */
		if (op == VP_COLL_ALLGATHER)
			vpmpi_pack(rt, recvcount,
				   (char *)recvbuf +
				       (long)vp_rank(c) * recvcount * rt->extent,
				   (char *)rtmp + (long)vp_rank(c) * n);
		else
			vpmpi_pack(rt, p * recvcount, recvbuf, rtmp);
	}
	vpmpi_coll_elems(c, sendbuf == MPI_IN_PLACE ? recvtype : sendtype);
	rc = coll(c, sb, rb, (size_t)n, VP_BYTE, vpmpi_algs[op]);
	free(stmp);
	if (!rc)
		unpack_blocks(rt, rtmp, p, recvcount, recvbuf);
	else
		free(rtmp);
	return vpmpi_ret(rc);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_all(sendbuf, NULL, NULL, NULL, sendcount,
				    sendtype, recvbuf, NULL, NULL, NULL,
				    recvcount, recvtype, 0, comm,
				    "MPI_Allgather");
	return every_block(VP_COLL_ALLGATHER, sendbuf, sendcount, sendtype,
			   recvbuf, recvcount, recvtype, comm, "MPI_Allgather");
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_all(sendbuf, NULL, NULL, NULL, sendcount,
				    sendtype, recvbuf, NULL, NULL, NULL,
				    recvcount, recvtype, 1, comm,
				    "MPI_Alltoall");
	return every_block(VP_COLL_ALLTOALL, sendbuf, sendcount, sendtype,
			   recvbuf, recvcount, recvtype, comm, "MPI_Alltoall");
}
