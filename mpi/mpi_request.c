/*
 * mpi_request.c - MPI requests on vp's: an MPI_Request wraps a vp_request
 * with what completion must do besides (unpack a derived datatype's
 * message into the user's buffer, free a packed copy). Requests come from
 * a per-rank pool (no malloc per message) and go back to it when they
 * complete; the handle becomes MPI_REQUEST_NULL, as in MPI. A handle used
 * after it completed (a stale copy) fails the call naming it: a freed
 * request waits behind QUARANTINE others before it is used again, so a
 * stale copy is caught for at least that many newer requests. A request
 * named twice in one array call is refused (each is marked with the
 * call's stamp, one pass).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

#define POOL_BLOCK 64
#define QUARANTINE 256

static const vp_status no_status = { VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };

struct vpmpi_request *vpmpi_request_new(void)
{
	struct vpmpi_request *r = vpmpi_me.free_reqs, *block;
	int i;

	if (vpmpi_me.nfree <= QUARANTINE) {
		/* a fresh block, its requests queued behind the freed ones */
		if (!(block = calloc(POOL_BLOCK, sizeof(*block))))
			return NULL;
		block[0].block_next = vpmpi_me.all_reqs;
		vpmpi_me.all_reqs = block;
		for (i = 1; i < POOL_BLOCK; i++)
			vpmpi_request_recycle(&block[i]);
		r = block;
	} else {
		vpmpi_me.free_reqs = r->next;
		vpmpi_me.nfree--;
	}
	r->vr = VP_REQUEST_NULL;
	r->tmp = r->user = NULL;
	r->type = NULL;
	r->count = r->recv = 0;
	r->persistent = r->active = 0;
	r->nbc = NULL;
	r->pcoll = NULL;
	r->greq = NULL;
	r->part = NULL;
	r->bflush = 0;
	r->src_off = 0;
	r->lst = no_status;
	r->ready = 0;
	r->send_done = 0;
	r->live = 1;
	return r;
}

/* Into the queue's tail: the oldest freed request is used first. */
void vpmpi_request_recycle(struct vpmpi_request *r)
{
	r->live = 0;
	r->next = NULL;
	if (vpmpi_me.free_reqs)
		vpmpi_me.free_tail->next = r;
	else
		vpmpi_me.free_reqs = r;
	vpmpi_me.free_tail = r;
	vpmpi_me.nfree++;
}

/* 1 if r has a communication to complete: not null, and not an inactive
 * persistent request (which MPI's waits and tests treat as null). */
static int pending(const struct vpmpi_request *r)
{
	return r && (!r->persistent || r->active);
}

/* The handle after its request completed: MPI_REQUEST_NULL, except a
 * persistent request's, which stays for the next MPI_Start. */
static void settle(MPI_Request *slot)
{
	if (*slot && !(*slot)->persistent)
		*slot = MPI_REQUEST_NULL;
}

void vpmpi_requests_free(void)
{
	struct vpmpi_request *b = vpmpi_me.all_reqs, *next;
	int i;

	for (; b; b = next) {
		next = b[0].block_next;
		for (i = 0; i < POOL_BLOCK; i++) /* never freed: partitions */
			if (b[i].live && b[i].part)
				vpmpi_part_free(&b[i]);
		free(b);
	}
	vpmpi_me.all_reqs = vpmpi_me.free_reqs = vpmpi_me.free_tail = NULL;
	vpmpi_me.nfree = 0;
}

/* The request completed with status st: unpack or free what it kept,
 * give it back to the pool, fill MPI's status. */
static void finish(struct vpmpi_request *r, const vp_status *st, int rc,
		   MPI_Status *status)
{
	vp_status lst = *st;

	if (r->ready) { /* completed in the layer: its own status (empty
			 * for a nonblocking collective) */
		lst = r->lst;
		r->ready = 0;
		r->lst = no_status;
	}
	vpmpi_inter_source(r->src_off, &lst); /* an intercommunicator's */
	st = &lst;
	if (r->tmp || r->type) { /* a packed copy, a derived type held */
		if (r->recv)
			vpmpi_recv_done(r->tmp, r->user, r->count, r->type,
					(long)st->bytes);
		else
			free(r->tmp);
		vpmpi_type_release(r->type);
		r->tmp = NULL;
		r->type = NULL;
	}
	if (r->persistent)
		r->active = 0; /* inactive until the next MPI_Start */
	else
		vpmpi_request_recycle(r);
	vpmpi_status(st, rc, status);
}

