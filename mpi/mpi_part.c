/*
 * mpi_part.c - partitioned point to point (MPI 4.0, chapter 4):
 * MPI_Psend_init and MPI_Precv_init make persistent requests of
 * `partitions` partitions of count items each. After MPI_Start the
 * sender marks its partitions ready (MPI_Pready, MPI_Pready_range,
 * MPI_Pready_list) and the receiver asks whether a partition of its own
 * has arrived (MPI_Parrived); MPI_Wait, MPI_Test and the others complete
 * the round, and the request stays for the next MPI_Start until
 * MPI_Request_free.
 *
 * Each partition leaves as its own message the moment it is marked ready,
 * so the early partitions travel while the program still computes the
 * later ones; the model charges each message (ts + tw m for a partition
 * of m bytes, plus a header of 40 bytes). The header names the
 * operation's tag, its total bytes, the sender's partition count and the
 * partition's byte offset, so that the receiver, whose partitions may be
 * of another size than the sender's (only the totals must agree, MPI 4.0
 * sec. 4.2.1), puts each where it belongs. A receive partition has
 * arrived when all of its bytes have.
 *
 * The messages travel in the communicator's auxiliary space (vp_aux_comm)
 * under tag 1 + the program's tag, so they match neither the program's
 * own messages nor the nonblocking collectives' (tag 0 there). Messages
 * of one sender and one tag arrive in send order, so the rounds of one
 * pair of requests stay apart: a round receives the sender's partition
 * count of messages.
 *
 * Not supported: intercommunicators (MPI_ERR_COMM), and two partitioned
 * operations active at once between the same two ranks with the same tag
 * and communicator (MPI matches them in the order of their init calls,
 * vp in the order their partitions arrive): give each its own tag.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

/* What each partition's message starts with. */
struct part_hdr {
	long long tag, total, nparts, off, len;
};

struct vpmpi_partitions {
	int send;    /* 1: MPI_Psend_init's; 0: MPI_Precv_init's */
	int nparts;  /* this side's partitions */
	long count;  /* items a partition */
	long pb;     /* packed bytes a partition */
	char *user;  /* the program's buffer */
	MPI_Datatype type; /* the layer's own copy (vpmpi_type_private) */
	vp_comm *aux;
	int vtag;    /* the messages' tag in the auxiliary space */
	char *stage; /* send: a header and pb bytes a partition; receive:
		      * room for one message */
	char *packed;   /* receive: the bytes (the buffer itself if dense) */
	char *flag;     /* marked ready (send), arrived (receive), a part */
	long *got;      /* receive: bytes arrived of each partition */
	long long msgs, smsgs; /* receive: messages taken, and to take */
	int nready;     /* send: partitions marked this round */
	vp_request *req; /* send: one a partition; receive: one */
	vp_status took;  /* receive: a message vp_waitany completed */
	int has_took;
};

static void part_free(struct vpmpi_partitions *p)
{
	if (!p)
		return;
	vpmpi_type_private_free(p->type);
	if (p->packed != p->user)
		free(p->packed);
	free(p->stage);
	free(p->flag);
	free(p->got);
	free(p->req);
	free(p);
}

void vpmpi_part_free(struct vpmpi_request *r)
{
	part_free(r->part);
	r->part = NULL;
}

/* The room of p's buffers (its fields set); 0, or -1 without memory. */
static int part_room(struct vpmpi_partitions *p, const struct vpmpi_type *t)
{
	size_t hdr = sizeof(struct part_hdr), n = (size_t)p->nparts;
	size_t total = n * (size_t)p->pb;

	p->flag = calloc(n, 1);
	p->req = calloc(p->send ? n : 1, sizeof(*p->req));
	if (p->send) {
		p->stage = malloc(n * (hdr + (size_t)p->pb));
		return p->flag && p->req && p->stage ? 0 : -1;
	}
	p->got = calloc(n, sizeof(*p->got));
	p->stage = malloc(hdr + total);
	p->packed = vpmpi_dense(t) ? p->user : malloc(total + 1);
	return p->flag && p->req && p->got && p->stage && p->packed ? 0 : -1;
}

