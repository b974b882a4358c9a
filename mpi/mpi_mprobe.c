/*
 * mpi_mprobe.c - matched probes (MPI 4.0, sec. 3.8.2): MPI_Mprobe and
 * MPI_Improbe find a message as MPI_Probe does and take it off the
 * matching queue at once, so no other probe or receive can match it;
 * MPI_Mrecv and MPI_Imrecv receive exactly that message. The layer takes
 * the message with a receive of its length into a buffer of its own (vp
 * has no queue a message could wait in, matched but not received) and
 * MPI_Mrecv copies, or unpacks, it into the program's buffer: one copy
 * more than a plain receive. An MPI_Imrecv completes at the call.
 * A matched message is received as bytes: the element kinds of the send
 * and of the MPI_Mrecv are not compared (MPI's type matching is checked
 * on the other receives). MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC,
 * whose receive completes at once with an empty status.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

struct vpmpi_message {
	vp_status st; /* its source, tag and length */
	void *bytes;  /* the message (NULL: empty) */
	MPI_Comm comm;
};

/* the rank's matched messages by handle (from FIRST on); 0 and 1 are
 * MPI_MESSAGE_NULL and MPI_MESSAGE_NO_PROC */
#define FIRST 2
static __thread struct vpmpi_message **msgs;
static __thread int nmsgs;

/* A handle for m, or -1 (no memory). */
static int put(struct vpmpi_message *m)
{
	struct vpmpi_message **grown;
	int h, n;

	for (h = 0; h < nmsgs; h++)
		if (!msgs[h]) {
			msgs[h] = m;
			return h + FIRST;
		}
	n = nmsgs ? 2 * nmsgs : 16;
	if (!(grown = realloc(msgs, (size_t)n * sizeof(*grown))))
		return -1;
	for (h = nmsgs; h < n; h++)
		grown[h] = NULL;
	msgs = grown;
	msgs[nmsgs] = m;
	h = nmsgs + FIRST;
	nmsgs = n;
	return h;
}

/* The message of handle h, or NULL. */
static struct vpmpi_message *get(MPI_Message h)
{
	return h >= FIRST && h - FIRST < nmsgs ? msgs[h - FIRST] : NULL;
}

void vpmpi_messages_free(void)
{
	for (int h = 0; h < nmsgs; h++)
		if (msgs[h]) {
			free(msgs[h]->bytes);
			free(msgs[h]);
		}
	free(msgs);
	msgs = NULL;
	nmsgs = 0;
}

MPI_Fint MPI_Message_c2f(MPI_Message message)
{
	return message;
}

MPI_Message MPI_Message_f2c(MPI_Fint message)
{
	return message;
}

MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
	return message;
}

MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
	return message;
}

static const vp_status proc_null = { VP_PROC_NULL, VP_ANY_TAG, 0, 0 };

/* Takes the message *st describes off c's queue into a message object:
 * MPI_SUCCESS, or the error raised. */
static int take(vp_comm *c, MPI_Comm comm, const vp_status *st,
		MPI_Message *message, const char *call)
{
	struct vpmpi_message *m = malloc(sizeof(*m));
	vp_status got = *st;
	int rc;

	if (m)
		m->bytes = st->bytes ? malloc(st->bytes) : NULL;
	if (!m || (st->bytes && !m->bytes)) {
		free(m);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a %zu-byte message", st->bytes);
	}
	vp_msg_types(c, NULL, NULL); /* bytes: the kinds are not compared */
	rc = vp_recv_tag(c, st->source, st->tag, m->bytes, st->bytes, &got);
	if (rc) {
		free(m->bytes);
		free(m);
		return vpmpi_ret(rc);
	}
	m->st = got;
	m->comm = comm;
	if ((*message = put(m)) < 0) {
		free(m->bytes);
		free(m);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for a message handle");
	}
	return MPI_SUCCESS;
}

/* The communicator of a matched probe with its source and tag checked,
 * or NULL with *rc the error. */
