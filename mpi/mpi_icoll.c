/*
 * mpi_icoll.c - nonblocking collectives (MPI 3.1, sec. 5.12): MPI_Ibarrier,
 * MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce, MPI_Iscan, MPI_Iexscan,
 * MPI_Ireduce_scatter_block, MPI_Igather, MPI_Iscatter, MPI_Iallgather,
 * MPI_Ialltoall.
 *
 * Each one uses the direct algorithm: at the call, every message it will
 * ever send is posted (vp_isend) and every message it will ever receive
 * has its receive posted (vp_irecv), each rank sending to r + 1, r + 2, ...
 * in turn; the wait then only completes them and does the local work
 * (unpacking, and for the reductions combining the contributions in rank
 * order, x_0 op (x_1 op (... op x_{p-1})), the same on every rank; a scan
 * takes those of ranks 0..r, an exclusive scan 0..r-1). No
 * rank forwards anything for another, so a call needs no progress between
 * it and its wait: a program whose ranks are blocked elsewhere meanwhile
 * (in a receive, in another collective) still completes, as MPI promises,
 * and vp never reports a deadlock that MPI would not have.
 *
 * Cost (the model charges every message): a rank that sends to all others
 * pays (p - 1)(ts + tw m), as the book's all-to-all broadcast on a fully
 * connected network (Grama et al., sec. 4.2); a barrier is p - 1 empty
 * messages a rank. The messages travel in the communicator's third message
 * space (vp_aux_comm), so they never match the program's own messages or
 * vp's blocking collectives; successive nonblocking collectives on one
 * communicator match in call order (MPI requires every rank to call them
 * in the same order), one message per ordered pair each.
 *
 * Not checked: that every rank passed the same root and counts (vp's
 * collective envelope covers the blocking calls only); a block of the
 * wrong size fails the wait naming both sizes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

enum nbc_kind {
	NBC_BARRIER,
	NBC_BCAST,
	NBC_REDUCE,
	NBC_ALLREDUCE,
	NBC_SCAN,
	NBC_EXSCAN,
	NBC_REDUCE_SCATTER,
	NBC_GATHER,
	NBC_SCATTER,
	NBC_ALLGATHER,
	NBC_ALLTOALL,
	NBC_HOOKED /* built by another file, finished by its callback */
};

struct vpmpi_nbc {
	enum nbc_kind kind;
	int n;             /* vp requests posted */
	vp_request *req;   /* n of them */
	vp_status *st;     /* their statuses, for the sizes */
	int *from;         /* the block each request receives, -1: a send */
	char *sbuf, *rbuf; /* packed bytes this call owns */
	long block;        /* bytes of one packed block */
	int nblocks;       /* blocks at rbuf */
	/* where the result goes: count items of type at user, block i at
	 * user + i * count * extent (the gathers), or one result (the rest) */
	void *user;
	int count, has_result;
	MPI_Datatype type;
	MPI_Op op;
	/* held until the wait, freed by the program or not (MPI 4.0 sec.
	 * 6.12: a pending call keeps its datatype and op) */
	struct vpmpi_type *held;
	int op_held;
	MPI_Comm comm;
	const char *call;
	/* NBC_HOOKED: the wait's work and the context's release */
	vpmpi_nbc_done_fn done;
	void (*drop)(void *ctx);
	void *ctx;
};

static void nbc_free(struct vpmpi_nbc *b)
{
	if (!b)
		return;
	if (b->drop)
		b->drop(b->ctx);
	vpmpi_type_release(b->held);
	if (b->op_held)
		vpmpi_op_release(b->op);
	free(b->req);
	free(b->sbuf);
	free(b->rbuf);
	free(b);
}

/* A new call's record with room for up to 2p requests. */
static struct vpmpi_nbc *nbc_new(enum nbc_kind kind, int p, MPI_Comm comm,
				 const char *call)
{
	struct vpmpi_nbc *b = calloc(1, sizeof(*b));
	size_t n = 2 * (size_t)p + 1;

	if (b && !(b->req = malloc(n * (sizeof(vp_request) + sizeof(vp_status) +
					sizeof(int))))) {
		free(b);
		b = NULL;
	}
	if (!b) {
		vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory for the call");
		return NULL;
	}
	b->st = (vp_status *)(b->req + n);
	b->from = (int *)(b->st + n);
	b->kind = kind;
	b->comm = comm;
	b->call = call;
	return b;
}