/* The arguments of an init call checked; MPI_SUCCESS or the error. */
static int init_args(int send, const void *buf, int partitions,
		     MPI_Count count, MPI_Datatype type, int peer, int tag,
		     MPI_Comm comm, MPI_Request *request, const char *call)
{
	const struct vpmpi_type *t;
	vp_comm *c;
	int rc;

	if (!(c = vpmpi_comm(comm, call)))
		return MPI_ERR_COMM;
	if (VPMPI_IS_INTER(comm))
		return vpmpi_err(comm, MPI_ERR_COMM, call,
				 "partitioned communication on an "
				 "intercommunicator: vp takes "
				 "intracommunicators only");
	if ((rc = vpmpi_check_rank(comm, c, peer, 0, call,
				   send ? "destination" : "source")) ||
	    (rc = vpmpi_check_tag(comm, tag, 0, call)))
		return rc;
	if (partitions < 1)
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "partitions %d: at least 1", partitions);
	if (count < 0 || count > LONG_MAX / partitions)
		return vpmpi_err(comm, MPI_ERR_COUNT, call,
				 "count %lld a partition is %s", count,
				 count < 0 ? "negative" : "too large");
	if (!(t = vpmpi_type(comm, type, call)))
		return MPI_ERR_TYPE;
	if (count && t->size && !buf && !vpmpi_absolute(t))
		return vpmpi_err(comm, MPI_ERR_BUFFER, call,
				 "buffer is NULL for %d partitions of %lld "
				 "items",
				 partitions, count);
	if (!request)
		return vpmpi_err(comm, MPI_ERR_REQUEST, call,
				 "the request pointer is NULL");
	return MPI_SUCCESS;
}

static int part_init(int send, const void *buf, int partitions,
		     MPI_Count count, MPI_Datatype type, int peer, int tag,
		     MPI_Comm comm, MPI_Request *request, const char *call)
{
	struct vpmpi_request *r;
	struct vpmpi_partitions *p;
	const struct vpmpi_type *t;
	int rc;

	if ((rc = init_args(send, buf, partitions, count, type, peer, tag,
			    comm, request, call)))
		return rc;
	t = vpmpi_type(comm, type, call);
	if (!(r = vpmpi_request_new()) || !(p = calloc(1, sizeof(*p)))) {
		if (r)
			vpmpi_request_recycle(r);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a request");
	}
	p->send = send;
	p->nparts = partitions;
	p->count = (long)count;
	p->pb = (long)count * t->size;
	p->user = (char *)buf;
	p->aux = vp_aux_comm(vpmpi_comm(comm, call));
	p->vtag = tag < VP_TAG_MAX ? tag + 1 : 1; /* the header tells apart */
	p->type = MPI_DATATYPE_NULL;
	if (part_room(p, t) ||
	    (rc = vpmpi_type_private(type, &p->type, call))) {
		part_free(p);
		vpmpi_request_recycle(r);
		return rc ? rc
			  : vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				      "no memory for %d partitions of %ld "
				      "bytes",
				      partitions, (long)count * t->size);
	}
	r->persistent = PERSIST_PART;
	r->part = p;
	r->comm = comm;
	r->peer = peer;
	r->tag = tag;
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Psend_init(const void *buf, int partitions, MPI_Count count,
		   MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		   MPI_Info info, MPI_Request *request)
{
	(void)info; /* no hints taken */
	return part_init(1, buf, partitions, count, type, dest, tag, comm,
			 request, "MPI_Psend_init");
}

int MPI_Precv_init(void *buf, int partitions, MPI_Count count,
		   MPI_Datatype type, int source, int tag, MPI_Comm comm,
		   MPI_Info info, MPI_Request *request)
{
	(void)info;
	return part_init(0, buf, partitions, count, type, source, tag, comm,
			 request, "MPI_Precv_init");
}

/* The receive's next message posted: 0 or vp's error. */
static int post_recv(struct vpmpi_request *r)
{
	struct vpmpi_partitions *p = r->part;

	return vp_irecv(p->aux, r->peer, p->vtag, p->stage,
			sizeof(struct part_hdr) + (size_t)p->nparts * p->pb,
			&p->req[0]);
}

/* MPI_Start of a partitioned request: a new round. */
int vpmpi_part_start(struct vpmpi_request *r)
{
	struct vpmpi_partitions *p = r->part;
	int rc;

	memset(p->flag, 0, (size_t)p->nparts);
	if (p->got)
		memset(p->got, 0, (size_t)p->nparts * sizeof(*p->got));
	p->nready = 0;
	p->msgs = 0;
	p->smsgs = 1; /* until the first header tells */
	p->has_took = 0;
	r->lst = (vp_status){ VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };
	r->ready = 0;
	if (!p->send && r->peer == MPI_PROC_NULL) {
		memset(p->flag, 1, (size_t)p->nparts);
		r->lst = (vp_status){ MPI_PROC_NULL, MPI_ANY_TAG, 0, 0 };
		r->ready = 1;
	} else if (!p->send && (rc = post_recv(r))) {
		return vpmpi_ret(rc);
	}
	r->active = 1;
	return MPI_SUCCESS;
}

/* The partitioned request of a Pready or Parrived call, active, of the
 * side send says; NULL after the error. */
