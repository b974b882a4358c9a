/*
 * mpi_topo_map.c - MPI_Cart_map and MPI_Graph_map (MPI 4.0, sec. 8.5.7):
 * the rank the calling process would have in a Cartesian grid or a graph
 * made on comm, or MPI_UNDEFINED when it would not be part of it. vp's
 * MPI_Cart_create and MPI_Graph_create keep ranks in order (a grid point
 * or node i is rank i of comm), so these give the same answer: rank i
 * maps to i when i is below the number of points or nodes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

/* n points or nodes on comm: the mapped rank in *newrank */
static int map(MPI_Comm comm, long n, int *newrank, const char *call)
{
	vp_comm *c = vpmpi_comm(comm, call);

	if (!c)
		return MPI_ERR_COMM;
	if (!newrank)
		return vpmpi_err(comm, MPI_ERR_ARG, call, "newrank is NULL");
	if (n > vp_size(c))
		return vpmpi_err(comm, MPI_ERR_TOPOLOGY, call,
				 "the topology has %ld points but the "
				 "communicator %d ranks",
				 n, vp_size(c));
	*newrank = vp_rank(c) < n ? vp_rank(c) : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
		 const int periods[], int *newrank)
{
	static const char call[] = "MPI_Cart_map";
	long n = 1;
	int i;

	(void)periods;
	if (ndims < 0 || (ndims && !dims))
		return vpmpi_err(comm, MPI_ERR_DIMS, call,
				 ndims < 0 ? "ndims %d is negative"
					   : "dims is NULL for %d dimensions",
				 ndims);
	for (i = 0; i < ndims; i++) {
		if (dims[i] < 1)
			return vpmpi_err(comm, MPI_ERR_DIMS, call,
					 "dims[%d] = %d is not positive", i,
					 dims[i]);
		n *= dims[i];
		if (n > 1L << 31)
			break;
	}
	return map(comm, n, newrank, call);
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
		  const int edges[], int *newrank)
{
	static const char call[] = "MPI_Graph_map";

	(void)edges;
	if (nnodes < 1 || !index)
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 nnodes < 1 ? "nnodes %d is not positive"
					    : "index is NULL for %d nodes",
				 nnodes);
	return map(comm, nnodes, newrank, call);
}
