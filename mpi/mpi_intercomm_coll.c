/*
 * mpi_intercomm_coll.c - collectives on an intercommunicator (MPI 4.0,
 * sec. 6.2.2): data goes from one group to the other. In a rooted call
 * the root passes MPI_ROOT, the other members of its group MPI_PROC_NULL
 * (they take no part), and the other group the root's rank in the root's
 * group. The all-to-all forms move each group's data to the other
 * group; an Allreduce gives each group the reduction of the other
 * group's data, a Reduce_scatter(_block) scatters it.
 *
 * Algorithms: the direct ones (MPI 4.0 leaves them open): every block is
 * one message from its sender to its receiver, all posted at once, then
 * awaited (MPI_Waitall). A reduction receives the other group's vectors
 * and combines them in rank order, x0 op (x1 op (... op x(n-1))), so a
 * non-commutative op gets MPI's order. The messages travel on a
 * duplicate of the intercommunicator's union of both groups, made at its
 * first collective (which every member of both groups calls), so they
 * never match the program's point-to-point messages. MPI_IN_PLACE is
 * refused, as MPI has no meaning for it here. The nonblocking forms
 * (MPI_Ibcast ...) run as the blocking ones and return a request that is
 * complete: correct for a program that does not need the call to return
 * before the other members have joined it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

#define TAG 1

/* One call's messages on the collectives' union. */
struct ic {
	MPI_Comm comm, coll; /* the intercommunicator, its union */
	int off, rsize, lsize, lrank;
	int n;
	MPI_Request *req;
	const char *call;
};

static int begin(MPI_Comm comm, struct ic *x, const char *call)
{
	int rc;

	x->comm = comm;
	x->call = call;
	x->n = 0;
	if ((rc = vpmpi_inter_coll(comm, &x->coll, &x->rsize, &x->off,
				   &x->lsize, &x->lrank)))
		return rc;
	if (!(x->req = malloc(2 * ((size_t)x->rsize + 1) * sizeof(*x->req))))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for %d requests", 2 * x->rsize);
	return MPI_SUCCESS;
}

static int send(struct ic *x, int to, const void *buf, int count,
		MPI_Datatype type)
{
	return MPI_Isend(buf, count, type, to + x->off, TAG, x->coll,
			 &x->req[x->n++]);
}

static int recv(struct ic *x, int from, void *buf, int count, MPI_Datatype type)
{
	return MPI_Irecv(buf, count, type, from + x->off, TAG, x->coll,
			 &x->req[x->n++]);
}

/* Waits for every message; rc: a posting's failure. */
static int end(struct ic *x, int rc)
{
	if (!rc)
		rc = MPI_Waitall(x->n, x->req, MPI_STATUSES_IGNORE);
	free(x->req);
	return rc;
}

static char *at(const void *buf, long i, int count, MPI_Datatype type)
{
	MPI_Aint lb, extent;

	MPI_Type_get_extent(type, &lb, &extent);
	return (char *)buf + i * count * extent;
}

/* The role of a rooted call's member: 1 root, 0 outside (MPI_PROC_NULL),
 * -1 the other group (root checked); or the error's class + 10. */
static int role(struct ic *x, int root)
{
	if (root == MPI_ROOT)
		return 1;
	if (root == MPI_PROC_NULL)
		return 0;
	if (root >= 0 && root < x->rsize)
		return -1;
	return 10 + vpmpi_err(x->comm, MPI_ERR_ROOT, x->call,
			      "root %d is not MPI_ROOT, MPI_PROC_NULL or a "
			      "rank of the remote group [0, %d)",
			      root, x->rsize);
}

static int no_in_place(struct ic *x, const void *sendbuf)
{
	if (sendbuf != MPI_IN_PLACE)
		return MPI_SUCCESS;
	return vpmpi_err(x->comm, MPI_ERR_BUFFER, x->call,
			 "MPI_IN_PLACE on an intercommunicator");
}

int vpmpi_ic_barrier(MPI_Comm comm)
{
	struct ic x;
	int rc = begin(comm, &x, "MPI_Barrier"), r;

	if (rc)
		return rc;
	for (r = 0; !rc && r < x.rsize; r++)
		if (!(rc = send(&x, r, NULL, 0, MPI_BYTE)))
			rc = recv(&x, r, NULL, 0, MPI_BYTE);
	return end(&x, rc);
}

int vpmpi_ic_bcast(void *buf, int count, MPI_Datatype type, int root,
		   MPI_Comm comm)
{
	struct ic x;
	int rc = begin(comm, &x, "MPI_Bcast"), me, r;

	if (rc)
		return rc;
	if ((me = role(&x, root)) >= 10)
		return end(&x, me - 10);
	for (r = 0; me == 1 && !rc && r < x.rsize; r++)
		rc = send(&x, r, buf, count, type);
	if (me < 0)
		rc = recv(&x, root, buf, count, type);
	return end(&x, rc);
}

