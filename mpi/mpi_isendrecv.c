/*
 * mpi_isendrecv.c - MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.0,
 * sec. 3.10): a send and a receive posted at the call, one request that
 * completes when both have, with the receive's status. They travel on the
 * communicator's point-to-point space, so they match the peers' plain
 * sends and receives. Built as one of the layer's compound requests
 * (mpi_icoll.c's hooked calls): the send's bytes are packed (or copied,
 * for the replace form) at the call, and a receive of a non-contiguous
 * datatype is unpacked at the wait.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

struct pair {
	void *sendcopy; /* packed or copied send (or NULL) */
	void *recvtmp;  /* packed receive to unpack (or NULL) */
	void *recvbuf;
	int recvcount;
	struct vpmpi_type *recvtype; /* held while recvtmp is used */
	struct vpmpi_request *req;
};

static void drop(void *ctx)
{
	struct pair *q = ctx;

	free(q->sendcopy);
	free(q->recvtmp);
	vpmpi_type_release(q->recvtype);
	free(q);
}

/* Both are done: unpack the receive, keep its status for the wait. */
static int done(void *ctx, const vp_status *st, const int *slot, int n)
{
	struct pair *q = ctx;

	for (int i = 0; i < n; i++) {
		if (slot[i] < 0)
			continue;
		if (q->recvtmp)
			vpmpi_unpack(q->recvtype, q->recvcount, q->recvtmp,
				     (long)st[i].bytes, q->recvbuf);
		q->req->lst = st[i];
	}
	return MPI_SUCCESS;
}

/* The receive side's bytes (into q->recvtmp when packed). */
static void *recv_side(struct pair *q, void *buf, int count, MPI_Datatype type,
		       MPI_Comm comm, long *n, int *failed, const char *call)
{
	void *bytes = vpmpi_recv_bytes(comm, buf, count, type, n, &q->recvtmp,
				       failed, call);

	if (bytes && q->recvtmp) {
		q->recvbuf = buf;
		q->recvcount = count;
		q->recvtype = (struct vpmpi_type *)vpmpi_type_any(type, call);
		vpmpi_type_hold(q->recvtype);
	}
	return bytes;
}

static int post(const void *sbytes, long sn, int dest, int sendtag,
		void *rbytes, long rn, int source, int recvtag, vp_comm *c,
		MPI_Comm comm, struct pair *q, MPI_Request *request,
		const char *call)
{
	struct vpmpi_nbc *b = vpmpi_nbc_hooked(2, comm, call, done, drop, q);
	int rc;

	if (!b)
		return MPI_ERR_NO_MEM;
	vp_msg_types(c, NULL, NULL);
	rc = vpmpi_nbc_post_tag(b, c, source, recvtag, 0, NULL, rbytes,
				(size_t)rn);
	if (!rc)
		rc = vpmpi_nbc_post_tag(b, c, dest, sendtag, -1, sbytes, NULL,
					(size_t)sn);
	if ((rc = vpmpi_nbc_start(b, request, rc)))
		return rc;
	q->req = *request;
	return MPI_SUCCESS;
}

/* The checks of a send and a receive on comm: c, or NULL and *rc. */
static vp_comm *check(int dest, int sendtag, int source, int recvtag,
		      MPI_Comm comm, MPI_Request *request, int *rc,
		      const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);

	*rc = MPI_ERR_COMM;
	if (!c)
		return NULL;
	if ((*rc = vpmpi_check_rank(comm, c, dest, 0, call, "destination")) ||
	    (*rc = vpmpi_check_rank(comm, c, source, 1, call, "source")) ||
	    (*rc = vpmpi_check_tag(comm, sendtag, 0, call)) ||
	    (*rc = vpmpi_check_tag(comm, recvtag, 1, call)))
		return NULL;
	if (!request) {
		*rc = vpmpi_err(comm, MPI_ERR_REQUEST, call,
				"the request pointer is NULL");
		return NULL;
	}
	return c;
}

int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  int dest, int sendtag, void *recvbuf, int recvcount,
		  MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		  MPI_Request *request)
{
	static const char call[] = "MPI_Isendrecv";
	const void *sbytes;
	void *rbytes;
	struct pair *q;
	vp_comm *c;
	long sn, rn;
	int rc;

	if (!(c = check(dest, sendtag, source, recvtag, comm, request, &rc,
			call)))
		return rc;
	if (!(q = calloc(1, sizeof(*q))))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory");
	if (!(sbytes = vpmpi_send_bytes(comm, sendbuf, sendcount, sendtype, &sn,
					&q->sendcopy, &rc, call)) ||
	    !(rbytes = recv_side(q, recvbuf, recvcount, recvtype, comm, &rn,
				 &rc, call))) {
		drop(q);
		return rc;
	}
	return post(sbytes, sn, dest, sendtag, rbytes, rn, source, recvtag, c,
		    comm, q, request, call);
}

int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			  int sendtag, int source, int recvtag, MPI_Comm comm,
			  MPI_Request *request)
{
	static const char call[] = "MPI_Isendrecv_replace";
	void *rbytes;
	struct pair *q;
	vp_comm *c;
	long n, rn;
	int rc;

	if (!(c = check(dest, sendtag, source, recvtag, comm, request, &rc,
			call)))
		return rc;
	if ((n = vpmpi_bytes(comm, count, type, call)) < 0)
		return MPI_ERR_TYPE;
	if (!(q = calloc(1, sizeof(*q))) ||
	    !(q->sendcopy = malloc(n ? (size_t)n : 1))) {
		free(q);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for %ld bytes", n);
	}
	/* the send leaves from a copy: the receive may overwrite buf */
	if (n)
		vpmpi_pack(vpmpi_type_any(type, call), count, buf, q->sendcopy);
	if (!(rbytes = recv_side(q, buf, count, type, comm, &rn, &rc, call))) {
		drop(q);
		return rc;
	}
	return post(q->sendcopy, n, dest, sendtag, rbytes, rn, source, recvtag,
		    c, comm, q, request, call);
}
