/*
 * mpi_persistent_coll.c - persistent collectives (MPI 4.0, sec. 6.13 and
 * 8.8): MPI_Barrier_init, MPI_Bcast_init, the neighbourhood ones
 * (MPI_Neighbor_allgather_init ...) and the other *_init calls keep their
 * arguments in an inactive persistent request; each MPI_Start (or
 * MPI_Startall) starts the matching nonblocking collective (mpi_icoll.c,
 * mpi_ivcoll.c, mpi_neighbor.c) with them and the persistent request
 * adopts its messages, so a start costs what the nonblocking call costs
 * and completes by any wait or test. Completion leaves the request
 * inactive, its handle valid, until MPI_Request_free. The buffers, count
 * arrays and datatypes are read again at every start (MPI says they stay
 * unchanged while the request lives); the info argument takes no hint.
 * Each request runs on a duplicate of the communicator made at its *_init
 * (which is collective; a neighbourhood one's has the topology, checked
 * there), so persistent collectives match in the order they were made,
 * whatever the order of their starts (MPI 4.0 sec. 6.13: the starts may
 * come in any order).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

enum pc_kind {
	PC_BARRIER,
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
	PC_ALLTOALLW,
	PC_NB_ALLGATHER, /* the neighbourhood ones (MPI 4.0 sec. 8.8) */
	PC_NB_ALLGATHERV,
	PC_NB_ALLTOALL,
	PC_NB_ALLTOALLV,
	PC_NB_ALLTOALLW
};

/* Each kind's *_init call, by kind. */
static const char *const init_name[] = {
	[PC_BARRIER] = "MPI_Barrier_init",
	[PC_BCAST] = "MPI_Bcast_init",
	[PC_REDUCE] = "MPI_Reduce_init",
	[PC_ALLREDUCE] = "MPI_Allreduce_init",
	[PC_SCAN] = "MPI_Scan_init",
	[PC_EXSCAN] = "MPI_Exscan_init",
	[PC_REDSCAT_BLOCK] = "MPI_Reduce_scatter_block_init",
	[PC_REDSCAT] = "MPI_Reduce_scatter_init",
	[PC_GATHER] = "MPI_Gather_init",
	[PC_GATHERV] = "MPI_Gatherv_init",
	[PC_SCATTER] = "MPI_Scatter_init",
	[PC_SCATTERV] = "MPI_Scatterv_init",
	[PC_ALLGATHER] = "MPI_Allgather_init",
	[PC_ALLGATHERV] = "MPI_Allgatherv_init",
	[PC_ALLTOALL] = "MPI_Alltoall_init",
	[PC_ALLTOALLV] = "MPI_Alltoallv_init",
	[PC_ALLTOALLW] = "MPI_Alltoallw_init",
	[PC_NB_ALLGATHER] = "MPI_Neighbor_allgather_init",
	[PC_NB_ALLGATHERV] = "MPI_Neighbor_allgatherv_init",
	[PC_NB_ALLTOALL] = "MPI_Neighbor_alltoall_init",
	[PC_NB_ALLTOALLV] = "MPI_Neighbor_alltoallv_init",
	[PC_NB_ALLTOALLW] = "MPI_Neighbor_alltoallw_init",
};

/* One side of a collective, what a rank sends or what it receives: a
 * buffer and one count and type, or counts and displacements (and, for
 * Alltoallw, types) a peer; Neighbor_alltoallw's displacements are bytes
 * (bdispls). A reduction's count and type are on the receive side,
 * Bcast's buffer too. */
struct pc_side {
	const void *buf;
	int count;
	const int *counts, *displs;
	const MPI_Aint *bdispls;
	MPI_Datatype type;
	const MPI_Datatype *types;
};

/* One persistent collective's arguments (the unused ones zero). */
struct vpmpi_pcoll {
	enum pc_kind kind;
	struct pc_side s, r;
	int root;
	MPI_Op op;
	MPI_Comm comm;
	void *kept; /* vpmpi_pcoll_keep's, freed with the request */
};

