/*
 * mpi_neighbor.c - the neighbourhood collectives (MPI 4.0, sec. 8.6 and
 * 8.7): MPI_Neighbor_allgather, MPI_Neighbor_allgatherv,
 * MPI_Neighbor_alltoall, MPI_Neighbor_alltoallv, MPI_Neighbor_alltoallw
 * and their nonblocking forms MPI_Ineighbor_*; the persistent ones (sec.
 * 8.8, MPI_Neighbor_*_init) start the nonblocking ones
 * (mpi_persistent_coll.c).
 *
 * One engine runs all ten. The neighbours are taken in MPI's order
 * (vpmpi_hood_of, mpi_graph.c) and each block is one message between a
 * rank and its neighbour, which the model charges as any message (ts +
 * tw m_i). Each block has its count, place and datatype: one for every
 * block (allgather, alltoall: block i at i counts of extents), or one a
 * neighbour (the v-forms: displacements in extents; the w-form: in bytes,
 * with a datatype each). The blocks are packed at the call, so the send
 * buffer is free when the call returns, and every receive and send is
 * posted at the call; the received blocks are checked for their length
 * (a mismatch fails naming the neighbour and both sizes) and unpacked once
 * every message has arrived:
 *   blocking      at once, on vp's collective context under vp_coll_begin
 *                 (the sequence checks cover the call);
 *   nonblocking   at the Wait or Test (or any of their kin, mixed with
 *                 other requests), on the communicator's third message
 *                 space as the other nonblocking collectives (mpi_icoll.c):
 *                 no rank waits for another at the call, so a program that
 *                 posts several and waits later, or talks to a neighbour
 *                 between the call and its wait, completes, and successive
 *                 calls match in call order. The receive datatypes are held
 *                 until the wait (MPI 4.0 sec. 6.12).
 * A neighbour MPI_PROC_NULL (past a non-periodic grid's edge) moves
 * nothing: its receive block is left as it was. MPI_IN_PLACE is no buffer
 * of a neighbourhood collective (MPI 4.0 sec. 8.6): refused.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

/* One side of a call: block i is counts[i] (else count) items of
 * types[i] (else type) at byte bdispls[i] of buf, else at displs[i]
 * extents of its type, else (each) at i * count extents, else at buf
 * itself (allgather's one send block, sent to every destination). */
struct side {
	const char *buf;
	int count, each;
	char form; /* 0: one count and type; 'v', 'w': arrays, not NULL */
	const int *counts, *displs;
	const MPI_Aint *bdispls;
	MPI_Datatype type;
	const MPI_Datatype *types;
	const char *name; /* "send", "recv" */
};

/* A block: its datatype and count, its place in the user's buffer (off)
 * and in the packed buffer (at, bytes). */
struct block {
	const struct vpmpi_type *t;
	int count;
	long off, at, bytes;
};

/* One call's state, freed by nvw_free. */
struct nvw {
	MPI_Comm comm;
	const char *call;
	char *recvbuf;
	struct vpmpi_hood h;
	struct block *sb, *rb; /* h.nout, h.nin of them (rb's types held) */
	char *sw, *rw;         /* packed sends, receives */
};

static void nvw_free(void *ctx)
{
	struct nvw *x = ctx;
	int i;

	for (i = 0; x->rb && i < x->h.nin; i++)
		vpmpi_type_release((struct vpmpi_type *)x->rb[i].t);
	free(x->h.in);
	free(x->sb);
	free(x->sw);
	free(x->rw);
	free(x);
}

/* The n blocks of side s in b, their packed bytes in *total; a receive
 * side's types held. */
static int blocks_of(struct nvw *x, const struct side *s, int n,
		     struct block *b, long *total)
{
	int i;

