/*
 * mpi_ivcoll.c - the nonblocking v- and w-collectives (MPI 4.0, sec. 6.12):
 * MPI_Igatherv, MPI_Iscatterv, MPI_Iallgatherv, MPI_Ialltoallv,
 * MPI_Ialltoallw, MPI_Ireduce_scatter.
 *
 * They run as the other nonblocking collectives do (mpi_icoll.c): the
 * direct algorithm, every message posted at the call on the communicator's
 * third message space, one message per ordered pair that exchanges data
 * (an empty one where a count is 0, so that successive calls keep matching
 * in call order), no rank forwarding anything for another; the wait (or
 * test, or any of their kin, mixed with point-to-point requests) completes
 * them and unpacks. Blocks travel packed: the input is packed at the call,
 * so the send buffer is free as soon as the call returns; the output is
 * written at the wait. Cost, with m_i the bytes of block i (the model
 * charges every message, ts + tw m):
 *   igatherv, iscatterv  the root exchanges one message with every other
 *            rank (Grama et al., sec. 4.4, linear): sum over i != root of
 *            (ts + tw m_i) at the root, ts + tw m_r elsewhere;
 *   iallgatherv  every rank sends its block to every other (sec. 4.2 on a
 *            fully connected network): (p - 1)(ts + tw m_r) a rank;
 *   ialltoallv, ialltoallw  every rank sends block j to rank j (sec. 4.5,
 *            direct): sum over j != r of (ts + tw m_j) at rank r;
 *   ireduce_scatter  rank j receives every rank's block j and combines them
 *            at the wait in rank order, x_0 op (x_1 op (... op x_{p-1})),
 *            the same on every rank: sum over j != r of (ts + tw m_j) at
 *            rank r, plus p - 1 combinations of its own block.
 * A block of another size than its receiver expects fails the wait naming
 * the sender and both sizes. Not checked: that every rank passed the same
 * root, counts or recvcounts.
 *
 * Names: ivc is one call's state (struct ivc); sw and rw its packed
 * outgoing and incoming blocks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

/* One call's context: the packed bytes and where each block goes. */
struct ivc {
	int p, me;
	char *sw, *rw;  /* packed outgoing and incoming blocks */
	long *roff;     /* p + 1: block i at rw + roff[i], from rank i */
	int *rcount;    /* items of block i */
	char **rdst;    /* where block i is unpacked; NULL: not unpacked */
	struct vpmpi_type **rt; /* block i's type, held until the call ends */
	/* Ireduce_scatter: combine the p blocks with op first */
	int reduce;
	MPI_Op op;
	MPI_Datatype type;
	MPI_Comm comm;
	const char *call;
};

static void ivc_drop(void *ctx)
{
	struct ivc *v = ctx;
	int i;

	if (!v)
		return;
	for (i = 0; v->rt && i < v->p; i++)
		vpmpi_type_release(v->rt[i]);
	if (v->reduce)
		vpmpi_op_release(v->op);
	free(v->sw);
	free(v->rw);
	free(v->roff);
	free(v->rcount);
	free(v->rdst);
	free(v->rt);
	free(v);
}

/* The wait: every block the size expected, then combined and unpacked. */
static int ivc_done(void *ctx, const vp_status *st, const int *slot, int n)
{
	struct ivc *v = ctx;
	long blk;
	int i;

	for (i = 0; i < n; i++) {
		int s = slot[i];

		if (s >= 0 && (long)st[i].bytes != v->roff[s + 1] - v->roff[s])
			return vpmpi_err(v->comm, MPI_ERR_TRUNCATE, v->call,
					 "rank %d sent %zu bytes, %ld expected",
					 s, st[i].bytes,
					 v->roff[s + 1] - v->roff[s]);
	}
	if (v->reduce) { /* x_0 op (x_1 op (... op x_{p-1})) */
		blk = v->roff[1] - v->roff[0];
		for (i = v->p - 2; i >= 0; i--)
			vpmpi_combine(v->op, v->type, v->rcount[v->me],
				      v->rw + (long)i * blk,
				      v->rw + (long)(v->p - 1) * blk);
		if (v->rdst[v->me])
			vpmpi_unpack(v->rt[v->me], v->rcount[v->me],
				     v->rw + (long)(v->p - 1) * blk, blk,
				     v->rdst[v->me]);
		return MPI_SUCCESS;
	}
	for (i = 0; i < v->p; i++)
		if (v->rdst[i])
			vpmpi_unpack(v->rt[i], v->rcount[i], v->rw + v->roff[i],
				     v->roff[i + 1] - v->roff[i], v->rdst[i]);
	return MPI_SUCCESS;
}

