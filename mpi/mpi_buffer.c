/*
 * mpi_buffer.c - buffered sends (MPI 4.1, sec. 3.6): MPI_Buffer_attach
 * gives the rank a buffer of a size, and each buffered send (MPI_Bsend,
 * MPI_Ibsend, a started MPI_Bsend_init) takes room in it, its message's
 * packed bytes and MPI_BSEND_OVERHEAD, until the message is delivered
 * (a receive has taken it: the message is sent synchronously, vp_issend,
 * from a copy vp keeps; the attached memory is counted, not written); a
 * send the room left cannot hold fails with MPI_ERR_BUFFER, as in MPICH
 * and Open MPI. The call returns at once whatever the message's size and
 * whether its receive has come.
 * MPI_Buffer_detach, MPI_Buffer_flush and MPI_Finalize wait until every
 * buffered message is delivered; MPI_Buffer_iflush's request completes
 * once those buffered before it are. MPI_Irsend is MPI_Isend (a ready
 * send is a correct standard send).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

/* A buffered message in flight: its copy and the room it takes. */
struct buffered {
	vp_request vr;
	void *copy;
	long room;
	unsigned long seq; /* 1, 2, ... in the order they were sent */
	struct buffered *next;
};

static __thread void *attached;
static __thread int attached_size, has_buffer;
static __thread long used; /* room the messages in flight take */
static __thread unsigned long sent; /* buffered sends so far */
static __thread struct buffered *oldest, *newest;

/* Waits for (block) or tests the messages sent up to seq upto, letting
 * go of those delivered: MPI_SUCCESS or the error raised. */
static int settle(int block, unsigned long upto)
{
	struct buffered **at = &oldest, *b;
	vp_status st;
	int rc, done;

	newest = NULL;
	while ((b = *at)) {
		done = 1;
		if (b->seq <= upto)
			rc = block ? vp_wait(&b->vr, &st)
				   : vp_test(&b->vr, &done, &st);
		else
			rc = done = 0;
		if (rc)
			return vpmpi_ret(rc);
		if (!done) {
			newest = b;
			at = &b->next;
			continue;
		}
		*at = b->next;
		used -= b->room;
		free(b->copy);
		free(b);
	}
	return MPI_SUCCESS;
}

int vpmpi_bsend(vp_comm *c, MPI_Comm comm, int dest, int tag,
		const void *bytes, long n, void *tmp, const char *call)
{
	long room = n + MPI_BSEND_OVERHEAD;
	struct buffered *b;
	int rc;

	if (used + room > attached_size && (rc = settle(0, sent)))
		return free(tmp), rc;
	if (used + room > attached_size) {
		free(tmp);
		return vpmpi_err(comm, MPI_ERR_BUFFER, call,
				 "a %ld-byte message needs %ld bytes of the "
				 "attached buffer (with MPI_BSEND_OVERHEAD), "
				 "%ld of its %d are free%s",
				 n, room, attached_size - used, attached_size,
				 has_buffer ? "" : " (none is attached: "
						   "MPI_Buffer_attach)");
	}
	if (!tmp && (tmp = malloc(n ? (size_t)n : 1)))
		memcpy(tmp, bytes, (size_t)n);
	if (!tmp || !(b = malloc(sizeof(*b)))) {
		free(tmp);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a %ld-byte buffered send", n);
	}
	if ((rc = vp_issend(c, dest, tag, tmp, (size_t)n, &b->vr))) {
		free(tmp);
		free(b);
		return vpmpi_ret(rc);
	}
	b->copy = tmp;
	b->room = room;
	b->seq = ++sent;
	b->next = NULL;
	*(newest ? &newest->next : &oldest) = b;
	newest = b;
	used += room;
	return MPI_SUCCESS;
}

int vpmpi_bsend_drain(void)
{
	return settle(1, sent);
}

int vpmpi_bflush_step(struct vpmpi_request *r, int block)
{
	int rc = settle(block, r->bflush - 1);

	if (rc == MPI_SUCCESS && (!oldest || oldest->seq >= r->bflush)) {
		r->bflush = 0;
		r->ready = 1; /* its status: the empty one */
	}
	return rc;
}

int MPI_Buffer_attach(void *buffer, int size)
{
	static const char call[] = "MPI_Buffer_attach";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (size < 0 || (size > 0 && !buffer))
		return vpmpi_fail(MPI_ERR_BUFFER, call,
				  size < 0 ? "size %d is negative"
					   : "the buffer is NULL (size %d)",
				  size);
	if (has_buffer)
		return vpmpi_fail(MPI_ERR_BUFFER, call,
				  "a buffer is attached already (%d bytes): "
				  "MPI_Buffer_detach it first",
				  attached_size);
	attached = buffer;
	attached_size = size;
	has_buffer = 1;
	return MPI_SUCCESS;
}

/* Waits until every buffered message is delivered (MPI 4.1 sec. 3.6.1). */
int MPI_Buffer_detach(void *buffer_addr, int *size)
{
	static const char call[] = "MPI_Buffer_detach";
	int rc;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!buffer_addr || !size)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the buffer address or size pointer is NULL");
	if ((rc = settle(1, sent)))
		return rc;
	/* with none attached: NULL and 0, as MPICH and Open MPI answer */
	*(void **)buffer_addr = has_buffer ? attached : NULL;
	*size = has_buffer ? attached_size : 0;
	attached = NULL;
	attached_size = has_buffer = 0;
	return MPI_SUCCESS;
}

int MPI_Buffer_flush(void)
{
	if (vpmpi_started("MPI_Buffer_flush"))
		return MPI_ERR_OTHER;
	return settle(1, sent);
}

int MPI_Buffer_iflush(MPI_Request *request)
{
	static const char call[] = "MPI_Buffer_iflush";
	struct vpmpi_request *r;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!request)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the request pointer is NULL");
	if (!(r = vpmpi_request_new()))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a request");
	r->bflush = sent + 1;
	*request = r;
	return MPI_SUCCESS;
}

/* A buffered send is complete once its message is in the buffer: its
 * request is complete from the start. */
int vpmpi_ibsend_c(const void *buf, long count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request,
		   const char *call)
{
	static const vp_status sent_st = { VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };
	int rc;

	if (!request)
		return vpmpi_err(comm, MPI_ERR_REQUEST, call,
				 "the request pointer is NULL");
	if ((rc = vpmpi_bsend_as(buf, count, type, dest, tag, comm, call)))
		return rc;
	*request = vpmpi_request_done(&sent_st, comm, call);
	if (!*request)
		return MPI_ERR_NO_MEM;
	(*request)->send_done = 1;
	return MPI_SUCCESS;
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_ibsend_c(buf, count, type, dest, tag, comm, request,
			      "MPI_Ibsend");
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return MPI_Isend(buf, count, type, dest, tag, comm, request);
}
