/*
 * ineighbor.c - the nonblocking neighbourhood collectives (MPI 4.0, sec.
 * 8.7) on a 2-D grid (periodic in dimension 0, not in dimension 1: past
 * its edges MPI_PROC_NULL, whose block is left as it was) and on a
 * distributed graph whose ranks have unequal in- and out-degrees, the
 * last rank none at all. The orders a blocking implementation would
 * deadlock on:
 *   - two calls posted, then waited for together (MPI_Waitall), while the
 *     partner (the neighbour above in dimension 0) first receives a
 *     synchronous message from this rank and only then posts its calls;
 *   - a call posted, then point to point with that partner (MPI_Ssend,
 *     MPI_Recv) before the wait;
 *   - on the graph, two posted and completed in the other order (an
 *     MPI_Test loop on the second, then MPI_Wait on the first).
 * Rank 0 prints every rank's blocks (-1: a block nothing was written to).
 * ref-np: 8
 * (Open MPI 4.1, rerun on 8 ranks, gives the same output; where a periodic
 * dimension has one or two ranks, one rank is both neighbours there, and
 * Open MPI 4.1 fills the two blocks the other way round from vp and from
 * MPICH 4.0's MPI_Ineighbor_alltoall, or fails the wait with
 * MPI_ERR_TRUNCATE when they differ in size.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define ROW 24 /* the values every rank reports */

/* This rank's partner in dimension 0 (its neighbour above for an even
 * coordinate, below for an odd one; MPI_PROC_NULL for an even last one)
 * and whether it goes first (even). */
static int partner(MPI_Comm grid, int *first)
{
	int dims[2], periods[2], coords[2], below, above;

	MPI_Cart_get(grid, 2, dims, periods, coords);
	MPI_Cart_shift(grid, 0, 1, &below, &above);
	*first = coords[0] % 2 == 0;
	if (*first)
		return coords[0] + 1 < dims[0] ? above : MPI_PROC_NULL;
	return below;
}

/* The token exchange with the partner: the first sends synchronously and
 * then hears back; the other hears first. */
static void talk(MPI_Comm grid, int peer, int first, int *heard)
{
	int rank, token;

	MPI_Comm_rank(grid, &rank);
	if (first) {
		MPI_Ssend(&rank, 1, MPI_INT, peer, 7, grid);
		MPI_Recv(&token, 1, MPI_INT, peer, 8, grid, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&token, 1, MPI_INT, peer, 7, grid, MPI_STATUS_IGNORE);
		MPI_Ssend(&rank, 1, MPI_INT, peer, 8, grid);
	}
	*heard += token == peer;
}

/* row[0..3] allgather, [4..7] alltoall, [8..13] alltoallv, [14] 1 if the
 * partner's tokens came. */
static void grid_calls(MPI_Comm grid, int *row)
{
	int r, i, peer, first, heard = 0;
	int one, four[4], sc[4] = { 1, 2, 1, 2 }, sd[4] = { 0, 1, 3, 4 };
	int rc[4] = { 2, 1, 2, 1 }, rd[4] = { 0, 2, 3, 5 }, six[6];
	MPI_Request q[2];

	MPI_Comm_rank(grid, &r);
	peer = partner(grid, &first);
	for (i = 0; i < ROW; i++)
		row[i] = -1;
	one = 10 * r + 1;
	for (i = 0; i < 6; i++)
		six[i] = 100 * r + i;
	if (!first && peer != MPI_PROC_NULL) /* the partner posts first */
		talk(grid, peer, first, &heard);
	MPI_Ineighbor_allgather(&one, 1, MPI_INT, row, 1, MPI_INT, grid, &q[0]);
	for (i = 0; i < 4; i++)
		four[i] = 100 * r + i;
	MPI_Ineighbor_alltoall(four, 1, MPI_INT, row + 4, 1, MPI_INT, grid,
			       &q[1]);
	for (i = 0; i < 4; i++)
		four[i] = -2; /* the send buffer is free at once */
	if (first && peer != MPI_PROC_NULL)
		talk(grid, peer, first, &heard);
	MPI_Waitall(2, q, MPI_STATUSES_IGNORE);

	MPI_Ineighbor_alltoallv(six, sc, sd, MPI_INT, row + 8, rc, rd, MPI_INT,
				grid, &q[0]);
	if (peer != MPI_PROC_NULL)
		talk(grid, peer, first, &heard);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	row[14] = peer == MPI_PROC_NULL ? -1 : heard;
}

