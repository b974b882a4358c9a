/*
 * mpi_neighbor_vw.c - the v and w neighbourhood collectives (MPI 4.0,
 * sec. 8.6): MPI_Neighbor_allgatherv, MPI_Neighbor_alltoallv and
 * MPI_Neighbor_alltoallw. They run as MPI_Neighbor_alltoall does
 * (mpi_graph.c): the neighbours in MPI's order, each block one message
 * between a rank and its neighbour on vp's collective context, under
 * vp_coll_begin (the model charges every block as a message, ts + tw m_i;
 * the mismatch checks cover the call). Each block has its own count,
 * displacement and (w) datatype; blocks are packed at the call and
 * unpacked when every message has arrived. A neighbour MPI_PROC_NULL (past
 * a non-periodic grid's edge) moves nothing: its receive block is left as
 * it was.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

/* One side of a call: block i is counts[i] (else count) items of
 * types[i] (else type) at byte bdispls[i] of buf, else at displs[i]
 * extents of its type, else at buf itself (allgatherv's one send block,
 * sent to every destination). */
struct side {
	const char *buf;
	int count;
	const int *counts, *displs;
	const MPI_Aint *bdispls;
	MPI_Datatype type;
	const MPI_Datatype *types;
};

/* A block: its datatype and count, its place in the user's buffer (off)
 * and in the packed buffer (at, bytes). */
struct block {
	const struct vpmpi_type *t;
	int count;
	long off, at, bytes;
};

/* One call's state. */
struct nvw {
	MPI_Comm comm;
	const char *call;
	struct vpmpi_hood h;
	struct block *sb, *rb; /* h.nout, h.nin of them */
	char *sw, *rw;         /* packed sends, receives */
	vp_request *req;
	vp_status *sts;
};

/* The n blocks of side s in b, their packed bytes in *total. */
static int blocks_of(struct nvw *x, const struct side *s, int n,
		     struct block *b, long *total)
{
	int i;

	for (i = 0, *total = 0; i < n; i++) {
		MPI_Datatype type = s->types ? s->types[i] : s->type;

		b[i].count = s->counts ? s->counts[i] : s->count;
		if (b[i].count < 0)
			return vpmpi_err(x->comm, MPI_ERR_COUNT, x->call,
					 "the count of neighbour %d's block, "
					 "%d, is negative",
					 i, b[i].count);
		if (!(b[i].t = vpmpi_type(x->comm, type, x->call)))
			return MPI_ERR_TYPE;
		b[i].off = s->bdispls  ? (long)s->bdispls[i]
			   : s->displs ? (long)s->displs[i] * b[i].t->extent
				       : 0;
		b[i].bytes = (long)b[i].count * b[i].t->size;
		b[i].at = *total;
		*total += b[i].bytes;
	}
	return MPI_SUCCESS;
}