static struct ivc *ivc_new(int p, int me, MPI_Comm comm, const char *call)
{
	struct ivc *v = calloc(1, sizeof(*v));

	if (v) {
		v->p = p;
		v->me = me;
		v->comm = comm;
		v->call = call;
		v->roff = calloc((size_t)p + 1, sizeof(*v->roff));
		v->rcount = calloc((size_t)p, sizeof(*v->rcount));
		v->rdst = calloc((size_t)p, sizeof(*v->rdst));
		v->rt = calloc((size_t)p, sizeof(*v->rt));
	}
	if (!v || !v->roff || !v->rcount || !v->rdst || !v->rt) {
		ivc_drop(v);
		vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory for the call");
		return NULL;
	}
	return v;
}

/* Block i of the output: count items of t at dst (NULL: not unpacked). */
static void ivc_block(struct ivc *v, int i, const struct vpmpi_type *t,
		      int count, char *dst)
{
	struct vpmpi_type *held = (struct vpmpi_type *)t;

	vpmpi_type_hold(held);
	v->rt[i] = held;
	v->rcount[i] = count;
	v->rdst[i] = dst;
	v->roff[i + 1] = v->roff[i] + (long)count * t->size;
}

/* Room for the incoming blocks (after every ivc_block): 0 or the error. */
static int ivc_room(struct ivc *v)
{
	long total = v->roff[v->p];

	if (!(v->rw = malloc(total ? (size_t)total : 1)))
		return vpmpi_err(v->comm, MPI_ERR_NO_MEM, v->call,
				 "no memory for %ld bytes", total);
	return MPI_SUCCESS;
}

/* The arguments every call checks: the communicator, the request pointer
 * and (rooted) the root; 0 with the communicator in *c and its message
 * space in *aux, or the error's class after raising it. */
static int ivc_begin(MPI_Comm comm, MPI_Request *request, int rooted,
		     int root, vp_comm **c, vp_comm **aux, const char *call)
{
	if (!(*c = vpmpi_comm(comm, call)))
		return MPI_ERR_COMM;
	if (!request)
		return vpmpi_err(comm, MPI_ERR_REQUEST, call,
				 "the request pointer is NULL");
	if (rooted && (root < 0 || root >= vp_size(*c)))
		return vpmpi_err(comm, MPI_ERR_ROOT, call,
				 "root %d is outside [0, %d)", root,
				 vp_size(*c));
	*aux = vp_aux_comm(*c);
	return MPI_SUCCESS;
}

/* Checks p counts (and displacements, unless displs_too is 0): 0, or the
 * error raised. */
static int check_counts(MPI_Comm h, const int *counts, const int *displs,
			int displs_too, int p, const char *what,
			const char *call)
{
	int i;

	if (!counts || (displs_too && !displs))
		return vpmpi_err(h, MPI_ERR_ARG, call, "%s %s is NULL", what,
				 !counts ? "counts" : "displacements");
	for (i = 0; i < p; i++)
		if (counts[i] < 0)
			return vpmpi_err(h, MPI_ERR_COUNT, call,
					 "%s count %d (rank %d) is negative",
					 what, counts[i], i);
	return MPI_SUCCESS;
}

/* count items of t at buf packed to out (room for them): 0 or the error
 * raised for a NULL buffer. */
