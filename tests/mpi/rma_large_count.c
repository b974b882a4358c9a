/*
 * rma_large_count.c - the MPI 4.0 large-count one-sided calls (sec. 12
 * and 19.2): MPI_Win_allocate_c, MPI_Win_create_c (an MPI_Aint
 * disp_unit, displacements scaled by it), MPI_Put_c, MPI_Get_c,
 * MPI_Accumulate_c, MPI_Get_accumulate_c under fences; MPI_Rput_c,
 * MPI_Rget_c, MPI_Raccumulate_c, MPI_Rget_accumulate_c under
 * MPI_Win_lock_all; MPI_Win_allocate_shared_c and MPI_Win_shared_query_c
 * (its disp_unit an MPI_Aint). Under vp, a count above INT_MAX, a
 * negative one and a disp_unit above INT_MAX fail naming the call and the
 * value (MPICH takes such counts, and the output compared with MPICH's
 * leaves these lines out).
 * no-ref: MPI 4.0 calls Open MPI 4.1 lacks (the output is MPICH 4.0's)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 4 /* ints a block */

static int rank, p, bad;

static void expect(const char *what, long got, long want)
{
	if (got != want && bad++ < 10)
		printf("rank %d: %s: %ld, expected %ld\n", rank, what, got,
		       want);
}

/* Window of 3 blocks: [0] the left neighbour's put, [1] every rank's
 * accumulate (rank 0's), [2] rank + 100 + i, read by the others. */
static void fences(void)
{
	int *mem, mine[N], got[N], old[N], i, right = (rank + 1) % p;
	int left = (rank + p - 1) % p;
	MPI_Win win;

	MPI_Win_allocate_c(3 * N * sizeof(int), (MPI_Aint)sizeof(int),
			   MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
	for (i = 0; i < 3 * N; i++)
		mem[i] = i < 2 * N ? 0 : rank + 100 + i % N;
	for (i = 0; i < N; i++)
		mine[i] = rank * 10 + i, got[i] = old[i] = -1;
	MPI_Win_fence(0, win);
	MPI_Put_c(mine, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Accumulate_c(mine, N, MPI_INT, 0, N, N, MPI_INT, MPI_SUM, win);
	MPI_Get_c(got, N, MPI_INT, left, 2 * N, N, MPI_INT, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < N; i++) {
		expect("put", mem[i], left * 10 + i);
		expect("get", got[i], left + 100 + i);
		if (rank == 0)
			expect("accumulate", mem[N + i],
			       10 * p * (p - 1) / 2 + p * i);
	}
	MPI_Win_fence(0, win);
	MPI_Get_accumulate_c(mine, N, MPI_INT, old, N, MPI_INT, right, 2 * N,
			     N, MPI_INT, MPI_REPLACE, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < N; i++) {
		expect("get_accumulate fetched", old[i], right + 100 + i);
		expect("get_accumulate replaced", mem[2 * N + i],
		       left * 10 + i);
	}
	MPI_Win_free(&win);
}

/* The request-based calls under MPI_Win_lock_all, on a window of
 * MPI_Win_create_c whose disp_unit is 2 ints: block k at displacement
 * k * N / 2. */
static void requests(void)
{
	int mem[3 * N], mine[N], got[N], old[N], i, right = (rank + 1) % p;
	int left = (rank + p - 1) % p;
	MPI_Request req[4];
	MPI_Win win;

	for (i = 0; i < 3 * N; i++)
		mem[i] = i < 2 * N ? 0 : rank + 200 + i % N;
	for (i = 0; i < N; i++)
		mine[i] = rank * 10 + i, got[i] = old[i] = -1;
	MPI_Win_create_c(mem, sizeof(mem), (MPI_Aint)(2 * sizeof(int)),
			 MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_lock_all(0, win);
	MPI_Rput_c(mine, N, MPI_INT, right, 0, N, MPI_INT, win, &req[0]);
	MPI_Raccumulate_c(mine, N, MPI_INT, 0, N / 2, N, MPI_INT, MPI_SUM, win,
			  &req[1]);
	MPI_Rget_c(got, N, MPI_INT, left, N, N, MPI_INT, win, &req[2]);
	MPI_Rget_accumulate_c(NULL, 0, MPI_INT, old, N, MPI_INT, left, N, N,
			      MPI_INT, MPI_NO_OP, win, &req[3]);
	MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
	for (i = 0; i < N; i++) {
		expect("rput", mem[i], left * 10 + i);
		expect("rget", got[i], left + 200 + i);
		expect("rget_accumulate", old[i], left + 200 + i);
		if (rank == 0)
			expect("raccumulate", mem[N + i],
			       10 * p * (p - 1) / 2 + p * i);
	}
	MPI_Win_unlock(rank, win);
	MPI_Win_free(&win);
}

static void shared(void)
{
	MPI_Aint size = -1, unit = -1;
	int *mem, *at = NULL;
	MPI_Win win;

	MPI_Win_allocate_shared_c(N * sizeof(int), (MPI_Aint)sizeof(int),
				  MPI_INFO_NULL, MPI_COMM_SELF, &mem, &win);
	mem[0] = 7;
	MPI_Win_shared_query_c(win, 0, &size, &unit, &at);
	expect("shared_query size", (long)size, N * (long)sizeof(int));
	expect("shared_query disp_unit", (long)unit, (long)sizeof(int));
	expect("shared_query base", at ? at[0] : -1, 7);
	MPI_Win_free(&win);
	if (rank == 0)
		printf("shared window: %ld bytes, disp_unit %ld\n", (long)size,
		       (long)unit);
}

#ifdef VP_MPI_H
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
		       cls == want ? "the class expected" : "ANOTHER CLASS",
		       strstr(msg, name) ? "yes" : "NO",
		       strstr(msg, value) ? "yes" : "NO");
}

static void errors(void)
{
	int mem[N] = { 0 }, x[N] = { 0 };
	MPI_Count big = (MPI_Count)INT_MAX + 1;
	MPI_Request req;
	MPI_Win win;

	MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	MPI_Win_fence(0, win);
	refused(MPI_Put_c(x, big, MPI_INT, 0, 0, 1, MPI_INT, win),
		MPI_ERR_COUNT, "MPI_Put_c", "2147483648");
	refused(MPI_Get_accumulate_c(x, 1, MPI_INT, x, -3, MPI_INT, 0, 0, 1,
				     MPI_INT, MPI_SUM, win),
		MPI_ERR_COUNT, "MPI_Get_accumulate_c", "-3");
	MPI_Win_fence(0, win);
	/* an error inside the int sibling names the large-count call */
	refused(MPI_Rput_c(x, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req),
		MPI_ERR_RMA_SYNC, "MPI_Rput_c", "target 0");
	MPI_Win_free(&win);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	refused(MPI_Win_create_c(mem, sizeof(mem), (MPI_Aint)INT_MAX + 2,
				 MPI_INFO_NULL, MPI_COMM_WORLD, &win),
		MPI_ERR_ARG, "MPI_Win_create_c", "2147483649");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}
#endif

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	fences();
	requests();
	shared();
#ifdef VP_MPI_H /* vp alone refuses these */
	errors();
#endif
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("large-count one-sided calls on %d ranks: %s (%d bad)\n",
		       p, bad ? "FAILED" : "ok", bad);
	MPI_Finalize();
	return bad != 0;
}
