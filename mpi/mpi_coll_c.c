/*
 * mpi_coll_c.c - the large-count collectives with one count a side (MPI
 * 4.0, sec. 6, 8.6 to 8.8 and 19.2: MPI_Bcast_c and the others take
 * MPI_Count counts): blocking, nonblocking and persistent, the
 * neighbourhood ones too, and MPI_Reduce_local_c. Each runs
 * its int sibling (MPI_Bcast_c runs MPI_Bcast): the same algorithm, the
 * same messages charged by the model, the same checks. vp's collectives
 * take up to INT_MAX items a block; a count above it, or a negative one,
 * fails with MPI_ERR_COUNT naming the call and the count. Errors raised
 * inside the sibling name the large-count call. The v- and w-forms are in
 * mpi_vcoll_c.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>

#include "vpmpi.h"

int vpmpi_c_fits(MPI_Comm h, const char *what, MPI_Count n, const char *call)
{
	if (n >= 0 && n <= INT_MAX)
		return MPI_SUCCESS;
	return vpmpi_err(h, MPI_ERR_COUNT, call,
			 n < 0 ? "%s %lld is negative"
			       : "%s %lld is above INT_MAX, the most vp "
				 "takes in this call",
			 what, n);
}

int vpmpi_c_begin(MPI_Comm h, const char *call, const char *what,
		  MPI_Count a, const char *what2, MPI_Count b)
{
	int rc;

	vpmpi_me.call_c = call;
	if (what && (rc = vpmpi_c_fits(h, what, a, call)))
		return rc;
	return what2 ? vpmpi_c_fits(h, what2, b, call) : MPI_SUCCESS;
}

int vpmpi_c_end(int rc)
{
	vpmpi_me.call_c = NULL;
	return rc;
}

int vpmpi_c_is_root(MPI_Comm h, int root)
{
	int inter = 0, me = -1;

	if (MPI_Comm_test_inter(h, &inter) || inter)
		return inter && root == MPI_ROOT;
	return !MPI_Comm_rank(h, &me) && me == root;
}

/* ---- one count ---- */

int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype type, int root,
		MPI_Comm comm)
{
	int rc = vpmpi_c_begin(comm, "MPI_Bcast_c", "count", count, NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Bcast(buf, (int)count, type, root, comm));
}

int MPI_Ibcast_c(void *buf, MPI_Count count, MPI_Datatype type, int root,
		 MPI_Comm comm, MPI_Request *request)
{
	int rc = vpmpi_c_begin(comm, "MPI_Ibcast_c", "count", count, NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Ibcast(buf, (int)count, type, root, comm,
					   request));
}

int MPI_Bcast_init_c(void *buf, MPI_Count count, MPI_Datatype type, int root,
		     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int rc = vpmpi_c_begin(comm, "MPI_Bcast_init_c", "count", count, NULL,
			       0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Bcast_init(buf, (int)count, type, root,
					       comm, info, request));
}

/* ---- reductions ---- */

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		 MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
	int rc = vpmpi_c_begin(comm, "MPI_Reduce_c", "count", count, NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Reduce(sendbuf, recvbuf, (int)count, type,
					   op, root, comm));
}

int MPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		  MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		  MPI_Request *request)
{
	int rc = vpmpi_c_begin(comm, "MPI_Ireduce_c", "count", count, NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Ireduce(sendbuf, recvbuf, (int)count, type,
					    op, root, comm, request));
}

int MPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		      MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request)
{
	int rc = vpmpi_c_begin(comm, "MPI_Reduce_init_c", "count", count,
			       NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Reduce_init(sendbuf, recvbuf, (int)count,
						type, op, root, comm, info,
						request));
}

/* Allreduce, Scan, Exscan and Reduce_scatter_block: the same arguments.
 * kind 0..3 in that order; form 0 blocking, 1 nonblocking, 2 persistent. */