/* Gather(v), scatter(v): counts/displs NULL for the fixed-size forms. */
int vpmpi_ic_rooted(int gather, const void *sendbuf, const int *scounts,
		    const int *sdispls, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int *rcounts, const int *rdispls,
		    int recvcount, MPI_Datatype recvtype, int root,
		    MPI_Comm comm, const char *call)
{
	struct ic x;
	int rc = begin(comm, &x, call), me, r;

	if (rc)
		return rc;
	if ((me = role(&x, root)) >= 10)
		return end(&x, me - 10);
	for (r = 0; me == 1 && !rc && r < x.rsize; r++)
		rc = gather ? recv(&x, r,
				   at(recvbuf, rdispls ? rdispls[r] : r,
				      rdispls ? 1 : recvcount, recvtype),
				   rcounts ? rcounts[r] : recvcount, recvtype)
			    : send(&x, r,
				   at(sendbuf, sdispls ? sdispls[r] : r,
				      sdispls ? 1 : sendcount, sendtype),
				   scounts ? scounts[r] : sendcount, sendtype);
	if (me < 0)
		rc = gather ? send(&x, root, sendbuf, sendcount, sendtype)
			    : recv(&x, root, recvbuf, recvcount, recvtype);
	return end(&x, rc);
}

/* Allgather(v) (sendcounts NULL: one send block to every remote rank)
 * and Alltoall(v, w) (w: byte displacements and a type per peer). */
int vpmpi_ic_all(const void *sendbuf, const int *scounts, const int *sdispls,
		 const MPI_Datatype *stypes, int sendcount,
		 MPI_Datatype sendtype, void *recvbuf, const int *rcounts,
		 const int *rdispls, const MPI_Datatype *rtypes, int recvcount,
		 MPI_Datatype recvtype, int alltoall, MPI_Comm comm,
		 const char *call)
{
	struct ic x;
	int rc = begin(comm, &x, call), r;

	if (rc || (rc = no_in_place(&x, sendbuf)))
		return end(&x, rc);
	for (r = 0; !rc && r < x.rsize; r++) {
		MPI_Datatype st = stypes ? stypes[r] : sendtype;
		MPI_Datatype rt = rtypes ? rtypes[r] : recvtype;
		const void *s = !alltoall ? sendbuf
				: stypes  ? (const char *)sendbuf + sdispls[r]
					 : at(sendbuf, sdispls ? sdispls[r] : r,
					      sdispls ? 1 : sendcount, st);
		void *d = rtypes ? (char *)recvbuf + rdispls[r]
				 : at(recvbuf, rdispls ? rdispls[r] : r,
				      rdispls ? 1 : recvcount, rt);

		if (!(rc = send(&x, r, s,
				alltoall && scounts ? scounts[r] : sendcount,
				st)))
			rc = recv(&x, r, d, rcounts ? rcounts[r] : recvcount,
				  rt);
	}
	return end(&x, rc);
}

/* The bytes count items of type span, and where item 0 starts in them. */
static long span(int count, MPI_Datatype type, long *shift)
{
	MPI_Aint lb, extent, tlb, textent;

	MPI_Type_get_extent(type, &lb, &extent);
	MPI_Type_get_true_extent(type, &tlb, &textent);
	*shift = -tlb;
	return count ? (long)(count - 1) * extent + textent : 1;
}

/* Sends sendbuf (when not NULL) to every remote rank: whole (blk NULL)
 * or, to remote rank r, blk[2r + 1] items from item blk[2r] on; receives
 * a vector of count items from every remote rank (when receive is set)
 * and combines them into recvbuf in rank order. */
static int combine(struct ic *x, const void *sendbuf, const int *blk,
		   void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
		   int receive)
{
	long shift, one = span(count, type, &shift);
	char *tmp = NULL;
	int rc = MPI_SUCCESS, r;

	if (receive && x->rsize > 1 &&
	    !(tmp = malloc((size_t)one * (size_t)(x->rsize - 1))))
		return vpmpi_err(x->comm, MPI_ERR_NO_MEM, x->call,
				 "no memory for %d vectors", x->rsize - 1);
	for (r = 0; !rc && sendbuf && r < x->rsize; r++)
		rc = send(x, r, blk ? at(sendbuf, blk[2 * r], 1, type) : sendbuf,
			  blk ? blk[2 * r + 1] : count, type);
	for (r = 0; !rc && receive && r < x->rsize; r++)
		rc = recv(x, r,
			  r == x->rsize - 1 ? recvbuf
					    : tmp + (long)r * one + shift,
			  count, type);
	if (!rc)
		rc = MPI_Waitall(x->n, x->req, MPI_STATUSES_IGNORE);
	x->n = 0;
	for (r = x->rsize - 2; !rc && receive && r >= 0; r--)
		rc = MPI_Reduce_local(tmp + (long)r * one + shift, recvbuf,
				      count, type, op);
	free(tmp);
	return rc;
}