static int pack_in(MPI_Comm h, const struct vpmpi_type *t, const void *buf,
		   int count, char *out, const char *call)
{
	if (count < 0)
		return vpmpi_err(h, MPI_ERR_COUNT, call,
				 "count %d is negative", count);
	if (count && t->size && !buf)
		return vpmpi_err(h, MPI_ERR_BUFFER, call,
				 "buffer is NULL for %d items", count);
	if (count)
		vpmpi_pack(t, count, buf, out);
	return MPI_SUCCESS;
}

/* The send side of a rooted or all-gather call: sendcount items of
 * sendtype packed into v->sw (*n bytes): 0 or the error raised. */
static int pack_send(struct ivc *v, const void *sendbuf, int sendcount,
		     MPI_Datatype sendtype, long *n)
{
	const struct vpmpi_type *t = vpmpi_type(v->comm, sendtype, v->call);

	if (!t)
		return MPI_ERR_TYPE;
	if (sendcount < 0)
		return vpmpi_err(v->comm, MPI_ERR_COUNT, v->call,
				 "sendcount %d is negative", sendcount);
	*n = (long)sendcount * t->size;
	if (!(v->sw = malloc(*n ? (size_t)*n : 1)))
		return vpmpi_err(v->comm, MPI_ERR_NO_MEM, v->call,
				 "no memory for %ld bytes", *n);
	return pack_in(v->comm, t, sendbuf, sendcount, v->sw, v->call);
}

/* This rank's own block: n packed bytes at own into block me, which must
 * be that size. */
static int own_block(struct ivc *v, const char *own, long n)
{
	long want = v->roff[v->me + 1] - v->roff[v->me];

	if (n != want)
		return vpmpi_err(v->comm, MPI_ERR_TRUNCATE, v->call,
				 "rank %d's block to itself is %ld bytes sent "
				 "but %ld received",
				 v->me, n, want);
	if (n)
		memcpy(v->rw + v->roff[v->me], own, (size_t)n);
	return MPI_SUCCESS;
}

/* The request for v's call with its receives posted: block i from every
 * other rank i (src < 0), or from rank src alone (none when src is no
 * rank); the sends are the caller's. NULL after the error. */
static struct vpmpi_nbc *open_call(struct ivc *v, vp_comm *aux, int src,
				   int *rc)
{
	struct vpmpi_nbc *b =
	    vpmpi_nbc_hooked(v->p, v->comm, v->call, ivc_done, ivc_drop, v);
	int k;

	*rc = 0;
	if (!b)
		return NULL;
	for (k = 1; !*rc && k < v->p; k++) { /* receives first: one copy */
		int from = (v->me - k + v->p) % v->p;

		if (src < 0 || from == src)
			*rc = vpmpi_nbc_post(b, aux, from, from, NULL,
					     v->rw + v->roff[from],
					     (size_t)(v->roff[from + 1] -
						      v->roff[from]));
	}
	return b;
}

/* Sends v->sw + soff[j] (soff[j + 1] - soff[j] bytes; one block for all
 * when soff is NULL, n bytes) to every rank j other than this one, or to
 * dst alone when dst >= 0. */