static int post_recv(struct vpmpi_nbc *b, vp_comm *aux, int src, int slot)
{
	b->from[b->n] = slot;
	return vp_irecv(aux, src, 0, b->rbuf + (long)slot * b->block,
			(size_t)b->block, &b->req[b->n++]);
}

static int post_send(struct vpmpi_nbc *b, vp_comm *aux, int dst,
		     const void *bytes)
{
	b->from[b->n] = -1;
	return vp_isend(aux, dst, 0, bytes, (size_t)b->block, &b->req[b->n++]);
}

/* The request handed back: an MPI request carrying b. */
static int hand_back(struct vpmpi_nbc *b, MPI_Request *request, int rc)
{
	struct vpmpi_request *r;
	MPI_Comm comm = b->comm;
	const char *call = b->call;

	if (rc) { /* the run has failed: the rank goes no further */
		nbc_free(b);
		return vpmpi_ret(rc);
	}
	if (!(r = vpmpi_request_new())) {
		nbc_free(b);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	}
	r->nbc = b;
	*request = r;
	return MPI_SUCCESS;
}

/* The arguments every call checks: the communicator and the request
 * pointer; the aux communicator in *aux. */
static vp_comm *begin(MPI_Comm comm, MPI_Request *request, vp_comm **aux,
		      const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);

	if (!c)
		return NULL;
	if (!request) {
		vpmpi_err(comm, MPI_ERR_REQUEST, call,
			  "the request pointer is NULL");
		return NULL;
	}
	*aux = vp_aux_comm(c);
	return c;
}

static int check_root(MPI_Comm comm, vp_comm *c, int root, const char *call)
{
	if (root < 0 || root >= vp_size(c))
		return vpmpi_err(comm, MPI_ERR_ROOT, call,
				 "root %d is outside [0, %d)", root,
				 vp_size(c));
	return MPI_SUCCESS;
}

/* count items of type at buf packed into a new buffer (*out) of
 * *bytes; MPI_SUCCESS or the error raised. */
static int pack_new(MPI_Comm comm, const void *buf, int count,
		    MPI_Datatype type, char **out, long *bytes,
		    const char *call)
{
	const struct vpmpi_type *t = vpmpi_type(comm, type, call);

	if (!t)
		return MPI_ERR_TYPE;
	if (count < 0)
		return vpmpi_err(comm, MPI_ERR_COUNT, call,
				 "count %d is negative", count);
	*bytes = (long)count * t->size;
	if (*bytes && !buf)
		return vpmpi_err(comm, MPI_ERR_BUFFER, call,
				 "buffer is NULL for %d items", count);
	if (!(*out = malloc(*bytes ? (size_t)*bytes : 1)))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory to pack %ld bytes", *bytes);
	if (*bytes)
		vpmpi_pack(t, count, buf, *out);
	return MPI_SUCCESS;
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(vpmpi_ic_barrier(comm), request);
	static const char call[] = "MPI_Ibarrier";
	vp_comm *aux, *c = begin(comm, request, &aux, call);
	struct vpmpi_nbc *b;
	int p, r, k, rc = 0;

	if (!c)
		return MPI_ERR_COMM;
	p = vp_size(c);
	r = vp_rank(c);
	if (!(b = nbc_new(NBC_BARRIER, p, comm, call)))
		return MPI_ERR_NO_MEM;
	b->rbuf = malloc(1);
	for (k = 1; !rc && k < p; k++)
		rc = post_recv(b, aux, (r - k + p) % p, 0);
	for (k = 1; !rc && k < p; k++)
		rc = post_send(b, aux, (r + k) % p, "");
	return hand_back(b, request, rc);
}

/* 1 if rank `from` sends its block to rank `to` in b's call (the
 * receiver's side is the same question asked the other way). */
static int sends_to(const struct vpmpi_nbc *b, int from, int to, int root)
{
	switch (b->kind) {
	case NBC_BCAST:
	case NBC_SCATTER:
		return from == root;
	case NBC_GATHER:
	case NBC_REDUCE:
		return to == root;
	case NBC_SCAN:
	case NBC_EXSCAN: /* to every rank after it */
		return to > from;
	default:
		return 1;
	}
}

