/*
 * mpi_persistent_coll.c - persistent collectives (MPI 4.0, sec. 6.13):
 * MPI_Barrier_init, MPI_Bcast_init and the other *_init calls keep their
 * arguments in an inactive persistent request; each MPI_Start (or
 * MPI_Startall) starts the matching nonblocking collective (mpi_icoll.c,
 * mpi_ivcoll.c) with them and the persistent request adopts its
 * messages, so a start costs what the nonblocking call costs and
 * completes by any wait or test. Completion leaves the request inactive,
 * its handle valid, until MPI_Request_free. The buffers, count arrays and
 * datatypes are read again at every start (MPI says they stay unchanged
 * while the request lives); the info argument takes no hint. Each
 * request runs on a duplicate of the communicator made at its *_init
 * (which is collective), so persistent collectives match in the order
 * they were made, whatever the order of their starts (MPI 4.0 sec.
 * 6.13: the starts may come in any order).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

enum pc_kind {
	PC_BARRIER = 1,
	PC_BCAST,
	PC_REDUCE,
	PC_ALLREDUCE,
	PC_SCAN,
	PC_EXSCAN,
	PC_REDSCAT_BLOCK,
	PC_REDSCAT,
	PC_GATHER,
	PC_GATHERV,
	PC_SCATTER,
	PC_SCATTERV,
	PC_ALLGATHER,
	PC_ALLGATHERV,
	PC_ALLTOALL,
	PC_ALLTOALLV,
	PC_ALLTOALLW
};

/* One persistent collective's arguments (the unused ones zero). */
struct vpmpi_pcoll {
	enum pc_kind kind;
	const void *sbuf;
	void *rbuf;
	int scount, rcount, root;
	MPI_Datatype stype, rtype;
	const int *scounts, *sdispls, *rcounts, *rdispls;
	const MPI_Datatype *stypes, *rtypes;
	MPI_Op op;
	MPI_Comm comm;
};

/* The inactive persistent request holding a copy of a in *request. */
static int make(const struct vpmpi_pcoll *a, MPI_Info info,
		MPI_Request *request, const char *call)
{
	struct vpmpi_request *r;
	struct vpmpi_pcoll *copy;
	vp_comm *c;
	int rc;

	(void)info; /* no hint is read */
	if (!(c = vpmpi_comm(a->comm, call)))
		return MPI_ERR_COMM;
	if (!request)
		return vpmpi_err(a->comm, MPI_ERR_REQUEST, call,
				 "the request pointer is NULL");
	if (a->scount < 0 || a->rcount < 0)
		return vpmpi_err(a->comm, MPI_ERR_COUNT, call,
				 "count %d is negative",
				 a->scount < 0 ? a->scount : a->rcount);
	if (!(copy = malloc(sizeof(*copy))) || !(r = vpmpi_request_new())) {
		free(copy);
		return vpmpi_err(a->comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	}
	*copy = *a;
	/* a message space of its own: persistent collectives match in the
	 * order they were made, whatever the order of their starts */
	if ((rc = MPI_Comm_split(a->comm, 0, vp_rank(c), &copy->comm))) {
		free(copy);
		vpmpi_request_recycle(r);
		return rc;
	}
	r->persistent = PERSIST_COLL;
	r->pcoll = copy;
	r->comm = a->comm;
	*request = r;
	return MPI_SUCCESS;
}

/* Starts a's nonblocking collective: MPI_SUCCESS and its request in *t,
 * or the error raised. */
static int start_one(const struct vpmpi_pcoll *a, MPI_Request *t)
{
	switch (a->kind) {
	case PC_BARRIER:
		return MPI_Ibarrier(a->comm, t);
	case PC_BCAST:
		return MPI_Ibcast(a->rbuf, a->scount, a->stype, a->root,
				  a->comm, t);
	case PC_REDUCE:
		return MPI_Ireduce(a->sbuf, a->rbuf, a->scount, a->stype, a->op,
				   a->root, a->comm, t);
	case PC_ALLREDUCE:
		return MPI_Iallreduce(a->sbuf, a->rbuf, a->scount, a->stype,
				      a->op, a->comm, t);
	case PC_SCAN:
		return MPI_Iscan(a->sbuf, a->rbuf, a->scount, a->stype, a->op,
				 a->comm, t);
	case PC_EXSCAN:
		return MPI_Iexscan(a->sbuf, a->rbuf, a->scount, a->stype, a->op,
				   a->comm, t);
	case PC_REDSCAT_BLOCK:
		return MPI_Ireduce_scatter_block(a->sbuf, a->rbuf, a->rcount,
						 a->stype, a->op, a->comm, t);
	case PC_REDSCAT:
		return MPI_Ireduce_scatter(a->sbuf, a->rbuf, a->rcounts,
					   a->stype, a->op, a->comm, t);
	default:
		break;
	}
	return -1;
}

/* The data-movement ones (start_one's others). */
static int start_move(const struct vpmpi_pcoll *a, MPI_Request *t)
{
	switch (a->kind) {
	case PC_GATHER:
		return MPI_Igather(a->sbuf, a->scount, a->stype, a->rbuf,
				   a->rcount, a->rtype, a->root, a->comm, t);
	case PC_GATHERV:
		return MPI_Igatherv(a->sbuf, a->scount, a->stype, a->rbuf,
				    a->rcounts, a->rdispls, a->rtype, a->root,
				    a->comm, t);
	case PC_SCATTER:
		return MPI_Iscatter(a->sbuf, a->scount, a->stype, a->rbuf,
				    a->rcount, a->rtype, a->root, a->comm, t);
	case PC_SCATTERV:
		return MPI_Iscatterv(a->sbuf, a->scounts, a->sdispls, a->stype,
				     a->rbuf, a->rcount, a->rtype, a->root,
				     a->comm, t);
	case PC_ALLGATHER:
		return MPI_Iallgather(a->sbuf, a->scount, a->stype, a->rbuf,
				      a->rcount, a->rtype, a->comm, t);
	case PC_ALLGATHERV:
		return MPI_Iallgatherv(a->sbuf, a->scount, a->stype, a->rbuf,
				       a->rcounts, a->rdispls, a->rtype,
				       a->comm, t);
	case PC_ALLTOALL:
		return MPI_Ialltoall(a->sbuf, a->scount, a->stype, a->rbuf,
				     a->rcount, a->rtype, a->comm, t);
	case PC_ALLTOALLV:
		return MPI_Ialltoallv(a->sbuf, a->scounts, a->sdispls, a->stype,
				      a->rbuf, a->rcounts, a->rdispls, a->rtype,
				      a->comm, t);
	case PC_ALLTOALLW:
		return MPI_Ialltoallw(a->sbuf, a->scounts, a->sdispls,
				      a->stypes, a->rbuf, a->rcounts,
				      a->rdispls, a->rtypes, a->comm, t);
	default:
		break;
	}
	return start_one(a, t);
}

int vpmpi_pcoll_start(struct vpmpi_request *r)
{
	MPI_Request t = MPI_REQUEST_NULL;
	int rc = start_move(r->pcoll, &t);

	if (rc)
		return rc;
	r->nbc = t->nbc; /* adopt the collective's messages */
	r->ready = t->ready;
	r->active = 1;
	t->nbc = NULL;
	vpmpi_request_recycle(t);
	return MPI_SUCCESS;
}

void vpmpi_pcoll_free(struct vpmpi_request *r)
{
	MPI_Comm_free(&r->pcoll->comm);
	free(r->pcoll);
	r->pcoll = NULL;
}

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_BARRIER, .comm = comm };

	return make(&a, info, request, "MPI_Barrier_init");
}

