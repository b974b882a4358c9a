/*
 * mpi_cart.c - Cartesian topologies. A Cartesian communicator numbers its
 * ranks in row-major order of their grid coordinates, as MPI does, which
 * is also how vp numbers its line, ring, mesh and torus: run the program
 * with the matching --topology (mesh:RxC for a 2-D grid without wraparound,
 * torus:RxC with it, ring:N or line:N for one dimension) and every grid
 * neighbour is a physical link, so strict mode and the model see the
 * program's real grid. On a hypercube, MPI_Cart_create with reorder = 1
 * places grid point (c1, ..., ck) on the node whose address is the
 * concatenation of the Gray codes of c1..ck when every dimension is a power
 * of two (Grama et al., sec. 2.7.1 and 2.7.2: a ring or a mesh embedded in a
 * hypercube with dilation 1), so grid neighbours, wraparound included, are
 * again one link apart. vpmpirun --stats reports, for each grid, whether
 * every grid neighbour is a physical neighbour.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

void vpmpi_cart_free(int h)
{
	struct vpmpi_cart *k = h > 0 && h < vpmpi_me.ncomms ? vpmpi_me.cart[h]
							    : NULL;

	if (k) {
		free(k->dims);
		free(k);
		vpmpi_me.cart[h] = NULL;
	}
}

/* A grid of ndims dimensions; coords filled later. */
static struct vpmpi_cart *cart_new(int ndims, const int *dims,
				   const int *periods)
{
	struct vpmpi_cart *k = calloc(1, sizeof(*k));
	int i;

	if (!k || !(k->dims = malloc(3 * ((size_t)ndims + 1) * sizeof(int)))) {
		free(k);
		return NULL;
	}
	k->ndims = ndims;
	k->periods = k->dims + ndims + 1;
	k->coords = k->periods + ndims + 1;
	for (i = 0; i < ndims; i++) {
		k->dims[i] = dims[i];
		k->periods[i] = periods ? periods[i] != 0 : 0;
	}
	return k;
}

/* Row-major coordinates of rank r. */
static void coords_of(const struct vpmpi_cart *k, int r, int *coords)
{
	int i;

	for (i = k->ndims - 1; i >= 0; i--) {
		coords[i] = r % k->dims[i];
		r /= k->dims[i];
	}
}

/* The row-major number of a grid point. */
static int point(const struct vpmpi_cart *k, const int *coords)
{
	int i, r = 0;

	for (i = 0; i < k->ndims; i++)
		r = r * k->dims[i] + coords[i];
	return r;
}

int vpmpi_cart_copy(MPI_Comm from, MPI_Comm to)
{
	struct vpmpi_cart *k = vpmpi_me.cart[from], *n;

	if (!k || to == MPI_COMM_NULL)
		return MPI_SUCCESS;
	if (!(n = cart_new(k->ndims, k->dims, k->periods)))
		return vpmpi_err(from, MPI_ERR_NO_MEM, "MPI_Comm_dup",
				 "no memory for the topology");
	memcpy(n->coords, k->coords, (size_t)k->ndims * sizeof(int));
	vpmpi_me.cart[to] = n;
	return MPI_SUCCESS;
}

static struct vpmpi_cart *cart_of(MPI_Comm comm, const char *call)
{
	if (!vpmpi_comm(comm, call))
		return NULL;
	if (!vpmpi_me.cart[comm])
		vpmpi_err(comm, MPI_ERR_TOPOLOGY, call,
			  "communicator %d has no Cartesian topology", comm);
	return vpmpi_me.cart[comm];
}

/* ---- placement ---- */

static unsigned gray(unsigned x)
{
	return x ^ (x >> 1);
}

static int log2_exact(int x)
{
	int d = 0;

	if (x < 1 || (x & (x - 1)))
		return -1;
	while ((1 << d) < x)
		d++;
	return d;
}

/* The rank of c that holds grid point g (row-major number) when the
 * grid is embedded in c's hypercube by Gray codes; -1 when it cannot be. */
static int gray_node(const struct vpmpi_cart *k, int g)
{
	int coords[64], i, node = 0, bits;

	if (k->ndims > 64)
		return -1;
	coords_of(k, g, coords);
	for (i = 0; i < k->ndims; i++) {
		if ((bits = log2_exact(k->dims[i])) < 0)
			return -1;
		node = (node << bits) | (int)gray((unsigned)coords[i]);
	}
	return node;
}