	if (n > 0 && s->form &&
	    (!s->counts || (!s->displs && !s->bdispls) ||
	     (s->form == 'w' && !s->types)))
		return vpmpi_err(x->comm, MPI_ERR_ARG, x->call,
				 "the %s side's %s array is NULL", s->name,
				 !s->counts                  ? "counts"
				 : !s->displs && !s->bdispls ? "displacements"
							     : "datatypes");
	for (i = 0, *total = 0; i < n; i++) {
		MPI_Datatype type = s->types ? s->types[i] : s->type;
		const struct vpmpi_type *t;

		b[i].count = s->counts ? s->counts[i] : s->count;
		if (b[i].count < 0)
			return s->counts
				   ? vpmpi_err(x->comm, MPI_ERR_COUNT, x->call,
					       "%scounts[%d] is %d, "
					       "negative",
					       s->name, i, b[i].count)
				   : vpmpi_err(x->comm, MPI_ERR_COUNT, x->call,
					       "%scount %d is negative",
					       s->name, b[i].count);
		if (!(t = vpmpi_type(x->comm, type, x->call)))
			return MPI_ERR_TYPE;
		if (b == x->rb)
			vpmpi_type_hold((struct vpmpi_type *)t);
		b[i].t = t;
		b[i].off = s->bdispls  ? (long)s->bdispls[i]
			   : s->displs ? (long)s->displs[i] * t->extent
			   : s->each   ? (long)i * b[i].count * t->extent
				       : 0;
		b[i].bytes = (long)b[i].count * t->size;
		b[i].at = *total;
		*total += b[i].bytes;
	}
	return MPI_SUCCESS;
}

/* The neighbourhood, the blocks and the buffers; the sends packed. */
static int prepare(struct nvw *x, vp_comm *c, const struct side *s,
		   const struct side *r)
{
	long stotal, rtotal;
	size_t n;
	int rc, j;

	if (s->buf == MPI_IN_PLACE || r->buf == MPI_IN_PLACE)
		return vpmpi_err(x->comm, MPI_ERR_BUFFER, x->call,
				 "%s is MPI_IN_PLACE, which no neighbourhood "
				 "collective takes",
				 s->buf == MPI_IN_PLACE ? "sendbuf"
							: "recvbuf");
	if ((rc = vpmpi_hood_of(x->comm, c, &x->h, x->call)))
		return rc;
	n = (size_t)x->h.nin + (size_t)x->h.nout + 1;
	if (!(x->sb = calloc(n, sizeof(*x->sb))))
		return vpmpi_err(x->comm, MPI_ERR_NO_MEM, x->call, "no memory");
	x->rb = x->sb + x->h.nout;
	if ((rc = blocks_of(x, s, x->h.nout, x->sb, &stotal)) ||
	    (rc = blocks_of(x, r, x->h.nin, x->rb, &rtotal)))
		return rc;
	x->sw = malloc((size_t)stotal + 1);
	x->rw = malloc((size_t)rtotal + 1);
	if (!x->sw || !x->rw)
		return vpmpi_err(x->comm, MPI_ERR_NO_MEM, x->call,
				 "no memory for %ld bytes", stotal + rtotal);
	for (j = 0; j < x->h.nout; j++)
		vpmpi_pack(x->sb[j].t, x->sb[j].count, s->buf + x->sb[j].off,
			   x->sw + x->sb[j].at);
	return MPI_SUCCESS;
}

/* Every message posted on cc: a receive from each source (its slot i),
 * then a send to each destination. 0 or vp's error. */
static int post(struct vpmpi_nbc *b, vp_comm *cc, const struct nvw *x)
{
	const struct vpmpi_hood *h = &x->h;
	int i, rc = 0;

	for (i = 0; !rc && i < h->nin; i++)
		if (h->in[i] != MPI_PROC_NULL)
			rc = vpmpi_nbc_post_tag(b, cc, h->in[i], h->in_tag[i],
						i, NULL, x->rw + x->rb[i].at,
						(size_t)x->rb[i].bytes);
	for (i = 0; !rc && i < h->nout; i++)
		if (h->out[i] != MPI_PROC_NULL)
			rc = vpmpi_nbc_post_tag(b, cc, h->out[i], h->out_tag[i],
						-1, x->sw + x->sb[i].at, NULL,
						(size_t)x->sb[i].bytes);
	return rc;
}

/* Every message has arrived: each block checked for its length and
 * unpacked (vpmpi_nbc_done_fn). */
