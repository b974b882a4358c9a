/*
 * mpi_vcoll.c - the v-collectives (Gatherv, Scatterv, Allgatherv,
 * Alltoallv): blocks of different sizes at chosen displacements. vp's
 * collectives move equal blocks, so these run here, with the book's
 * algorithms for them, on vp's collective context under vp_coll_begin (the
 * model charges them, the mismatch checks cover them, --stats names them):
 *   gatherv, scatterv  linear: the root exchanges one message with every
 *            other rank (Grama et al., sec. 4.4): (p - 1) messages at the
 *            root, ts + tw m_i each;
 *   allgatherv  the ring (sec. 4.2): p - 1 steps, each rank passing on the
 *            block it received last;
 *   alltoallv  pairwise exchange (sec. 4.5, the hypercube's schedule on any
 *            p): in step k rank r sends to r + k and receives from r - k.
 * Blocks travel packed; a block of another size than the receiver expects
 * fails the call naming both sizes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

static int begin(vp_comm *c, const char *call, vp_alg alg, int root)
{
	vp_coll_sig sig = { call, alg, 0, -1, -1, root, 0, 0, 0, NULL };

	return vp_coll_begin(c, &sig);
}

/* Checks a rooted call's communicator and root: 0, or the error's
 * class after raising it. */
static int rooted(MPI_Comm comm, vp_comm *c, int root, const char *call)
{
	if (!c)
		return MPI_ERR_COMM;
	if (root < 0 || root >= vp_size(c))
		return vpmpi_err(comm, MPI_ERR_ROOT, call,
				 "root %d is outside [0, %d)", root,
				 vp_size(c));
	return MPI_SUCCESS;
}

/* count items of t at buf + displ extents, packed into out. */
static void pack_at(const struct vpmpi_type *t, const void *buf, int displ,
		    int count, char *out)
{
	vpmpi_pack(t, count, (const char *)buf + (long)displ * t->extent, out);
}

static void unpack_at(const struct vpmpi_type *t, const char *in, int count,
		      void *buf, int displ)
{
	vpmpi_unpack(t, count, in, (long)count * t->size,
		     (char *)buf + (long)displ * t->extent);
}

/* Checks p counts (and displacements): 0, or the error raised. */
static int check_counts(MPI_Comm h, const int *counts, const int *displs,
			int p, const char *what, const char *call)
{
	int i;

	if (!counts || !displs)
		return vpmpi_err(h, MPI_ERR_ARG, call, "%s %s is NULL", what,
				 !counts ? "counts" : "displacements");
	for (i = 0; i < p; i++)
		if (counts[i] < 0)
			return vpmpi_err(h, MPI_ERR_COUNT, call,
					 "%s count %d (rank %d) is negative",
					 what, counts[i], i);
	return MPI_SUCCESS;
}

