/*
 * mpi_vcoll_c.c - the large-count v- and w-collectives (MPI 4.0, sec. 6,
 * 8.6 to 8.8 and 19.2: MPI_Gatherv_c and the others take MPI_Count
 * counts and MPI_Aint displacements): MPI_Gatherv_c, MPI_Scatterv_c,
 * MPI_Allgatherv_c, MPI_Alltoallv_c, MPI_Alltoallw_c and
 * MPI_Reduce_scatter_c, and the neighbourhood ones, blocking,
 * nonblocking and persistent. Each converts its arrays to ints and runs
 * its int sibling (mpi_vcoll.c, mpi_ivcoll.c, mpi_persistent_coll.c,
 * mpi_neighbor.c): the same algorithm and the same messages charged
 * by the model. A count above INT_MAX, a negative one, or a displacement
 * outside an int fails with MPI_ERR_COUNT naming the call, the array and
 * the entry. The arrays read are the ones the rank's role makes
 * significant: a rooted call's at its root, the send side's unless in
 * place; a persistent request keeps their int form until it is freed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdlib.h>

#include "vpmpi.h"

enum { V_GATHERV, V_SCATTERV, V_ALLGATHERV, V_ALLTOALLV, V_ALLTOALLW,
       V_REDSCAT, V_NB_ALLGATHERV, V_NB_ALLTOALLV, V_NB_ALLTOALLW };

/* A call's arguments: s the send side, r the receive side (one count, or
 * counts and displacements, and one datatype or one a peer). */
struct vside {
	const void *buf;
	MPI_Count count;
	const MPI_Count *counts;
	const MPI_Aint *displs;
	MPI_Datatype type;
	const MPI_Datatype *types;
};

struct vargs {
	struct vside s, r;
	int root;
	MPI_Op op;
	MPI_Comm comm;
	MPI_Info info;
	MPI_Request *req;
};

/* The arrays as ints, in one allocation (mem): send counts and
 * displacements, receive counts and displacements; NULL where not read. */
struct vints {
	int *mem;
	int *sc, *sd, *rc, *rd;
};

/* n entries of counts (or, counts NULL, of displs) as ints at out:
 * MPI_SUCCESS or MPI_ERR_COUNT raised naming what[i]. */
static int to_ints(MPI_Comm h, int n, const MPI_Count *counts,
		   const MPI_Aint *displs, int *out, const char *what,
		   const char *call)
{
	int i;

	for (i = 0; i < n; i++) {
		long long x = counts ? counts[i] : displs[i];

		if (counts ? x < 0 || x > INT_MAX : x < INT_MIN || x > INT_MAX)
			return vpmpi_err(h, MPI_ERR_COUNT, call,
					 "%s[%d] is %lld, %s", what, i, x,
					 x < 0 && counts
					     ? "negative"
					     : "outside an int: vp's "
					       "collectives take counts and "
					       "displacements up to INT_MAX");
		out[i] = (int)x;
	}
	return MPI_SUCCESS;
}

/* One side's arrays (n entries; counts NULL: none) into *c and *d from
 * at: MPI_SUCCESS or the error raised. */
static int side_ints(MPI_Comm h, int n, const struct vside *v, int **c,
		     int **d, int *at, int recv, int bytes_displs,
		     const char *call)
{
	int rc;

	if (!v->counts || n < 0)
		return MPI_SUCCESS;
	*c = at;
	if ((rc = to_ints(h, n, v->counts, NULL, *c,
			  recv ? "recvcounts" : "sendcounts", call)))
		return rc;
	if (!v->displs || bytes_displs)
		return MPI_SUCCESS;
	*d = at + n;
	return to_ints(h, n, NULL, v->displs, *d,
		       recv ? "rdispls" : "sdispls", call);
}

/* The number of peers of each side (-1: not read): *ns send, *nr
 * receive. MPI_SUCCESS or the error raised. */