static int nvw_done(void *ctx, const vp_status *st, const int *slot, int n)
{
	struct nvw *x = ctx;
	int k;

	for (k = 0; k < n; k++) {
		const struct block *b;

		if (slot[k] < 0)
			continue; /* a send */
		b = &x->rb[slot[k]];
		if ((long)st[k].bytes != b->bytes)
			return vpmpi_err(x->comm, MPI_ERR_TRUNCATE, x->call,
					 "neighbour %d sent %zu bytes, the "
					 "receive block holds %ld",
					 x->h.in[slot[k]], st[k].bytes,
					 b->bytes);
		vpmpi_unpack(b->t, b->count, x->rw + b->at, b->bytes,
			     x->recvbuf + b->off);
	}
	return MPI_SUCCESS;
}

/* The blocking form: the messages on the collective context, awaited. */
static int run_now(struct vpmpi_nbc *b, const struct nvw *x, vp_comm *c,
		   int gather)
{
	vp_coll_sig sig = {
		x->call, VP_ALG_DIRECT, 0, -1, -1, -1, 0, 0, 0, NULL
	};
	vp_request *req;
	int n, rc;

	if ((rc = vpmpi_ret(vp_coll_begin(c, &sig))) ||
	    (rc = vpmpi_ret(post(b, vp_coll_comm(c), x))) ||
	    (n = vpmpi_nbc_requests(b, &req),
	     rc = vpmpi_ret(vp_waitall(n, req, vpmpi_nbc_statuses(b))))) {
		vpmpi_nbc_drop(b);
		return rc;
	}
	if (!(rc = vpmpi_nbc_finish(b)))
		vp_coll_note(c, gather ? VP_COLL_ALLGATHER : VP_COLL_ALLTOALL,
			     VP_ALG_DIRECT,
			     "MPI layer: a neighbourhood collective (one "
			     "message a neighbour)");
	return rc;
}

/* Runs call: blocking, or (nb) nonblocking with its request in *request;
 * gather: the same send block to every destination. */
static int neighbor(MPI_Comm comm, const struct side *s, const struct side *r,
		    int gather, int nb, MPI_Request *request, const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);
	struct vpmpi_nbc *b;
	struct nvw *x;
	int rc, p;

	if (!c)
		return MPI_ERR_COMM;
	if (nb && !request)
		return vpmpi_err(comm, MPI_ERR_REQUEST, call,
				 "the request pointer is NULL");
	if (!(x = calloc(1, sizeof(*x))))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory");
	*x = (struct nvw){ .comm = comm,
			   .call = call,
			   .recvbuf = (char *)r->buf };
	if ((rc = prepare(x, c, s, r))) {
		nvw_free(x);
		return rc;
	}
	p = x->h.nin > x->h.nout ? x->h.nin : x->h.nout;
	if (!(b = vpmpi_nbc_hooked(p, comm, call, nvw_done, nvw_free, x)))
		return MPI_ERR_NO_MEM;
	if (!nb)
		return run_now(b, x, c, gather);
	return vpmpi_nbc_start(b, request, post(b, vp_aux_comm(c), x));
}

/* ---- the calls ---- */

/* A side of one count and type; each: block i at i * count extents. */
static struct side one(const void *buf, int count, MPI_Datatype type, int each,
		       const char *name)
{
	return (struct side){ .buf = buf,
			      .count = count,
			      .each = each,
			      .type = type,
			      .name = name };
}

static struct side vee(const void *buf, const int *counts, const int *displs,
		       MPI_Datatype type, const char *name)
{
	return (struct side){ .buf = buf,
			      .form = 'v',
			      .counts = counts,
			      .displs = displs,
			      .type = type,
			      .name = name };
}

static struct side dbl(const void *buf, const int *counts,
		       const MPI_Aint *bdispls, const MPI_Datatype *types,
		       const char *name)
{
	return (struct side){ .buf = buf,
			      .form = 'w',
			      .counts = counts,
			      .bdispls = bdispls,
			      .types = types,
			      .name = name };
}

