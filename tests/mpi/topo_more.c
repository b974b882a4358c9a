/* topo_more.c - topology calls (MPI 4.0 sec. 8.5): a Cartesian grid of
 * no dimensions (one process: rank 0 gets it, the others MPI_COMM_NULL),
 * and MPI_Cart_sub keeping no dimension (a 0-dimensional grid of each
 * process alone); MPI_Cart_map and MPI_Graph_map of a grid and a ring of
 * every process; MPI_Dist_graph_create where each rank names one edge of
 * a ring that is not its own (r + 1 -> r + 2), so that every rank's
 * neighbours come from another rank; MPI_Dims_create's balanced,
 * non-increasing grids. Prints one line (rank 0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

static int mapped(int nr, int points)
{
	int v[2] = { nr != MPI_UNDEFINED, nr != MPI_UNDEFINED ? 1 << nr : 0 };

	MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	return v[0] != points || v[1] != (1 << points) - 1;
}

static int grids(int r, int p)
{
	MPI_Comm c, s;
	int keep[1] = { 0 }, bad = 0, size, nd = -1, nr, dims[2] = { 0, 0 }, periods[2] = { 0, 1 };
	int ring_idx[16], ring[16], i;

	MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &c);
	if (r == 0) {
		MPI_Comm_size(c, &size);
		MPI_Cartdim_get(c, &nd);
		bad += size != 1 || nd != 0;
		MPI_Comm_free(&c);
	} else
		bad += c != MPI_COMM_NULL;
	/* the mapped ranks: 0 .. p - 1 once each (which process gets which
	 * is the MPI's choice; Open MPI 4.1 also maps a process outside a
	 * smaller grid or graph, where MPI says MPI_UNDEFINED) */
	/* a grid with no dimension kept: 0-dimensional, of one process */
	MPI_Cart_create(MPI_COMM_WORLD, 1, &p, periods, 0, &c);
	MPI_Cart_sub(c, keep, &s);
	MPI_Cartdim_get(s, &nd);
	MPI_Comm_size(s, &size);
	bad += nd != 0 || size != 1;
	MPI_Comm_free(&s);
	MPI_Comm_free(&c);
	MPI_Dims_create(p, 2, dims);
	MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &nr);
	bad += mapped(nr, p);
	/* a ring of every process */
	for (i = 0; i < p && i < 16; i++) {
		ring_idx[i] = i + 1;
		ring[i] = (i + 1) % p;
	}
	if (p <= 16) {
		MPI_Graph_map(MPI_COMM_WORLD, p, ring_idx, ring, &nr);
		bad += mapped(nr, p);
	}
	return bad;
}

static int dist_graph(int r, int p)
{
	MPI_Comm g;
	int src = (r + 1) % p, dst = (r + 2) % p, deg = 1, w = 7;
	int in, out, weighted, s = -1, sw = -1, d = -1, dw = -1, bad = 0;

	MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, &w,
			      MPI_INFO_NULL, 0, &g);
	MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
	bad += in != 1 || out != 1 || !weighted;
	MPI_Dist_graph_neighbors(g, 1, &s, &sw, 1, &d, &dw);
	bad += s != (r + p - 1) % p || d != (r + 1) % p || sw != 7 || dw != 7;
	MPI_Comm_free(&g);
	return bad;
}

static int dims(void)
{
	static const int n[5] = { 12, 16, 30, 36, 7 }, nd[5] = { 2, 4, 3, 2, 3 };
	static const int want[5][4] = {
	    { 4, 3 }, { 2, 2, 2, 2 }, { 5, 3, 2 }, { 6, 6 }, { 7, 1, 1 } };
	int i, j, d[4], bad = 0;

	for (i = 0; i < 5; i++) {
		for (j = 0; j < nd[i]; j++)
			d[j] = 0;
		MPI_Dims_create(n[i], nd[i], d);
		for (j = 0; j < nd[i]; j++)
			bad += d[j] != want[i][j];
	}
	d[0] = 0, d[1] = 3, d[2] = 0; /* a fixed dimension stays */
	MPI_Dims_create(12, 3, d);
	bad += d[0] != 2 || d[1] != 3 || d[2] != 2;
	return bad;
}

int main(int argc, char **argv)
{
	int r, p, bad;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	bad = grids(r, p) + dist_graph(r, p) + dims();
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("topologies on %d ranks: ok (%d bad)\n", p, bad);
	MPI_Finalize();
	return 0;
}
