/*
 * coll_large_count.c - the MPI 4.0 large-count collectives (sec. 6 and
 * 19.2): every _c collective with MPI_Count counts and MPI_Aint
 * displacements moves and reduces what its int sibling does, blocking,
 * nonblocking and persistent (a persistent v-form started twice after its
 * arrays are gone), on a non-contiguous datatype with an MPI_Op_create_c
 * op, and the neighbourhood ones on a ring; a count above INT_MAX or a
 * displacement outside an int fails with MPI_ERR_COUNT naming the call
 * and the value.
 * no-ref: MPI 4.0 calls Open MPI 4.1 lacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 5      /* items a block */
#define MAXP 8

static int rank, p, bad;

static void expect(const char *what, long got, long want)
{
	if (got != want && bad++ < 10)
		printf("rank %d: %s: %ld, expected %ld\n", rank, what, got,
		       want);
}

/* every second int of a (stride 2), as MPI_Type_create_resized makes */
static MPI_Datatype strided;

static void add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *t)
{
	int *a = in, *b = inout;
	MPI_Count i;

	(void)t;
	for (i = 0; i < *len; i++)
		b[2 * i] += a[2 * i];
}

static void blocks(void)
{
	int s[2 * N * MAXP], r[2 * N * MAXP], i, j;
	MPI_Count counts[MAXP];
	MPI_Aint displs[MAXP];
	MPI_Request req;

	for (i = 0; i < 2 * N * p; i++)
		s[i] = rank * 100 + i / 2, r[i] = -1;
	MPI_Bcast_c(s, N, strided, p - 1, MPI_COMM_WORLD);
	for (i = 0; i < N; i++)
		expect("bcast", s[2 * i], (p - 1) * 100 + i);
	for (i = 0; i < 2 * N * p; i++)
		s[i] = rank * 100 + i / 2;
	MPI_Igather_c(s, N, strided, r, N, strided, 0, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	for (i = 0; rank == 0 && i < N * p; i++)
		expect("igather", r[2 * i], (i / N) * 100 + i % N);
	for (j = 0; j < p; j++)
		counts[j] = j % N + 1, displs[j] = (MPI_Aint)j * N;
	MPI_Allgatherv_c(s, rank % N + 1, strided, r, counts, displs, strided,
			 MPI_COMM_WORLD);
	for (j = 0; j < p; j++)
		for (i = 0; i <= j % N; i++)
			expect("allgatherv", r[2 * (j * N + i)], j * 100 + i);
	MPI_Alltoall_c(s, N, MPI_INT, r, N, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < N * p; i++)
		expect("alltoall", r[i], (i / N) * 100 + (rank * N + i % N) / 2);
}

static void reductions(MPI_Op op)
{
	int s[2 * N * MAXP], r[2 * N * MAXP], i;
	MPI_Count counts[MAXP];
	MPI_Request req;

	for (i = 0; i < 2 * N * p; i++)
		s[i] = rank + i / 2, r[i] = -1;
	MPI_Allreduce_c(s, r, N, strided, op, MPI_COMM_WORLD);
	for (i = 0; i < N; i++)
		expect("allreduce", r[2 * i], p * (p - 1) / 2 + p * i);
	MPI_Iscan_c(s, r, N, strided, op, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	for (i = 0; i < N; i++)
		expect("iscan", r[2 * i], rank * (rank + 1) / 2 + (rank + 1) * i);
	for (i = 0; i < p; i++)
		counts[i] = N;
	MPI_Reduce_scatter_c(s, r, counts, strided, op, MPI_COMM_WORLD);
	for (i = 0; i < N; i++)
		expect("reduce_scatter", r[2 * i],
		       p * (p - 1) / 2 + p * (rank * N + i));
	memcpy(r, s, sizeof(s));
	MPI_Reduce_local_c(s, r, N, strided, op);
	for (i = 0; i < N; i++)
		expect("reduce_local", r[2 * i], 2 * (rank + i));
}

/* A persistent Gatherv_c started twice: its counts and displacements
 * are the request's own once made. */
static void persistent(void)
{
	MPI_Count *counts = malloc(MAXP * sizeof(*counts));
	MPI_Aint *displs = malloc(MAXP * sizeof(*displs));
	int s[N], r[N * MAXP], i, k;
	MPI_Request req;

	for (i = 0; i < p; i++)
		counts[i] = N - 1, displs[i] = (MPI_Aint)(p - 1 - i) * N;
	MPI_Gatherv_init_c(s, N - 1, MPI_INT, r, counts, displs, MPI_INT, 0,
			   MPI_COMM_WORLD, MPI_INFO_NULL, &req);
	memset(counts, 0xff, MAXP * sizeof(*counts));
	free(counts);
	free(displs);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < N; i++)
			s[i] = k * 1000 + rank * 10 + i;
		MPI_Start(&req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		for (i = 0; rank == 0 && i < p * N; i++)
			if (i % N < N - 1)
				expect("gatherv_init", r[i],
				       k * 1000 + (p - 1 - i / N) * 10 + i % N);
	}
	MPI_Request_free(&req);
}

static void neighbours(void)
{
	int dims[1] = { 0 }, periods[1] = { 1 }, s[2 * N], r[2 * N], i;
	MPI_Count counts[2] = { N, N };
	MPI_Aint displs[2] = { 0, N };
	MPI_Comm ring;

	MPI_Dims_create(p, 1, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	for (i = 0; i < 2 * N; i++)
		s[i] = rank * 100 + i, r[i] = -1;
	MPI_Neighbor_alltoallv_c(s, counts, displs, MPI_INT, r, counts, displs,
				 MPI_INT, ring);
	/* block 0 comes from the left neighbour's block 1, block 1 from the
	 * right's block 0 */
	for (i = 0; i < N; i++) {
		expect("neighbor left", r[i], ((rank + p - 1) % p) * 100 + N + i);
		expect("neighbor right", r[N + i], ((rank + 1) % p) * 100 + i);
	}
	MPI_Comm_free(&ring);
}

/* A call that must fail with class want, its message naming name and
 * value: printed by rank 0. */
static void refused(int rc, int want, const char *name, const char *value)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len, cls;

	MPI_Error_class(rc, &cls);
	MPI_Error_string(rc, msg, &len);
	if (rank == 0)
		printf("%s: %s, names the call %s, the value %s\n", name,
		       cls == want ? "the class expected" : "another class",
		       strstr(msg, name) ? "yes" : "no",
		       strstr(msg, value) ? "yes" : "no");
}

static void errors(void)
{
	MPI_Count big = (MPI_Count)INT_MAX + 100, counts[MAXP];
	MPI_Aint displs[MAXP];
	int buf[N * MAXP], i;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	refused(MPI_Bcast_c(buf, big, MPI_CHAR, 0, MPI_COMM_WORLD),
		MPI_ERR_COUNT, "MPI_Bcast_c", "2147483747");
	refused(MPI_Allreduce_c(buf, buf + N, -3, MPI_INT, MPI_SUM,
				MPI_COMM_WORLD),
		MPI_ERR_COUNT, "MPI_Allreduce_c", "-3");
	for (i = 0; i < p; i++)
		counts[i] = 1, displs[i] = i;
	displs[p - 1] = (MPI_Aint)INT_MAX * 4;
	refused(MPI_Allgatherv_c(buf, 1, MPI_INT, buf + p, counts, displs,
				 MPI_INT, MPI_COMM_WORLD),
		MPI_ERR_COUNT, "MPI_Allgatherv_c", "8589934588");
	/* the sibling's own checks name the large-count call */
	refused(MPI_Gather_c(buf, 1, MPI_INT, buf, 1, MPI_INT, p,
			     MPI_COMM_WORLD),
		MPI_ERR_ROOT, "MPI_Gather_c", "root");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	MPI_Op add;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &strided);
	MPI_Type_commit(&strided);
	MPI_Op_create_c(add_c, 1, &add);
	blocks();
	reductions(add);
	reductions(MPI_SUM);
	persistent();
	neighbours();
	errors();
	MPI_Op_free(&add);
	MPI_Type_free(&strided);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("large-count collectives on %d ranks: %s (%d bad)\n", p,
		       bad ? "FAILED" : "ok", bad);
	MPI_Finalize();
	return bad != 0;
}