static int peers(int kind, const struct vargs *a, int *ns, int *nr,
		 const char *call)
{
	struct vpmpi_hood hood;
	int inter = 0, p = 0, rc, root;
	vp_comm *c;

	*ns = *nr = -1;
	if (kind >= V_NB_ALLGATHERV) {
		if (!(c = vpmpi_comm(a->comm, call)))
			return MPI_ERR_COMM;
		if ((rc = vpmpi_hood_of(a->comm, c, &hood, call)))
			return rc;
		free(hood.in);
		*nr = hood.nin;
		*ns = kind == V_NB_ALLGATHERV ? -1 : hood.nout;
		return MPI_SUCCESS;
	}
	if ((rc = MPI_Comm_test_inter(a->comm, &inter)) ||
	    (rc = inter ? MPI_Comm_remote_size(a->comm, &p)
			: MPI_Comm_size(a->comm, &p)))
		return rc;
	root = kind <= V_SCATTERV && vpmpi_c_is_root(a->comm, a->root);
	if (kind == V_REDSCAT)
		return MPI_Comm_size(a->comm, nr);
	if (kind != V_GATHERV || root)
		*nr = kind == V_SCATTERV ? -1 : p;
	if (kind != V_SCATTERV || root)
		*ns = kind == V_GATHERV || kind == V_ALLGATHERV ||
			      a->s.buf == MPI_IN_PLACE
			  ? -1
			  : p;
	return MPI_SUCCESS;
}

/* The int forms of a's counts and displacements in *v (v->mem to free):
 * MPI_SUCCESS or the error raised. */
static int vints_of(int kind, const struct vargs *a, struct vints *v,
		    const char *call)
{
	int ns, nr, rc, n, wb = kind == V_NB_ALLTOALLW;

	*v = (struct vints){ 0 };
	if ((rc = peers(kind, a, &ns, &nr, call)))
		return rc;
	if (kind == V_GATHERV || kind == V_ALLGATHERV ||
	    kind == V_NB_ALLGATHERV)
		if (a->s.buf != MPI_IN_PLACE &&
		    (rc = vpmpi_c_fits(a->comm, "sendcount", a->s.count, call)))
			return rc;
	if (kind == V_SCATTERV && a->r.buf != MPI_IN_PLACE &&
	    (rc = vpmpi_c_fits(a->comm, "recvcount", a->r.count, call)))
		return rc;
	n = ns > nr ? ns : nr;
	if (!(v->mem = malloc(sizeof(int) * (4 * (size_t)(n > 0 ? n : 0) + 1))))
		return vpmpi_err(a->comm, MPI_ERR_NO_MEM, call,
				 "no memory for %d counts", 4 * n);
	if ((rc = side_ints(a->comm, ns, &a->s, &v->sc, &v->sd, v->mem, 0, wb,
			    call)) ||
	    (rc = side_ints(a->comm, nr, &a->r, &v->rc, &v->rd,
			    v->mem + 2 * (n > 0 ? n : 0), 1, wb, call))) {
		free(v->mem);
		v->mem = NULL;
	}
	return rc;
}

/* The int sibling of a neighbourhood kind in form (0 blocking, 1
 * nonblocking, 2 persistent); Neighbor_alltoallw's displacements are
 * MPI_Aint in both. */
static int run_nb(int kind, int form, const struct vargs *a,
		  const struct vints *v)
{
	const struct vside *s = &a->s, *r = &a->r;
	void *rb = (void *)r->buf;
	int sn = (int)s->count;

	switch (kind * 3 + form) {
	case 18: return MPI_Neighbor_allgatherv(s->buf, sn, s->type, rb, v->rc,
						v->rd, r->type, a->comm);
	case 19: return MPI_Ineighbor_allgatherv(s->buf, sn, s->type, rb,
						 v->rc, v->rd, r->type,
						 a->comm, a->req);
	case 20: return MPI_Neighbor_allgatherv_init(s->buf, sn, s->type, rb,
						     v->rc, v->rd, r->type,
						     a->comm, a->info, a->req);
	case 21: return MPI_Neighbor_alltoallv(s->buf, v->sc, v->sd, s->type,
					       rb, v->rc, v->rd, r->type,
					       a->comm);
	case 22: return MPI_Ineighbor_alltoallv(s->buf, v->sc, v->sd, s->type,
						rb, v->rc, v->rd, r->type,
						a->comm, a->req);
	case 23: return MPI_Neighbor_alltoallv_init(s->buf, v->sc, v->sd,
						    s->type, rb, v->rc, v->rd,
						    r->type, a->comm, a->info,
						    a->req);
	case 24: return MPI_Neighbor_alltoallw(s->buf, v->sc, s->displs,
					       s->types, rb, v->rc, r->displs,
					       r->types, a->comm);
	case 25: return MPI_Ineighbor_alltoallw(s->buf, v->sc, s->displs,
						s->types, rb, v->rc, r->displs,
						r->types, a->comm, a->req);
	default: return MPI_Neighbor_alltoallw_init(s->buf, v->sc, s->displs,
						    s->types, rb, v->rc,
						    r->displs, r->types,
						    a->comm, a->info, a->req);
	}
}