static int reduce_all(int kind, int form, const void *sendbuf,
		      void *recvbuf, MPI_Count count, MPI_Datatype type,
		      MPI_Op op, MPI_Comm comm, MPI_Info info,
		      MPI_Request *request)
{
	static const char *const names[4][3] = {
	    { "MPI_Allreduce_c", "MPI_Iallreduce_c", "MPI_Allreduce_init_c" },
	    { "MPI_Scan_c", "MPI_Iscan_c", "MPI_Scan_init_c" },
	    { "MPI_Exscan_c", "MPI_Iexscan_c", "MPI_Exscan_init_c" },
	    { "MPI_Reduce_scatter_block_c", "MPI_Ireduce_scatter_block_c",
	      "MPI_Reduce_scatter_block_init_c" },
	};
	int rc = vpmpi_c_begin(comm, names[kind][form],
			       kind == 3 ? "recvcount" : "count", count, NULL,
			       0);
	int n = (int)count;

	if (rc)
		return vpmpi_c_end(rc);
	switch (kind * 3 + form) {
	case 0: rc = MPI_Allreduce(sendbuf, recvbuf, n, type, op, comm); break;
	case 1: rc = MPI_Iallreduce(sendbuf, recvbuf, n, type, op, comm,
				    request); break;
	case 2: rc = MPI_Allreduce_init(sendbuf, recvbuf, n, type, op, comm,
					info, request); break;
	case 3: rc = MPI_Scan(sendbuf, recvbuf, n, type, op, comm); break;
	case 4: rc = MPI_Iscan(sendbuf, recvbuf, n, type, op, comm, request);
		break;
	case 5: rc = MPI_Scan_init(sendbuf, recvbuf, n, type, op, comm, info,
				   request); break;
	case 6: rc = MPI_Exscan(sendbuf, recvbuf, n, type, op, comm); break;
	case 7: rc = MPI_Iexscan(sendbuf, recvbuf, n, type, op, comm,
				 request); break;
	case 8: rc = MPI_Exscan_init(sendbuf, recvbuf, n, type, op, comm, info,
				     request); break;
	case 9: rc = MPI_Reduce_scatter_block(sendbuf, recvbuf, n, type, op,
					      comm); break;
	case 10: rc = MPI_Ireduce_scatter_block(sendbuf, recvbuf, n, type, op,
						comm, request); break;
	default: rc = MPI_Reduce_scatter_block_init(sendbuf, recvbuf, n, type,
						    op, comm, info, request);
	}
	return vpmpi_c_end(rc);
}

int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	return reduce_all(0, 0, sendbuf, recvbuf, count, type, op, comm,
			  MPI_INFO_NULL, NULL);
}

int MPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		     MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		     MPI_Request *request)
{
	return reduce_all(0, 1, sendbuf, recvbuf, count, type, op, comm,
			  MPI_INFO_NULL, request);
}

int MPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
			 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			 MPI_Info info, MPI_Request *request)
{
	return reduce_all(0, 2, sendbuf, recvbuf, count, type, op, comm, info,
			  request);
}

int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
	       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	return reduce_all(1, 0, sendbuf, recvbuf, count, type, op, comm,
			  MPI_INFO_NULL, NULL);
}

int MPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		MPI_Request *request)
{
	return reduce_all(1, 1, sendbuf, recvbuf, count, type, op, comm,
			  MPI_INFO_NULL, request);
}

int MPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request)
{
	return reduce_all(1, 2, sendbuf, recvbuf, count, type, op, comm, info,
			  request);
}

int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		 MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	return reduce_all(2, 0, sendbuf, recvbuf, count, type, op, comm,
			  MPI_INFO_NULL, NULL);
}

int MPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		  MPI_Request *request)
{
	return reduce_all(2, 1, sendbuf, recvbuf, count, type, op, comm,
			  MPI_INFO_NULL, request);
}

int MPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		      MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request)
{
	return reduce_all(2, 2, sendbuf, recvbuf, count, type, op, comm, info,
			  request);
}

int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf,
			       MPI_Count recvcount, MPI_Datatype type,
			       MPI_Op op, MPI_Comm comm)
{
	return reduce_all(3, 0, sendbuf, recvbuf, recvcount, type, op, comm,
			  MPI_INFO_NULL, NULL);
}

int MPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf,
				MPI_Count recvcount, MPI_Datatype type,
				MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return reduce_all(3, 1, sendbuf, recvbuf, recvcount, type, op, comm,
			  MPI_INFO_NULL, request);
}

int MPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf,
				    MPI_Count recvcount, MPI_Datatype type,
				    MPI_Op op, MPI_Comm comm, MPI_Info info,
				    MPI_Request *request)
{
	return reduce_all(3, 2, sendbuf, recvbuf, recvcount, type, op, comm,
			  info, request);
}

int MPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
		       MPI_Datatype type, MPI_Op op)
{
	int rc = vpmpi_c_begin(MPI_COMM_WORLD, "MPI_Reduce_local_c", "count",
			       count, NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Reduce_local(inbuf, inoutbuf, (int)count,
						 type, op));
}

/* ---- blocks: gather, scatter, allgather, all-to-all ---- */

enum { C_GATHER, C_SCATTER, C_ALLGATHER, C_ALLTOALL, C_NB_ALLGATHER,
       C_NB_ALLTOALL };

/* The int sibling of kind in form (0 blocking, 1 nonblocking, 2
 * persistent). */
static int run_blocks(int kind, int form, const void *sb, int sc,
		      MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
		      int root, MPI_Comm comm, MPI_Info info,
		      MPI_Request *req)
{
	switch (kind * 3 + form) {
	case 0: return MPI_Gather(sb, sc, st, rb, rc, rt, root, comm);
	case 1: return MPI_Igather(sb, sc, st, rb, rc, rt, root, comm, req);
	case 2: return MPI_Gather_init(sb, sc, st, rb, rc, rt, root, comm,
				       info, req);
	case 3: return MPI_Scatter(sb, sc, st, rb, rc, rt, root, comm);
	case 4: return MPI_Iscatter(sb, sc, st, rb, rc, rt, root, comm, req);
	case 5: return MPI_Scatter_init(sb, sc, st, rb, rc, rt, root, comm,
					info, req);
	case 6: return MPI_Allgather(sb, sc, st, rb, rc, rt, comm);
	case 7: return MPI_Iallgather(sb, sc, st, rb, rc, rt, comm, req);
	case 8: return MPI_Allgather_init(sb, sc, st, rb, rc, rt, comm, info,
					  req);
	case 9: return MPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
	case 10: return MPI_Ialltoall(sb, sc, st, rb, rc, rt, comm, req);
	case 11: return MPI_Alltoall_init(sb, sc, st, rb, rc, rt, comm, info,
					  req);
	case 12: return MPI_Neighbor_allgather(sb, sc, st, rb, rc, rt, comm);
	case 13: return MPI_Ineighbor_allgather(sb, sc, st, rb, rc, rt, comm,
						req);
	case 14: return MPI_Neighbor_allgather_init(sb, sc, st, rb, rc, rt,
						    comm, info, req);
	case 15: return MPI_Neighbor_alltoall(sb, sc, st, rb, rc, rt, comm);
	case 16: return MPI_Ineighbor_alltoall(sb, sc, st, rb, rc, rt, comm,
					       req);
	default: return MPI_Neighbor_alltoall_init(sb, sc, st, rb, rc, rt,
						   comm, info, req);
	}
}

/* A count the rank's role makes significant (MPI 4.0 sec. 6.5, 6.6: a
 * gather's recvcount at the root, a scatter's sendcount there, no send
 * count in place): checked; the others pass as 0. */
static int blocks(int kind, int form, const char *call, const void *sb,
		  MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
		  MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info,
		  MPI_Request *req)
{
	int at_root, use_s, use_r, e;

	vpmpi_me.call_c = call; /* the root's check names call too */
	at_root = (kind == C_GATHER || kind == C_SCATTER) &&
		  vpmpi_c_is_root(comm, root);
	use_s = sb != MPI_IN_PLACE && (kind != C_SCATTER || at_root);
	use_r = rb != MPI_IN_PLACE && (kind != C_GATHER || at_root);
	e = vpmpi_c_begin(comm, call, use_s ? "sendcount" : NULL, sc,
			  use_r ? "recvcount" : NULL, rc);
	if (e)
		return vpmpi_c_end(e);
	return vpmpi_c_end(run_blocks(kind, form, sb, use_s ? (int)sc : 0, st,
				      rb, use_r ? (int)rc : 0, rt, root, comm,
				      info, req));
}

int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount,
		 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return blocks(C_GATHER, 0, "MPI_Gather_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, root, comm,
		      MPI_INFO_NULL, NULL);
}

int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount,
		  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm,
		  MPI_Request *request)
{
	return blocks(C_GATHER, 1, "MPI_Igather_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, root, comm,
		      MPI_INFO_NULL, request);
}

int MPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf,
		      MPI_Count recvcount, MPI_Datatype recvtype, int root,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return blocks(C_GATHER, 2, "MPI_Gather_init_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, root, comm, info,
		      request);
}

int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount,
		  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return blocks(C_SCATTER, 0, "MPI_Scatter_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, root, comm,
		      MPI_INFO_NULL, NULL);
}

