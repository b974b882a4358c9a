/* graphs.c - graph topologies and neighbourhood collectives:
 *   - a periodic Cartesian grid (MPI_Dims_create): MPI_Neighbor_allgather
 *     gives, per dimension, the rank below then the rank above
 *     (MPI_Cart_shift's), and MPI_Neighbor_alltoall puts in each slot the
 *     block the neighbour meant for this rank (also where below and above
 *     are one rank: a dimension of two);
 *   - a non-periodic line: past the ends nothing arrives and the blocks
 *     keep what they held;
 *   - MPI_Graph_create of a ring: its queries, MPI_Topo_test, and the
 *     allgather from both neighbours;
 *   - MPI_Dist_graph_create_adjacent of a directed ring (in from the left,
 *     out to the right): its queries and the allgather from the left.
 * Every rank checks; rank 0 prints the verdict.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, i, d, status;
	int dims[2] = { 0, 0 }, periods[2] = { 1, 1 }, got[8], out[8];
	int index[64], edges[128], nb[4], n, indeg, outdeg, weighted;
	int left, right, below, above;
	MPI_Comm cart, line, ring, dring;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;

	/* a periodic 2-D grid */
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, cart);
	for (i = 0; i < 4; i++)
		out[i] = 100 * rank + i;
	for (d = 0; d < 2; d++) {
		MPI_Cart_shift(cart, d, 1, &below, &above);
		bad += got[2 * d] != below || got[2 * d + 1] != above;
	}
	MPI_Neighbor_alltoall(out, 1, MPI_INT, got, 1, MPI_INT, cart);
	for (d = 0; d < 2; d++) {
		MPI_Cart_shift(cart, d, 1, &below, &above);
		/* below sent me its "above" block, above its "below" one */
		bad += got[2 * d] != 100 * below + 2 * d + 1 ||
		       got[2 * d + 1] != 100 * above + 2 * d;
	}

	/* a line: nothing past the ends */
	periods[0] = 0;
	MPI_Cart_create(MPI_COMM_WORLD, 1, &size, periods, 0, &line);
	got[0] = got[1] = -7;
	MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, line);
	bad += got[0] != (rank ? rank - 1 : -7) ||
	       got[1] != (rank < size - 1 ? rank + 1 : -7);

	/* a ring as a graph */
	for (i = 0; i < size; i++) {
		index[i] = 2 * (i + 1);
		edges[2 * i] = (i + size - 1) % size;
		edges[2 * i + 1] = (i + 1) % size;
	}
	MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring);
	MPI_Topo_test(ring, &status);
	MPI_Graphdims_get(ring, &n, &i);
	bad += status != MPI_GRAPH || n != size || i != 2 * size;
	MPI_Graph_neighbors_count(ring, rank, &n);
	MPI_Graph_neighbors(ring, rank, 4, nb);
	bad += n != 2 || nb[0] != left || nb[1] != right;
	MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, ring);
	bad += got[0] != left || got[1] != right;

	/* a directed ring as a distributed graph */
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED,
				       1, &right, MPI_UNWEIGHTED, MPI_INFO_NULL,
				       0, &dring);
	MPI_Topo_test(dring, &status);
	MPI_Dist_graph_neighbors_count(dring, &indeg, &outdeg, &weighted);
	MPI_Dist_graph_neighbors(dring, 1, nb, MPI_UNWEIGHTED, 1, nb + 1,
				 MPI_UNWEIGHTED);
	bad += status != MPI_DIST_GRAPH || indeg != 1 || outdeg != 1 ||
	       weighted || nb[0] != left || nb[1] != right;
	MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, dring);
	bad += got[0] != left;

	MPI_Comm_free(&dring);
	MPI_Comm_free(&ring);
	MPI_Comm_free(&line);
	MPI_Comm_free(&cart);
	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("graphs and neighbourhood collectives on %d ranks (grid "
		       "%dx%d): %s (%d bad)\n",
		       size, dims[0], dims[1], all_bad ? "WRONG" : "ok",
		       all_bad);
	MPI_Finalize();
	return 0;
}