/*
 * The messages of a call: a receive from every rank that sends to this one
 * (its block into slot `source`), then a send to every rank this one sends
 * to (block dst of sbuf when per_destination, else its one block), and
 * this rank's own block put in its slot where its result needs it.
 */
static int exchange(struct vpmpi_nbc *b, vp_comm *c, vp_comm *aux, int root,
		    int per_destination)
{
	int p = vp_size(c), r = vp_rank(c), k, rc = 0;
	int keep_own = b->kind == NBC_SCAN ||
		       (b->kind != NBC_EXSCAN && sends_to(b, r, r, root));

	for (k = 1; !rc && k < p; k++) { /* receives first: one copy */
		int src = (r - k + p) % p;

		if (sends_to(b, src, r, root))
			rc = post_recv(b, aux, src, src);
	}
	for (k = 1; !rc && k < p; k++) {
		int dst = (r + k) % p;

		if (sends_to(b, r, dst, root))
			rc = post_send(b, aux, dst,
				       b->sbuf + (per_destination
						      ? (long)dst * b->block
						      : 0));
	}
	if (!rc && keep_own && b->block)
		memcpy(b->rbuf + (long)r * b->block,
		       b->sbuf + (per_destination ? (long)r * b->block : 0),
		       (size_t)b->block);
	return rc;
}

/* A block call's input packed into b->sbuf, its receive side (b->user,
 * count, type, block, nblocks = p) set: sendbuf, or in place the data in
 * recvbuf; a scatter or an all-to-all at the root packs p blocks. *n is
 * the bytes of one block, the root's for a broadcast. */
static int pack_input(struct vpmpi_nbc *b, enum nbc_kind kind,
		      const void *sendbuf, int sendcount,
		      MPI_Datatype sendtype, const struct vpmpi_type *rt,
		      int r, int root, MPI_Comm comm, const char *call,
		      long *n)
{
	int per_dst = kind == NBC_SCATTER || kind == NBC_ALLTOALL, rc;
	int scount = per_dst && (r == root || kind == NBC_ALLTOALL)
			 ? b->nblocks
			 : 1;

	if (kind == NBC_BCAST) {
		rc = r == root ? pack_new(comm, b->user, b->count, b->type,
					  &b->sbuf, n, call)
		     : (b->sbuf = malloc(1)) ? 0
					     : MPI_ERR_NO_MEM;
		*n = b->block;
	} else if (sendbuf == MPI_IN_PLACE) {
		const void *in = kind == NBC_ALLGATHER || kind == NBC_GATHER
				     ? (const char *)b->user +
					   (long)r * b->count * rt->extent
				     : b->user;
		int items = kind == NBC_ALLGATHER || kind == NBC_GATHER
				? b->count
				: b->count * scount;

		rc = pack_new(comm, in, items, b->type, &b->sbuf, n, call);
		*n /= scount;
	} else if (per_dst && r != root && kind == NBC_SCATTER) {
		rc = (b->sbuf = malloc(1)) ? 0 : MPI_ERR_NO_MEM; /* unused */
		*n = b->block;
	} else {
		rc = pack_new(comm, sendbuf, sendcount * scount, sendtype,
			      &b->sbuf, n, call);
		*n /= scount;
	}
	return rc;
}

/* A block call: the packed input (count items, or p blocks for scatter and
 * alltoall at the root), room for p received blocks, then the exchange. */