/* The graph: s -> s + 1 unless s % 3 == 2, s -> s + 2 for an even s
 * (mod p), no edge to or from the last rank. */
static int edge(int s, int d, int p)
{
	if (s == p - 1 || d == p - 1)
		return 0;
	return (d == (s + 1) % p && s % 3 != 2) ||
	       (d == (s + 2) % p && s % 2 == 0);
}

/* Rank s's destinations, in its order; their count returned. */
static int dests_of(int s, int p, int *d)
{
	int n = 0, k;

	for (k = 1; k <= 2; k++)
		if (edge(s, (s + k) % p, p))
			d[n++] = (s + k) % p;
	return n;
}

/* row[15] in-degree, [16] out-degree, [17..20] allgatherv (source s
 * sends s % 2 + 1 items; 2 slots a source), [21..22] alltoallw (times
 * 10: a double from a source's first destination, else an int). */
static void graph_calls(MPI_Comm world, int *row)
{
	int r, p, s, i, k, nin = 0, nout, in[2], out[2], sd[2];
	int items[2], rcount[2], rdispl[2], scount[2] = { 1, 1 }, ints[2];
	int wcount[2] = { 1, 1 }, flag = 0;
	double dbl[2];
	union {
		double d;
		int i;
	} got[2] = { { -1 }, { -1 } };
	MPI_Aint sdispl[2], rdisplb[2];
	MPI_Datatype stype[2], rtype[2];
	MPI_Comm g;
	MPI_Request q[2];

	MPI_Comm_rank(world, &r);
	MPI_Comm_size(world, &p);
	for (s = 0; s < p; s++)
		if (edge(s, r, p))
			in[nin++] = s;
	nout = dests_of(r, p, out);
	MPI_Dist_graph_create_adjacent(world, nin, in, MPI_UNWEIGHTED, nout,
				       out, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
				       &g);
	row[15] = nin;
	row[16] = nout;
	items[0] = 10 * r;
	items[1] = 10 * r + 1;
	for (i = 0; i < nin; i++) {
		rcount[i] = in[i] % 2 + 1;
		rdispl[i] = 2 * i;
		/* where this rank is among in[i]'s destinations */
		for (k = 0, dests_of(in[i], p, sd); sd[k] != r; k++)
			;
		rtype[i] = k == 0 ? MPI_DOUBLE : MPI_INT;
		rdisplb[i] = (char *)&got[i] - (char *)got;
	}
	for (i = 0; i < nout; i++) {
		dbl[i] = 1000 * r + out[i] + 0.5;
		ints[i] = 1000 * r + out[i];
		stype[i] = i == 0 ? MPI_DOUBLE : MPI_INT;
		sdispl[i] = i == 0 ? (char *)&dbl[0] - (char *)dbl
				   : (char *)&ints[i] - (char *)dbl;
	}
	MPI_Ineighbor_allgatherv(items, r % 2 + 1, MPI_INT, row + 17, rcount,
				 rdispl, MPI_INT, g, &q[0]);
	MPI_Ineighbor_alltoallw(dbl, scount, sdispl, stype, got, wcount,
				rdisplb, rtype, g, &q[1]);
	while (!flag)
		MPI_Test(&q[1], &flag, MPI_STATUS_IGNORE);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	for (i = 0; i < nin; i++)
		row[21 + i] = rtype[i] == MPI_DOUBLE ? (int)(got[i].d * 10)
						     : 10 * got[i].i;
	MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
	int rank, size, i, j, dims[2] = { 0, 0 }, periods[2] = { 1, 0 };
	int row[ROW], rows[8 * ROW];
	MPI_Comm grid;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	grid_calls(grid, row);
	graph_calls(MPI_COMM_WORLD, row);
	MPI_Gather(row, ROW, MPI_INT, rows, ROW, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; rank == 0 && i < size; i++) {
		const int *x = rows + ROW * i;

		printf("grid %dx%d rank %d: allgather", dims[0], dims[1], i);
		for (j = 0; j < 14; j++)
			printf("%s %d",
			       j == 4   ? "; alltoall"
			       : j == 8 ? "; alltoallv"
					: "",
			       x[j]);
		printf("; tokens %d\n", x[14]);
		printf("graph rank %d (in %d, out %d): allgatherv", i, x[15],
		       x[16]);
		for (j = 17; j < 23; j++)
			printf("%s %d", j == 21 ? "; alltoallw" : "", x[j]);
		printf("\n");
	}
	MPI_Comm_free(&grid);
	MPI_Finalize();
	return 0;
}
