/*
 * mpi_coll.c - MPI collectives on vp's: each runs the algorithm vp picks
 * for the run's topology (VP_ALG_AUTO), so the model clock, the algorithm
 * report (vpmpirun --stats) and the collective mismatch checks all apply
 * to MPI programs. Data-moving collectives go as bytes; reductions need an
 * element type vp reduces exactly (mpi_comm.c). The send and receive
 * signatures must describe the same bytes (MPI's rule for the basic
 * types); a mismatch fails the run.
 */
#include "vpmpi.h"

int MPI_Barrier(MPI_Comm comm)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Barrier");

	return c ? vpmpi_class(vp_barrier(c)) : MPI_ERR_COMM;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
	      MPI_Comm comm)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Bcast");
	long n = vpmpi_bytes(count, type, "MPI_Bcast");

	if (!c || n < 0)
		return c ? MPI_ERR_TYPE : MPI_ERR_COMM;
	return vpmpi_ret(
	    vp_bcast(c, buf, (size_t)n, VP_BYTE, root, VP_ALG_AUTO));
}

/* The communicator, element type and op of a reduction, or NULL after
 * failing the run naming what is wrong. */
static vp_comm *reduction_args(MPI_Comm comm, int count, MPI_Datatype type,
			       MPI_Op op, vp_type *vt, vp_op *vop,
			       const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);
	int t;

	if (!c)
		return NULL;
	if (count < 0) {
		vpmpi_fail(MPI_ERR_COUNT, call, "count %d is negative", count);
		return NULL;
	}
	if ((t = vpmpi_reduction(type, op, vop, call)) < 0)
		return NULL;
	*vt = (vp_type)t;
	return c;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
	vp_type vt;
	vp_op vop;
	vp_comm *c =
	    reduction_args(comm, count, type, op, &vt, &vop, "MPI_Reduce");

	if (!c)
		return MPI_ERR_ARG;
	return vpmpi_ret(vp_reduce(c, sendbuf, recvbuf, (size_t)count, vt,
				   vop, root, VP_ALG_AUTO));
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	vp_type vt;
	vp_op vop;
	vp_comm *c =
	    reduction_args(comm, count, type, op, &vt, &vop, "MPI_Allreduce");

	if (!c)
		return MPI_ERR_ARG;
	return vpmpi_ret(vp_allreduce(c, sendbuf, recvbuf, (size_t)count, vt,
				      vop, VP_ALG_AUTO));
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
	     MPI_Op op, MPI_Comm comm)
{
	vp_type vt;
	vp_op vop;
	vp_comm *c =
	    reduction_args(comm, count, type, op, &vt, &vop, "MPI_Scan");

	if (!c)
		return MPI_ERR_ARG;
	return vpmpi_ret(vp_scan(c, sendbuf, recvbuf, (size_t)count, vt, vop,
				 VP_ALG_AUTO));
}

/* The bytes of one rank's block: the send side's, checked against the
 * receive side's where this rank has one (-1: the run failed). */
static long block_bytes(const void *sendbuf, int sendcount,
			MPI_Datatype sendtype, int has_recv, int recvcount,
			MPI_Datatype recvtype, const char *call)
{
	long sn = 0, rn = 0;

	if (has_recv &&
	    (rn = vpmpi_bytes(recvcount, recvtype, call)) < 0)
		return -1;
	if (sendbuf == MPI_IN_PLACE)
		return rn;
	if ((sn = vpmpi_bytes(sendcount, sendtype, call)) < 0)
		return -1;
	if (has_recv && sn != rn)
		return vpmpi_fail(MPI_ERR_TYPE, call,
				  "the send block is %ld bytes, the receive "
				  "block %ld",
				  sn, rn),
		       -1;
	return sn;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Gather");
	long n;

	if (!c)
		return MPI_ERR_COMM;
	n = block_bytes(sendbuf, sendcount, sendtype, vp_rank(c) == root,
			recvcount, recvtype, "MPI_Gather");
	if (n < 0)
		return MPI_ERR_TYPE;
	return vpmpi_ret(vp_gather(c, sendbuf, recvbuf, (size_t)n, VP_BYTE,
				     root, VP_ALG_AUTO));
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Scatter");
	long n, sn;

	if (!c)
		return MPI_ERR_COMM;
	/* the receive side names the block everywhere (MPI_IN_PLACE: the
	 * root keeps its block in sendbuf, and names it there) */
	if (recvbuf == MPI_IN_PLACE)
		n = vpmpi_bytes(sendcount, sendtype, "MPI_Scatter");
	else
		n = vpmpi_bytes(recvcount, recvtype, "MPI_Scatter");
	if (n < 0)
		return MPI_ERR_TYPE;
	if (vp_rank(c) == root && recvbuf != MPI_IN_PLACE) {
		if ((sn = vpmpi_bytes(sendcount, sendtype, "MPI_Scatter")) < 0)
			return MPI_ERR_TYPE;
		if (sn != n)
			return vpmpi_fail(MPI_ERR_TYPE, "MPI_Scatter",
					  "the send block is %ld bytes, the "
					  "receive block %ld",
					  sn, n);
	}
	return vpmpi_ret(vp_scatter(c, sendbuf, recvbuf, (size_t)n, VP_BYTE,
				      root, VP_ALG_AUTO));
}

/* Allgather and alltoall: one block per rank each way. */
static int every_block(int (*coll)(vp_comm *, const void *, void *, size_t,
				   vp_type, vp_alg),
		       const void *sendbuf, int sendcount,
		       MPI_Datatype sendtype, void *recvbuf, int recvcount,
		       MPI_Datatype recvtype, MPI_Comm comm, const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);
	long n;

	if (!c)
		return MPI_ERR_COMM;
	n = block_bytes(sendbuf, sendcount, sendtype, 1, recvcount, recvtype,
			call);
	if (n < 0)
		return MPI_ERR_TYPE;
	return vpmpi_ret(
	    coll(c, sendbuf, recvbuf, (size_t)n, VP_BYTE, VP_ALG_AUTO));
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm)
{
	return every_block(vp_allgather, sendbuf, sendcount, sendtype, recvbuf,
			   recvcount, recvtype, comm, "MPI_Allgather");
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm)
{
	return every_block(vp_alltoall, sendbuf, sendcount, sendtype, recvbuf,
			   recvcount, recvtype, comm, "MPI_Alltoall");
}