/* A null request's status (MPI 4.0 sec. 3.7.3, the empty status: source
 * MPI_ANY_SOURCE, tag MPI_ANY_TAG, error MPI_SUCCESS, count 0). */
static void empty(MPI_Status *status)
{
	vpmpi_status(&no_status, VP_OK, status);
	if (status)
		status->MPI_ERROR = MPI_SUCCESS;
}

/* 0 if every non-null request is live and none comes twice, else the
 * error raised. A mark equal to this call's stamp may be left from 2^32
 * calls ago: the earlier entries are searched before it counts. */
static int check_live(int n, MPI_Request reqs[], const char *call)
{
	unsigned stamp;
	int i, j;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	vpmpi_calling(call);
	if (n < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %d is negative",
				  n);
	if (n && !reqs)
		return vpmpi_fail(MPI_ERR_REQUEST, call,
				  "the request array is NULL");
	for (i = 0; i < n; i++)
		if (reqs[i] && !reqs[i]->live)
			return vpmpi_fail(MPI_ERR_REQUEST, call,
					  "request %d already completed (a "
					  "copy of a handle that was waited "
					  "for?)",
					  i);
	if (n < 2)
		return MPI_SUCCESS;
	if (!(stamp = ++vpmpi_me.req_stamp))
		stamp = vpmpi_me.req_stamp = 1;
	for (i = 0; i < n; i++) {
		if (!reqs[i])
			continue;
		if (reqs[i]->mark == stamp)
			for (j = 0; j < i; j++)
				if (reqs[j] == reqs[i])
					return vpmpi_fail(
					    MPI_ERR_REQUEST, call,
					    "requests %d and %d are the same "
					    "request: an array may name a "
					    "request once",
					    j, i);
		reqs[i]->mark = stamp;
	}
	return MPI_SUCCESS;
}

/* Waits for (block) or tests a collective's messages; *done 1 when all
 * are. Those completed before (by MPI_Waitany's vp_waitany) keep their
 * statuses: vp_waitall and vp_testall give a completed (null) request an
 * empty one. */
static int nbc_all(int n, vp_request *req, vp_status *st, int block,
		   int *done)
{
	vp_status few[16], *now = few;
	char live_few[16], *live = live_few;
	int i, rc;

	if (n > 16) {
		now = malloc((size_t)n * sizeof(*now));
		live = malloc((size_t)n);
	}
	if (!now || !live) {
		if (now != few)
			free(now);
		if (live != live_few)
			free(live);
		return vpmpi_fail(MPI_ERR_NO_MEM, "a nonblocking collective",
				  "no memory for %d statuses", n);
	}
	for (i = 0; i < n; i++)
		live[i] = req[i] != VP_REQUEST_NULL;
	rc = block ? vp_waitall(n, req, now) : vp_testall(n, req, done, now);
	for (i = 0; !rc && *done && i < n; i++)
		if (live[i])
			st[i] = now[i];
	if (now != few)
		free(now);
	if (live != live_few)
		free(live);
	return vpmpi_ret(rc);
}

/* A nonblocking collective's request: wait for (block) or test its
 * messages; once all are done it is finished (unpacked, combined) and
 * ready. MPI_SUCCESS or the error. */