static int send_out(struct vpmpi_nbc *b, struct ivc *v, vp_comm *aux,
		    const long *soff, long n, int dst)
{
	int k, rc = 0;

	for (k = 1; !rc && k < v->p; k++) {
		int to = (v->me + k) % v->p;

		if (dst >= 0 && to != dst)
			continue;
		rc = vpmpi_nbc_post(b, aux, to, -1,
				    soff ? v->sw + soff[to] : v->sw, NULL,
				    (size_t)(soff ? soff[to + 1] - soff[to]
						  : n));
	}
	return rc;
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[],
		 MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_rooted(1, sendbuf, NULL, NULL, sendcount, sendtype,
				    recvbuf, recvcounts, displs, 0, recvtype,
				    root, comm, "MPI_Igatherv"),
		    request);
	static const char call[] = "MPI_Igatherv";
	vp_comm *aux, *c;
	const struct vpmpi_type *rt = NULL;
	struct vpmpi_nbc *b;
	struct ivc *v;
	int p, r, i, rc, in_place;
	long n = 0;

	if ((rc = ivc_begin(comm, request, 1, root, &c, &aux, call)))
		return rc;
	p = vp_size(c);
	r = vp_rank(c);
	in_place = r == root && sendbuf == MPI_IN_PLACE;
	if (sendbuf == MPI_IN_PLACE && r != root)
		return vpmpi_err(comm, MPI_ERR_BUFFER, call,
				 "sendbuf is MPI_IN_PLACE at rank %d, not the "
				 "root %d",
				 r, root);
	if (r == root &&
	    ((rc = check_counts(comm, recvcounts, displs, 1, p, "receive",
				call)) ||
	     !(rt = vpmpi_type(comm, recvtype, call))))
		return rc ? rc : MPI_ERR_TYPE;
	if (!(v = ivc_new(p, r, comm, call)))
		return MPI_ERR_NO_MEM;
	for (i = 0; r == root && i < p; i++)
		ivc_block(v, i, rt, recvcounts[i],
			  i == r && in_place
			      ? NULL
			      : (char *)recvbuf +
					(long)displs[i] * rt->extent);
	if ((rc = ivc_room(v)) ||
	    (!in_place &&
	     (rc = pack_send(v, sendbuf, sendcount, sendtype, &n))) ||
	    (r == root && !in_place && (rc = own_block(v, v->sw, n)))) {
		ivc_drop(v);
		return rc;
	}
	if (!(b = open_call(v, aux, r == root ? -1 : p, &rc)))
		return MPI_ERR_NO_MEM;
	if (!rc && r != root)
		rc = send_out(b, v, aux, NULL, n, root);
	return vpmpi_nbc_start(b, request, rc);
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_rooted(0, sendbuf, sendcounts, displs, 0, sendtype,
				    recvbuf, NULL, NULL, recvcount, recvtype,
				    root, comm, "MPI_Iscatterv"),
		    request);
	static const char call[] = "MPI_Iscatterv";
	vp_comm *aux, *c;
	const struct vpmpi_type *st = NULL, *rt = NULL;
	struct vpmpi_nbc *b;
	struct ivc *v;
	long *soff = NULL;
	int p, r, i, rc = 0, in_place;

	if ((rc = ivc_begin(comm, request, 1, root, &c, &aux, call)))
		return rc;
	p = vp_size(c);
	r = vp_rank(c);
	in_place = r == root && recvbuf == MPI_IN_PLACE;
	if (!in_place && !(rt = vpmpi_type(comm, recvtype, call)))
		return MPI_ERR_TYPE;
	if (!in_place && recvcount < 0)
		return vpmpi_err(comm, MPI_ERR_COUNT, call,
				 "recvcount %d is negative", recvcount);
	if (r == root &&
	    ((rc = check_counts(comm, sendcounts, displs, 1, p, "send",
				call)) ||
	     !(st = vpmpi_type(comm, sendtype, call))))
		return rc ? rc : MPI_ERR_TYPE;
	if (!(v = ivc_new(p, r, comm, call)))
		return MPI_ERR_NO_MEM;
	for (i = 0; i < p; i++) /* one block comes: the root's */
		ivc_block(v, i, rt ? rt : vpmpi_type_any(MPI_BYTE, call),
			  i == root && !in_place ? recvcount : 0,
			  i == root && !in_place ? recvbuf : NULL);
	if ((rc = ivc_room(v)))
		goto fail;
	if (r == root) { /* every block packed, at soff */
		if ((soff = malloc(((size_t)p + 1) * sizeof(*soff))))
			for (i = 0, soff[0] = 0; i < p; i++)
				soff[i + 1] = soff[i] +
					      (long)sendcounts[i] * st->size;
		if (!soff || !(v->sw = malloc(soff[p] ? (size_t)soff[p] : 1))) {
			rc = vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				       "no memory for the blocks");
			goto fail;
		}
		for (i = 0; !rc && i < p; i++)
			rc = pack_in(comm, st,
				     sendbuf ? (const char *)sendbuf +
						   (long)displs[i] * st->extent
					     : NULL,
				     sendcounts[i], v->sw + soff[i], call);
		if (rc || (!in_place &&
			   (rc = own_block(v, v->sw + soff[r],
					   soff[r + 1] - soff[r]))))
			goto fail;
	}
	if (!(b = open_call(v, aux, r == root ? p : root, &rc))) {
		free(soff);
		return MPI_ERR_NO_MEM;
	}
	if (!rc && r == root)
		rc = send_out(b, v, aux, soff, 0, -1);
	free(soff);
	return vpmpi_nbc_start(b, request, rc);
