/*
 * mpi_p2p.c - MPI point to point on vp: a message of count items of a
 * datatype is its packed bytes (the user's buffer itself when the items
 * are contiguous, which is the common case and costs nothing more), sent
 * with vp's tagged calls. MPI_Bsend sends from a copy of its own and
 * returns at once (mpi_buffer.c); MPI_Rsend is MPI_Send (a ready send is
 * a correct standard send);
 * MPI_Ssend is vp_ssend_tag, which returns only once the receive has
 * taken the message, so a program that relies on buffering deadlocks, and
 * vp reports it; MPI_Issend's request completes then (vp_issend).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

static const vp_status no_status = { VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };

/* The communicator of a point-to-point call with its peer and tag
 * checked (a receive's may be MPI_ANY_SOURCE and MPI_ANY_TAG), or NULL
 * with *rc the error's class. On an intercommunicator *commp and *peerp
 * become its union's and *off the offset of a received source
 * (mpi_intercomm_p2p.c); else *off is 0. vp checks that the message's elements are of
 * the kind its receive expects (MPI's type matching, sec. 3.3.1). */
static vp_comm *p2p_args(MPI_Comm *commp, int *peerp, int tag, int recv,
			 MPI_Datatype type, int *off, int *rc,
			 const char *call)
{
	vp_comm *c;
	const struct vpmpi_type *t;
	const char *kind;
	MPI_Comm comm;
	int peer;

	*off = 0;
	if (__builtin_expect(vpmpi_is_inter(*commp), 0) &&
	    (*rc = vpmpi_inter_p2p(commp, peerp, recv, off, call,
				   recv ? "source" : "destination")))
		return NULL;
	comm = *commp;
	peer = *peerp;
	*rc = MPI_ERR_COMM;
	if (!(c = vpmpi_comm(comm, call)))
		return NULL;
	if ((*rc = vpmpi_check_rank(comm, c, peer, recv, call,
				    recv ? "source" : "destination")) ||
	    (*rc = vpmpi_check_tag(comm, tag, recv, call)))
		return NULL;
	/* an uncommitted type fails in the call's next step */
	t = vpmpi_lookup(type);
	kind = t && t->committed ? t->kind : NULL;
	vp_msg_types(c, kind, kind);
	return c;
}

static int send_as(int (*send)(vp_comm *, int, int, const void *, size_t),
		   const void *buf, long count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, const char *call)
{
	vp_comm *c;
	const void *bytes;
	void *tmp;
	long n;
	int rc, failed, off;

	if (!(c = p2p_args(&comm, &dest, tag, 0, type, &off, &rc, call)))
		return rc;
	if (!(bytes = vpmpi_send_bytes(comm, buf, count, type, &n, &tmp,
				       &failed, call)))
		return failed;
	rc = send(c, dest, tag, bytes, (size_t)n);
	if (tmp) /* a packed copy */
		free(tmp);
	return rc ? vpmpi_ret(rc) : MPI_SUCCESS;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	     MPI_Comm comm)
{
	return send_as(vp_send_tag, buf, count, type, dest, tag, comm,
		       "MPI_Send");
}

/* A buffered send (MPI 4.1 sec. 3.6): its message leaves from a copy
 * that takes room in the attached buffer (mpi_buffer.c). */
int vpmpi_bsend_as(const void *buf, long count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, const char *call)
{
	const void *bytes;
	void *tmp;
	long n;
	int rc, failed, off;
	vp_comm *c;

	if (!(c = p2p_args(&comm, &dest, tag, 0, type, &off, &rc, call)))
		return rc;
	if (!(bytes = vpmpi_send_bytes(comm, buf, count, type, &n, &tmp,
				       &failed, call)))
		return failed;
	return vpmpi_bsend(c, comm, dest, tag, bytes, n, tmp, call);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm)
{
	return vpmpi_bsend_as(buf, count, type, dest, tag, comm, "MPI_Bsend");
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm)
{
	return send_as(vp_send_tag, buf, count, type, dest, tag, comm,
		       "MPI_Rsend");
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm)
{
	return send_as(vp_ssend_tag, buf, count, type, dest, tag, comm,
		       "MPI_Ssend");
}