static int nbc_step(struct vpmpi_request *r, int block)
{
	vp_request *req;
	vp_status *st;
	int n, rc, done = 1;

	if (r->ready)
		return MPI_SUCCESS;
	if (r->greq)
		return vpmpi_greq_step(r, block);
	if (r->part)
		return vpmpi_part_step(r, block);
	if (r->bflush)
		return vpmpi_bflush_step(r, block);
	n = vpmpi_nbc_requests(r->nbc, &req);
	st = vpmpi_nbc_statuses(r->nbc);
	rc = nbc_all(n, req, st, block, &done);
	if (rc || !done)
		return rc;
	rc = vpmpi_nbc_finish(r->nbc);
	r->nbc = NULL;
	r->ready = 1;
	return rc;
}

/* 1 if r is a nonblocking collective's request not reported yet, or
 * one the layer completes itself */
static int is_nbc(const struct vpmpi_request *r)
{
	return r && (r->nbc || r->ready || r->greq || r->bflush || r->part);
}

struct vpmpi_request *vpmpi_request_done(const vp_status *st, MPI_Comm comm,
					 const char *call)
{
	struct vpmpi_request *r = vpmpi_request_new();

	if (!r) {
		vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory for a request");
		return NULL;
	}
	r->lst = *st;
	r->ready = 1;
	return r;
}

/* vp's requests of an MPI array, in buf when it is large enough. */
static vp_request *vp_requests(int n, MPI_Request reqs[], vp_request *buf,
			       int nbuf, const char *call)
{
	vp_request *v = n <= nbuf ? buf : malloc((size_t)n * sizeof(*v));
	int i;

	if (!v) {
		vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for %d requests",
			   n);
		return NULL;
	}
	for (i = 0; i < n; i++)
		v[i] = pending(reqs[i]) && !is_nbc(reqs[i]) ? reqs[i]->vr
							    : VP_REQUEST_NULL;
	return v;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
	vp_status st = no_status;
	struct vpmpi_request *r;
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Wait",
				  "the request pointer is NULL");
	if ((rc = check_live(1, request, "MPI_Wait")))
		return rc;
	if (!pending(r = *request)) {
		empty(status);
		return MPI_SUCCESS;
	}
	if (is_nbc(r)) {
		if ((rc = nbc_step(r, 1)))
			return rc;
	} else if ((rc = vp_wait(&r->vr, &st))) {
		return vpmpi_ret(rc);
	}
	finish(r, &st, rc, status);
	settle(request);
	return MPI_SUCCESS;
}

/* MPI_Waitall and MPI_Testall: vp's call on vp's requests, then every
 * completed request finished (when all are: *flag). */
static int all_of(int count, MPI_Request requests[], int *flag,
		  MPI_Status statuses[], const char *call)
{
	vp_request buf[64], *v;
	vp_status sbuf[64], *sts;
	int rc, i, done = 1;

	if ((rc = check_live(count, requests, call)))
		return rc;
	if (!(v = vp_requests(count, requests, buf, 64, call)))
		return MPI_ERR_NO_MEM;
	sts = count <= 64 ? sbuf : malloc((size_t)count * sizeof(*sts));
	if (!sts) {
		if (v != buf)
			free(v);
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for %d statuses", count);
	}
	/* the nonblocking collectives first, one by one: none needs
	 * another's progress (mpi_icoll.c) */
	for (i = 0; i < count; i++)
		if (pending(requests[i]) && is_nbc(requests[i])) {
			if ((rc = nbc_step(requests[i], !flag)))
				return rc;
			done &= requests[i]->ready;
		}
	if (done)
		rc = flag ? vp_testall(count, v, &done, sts)
			  : vp_waitall(count, v, sts);
	if (rc)
		return vpmpi_ret(rc);
	for (i = 0; done && i < count; i++) {
		MPI_Status *s = statuses ? &statuses[i] : MPI_STATUS_IGNORE;

		if (pending(requests[i]))
			finish(requests[i], &sts[i], VP_OK, s);
		else
			empty(s);
		settle(&requests[i]);
	}
	if (flag)
		*flag = done;
	if (v != buf)
		free(v);
	if (sts != sbuf)
		free(sts);
	return MPI_SUCCESS;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
	return all_of(count, requests, NULL, statuses, "MPI_Waitall");
}