static int blocks(enum nbc_kind kind, const void *sendbuf, int sendcount,
		  MPI_Datatype sendtype, void *recvbuf, int recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm,
		  MPI_Request *request, const char *call)
{
	vp_comm *aux, *c = begin(comm, request, &aux, call);
	const struct vpmpi_type *rt;
	struct vpmpi_nbc *b;
	int p, r, rc, per_dst = kind == NBC_SCATTER || kind == NBC_ALLTOALL;
	long n, rb;

	if (!c)
		return MPI_ERR_COMM;
	if (kind != NBC_ALLGATHER && kind != NBC_ALLTOALL &&
	    (rc = check_root(comm, c, root, call)))
		return rc;
	p = vp_size(c);
	r = vp_rank(c);
	if (!(rt = vpmpi_type(comm, recvtype, call)))
		return MPI_ERR_TYPE;
	if (recvcount < 0)
		return vpmpi_err(comm, MPI_ERR_COUNT, call,
				 "recvcount %d is negative", recvcount);
	rb = (long)recvcount * rt->size;
	if (!(b = nbc_new(kind, p, comm, call)))
		return MPI_ERR_NO_MEM;
	b->block = rb;
	b->nblocks = p;
	b->user = recvbuf;
	b->count = recvcount;
	b->type = recvtype;
	b->held = (struct vpmpi_type *)rt;
	vpmpi_type_hold(b->held);
	b->has_result = kind == NBC_ALLGATHER || kind == NBC_ALLTOALL ||
			kind == NBC_BCAST || kind == NBC_SCATTER || r == root;
	rc = pack_input(b, kind, sendbuf, sendcount, sendtype, rt, r, root,
			comm, call, &n);
	if (rc) {
		nbc_free(b);
		return rc;
	}
	if (n != rb) {
		nbc_free(b);
		return vpmpi_err(comm, MPI_ERR_TRUNCATE, call,
				 "a block is %ld bytes sent but %ld received "
				 "(sendcount and recvcount differ)",
				 n, rb);
	}
	if (!(b->rbuf = malloc((size_t)p * (size_t)rb + 1))) {
		nbc_free(b);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for %d blocks", p);
	}
	if (kind == NBC_BCAST || kind == NBC_SCATTER) /* one block comes */
		b->nblocks = 1;
	rc = exchange(b, c, aux, root, per_dst);
	return hand_back(b, request, rc);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
	       MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_bcast(buf, count, type, root, comm), request);
	return blocks(NBC_BCAST, NULL, count, type, buf, count, type, root,
		      comm, request, "MPI_Ibcast");
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_rooted(1, sendbuf, NULL, NULL, sendcount, sendtype,
				    recvbuf, NULL, NULL, recvcount, recvtype,
				    root, comm, "MPI_Igather"),
		    request);
	int r = -1;

	/* non-roots have no receive arguments: their block's size is
	 * theirs to give */
	MPI_Comm_rank(comm, &r);
	if (r != root)
		return blocks(NBC_GATHER, sendbuf, sendcount, sendtype, NULL,
			      sendcount, sendtype, root, comm, request,
			      "MPI_Igather");
	return blocks(NBC_GATHER, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, root, comm, request, "MPI_Igather");
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_rooted(0, sendbuf, NULL, NULL, sendcount, sendtype,
				    recvbuf, NULL, NULL, recvcount, recvtype,
				    root, comm, "MPI_Iscatter"),
		    request);
	int r = -1;

	MPI_Comm_rank(comm, &r);
	if (r == root && recvbuf == MPI_IN_PLACE) /* the root keeps its own */
		return blocks(NBC_SCATTER, sendbuf, sendcount, sendtype, NULL,
			      sendcount, sendtype, root, comm, request,
			      "MPI_Iscatter");
	return blocks(NBC_SCATTER, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, root, comm, request, "MPI_Iscatter");
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_all(sendbuf, NULL, NULL, NULL, sendcount, sendtype,
				 recvbuf, NULL, NULL, NULL, recvcount, recvtype,
				 0, comm, "MPI_Iallgather"),
		    request);
	return blocks(NBC_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, 0, comm, request, "MPI_Iallgather");
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_all(sendbuf, NULL, NULL, NULL, sendcount, sendtype,
				 recvbuf, NULL, NULL, NULL, recvcount, recvtype,
				 1, comm, "MPI_Ialltoall"),
		    request);
	return blocks(NBC_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, recvtype, 0, comm, request, "MPI_Ialltoall");
}

/* The reductions: every contribution goes to every rank that needs the
 * result, which combines them in rank order at the wait. */
