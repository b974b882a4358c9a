/* win_pscw.c - generalized active target synchronization (MPI 4.0,
 * sec. 12.5.2: MPI_Win_post, MPI_Win_start, MPI_Win_complete,
 * MPI_Win_wait, MPI_Win_test) as a halo exchange uses it:
 *   - a ring: each rank exposes its window to its left neighbour (post)
 *     and accesses its right neighbour's (start); it puts its rank into
 *     slot 0, gets slot 1 and adds rank + 1 into slot 2; wait ends the
 *     exposure, complete the access;
 *   - both neighbours at once, the origin a strided MPI_Type_vector
 *     (every other int) put contiguously, and the target waiting with an
 *     MPI_Win_test loop;
 *   - rank 0 exposes to every other rank, which accumulates into it
 *     (a star); the others expose to nobody (an empty group).
 * Every rank checks; rank 0 prints the verdict.
 *
 * ref-osc: sm,pt2pt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

/* The group of world ranks a, b (b < 0: only a; a < 0: empty). */
static MPI_Group pair(MPI_Group world, int a, int b)
{
	MPI_Group g;
	int r[2] = { a, b };

	if (a < 0)
		return MPI_GROUP_EMPTY;
	MPI_Group_incl(world, b < 0 || b == a ? 1 : 2, r, &g);
	return g;
}

static void drop(MPI_Group *g)
{
	if (*g != MPI_GROUP_EMPTY)
		MPI_Group_free(g);
}

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, mem[8], i, got = -1, one, flag;
	int left, right, strided[6], tests = 0;
	MPI_Group world, from, to;
	MPI_Datatype every_other;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	for (i = 0; i < 8; i++)
		mem[i] = 100 * rank + i;
	MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);

	/* the ring */
	from = pair(world, left, -1);
	to = pair(world, right, -1);
	one = rank + 1;
	MPI_Win_post(from, 0, win);
	MPI_Win_start(to, 0, win);
	MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win);
	MPI_Get(&got, 1, MPI_INT, right, 1, 1, MPI_INT, win);
	MPI_Accumulate(&one, 1, MPI_INT, right, 2, 1, MPI_INT, MPI_SUM, win);
	MPI_Win_complete(win);
	MPI_Win_wait(win);
	bad += got != 100 * right + 1;
	bad += mem[0] != left || mem[2] != 100 * rank + 2 + left + 1;
	drop(&from);
	drop(&to);

	/* both neighbours, a strided origin, a test loop */
	for (i = 0; i < 6; i++)
		strided[i] = i % 2 ? -1 : 1000 * rank + i;
	MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
	MPI_Type_commit(&every_other);
	from = pair(world, left, right);
	MPI_Win_post(from, MPI_MODE_NOCHECK * 0, win);
	MPI_Win_start(from, 0, win);
	if (right != rank)
		MPI_Put(strided, 1, every_other, right, 3, 3, MPI_INT, win);
	if (left != rank || size == 1)
		MPI_Put(&rank, 1, MPI_INT, left, 6, 1, MPI_INT, win);
	MPI_Win_complete(win);
	do {
		MPI_Win_test(win, &flag);
		tests++;
	} while (!flag);
	if (size > 1)
		for (i = 0; i < 3; i++)
			bad += mem[3 + i] != 1000 * left + 2 * i;
	bad += mem[6] != right;
	drop(&from);
	MPI_Type_free(&every_other);

	/* a star into rank 0 */
	from = rank == 0 ? pair(world, size > 1 ? 1 : -1, -1) : MPI_GROUP_EMPTY;
	if (rank == 0 && size > 2) {
		int *all = (int *)mem; /* ranks 1 .. size - 1 */
		int ranks[64];

		(void)all;
		for (i = 1; i < size; i++)
			ranks[i - 1] = i;
		drop(&from);
		MPI_Group_incl(world, size - 1, ranks, &from);
	}
	to = rank == 0 ? MPI_GROUP_EMPTY : pair(world, 0, -1);
	mem[7] = 0;
	MPI_Barrier(MPI_COMM_WORLD); /* mem[7] is 0 before anyone adds */
	MPI_Win_post(from, 0, win);
	MPI_Win_start(to, 0, win);
	if (rank != 0)
		MPI_Accumulate(&rank, 1, MPI_INT, 0, 7, 1, MPI_INT, MPI_SUM,
			       win);
	MPI_Win_complete(win);
	MPI_Win_wait(win);
	bad += rank == 0 && mem[7] != size * (size - 1) / 2;
	drop(&from);
	drop(&to);

	MPI_Win_free(&win);
	MPI_Group_free(&world);
	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("post-start-complete-wait on %d ranks: %s (%d bad)\n",
		       size, all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