int MPI_Bcast_init(void *buffer, int count, MPI_Datatype type, int root,
		   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_BCAST,
				 .rbuf = buffer,
				 .scount = count,
				 .stype = type,
				 .root = root,
				 .comm = comm };

	return make(&a, info, request, "MPI_Bcast_init");
}

/* The reductions with one count and one type. */
static int reduction(enum pc_kind kind, const void *sendbuf, void *recvbuf,
		     int count, MPI_Datatype type, MPI_Op op, int root,
		     MPI_Comm comm, MPI_Info info, MPI_Request *request,
		     const char *call)
{
	struct vpmpi_pcoll a = { .kind = kind,
				 .sbuf = sendbuf,
				 .rbuf = recvbuf,
				 .scount = count,
				 .stype = type,
				 .op = op,
				 .root = root,
				 .comm = comm };

	if (kind == PC_REDSCAT_BLOCK) {
		a.scount = 0;
		a.rcount = count;
	}
	return make(&a, info, request, call);
}

int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		    MPI_Info info, MPI_Request *request)
{
	return reduction(PC_REDUCE, sendbuf, recvbuf, count, type, op, root,
			 comm, info, request, "MPI_Reduce_init");
}

int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		       MPI_Info info, MPI_Request *request)
{
	return reduction(PC_ALLREDUCE, sendbuf, recvbuf, count, type, op, 0,
			 comm, info, request, "MPI_Allreduce_init");
}

int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		  MPI_Request *request)
{
	return reduction(PC_SCAN, sendbuf, recvbuf, count, type, op, 0, comm,
			 info, request, "MPI_Scan_init");
}

int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	return reduction(PC_EXSCAN, sendbuf, recvbuf, count, type, op, 0, comm,
			 info, request, "MPI_Exscan_init");
}

int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
				  int recvcount, MPI_Datatype type, MPI_Op op,
				  MPI_Comm comm, MPI_Info info,
				  MPI_Request *request)
{
	return reduction(PC_REDSCAT_BLOCK, sendbuf, recvbuf, recvcount, type,
			 op, 0, comm, info, request,
			 "MPI_Reduce_scatter_block_init");
}