/* The int sibling of kind in form (0 blocking, 1 nonblocking, 2
 * persistent; the neighbourhood ones after it: run_nb). */
static int run_v(int kind, int form, const struct vargs *a,
		 const struct vints *v)
{
	const struct vside *s = &a->s, *r = &a->r;
	void *rb = (void *)r->buf;
	int sn = v->sc ? 0 : (int)s->count, rn = v->rc ? 0 : (int)r->count;

	switch (kind * 3 + form) {
	case 0: return MPI_Gatherv(s->buf, sn, s->type, rb, v->rc, v->rd,
				   r->type, a->root, a->comm);
	case 1: return MPI_Igatherv(s->buf, sn, s->type, rb, v->rc, v->rd,
				    r->type, a->root, a->comm, a->req);
	case 2: return MPI_Gatherv_init(s->buf, sn, s->type, rb, v->rc, v->rd,
					r->type, a->root, a->comm, a->info,
					a->req);
	case 3: return MPI_Scatterv(s->buf, v->sc, v->sd, s->type, rb, rn,
				    r->type, a->root, a->comm);
	case 4: return MPI_Iscatterv(s->buf, v->sc, v->sd, s->type, rb, rn,
				     r->type, a->root, a->comm, a->req);
	case 5: return MPI_Scatterv_init(s->buf, v->sc, v->sd, s->type, rb, rn,
					 r->type, a->root, a->comm, a->info,
					 a->req);
	case 6: return MPI_Allgatherv(s->buf, sn, s->type, rb, v->rc, v->rd,
				      r->type, a->comm);
	case 7: return MPI_Iallgatherv(s->buf, sn, s->type, rb, v->rc, v->rd,
				       r->type, a->comm, a->req);
	case 8: return MPI_Allgatherv_init(s->buf, sn, s->type, rb, v->rc,
					   v->rd, r->type, a->comm, a->info,
					   a->req);
	case 9: return MPI_Alltoallv(s->buf, v->sc, v->sd, s->type, rb, v->rc,
				     v->rd, r->type, a->comm);
	case 10: return MPI_Ialltoallv(s->buf, v->sc, v->sd, s->type, rb,
				       v->rc, v->rd, r->type, a->comm, a->req);
	case 11: return MPI_Alltoallv_init(s->buf, v->sc, v->sd, s->type, rb,
					   v->rc, v->rd, r->type, a->comm,
					   a->info, a->req);
	case 12: return MPI_Alltoallw(s->buf, v->sc, v->sd, s->types, rb,
				      v->rc, v->rd, r->types, a->comm);
	case 13: return MPI_Ialltoallw(s->buf, v->sc, v->sd, s->types, rb,
				       v->rc, v->rd, r->types, a->comm, a->req);
	case 14: return MPI_Alltoallw_init(s->buf, v->sc, v->sd, s->types, rb,
					   v->rc, v->rd, r->types, a->comm,
					   a->info, a->req);
	case 15: return MPI_Reduce_scatter(s->buf, rb, v->rc, r->type, a->op,
					   a->comm);
	case 16: return MPI_Ireduce_scatter(s->buf, rb, v->rc, r->type, a->op,
					    a->comm, a->req);
	case 17: return MPI_Reduce_scatter_init(s->buf, rb, v->rc, r->type,
						a->op, a->comm, a->info,
						a->req);
	default: return run_nb(kind, form, a, v);
	}
}

