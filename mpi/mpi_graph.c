/*
 * mpi_graph.c - graph topologies and neighbourhood collectives (MPI 3.1,
 * sec. 7.5.3, 7.5.4, 7.6).
 *
 * MPI_Graph_create attaches a graph (index and edges, as MPI gives them)
 * to a new communicator of the first nnodes ranks, in rank order (no
 * reordering); MPI_Dist_graph_create_adjacent attaches each rank's own
 * in- and out-neighbours to a duplicate of the communicator. The queries
 * return what was given. MPI_Comm_dup copies the topology.
 *
 * The neighbourhood collectives (mpi_neighbor.c) exchange with the
 * neighbours vpmpi_hood_of gives, in MPI's order: for a Cartesian grid,
 * in each dimension the one below then the one above (MPI_PROC_NULL past
 * a non-periodic edge: nothing moves, the block is left as it was); for a
 * graph, MPI_Graph_neighbors; for a distributed graph, the sources for
 * what comes in and the destinations for what goes out. On a grid each
 * block carries the slot it fills at its receiver as its tag, so a
 * periodic dimension of two, where both neighbours are the same rank,
 * still fills the right slots.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

/* A graph or distributed graph on a communicator. */
struct vpmpi_graph {
	int kind; /* MPI_GRAPH or MPI_DIST_GRAPH */
	/* MPI_GRAPH: the whole graph, as MPI_Graph_create had it */
	int nnodes, nedges, *index, *edges;
	/* MPI_DIST_GRAPH: this rank's neighbours and their weights */
	int indegree, outdegree, weighted;
	int *sources, *sweights, *dests, *dweights;
};

void vpmpi_graph_free(int h)
{
	struct vpmpi_graph *g = h > 0 && h < vpmpi_me.ncomms ? vpmpi_me.graph[h] : NULL;

	if (g) {
		free(g->index); /* every array is one allocation */
		free(g);
		vpmpi_me.graph[h] = NULL;
	}
}

/* A graph record with n ints of room after index. */
static struct vpmpi_graph *graph_new(int kind, size_t n)
{
	struct vpmpi_graph *g = calloc(1, sizeof(*g));

	if (g && !(g->index = malloc((n ? n : 1) * sizeof(int)))) {
		free(g);
		return NULL;
	}
	if (g)
		g->kind = kind;
	return g;
}

int vpmpi_graph_copy(MPI_Comm from, MPI_Comm to)
{
	const struct vpmpi_graph *g = vpmpi_me.graph[from];
	struct vpmpi_graph *n;
	size_t ints;

	if (!g)
		return MPI_SUCCESS;
	ints = g->kind == MPI_GRAPH
		   ? (size_t)g->nnodes + (size_t)g->nedges
		   : 2 * ((size_t)g->indegree + (size_t)g->outdegree);
	if (!(n = graph_new(g->kind, ints)))
		return vpmpi_err(from, MPI_ERR_NO_MEM, "MPI_Comm_dup",
				 "no memory for the graph");
	memcpy(n->index, g->index, (ints ? ints : 1) * sizeof(int));
	n->nnodes = g->nnodes;
	n->nedges = g->nedges;
	n->indegree = g->indegree;
	n->outdegree = g->outdegree;
	n->weighted = g->weighted;
	n->edges = n->index + (g->edges - g->index);
	n->sources = n->index;
	n->sweights = n->index + (g->sweights - g->index);
	n->dests = n->index + (g->dests - g->index);
	n->dweights = n->index + (g->dweights - g->index);
	vpmpi_me.graph[to] = n;
	return MPI_SUCCESS;
}

int vpmpi_graph_kind(MPI_Comm h)
{
	return h > 0 && h < vpmpi_me.ncomms && vpmpi_me.graph[h] ? vpmpi_me.graph[h]->kind
							 : MPI_UNDEFINED;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[],
		     const int edges[], int reorder, MPI_Comm *newcomm)
{
	static const char call[] = "MPI_Graph_create";
	vp_comm *c = vpmpi_comm(comm, call), *sub;
	struct vpmpi_graph *g;
	int i, nedges, rc, h;

	(void)reorder; /* the ranks keep their order */
	if (!c)
		return MPI_ERR_COMM;
	if (nnodes < 0 || nnodes > vp_size(c))
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 "nnodes %d is outside [0, %d]", nnodes,
				 vp_size(c));
	if (nnodes && (!index || !edges))
		return vpmpi_err(comm, MPI_ERR_ARG, call, "%s is NULL",
				 !index ? "index" : "edges");
	for (i = 0; i < nnodes; i++)
		if (index[i] < (i ? index[i - 1] : 0))
			return vpmpi_err(comm, MPI_ERR_ARG, call,
					 "index[%d] = %d is below index[%d]", i,
					 index[i], i - 1);
	nedges = nnodes ? index[nnodes - 1] : 0;
	for (i = 0; i < nedges; i++)
		if (edges[i] < 0 || edges[i] >= nnodes)
			return vpmpi_err(comm, MPI_ERR_TOPOLOGY, call,
					 "edges[%d] = %d is not a node in [0, "
					 "%d)",
					 i, edges[i], nnodes);
	if (!(g = graph_new(MPI_GRAPH, (size_t)nnodes + (size_t)nedges)))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for the graph");
	g->nnodes = nnodes;
	g->nedges = nedges;
	g->edges = g->index + nnodes;
	memcpy(g->index, index, (size_t)nnodes * sizeof(int));
	memcpy(g->edges, edges, (size_t)nedges * sizeof(int));
	rc = vp_comm_split(c, vp_rank(c) < nnodes ? 0 : VP_UNDEFINED,
			   vp_rank(c), &sub);
	if (rc || (h = vpmpi_comm_put(sub, comm, call)) < 0) {
		free(g->index);
		free(g);
		return rc ? vpmpi_ret(rc) : MPI_ERR_NO_MEM;
	}
	*newcomm = h;
	if (h == MPI_COMM_NULL) {
		free(g->index);
		free(g);
	} else {
		vpmpi_me.graph[h] = g;
	}
	return MPI_SUCCESS;
}