/*
 * The vp requests wait_any_nbc waits on: each pending point-to-point
 * request's, and each live message of each pending collective; the
 * MPI request of v[k] is owner[k], which[k] its message (-1: the request
 * itself; -2 - j: a partitioned request's vp request j); *n of them. A collective all of whose messages are done takes
 * its next step; one that is then complete is the answer (*index) and
 * ends the search.
 */
static int live_requests(int count, MPI_Request requests[], vp_request *v,
			 int *owner, int *which, int *n, int *index)
{
	vp_request *sub;
	int i, j, k = 0, rc;

	for (i = 0; i < count; i++) {
		struct vpmpi_request *r = requests[i];

		if (!pending(r))
			continue;
		if (!is_nbc(r)) {
			v[k] = r->vr;
			owner[k] = i;
			which[k++] = -1;
			continue;
		}
		if ((r->greq || r->part) && (rc = nbc_step(r, 0)))
			return rc;
		if (r->greq && !r->ready)
			continue; /* completed by MPI_Grequest_complete */
		for (j = 0; r->part && !r->ready &&
			    j < vpmpi_part_requests(r, &sub); j++)
			if (sub[j] != VP_REQUEST_NULL) {
				v[k] = sub[j];
				owner[k] = i;
				which[k++] = -2 - j;
			}
		if (r->part && !r->ready)
			continue;
		if (!r->ready) { /* all its messages done already? */
			int m = vpmpi_nbc_requests(r->nbc, &sub), live;

			for (j = 0, live = 0; j < m; j++)
				live += sub[j] != VP_REQUEST_NULL;
			if (!live && (rc = nbc_step(r, 1)))
				return rc;
		}
		if (r->ready) { /* report it now */
			*index = i;
			break;
		}
		for (j = 0; j < vpmpi_nbc_requests(r->nbc, &sub); j++)
			if (sub[j] != VP_REQUEST_NULL) {
				v[k] = sub[j];
				owner[k] = i;
				which[k++] = j;
			}
	}
	*n = k;
	return MPI_SUCCESS;
}

/*
 * MPI_Waitany among requests some of which are nonblocking collectives:
 * every vp request of every pending MPI request in one array for
 * vp_waitany; a collective's request is done when its last message is.
 */
static int wait_any_nbc(int count, MPI_Request requests[], int *index,
			MPI_Status *status, const char *call)
{
	vp_status st = no_status;
	vp_request *v, *sub;
	int *owner, *which, total = 0, i, k, n, rc = MPI_SUCCESS;

	for (i = 0; i < count; i++)
		if (pending(requests[i]))
			total +=
			    requests[i]->part
				? vpmpi_part_requests(requests[i], &sub)
			    : is_nbc(requests[i]) && requests[i]->nbc
				? vpmpi_nbc_requests(requests[i]->nbc, &sub)
				: 1;
	v = malloc(((size_t)total + 1) * sizeof(*v));
	owner = malloc(2 * ((size_t)total + 1) * sizeof(int));
	if (!v || !owner) {
		free(v);
		free(owner);
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for %d requests", total);
	}
	which = owner + total + 1;
	for (*index = MPI_UNDEFINED; *index == MPI_UNDEFINED;) {
		if ((rc = live_requests(count, requests, v, owner, which, &n,
					index)))
			goto out;
		if (*index != MPI_UNDEFINED || !n)
			break;
		if ((rc = vp_waitany(n, v, &k, &st))) {
			rc = vpmpi_ret(rc);
			goto out;
		}
		if (k < 0)
			break;
		i = owner[k];
		if (which[k] <= -2) { /* a partitioned request's message */
			vpmpi_part_took(requests[i], -2 - which[k], &st);
			continue;
		}
		if (which[k] < 0) { /* a point-to-point request */
			finish(requests[i], &st, VP_OK, status);
			settle(&requests[i]);
			*index = i;
			goto out;
		}
		vpmpi_nbc_requests(requests[i]->nbc, &sub);
		sub[which[k]] = VP_REQUEST_NULL; /* completed by vp_waitany */
		vpmpi_nbc_statuses(requests[i]->nbc)[which[k]] = st;
	}
	if (*index == MPI_UNDEFINED) {
		for (i = 0; i < count; i++)
			if (pending(requests[i]) &&
			    (requests[i]->greq || requests[i]->part)) {
				rc = nbc_step(requests[i], 1); /* fails */
				goto out;
			}
		empty(status);
	} else {
		finish(requests[*index], &st, VP_OK, status);
		settle(&requests[*index]);
	}
out:
	free(v);
	free(owner);
	return rc;
}