/* Runs call: a's arrays as ints, then its int sibling (a persistent
 * request keeps the ints). MPI_SUCCESS or the error raised. */
static int vcoll(int kind, int form, const char *call, struct vargs a)
{
	struct vints v;
	int rc;

	vpmpi_me.call_c = call;
	if ((rc = vints_of(kind, &a, &v, call)))
		return vpmpi_c_end(rc);
	rc = run_v(kind, form, &a, &v);
	if (!rc && form == 2)
		vpmpi_pcoll_keep(*a.req, v.mem);
	else
		free(v.mem);
	return vpmpi_c_end(rc);
}

/* One side's arguments. */
static struct vside one(const void *buf, MPI_Count count, MPI_Datatype type)
{
	return (struct vside){ .buf = buf, .count = count, .type = type };
}

static struct vside many(const void *buf, const MPI_Count *counts,
			 const MPI_Aint *displs, MPI_Datatype type)
{
	return (struct vside){
		.buf = buf, .counts = counts, .displs = displs, .type = type
	};
}

static struct vside typed(const void *buf, const MPI_Count *counts,
			  const MPI_Aint *displs, const MPI_Datatype *types)
{
	return (struct vside){
		.buf = buf, .counts = counts, .displs = displs, .types = types
	};
}

/* The arguments of a call without a root or an op. */
static struct vargs args(struct vside s, struct vside r, MPI_Comm comm,
			 MPI_Info info, MPI_Request *req)
{
	return (struct vargs){ s, r, 0, MPI_OP_NULL, comm, info, req };
}

static struct vargs rooted(struct vside s, struct vside r, int root,
			   MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
	return (struct vargs){ s, r, root, MPI_OP_NULL, comm, info, req };
}

/* ---- the calls ---- */

int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount,
		  MPI_Datatype sendtype, void *recvbuf,
		  const MPI_Count recvcounts[], const MPI_Aint displs[],
		  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return vcoll(V_GATHERV, 0, "MPI_Gatherv_c",
		     rooted(one(sendbuf, sendcount, sendtype),
			    many(recvbuf, recvcounts, displs, recvtype), root,
			    comm, MPI_INFO_NULL, NULL));
}

int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf,
		   const MPI_Count recvcounts[], const MPI_Aint displs[],
		   MPI_Datatype recvtype, int root, MPI_Comm comm,
		   MPI_Request *request)
{
	return vcoll(V_GATHERV, 1, "MPI_Igatherv_c",
		     rooted(one(sendbuf, sendcount, sendtype),
			    many(recvbuf, recvcounts, displs, recvtype), root,
			    comm, MPI_INFO_NULL, request));
}

int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount,
		       MPI_Datatype sendtype, void *recvbuf,
		       const MPI_Count recvcounts[], const MPI_Aint displs[],
		       MPI_Datatype recvtype, int root, MPI_Comm comm,
		       MPI_Info info, MPI_Request *request)
{
	return vcoll(V_GATHERV, 2, "MPI_Gatherv_init_c",
		     rooted(one(sendbuf, sendcount, sendtype),
			    many(recvbuf, recvcounts, displs, recvtype), root,
			    comm, info, request));
}

int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
		   const MPI_Aint displs[], MPI_Datatype sendtype,
		   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		   int root, MPI_Comm comm)
{
	return vcoll(V_SCATTERV, 0, "MPI_Scatterv_c",
		     rooted(many(sendbuf, sendcounts, displs, sendtype),
			    one(recvbuf, recvcount, recvtype), root, comm,
			    MPI_INFO_NULL, NULL));
}

int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
		    const MPI_Aint displs[], MPI_Datatype sendtype,
		    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		    int root, MPI_Comm comm, MPI_Request *request)
{
	return vcoll(V_SCATTERV, 1, "MPI_Iscatterv_c",
		     rooted(many(sendbuf, sendcounts, displs, sendtype),
			    one(recvbuf, recvcount, recvtype), root, comm,
			    MPI_INFO_NULL, request));
}

int MPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			const MPI_Aint displs[], MPI_Datatype sendtype,
			void *recvbuf, MPI_Count recvcount,
			MPI_Datatype recvtype, int root, MPI_Comm comm,
			MPI_Info info, MPI_Request *request)
{
	return vcoll(V_SCATTERV, 2, "MPI_Scatterv_init_c",
		     rooted(many(sendbuf, sendcounts, displs, sendtype),
			    one(recvbuf, recvcount, recvtype), root, comm,
			    info, request));
}

int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount,
		     MPI_Datatype sendtype, void *recvbuf,
		     const MPI_Count recvcounts[], const MPI_Aint displs[],
		     MPI_Datatype recvtype, MPI_Comm comm)
{
	return vcoll(V_ALLGATHERV, 0, "MPI_Allgatherv_c",
		     args(one(sendbuf, sendcount, sendtype),
			  many(recvbuf, recvcounts, displs, recvtype), comm,
			  MPI_INFO_NULL, NULL));
}

int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf,
		      const MPI_Count recvcounts[], const MPI_Aint displs[],
		      MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request)
{
	return vcoll(V_ALLGATHERV, 1, "MPI_Iallgatherv_c",
		     args(one(sendbuf, sendcount, sendtype),
			  many(recvbuf, recvcounts, displs, recvtype), comm,
			  MPI_INFO_NULL, request));
}

int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
			  MPI_Datatype sendtype, void *recvbuf,
			  const MPI_Count recvcounts[],
			  const MPI_Aint displs[], MPI_Datatype recvtype,
			  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return vcoll(V_ALLGATHERV, 2, "MPI_Allgatherv_init_c",
		     args(one(sendbuf, sendcount, sendtype),
			  many(recvbuf, recvcounts, displs, recvtype), comm,
			  info, request));
}

int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
		    const MPI_Aint sdispls[], MPI_Datatype sendtype,
		    void *recvbuf, const MPI_Count recvcounts[],
		    const MPI_Aint rdispls[], MPI_Datatype recvtype,
		    MPI_Comm comm)
{
	return vcoll(V_ALLTOALLV, 0, "MPI_Alltoallv_c",
		     args(many(sendbuf, sendcounts, sdispls, sendtype),
			  many(recvbuf, recvcounts, rdispls, recvtype), comm,
			  MPI_INFO_NULL, NULL));
}

int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
		     const MPI_Aint sdispls[], MPI_Datatype sendtype,
		     void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], MPI_Datatype recvtype,
		     MPI_Comm comm, MPI_Request *request)
{
	return vcoll(V_ALLTOALLV, 1, "MPI_Ialltoallv_c",
		     args(many(sendbuf, sendcounts, sdispls, sendtype),
			  many(recvbuf, recvcounts, rdispls, recvtype), comm,
			  MPI_INFO_NULL, request));
}

int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			 const MPI_Aint sdispls[], MPI_Datatype sendtype,
			 void *recvbuf, const MPI_Count recvcounts[],
			 const MPI_Aint rdispls[], MPI_Datatype recvtype,
			 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return vcoll(V_ALLTOALLV, 2, "MPI_Alltoallv_init_c",
		     args(many(sendbuf, sendcounts, sdispls, sendtype),
			  many(recvbuf, recvcounts, rdispls, recvtype), comm,
			  info, request));
}

int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
		    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
		    void *recvbuf, const MPI_Count recvcounts[],
		    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		    MPI_Comm comm)
{
	return vcoll(V_ALLTOALLW, 0, "MPI_Alltoallw_c",
		     args(typed(sendbuf, sendcounts, sdispls, sendtypes),
			  typed(recvbuf, recvcounts, rdispls, recvtypes), comm,
			  MPI_INFO_NULL, NULL));
}

int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
		     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
		     void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		     MPI_Comm comm, MPI_Request *request)
{
	return vcoll(V_ALLTOALLW, 1, "MPI_Ialltoallw_c",
		     args(typed(sendbuf, sendcounts, sdispls, sendtypes),
			  typed(recvbuf, recvcounts, rdispls, recvtypes), comm,
			  MPI_INFO_NULL, request));
}

int MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			 const MPI_Aint sdispls[],
			 const MPI_Datatype sendtypes[], void *recvbuf,
			 const MPI_Count recvcounts[],
			 const MPI_Aint rdispls[],
			 const MPI_Datatype recvtypes[], MPI_Comm comm,
			 MPI_Info info, MPI_Request *request)
{
	return vcoll(V_ALLTOALLW, 2, "MPI_Alltoallw_init_c",
		     args(typed(sendbuf, sendcounts, sdispls, sendtypes),
			  typed(recvbuf, recvcounts, rdispls, recvtypes), comm,
			  info, request));
}

/* Reduce_scatter: the counts on the receive side, the op. */
static struct vargs redscat(const void *sendbuf, void *recvbuf,
			    const MPI_Count *recvcounts, MPI_Datatype type,
			    MPI_Op op, MPI_Comm comm, MPI_Info info,
			    MPI_Request *req)
{
	struct vargs a = args(one(sendbuf, 0, type),
			      many(recvbuf, recvcounts, NULL, type), comm,
			      info, req);

	a.op = op;
	return a;
}

int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf,
			 const MPI_Count recvcounts[], MPI_Datatype type,
			 MPI_Op op, MPI_Comm comm)
{
	return vcoll(V_REDSCAT, 0, "MPI_Reduce_scatter_c",
		     redscat(sendbuf, recvbuf, recvcounts, type, op, comm,
			     MPI_INFO_NULL, NULL));
}

int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf,
			  const MPI_Count recvcounts[], MPI_Datatype type,
			  MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return vcoll(V_REDSCAT, 1, "MPI_Ireduce_scatter_c",
		     redscat(sendbuf, recvbuf, recvcounts, type, op, comm,
			     MPI_INFO_NULL, request));
}

int MPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf,
			      const MPI_Count recvcounts[], MPI_Datatype type,
			      MPI_Op op, MPI_Comm comm, MPI_Info info,
			      MPI_Request *request)
{
	return vcoll(V_REDSCAT, 2, "MPI_Reduce_scatter_init_c",
		     redscat(sendbuf, recvbuf, recvcounts, type, op, comm,
			     info, request));
}

int MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
			      MPI_Datatype sendtype, void *recvbuf,
			      const MPI_Count recvcounts[],
			      const MPI_Aint displs[], MPI_Datatype recvtype,
			      MPI_Comm comm)
{
	return vcoll(V_NB_ALLGATHERV, 0, "MPI_Neighbor_allgatherv_c",
		     args(one(sendbuf, sendcount, sendtype),
			  many(recvbuf, recvcounts, displs, recvtype), comm,
			  MPI_INFO_NULL, NULL));
}

int MPI_Neighbor_alltoallv_c(const void *sendbuf,
			     const MPI_Count sendcounts[],
			     const MPI_Aint sdispls[], MPI_Datatype sendtype,
			     void *recvbuf, const MPI_Count recvcounts[],
			     const MPI_Aint rdispls[], MPI_Datatype recvtype,
			     MPI_Comm comm)
{
	return vcoll(V_NB_ALLTOALLV, 0, "MPI_Neighbor_alltoallv_c",
		     args(many(sendbuf, sendcounts, sdispls, sendtype),
			  many(recvbuf, recvcounts, rdispls, recvtype), comm,
			  MPI_INFO_NULL, NULL));
}

int MPI_Neighbor_alltoallw_c(const void *sendbuf,
			     const MPI_Count sendcounts[],
			     const MPI_Aint sdispls[],
			     const MPI_Datatype sendtypes[], void *recvbuf,
			     const MPI_Count recvcounts[],
			     const MPI_Aint rdispls[],
			     const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return vcoll(V_NB_ALLTOALLW, 0, "MPI_Neighbor_alltoallw_c",
		     args(typed(sendbuf, sendcounts, sdispls, sendtypes),
			  typed(recvbuf, recvcounts, rdispls, recvtypes), comm,
			  MPI_INFO_NULL, NULL));
}

int MPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
			       MPI_Datatype sendtype, void *recvbuf,
			       const MPI_Count recvcounts[],
			       const MPI_Aint displs[], MPI_Datatype recvtype,
			       MPI_Comm comm, MPI_Request *request)
{
	return vcoll(V_NB_ALLGATHERV, 1, "MPI_Ineighbor_allgatherv_c",
		     args(one(sendbuf, sendcount, sendtype),
			  many(recvbuf, recvcounts, displs, recvtype), comm,
			  MPI_INFO_NULL, request));
}

int MPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
				   MPI_Datatype sendtype, void *recvbuf,
				   const MPI_Count recvcounts[],
				   const MPI_Aint displs[],
				   MPI_Datatype recvtype, MPI_Comm comm,
				   MPI_Info info, MPI_Request *request)
{
	return vcoll(V_NB_ALLGATHERV, 2, "MPI_Neighbor_allgatherv_init_c",
		     args(one(sendbuf, sendcount, sendtype),
			  many(recvbuf, recvcounts, displs, recvtype), comm,
			  info, request));
}

int MPI_Ineighbor_alltoallv_c(const void *sendbuf,
			      const MPI_Count sendcounts[],
			      const MPI_Aint sdispls[], MPI_Datatype sendtype,
			      void *recvbuf, const MPI_Count recvcounts[],
			      const MPI_Aint rdispls[], MPI_Datatype recvtype,
			      MPI_Comm comm, MPI_Request *request)
{
	return vcoll(V_NB_ALLTOALLV, 1, "MPI_Ineighbor_alltoallv_c",
		     args(many(sendbuf, sendcounts, sdispls, sendtype),
			  many(recvbuf, recvcounts, rdispls, recvtype), comm,
			  MPI_INFO_NULL, request));
}

int MPI_Neighbor_alltoallv_init_c(const void *sendbuf,
				  const MPI_Count sendcounts[],
				  const MPI_Aint sdispls[],
				  MPI_Datatype sendtype, void *recvbuf,
				  const MPI_Count recvcounts[],
				  const MPI_Aint rdispls[],
				  MPI_Datatype recvtype, MPI_Comm comm,
				  MPI_Info info, MPI_Request *request)
{
	return vcoll(V_NB_ALLTOALLV, 2, "MPI_Neighbor_alltoallv_init_c",
		     args(many(sendbuf, sendcounts, sdispls, sendtype),
			  many(recvbuf, recvcounts, rdispls, recvtype), comm,
			  info, request));
}

int MPI_Ineighbor_alltoallw_c(const void *sendbuf,
			      const MPI_Count sendcounts[],
			      const MPI_Aint sdispls[],
			      const MPI_Datatype sendtypes[], void *recvbuf,
			      const MPI_Count recvcounts[],
			      const MPI_Aint rdispls[],
			      const MPI_Datatype recvtypes[], MPI_Comm comm,
			      MPI_Request *request)
{
	return vcoll(V_NB_ALLTOALLW, 1, "MPI_Ineighbor_alltoallw_c",
		     args(typed(sendbuf, sendcounts, sdispls, sendtypes),
			  typed(recvbuf, recvcounts, rdispls, recvtypes), comm,
			  MPI_INFO_NULL, request));
}

int MPI_Neighbor_alltoallw_init_c(const void *sendbuf,
				  const MPI_Count sendcounts[],
				  const MPI_Aint sdispls[],
				  const MPI_Datatype sendtypes[],
				  void *recvbuf, const MPI_Count recvcounts[],
				  const MPI_Aint rdispls[],
				  const MPI_Datatype recvtypes[],
				  MPI_Comm comm, MPI_Info info,
				  MPI_Request *request)
{
	return vcoll(V_NB_ALLTOALLW, 2, "MPI_Neighbor_alltoallw_init_c",
		     args(typed(sendbuf, sendcounts, sdispls, sendtypes),
			  typed(recvbuf, recvcounts, rdispls, recvtypes), comm,
			  info, request));
}