static struct vpmpi_partitions *part_of(MPI_Request r, int send, const char *call)
{
	if (vpmpi_started(call))
		return NULL;
	if (!r || !r->live || !r->part || r->part->send != send) {
		vpmpi_fail(MPI_ERR_REQUEST, call,
			   "the request is %s", !r ? "MPI_REQUEST_NULL"
				: !r->live ? "freed"
				: send ? "not a partitioned send's "
					 "(MPI_Psend_init)"
				       : "not a partitioned receive's "
					 "(MPI_Precv_init)");
		return NULL;
	}
	if (!r->active) {
		vpmpi_err(r->comm, MPI_ERR_REQUEST, call,
			  "the request is inactive: MPI_Start it first");
		return NULL;
	}
	return r->part;
}

static int out_of_range(MPI_Request r, int i, const char *call)
{
	return vpmpi_err(r->comm, MPI_ERR_ARG, call,
			 "partition %d is outside [0, %d)", i,
			 r->part->nparts);
}

/* Partition i marked ready: its bytes leave now. */
static int ready_one(MPI_Request r, int i, const char *call)
{
	struct vpmpi_partitions *p = r->part;
	struct part_hdr h;
	char *m;
	int rc;

	if (i < 0 || i >= p->nparts)
		return out_of_range(r, i, call);
	if (p->flag[i])
		return vpmpi_err(r->comm, MPI_ERR_ARG, call,
				 "partition %d is marked ready already in "
				 "this round",
				 i);
	p->flag[i] = 1;
	p->nready++;
	if (r->peer == MPI_PROC_NULL)
		return MPI_SUCCESS;
	h = (struct part_hdr){ r->tag, (long long)p->nparts * p->pb,
			       p->nparts, (long long)i * p->pb, p->pb };
	m = p->stage + (size_t)i * (sizeof(h) + (size_t)p->pb);
	memcpy(m, &h, sizeof(h));
	if (p->pb)
		vpmpi_pack(vpmpi_lookup(p->type), p->count,
			   p->user + (long)i * p->count *
					 vpmpi_lookup(p->type)->extent,
			   m + sizeof(h));
	rc = vp_isend(p->aux, r->peer, p->vtag, m, sizeof(h) + (size_t)p->pb,
		      &p->req[i]);
	return vpmpi_ret(rc);
}

int MPI_Pready(int partition, MPI_Request request)
{
	if (!part_of(request, 1, "MPI_Pready"))
		return MPI_ERR_REQUEST;
	return ready_one(request, partition, "MPI_Pready");
}

int MPI_Pready_range(int partition_low, int partition_high,
		     MPI_Request request)
{
	static const char call[] = "MPI_Pready_range";
	int i, rc;

	if (!part_of(request, 1, call))
		return MPI_ERR_REQUEST;
	if (partition_low > partition_high)
		return vpmpi_err(request->comm, MPI_ERR_ARG, call,
				 "partition_low %d is above partition_high %d",
				 partition_low, partition_high);
	if (partition_low < 0 || partition_high >= request->part->nparts)
		return out_of_range(request, partition_low < 0 ? partition_low
							       : partition_high,
				    call);
	for (i = partition_low; i <= partition_high; i++)
		if ((rc = ready_one(request, i, call)))
			return rc;
	return MPI_SUCCESS;
}

int MPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
{
	static const char call[] = "MPI_Pready_list";
	int i, rc;

	if (!part_of(request, 1, call))
		return MPI_ERR_REQUEST;
	if (length < 0 || (length && !array_of_partitions))
		return vpmpi_err(request->comm, MPI_ERR_ARG, call,
				 length < 0 ? "length %d is negative"
					    : "the partition array is NULL "
					      "(length %d)",
				 length);
	for (i = 0; i < length; i++)
		if ((rc = ready_one(request, array_of_partitions[i], call)))
			return rc;
	return MPI_SUCCESS;
}

/* A header that does not fit this receive: the error raised. */
static int bad_header(struct vpmpi_request *r, const struct part_hdr *h)
{
	struct vpmpi_partitions *p = r->part;
	long long total = (long long)p->nparts * p->pb;

	if (h->tag != r->tag)
		return vpmpi_err(r->comm, MPI_ERR_OTHER,
				 "MPI_Precv_init's request",
				 "a partitioned message of tag %lld came for "
				 "the receive of tag %d from rank %d: vp "
				 "cannot tell them apart",
				 h->tag, r->tag, r->peer);
	return vpmpi_err(r->comm,
			 h->total > total ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT,
			 "MPI_Precv_init's request",
			 "rank %d sends %lld partitions of %lld bytes (%lld "
			 "in all), this receive takes %d of %ld (%lld): the "
			 "totals differ",
			 r->peer, h->nparts, h->len, h->total, p->nparts,
			 p->pb, total);
}

