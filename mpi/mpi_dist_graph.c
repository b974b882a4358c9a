/*
 * mpi_dist_graph.c - MPI_Dist_graph_create (MPI 4.0, sec. 8.5.4): each
 * process names any edges of the graph (n sources, each with degrees[i]
 * destinations and, unless MPI_UNWEIGHTED, their weights). The edges are
 * gathered on every process (an allgather of the counts, then of the
 * (source, destination, weight) triples), each process keeps those that
 * start or end at it, in the order of the ranks that named them, and the
 * graph is made as MPI_Dist_graph_create_adjacent makes it (mpi_graph.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

static const char call[] = "MPI_Dist_graph_create";

/* This rank's edges as triples, in *out (its count in *ne). */
static int local_edges(MPI_Comm comm, vp_comm *c, int n, const int sources[],
		       const int degrees[], const int destinations[],
		       const int weights[], int **out, int *ne)
{
	int i, j, k = 0, e = 0, rc, *t;

	for (i = 0; i < n; i++) {
		if (degrees[i] < 0)
			return vpmpi_err(comm, MPI_ERR_ARG, call,
					 "degrees[%d] = %d is negative", i,
					 degrees[i]);
		e += degrees[i];
	}
	if (!(t = malloc(3 * ((size_t)e + 1) * sizeof(*t))))
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call,
				 "no memory for %d edges", e);
	for (i = 0; i < n; i++)
		for (j = 0; j < degrees[i]; j++, k++) {
			int d = destinations[k];

			if ((rc = vpmpi_check_rank(comm, c, sources[i], 0, call,
						   "source")) ||
			    (rc = vpmpi_check_rank(comm, c, d, 0, call,
						   "destination"))) {
				free(t);
				return rc;
			}
			t[3 * k] = sources[i];
			t[3 * k + 1] = d;
			t[3 * k + 2] =
			    weights == MPI_UNWEIGHTED || weights ==
			    MPI_WEIGHTS_EMPTY ? 1 : weights[k];
		}
	*out = t;
	*ne = e;
	return MPI_SUCCESS;
}

/* Every rank's edges: all[] (3 ints an edge), their number in *total. */
static int all_edges(MPI_Comm comm, int p, int *mine, int ne, int **all,
		     int *total)
{
	int *cnt = malloc(2 * (size_t)p * sizeof(*cnt)), i, rc;

	if (!cnt)
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory");
	ne *= 3;
	if ((rc = MPI_Allgather(&ne, 1, MPI_INT, cnt, 1, MPI_INT, comm))) {
		free(cnt);
		return rc;
	}
	for (*total = 0, i = 0; i < p; i++) {
		cnt[p + i] = *total;
		*total += cnt[i];
	}
	if (!(*all = malloc(((size_t)*total + 1) * sizeof(int)))) {
		free(cnt);
		return vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory");
	}
	rc = MPI_Allgatherv(mine, ne, MPI_INT, *all, cnt, cnt + p, MPI_INT,
			    comm);
	free(cnt);
	*total /= 3;
	return rc;
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[],
			  const int degrees[], const int destinations[],
			  const int weights[], MPI_Info info, int reorder,
			  MPI_Comm *newcomm)
{
	vp_comm *c = vpmpi_comm(comm, call);
	int *mine = NULL, *all = NULL, *adj = NULL, ne = 0, total = 0, i, me, rc;
	int in = 0, out = 0, unweighted = weights == MPI_UNWEIGHTED;

	if (!c)
		return MPI_ERR_COMM;
	if (n < 0 || !newcomm || (n && (!sources || !degrees)))
		return vpmpi_err(comm, MPI_ERR_ARG, call,
				 n < 0 ? "n %d is negative"
				       : "an array or newcomm is NULL (n %d)",
				 n);
	if ((rc = local_edges(comm, c, n, sources, degrees, destinations,
			      weights, &mine, &ne)) ||
	    (rc = all_edges(comm, vp_size(c), mine, ne, &all, &total)))
		goto out;
	me = vp_rank(c);
	if (!(adj = malloc(4 * ((size_t)total + 1) * sizeof(*adj)))) {
		rc = vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory");
		goto out;
	}
	/* adj: sources, their weights, destinations, their weights */
	for (i = 0; i < total; i++) {
		if (all[3 * i + 1] == me) {
			adj[in] = all[3 * i];
			adj[total + in++] = all[3 * i + 2];
		}
		if (all[3 * i] == me) {
			adj[2 * total + out] = all[3 * i + 1];
			adj[3 * total + out++] = all[3 * i + 2];
		}
	}
	rc = MPI_Dist_graph_create_adjacent(
	    comm, in, adj, unweighted ? MPI_UNWEIGHTED : adj + total, out,
	    adj + 2 * total, unweighted ? MPI_UNWEIGHTED : adj + 3 * total,
	    info, reorder, newcomm);
out:
	free(mine);
	free(all);
	free(adj);
	return rc;
}