static struct pc_side one(const void *buf, int count, MPI_Datatype type)
{
	return (struct pc_side){ .buf = buf, .count = count, .type = type };
}

static struct pc_side many(const void *buf, const int *counts,
			   const int *displs, MPI_Datatype type)
{
	return (struct pc_side){
		.buf = buf, .counts = counts, .displs = displs, .type = type
	};
}

static struct pc_side typed(const void *buf, const int *counts,
			    const int *displs, const MPI_Datatype *types)
{
	return (struct pc_side){
		.buf = buf, .counts = counts, .displs = displs, .types = types
	};
}

/* A neighbourhood collective's communicator has a topology (checked at
 * the *_init, MPI_ERR_TOPOLOGY otherwise): 0 or the error raised. */
static int has_topology(MPI_Comm comm, vp_comm *c, const char *call)
{
	struct vpmpi_hood h;
	int rc = vpmpi_hood_of(comm, c, &h, call);

	free(h.in);
	return rc;
}

/* The inactive persistent request of kind with these arguments, in
 * *request. */
static int init(enum pc_kind kind, struct pc_side s, struct pc_side r,
		int root, MPI_Op op, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	const char *call = init_name[kind];
	struct vpmpi_request *q;
	struct vpmpi_pcoll *a;
	vp_comm *c;
	int rc;

	(void)info; /* no hint is read */
	if (!(c = vpmpi_comm(comm, call)))
		return MPI_ERR_COMM;
	if (!request)
		return vpmpi_err(comm, MPI_ERR_REQUEST, call,
				 "the request pointer is NULL");
	if (s.count < 0 || r.count < 0)
		return vpmpi_err(comm, MPI_ERR_COUNT, call,
				 "count %d is negative",
				 s.count < 0 ? s.count : r.count);
	if (kind >= PC_NB_ALLGATHER && (rc = has_topology(comm, c, call)))
		return rc;
	if (!(a = malloc(sizeof(*a))) || !(q = vpmpi_request_new())) {
		free(a);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	}
	*a = (struct vpmpi_pcoll){ kind, s, r, root, op, MPI_COMM_NULL, NULL };
	/* a message space of its own: persistent collectives match in the
	 * order they were made, whatever the order of their starts; the
	 * ranks in their order, so a topology holds on it */
	rc = MPI_Comm_split(comm, 0, vp_rank(c), &a->comm);
	if (!rc && kind >= PC_NB_ALLGATHER &&
	    ((rc = vpmpi_graph_copy(comm, a->comm)) ||
	     (rc = vpmpi_cart_copy(comm, a->comm))))
		MPI_Comm_free(&a->comm);
	if (rc) {
		free(a);
		vpmpi_request_recycle(q);
		return rc;
	}
	q->persistent = PERSIST_COLL;
	q->pcoll = a;
	q->comm = comm;
	*request = q;
	return MPI_SUCCESS;
}

/* Starts a reduction (or the barrier): MPI_SUCCESS and its request in
 * *t, or the error raised. */
static int start_reduction(const struct vpmpi_pcoll *a, MPI_Request *t)
{
	const struct pc_side *s = &a->s, *r = &a->r;
	void *rb = (void *)r->buf;

	switch (a->kind) {
	case PC_BARRIER:
		return MPI_Ibarrier(a->comm, t);
	case PC_REDUCE:
		return MPI_Ireduce(s->buf, rb, r->count, r->type, a->op,
				   a->root, a->comm, t);
	case PC_ALLREDUCE:
		return MPI_Iallreduce(s->buf, rb, r->count, r->type, a->op,
				      a->comm, t);
	case PC_SCAN:
		return MPI_Iscan(s->buf, rb, r->count, r->type, a->op, a->comm,
				 t);
	case PC_EXSCAN:
		return MPI_Iexscan(s->buf, rb, r->count, r->type, a->op,
				   a->comm, t);
	case PC_REDSCAT_BLOCK:
		return MPI_Ireduce_scatter_block(s->buf, rb, r->count, r->type,
						 a->op, a->comm, t);
	default: /* PC_REDSCAT */
		return MPI_Ireduce_scatter(s->buf, rb, r->counts, r->type,
					   a->op, a->comm, t);
	}
}