/* Receive partition j has all its bytes: in the program's buffer. */
static void arrived(struct vpmpi_partitions *p, long j)
{
	const struct vpmpi_type *t = vpmpi_lookup(p->type);

	p->flag[j] = 1;
	if (p->packed != p->user && p->pb)
		vpmpi_unpack(t, p->count, p->packed + j * p->pb, p->pb,
			     p->user + j * p->count * t->extent);
}

/* One message taken (status st): its bytes placed, the partitions it
 * completes arrived, the next message posted. */
static int place(struct vpmpi_request *r, const vp_status *st)
{
	struct vpmpi_partitions *p = r->part;
	struct part_hdr h;
	long long total = (long long)p->nparts * p->pb, end;
	long j;
	int rc;

	memcpy(&h, p->stage, sizeof(h));
	end = h.off + h.len;
	if (h.tag != r->tag || h.total != total || h.off < 0 || h.len < 0 ||
	    end > total || st->bytes != sizeof(h) + (size_t)h.len)
		return bad_header(r, &h);
	memcpy(p->packed + h.off, p->stage + sizeof(h), (size_t)h.len);
	for (j = p->pb ? (long)(h.off / p->pb) : 0;
	     p->pb && j < p->nparts && j * p->pb < end; j++) {
		long long lo = j * p->pb > h.off ? j * p->pb : h.off;
		long long hi = (j + 1) * p->pb < end ? (j + 1) * p->pb : end;

		p->got[j] += (long)(hi - lo);
		if (p->got[j] == p->pb)
			arrived(p, j);
	}
	p->smsgs = h.nparts;
	if (++p->msgs < p->smsgs)
		return (rc = post_recv(r)) ? vpmpi_ret(rc) : MPI_SUCCESS;
	memset(p->flag, 1, (size_t)p->nparts); /* empty ones too */
	r->lst = (vp_status){ r->peer, r->tag, (size_t)total, 0 };
	r->ready = 1;
	return MPI_SUCCESS;
}

static int recv_step(struct vpmpi_request *r, int block)
{
	struct vpmpi_partitions *p = r->part;
	vp_status st;
	int rc, done;

	while (!r->ready) {
		done = 1;
		if (p->has_took) {
			st = p->took;
			p->has_took = 0;
		} else if ((rc = block ? vp_wait(&p->req[0], &st)
				       : vp_test(&p->req[0], &done, &st))) {
			return vpmpi_ret(rc);
		}
		if (!done)
			return MPI_SUCCESS;
		if ((rc = place(r, &st)))
			return rc;
	}
	return MPI_SUCCESS;
}

static int send_step(struct vpmpi_request *r, int block)
{
	struct vpmpi_partitions *p = r->part;
	int rc, done = 1;

	if (p->nready < p->nparts) {
		if (!block)
			return MPI_SUCCESS;
		return vpmpi_err(r->comm, MPI_ERR_REQUEST, "MPI_Wait",
				 "a partitioned send with %d of its %d "
				 "partitions marked ready (MPI_Pready): the "
				 "wait would never end",
				 p->nready, p->nparts);
	}
	rc = block ? vp_waitall(p->nparts, p->req, NULL)
		   : vp_testall(p->nparts, p->req, &done, NULL);
	if (rc)
		return vpmpi_ret(rc);
	r->ready = done;
	return MPI_SUCCESS;
}

int vpmpi_part_step(struct vpmpi_request *r, int block)
{
	return r->part->send ? send_step(r, block) : recv_step(r, block);
}

int vpmpi_part_requests(struct vpmpi_request *r, vp_request **req)
{
	*req = r->part->req;
	return r->part->send ? r->part->nparts : 1;
}

void vpmpi_part_took(struct vpmpi_request *r, int j, const vp_status *st)
{
	r->part->req[j] = VP_REQUEST_NULL;
	if (!r->part->send) {
		r->part->took = *st;
		r->part->has_took = 1;
	}
}

int MPI_Parrived(MPI_Request request, int partition, int *flag)
{
	static const char call[] = "MPI_Parrived";
	struct vpmpi_partitions *p = part_of(request, 0, call);
	int rc;

	if (!p)
		return MPI_ERR_REQUEST;
	if (partition < 0 || partition >= p->nparts)
		return out_of_range(request, partition, call);
	if (!flag)
		return vpmpi_err(request->comm, MPI_ERR_ARG, call,
				 "flag is NULL");
	if (!p->flag[partition] && (rc = recv_step(request, 0)))
		return rc;
	*flag = p->flag[partition];
	return MPI_SUCCESS;
}