/* Packed offsets of p blocks: off[i] bytes, the whole in *total. */
static long *offsets(const int *counts, const struct vpmpi_type *t, int p,
		     long *total)
{
	long *off = malloc(((size_t)p + 1) * sizeof(*off));
	int i;

	if (!off)
		return NULL;
	for (i = 0, off[0] = 0; i < p; i++)
		off[i + 1] = off[i] + (long)counts[i] * t->size;
	*total = off[p];
	return off;
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_rooted(1, sendbuf, NULL, NULL, sendcount,
				       sendtype, recvbuf, recvcounts, displs, 0,
				       recvtype, root, comm, "MPI_Gatherv");
	const char *call = "MPI_Gatherv";
	vp_comm *c = vpmpi_comm(comm, call), *cc;
	const struct vpmpi_type *rt;
	const void *bytes;
	void *stmp = NULL;
	char *tmp;
	long n, want;
	int r, p, i, rc, failed;
	vp_status st;

	if ((rc = rooted(comm, c, root, call)))
		return rc;
	r = vp_rank(c);
	p = vp_size(c);
	cc = vp_coll_comm(c);
	if (r != root || sendbuf != MPI_IN_PLACE) {
		if (!(bytes = vpmpi_send_bytes(comm, sendbuf, sendcount,
					       sendtype, &n, &stmp, &failed, call)))
			return failed;
	} else
		bytes = NULL, n = 0;
	if (r != root) {
		if ((rc = begin(c, call, VP_ALG_LINEAR, root)) ||
		    (rc = vp_send_tag(cc, root, 0, bytes, (size_t)n))) {
			free(stmp);
			return vpmpi_ret(rc);
		}
		free(stmp);
		return MPI_SUCCESS;
	}
	if ((rc = check_counts(comm, recvcounts, displs, p, "receive", call)) ||
	    !(rt = vpmpi_type(comm, recvtype, call))) {
		free(stmp);
		return rc ? rc : MPI_ERR_TYPE;
	}
	rc = begin(c, call, VP_ALG_LINEAR, root);
	for (i = 0; !rc && i < p; i++) {
		if (i == root && sendbuf == MPI_IN_PLACE)
			continue; /* the root's block is in place */
		want = (long)recvcounts[i] * rt->size;
		if (!(tmp = malloc(want ? (size_t)want : 1))) {
			free(stmp);
			return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
					 "no memory for %ld bytes", want);
		}
		if (i == root) {
			if (n != want)
				rc = -1;
			else
				memcpy(tmp, bytes, (size_t)n);
			st.bytes = (size_t)n;
		} else
			rc = vp_recv_tag(cc, i, 0, tmp, (size_t)want, &st);
		if (rc == -1 || (!rc && (long)st.bytes != want)) {
			free(tmp);
			free(stmp);
			return vpmpi_err(comm, MPI_ERR_TRUNCATE, call,
					 "rank %d sent %zu bytes, recvcounts[%d] "
					 "makes %ld",
					 i, i == root ? (size_t)n : st.bytes, i,
					 want);
		}
		if (!rc)
			unpack_at(rt, tmp, recvcounts[i], recvbuf, displs[i]);
		free(tmp);
	}
	free(stmp);
	if (!rc)
		vp_coll_note(c, VP_COLL_GATHER, VP_ALG_LINEAR,
			     "MPI layer: MPI_Gatherv (sec. 4.4 linear)");
	return vpmpi_ret(rc);
}

/* MPI_Scatterv on a rank other than the root: its block of n bytes from
 * the root into bytes (recvbuf, or rtmp to unpack from, which it frees). */