int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf,
			    const int recvcounts[], MPI_Datatype type,
			    MPI_Op op, MPI_Comm comm, MPI_Info info,
			    MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_REDSCAT,
				 .sbuf = sendbuf,
				 .rbuf = recvbuf,
				 .rcounts = recvcounts,
				 .stype = type,
				 .op = op,
				 .comm = comm };

	if (!recvcounts)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Reduce_scatter_init",
				 "recvcounts is NULL");
	return make(&a, info, request, "MPI_Reduce_scatter_init");
}

/* Gather, scatter, allgather, alltoall: a block each way. */
static int blocks(enum pc_kind kind, const void *sendbuf, int sendcount,
		  MPI_Datatype sendtype, void *recvbuf, int recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		  MPI_Request *request, const char *call)
{
	struct vpmpi_pcoll a = { .kind = kind,
				 .sbuf = sendbuf,
				 .scount = sendcount,
				 .stype = sendtype,
				 .rbuf = recvbuf,
				 .rcount = recvcount,
				 .rtype = recvtype,
				 .root = root,
				 .comm = comm };

	return make(&a, info, request, call);
}

int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, int recvcount, MPI_Datatype recvtype,
		    int root, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	return blocks(PC_GATHER, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, root, comm, info, request,
		      "MPI_Gather_init");
}

int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, int recvcount, MPI_Datatype recvtype,
		     int root, MPI_Comm comm, MPI_Info info,
		     MPI_Request *request)
{
	return blocks(PC_SCATTER, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, root, comm, info, request,
		      "MPI_Scatter_init");
}

int MPI_Allgather_init(const void *sendbuf, int sendcount,
		       MPI_Datatype sendtype, void *recvbuf, int recvcount,
		       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		       MPI_Request *request)
{
	return blocks(PC_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, 0, comm, info, request,
		      "MPI_Allgather_init");
}

int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, int recvcount, MPI_Datatype recvtype,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return blocks(PC_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, 0, comm, info, request,
		      "MPI_Alltoall_init");
}

int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, const int recvcounts[], const int displs[],
		     MPI_Datatype recvtype, int root, MPI_Comm comm,
		     MPI_Info info, MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_GATHERV,
				 .sbuf = sendbuf,
				 .scount = sendcount,
				 .stype = sendtype,
				 .rbuf = recvbuf,
				 .rcounts = recvcounts,
				 .rdispls = displs,
				 .rtype = recvtype,
				 .root = root,
				 .comm = comm };

	return make(&a, info, request, "MPI_Gatherv_init");
}

int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
		      const int displs[], MPI_Datatype sendtype, void *recvbuf,
		      int recvcount, MPI_Datatype recvtype, int root,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_SCATTERV,
				 .sbuf = sendbuf,
				 .scounts = sendcounts,
				 .sdispls = displs,
				 .stype = sendtype,
				 .rbuf = recvbuf,
				 .rcount = recvcount,
				 .rtype = recvtype,
				 .root = root,
				 .comm = comm };

	return make(&a, info, request, "MPI_Scatterv_init");
}

int MPI_Allgatherv_init(const void *sendbuf, int sendcount,
			MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int displs[],
			MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_ALLGATHERV,
				 .sbuf = sendbuf,
				 .scount = sendcount,
				 .stype = sendtype,
				 .rbuf = recvbuf,
				 .rcounts = recvcounts,
				 .rdispls = displs,
				 .rtype = recvtype,
				 .comm = comm };

	return make(&a, info, request, "MPI_Allgatherv_init");
}

int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
		       const int sdispls[], MPI_Datatype sendtype,
		       void *recvbuf, const int recvcounts[],
		       const int rdispls[], MPI_Datatype recvtype,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_ALLTOALLV,
				 .sbuf = sendbuf,
				 .scounts = sendcounts,
				 .sdispls = sdispls,
				 .stype = sendtype,
				 .rbuf = recvbuf,
				 .rcounts = recvcounts,
				 .rdispls = rdispls,
				 .rtype = recvtype,
				 .comm = comm };

	return make(&a, info, request, "MPI_Alltoallv_init");
}

int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
		       const int sdispls[], const MPI_Datatype sendtypes[],
		       void *recvbuf, const int recvcounts[],
		       const int rdispls[], const MPI_Datatype recvtypes[],
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	struct vpmpi_pcoll a = { .kind = PC_ALLTOALLW,
				 .sbuf = sendbuf,
				 .scounts = sendcounts,
				 .sdispls = sdispls,
				 .stypes = sendtypes,
				 .rbuf = recvbuf,
				 .rcounts = recvcounts,
				 .rdispls = rdispls,
				 .rtypes = recvtypes,
				 .comm = comm };

	return make(&a, info, request, "MPI_Alltoallw_init");
}