/* The neighbourhood, the blocks and the buffers; the sends packed. */
static int prepare(struct nvw *x, const struct side *s, const struct side *r)
{
	vp_comm *c = vpmpi_comm(x->comm, x->call);
	long stotal, rtotal;
	size_t n;
	int rc, j;

	if (!c)
		return MPI_ERR_COMM;
	if ((rc = vpmpi_hood_of(x->comm, c, &x->h, x->call)))
		return rc;
	n = (size_t)x->h.nin + (size_t)x->h.nout + 1;
	x->sb = malloc(n * sizeof(*x->sb));
	x->req = malloc(n * sizeof(*x->req));
	x->sts = malloc(n * sizeof(*x->sts));
	if (!x->sb || !x->req || !x->sts)
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

/* Every message posted, awaited, checked for its length and unpacked. */
static int run(struct nvw *x, char *recvbuf)
{
	vp_comm *cc = vp_coll_comm(vpmpi_comm(x->comm, x->call));
	const struct vpmpi_hood *h = &x->h;
	int i, k = 0, rc = MPI_SUCCESS;

	for (i = 0; !rc && i < h->nin; i++)
		if (h->in[i] != MPI_PROC_NULL)
			rc = vpmpi_ret(vp_irecv(cc, h->in[i], h->in_tag[i],
						x->rw + x->rb[i].at,
						(size_t)x->rb[i].bytes,
						&x->req[k++]));
	for (i = 0; !rc && i < h->nout; i++)
		if (h->out[i] != MPI_PROC_NULL)
			rc = vpmpi_ret(vp_isend(cc, h->out[i], h->out_tag[i],
						x->sw + x->sb[i].at,
						(size_t)x->sb[i].bytes,
						&x->req[k++]));
	if (rc || (rc = vpmpi_ret(vp_waitall(k, x->req, x->sts))))
		return rc;
	for (i = 0, k = 0; i < h->nin; i++) {
		const struct block *b = &x->rb[i];

		if (h->in[i] == MPI_PROC_NULL)
			continue;
		if ((long)x->sts[k++].bytes != b->bytes)
			return vpmpi_err(x->comm, MPI_ERR_TRUNCATE, x->call,
					 "neighbour %d sent %zu bytes, the "
					 "receive block holds %ld",
					 h->in[i], x->sts[k - 1].bytes,
					 b->bytes);
		vpmpi_unpack(b->t, b->count, x->rw + b->at, b->bytes,
			     recvbuf + b->off);
	}
	return MPI_SUCCESS;
}

static int exchange(MPI_Comm comm, const struct side *s, const struct side *r,
		    const char *call)
{
	vp_coll_sig sig = { call, VP_ALG_DIRECT, 0, -1, -1, -1, 0, 0, 0, NULL };
	struct nvw x = { .comm = comm, .call = call };
	int rc = prepare(&x, s, r);

	if (!rc && !(rc = vpmpi_ret(vp_coll_begin(vpmpi_comm(comm, call),
						  &sig))) &&
	    !(rc = run(&x, (char *)r->buf)))
		vp_coll_note(vpmpi_comm(comm, call), VP_COLL_ALLTOALL,
			     VP_ALG_DIRECT,
			     "MPI layer: a v or w neighbourhood collective "
			     "(one message a neighbour)");
	free(x.h.in);
	free(x.sb);
	free(x.req);
	free(x.sts);
	free(x.sw);
	free(x.rw);
	return rc;
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm)
{
	struct side s = { .buf = sendbuf, .count = sendcount,
			  .type = sendtype };
	struct side r = { .buf = recvbuf, .counts = recvcounts,
			  .displs = displs, .type = recvtype };

	if (!recvcounts || !displs)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Neighbor_allgatherv",
				 "recvcounts or displs is NULL");
	return exchange(comm, &s, &r, "MPI_Neighbor_allgatherv");
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm)
{
	struct side s = { .buf = sendbuf, .counts = sendcounts,
			  .displs = sdispls, .type = sendtype };
	struct side r = { .buf = recvbuf, .counts = recvcounts,
			  .displs = rdispls, .type = recvtype };

	if (!sendcounts || !sdispls || !recvcounts || !rdispls)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Neighbor_alltoallv",
				 "a count or displacement array is NULL");
	return exchange(comm, &s, &r, "MPI_Neighbor_alltoallv");
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
			   const MPI_Aint sdispls[],
			   const MPI_Datatype sendtypes[], void *recvbuf,
			   const int recvcounts[], const MPI_Aint rdispls[],
			   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	struct side s = { .buf = sendbuf, .counts = sendcounts,
			  .bdispls = sdispls, .types = sendtypes };
	struct side r = { .buf = recvbuf, .counts = recvcounts,
			  .bdispls = rdispls, .types = recvtypes };

	if (!sendcounts || !sdispls || !sendtypes || !recvcounts ||
	    !rdispls || !recvtypes)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Neighbor_alltoallw",
				 "a count, displacement or datatype array is "
				 "NULL");
	return exchange(comm, &s, &r, "MPI_Neighbor_alltoallw");
}
