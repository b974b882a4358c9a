/*
 * mpi_p2p.c - MPI point to point on vp: a message of count elements is
 * count * size bytes sent with vp's tagged calls; requests are vp's own
 * (MPI_Request is vp_request), so MPI's completion rules are vp's: a
 * completed request becomes MPI_REQUEST_NULL, waiting on it returns at
 * once, a rank returning with requests pending fails the run.
 * MPI_Bsend and MPI_Rsend are MPI_Send (vp buffers every eager message and
 * a ready send is a correct standard send). MPI_Ssend is not in this part.
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

static const vp_status no_status = { VP_ANY_SOURCE, VP_ANY_TAG, 0 };

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	     MPI_Comm comm)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Send");
	long n = vpmpi_bytes(count, type, "MPI_Send");

	if (!c || n < 0)
		return c ? MPI_ERR_TYPE : MPI_ERR_COMM;
	return vpmpi_ret(vp_send_tag(c, dest, tag, buf, (size_t)n));
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	return MPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	return MPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Recv");
	long n = vpmpi_bytes(count, type, "MPI_Recv");
	vp_status st = no_status;
	int rc;

	if (!c || n < 0)
		return c ? MPI_ERR_TYPE : MPI_ERR_COMM;
	rc = vp_recv_tag(c, source, tag, buf, (size_t)n, &st);
	vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		 MPI_Status *status)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Sendrecv");
	long sn = vpmpi_bytes(sendcount, sendtype, "MPI_Sendrecv");
	long rn = vpmpi_bytes(recvcount, recvtype, "MPI_Sendrecv");
	vp_status st = no_status;
	vp_request req;
	int rc;

	if (!c || sn < 0 || rn < 0)
		return c ? MPI_ERR_TYPE : MPI_ERR_COMM;
	/* the send may not wait for its receive: post it first */
	if ((rc = vp_isend(c, dest, sendtag, sendbuf, (size_t)sn, &req)))
		return vpmpi_ret(rc);
	rc = vp_recv_tag(c, source, recvtag, recvbuf, (size_t)rn, &st);
	if (rc) /* the run is failing: the request goes with it */
		return vpmpi_ret(rc);
	rc = vp_wait(&req, NULL);
	vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status)
{
	long n = vpmpi_bytes(count, type, "MPI_Sendrecv_replace");
	void *copy;
	int rc;

	if (n < 0)
		return MPI_ERR_TYPE;
	if (!(copy = malloc(n ? (size_t)n : 1)))
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Sendrecv_replace",
				  "no memory for %ld bytes", n);
	if (n)
		memcpy(copy, buf, (size_t)n);
	rc = MPI_Sendrecv(copy, count, type, dest, sendtag, buf, count, type,
			  source, recvtag, comm, status);
	free(copy);
	return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Isend");
	long n = vpmpi_bytes(count, type, "MPI_Isend");

	if (!c || n < 0)
		return c ? MPI_ERR_TYPE : MPI_ERR_COMM;
	return vpmpi_ret(vp_isend(c, dest, tag, buf, (size_t)n, request));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
	      MPI_Comm comm, MPI_Request *request)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Irecv");
	long n = vpmpi_bytes(count, type, "MPI_Irecv");

	if (!c || n < 0)
		return c ? MPI_ERR_TYPE : MPI_ERR_COMM;
	return vpmpi_ret(vp_irecv(c, source, tag, buf, (size_t)n, request));
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
	vp_status st = no_status;
	int rc = vp_wait(request, &st);

	vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

/* vp statuses for MPI's array (NULL for MPI_STATUSES_IGNORE); *failed
 * when there is no memory (the run has failed). */
static vp_status *statuses_for(int count, const MPI_Status *statuses,
			       int *failed, const char *call)
{
	vp_status *sts = NULL;

	*failed = 0;
	if (statuses && count > 0 &&
	    !(sts = malloc((size_t)count * sizeof(*sts))))
		*failed = vpmpi_fail(MPI_ERR_NO_MEM, call,
				     "no memory for %d statuses", count);
	return sts;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
	int rc, i, failed;
	vp_status *sts =
	    statuses_for(count, statuses, &failed, "MPI_Waitall");

	if (failed)
		return failed;
	rc = vp_waitall(count, requests, sts);
	for (i = 0; sts && i < count; i++)
		vpmpi_status(&sts[i], rc, &statuses[i]);
	free(sts);
	return vpmpi_ret(rc);
}

int MPI_Waitany(int count, MPI_Request requests[], int *index,
		MPI_Status *status)
{
	vp_status st = no_status;
	int rc = vp_waitany(count, requests, index, &st);

	if (!rc && *index < 0)
		*index = MPI_UNDEFINED;
	vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	vp_status st = no_status;
	int rc = vp_test(request, flag, &st);

	if (*flag)
		vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Testall(int count, MPI_Request requests[], int *flag,
		MPI_Status statuses[])
{
	int rc, i, failed;
	vp_status *sts =
	    statuses_for(count, statuses, &failed, "MPI_Testall");

	if (failed)
		return failed;
	rc = vp_testall(count, requests, flag, sts);
	for (i = 0; sts && *flag && i < count; i++)
		vpmpi_status(&sts[i], rc, &statuses[i]);
	free(sts);
	return vpmpi_ret(rc);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Probe");
	vp_status st = no_status;
	int rc;

	if (!c)
		return MPI_ERR_COMM;
	rc = vp_probe(c, source, tag, &st);
	vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Iprobe");
	vp_status st = no_status;
	int rc;

	if (!c)
		return MPI_ERR_COMM;
	rc = vp_iprobe(c, source, tag, flag, &st);
	if (*flag)
		vpmpi_status(&st, rc, status);
	return vpmpi_ret(rc);
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
	long size = vpmpi_bytes(1, type, "MPI_Get_count");

	if (size < 0)
		return MPI_ERR_TYPE;
	*count = size && status->vpmpi_bytes % (size_t)size == 0
		     ? (int)(status->vpmpi_bytes / (size_t)size)
		     : MPI_UNDEFINED;
	return MPI_SUCCESS;
}