fail:
	free(soff);
	ivc_drop(v);
	return rc;
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_all(sendbuf, NULL, NULL, NULL, sendcount, sendtype,
				 recvbuf, recvcounts, displs, NULL, 0, recvtype,
				 0, comm, "MPI_Iallgatherv"),
		    request);
	static const char call[] = "MPI_Iallgatherv";
	vp_comm *aux, *c;
	const struct vpmpi_type *rt;
	struct vpmpi_nbc *b;
	struct ivc *v;
	int p, r, i, rc;
	long n;

	if ((rc = ivc_begin(comm, request, 0, 0, &c, &aux, call)))
		return rc;
	p = vp_size(c);
	r = vp_rank(c);
	if ((rc = check_counts(comm, recvcounts, displs, 1, p, "receive",
			       call)))
		return rc;
	if (!(rt = vpmpi_type(comm, recvtype, call)))
		return MPI_ERR_TYPE;
	if (!(v = ivc_new(p, r, comm, call)))
		return MPI_ERR_NO_MEM;
	for (i = 0; i < p; i++)
		ivc_block(v, i, rt, recvcounts[i],
			  i == r && sendbuf == MPI_IN_PLACE
			      ? NULL
			      : (char *)recvbuf +
					(long)displs[i] * rt->extent);
	if (sendbuf == MPI_IN_PLACE) /* this rank's block is in recvbuf */
		rc = pack_send(v, (char *)recvbuf + (long)displs[r] * rt->extent,
			       recvcounts[r], recvtype, &n);
	else
		rc = pack_send(v, sendbuf, sendcount, sendtype, &n);
	if (rc || (rc = ivc_room(v)) || (rc = own_block(v, v->sw, n))) {
		ivc_drop(v);
		return rc;
	}
	if (!(b = open_call(v, aux, -1, &rc)))
		return MPI_ERR_NO_MEM;
	if (!rc)
		rc = send_out(b, v, aux, NULL, n, -1);
	return vpmpi_nbc_start(b, request, rc);
}

/* The all-to-all of Ialltoallv and Ialltoallw: block j of type st[j] at
 * sendbuf + sbyte[j] to rank j, block i from rank i of type rt[i] to
 * recvbuf + rbyte[i]; the types and counts checked. */