/* Starts a neighbourhood collective. */
static int start_neighbor(const struct vpmpi_pcoll *a, MPI_Request *t)
{
	const struct pc_side *s = &a->s, *r = &a->r;
	void *rb = (void *)r->buf;

	switch (a->kind) {
	case PC_NB_ALLGATHER:
		return MPI_Ineighbor_allgather(s->buf, s->count, s->type, rb,
					       r->count, r->type, a->comm, t);
	case PC_NB_ALLGATHERV:
		return MPI_Ineighbor_allgatherv(s->buf, s->count, s->type, rb,
						r->counts, r->displs, r->type,
						a->comm, t);
	case PC_NB_ALLTOALL:
		return MPI_Ineighbor_alltoall(s->buf, s->count, s->type, rb,
					      r->count, r->type, a->comm, t);
	case PC_NB_ALLTOALLV:
		return MPI_Ineighbor_alltoallv(s->buf, s->counts, s->displs,
					       s->type, rb, r->counts,
					       r->displs, r->type, a->comm, t);
	default: /* PC_NB_ALLTOALLW */
		return MPI_Ineighbor_alltoallw(s->buf, s->counts, s->bdispls,
					       s->types, rb, r->counts,
					       r->bdispls, r->types, a->comm,
					       t);
	}
}

/* Starts a's nonblocking collective: the data-movement ones here. */
static int start(const struct vpmpi_pcoll *a, MPI_Request *t)
{
	const struct pc_side *s = &a->s, *r = &a->r;
	void *rb = (void *)r->buf;

	switch (a->kind) {
	case PC_BCAST:
		return MPI_Ibcast(rb, r->count, r->type, a->root, a->comm, t);
	case PC_GATHER:
		return MPI_Igather(s->buf, s->count, s->type, rb, r->count,
				   r->type, a->root, a->comm, t);
	case PC_GATHERV:
		return MPI_Igatherv(s->buf, s->count, s->type, rb, r->counts,
				    r->displs, r->type, a->root, a->comm, t);
	case PC_SCATTER:
		return MPI_Iscatter(s->buf, s->count, s->type, rb, r->count,
				    r->type, a->root, a->comm, t);
	case PC_SCATTERV:
		return MPI_Iscatterv(s->buf, s->counts, s->displs, s->type, rb,
				     r->count, r->type, a->root, a->comm, t);
	case PC_ALLGATHER:
		return MPI_Iallgather(s->buf, s->count, s->type, rb, r->count,
				      r->type, a->comm, t);
	case PC_ALLGATHERV:
		return MPI_Iallgatherv(s->buf, s->count, s->type, rb,
				       r->counts, r->displs, r->type, a->comm,
				       t);
	case PC_ALLTOALL:
		return MPI_Ialltoall(s->buf, s->count, s->type, rb, r->count,
				     r->type, a->comm, t);
	case PC_ALLTOALLV:
		return MPI_Ialltoallv(s->buf, s->counts, s->displs, s->type,
				      rb, r->counts, r->displs, r->type,
				      a->comm, t);
	case PC_ALLTOALLW:
		return MPI_Ialltoallw(s->buf, s->counts, s->displs, s->types,
				      rb, r->counts, r->displs, r->types,
				      a->comm, t);
	default:
		return a->kind >= PC_NB_ALLGATHER ? start_neighbor(a, t)
						  : start_reduction(a, t);
	}
}

int vpmpi_pcoll_start(struct vpmpi_request *r)
{
	MPI_Request t = MPI_REQUEST_NULL;
	int rc = start(r->pcoll, &t);

	if (rc)
		return rc;
	r->nbc = t->nbc; /* adopt the collective's messages */
	r->ready = t->ready;
	r->active = 1;
	t->nbc = NULL;
	vpmpi_request_recycle(t);
	return MPI_SUCCESS;
}