/* Each kind for both forms (nb: nonblocking, its request in *q). */
static int allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
		     MPI_Datatype rt, MPI_Comm comm, int nb, MPI_Request *q,
		     const char *call)
{
	struct side s = one(sb, sc, st, 0, "send");
	struct side r = one(rb, rc, rt, 1, "recv");

	return neighbor(comm, &s, &r, 1, nb, q, call);
}

static int alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
		    MPI_Datatype rt, MPI_Comm comm, int nb, MPI_Request *q,
		    const char *call)
{
	struct side s = one(sb, sc, st, 1, "send");
	struct side r = one(rb, rc, rt, 1, "recv");

	return neighbor(comm, &s, &r, 0, nb, q, call);
}

static int allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
		      const int *rcs, const int *rds, MPI_Datatype rt,
		      MPI_Comm comm, int nb, MPI_Request *q, const char *call)
{
	struct side s = one(sb, sc, st, 0, "send");
	struct side r = vee(rb, rcs, rds, rt, "recv");

	return neighbor(comm, &s, &r, 1, nb, q, call);
}

static int alltoallv(const void *sb, const int *scs, const int *sds,
		     MPI_Datatype st, void *rb, const int *rcs, const int *rds,
		     MPI_Datatype rt, MPI_Comm comm, int nb, MPI_Request *q,
		     const char *call)
{
	struct side s = vee(sb, scs, sds, st, "send");
	struct side r = vee(rb, rcs, rds, rt, "recv");

	return neighbor(comm, &s, &r, 0, nb, q, call);
}

static int alltoallw(const void *sb, const int *scs, const MPI_Aint *sds,
		     const MPI_Datatype *sts, void *rb, const int *rcs,
		     const MPI_Aint *rds, const MPI_Datatype *rts,
		     MPI_Comm comm, int nb, MPI_Request *q, const char *call)
{
	struct side s = dbl(sb, scs, sds, sts, "send");
	struct side r = dbl(rb, rcs, rds, rts, "recv");

	return neighbor(comm, &s, &r, 0, nb, q, call);
}

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm)
{
	return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			 recvtype, comm, 0, NULL, "MPI_Neighbor_allgather");
}

int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf, int recvcount,
			    MPI_Datatype recvtype, MPI_Comm comm,
			    MPI_Request *request)
{
	return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			 recvtype, comm, 1, request, "MPI_Ineighbor_allgather");
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm)
{
	return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, comm, 0, NULL, "MPI_Neighbor_alltoall");
}

int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm,
			   MPI_Request *request)
{
	return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			recvtype, comm, 1, request, "MPI_Ineighbor_alltoall");
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm)
{
	return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
			  displs, recvtype, comm, 0, NULL,
			  "MPI_Neighbor_allgatherv");
}

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     const int recvcounts[], const int displs[],
			     MPI_Datatype recvtype, MPI_Comm comm,
			     MPI_Request *request)
{
	return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
			  displs, recvtype, comm, 1, request,
			  "MPI_Ineighbor_allgatherv");
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm)
{
	return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
			 recvcounts, rdispls, recvtype, comm, 0, NULL,
			 "MPI_Neighbor_alltoallv");
}

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			    const int sdispls[], MPI_Datatype sendtype,
			    void *recvbuf, const int recvcounts[],
			    const int rdispls[], MPI_Datatype recvtype,
			    MPI_Comm comm, MPI_Request *request)
{
	return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
			 recvcounts, rdispls, recvtype, comm, 1, request,
			 "MPI_Ineighbor_alltoallv");
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
			   const MPI_Aint sdispls[],
			   const MPI_Datatype sendtypes[], void *recvbuf,
			   const int recvcounts[], const MPI_Aint rdispls[],
			   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
			 recvcounts, rdispls, recvtypes, comm, 0, NULL,
			 "MPI_Neighbor_alltoallw");
}

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
			    const MPI_Aint sdispls[],
			    const MPI_Datatype sendtypes[], void *recvbuf,
			    const int recvcounts[], const MPI_Aint rdispls[],
			    const MPI_Datatype recvtypes[], MPI_Comm comm,
			    MPI_Request *request)
{
	return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
			 recvcounts, rdispls, recvtypes, comm, 1, request,
			 "MPI_Ineighbor_alltoallw");
}