/* The graph of comm, of kind, or NULL after the error. */
static const struct vpmpi_graph *graph_of(MPI_Comm comm, int kind,
					  const char *call)
{
	if (!vpmpi_comm(comm, call))
		return NULL;
	if (vpmpi_me.graph[comm] && vpmpi_me.graph[comm]->kind == kind)
		return vpmpi_me.graph[comm];
	vpmpi_err(comm, MPI_ERR_TOPOLOGY, call,
		  "communicator %d has no %s topology", comm,
		  kind == MPI_GRAPH ? "graph" : "distributed graph");
	return NULL;
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
	const struct vpmpi_graph *g =
	    graph_of(comm, MPI_GRAPH, "MPI_Graphdims_get");

	if (!g)
		return MPI_ERR_TOPOLOGY;
	*nnodes = g->nnodes;
	*nedges = g->nedges;
	return MPI_SUCCESS;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
		  int edges[])
{
	const struct vpmpi_graph *g =
	    graph_of(comm, MPI_GRAPH, "MPI_Graph_get");
	int i;

	if (!g)
		return MPI_ERR_TOPOLOGY;
	for (i = 0; i < g->nnodes && i < maxindex; i++)
		index[i] = g->index[i];
	for (i = 0; i < g->nedges && i < maxedges; i++)
		edges[i] = g->edges[i];
	return MPI_SUCCESS;
}

/* Node rank's edges: [first, end) of g->edges. */
static int node_edges(MPI_Comm comm, const struct vpmpi_graph *g, int rank,
		      int *first, int *end, const char *call)
{
	if (rank < 0 || rank >= g->nnodes)
		return vpmpi_err(comm, MPI_ERR_RANK, call,
				 "rank %d is not a node in [0, %d)", rank,
				 g->nnodes);
	*first = rank ? g->index[rank - 1] : 0;
	*end = g->index[rank];
	return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
	static const char call[] = "MPI_Graph_neighbors_count";
	const struct vpmpi_graph *g = graph_of(comm, MPI_GRAPH, call);
	int first = 0, end = 0, rc;

	if (!g)
		return MPI_ERR_TOPOLOGY;
	if ((rc = node_edges(comm, g, rank, &first, &end, call)))
		return rc;
	*nneighbors = end - first;
	return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
			int neighbors[])
{
	static const char call[] = "MPI_Graph_neighbors";
	const struct vpmpi_graph *g = graph_of(comm, MPI_GRAPH, call);
	int first = 0, end = 0, rc, i;

	if (!g)
		return MPI_ERR_TOPOLOGY;
	if ((rc = node_edges(comm, g, rank, &first, &end, call)))
		return rc;
	for (i = first; i < end && i - first < maxneighbors; i++)
		neighbors[i - first] = g->edges[i];
	return MPI_SUCCESS;
}