void vpmpi_pcoll_keep(MPI_Request request, void *mem)
{
	request->pcoll->kept = mem;
}

void vpmpi_pcoll_free(struct vpmpi_request *r)
{
	MPI_Comm_free(&r->pcoll->comm);
	free(r->pcoll->kept);
	free(r->pcoll);
	r->pcoll = NULL;
}

/* ---- the *_init calls ---- */

static const struct pc_side none;

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init(PC_BARRIER, none, none, 0, MPI_OP_NULL, comm, info,
		    request);
}

int MPI_Bcast_init(void *buffer, int count, MPI_Datatype type, int root,
		   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init(PC_BCAST, none, one(buffer, count, type), root,
		    MPI_OP_NULL, comm, info, request);
}

int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		    MPI_Info info, MPI_Request *request)
{
	return init(PC_REDUCE, one(sendbuf, 0, type),
		    one(recvbuf, count, type), root, op, comm, info, request);
}

int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		       MPI_Info info, MPI_Request *request)
{
	return init(PC_ALLREDUCE, one(sendbuf, 0, type),
		    one(recvbuf, count, type), 0, op, comm, info, request);
}

int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		  MPI_Request *request)
{
	return init(PC_SCAN, one(sendbuf, 0, type), one(recvbuf, count, type),
		    0, op, comm, info, request);
}

int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	return init(PC_EXSCAN, one(sendbuf, 0, type),
		    one(recvbuf, count, type), 0, op, comm, info, request);
}

int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
				  int recvcount, MPI_Datatype type, MPI_Op op,
				  MPI_Comm comm, MPI_Info info,
				  MPI_Request *request)
{
	return init(PC_REDSCAT_BLOCK, one(sendbuf, 0, type),
		    one(recvbuf, recvcount, type), 0, op, comm, info, request);
}

int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf,
			    const int recvcounts[], MPI_Datatype type,
			    MPI_Op op, MPI_Comm comm, MPI_Info info,
			    MPI_Request *request)
{
	if (!recvcounts)
		return vpmpi_err(comm, MPI_ERR_ARG, init_name[PC_REDSCAT],
				 "recvcounts is NULL");
	return init(PC_REDSCAT, one(sendbuf, 0, type),
		    many(recvbuf, recvcounts, NULL, type), 0, op, comm, info,
		    request);
}

int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, int recvcount, MPI_Datatype recvtype,
		    int root, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	return init(PC_GATHER, one(sendbuf, sendcount, sendtype),
		    one(recvbuf, recvcount, recvtype), root, MPI_OP_NULL, comm,
		    info, request);
}

int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, int recvcount, MPI_Datatype recvtype,
		     int root, MPI_Comm comm, MPI_Info info,
		     MPI_Request *request)
{
	return init(PC_SCATTER, one(sendbuf, sendcount, sendtype),
		    one(recvbuf, recvcount, recvtype), root, MPI_OP_NULL, comm,
		    info, request);
}

int MPI_Allgather_init(const void *sendbuf, int sendcount,
		       MPI_Datatype sendtype, void *recvbuf, int recvcount,
		       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		       MPI_Request *request)
{
	return init(PC_ALLGATHER, one(sendbuf, sendcount, sendtype),
		    one(recvbuf, recvcount, recvtype), 0, MPI_OP_NULL, comm,
		    info, request);
}

int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, int recvcount, MPI_Datatype recvtype,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init(PC_ALLTOALL, one(sendbuf, sendcount, sendtype),
		    one(recvbuf, recvcount, recvtype), 0, MPI_OP_NULL, comm,
		    info, request);
}

int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, const int recvcounts[], const int displs[],
		     MPI_Datatype recvtype, int root, MPI_Comm comm,
		     MPI_Info info, MPI_Request *request)
{
	return init(PC_GATHERV, one(sendbuf, sendcount, sendtype),
		    many(recvbuf, recvcounts, displs, recvtype), root,
		    MPI_OP_NULL, comm, info, request);
}