static int wait_any(int count, MPI_Request requests[], int *index,
		    MPI_Status *status, const char *call)
{
	vp_request buf[64], *v;
	vp_status st = no_status;
	int rc, i;

	if ((rc = check_live(count, requests, call)))
		return rc;
	for (i = 0; i < count; i++)
		if (pending(requests[i]) && is_nbc(requests[i]))
			return wait_any_nbc(count, requests, index, status,
					    call);
	if (!(v = vp_requests(count, requests, buf, 64, call)))
		return MPI_ERR_NO_MEM;
	rc = vp_waitany(count, v, index, &st);
	if (rc)
		return vpmpi_ret(rc);
	if (*index < 0) {
		*index = MPI_UNDEFINED;
		empty(status);
	} else {
		finish(requests[*index], &st, VP_OK, status);
		settle(&requests[*index]);
	}
	if (v != buf)
		free(v);
	return MPI_SUCCESS;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index,
		MPI_Status *status)
{
	return wait_any(count, requests, index, status, "MPI_Waitany");
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	vp_status st = no_status;
	struct vpmpi_request *r;
	int rc;

	if (!request || !flag)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Test", "the %s is NULL",
				  !request ? "request pointer" : "flag");
	if ((rc = check_live(1, request, "MPI_Test")))
		return rc;
	if (!pending(r = *request)) {
		*flag = 1;
		empty(status);
		return MPI_SUCCESS;
	}
	if (is_nbc(r)) {
		if ((rc = nbc_step(r, 0)))
			return rc;
		*flag = r->ready;
	} else if ((rc = vp_test(&r->vr, flag, &st))) {
		return vpmpi_ret(rc);
	}
	if (*flag) {
		finish(r, &st, VP_OK, status);
		settle(request);
	}
	return MPI_SUCCESS;
}

/* MPI_Waitsome: waits for one (vp_waitany), then takes every other one
 * already done (vp_test), so all that completed are reported at once. */
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	int first, i, done, rc;

	if ((rc = wait_any(incount, requests, &first,
			   statuses ? &statuses[0] : MPI_STATUS_IGNORE,
			   "MPI_Waitsome")))
		return rc;
	if (first == MPI_UNDEFINED) {
		*outcount = MPI_UNDEFINED;
		return MPI_SUCCESS;
	}
	indices[0] = first;
	*outcount = 1;
	for (i = 0; i < incount; i++) {
		if (!pending(requests[i]) || i == first)
			continue;
		rc = MPI_Test(&requests[i], &done,
			      statuses ? &statuses[*outcount]
				       : MPI_STATUS_IGNORE);
		if (rc)
			return rc;
		if (done)
			indices[(*outcount)++] = i;
	}
	return MPI_SUCCESS;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag,
		MPI_Status statuses[])
{
	if (!flag)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Testall", "flag is NULL");
	return all_of(count, requests, flag, statuses, "MPI_Testall");
}

/* ---- freeing a request (MPI 3.1 sec. 3.7.3) ---- */

/* Requests freed while their communication was pending, completed by
 * MPI_Finalize (vpmpi_requests_drain). */
static __thread struct vpmpi_request *detached;