/* Tells (with vpmpirun --stats, from the grid's rank 0) how the grid
 * sits on the run's topology. */
static void report(vp_comm *c, const struct vpmpi_cart *k, int n, int embed)
{
	const char *s = getenv("VPMPI_STATS");
	int g, i, far = 0, pairs = 0, co[64], w, nb;
	char grid[128] = "";
	size_t len = 0;

	if (!s || !atoi(s) || vp_rank(c) != 0 || k->ndims > 64)
		return;
	for (g = 0; g < n; g++) {
		coords_of(k, g, co);
		w = vp_world_rank(c, g);
		for (i = 0; i < k->ndims; i++) {
			int save = co[i];

			if (co[i] + 1 >= k->dims[i] && !k->periods[i])
				continue;
			co[i] = (co[i] + 1) % k->dims[i];
			nb = vp_world_rank(c, point(k, co));
			co[i] = save;
			if (nb == w)
				continue;
			pairs++;
			far += !vp_is_neighbor(c, w, nb);
		}
	}
	for (i = 0; i < k->ndims && len + 16 < sizeof(grid); i++)
		len += (size_t)snprintf(grid + len, sizeof(grid) - len, "%s%d%s",
					i ? "x" : "", k->dims[i],
					k->periods[i] ? "p" : "");
	if (!far)
		fprintf(stderr,
			"vpmpi: MPI_Cart_create %s (p: periodic): all %d grid "
			"neighbour pairs are links of %s%s\n",
			grid, pairs, vp_topology(c),
			embed ? " (Gray-code embedding, Grama et al. sec. 2.7)"
			      : "");
	else
		fprintf(stderr,
			"vpmpi: MPI_Cart_create %s (p: periodic): %d of %d grid "
			"neighbour pairs are not links of %s (strict mode "
			"would refuse them; run with the matching "
			"--topology)\n",
			grid, far, pairs, vp_topology(c));
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *newcomm)
{
	const char *call = "MPI_Cart_create";
	vp_comm *c = vpmpi_comm(comm, call), *sub;
	struct vpmpi_cart *k;
	vp_topo topo;
	int n = 1, i, key, rc, embed = 0, h;

	if (!c)
		return MPI_ERR_COMM;
	/* MPI 4.0 sec. 8.5.1: ndims 0 makes a grid of one point */
	if (ndims < 0)
		return vpmpi_err(comm, MPI_ERR_DIMS, call,
				 "ndims %d is negative", ndims);
	for (i = 0; i < ndims; i++) {
		if (dims[i] < 1)
			return vpmpi_err(comm, MPI_ERR_DIMS, call,
					 "dims[%d] = %d is not positive", i,
					 dims[i]);
		n *= dims[i];
	}
	if (n > vp_size(c))
		return vpmpi_err(comm, MPI_ERR_TOPOLOGY, call,
				 "the grid has %d points but the communicator "
				 "%d ranks",
				 n, vp_size(c));
	if (!(k = cart_new(ndims, dims, periods)))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for the topology");
	/* this rank's grid point: its rank, or its Gray-code place */
	key = vp_rank(c);
	if (reorder && vp_comm_is_world(c) && !vp_topo_info(c, &topo) &&
	    topo.kind == VP_TOPO_HYPERCUBE && n == vp_size(c) &&
	    gray_node(k, 0) >= 0) {
		for (i = 0; i < n; i++)
			if (gray_node(k, i) == vp_rank(c))
				key = i;
		embed = 1;
	}
	rc = vp_comm_split(c, key < n ? 0 : VP_UNDEFINED, key, &sub);
	if (rc) {
		free(k->dims);
		free(k);
		return vpmpi_ret(rc);
	}
	if ((h = vpmpi_comm_put(sub, comm, call)) < 0) {
		free(k->dims);
		free(k);
		return MPI_ERR_NO_MEM;
	}
	*newcomm = h;
	if (h == MPI_COMM_NULL) {
		free(k->dims);
		free(k);
		return MPI_SUCCESS;
	}
	coords_of(k, vp_rank(sub), k->coords);
	vpmpi_me.cart[h] = k;
	report(sub, k, n, embed);
	return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
	struct vpmpi_cart *k = cart_of(comm, "MPI_Cart_coords");
	int co[64], i;

	if (!k)
		return MPI_ERR_TOPOLOGY;
	if (rank < 0 || rank >= vp_size(vpmpi_me.comm[comm]))
		return vpmpi_err(comm, MPI_ERR_RANK, "MPI_Cart_coords",
				 "rank %d is outside [0, %d)", rank,
				 vp_size(vpmpi_me.comm[comm]));
	if (k->ndims > 64)
		return vpmpi_err(comm, MPI_ERR_DIMS, "MPI_Cart_coords",
				 "more than 64 dimensions");
	coords_of(k, rank, co);
	for (i = 0; i < maxdims && i < k->ndims; i++)
		coords[i] = co[i];
	return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
	struct vpmpi_cart *k = cart_of(comm, "MPI_Cart_rank");
	int i, r = 0, x;

	if (!k)
		return MPI_ERR_TOPOLOGY;
	for (i = 0; i < k->ndims; i++) {
		x = coords[i];
		if (k->periods[i])
			x = ((x % k->dims[i]) + k->dims[i]) % k->dims[i];
		else if (x < 0 || x >= k->dims[i])
			return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Cart_rank",
					 "coordinate %d of dimension %d is "
					 "outside [0, %d) and the dimension is "
					 "not periodic",
					 x, i, k->dims[i]);
		r = r * k->dims[i] + x;
	}
	*rank = r;
	return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source,
		   int *dest)
{
	struct vpmpi_cart *k = cart_of(comm, "MPI_Cart_shift");
	int co[64], d, i;

	if (!k)
		return MPI_ERR_TOPOLOGY;
	if (direction < 0 || direction >= k->ndims || k->ndims > 64)
		return vpmpi_err(comm, MPI_ERR_DIMS, "MPI_Cart_shift",
				 "direction %d is outside [0, %d)", direction,
				 k->ndims);
	for (d = -1; d <= 1; d += 2) {
		int x = k->coords[direction] + d * disp, r = 0;

		for (i = 0; i < k->ndims; i++)
			co[i] = k->coords[i];
		if (k->periods[direction])
			x = ((x % k->dims[direction]) + k->dims[direction]) %
			    k->dims[direction];
		if (x < 0 || x >= k->dims[direction])
			r = MPI_PROC_NULL;
		else {
			co[direction] = x;
			r = point(k, co);
		}
		if (d < 0)
			*source = r;
		else
			*dest = r;
	}
	return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	struct vpmpi_cart *k = cart_of(comm, "MPI_Cart_sub"), *n;
	int color = 0, key = 0, i, nd = 0, dims[64], periods[64], rc, h;
	vp_comm *sub;

	if (!k)
		return MPI_ERR_TOPOLOGY;
	if (k->ndims > 64)
		return vpmpi_err(comm, MPI_ERR_DIMS, "MPI_Cart_sub",
				 "more than 64 dimensions");
	for (i = 0; i < k->ndims; i++)
		if (remain_dims[i]) {
			key = key * k->dims[i] + k->coords[i];
			dims[nd] = k->dims[i];
			periods[nd++] = k->periods[i];
		} else
			color = color * k->dims[i] + k->coords[i];
	/* no dimension kept: MPI 4.0 sec. 8.5.6 makes it a 0-dimensional
	 * grid of this rank alone (nd = 0) */
	rc = vp_comm_split(vpmpi_me.comm[comm], color, key, &sub);
	if (rc)
		return vpmpi_ret(rc);
	if ((h = vpmpi_comm_put(sub, comm, "MPI_Cart_sub")) < 0)
		return MPI_ERR_NO_MEM;
	if (!(n = cart_new(nd, dims, periods)))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, "MPI_Cart_sub",
				 "no memory for the topology");
	coords_of(n, vp_rank(sub), n->coords);
	vpmpi_me.cart[h] = n;
	*newcomm = h;
	return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
	struct vpmpi_cart *k = cart_of(comm, "MPI_Cartdim_get");

	if (!k)
		return MPI_ERR_TOPOLOGY;
	*ndims = k->ndims;
	return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
		 int coords[])
{
	struct vpmpi_cart *k = cart_of(comm, "MPI_Cart_get");
	int i;

	if (!k)
		return MPI_ERR_TOPOLOGY;
	for (i = 0; i < maxdims && i < k->ndims; i++) {
		dims[i] = k->dims[i];
		periods[i] = k->periods[i];
		coords[i] = k->coords[i];
	}
	return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
	if (!vpmpi_comm(comm, "MPI_Topo_test"))
		return MPI_ERR_COMM;
	*status = vpmpi_me.cart[comm] ? MPI_CART : vpmpi_graph_kind(comm);
	return MPI_SUCCESS;
}
