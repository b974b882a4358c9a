/* wrong.c - wrong MPI programs that a real MPI may run to a wrong answer
 * or a hang, and that vp must fail loudly, naming the MPI call, the ranks
 * and the MPI error class. argv[1] picks the mistake:
 *   truncate   rank 0 sends 4 ints, rank 1 receives 1
 *   root       MPI_Bcast with root 0 on some ranks and root 1 on others
 *   count      MPI_Allreduce of 2 ints on rank 1, 1 int elsewhere
 *   op         MPI_Allreduce with MPI_MAX on rank 2, MPI_SUM elsewhere
 *   unreceived rank 0 sends a message no one receives
 *   types      rank 0 sends MPI_INT, rank 1 receives MPI_FLOAT (same size)
 *   noinit     MPI_Comm_rank before MPI_Init
 *   nofinalize rank 2 returns from main without MPI_Finalize
 *   after      MPI_Comm_rank after MPI_Finalize
 *   restart    MPI_Start on a persistent request still active
 *   partitions rank 0 sends 2 partitions of 4 ints, rank 1 receives 2 of 3
 *   attr       MPI_Comm_set_attr on the predefined key MPI_TAG_UB
 *   notopo     MPI_Neighbor_allgather on a communicator without a topology
 *   nbrequest  MPI_Ineighbor_allgather on a ring with a NULL request
 *   nbinittopo MPI_Neighbor_alltoall_init on a communicator without a
 *              topology
 *   nbcount    MPI_Ineighbor_allgather_c with a sendcount of 2^32
 *   nbsize     MPI_Ineighbor_alltoall on a ring, rank 1 receiving 2 ints
 *              a neighbour, the others sending 1
 *   nbstuck    MPI_Neighbor_alltoall on a ring but on rank 0, which
 *              receives from rank 1 instead (a deadlock, named by the
 *              collective's name)
 *   winbounds  MPI_Put past the end of the target's window
 *   cancelcoll MPI_Cancel on a nonblocking collective's request
 *   uncommitted MPI_Send of a derived datatype never committed
 *   badrank    MPI_Send to rank 4 of 4
 *   badtag     MPI_Recv with tag -3
 *   freedcomm  MPI_Send on a communicator after MPI_Comm_free
 *   twice-waitall, twice-testall, twice-waitany, twice-waitsome
 *              rank 1 names one receive request twice in the array
 *   stale      rank 1 waits on a copy of a completed request's handle
 *              after 300 newer requests
 *   fencebarrier  MPI_Win_fence on rank 0, MPI_Barrier on the others
 *   fencefree  MPI_Win_free on rank 0, MPI_Win_fence then MPI_Put into
 *              rank 0's freed window on the others
 *   fenceswap  fences on two windows in swapped order on odd ranks
 *   pscwgroup  MPI_Put to rank 2 in an access epoch of MPI_Win_start to
 *              rank 1 only
 *   pscwstuck  every rank calls MPI_Win_start to its right neighbour,
 *              nobody posts (a real MPI may hang)
 *   signature  MPI_Bcast of 2 MPI_INT on rank 0, 1 MPI_LONG elsewhere (the
 *              same bytes, another type signature)
 *   blockkind  MPI_Allgather sending MPI_INT and receiving MPI_FLOAT
 *   selfrank   MPI_Send to rank 1 of MPI_COMM_SELF (errors on it are
 *              fatal too)
 *   overlap    MPI_Comm_create with groups that overlap but differ: ranks
 *              0 and 1 pass {0, 1}, ranks 2 and 3 pass {0, 2, 3} (Open MPI
 *              hangs)
 *   dupbarrier MPI_Comm_dup then MPI_Barrier on rank 0, the two the other
 *              way round on the others (the duplicate sends no message)
 *   recvfinal  rank 0 receives from any rank, nobody sends, the others
 *              go on to MPI_Finalize (a deadlock at a point-to-point
 *              receive, not a skipped collective)
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* Rank 1 receives one int from rank 0 with a request named at indexes 1
 * and 3 of an array of four (0 and 2 are MPI_REQUEST_NULL). */
static void twice(const char *how, int r)
{
	MPI_Request q[4] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL,
			     MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	MPI_Status st[4];
	int x = 5, y, flag = 0, idx, out, ids[4];

	if (r == 0)
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	if (r != 1)
		return;
	MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q[1]);
	q[3] = q[1];
	if (!strcmp(how, "twice-waitall"))
		MPI_Waitall(4, q, st);
	else if (!strcmp(how, "twice-testall"))
		while (!flag)
			MPI_Testall(4, q, &flag, st);
	else if (!strcmp(how, "twice-waitany"))
		MPI_Waitany(4, q, &idx, st);
	else
		MPI_Waitsome(4, q, &out, ids, st);
}

/* Rank 1 keeps a copy of a completed receive's handle and waits on it
 * after 300 newer requests; its slot may hold the last receive. */