int MPI_Request_free(MPI_Request *request)
{
	struct vpmpi_request *r;
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Request_free",
				  "the request pointer is NULL");
	if ((rc = check_live(1, request, "MPI_Request_free")))
		return rc;
	if (!(r = *request))
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Request_free",
				  "the request is MPI_REQUEST_NULL");
	if (r->pcoll && pending(r))
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Request_free",
				  "the persistent collective request is "
				  "active: complete it first (MPI 4.0 sec. "
				  "6.13)");
	if (r->part && pending(r))
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Request_free",
				  "the partitioned request is active: "
				  "complete it first (MPI 4.0 sec. 4.2.2)");
	if (r->pcoll)
		vpmpi_pcoll_free(r);
	else if (r->part)
		vpmpi_part_free(r);
	else if (r->persistent)
		vpmpi_type_private_free(r->ptype);
	if (pending(r)) { /* it completes on its own: MPI_Finalize waits */
		r->persistent = 0;
		r->next = detached;
		detached = r;
	} else {
		vpmpi_request_recycle(r);
	}
	*request = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

/* A receive no message has matched is taken back (vp_cancel); a matched
 * receive and a send complete as usual, which MPI allows (MPI standard,
 * sec. 3.8.4); MPI_Test_cancelled on the completed request's status tells
 * which. A nonblocking collective's request cannot be cancelled. */
int MPI_Cancel(MPI_Request *request)
{
	struct vpmpi_request *r;
	int rc;

	if (!request)
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Cancel",
				  "the request pointer is NULL");
	if ((rc = check_live(1, request, "MPI_Cancel")))
		return rc;
	if (!(r = *request))
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Cancel",
				  "the request is MPI_REQUEST_NULL");
	if (r->greq)
		return vpmpi_greq_cancel(r);
	if (r->part)
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Cancel",
				  "vp does not cancel a partitioned request");
	if (r->ready && !r->nbc && !r->pcoll &&
	    (r->send_done || r->lst.source != VP_ANY_SOURCE))
		return MPI_SUCCESS; /* completed already: nothing to take back */
	if (is_nbc(r))
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Cancel",
				  "a nonblocking collective's request cannot "
				  "be cancelled");
	if (!pending(r))
		return vpmpi_fail(MPI_ERR_REQUEST, "MPI_Cancel",
				  "the persistent request is inactive (not "
				  "started)");
	return vpmpi_ret(vp_cancel(&r->vr));
}

/* MPI_Request_get_status (MPI 4.0 sec. 3.7.3): MPI_Test that leaves the
 * request as it is. A request found done is completed underneath and
 * kept ready with its status, which its wait or test reports later. */
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
	static const char call[] = "MPI_Request_get_status";
	vp_status st = no_status;
	struct vpmpi_request *r = request;
	int rc;

	if (!flag)
		return vpmpi_fail(MPI_ERR_ARG, call, "flag is NULL");
	if ((rc = check_live(1, &request, call)))
		return rc;
	*flag = 1;
	if (!pending(r)) {
		empty(status);
		return MPI_SUCCESS;
	}
	if (is_nbc(r)) {
		if ((rc = nbc_step(r, 0)))
			return rc;
		*flag = r->ready;
		st = r->lst;
	} else {
		if ((rc = vp_test(&r->vr, flag, &st)))
			return vpmpi_ret(rc);
		if (*flag) { /* keep its status for the wait */
			r->lst = st;
			r->ready = 1;
		}
	}
	vpmpi_inter_source(r->src_off, &st);
	if (*flag)
		vpmpi_status(&st, VP_OK, status);
	return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
	if (vpmpi_started("MPI_Test_cancelled"))
		return MPI_ERR_OTHER;
	if (!status || !flag)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Test_cancelled",
				  "the %s pointer is NULL",
				  status ? "flag" : "status");
	*flag = status->vpmpi_cancelled;
	return MPI_SUCCESS;
}

int vpmpi_requests_drain(void)
{
	while (detached) {
		struct vpmpi_request *r = detached;
		vp_status st = no_status;
		int rc;

		detached = r->next;
		if (is_nbc(r))
			rc = nbc_step(r, 1);
		else if ((rc = vp_wait(&r->vr, &st)))
			rc = vpmpi_ret(rc);
		if (rc)
			return rc;
		finish(r, &st, VP_OK, MPI_STATUS_IGNORE);
	}
	return MPI_SUCCESS;
}