int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
		      const int displs[], MPI_Datatype sendtype, void *recvbuf,
		      int recvcount, MPI_Datatype recvtype, int root,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init(PC_SCATTERV, many(sendbuf, sendcounts, displs, sendtype),
		    one(recvbuf, recvcount, recvtype), root, MPI_OP_NULL, comm,
		    info, request);
}

int MPI_Allgatherv_init(const void *sendbuf, int sendcount,
			MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int displs[],
			MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			MPI_Request *request)
{
	return init(PC_ALLGATHERV, one(sendbuf, sendcount, sendtype),
		    many(recvbuf, recvcounts, displs, recvtype), 0,
		    MPI_OP_NULL, comm, info, request);
}

int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
		       const int sdispls[], MPI_Datatype sendtype,
		       void *recvbuf, const int recvcounts[],
		       const int rdispls[], MPI_Datatype recvtype,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init(PC_ALLTOALLV, many(sendbuf, sendcounts, sdispls, sendtype),
		    many(recvbuf, recvcounts, rdispls, recvtype), 0,
		    MPI_OP_NULL, comm, info, request);
}

int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
		       const int sdispls[], const MPI_Datatype sendtypes[],
		       void *recvbuf, const int recvcounts[],
		       const int rdispls[], const MPI_Datatype recvtypes[],
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init(PC_ALLTOALLW, typed(sendbuf, sendcounts, sdispls, sendtypes),
		    typed(recvbuf, recvcounts, rdispls, recvtypes), 0,
		    MPI_OP_NULL, comm, info, request);
}

int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
				MPI_Datatype sendtype, void *recvbuf,
				int recvcount, MPI_Datatype recvtype,
				MPI_Comm comm, MPI_Info info,
				MPI_Request *request)
{
	return init(PC_NB_ALLGATHER, one(sendbuf, sendcount, sendtype),
		    one(recvbuf, recvcount, recvtype), 0, MPI_OP_NULL, comm,
		    info, request);
}

int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount,
				 MPI_Datatype sendtype, void *recvbuf,
				 const int recvcounts[], const int displs[],
				 MPI_Datatype recvtype, MPI_Comm comm,
				 MPI_Info info, MPI_Request *request)
{
	return init(PC_NB_ALLGATHERV, one(sendbuf, sendcount, sendtype),
		    many(recvbuf, recvcounts, displs, recvtype), 0,
		    MPI_OP_NULL, comm, info, request);
}

int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
			       MPI_Datatype sendtype, void *recvbuf,
			       int recvcount, MPI_Datatype recvtype,
			       MPI_Comm comm, MPI_Info info,
			       MPI_Request *request)
{
	return init(PC_NB_ALLTOALL, one(sendbuf, sendcount, sendtype),
		    one(recvbuf, recvcount, recvtype), 0, MPI_OP_NULL, comm,
		    info, request);
}

int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
				const int sdispls[], MPI_Datatype sendtype,
				void *recvbuf, const int recvcounts[],
				const int rdispls[], MPI_Datatype recvtype,
				MPI_Comm comm, MPI_Info info,
				MPI_Request *request)
{
	return init(PC_NB_ALLTOALLV,
		    many(sendbuf, sendcounts, sdispls, sendtype),
		    many(recvbuf, recvcounts, rdispls, recvtype), 0,
		    MPI_OP_NULL, comm, info, request);
}

int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
				const MPI_Aint sdispls[],
				const MPI_Datatype sendtypes[], void *recvbuf,
				const int recvcounts[],
				const MPI_Aint rdispls[],
				const MPI_Datatype recvtypes[], MPI_Comm comm,
				MPI_Info info, MPI_Request *request)
{
	struct pc_side s = typed(sendbuf, sendcounts, NULL, sendtypes);
	struct pc_side r = typed(recvbuf, recvcounts, NULL, recvtypes);

	s.bdispls = sdispls;
	r.bdispls = rdispls;
	return init(PC_NB_ALLTOALLW, s, r, 0, MPI_OP_NULL, comm, info,
		    request);
}
