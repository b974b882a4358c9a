/*
 * mpi_alltoallw.c - MPI_Alltoallw (MPI 4.0, sec. 6.8): the all-to-all
 * whose blocks each have their own count, datatype and byte displacement.
 * It runs as MPI_Alltoallv does (mpi_vcoll.c), on vp's collective context
 * under vp_coll_begin: pairwise exchange (Grama et al., sec. 4.5), in step
 * k rank r sending to r + k and receiving from r - k, every block packed.
 * A block of another size than its receiver expects fails the call naming
 * both sizes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

/* Checks the counts, displacements and types of one side (p of each):
 * the types in t[], the packed offsets in off[] (p + 1, the total last);
 * 0, or the error raised. */
static int side(MPI_Comm comm, int p, const int *counts, const int *displs,
		const MPI_Datatype *types, const struct vpmpi_type **t,
		long *off, const char *what, const char *call)
{
	int i;

	if (!counts || !displs || !types)
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "the %s counts, displacements or types are "
				 "NULL",
				 what);
	for (i = 0, off[0] = 0; i < p; i++) {
		if (counts[i] < 0)
			return vpmpi_err(comm, MPI_ERR_COUNT, call,
					 "%s count %d (rank %d) is negative",
					 what, counts[i], i);
		if (!(t[i] = vpmpi_type(comm, types[i], call)))
			return MPI_ERR_TYPE;
		off[i + 1] = off[i] + (long)counts[i] * t[i]->size;
	}
	return MPI_SUCCESS;
}

/* The pairwise exchange of the packed blocks, sw to rw. */
static int exchange(MPI_Comm comm, vp_comm *c, const char *sw,
		    const long *soff, char *rw, const long *roff)
{
	vp_coll_sig sig = { "MPI_Alltoallw", VP_ALG_PAIRWISE, 0, -1, -1, -1,
			    0, 0, 0, NULL };
	int r = vp_rank(c), p = vp_size(c), k, rc;
	vp_comm *cc = vp_coll_comm(c);

	if (soff[r + 1] - soff[r] != roff[r + 1] - roff[r])
		return vpmpi_err(comm, MPI_ERR_TRUNCATE, "MPI_Alltoallw",
				 "the block to itself is %ld bytes sent, %ld "
				 "received",
				 soff[r + 1] - soff[r], roff[r + 1] - roff[r]);
	memcpy(rw + roff[r], sw + soff[r], (size_t)(soff[r + 1] - soff[r]));
	if ((rc = vpmpi_ret(vp_coll_begin(c, &sig))))
		return rc;
	for (k = 1; !rc && k < p; k++) {
		int dst = (r + k) % p, src = (r - k + p) % p;

		rc = vpmpi_ret(vp_sendrecv(
		    cc, dst, sw + soff[dst], (size_t)(soff[dst + 1] - soff[dst]),
		    src, rw + roff[src], (size_t)(roff[src + 1] - roff[src])));
	}
	if (!rc)
		vp_coll_note(c, VP_COLL_ALLTOALL, VP_ALG_PAIRWISE,
			     "MPI layer: MPI_Alltoallw (sec. 4.5 pairwise)");
	return rc;
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[],
		  void *recvbuf, const int recvcounts[], const int rdispls[],
		  const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_all(sendbuf, sendcounts, sdispls, sendtypes, 0,
				    0, recvbuf, recvcounts, rdispls, recvtypes,
				    0, 0, 1, comm, "MPI_Alltoallw");
	static const char call[] = "MPI_Alltoallw";
	vp_comm *c = vpmpi_comm(comm, call);
	const struct vpmpi_type **st = NULL, **rt = NULL;
	long *soff = NULL, *roff = NULL;
	char *sw = NULL, *rw = NULL;
	int p, k, rc = MPI_ERR_NO_MEM;

	if (!c)
		return MPI_ERR_COMM;
	p = vp_size(c);
	if (sendbuf == MPI_IN_PLACE) { /* the input is in recvbuf */
		sendbuf = recvbuf;
		sendcounts = recvcounts;
		sdispls = rdispls;
		sendtypes = recvtypes;
	}
	st = malloc((size_t)p * sizeof(*st));
	rt = malloc((size_t)p * sizeof(*rt));
	soff = malloc(((size_t)p + 1) * sizeof(*soff));
	roff = malloc(((size_t)p + 1) * sizeof(*roff));
	if (!st || !rt || !soff || !roff)
		goto out;
	if ((rc = side(comm, p, sendcounts, sdispls, sendtypes, st, soff,
		       "send", call)) ||
	    (rc = side(comm, p, recvcounts, rdispls, recvtypes, rt, roff,
		       "receive", call)))
		goto out;
	rc = MPI_ERR_NO_MEM;
	if (!(sw = malloc(soff[p] ? (size_t)soff[p] : 1)) ||
	    !(rw = malloc(roff[p] ? (size_t)roff[p] : 1)))
		goto out;
	/* every outgoing block packed first (so in place is safe) */
	for (k = 0; k < p; k++)
		vpmpi_pack(st[k], sendcounts[k], (const char *)sendbuf + sdispls[k],
			   sw + soff[k]);
	rc = exchange(comm, c, sw, soff, rw, roff);
	for (k = 0; !rc && k < p; k++)
		vpmpi_unpack(rt[k], recvcounts[k], rw + roff[k],
			     roff[k + 1] - roff[k], (char *)recvbuf + rdispls[k]);
out:
	if (rc == MPI_ERR_NO_MEM)
		rc = vpmpi_err(comm, MPI_ERR_NO_MEM, call,
			       "no memory for the blocks");
	free(st);
	free(rt);
	free(soff);
	free(roff);
	free(sw);
	free(rw);
	return rc;
}