/* MPI_Send and MPI_Send_c (mpi_large_count.c): count may pass INT_MAX */
int vpmpi_send_c(const void *buf, long count, MPI_Datatype type, int dest,
		 int tag, MPI_Comm comm, const char *call)
{
	return send_as(vp_send_tag, buf, count, type, dest, tag, comm, call);
}

/* MPI_Recv and MPI_Recv_c */
int vpmpi_recv_c(void *buf, long count, MPI_Datatype type, int source,
		 int tag, MPI_Comm comm, MPI_Status *status, const char *call)
{
	vp_comm *c;
	vp_status st = no_status;
	void *bytes, *tmp;
	long n;
	int rc, failed, off;

	if (!(c = p2p_args(&comm, &source, tag, 1, type, &off, &rc, call)))
		return rc;
	bytes = vpmpi_recv_bytes(comm, buf, count, type, &n, &tmp, &failed,
				 call);
	if (!bytes)
		return failed;
	rc = vp_recv_tag(c, source, tag, bytes, (size_t)n, &st);
	if (rc)
		return vpmpi_ret(rc);
	if (tmp) /* a derived datatype's message: unpack it */
		vpmpi_recv_done(tmp, buf, count, vpmpi_type_any(type, call),
				(long)st.bytes);
	vpmpi_inter_source(off, &st);
	vpmpi_status(&st, rc, status);
	return MPI_SUCCESS;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	return vpmpi_recv_c(buf, count, type, source, tag, comm, status,
			    "MPI_Recv");
}

/* MPI_Isend and MPI_Issend: post with vp's isend or issend. */
static int
isend_as(int (*post)(vp_comm *, int, int, const void *, size_t, vp_request *),
	 const void *buf, long count, MPI_Datatype type, int dest, int tag,
	 MPI_Comm comm, MPI_Request *request, const char *call)
{
	vp_comm *c;
	struct vpmpi_request *r;
	const void *bytes;
	void *tmp;
	long n;
	int rc, failed, off;

	if (!(c = p2p_args(&comm, &dest, tag, 0, type, &off, &rc, call)))
		return rc;
	if (!(bytes = vpmpi_send_bytes(comm, buf, count, type, &n, &tmp,
				       &failed, call)))
		return failed;
	if (!(r = vpmpi_request_new())) {
		free(tmp);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	}
	r->tmp = tmp;
	if ((rc = post(c, dest, tag, bytes, (size_t)n, &r->vr)))
		return vpmpi_ret(rc);
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm, MPI_Request *request)
{
	return isend_as(vp_isend, buf, count, type, dest, tag, comm, request,
			"MPI_Isend");
}

/* Synchronous: complete once the receive has taken the message. */
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	       MPI_Comm comm, MPI_Request *request)
{
	return isend_as(vp_issend, buf, count, type, dest, tag, comm, request,
			"MPI_Issend");
}

/* MPI_Isend_c, MPI_Issend_c and MPI_Ssend_c (mpi_large_count.c): any
 * count */
int vpmpi_isend_c(const void *buf, long count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request, int sync,
		  const char *call)
{
	return isend_as(sync ? vp_issend : vp_isend, buf, count, type, dest,
			tag, comm, request, call);
}

int vpmpi_ssend_c(const void *buf, long count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, const char *call)
{
	return send_as(vp_ssend_tag, buf, count, type, dest, tag, comm, call);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
	      MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_irecv_c(buf, count, type, source, tag, comm, request,
			     "MPI_Irecv");
}

/* MPI_Irecv and MPI_Irecv_c */
int vpmpi_irecv_c(void *buf, long count, MPI_Datatype type, int source,
		  int tag, MPI_Comm comm, MPI_Request *request,
		  const char *call)
{
	vp_comm *c;
	struct vpmpi_request *r;
	void *bytes, *tmp;
	long n;
	int rc, failed, off;

	if (!(c = p2p_args(&comm, &source, tag, 1, type, &off, &rc, call)))
		return rc;
	bytes = vpmpi_recv_bytes(comm, buf, count, type, &n, &tmp, &failed,
				 call);
	if (!bytes)
		return failed;
	if (!(r = vpmpi_request_new())) {
		free(tmp);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	}
	r->tmp = tmp;
	r->recv = 1;
	r->src_off = off;
	r->user = buf;
	r->count = count;
	if (tmp) { /* unpacked at completion: hold the type till then */
		r->type = (struct vpmpi_type *)vpmpi_type_any(type, call);
		vpmpi_type_hold(r->type);
	}
	if ((rc = vp_irecv(c, source, tag, bytes, (size_t)n, &r->vr)))
		return vpmpi_ret(rc);
	*request = r;
	return MPI_SUCCESS;
}

