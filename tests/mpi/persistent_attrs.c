/* persistent_attrs.c - persistent requests and attributes, as halo
 * exchanges and libraries use them:
 *   - a ring exchange set up once with MPI_Send_init/MPI_Recv_init and
 *     run 10 times with MPI_Startall/MPI_Waitall (the buffers re-read and
 *     re-written at each start; the handles stay valid; an inactive
 *     request waits as a null one), then MPI_Request_free;
 *   - MPI_Request_free of an active send: the message still arrives;
 *   - a started persistent receive cancelled (MPI_Cancel): inactive again,
 *     restarted, it takes the next message;
 *   - MPI_Issend is not complete (MPI_Test) before its receive is posted;
 *     MPI_Ssend_init starts synchronous sends, likewise not complete
 *     before their receive is posted;
 *   - MPI_TAG_UB and MPI_WTIME_IS_GLOBAL read with MPI_Comm_get_attr;
 *   - a keyval whose copy callback counts copies and whose delete
 *     callback counts deletions: set, read, copied by MPI_Comm_dup (the
 *     copy holds the callback's value), deleted by MPI_Comm_free, replaced
 *     by a second MPI_Comm_set_attr (which deletes the old value first),
 *     deleted by MPI_Comm_delete_attr.
 * Every rank checks; rank 0 prints the verdict.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

static int copies, deletions;

static int copy_fn(MPI_Comm old, int key, void *extra, void *in, void *out,
		   int *flag)
{
	(void)old, (void)key, (void)extra;
	copies++;
	*(void **)out = (char *)in + 1; /* the copy's value differs */
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int key, void *value, void *extra)
{
	(void)comm, (void)key, (void)value;
	deletions += *(int *)extra;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, i, left, right, flag, key, one = 1;
	int out, in, *ub, *global;
	char base[4], *got;
	MPI_Request req[2];
	MPI_Status st[2];
	MPI_Comm dup;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;

	/* persistent ring exchange, ten rounds */
	MPI_Send_init(&out, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &req[0]);
	MPI_Recv_init(&in, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &req[1]);
	for (i = 0; i < 10; i++) {
		out = 1000 * rank + i;
		in = -1;
		MPI_Startall(2, req);
		MPI_Waitall(2, req, st);
		bad += in != 1000 * left + i || st[1].MPI_SOURCE != left ||
		       st[1].MPI_TAG != 3;
		bad += req[0] == MPI_REQUEST_NULL || req[1] == MPI_REQUEST_NULL;
	}
	MPI_Wait(&req[1], &st[1]); /* inactive: returns at once */
	bad += st[1].MPI_SOURCE != MPI_ANY_SOURCE;
	MPI_Request_free(&req[0]);
	MPI_Request_free(&req[1]);
	bad += req[0] != MPI_REQUEST_NULL || req[1] != MPI_REQUEST_NULL;

	/* freeing an active send: the message is still delivered */
	out = 7 * rank;
	MPI_Isend(&out, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &req[0]);
	MPI_Request_free(&req[0]);
	MPI_Recv(&in, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	bad += in != 7 * left;

	/* a synchronous send waits for its receive */
	out = 11 * rank;
	MPI_Issend(&out, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &req[0]);
	MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
	bad += flag != 0;
	MPI_Barrier(MPI_COMM_WORLD); /* no receive is posted before this */
	MPI_Recv(&in, 1, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Wait(&req[0], MPI_STATUS_IGNORE);
	bad += in != 11 * left;
	MPI_Ssend_init(&out, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &req[0]);
	MPI_Recv_init(&in, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &req[1]);
	for (i = 0; i < 3; i++) {
		out = 100 * rank + i;
		MPI_Startall(2, req);
		MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
		bad += in != 100 * left + i;
	}
	/* started before its receive is posted, it is not done */
	out = 7 * rank;
	MPI_Start(&req[0]);
	MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
	bad += flag != 0;
	MPI_Barrier(MPI_COMM_WORLD); /* no receive is posted before this */
	MPI_Start(&req[1]);
	MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	bad += in != 7 * left;
	MPI_Request_free(&req[0]);
	MPI_Request_free(&req[1]);
	/* a started persistent receive cancelled before any message: it is
	 * inactive again, and its next start takes the message */
	MPI_Recv_init(&in, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &req[1]);
	MPI_Start(&req[1]);
	MPI_Cancel(&req[1]);
	MPI_Wait(&req[1], &st[0]);
	MPI_Test_cancelled(&st[0], &flag);
	bad += !flag || req[1] == MPI_REQUEST_NULL;
	MPI_Barrier(MPI_COMM_WORLD); /* every rank cancelled first */
	out = 12 * rank;
	MPI_Send(&out, 1, MPI_INT, right, 12, MPI_COMM_WORLD);
	MPI_Start(&req[1]);
	MPI_Wait(&req[1], &st[0]);
	MPI_Test_cancelled(&st[0], &flag);
	bad += flag || in != 12 * left;
	MPI_Request_free(&req[1]);

	/* predefined attributes */
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
	bad += !flag || *ub < 32767;
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
	bad += !flag || (*global != 0 && *global != 1);

	/* a keyval with callbacks */
	MPI_Comm_create_keyval(copy_fn, delete_fn, &key, &one);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
	bad += flag != 0; /* not set yet */
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, base);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
	bad += !flag || got != base;
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_get_attr(dup, key, &got, &flag);
	bad += !flag || got != base + 1 || copies != 1;
	MPI_Comm_free(&dup);
	bad += deletions != 1;
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, base + 2);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
	bad += !flag || got != base + 2 || deletions != 2; /* old value */
	MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
	bad += flag != 0 || deletions != 3;
	MPI_Comm_free_keyval(&key);
	bad += key != MPI_KEYVAL_INVALID;

	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("persistent requests and attributes on %d ranks: %s "
		       "(%d bad)\n",
		       size, all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