static int reduction(enum nbc_kind kind, const void *sendbuf, void *recvbuf,
		     int count, MPI_Datatype type, MPI_Op op, int root,
		     MPI_Comm comm, MPI_Request *request, const char *call)
{
	vp_comm *aux, *c = begin(comm, request, &aux, call);
	struct vpmpi_nbc *b;
	int p, r, rc, blocks_in;
	long n;

	if (!c)
		return MPI_ERR_COMM;
	if (kind == NBC_REDUCE && (rc = check_root(comm, c, root, call)))
		return rc;
	if ((rc = vpmpi_check_op(comm, type, op, call)))
		return rc;
	p = vp_size(c);
	r = vp_rank(c);
	if (!(b = nbc_new(kind, p, comm, call)))
		return MPI_ERR_NO_MEM;
	b->user = recvbuf;
	b->count = count;
	b->type = type;
	b->op = op;
	b->held = (struct vpmpi_type *)vpmpi_type_any(type, call);
	vpmpi_type_hold(b->held);
	vpmpi_op_hold(op);
	b->op_held = 1;
	b->has_result = kind == NBC_REDUCE   ? r == root
			: kind == NBC_EXSCAN ? r > 0
					     : 1;
	/* reduce-scatter: p blocks of count, block j for rank j */
	blocks_in = kind == NBC_REDUCE_SCATTER ? p : 1;
	rc = pack_new(comm, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
		      count * blocks_in, type, &b->sbuf, &n, call);
	if (rc) {
		nbc_free(b);
		return rc;
	}
	b->block = n / blocks_in;
	/* the contributions folded: all p, ranks 0..r (scan), 0..r-1 */
	b->nblocks = kind == NBC_SCAN ? r + 1 : kind == NBC_EXSCAN ? r : p;
	if (!(b->rbuf = malloc((size_t)p * (size_t)b->block + 1))) {
		nbc_free(b);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for %d contributions", p);
	}
	rc = exchange(b, c, aux, kind == NBC_REDUCE ? root : -1,
		      kind == NBC_REDUCE_SCATTER);
	return hand_back(b, request, rc);
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(vpmpi_ic_reduce(sendbuf, recvbuf, count,
						     type, op, root, comm),
				     request);
	return reduction(NBC_REDUCE, sendbuf, recvbuf, count, type, op, root,
			 comm, request, "MPI_Ireduce");
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		   MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(vpmpi_ic_allreduce(sendbuf, recvbuf, count,
							type, op, comm,
							"MPI_Iallreduce"),
				     request);
	return reduction(NBC_ALLREDUCE, sendbuf, recvbuf, count, type, op, 0,
			 comm, request, "MPI_Iallreduce");
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
	      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return reduction(NBC_SCAN, sendbuf, recvbuf, count, type, op, 0, comm,
			 request, "MPI_Iscan");
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		MPI_Request *request)
{
	return reduction(NBC_EXSCAN, sendbuf, recvbuf, count, type, op, 0, comm,
			 request, "MPI_Iexscan");
}

/* MPI_Ireduce_scatter_block in place: MPI_Ireduce_scatter's algorithm
 * (mpi_ivcoll.c) with every count recvcount. */
static int in_place_block(void *recvbuf, int recvcount, MPI_Datatype type,
			  MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	static const char call[] = "MPI_Ireduce_scatter_block";
	int p = 0, i, rc, *counts;

	if ((rc = MPI_Comm_size(comm, &p)))
		return rc;
	if (recvcount < 0)
		return vpmpi_err(comm, MPI_ERR_COUNT, call,
				 "recvcount %d is negative", recvcount);
	if (!(counts = malloc((size_t)p * sizeof(*counts))))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for %d counts", p);
	for (i = 0; i < p; i++)
		counts[i] = recvcount;
	rc = vpmpi_ireduce_scatter(MPI_IN_PLACE, recvbuf, counts, type, op,
				   comm, request, call);
	free(counts);
	return rc;
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
			      MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			      MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_reduce_scatter(sendbuf, recvbuf, NULL, recvcount,
					    type, op, comm,
					    "MPI_Ireduce_scatter_block"),
		    request);
	if (sendbuf == MPI_IN_PLACE) /* the input is in recvbuf, p blocks */
		return in_place_block(recvbuf, recvcount, type, op, comm,
				      request);
	return reduction(NBC_REDUCE_SCATTER, sendbuf, recvbuf, recvcount, type,
			 op, 0, comm, request, "MPI_Ireduce_scatter_block");
}

/* ---- calls built elsewhere (mpi_ivcoll.c) ---- */