/* MPI_Sendrecv and MPI_Sendrecv_c (mpi_large_count.c) */
int vpmpi_sendrecv_c(const void *sendbuf, long sendcount,
		     MPI_Datatype sendtype, int dest, int sendtag,
		     void *recvbuf, long recvcount, MPI_Datatype recvtype,
		     int source, int recvtag, MPI_Comm comm,
		     MPI_Status *status, const char *call)
{
	MPI_Request req;
	int rc;

	/* the send may not wait for its receive: post it first */
	if ((rc = vpmpi_isend_c(sendbuf, sendcount, sendtype, dest, sendtag,
				comm, &req, 0, call)))
		return rc;
	if ((rc = vpmpi_recv_c(recvbuf, recvcount, recvtype, source, recvtag,
			       comm, status, call)))
		return rc;
	return MPI_Wait(&req, MPI_STATUS_IGNORE);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		 MPI_Status *status)
{
	return vpmpi_sendrecv_c(sendbuf, sendcount, sendtype, dest, sendtag,
				recvbuf, recvcount, recvtype, source, recvtag,
				comm, status, "MPI_Sendrecv");
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status)
{
	MPI_Request req;
	int rc;

	/* the isend keeps a packed copy of a non-contiguous buffer; a
	 * contiguous one is copied aside so the receive may overwrite it */
	long n = vpmpi_bytes(comm, count, type, "MPI_Sendrecv_replace");
	void *copy;

	if (n < 0)
		return MPI_ERR_TYPE;
	if (!(copy = malloc(n ? (size_t)n : 1)))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, "MPI_Sendrecv_replace",
				 "no memory for %ld bytes", n);
	vpmpi_pack(vpmpi_type_any(type, "MPI_Sendrecv_replace"), count, buf,
		   copy);
	rc = MPI_Isend(copy, (int)n, MPI_BYTE, dest, sendtag, comm, &req);
	if (!rc)
		rc = MPI_Recv(buf, count, type, source, recvtag, comm, status);
	if (!rc)
		rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
	free(copy);
	return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	vp_comm *c;
	vp_status st = no_status;
	int rc, off;

	if (!(c = p2p_args(&comm, &source, tag, 1, MPI_DATATYPE_NULL, &off,
			   &rc, "MPI_Probe")))
		return rc;
	rc = vp_probe(c, source, tag, &st);
	vpmpi_inter_source(off, &st);
	vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	vp_comm *c;
	vp_status st = no_status;
	int rc, off;

	if (!(c = p2p_args(&comm, &source, tag, 1, MPI_DATATYPE_NULL, &off,
			   &rc, "MPI_Iprobe")))
		return rc;
	rc = vp_iprobe(c, source, tag, flag, &st);
	vpmpi_inter_source(off, &st);
	if (*flag)
		vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
	long size = vpmpi_bytes(MPI_COMM_WORLD, 1, type, "MPI_Get_count");

	if (size < 0)
		return MPI_ERR_TYPE;
	if (!size) /* items of no bytes: 0 of them in an empty message */
		*count = status->vpmpi_bytes ? MPI_UNDEFINED : 0;
	else /* MPI 4.0 sec. 3.2.5: MPI_UNDEFINED where it does not fit */
		*count = status->vpmpi_bytes % (size_t)size == 0 &&
				 status->vpmpi_bytes / (size_t)size <= INT_MAX
			     ? (int)(status->vpmpi_bytes / (size_t)size)
			     : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* ---- persistent requests (MPI 3.1 sec. 3.9) ----
 * MPI_Send_init and MPI_Recv_init check and keep their arguments; each
 * MPI_Start posts an MPI_Isend or MPI_Irecv whose communication the
 * persistent request adopts; its completion (MPI_Wait, MPI_Test, ...)
 * leaves the request inactive, its handle valid, until MPI_Request_free.
 * The buffer is read (a send) or written (a receive) at each start. The
 * rsend variant starts standard sends, the bsend variant buffered ones
 * (MPI_Ibsend), the ssend variant synchronous ones (MPI_Issend). The
 * request keeps its own copy of a derived datatype (vpmpi_type_private):
 * the program may free its handle at once, as MPI 4.0 sec. 5.1.9
 * allows. */