int vpmpi_ic_reduce(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
	struct ic x;
	int rc = begin(comm, &x, "MPI_Reduce"), me;

	if (rc)
		return rc;
	if ((me = role(&x, root)) >= 10)
		return end(&x, me - 10);
	if (me < 0 && !(rc = no_in_place(&x, sendbuf)))
		rc = send(&x, root, sendbuf, count, type);
	if (me == 1 && !rc)
		rc = combine(&x, NULL, NULL, recvbuf, count, type, op, 1);
	return end(&x, rc);
}

int vpmpi_ic_allreduce(const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		       const char *call)
{
	struct ic x;
	int rc = begin(comm, &x, call);

	if (rc || (rc = no_in_place(&x, sendbuf)))
		return end(&x, rc);
	rc = combine(&x, sendbuf, NULL, recvbuf, count, type, op, 1);
	return end(&x, rc);
}

/* Reduce_scatter_block's blocks: this group's vector of count times
 * lsize items cut in rsize equal blocks (MPI 4.0 sec. 6.11.2: both
 * groups' vectors have the same length). */
static int equal_blocks(struct ic *x, int count, int *blk)
{
	long total = (long)count * x->lsize;
	int r;

	if (total % x->rsize)
		return vpmpi_err(x->comm, MPI_ERR_COUNT, x->call,
				 "recvcount %d times the local group's %d "
				 "ranks does not split into %d remote blocks",
				 count, x->lsize, x->rsize);
	for (r = 0; r < x->rsize; r++) {
		blk[2 * r] = (int)(total / x->rsize * r);
		blk[2 * r + 1] = (int)(total / x->rsize);
	}
	return MPI_SUCCESS;
}

/* Reduce_scatter's blocks: every rank tells every remote rank where its
 * own block lies (its first item and count, two ints a pair of ranks;
 * MPI 4.0 sec. 6.11.1: each group's recvcounts split the other group's
 * vector, of the same length as its own). */
static int told_blocks(struct ic *x, const int *recvcounts, int *blk)
{
	long total = 0, first = 0;
	int own[2], rc = MPI_SUCCESS, r;

	for (r = 0; r < x->lsize; r++) {
		if (recvcounts[r] < 0)
			return vpmpi_err(x->comm, MPI_ERR_COUNT, x->call,
					 "recvcounts[%d] = %d is negative", r,
					 recvcounts[r]);
		first += r < x->lrank ? recvcounts[r] : 0;
		total += recvcounts[r];
	}
	own[0] = (int)first;
	own[1] = recvcounts[x->lrank];
	for (r = 0; !rc && r < x->rsize; r++)
		if (!(rc = send(x, r, own, 2, MPI_INT)))
			rc = recv(x, r, blk + 2 * r, 2, MPI_INT);
	if (!rc)
		rc = MPI_Waitall(x->n, x->req, MPI_STATUSES_IGNORE);
	x->n = 0;
	for (r = 0; !rc && r < x->rsize; r++)
		if ((long)blk[2 * r] + blk[2 * r + 1] > total)
			rc = vpmpi_err(x->comm, MPI_ERR_COUNT, x->call,
				       "remote rank %d's block ends at item "
				       "%ld, past this group's %ld (the sums "
				       "of the groups' recvcounts differ)",
				       r, (long)blk[2 * r] + blk[2 * r + 1],
				       total);
	return rc;
}

/* Reduce_scatter (recvcounts: the local group's blocks) and, recvcounts
 * NULL, Reduce_scatter_block (count: every block): remote rank r gets
 * its block of this group's vector; this rank combines its own block of
 * every remote rank's vector. */
int vpmpi_ic_reduce_scatter(const void *sendbuf, void *recvbuf,
			    const int *recvcounts, int count,
			    MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			    const char *call)
{
	struct ic x;
	int rc = begin(comm, &x, call), *blk;

	if (rc || (rc = no_in_place(&x, sendbuf)))
		return end(&x, rc);
	if (!(blk = malloc(2 * (size_t)x.rsize * sizeof(*blk))))
		return end(&x, vpmpi_err(comm, MPI_ERR_NO_MEM, call,
					 "no memory for %d blocks", x.rsize));
	if (recvcounts)
		count = recvcounts[x.lrank];
	rc = recvcounts ? told_blocks(&x, recvcounts, blk)
			: equal_blocks(&x, count, blk);
	if (!rc)
		rc = combine(&x, sendbuf, blk, recvbuf, count, type, op, 1);
	free(blk);
	return end(&x, rc);
}

int vpmpi_ic_done(int rc, MPI_Request *request)
{
	static const vp_status empty = { VP_ANY_SOURCE, VP_ANY_TAG, 0, 0 };

	if (rc)
		return rc;
	if (!request)
		return vpmpi_fail(MPI_ERR_REQUEST, "a nonblocking collective",
				  "the request pointer is NULL");
	*request = vpmpi_request_done(&empty, MPI_COMM_WORLD,
				      "a nonblocking collective");
	return *request ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}