struct vpmpi_nbc *vpmpi_nbc_hooked(int p, MPI_Comm comm, const char *call,
				   vpmpi_nbc_done_fn done,
				   void (*drop)(void *ctx), void *ctx)
{
	struct vpmpi_nbc *b = nbc_new(NBC_HOOKED, p, comm, call);

	if (!b) {
		drop(ctx);
		return NULL;
	}
	b->done = done;
	b->drop = drop;
	b->ctx = ctx;
	return b;
}

int vpmpi_nbc_post(struct vpmpi_nbc *b, vp_comm *aux, int peer, int slot,
		   const void *send, void *recv, size_t bytes)
{
	return vpmpi_nbc_post_tag(b, aux, peer, 0, slot, send, recv, bytes);
}

int vpmpi_nbc_post_tag(struct vpmpi_nbc *b, vp_comm *c, int peer, int tag,
		       int slot, const void *send, void *recv, size_t bytes)
{
	b->from[b->n] = send ? -1 : slot;
	if (send)
		return vp_isend(c, peer, tag, send, bytes, &b->req[b->n++]);
	return vp_irecv(c, peer, tag, recv, bytes, &b->req[b->n++]);
}

int vpmpi_nbc_start(struct vpmpi_nbc *b, MPI_Request *request, int rc)
{
	return hand_back(b, request, rc);
}

/* ---- completion (mpi_request.c calls these) ---- */

int vpmpi_nbc_requests(const struct vpmpi_nbc *b, vp_request **req)
{
	*req = b->req;
	return b->n;
}

/* Every message is done: check the sizes, unpack, combine; frees b. */
int vpmpi_nbc_finish(struct vpmpi_nbc *b)
{
	const struct vpmpi_type *t = NULL;
	int i, rc = MPI_SUCCESS;

	if (b->done) {
		rc = b->done(b->ctx, b->st, b->from, b->n);
		goto out;
	}
	for (i = 0; i < b->n; i++)
		if (b->from[i] >= 0 && (long)b->st[i].bytes != b->block) {
			rc = vpmpi_err(b->comm, MPI_ERR_TRUNCATE, b->call,
				       "rank %d sent %zu bytes, %ld expected",
				       b->from[i], b->st[i].bytes, b->block);
			goto out;
		}
	if (!b->has_result || b->kind == NBC_BARRIER ||
	    !(t = b->held))
		goto out;
	switch (b->kind) {
	case NBC_REDUCE:
	case NBC_ALLREDUCE:
	case NBC_SCAN:
	case NBC_EXSCAN:
	case NBC_REDUCE_SCATTER: /* x_0 op (x_1 op (... op x_{n-1})) */
		for (i = b->nblocks - 2; i >= 0; i--) /* acc: the last */
			vpmpi_combine(b->op, b->type, b->count,
				      b->rbuf + (long)i * b->block,
				      b->rbuf +
					  (long)(b->nblocks - 1) * b->block);
		vpmpi_unpack(t, b->count,
			     b->rbuf + (long)(b->nblocks - 1) * b->block,
			     b->block, b->user);
		break;
	case NBC_BCAST:
	case NBC_SCATTER: {
		int me = -1, root_block = -1;

		/* the one block received (or my own, copied at the call) */
		for (i = 0; i < b->n; i++)
			if (b->from[i] >= 0)
				root_block = b->from[i];
		MPI_Comm_rank(b->comm, &me);
		if (root_block < 0)
			root_block = me;
		if (b->user)
			vpmpi_unpack(t, b->count,
				     b->rbuf + (long)root_block * b->block,
				     b->block, b->user);
		break;
	}
	default: /* gather, allgather, alltoall: block i to place i */
		for (i = 0; i < b->nblocks; i++)
			vpmpi_unpack(
			    t, b->count, b->rbuf + (long)i * b->block, b->block,
			    (char *)b->user + (long)i * b->count * t->extent);
		break;
	}
out:
	nbc_free(b);
	return rc;
}

/* The statuses of b's requests (mpi_request.c fills them as they
 * complete: vp_waitall, vp_testall and vp_waitany write them). */
vp_status *vpmpi_nbc_statuses(struct vpmpi_nbc *b)
{
	return b->st;
}

void vpmpi_nbc_drop(struct vpmpi_nbc *b)
{
	nbc_free(b);
}