static int all_to_all(const void *sendbuf, const int scounts[],
		      const long sbyte[], const struct vpmpi_type **st,
		      void *recvbuf, const int rcounts[], const long rbyte[],
		      const struct vpmpi_type **rt, vp_comm *c, vp_comm *aux,
		      MPI_Comm comm, MPI_Request *request, const char *call)
{
	int p = vp_size(c), r = vp_rank(c), i, rc = 0;
	struct vpmpi_nbc *b;
	struct ivc *v;
	long *soff = malloc(((size_t)p + 1) * sizeof(*soff));

	if (!soff)
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for the call");
	if (!(v = ivc_new(p, r, comm, call))) {
		free(soff);
		return MPI_ERR_NO_MEM;
	}
	for (i = 0, soff[0] = 0; i < p; i++) {
		ivc_block(v, i, rt[i], rcounts[i], (char *)recvbuf + rbyte[i]);
		soff[i + 1] = soff[i] + (long)scounts[i] * st[i]->size;
	}
	if ((rc = ivc_room(v)))
		goto fail;
	if (!(v->sw = malloc(soff[p] ? (size_t)soff[p] : 1))) {
		rc = vpmpi_err(comm, MPI_ERR_NO_MEM, call,
			       "no memory for the blocks");
		goto fail;
	}
	/* every outgoing block packed first (so in place is safe) */
	for (i = 0; !rc && i < p; i++)
		rc = pack_in(comm, st[i],
			     sendbuf ? (const char *)sendbuf + sbyte[i] : NULL,
			     scounts[i], v->sw + soff[i], call);
	if (rc || (rc = own_block(v, v->sw + soff[r], soff[r + 1] - soff[r])))
		goto fail;
	if (!(b = open_call(v, aux, -1, &rc))) {
		free(soff);
		return MPI_ERR_NO_MEM;
	}
	if (!rc)
		rc = send_out(b, v, aux, soff, 0, -1);
	free(soff);
	return vpmpi_nbc_start(b, request, rc);
fail:
	free(soff);
	ivc_drop(v);
	return rc;
}

/* The per-block types and byte displacements of one side of an
 * Ialltoallv or Ialltoallw (types NULL: type for every block, displs in
 * its extents): 0 or the error raised. */
static int a2a_side(MPI_Comm comm, int p, const int *counts,
		    const int *displs, MPI_Datatype type,
		    const MPI_Datatype *types, const struct vpmpi_type **t,
		    long *byte, const char *what, const char *call)
{
	int i, rc;

	if ((rc = check_counts(comm, counts, displs, 1, p, what, call)))
		return rc;
	for (i = 0; i < p; i++) {
		if (!(t[i] = vpmpi_type(comm, types ? types[i] : type, call)))
			return MPI_ERR_TYPE;
		byte[i] = types ? displs[i] : (long)displs[i] * t[i]->extent;
	}
	return MPI_SUCCESS;
}

/* Ialltoallv (types NULL) and Ialltoallw. */
static int a2a(const void *sendbuf, const int scounts[], const int sdispls[],
	       MPI_Datatype stype, const MPI_Datatype stypes[], void *recvbuf,
	       const int rcounts[], const int rdispls[], MPI_Datatype rtype,
	       const MPI_Datatype rtypes[], MPI_Comm comm,
	       MPI_Request *request, const char *call)
{
	vp_comm *aux, *c;
	const struct vpmpi_type **st, **rt;
	long *sbyte, *rbyte;
	int p, rc;

	if ((rc = ivc_begin(comm, request, 0, 0, &c, &aux, call)))
		return rc;
	p = vp_size(c);
	if (sendbuf == MPI_IN_PLACE) { /* the input is in recvbuf */
		sendbuf = recvbuf;
		scounts = rcounts;
		sdispls = rdispls;
		stype = rtype;
		stypes = rtypes;
	}
	st = malloc((size_t)p * sizeof(*st));
	rt = malloc((size_t)p * sizeof(*rt));
	sbyte = malloc((size_t)p * sizeof(*sbyte));
	rbyte = malloc((size_t)p * sizeof(*rbyte));
	if (!st || !rt || !sbyte || !rbyte)
		rc = vpmpi_err(comm, MPI_ERR_NO_MEM, call,
			       "no memory for the call");
	else if (!(rc = a2a_side(comm, p, scounts, sdispls, stype, stypes, st,
				 sbyte, "send", call)) &&
		 !(rc = a2a_side(comm, p, rcounts, rdispls, rtype, rtypes, rt,
				 rbyte, "receive", call)))
		rc = all_to_all(sendbuf, scounts, sbyte, st, recvbuf, rcounts,
				rbyte, rt, c, aux, comm, request, call);
	free(st);
	free(rt);
	free(sbyte);
	free(rbyte);
	return rc;
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[],
		   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_all(sendbuf, sendcounts, sdispls, NULL, 0,
				 sendtype, recvbuf, recvcounts, rdispls, NULL,
				 0, recvtype, 1, comm, "MPI_Ialltoallv"),
		    request);
	return a2a(sendbuf, sendcounts, sdispls, sendtype, NULL, recvbuf,
		   recvcounts, rdispls, recvtype, NULL, comm, request,
		   "MPI_Ialltoallv");
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[],
		   void *recvbuf, const int recvcounts[], const int rdispls[],
		   const MPI_Datatype recvtypes[], MPI_Comm comm,
		   MPI_Request *request)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    vpmpi_ic_all(sendbuf, sendcounts, sdispls, sendtypes, 0, 0,
				 recvbuf, recvcounts, rdispls, recvtypes, 0, 0,
				 1, comm, "MPI_Ialltoallw"),
		    request);
	static const char call[] = "MPI_Ialltoallw";

	if ((sendbuf != MPI_IN_PLACE && !sendtypes) || !recvtypes)
		return vpmpi_err(comm, MPI_ERR_ARG, call, "the %s types are NULL",
				 recvtypes ? "send" : "receive");
	return a2a(sendbuf, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes,
		   recvbuf, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes,
		   comm, request, call);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype type, MPI_Op op,
			MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op,
				     comm, request, "MPI_Ireduce_scatter");
}