/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are addresses of these. */
int vpmpi_unweighted_, vpmpi_weights_empty_;

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
				   const int sources[],
				   const int sourceweights[], int outdegree,
				   const int destinations[],
				   const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *newcomm)
{
	static const char call[] = "MPI_Dist_graph_create_adjacent";
	vp_comm *c = vpmpi_comm(comm, call);
	struct vpmpi_graph *g;
	int i, rc, weighted;

	(void)info, (void)reorder;
	if (!c)
		return MPI_ERR_COMM;
	if (indegree < 0 || outdegree < 0)
		return vpmpi_err(comm, MPI_ERR_ARG, call, "%s %d is negative",
				 indegree < 0 ? "indegree" : "outdegree",
				 indegree < 0 ? indegree : outdegree);
	for (i = 0; i < indegree + outdegree; i++) {
		int r = i < indegree ? sources[i] : destinations[i - indegree];

		if ((rc = vpmpi_check_rank(comm, c, r, 0, call,
					   i < indegree ? "source"
							: "destination")))
			return rc;
		if (r == MPI_PROC_NULL)
			return vpmpi_err(comm, MPI_ERR_RANK, call,
					 "MPI_PROC_NULL is not a neighbour");
	}
	weighted =
	    sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
	if (!(g = graph_new(MPI_DIST_GRAPH,
			    2 * ((size_t)indegree + (size_t)outdegree))))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for the graph");
	g->indegree = indegree;
	g->outdegree = outdegree;
	g->weighted = weighted;
	g->sources = g->index;
	g->sweights = g->sources + indegree;
	g->dests = g->sweights + indegree;
	g->dweights = g->dests + outdegree;
	for (i = 0; i < indegree; i++) {
		g->sources[i] = sources[i];
		g->sweights[i] = weighted && indegree ? sourceweights[i] : 1;
	}
	for (i = 0; i < outdegree; i++) {
		g->dests[i] = destinations[i];
		g->dweights[i] = weighted && outdegree ? destweights[i] : 1;
	}
	if ((rc = MPI_Comm_split(comm, 0, vp_rank(c), newcomm))) {
		free(g->index);
		free(g);
		return rc;
	}
	vpmpi_me.graph[*newcomm] = g;
	return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
				   int *weighted)
{
	const struct vpmpi_graph *g =
	    graph_of(comm, MPI_DIST_GRAPH, "MPI_Dist_graph_neighbors_count");

	if (!g)
		return MPI_ERR_TOPOLOGY;
	*indegree = g->indegree;
	*outdegree = g->outdegree;
	*weighted = g->weighted;
	return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			     int sourceweights[], int maxoutdegree,
			     int destinations[], int destweights[])
{
	const struct vpmpi_graph *g =
	    graph_of(comm, MPI_DIST_GRAPH, "MPI_Dist_graph_neighbors");
	int i;

	if (!g)
		return MPI_ERR_TOPOLOGY;
	for (i = 0; i < g->indegree && i < maxindegree; i++) {
		sources[i] = g->sources[i];
		if (g->weighted && sourceweights != MPI_UNWEIGHTED)
			sourceweights[i] = g->sweights[i];
	}
	for (i = 0; i < g->outdegree && i < maxoutdegree; i++) {
		destinations[i] = g->dests[i];
		if (g->weighted && destweights != MPI_UNWEIGHTED)
			destweights[i] = g->dweights[i];
	}
	return MPI_SUCCESS;
}

/* ---- neighbourhood collectives ---- */

int vpmpi_hood_of(MPI_Comm comm, vp_comm *c, struct vpmpi_hood *h,
		  const char *call)
{
	const struct vpmpi_graph *g = vpmpi_me.graph[comm];
	int n, d, i, first = 0;

	memset(h, 0, sizeof(*h));
	if (g && g->kind == MPI_GRAPH) {
		first = vp_rank(c) ? g->index[vp_rank(c) - 1] : 0;
		n = g->index[vp_rank(c)] - first;
	} else if (g) {
		n = g->indegree > g->outdegree ? g->indegree : g->outdegree;
	} else if (vpmpi_me.cart[comm]) {
		n = 2 * vpmpi_me.cart[comm]->ndims;
	} else {
		return vpmpi_err(comm, MPI_ERR_TOPOLOGY, call,
				 "communicator %d has no topology: a "
				 "neighbourhood collective needs a Cartesian "
				 "grid or a graph",
				 comm);
	}
	if (!(h->in = malloc(4 * ((size_t)n + 1) * sizeof(int))))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory");
	h->out = h->in + n + 1;
	h->in_tag = h->out + n + 1;
	h->out_tag = h->in_tag + n + 1;
	if (g && g->kind == MPI_GRAPH) {
		h->nin = h->nout = n;
		for (i = 0; i < n; i++) {
			h->in[i] = h->out[i] = g->edges[first + i];
			h->in_tag[i] = h->out_tag[i] = 0; /* FIFO per pair */
		}
	} else if (g) {
		h->nin = g->indegree;
		h->nout = g->outdegree;
		memcpy(h->in, g->sources, (size_t)h->nin * sizeof(int));
		memcpy(h->out, g->dests, (size_t)h->nout * sizeof(int));
		memset(h->in_tag, 0, (size_t)n * sizeof(int));
		memset(h->out_tag, 0, (size_t)n * sizeof(int));
	} else {
		h->nin = h->nout = n;
		for (d = 0; d < n / 2; d++) {
			int below, above;

			MPI_Cart_shift(comm, d, 1, &below, &above);
			h->in[2 * d] = h->out[2 * d] = below;
			h->in[2 * d + 1] = h->out[2 * d + 1] = above;
			/* the one below files my block as from above */
			h->in_tag[2 * d] = 2 * d;
			h->in_tag[2 * d + 1] = 2 * d + 1;
			h->out_tag[2 * d] = 2 * d + 1;
			h->out_tag[2 * d + 1] = 2 * d;
		}
		vpmpi_calling(call); /* vp's reports name it, not Cart_shift */
	}
	return MPI_SUCCESS;
}
