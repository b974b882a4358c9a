/*
 * alg_names.c - names of the collective algorithms and operations.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

static const char *const names[VP_ALG_COUNT_] = {
	[VP_ALG_AUTO] = "auto",
	[VP_ALG_LINEAR] = "linear",
	[VP_ALG_RING] = "ring",
	[VP_ALG_MESH] = "mesh",
	[VP_ALG_HYPERCUBE] = "hypercube",
	[VP_ALG_TREE] = "tree",
	[VP_ALG_BINOMIAL] = "binomial",
	[VP_ALG_KARY] = "kary",
	[VP_ALG_PIPELINED_TREE] = "pipelined_tree",
	[VP_ALG_DOUBLE_TREE] = "double_tree",
	[VP_ALG_SCATTER_ALLGATHER] = "scatter_allgather",
	[VP_ALG_REDUCE_SCATTER_GATHER] = "reduce_scatter_gather",
	[VP_ALG_RABENSEIFNER] = "rabenseifner",
	[VP_ALG_PAIRWISE] = "pairwise",
	[VP_ALG_BRUCK] = "bruck",
	[VP_ALG_DISSEMINATION] = "dissemination",
	[VP_ALG_RECURSIVE_DOUBLING] = "recursive_doubling",
	[VP_ALG_DIRECT] = "direct",
	[VP_ALG_GREEDY] = "greedy",
	[VP_ALG_NEIGHBOUR] = "neighbour",
};

static const char *const coll_names[VP_COLL_COUNT_] = {
	[VP_COLL_BCAST] = "bcast",
	[VP_COLL_REDUCE] = "reduce",
	[VP_COLL_ALLREDUCE] = "allreduce",
	[VP_COLL_ALLGATHER] = "allgather",
	[VP_COLL_REDUCE_SCATTER] = "reduce_scatter",
	[VP_COLL_SCAN] = "scan",
	[VP_COLL_SCATTER] = "scatter",
	[VP_COLL_GATHER] = "gather",
	[VP_COLL_ALLTOALL] = "alltoall",
	[VP_COLL_SHIFT] = "shift",
};

const char *vp_coll_name(vp_coll op)
{
	if ((int)op < 0 || op >= VP_COLL_COUNT_)
		return "unknown";
	return coll_names[op];
}

int vp_coll_parse(const char *name)
{
	int o;

	if (!name)
		return VP_EINVAL;
	for (o = 0; o < VP_COLL_COUNT_; o++)
		if (!strcmp(name, coll_names[o]))
			return o;
	return VP_EINVAL;
}

const char *vp_alg_name(vp_alg alg)
{
	if ((int)alg < 0 || alg >= VP_ALG_COUNT_)
		return "unknown";
	return names[alg];
}

int vp_alg_parse(const char *name)
{
	int a;

	if (!name)
		return VP_EALG;
	for (a = 0; a < VP_ALG_COUNT_; a++)
		if (!strcmp(name, names[a]))
			return a;
	return VP_EALG;
}