int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		   MPI_Datatype recvtype, int root, MPI_Comm comm,
		   MPI_Request *request)
{
	return blocks(C_SCATTER, 1, "MPI_Iscatter_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, root, comm,
		      MPI_INFO_NULL, request);
}

int MPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount,
		       MPI_Datatype sendtype, void *recvbuf,
		       MPI_Count recvcount, MPI_Datatype recvtype, int root,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return blocks(C_SCATTER, 2, "MPI_Scatter_init_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, root, comm, info,
		      request);
}

int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, MPI_Comm comm)
{
	return blocks(C_ALLGATHER, 0, "MPI_Allgather_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, 0, comm,
		      MPI_INFO_NULL, NULL);
}

int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount,
		     MPI_Datatype sendtype, void *recvbuf,
		     MPI_Count recvcount, MPI_Datatype recvtype,
		     MPI_Comm comm, MPI_Request *request)
{
	return blocks(C_ALLGATHER, 1, "MPI_Iallgather_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, 0, comm,
		      MPI_INFO_NULL, request);
}

int MPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount,
			 MPI_Datatype sendtype, void *recvbuf,
			 MPI_Count recvcount, MPI_Datatype recvtype,
			 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return blocks(C_ALLGATHER, 2, "MPI_Allgather_init_c", sendbuf,
		      sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
		      comm, info, request);
}

int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		   MPI_Datatype recvtype, MPI_Comm comm)
{
	return blocks(C_ALLTOALL, 0, "MPI_Alltoall_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, 0, comm,
		      MPI_INFO_NULL, NULL);
}

int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return blocks(C_ALLTOALL, 1, "MPI_Ialltoall_c", sendbuf, sendcount,
		      sendtype, recvbuf, recvcount, recvtype, 0, comm,
		      MPI_INFO_NULL, request);
}

int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
			MPI_Datatype sendtype, void *recvbuf,
			MPI_Count recvcount, MPI_Datatype recvtype,
			MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return blocks(C_ALLTOALL, 2, "MPI_Alltoall_init_c", sendbuf,
		      sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
		      comm, info, request);
}

int MPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     MPI_Count recvcount, MPI_Datatype recvtype,
			     MPI_Comm comm)
{
	return blocks(C_NB_ALLGATHER, 0, "MPI_Neighbor_allgather_c", sendbuf,
		      sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
		      comm, MPI_INFO_NULL, NULL);
}

int MPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    MPI_Count recvcount, MPI_Datatype recvtype,
			    MPI_Comm comm)
{
	return blocks(C_NB_ALLTOALL, 0, "MPI_Neighbor_alltoall_c", sendbuf,
		      sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
		      comm, MPI_INFO_NULL, NULL);
}

int MPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
			      MPI_Datatype sendtype, void *recvbuf,
			      MPI_Count recvcount, MPI_Datatype recvtype,
			      MPI_Comm comm, MPI_Request *request)
{
	return blocks(C_NB_ALLGATHER, 1, "MPI_Ineighbor_allgather_c", sendbuf,
		      sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
		      comm, MPI_INFO_NULL, request);
}

int MPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
				  MPI_Datatype sendtype, void *recvbuf,
				  MPI_Count recvcount, MPI_Datatype recvtype,
				  MPI_Comm comm, MPI_Info info,
				  MPI_Request *request)
{
	return blocks(C_NB_ALLGATHER, 2, "MPI_Neighbor_allgather_init_c",
		      sendbuf, sendcount, sendtype, recvbuf, recvcount,
		      recvtype, 0, comm, info, request);
}

int MPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     MPI_Count recvcount, MPI_Datatype recvtype,
			     MPI_Comm comm, MPI_Request *request)
{
	return blocks(C_NB_ALLTOALL, 1, "MPI_Ineighbor_alltoall_c", sendbuf,
		      sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
		      comm, MPI_INFO_NULL, request);
}

int MPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
				 MPI_Datatype sendtype, void *recvbuf,
				 MPI_Count recvcount, MPI_Datatype recvtype,
				 MPI_Comm comm, MPI_Info info,
				 MPI_Request *request)
{
	return blocks(C_NB_ALLTOALL, 2, "MPI_Neighbor_alltoall_init_c",
		      sendbuf, sendcount, sendtype, recvbuf, recvcount,
		      recvtype, 0, comm, info, request);
}
