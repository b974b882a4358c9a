/*
 * mpi_grequest.c - generalized requests (MPI 4.0, sec. 13.2): a request
 * whose operation the program runs itself. MPI_Grequest_start makes it
 * with three callbacks; MPI_Grequest_complete marks it complete; the wait
 * or test that then reports it asks the query callback for its status
 * and calls the free callback (MPI_Request_free of a completed one calls
 * the free callback too). MPI_Cancel calls the cancel callback with
 * whether it completed. vp gives MPI_THREAD_SINGLE: nothing but the
 * waiting rank itself can complete the request, so a blocking wait on
 * one not completed fails, saying so, instead of hanging.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

struct vpmpi_greq {
	MPI_Grequest_query_function *query;
	MPI_Grequest_free_function *free_fn;
	MPI_Grequest_cancel_function *cancel;
	void *extra;
	int complete;
};

void vpmpi_status_in(const MPI_Status *in, vp_status *out)
{
	out->source = in->MPI_SOURCE;
	out->tag = in->MPI_TAG;
	out->bytes = in->vpmpi_bytes;
	out->cancelled = in->vpmpi_cancelled;
}

int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
		       MPI_Grequest_free_function *free_fn,
		       MPI_Grequest_cancel_function *cancel_fn,
		       void *extra_state, MPI_Request *request)
{
	static const char call[] = "MPI_Grequest_start";
	struct vpmpi_request *r;
	struct vpmpi_greq *g;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!request || !query_fn || !free_fn || !cancel_fn)
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s is NULL",
				  !request    ? "request pointer"
				  : !query_fn ? "query function"
				  : !free_fn  ? "free function"
					      : "cancel function");
	if (!(g = calloc(1, sizeof(*g))) || !(r = vpmpi_request_new())) {
		free(g);
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a request");
	}
	g->query = query_fn;
	g->free_fn = free_fn;
	g->cancel = cancel_fn;
	g->extra = extra_state;
	r->greq = g;
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Grequest_complete(MPI_Request request)
{
	static const char call[] = "MPI_Grequest_complete";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!request || !request->live || !request->greq)
		return vpmpi_fail(MPI_ERR_REQUEST, call, "the request %s",
				  !request         ? "is MPI_REQUEST_NULL"
				  : !request->live ? "was freed"
						   : "is not a generalized "
						     "request (MPI_Grequest_"
						     "start)");
	if (request->greq->complete)
		return vpmpi_fail(MPI_ERR_REQUEST, call,
				  "the generalized request was completed "
				  "already");
	request->greq->complete = 1;
	return MPI_SUCCESS;
}

int vpmpi_greq_step(struct vpmpi_request *r, int block)
{
	struct vpmpi_greq *g = r->greq;
	MPI_Status st;
	int rc;

	if (!g->complete)
		return block ? vpmpi_fail(MPI_ERR_REQUEST, "MPI_Wait",
					  "waits for a generalized request "
					  "that MPI_Grequest_complete has not "
					  "completed: nothing else can "
					  "complete it (MPI_THREAD_SINGLE)")
			     : MPI_SUCCESS;
	st.MPI_SOURCE = MPI_UNDEFINED;
	st.MPI_TAG = MPI_UNDEFINED;
	st.MPI_ERROR = MPI_SUCCESS;
	st.vpmpi_bytes = 0;
	st.vpmpi_cancelled = 0;
	rc = g->query(g->extra, &st);
	vpmpi_status_in(&st, &r->lst);
	if (!rc)
		rc = g->free_fn(g->extra);
	free(g);
	r->greq = NULL;
	r->ready = 1;
	return rc;
}

int vpmpi_greq_cancel(struct vpmpi_request *r)
{
	return r->greq->cancel(r->greq->extra, r->greq->complete);
}
