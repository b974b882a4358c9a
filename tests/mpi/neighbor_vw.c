/*
 * neighbor_vw.c - the v and w neighbourhood collectives on a ring of the
 * ranks (a periodic 1-dimensional grid: the neighbours below and above)
 * and on a line (not periodic: the end ranks have MPI_PROC_NULL for a
 * neighbour, whose receive block stays as it was). Blocks of different
 * sizes each way, gaps between the receive blocks, and in
 * MPI_Neighbor_alltoallw an int one way and two doubles the other.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define ROW 12 /* the values every rank reports */

static int below_above(MPI_Comm grid, int *below, int *above)
{
	int rank;

	MPI_Comm_rank(grid, &rank);
	MPI_Cart_shift(grid, 0, 1, below, above);
	return rank;
}

/* allgatherv: rank r sends r % 3 + 1 items; 4 slots a neighbour. */
static void allgatherv(MPI_Comm grid, int *row)
{
	int below, above, r = below_above(grid, &below, &above), i;
	int size, send[3], got[8], counts[2], displs[2] = { 0, 4 };

	MPI_Comm_size(grid, &size);
	for (i = 0; i < 3; i++)
		send[i] = 10 * r + i;
	for (i = 0; i < 8; i++)
		got[i] = -1;
	counts[0] = (below + size) % size % 3 + 1;
	counts[1] = above % size % 3 + 1;
	MPI_Neighbor_allgatherv(send, r % 3 + 1, MPI_INT, got, counts, displs,
				MPI_INT, grid);
	row[0] = got[0];
	row[1] = got[counts[0] - 1];
	row[2] = got[3];
	row[3] = got[4];
	row[4] = got[4 + counts[1] - 1];
}

/* alltoallv: one item down, two up; on a line (periodic 0) the ends'
 * missing neighbour leaves -1. */
static void alltoallv(MPI_Comm grid, int *row)
{
	int below, above, r = below_above(grid, &below, &above);
	int send[3] = { 100 * r, 100 * r + 1, 100 * r + 2 }, got[5];
	int scounts[2] = { 1, 2 }, sdispls[2] = { 0, 1 };
	int rcounts[2] = { 2, 1 }, rdispls[2] = { 0, 3 }, i;

	for (i = 0; i < 5; i++)
		got[i] = -1;
	MPI_Neighbor_alltoallv(send, scounts, sdispls, MPI_INT, got, rcounts,
			       rdispls, MPI_INT, grid);
	row[0] = got[0];
	row[1] = got[1];
	row[2] = got[2];
	row[3] = got[3];
}

/* alltoallw: an int down, two doubles up. */
static void alltoallw(MPI_Comm grid, int *row)
{
	int below, above, r = below_above(grid, &below, &above);
	struct {
		int i;
		double d[2];
	} send = { r, { r + 0.5, r + 0.25 } }, got = { -1, { -1, -1 } };
	int scounts[2] = { 1, 2 }, rcounts[2] = { 2, 1 };
	MPI_Aint sdispls[2], rdispls[2];
	MPI_Datatype stypes[2] = { MPI_INT, MPI_DOUBLE };
	MPI_Datatype rtypes[2] = { MPI_DOUBLE, MPI_INT };

	sdispls[0] = 0;
	sdispls[1] = (char *)send.d - (char *)&send;
	rdispls[0] = (char *)got.d - (char *)&got;
	rdispls[1] = 0;
	MPI_Neighbor_alltoallw(&send, scounts, sdispls, stypes, &got, rcounts,
			       rdispls, rtypes, grid);
	row[0] = got.i;
	row[1] = (int)(got.d[0] * 100);
	row[2] = (int)(got.d[1] * 100);
}

int main(int argc, char **argv)
{
	int rank, size, dims[1], periodic, i, row[ROW], rows[8 * ROW];
	MPI_Comm ring, line;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	dims[0] = size;
	periodic = 1;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, &periodic, 0, &ring);
	periodic = 0;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, &periodic, 0, &line);
	allgatherv(ring, row);
	alltoallv(ring, row + 5);
	alltoallw(ring, row + 9);
	MPI_Gather(row, ROW, MPI_INT, rows, ROW, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; rank == 0 && i < size; i++)
		printf("ring rank %d: allgatherv %d..%d, %d, %d..%d; "
		       "alltoallv %d %d %d %d; alltoallw %d %d %d\n",
		       i, rows[ROW * i], rows[ROW * i + 1], rows[ROW * i + 2],
		       rows[ROW * i + 3], rows[ROW * i + 4], rows[ROW * i + 5],
		       rows[ROW * i + 6], rows[ROW * i + 7], rows[ROW * i + 8],
		       rows[ROW * i + 9], rows[ROW * i + 10],
		       rows[ROW * i + 11]);
	alltoallv(line, row);
	MPI_Gather(row, 4, MPI_INT, rows, 4, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; rank == 0 && i < size; i++)
		printf("line rank %d: alltoallv %d %d %d %d\n", i, rows[4 * i],
		       rows[4 * i + 1], rows[4 * i + 2], rows[4 * i + 3]);
	MPI_Comm_free(&ring);
	MPI_Comm_free(&line);
	MPI_Finalize();
	return 0;
}