static int scatterv_block(MPI_Comm comm, vp_comm *c, int root, void *bytes,
			  long n, void *rtmp, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, const char *call)
{
	vp_status st;
	int rc;

	if (!(rc = begin(c, call, VP_ALG_LINEAR, root)))
		rc = vp_recv_tag(vp_coll_comm(c), root, 0, bytes, (size_t)n,
				 &st);
	if (!rc && (long)st.bytes != n) {
		free(rtmp);
		return vpmpi_err(comm, MPI_ERR_TRUNCATE, call,
				 "the root sent %zu bytes, recvcount "
				 "makes %ld",
				 st.bytes, n);
	}
	if (!rc)
		vpmpi_recv_done(rtmp, recvbuf, recvcount,
				vpmpi_type_any(recvtype, call), n);
	else
		free(rtmp);
	return vpmpi_ret(rc);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_rooted(0, sendbuf, sendcounts, displs, 0,
				       sendtype, recvbuf, NULL, NULL, recvcount,
				       recvtype, root, comm, "MPI_Scatterv");
	const char *call = "MPI_Scatterv";
	vp_comm *c = vpmpi_comm(comm, call), *cc;
	const struct vpmpi_type *ty;
	void *bytes, *rtmp = NULL;
	char *tmp;
	long n = 0, len;
	int r, p, i, rc, failed;

	if ((rc = rooted(comm, c, root, call)))
		return rc;
	r = vp_rank(c);
	p = vp_size(c);
	cc = vp_coll_comm(c);
	if (r != root || recvbuf != MPI_IN_PLACE) {
		if (!(bytes = vpmpi_recv_bytes(comm, recvbuf, recvcount,
					       recvtype, &n, &rtmp, &failed,
					       call)))
			return failed;
	} else
		bytes = NULL;
	if (r != root)
		return scatterv_block(comm, c, root, bytes, n, rtmp, recvbuf,
				      recvcount, recvtype, call);
	if ((rc = check_counts(comm, sendcounts, displs, p, "send", call)) ||
	    !(ty = vpmpi_type(comm, sendtype, call))) {
		free(rtmp);
		return rc ? rc : MPI_ERR_TYPE;
	}
	rc = begin(c, call, VP_ALG_LINEAR, root);
	for (i = 0; !rc && i < p; i++) {
		len = (long)sendcounts[i] * ty->size;
		if (i == root && recvbuf == MPI_IN_PLACE)
			continue;
		if (!(tmp = malloc(len ? (size_t)len : 1))) {
			free(rtmp);
			return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
					 "no memory for %ld bytes", len);
		}
		pack_at(ty, sendbuf, displs[i], sendcounts[i], tmp);
		if (i != root)
			rc = vp_send_tag(cc, i, 0, tmp, (size_t)len);
		else if (len != n) {
			free(tmp);
			free(rtmp);
			return vpmpi_err(comm, MPI_ERR_TRUNCATE, call,
					 "the root's own block is %ld bytes, "
					 "recvcount makes %ld",
					 len, n);
		} else {
			memcpy(bytes, tmp, (size_t)len);
			vpmpi_recv_done(rtmp, recvbuf, recvcount,
					vpmpi_type_any(recvtype, call), n);
			rtmp = NULL;
		}
		free(tmp);
	}
	free(rtmp);
	if (!rc)
		vp_coll_note(c, VP_COLL_SCATTER, VP_ALG_LINEAR,
			     "MPI layer: MPI_Scatterv (sec. 4.4 linear)");
	return vpmpi_ret(rc);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_all(sendbuf, NULL, NULL, NULL, sendcount,
				    sendtype, recvbuf, recvcounts, displs, NULL,
				    0, recvtype, 0, comm, "MPI_Allgatherv");
	const char *call = "MPI_Allgatherv";
	vp_comm *c = vpmpi_comm(comm, call), *cc;
	const struct vpmpi_type *rt;
	const void *bytes;
	void *stmp = NULL;
	char *whole;
	long *off, total, n;
	int r, p, k, rc, failed;

	if (!c)
		return MPI_ERR_COMM;
	r = vp_rank(c);
	p = vp_size(c);
	cc = vp_coll_comm(c);
	if ((rc = check_counts(comm, recvcounts, displs, p, "receive", call)))
		return rc;
	if (!(rt = vpmpi_type(comm, recvtype, call)))
		return MPI_ERR_TYPE;
	if (!(off = offsets(recvcounts, rt, p, &total)) ||
	    !(whole = malloc(total ? (size_t)total : 1))) {
		free(off);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for the blocks");
	}
	/* this rank's block, in place or from sendbuf */
	if (sendbuf == MPI_IN_PLACE)
		pack_at(rt, recvbuf, displs[r], recvcounts[r], whole + off[r]);
	else {
		if (!(bytes = vpmpi_send_bytes(comm, sendbuf, sendcount,
					       sendtype, &n, &stmp, &failed, call))) {
			free(off);
			free(whole);
			return MPI_ERR_TYPE;
		}
		if (n != off[r + 1] - off[r]) {
			long want = off[r + 1] - off[r];

			free(stmp);
			free(off);
			free(whole);
			return vpmpi_err(comm, MPI_ERR_TRUNCATE, call,
					 "the send block is %ld bytes, "
					 "recvcounts[%d] makes %ld",
					 n, r, want);
		}
		memcpy(whole + off[r], bytes, (size_t)n);
		free(stmp);
	}
	rc = begin(c, call, VP_ALG_RING, -1);
	for (k = 0; !rc && k < p - 1; k++) {
		int sb = (r - k + p) % p, rb = (r - k - 1 + p) % p;

		rc = vp_sendrecv(cc, (r + 1) % p, whole + off[sb],
				 (size_t)(off[sb + 1] - off[sb]), (r - 1 + p) % p,
				 whole + off[rb], (size_t)(off[rb + 1] - off[rb]));
	}
	for (k = 0; !rc && k < p; k++)
		if (k != r || sendbuf != MPI_IN_PLACE)
			unpack_at(rt, whole + off[k], recvcounts[k], recvbuf,
				  displs[k]);
	if (!rc)
		vp_coll_note(c, VP_COLL_ALLGATHER, VP_ALG_RING,
			     "MPI layer: MPI_Allgatherv (sec. 4.2 ring)");
	free(off);
	free(whole);
	return vpmpi_ret(rc);
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int rdispls[],
		  MPI_Datatype recvtype, MPI_Comm comm)
{
	if (VPMPI_IS_INTER(comm)) /* mpi_intercomm_coll.c */
		return vpmpi_ic_all(sendbuf, sendcounts, sdispls, NULL, 0,
				    sendtype, recvbuf, recvcounts, rdispls,
				    NULL, 0, recvtype, 1, comm,
				    "MPI_Alltoallv");
	const char *call = "MPI_Alltoallv";
	vp_comm *c = vpmpi_comm(comm, call), *cc;
	const struct vpmpi_type *st, *rt;
	long *soff, *roff, stotal, rtotal;
	char *sw, *rw;
	int r, p, k, rc;

	if (!c)
		return MPI_ERR_COMM;
	r = vp_rank(c);
	p = vp_size(c);
	cc = vp_coll_comm(c);
	if (sendbuf == MPI_IN_PLACE) { /* the input is in recvbuf */
		sendbuf = recvbuf;
		sendcounts = recvcounts;
		sdispls = rdispls;
		sendtype = recvtype;
	}
	if ((rc = check_counts(comm, sendcounts, sdispls, p, "send", call)) ||
	    (rc = check_counts(comm, recvcounts, rdispls, p, "receive", call)))
		return rc;
	if (!(st = vpmpi_type(comm, sendtype, call)) ||
	    !(rt = vpmpi_type(comm, recvtype, call)))
		return MPI_ERR_TYPE;
	soff = offsets(sendcounts, st, p, &stotal);
	roff = offsets(recvcounts, rt, p, &rtotal);
	sw = malloc(stotal ? (size_t)stotal : 1);
	rw = malloc(rtotal ? (size_t)rtotal : 1);
	if (!soff || !roff || !sw || !rw) {
		free(soff);
		free(roff);
		free(sw);
		free(rw);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for the blocks");
	}
	/* every outgoing block packed first (so in place is safe) */
	for (k = 0; k < p; k++)
		pack_at(st, sendbuf, sdispls[k], sendcounts[k], sw + soff[k]);
	if (soff[r + 1] - soff[r] != roff[r + 1] - roff[r])
		rc = vpmpi_err(comm, MPI_ERR_TRUNCATE, call,
			       "the block to itself is %ld bytes sent, %ld "
			       "received",
			       soff[r + 1] - soff[r], roff[r + 1] - roff[r]);
	else
		memcpy(rw + roff[r], sw + soff[r],
		       (size_t)(soff[r + 1] - soff[r]));
	if (!rc)
		rc = vpmpi_ret(begin(c, call, VP_ALG_PAIRWISE, -1));
	for (k = 1; !rc && k < p; k++) {
		int dst = (r + k) % p, src = (r - k + p) % p;

		rc = vpmpi_ret(vp_sendrecv(
		    cc, dst, sw + soff[dst], (size_t)(soff[dst + 1] - soff[dst]),
		    src, rw + roff[src], (size_t)(roff[src + 1] - roff[src])));
	}
	for (k = 0; !rc && k < p; k++)
		unpack_at(rt, rw + roff[k], recvcounts[k], recvbuf, rdispls[k]);
	if (!rc)
		vp_coll_note(c, VP_COLL_ALLTOALL, VP_ALG_PAIRWISE,
			     "MPI layer: MPI_Alltoallv (sec. 4.5 pairwise)");
	free(soff);
	free(roff);
	free(sw);
	free(rw);
	return rc;
}