static void stale(int r)
{
	MPI_Request a, copy, n;
	int x = 5, y, z, i;

	if (r == 0) {
		MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
		MPI_Send(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
	}
	if (r != 1)
		return;
	MPI_Irecv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &a);
	copy = a;
	MPI_Wait(&a, MPI_STATUS_IGNORE);
	for (i = 0; i < 300; i++) {
		MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &n);
		MPI_Wait(&n, MPI_STATUS_IGNORE);
	}
	MPI_Irecv(&z, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &a);
	MPI_Wait(&copy, MPI_STATUS_IGNORE);
	MPI_Waitall(1, &a, MPI_STATUSES_IGNORE);
}

/* Epoch mistakes; no rank looks at a result (the run must fail by
 * itself before a rank writes into a freed window). */
static void epochs(const char *how, int r)
{
	int *a = calloc(4, sizeof(int)), *b = calloc(4, sizeof(int));
	MPI_Win wa, wb;

	MPI_Win_create(a, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &wa);
	MPI_Win_create(b, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &wb);
	if (!strcmp(how, "fencebarrier")) {
		if (r == 0)
			MPI_Win_fence(0, wa);
		else
			MPI_Barrier(MPI_COMM_WORLD);
	} else if (!strcmp(how, "fencefree")) {
		if (r == 0) {
			MPI_Win_free(&wa);
			free(a);
			return;
		}
		MPI_Win_fence(0, wa);
		MPI_Put(&r, 1, MPI_INT, 0, r, 1, MPI_INT, wa);
		MPI_Win_fence(0, wa);
	} else {
		MPI_Win_fence(0, r % 2 ? wb : wa);
		MPI_Win_fence(0, r % 2 ? wa : wb);
	}
}

/* The nonblocking, persistent and large-count neighbourhood mistakes
 * (nb...) on a ring of the ranks. */