int vpmpi_ireduce_scatter(const void *sendbuf, void *recvbuf,
			  const int recvcounts[], MPI_Datatype type, MPI_Op op,
			  MPI_Comm comm, MPI_Request *request, const char *call)
{
	vp_comm *aux, *c;
	const struct vpmpi_type *t;
	struct vpmpi_nbc *b;
	struct ivc *v;
	long *soff;
	int p, r, i, rc, items = 0;

	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_done(
		    recvcounts ? vpmpi_ic_reduce_scatter(sendbuf, recvbuf,
							 recvcounts, 0, type,
							 op, comm, call)
			       : vpmpi_err(comm, MPI_ERR_COUNT, call,
					   "recvcounts is NULL"),
		    request);
	if ((rc = ivc_begin(comm, request, 0, 0, &c, &aux, call)))
		return rc;
	p = vp_size(c);
	r = vp_rank(c);
	if ((rc = check_counts(comm, recvcounts, NULL, 0, p, "receive", call)))
		return rc;
	if ((rc = vpmpi_check_op(comm, type, op, call)))
		return rc;
	if (!(t = vpmpi_type(comm, type, call)))
		return MPI_ERR_TYPE;
	if (!(v = ivc_new(p, r, comm, call)))
		return MPI_ERR_NO_MEM;
	v->reduce = 1;
	v->op = op;
	vpmpi_op_hold(op); /* till the wait, freed or not */
	v->type = type;
	for (i = 0; i < p; i++) /* every rank's contribution to block r */
		ivc_block(v, i, t, recvcounts[r], i == r ? recvbuf : NULL);
	if (!(soff = malloc(((size_t)p + 1) * sizeof(*soff)))) {
		ivc_drop(v);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for the call");
	}
	for (i = 0, soff[0] = 0; i < p; i++) {
		soff[i + 1] = soff[i] + (long)recvcounts[i] * t->size;
		items += recvcounts[i];
	}
	rc = ivc_room(v);
	if (!rc && !(v->sw = malloc(soff[p] ? (size_t)soff[p] : 1)))
		rc = vpmpi_err(comm, MPI_ERR_NO_MEM, call,
			       "no memory for the blocks");
	if (!rc) /* the whole input: in place, it is in recvbuf */
		rc = pack_in(comm, t, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
			     items, v->sw, call);
	if (rc || (rc = own_block(v, v->sw + soff[r], soff[r + 1] - soff[r]))) {
		free(soff);
		ivc_drop(v);
		return rc;
	}
	if (!(b = open_call(v, aux, -1, &rc))) {
		free(soff);
		return MPI_ERR_NO_MEM;
	}
	if (!rc)
		rc = send_out(b, v, aux, soff, 0, -1);
	free(soff);
	return vpmpi_nbc_start(b, request, rc);
}