static int persist(int kind, const void *buf, int count, MPI_Datatype type,
		   int peer, int tag, MPI_Comm comm, MPI_Request *request,
		   const char *call)
{
	struct vpmpi_request *r;
	MPI_Comm h = comm; /* checked as MPI_Start will post it */
	int rc, off, to = peer;

	if (!p2p_args(&h, &to, tag, kind == PERSIST_RECV, type, &off, &rc,
		      call))
		return rc;
	if (!request)
		return vpmpi_err(comm, MPI_ERR_REQUEST, call,
				 "the request pointer is NULL");
	if (vpmpi_bytes(comm, count, type, call) < 0)
		return MPI_ERR_ARG;
	if (!(r = vpmpi_request_new()))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	if ((rc = vpmpi_type_private(type, &r->ptype, call))) {
		vpmpi_request_recycle(r);
		return rc;
	}
	r->persistent = kind;
	r->pbuf = (void *)buf;
	r->pcount = count;
	r->peer = peer;
	r->tag = tag;
	r->comm = comm;
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	return persist(PERSIST_SEND, buf, count, type, dest, tag, comm, request,
		       "MPI_Send_init");
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return persist(PERSIST_BSEND, buf, count, type, dest, tag, comm,
		       request, "MPI_Bsend_init");
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return persist(PERSIST_SEND, buf, count, type, dest, tag, comm, request,
		       "MPI_Rsend_init");
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return persist(PERSIST_SSEND, buf, count, type, dest, tag, comm,
		       request, "MPI_Ssend_init");
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
		  MPI_Comm comm, MPI_Request *request)
{
	return persist(PERSIST_RECV, buf, count, type, source, tag, comm,
		       request, "MPI_Recv_init");
}

int MPI_Start(MPI_Request *request)
{
	static const char call[] = "MPI_Start";
	struct vpmpi_request *r, *t;
	int rc;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!request || !(r = *request) || !r->live || !r->persistent)
		return vpmpi_fail(
		    MPI_ERR_REQUEST, call,
		    !request || !*request ? "the request is NULL or "
					    "MPI_REQUEST_NULL"
		    : !r->live            ? "the request was freed"
					  : "the request is not persistent "
					    "(MPI_Send_init, MPI_Recv_init)");
	if (r->active)
		return vpmpi_err(r->comm, MPI_ERR_REQUEST, call,
				 "the request is active: it was started and "
				 "has not completed");
	if (r->persistent == PERSIST_COLL)
		return vpmpi_pcoll_start(r);
	if (r->persistent == PERSIST_PART)
		return vpmpi_part_start(r);
	rc = r->persistent == PERSIST_SEND
		 ? MPI_Isend(r->pbuf, r->pcount, r->ptype, r->peer, r->tag,
			     r->comm, &t)
	     : r->persistent == PERSIST_SSEND
		 ? MPI_Issend(r->pbuf, r->pcount, r->ptype, r->peer, r->tag,
			      r->comm, &t)
	     : r->persistent == PERSIST_BSEND
		 ? MPI_Ibsend(r->pbuf, r->pcount, r->ptype, r->peer, r->tag,
			      r->comm, &t)
		 : MPI_Irecv(r->pbuf, r->pcount, r->ptype, r->peer, r->tag,
			     r->comm, &t);
	if (rc)
		return rc;
	r->vr = t->vr; /* adopt the communication */
	r->tmp = t->tmp;
	r->user = t->user;
	r->count = t->count;
	r->recv = t->recv;
	r->src_off = t->src_off;
	r->type = t->type;
	r->ready = t->ready; /* a buffered send's: complete at once */
	r->send_done = t->send_done;
	r->lst = t->lst;
	r->active = 1;
	vpmpi_request_recycle(t);
	return MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request requests[])
{
	int i, rc;

	if (count < 0 || (count && !requests))
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Startall",
				  count < 0 ? "count %d is negative"
					    : "the request array is NULL",
				  count);
	for (i = 0; i < count; i++)
		if ((rc = MPI_Start(&requests[i])))
			return rc;
	return MPI_SUCCESS;
}
