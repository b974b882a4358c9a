/*
 * rma_lock.c - passive target and atomics: MPI_Win_lock (shared and
 * exclusive), MPI_Win_lock_all, the flushes, MPI_Win_sync,
 * MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_Get_accumulate (with
 * MPI_SUM, MPI_NO_OP, MPI_REPLACE, and on a type and ops vp's reductions
 * lack: MPI_SHORT sums, MPI_MAXLOC on MPI_2INT, MPI_LAND) and
 * MPI_Rget_accumulate. Every rank counts what it got wrong; rank 0
 * prints the total. Open MPI prints the same.
 *
 * ref-np: 4
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define ITERS 200
#define SLOTS 16

int main(int argc, char **argv)
{
	int rank, p, i, bad = 0, total = 0, slots_won = 0, all_won;
	long *mem, one = 1, got, prev = -1, v;
	int *slot, minus = -1, owner;
	MPI_Win win, swin, xwin;
	MPI_Request req;
	/* xwin: a short counter, an MPI_2INT for MAXLOC, an int for LAND */
	struct { short s; short pad; int v[2]; int land; } *x;
	short one_s = 1, old_s;
	int pair[2], oldpair[2], truth, oldland, best = -1, at = -1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &mem, &win);
	MPI_Win_allocate(SLOTS * sizeof(int), sizeof(int), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &slot, &swin);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
	mem[0] = mem[1] = mem[2] = mem[3] = 0;
	MPI_Win_unlock(rank, win);
	MPI_Win_allocate(sizeof(*x), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &x,
			 &xwin);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, xwin);
	x->s = 0;
	x->v[0] = -1;
	x->v[1] = -1;
	x->land = 1;
	MPI_Win_unlock(rank, xwin);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, swin);
	for (i = 0; i < SLOTS; i++)
		slot[i] = -1;
	MPI_Win_unlock(rank, swin);
	MPI_Barrier(MPI_COMM_WORLD);

	/* fetch-and-add to rank 0 under lock_all: fetched values grow */
	MPI_Win_lock_all(0, win);
	for (i = 0; i < ITERS; i++) {
		MPI_Fetch_and_op(&one, &got, MPI_LONG, 0, 0, MPI_SUM, win);
		MPI_Win_flush(0, win);
		if (got <= prev || got < 0 || got >= (long)p * ITERS)
			bad++;
		prev = got;
	}
	MPI_Win_unlock_all(win);

	/* read, increment, write back under the exclusive lock */
	for (i = 0; i < ITERS; i++) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Get(&v, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win);
		MPI_Win_flush(0, win);
		v++;
		MPI_Put(&v, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win);
		MPI_Win_unlock(0, win);
	}

	/* accumulates and get-accumulates under shared locks */
	for (i = 0; i < ITERS; i++) {
		long two = 2, old;

		MPI_Win_lock(MPI_LOCK_SHARED, (i + rank) % p, 0, win);
		MPI_Accumulate(&two, 1, MPI_LONG, (i + rank) % p, 2, 1,
			       MPI_LONG, MPI_SUM, win);
		MPI_Get_accumulate(&one, 1, MPI_LONG, &old, 1, MPI_LONG,
				   (i + rank) % p, 3, 1, MPI_LONG, MPI_SUM,
				   win);
		MPI_Win_flush_local((i + rank) % p, win);
		MPI_Win_unlock((i + rank) % p, win);
	}

	/* compare-and-swap: one winner per slot of rank p - 1 */
	MPI_Win_lock_all(0, swin);
	for (i = 0; i < SLOTS; i++) {
		MPI_Compare_and_swap(&rank, &minus, &owner, MPI_INT, p - 1, i,
				     swin);
		MPI_Win_flush_all(swin);
		slots_won += owner == -1;
		if (owner != -1 && (owner < 0 || owner >= p || owner == rank))
			bad++;
	}
	MPI_Win_unlock_all(swin);
	MPI_Allreduce(&slots_won, &all_won, 1, MPI_INT, MPI_SUM,
		      MPI_COMM_WORLD);
	if (all_won != SLOTS)
		bad++;

	/* short sums, MAXLOC on (value, rank), LAND: into rank 0 */
	MPI_Win_lock_all(0, xwin);
	for (i = 0; i < 20; i++)
		MPI_Fetch_and_op(&one_s, &old_s, MPI_SHORT, 0, 0, MPI_SUM,
				 xwin);
	pair[0] = (rank * 5) % 7;
	pair[1] = rank;
	MPI_Get_accumulate(pair, 1, MPI_2INT, oldpair, 1, MPI_2INT, 0, 4, 1,
			   MPI_2INT, MPI_MAXLOC, xwin);
	truth = rank != p - 1 || p == 1;
	MPI_Get_accumulate(&truth, 1, MPI_INT, &oldland, 1, MPI_INT, 0, 12, 1,
			   MPI_INT, MPI_LAND, xwin);
	MPI_Win_unlock_all(xwin);

	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		for (i = 0; i < p; i++)
			if ((i * 5) % 7 > best)
				best = (i * 5) % 7, at = i;
		if (x->s != 20 * p || x->v[0] != best || x->v[1] != at ||
		    x->land != (p == 1))
			bad++;
	}
	/* the totals, read with MPI_NO_OP; then MPI_REPLACE swaps */
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
	for (i = 0; i < 2; i++) {
		MPI_Fetch_and_op(NULL, &got, MPI_LONG, 0, i, MPI_NO_OP, win);
		MPI_Win_flush(0, win);
		if (got != (long)p * ITERS)
			bad++;
	}
	MPI_Win_unlock(0, win);
	MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
	MPI_Win_sync(win);
	if (mem[2] != 2L * ITERS || mem[3] != ITERS)
		bad++;
	MPI_Win_unlock(rank, win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		long seven = 7;

		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, p - 1, MPI_MODE_NOCHECK, win);
		MPI_Rget_accumulate(&seven, 1, MPI_LONG, &got, 1, MPI_LONG,
				    p - 1, 2, 1, MPI_LONG, MPI_REPLACE, win,
				    &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Win_unlock(p - 1, win);
		if (got != 2L * ITERS)
			bad++;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == p - 1 && mem[2] != 7)
		bad++;

	MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("passive target and atomics on %d ranks: %s (%d bad)\n",
		       p, total ? "WRONG" : "ok", total);
	MPI_Win_free(&xwin);
	MPI_Win_free(&swin);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