static void neighbours(const char *what, int r, int *x, int *y)
{
	int p, periodic = 1;
	MPI_Comm ring;
	MPI_Request q;

	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Cart_create(MPI_COMM_WORLD, 1, &p, &periodic, 0, &ring);
	if (!strcmp(what, "nbrequest"))
		MPI_Ineighbor_allgather(x, 1, MPI_INT, y, 1, MPI_INT, ring,
					NULL);
	else if (!strcmp(what, "nbinittopo"))
		MPI_Neighbor_alltoall_init(x, 1, MPI_INT, y, 1, MPI_INT,
					   MPI_COMM_WORLD, MPI_INFO_NULL, &q);
	else if (!strcmp(what, "nbcount"))
		MPI_Ineighbor_allgather_c(x, (MPI_Count)1 << 32, MPI_INT, y, 1,
					  MPI_INT, ring, &q);
	else if (!strcmp(what, "nbsize")) {
		MPI_Ineighbor_alltoall(x, 1, MPI_INT, y, r == 1 ? 2 : 1,
				       MPI_INT, ring, &q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "nbstuck") && r == 0) {
		MPI_Recv(y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "nbstuck")) {
		MPI_Neighbor_alltoall(x, 1, MPI_INT, y, 1, MPI_INT, ring);
	}
	MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
	int r, x[4] = { 1, 2, 3, 4 }, y[4];
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "noinit"))
		MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	if (!strcmp(what, "truncate")) {
		if (r == 0)
			MPI_Send(x, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
		if (r == 1)
			MPI_Recv(y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "root")) {
		MPI_Bcast(x, 1, MPI_INT, r == 1, MPI_COMM_WORLD);
	} else if (!strcmp(what, "count")) {
		MPI_Allreduce(x, y, r == 1 ? 2 : 1, MPI_INT, MPI_SUM,
			      MPI_COMM_WORLD);
	} else if (!strcmp(what, "op")) {
		MPI_Allreduce(x, y, 1, MPI_INT, r == 2 ? MPI_MAX : MPI_SUM,
			      MPI_COMM_WORLD);
	} else if (!strcmp(what, "unreceived")) {
		if (r == 0)
			MPI_Send(x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
	} else if (!strcmp(what, "types")) {
		float f;

		if (r == 0)
			MPI_Send(x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
		if (r == 1)
			MPI_Recv(&f, 1, MPI_FLOAT, 0, 3, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "restart")) {
		MPI_Request q;

		MPI_Recv_init(y, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD,
			      &q);
		MPI_Start(&q);
		MPI_Start(&q); /* still waiting for its message */
	} else if (!strcmp(what, "partitions")) {
		MPI_Request q;

		if (r == 0)
			MPI_Psend_init(x, 2, 2, MPI_INT, 1, 4, MPI_COMM_WORLD,
				       MPI_INFO_NULL, &q);
		if (r == 1)
			MPI_Precv_init(y, 2, 1, MPI_INT, 0, 4, MPI_COMM_WORLD,
				       MPI_INFO_NULL, &q);
		if (r < 2) {
			MPI_Start(&q);
			if (r == 0)
				MPI_Pready_range(0, 1, q);
			MPI_Wait(&q, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(what, "winbounds")) {
		MPI_Win win;

		MPI_Win_create(y, sizeof(y), sizeof(int), MPI_INFO_NULL,
			       MPI_COMM_WORLD, &win);
		MPI_Win_fence(0, win);
		if (r == 0)
			MPI_Put(x, 2, MPI_INT, 1, 3, 2, MPI_INT, win);
		MPI_Win_fence(0, win);
		MPI_Win_free(&win);
	} else if (!strcmp(what, "pscwgroup") || !strcmp(what, "pscwstuck")) {
		MPI_Group world, one, from;
		MPI_Win win;
		int peer = (r + 1) % 4, left = (r + 3) % 4;

		MPI_Comm_group(MPI_COMM_WORLD, &world);
		MPI_Group_incl(world, 1, &peer, &one);
		MPI_Group_incl(world, 1, &left, &from);
		MPI_Win_create(y, sizeof(y), sizeof(int), MPI_INFO_NULL,
			       MPI_COMM_WORLD, &win);
		if (what[4] == 'g') { /* pscwgroup */
			MPI_Win_post(from, 0, win);
			MPI_Win_start(one, 0, win);
			if (r == 0)
				MPI_Put(x, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
			MPI_Win_complete(win);
			MPI_Win_wait(win);
		} else {
			MPI_Win_start(one, 0, win);
		}
		MPI_Win_free(&win);
	} else if (!strncmp(what, "nb", 2)) {
		neighbours(what, r, x, y);
	} else if (!strcmp(what, "notopo")) {
		MPI_Neighbor_allgather(x, 1, MPI_INT, y, 1, MPI_INT,
				       MPI_COMM_WORLD);
	} else if (!strcmp(what, "cancelcoll")) {
		MPI_Request q;

		MPI_Ibarrier(MPI_COMM_WORLD, &q);
		MPI_Cancel(&q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "uncommitted") && r == 0) {
		MPI_Datatype pair;

		MPI_Type_contiguous(2, MPI_INT, &pair);
		MPI_Send(x, 1, pair, 1, 5, MPI_COMM_WORLD);
	} else if (!strcmp(what, "badrank") && r == 3) {
		MPI_Send(x, 1, MPI_INT, 4, 5, MPI_COMM_WORLD);
	} else if (!strcmp(what, "badtag") && r == 1) {
		MPI_Recv(y, 1, MPI_INT, 0, -3, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "freedcomm") && r == 2) {
		MPI_Comm dup, old;

		MPI_Comm_dup(MPI_COMM_SELF, &dup);
		old = dup;
		MPI_Comm_free(&dup);
		MPI_Send(x, 1, MPI_INT, 0, 5, old);
	} else if (!strncmp(what, "twice-", 6)) {
		twice(what, r);
	} else if (!strcmp(what, "stale")) {
		stale(r);
	} else if (!strncmp(what, "fence", 5)) {
		epochs(what, r);
	} else if (!strcmp(what, "signature")) {
		long l = 0;

		if (r == 0)
			MPI_Bcast(x, 2, MPI_INT, 0, MPI_COMM_WORLD);
		else
			MPI_Bcast(&l, 1, MPI_LONG, 0, MPI_COMM_WORLD);
	} else if (!strcmp(what, "blockkind")) {
		float f[4];

		MPI_Allgather(x, 1, MPI_INT, f, 1, MPI_FLOAT, MPI_COMM_WORLD);
	} else if (!strcmp(what, "selfrank") && r == 0) {
		MPI_Send(x, 1, MPI_INT, 1, 5, MPI_COMM_SELF);
	} else if (!strcmp(what, "overlap")) {
		int mine[3] = { 0, 2, 3 };
		MPI_Group world, g;
		MPI_Comm c;

		MPI_Comm_group(MPI_COMM_WORLD, &world);
		if (r < 2)
			MPI_Group_incl(world, 2, (int[]){ 0, 1 }, &g);
		else
			MPI_Group_incl(world, 3, mine, &g);
		MPI_Comm_create(MPI_COMM_WORLD, g, &c);
	} else if (!strcmp(what, "dupbarrier")) {
		MPI_Comm d;

		if (r != 0)
			MPI_Barrier(MPI_COMM_WORLD);
		MPI_Comm_dup(MPI_COMM_WORLD, &d);
		MPI_Barrier(MPI_COMM_WORLD);
	} else if (!strcmp(what, "recvfinal") && r == 0) {
		MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else if (!strcmp(what, "attr")) {
		MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, x);
	} else if (!strcmp(what, "nofinalize") && r == 2) {
		return 0;
	}
	MPI_Finalize();
	if (!strcmp(what, "after"))
		MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return 0;
}