static vp_comm *args(int source, int tag, MPI_Comm comm, MPI_Message *message,
		     int *rc, const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);

	*rc = MPI_ERR_COMM;
	if (!c)
		return NULL;
	if ((*rc = vpmpi_check_rank(comm, c, source, 1, call, "source")) ||
	    (*rc = vpmpi_check_tag(comm, tag, 1, call)))
		return NULL;
	if (!message) {
		*rc = vpmpi_err(comm, MPI_ERR_ARG, call,
				"the message pointer is NULL");
		return NULL;
	}
	return c;
}

static int probe(int source, int tag, MPI_Comm comm, int *flag,
		 MPI_Message *message, MPI_Status *status, const char *call)
{
	vp_status st = proc_null;
	vp_comm *c;
	int rc, found = 1;

	if (!(c = args(source, tag, comm, message, &rc, call)))
		return rc;
	if (flag)
		*flag = 0;
	if (source == MPI_PROC_NULL) {
		*message = MPI_MESSAGE_NO_PROC;
	} else {
		rc = flag ? vp_iprobe(c, source, tag, &found, &st)
			  : vp_probe(c, source, tag, &st);
		if (rc)
			return vpmpi_ret(rc);
		if (!found)
			return MPI_SUCCESS;
		if ((rc = take(c, comm, &st, message, call)))
			return rc;
		st = get(*message)->st;
	}
	if (flag)
		*flag = 1;
	vpmpi_status(&st, VP_OK, status);
	return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status)
{
	return probe(source, tag, comm, NULL, message, status, "MPI_Mprobe");
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
		MPI_Message *message, MPI_Status *status)
{
	if (!flag)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Improbe", "flag is NULL");
	return probe(source, tag, comm, flag, message, status, "MPI_Improbe");
}

/* Receives *message into buf: its status in *st; MPI_SUCCESS or the
 * error raised. */
static int receive(void *buf, int count, MPI_Datatype type,
		   MPI_Message *message, vp_status *st, const char *call)
{
	struct vpmpi_message *m;
	const struct vpmpi_type *t;
	long n;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!message || *message == MPI_MESSAGE_NULL)
		return vpmpi_fail(MPI_ERR_REQUEST, call, "the message is %s",
				  message ? "MPI_MESSAGE_NULL"
					  : "a NULL pointer");
	if (*message == MPI_MESSAGE_NO_PROC) {
		*st = proc_null;
		*message = MPI_MESSAGE_NULL;
		return MPI_SUCCESS;
	}
	if (!(m = get(*message)))
		return vpmpi_fail(MPI_ERR_REQUEST, call,
				  "message %d is not a matched message of "
				  "this rank (received already?)",
				  *message);
	if ((n = vpmpi_bytes(m->comm, count, type, call)) < 0)
		return MPI_ERR_TYPE;
	if ((long)m->st.bytes > n)
		return vpmpi_err(m->comm, MPI_ERR_TRUNCATE, call,
				 "the message from rank %d (tag %d) holds %zu "
				 "bytes, the receive takes %ld",
				 m->st.source, m->st.tag, m->st.bytes, n);
	if (m->st.bytes && !buf)
		return vpmpi_err(m->comm, MPI_ERR_BUFFER, call,
				 "buffer is NULL for %d items", count);
	t = vpmpi_type_any(type, call);
	if (m->st.bytes && vpmpi_dense(t))
		memcpy(buf, m->bytes, m->st.bytes);
	else if (m->st.bytes)
		vpmpi_unpack(t, count, m->bytes, (long)m->st.bytes, buf);
	*st = m->st;
	free(m->bytes);
	free(m);
	msgs[*message - FIRST] = NULL;
	*message = MPI_MESSAGE_NULL;
	return MPI_SUCCESS;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	      MPI_Status *status)
{
	vp_status st;
	int rc = receive(buf, count, type, message, &st, "MPI_Mrecv");

	if (!rc)
		vpmpi_status(&st, VP_OK, status);
	return rc;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	       MPI_Request *request)
{
	vp_status st;
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Imrecv",
				  "the request pointer is NULL");
	if ((rc = receive(buf, count, type, message, &st, "MPI_Imrecv")))
		return rc;
	*request = vpmpi_request_done(&st, MPI_COMM_WORLD, "MPI_Imrecv");
	return *request ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}
