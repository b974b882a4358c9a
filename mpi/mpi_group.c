/*
 * mpi_group.c - MPI groups: ordered sets of processes, kept as the world
 * ranks of their members in group order (handles per rank, from 2;
 * MPI_GROUP_EMPTY is 1). MPI_Comm_create makes a communicator of a group
 * with vp_comm_create.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

static const struct vpmpi_group empty_group = { 0, NULL };

static const struct vpmpi_group *group_of(MPI_Group g, const char *call)
{
	int i = g - 2;

	if (g == MPI_GROUP_EMPTY)
		return &empty_group;
	if (i >= 0 && i < vpmpi_me.ngroups && vpmpi_me.groups[i])
		return vpmpi_me.groups[i];
	vpmpi_fail(MPI_ERR_GROUP, call,
		   g == MPI_GROUP_NULL ? "group is MPI_GROUP_NULL"
				       : "group %d is not a group of this rank "
					 "(freed, or never made)",
		   g);
	return NULL;
}

const int *vpmpi_group_world(MPI_Group group, int *size, const char *call)
{
	const struct vpmpi_group *g = group_of(group, call);

	if (!g)
		return NULL;
	*size = g->size;
	return g->world ? g->world : (const int *)size;
}

/* A new group of size members (world takes ownership); its handle in
 * *out. MPI_SUCCESS or the error. */
int vpmpi_group_put(int size, int *world, MPI_Group *out, const char *call)
{
	struct vpmpi_group *g, **ng;
	int i;

	if (!size) {
		free(world);
		*out = MPI_GROUP_EMPTY;
		return MPI_SUCCESS;
	}
	for (i = 0; i < vpmpi_me.ngroups; i++)
		if (!vpmpi_me.groups[i])
			break;
	if (i == vpmpi_me.ngroups) { /* the table doubles */
		int n = i ? 2 * i : 8;

		ng = realloc(vpmpi_me.groups, (size_t)n * sizeof(*ng));
		if (!ng) {
			free(world);
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for a group");
		}
		memset(ng + i, 0, (size_t)(n - i) * sizeof(*ng));
		vpmpi_me.groups = ng;
		vpmpi_me.ngroups = n;
	}
	if (!(g = malloc(sizeof(*g)))) {
		free(world);
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a group");
	}
	g->size = size;
	g->world = world;
	vpmpi_me.groups[i] = g;
	*out = i + 2;
	return MPI_SUCCESS;
}

void vpmpi_groups_free(void)
{
	int i;

	for (i = 0; i < vpmpi_me.ngroups; i++)
		if (vpmpi_me.groups[i]) {
			free(vpmpi_me.groups[i]->world);
			free(vpmpi_me.groups[i]);
		}
	free(vpmpi_me.groups);
	vpmpi_me.groups = NULL;
	vpmpi_me.ngroups = 0;
}

static int *ints(int n, const char *call)
{
	int *a = malloc(((size_t)n + 1) * sizeof(*a));

	if (!a)
		vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for %d ranks", n);
	return a;
}

/* The place of world rank w in g, or MPI_UNDEFINED. */
static int place(const struct vpmpi_group *g, int w)
{
	int i;

	for (i = 0; i < g->size; i++)
		if (g->world[i] == w)
			return i;
	return MPI_UNDEFINED;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
	vp_comm *c;
	int *w, i;

	if (vpmpi_is_inter(comm))
		return vpmpi_inter_group(comm, group);
	c = vpmpi_comm(comm, "MPI_Comm_group");
	if (!c)
		return MPI_ERR_COMM;
	if (!(w = ints(vp_size(c), "MPI_Comm_group")))
		return MPI_ERR_NO_MEM;
	for (i = 0; i < vp_size(c); i++)
		w[i] = vp_world_rank(c, i);
	return vpmpi_group_put(vp_size(c), w, group, "MPI_Comm_group");
}

int MPI_Group_size(MPI_Group group, int *size)
{
	const struct vpmpi_group *g = group_of(group, "MPI_Group_size");

	if (!g)
		return MPI_ERR_GROUP;
	*size = g->size;
	return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group group, int *rank)
{
	const struct vpmpi_group *g = group_of(group, "MPI_Group_rank");

	if (!g)
		return MPI_ERR_GROUP;
	*rank = place(g, vp_rank(vpmpi_me.comm[MPI_COMM_WORLD]));
	return MPI_SUCCESS;
}

/* Checks n distinct ranks of g: 0 or the error raised. */
static int check_ranks(const struct vpmpi_group *g, int n, const int *ranks,
		       const char *call)
{
	int i, j;

	if (n < 0 || n > g->size)
		return vpmpi_fail(
		    MPI_ERR_ARG, call,
		    "n = %d is outside [0, %d] (the group's size)", n, g->size);
	for (i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= g->size)
			return vpmpi_fail(MPI_ERR_RANK, call,
					  "ranks[%d] = %d is outside [0, %d)",
					  i, ranks[i], g->size);
		for (j = 0; j < i; j++)
			if (ranks[j] == ranks[i])
				return vpmpi_fail(MPI_ERR_RANK, call,
						  "rank %d is named twice "
						  "(ranks[%d] and ranks[%d])",
						  ranks[i], j, i);
	}
	return MPI_SUCCESS;
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup)
{
	const struct vpmpi_group *g = group_of(group, "MPI_Group_incl");
	int *w, i, rc;

	if (!g)
		return MPI_ERR_GROUP;
	if ((rc = check_ranks(g, n, ranks, "MPI_Group_incl")))
		return rc;
	if (!(w = ints(n, "MPI_Group_incl")))
		return MPI_ERR_NO_MEM;
	for (i = 0; i < n; i++)
		w[i] = g->world[ranks[i]];
	return vpmpi_group_put(n, w, newgroup, "MPI_Group_incl");
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup)
{
	const struct vpmpi_group *g = group_of(group, "MPI_Group_excl");
	int *w, i, j, k = 0, rc, out;

	if (!g)
		return MPI_ERR_GROUP;
	if ((rc = check_ranks(g, n, ranks, "MPI_Group_excl")))
		return rc;
	if (!(w = ints(g->size, "MPI_Group_excl")))
		return MPI_ERR_NO_MEM;
	for (i = 0; i < g->size; i++) {
		for (j = 0, out = 0; j < n && !out; j++)
			out = ranks[j] == i;
		if (!out)
			w[k++] = g->world[i];
	}
	return vpmpi_group_put(k, w, newgroup, "MPI_Group_excl");
}

int MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[],
			      MPI_Group b, int ranks_b[])
{
	const struct vpmpi_group *ga = group_of(a, "MPI_Group_translate_ranks");
	const struct vpmpi_group *gb =
	    ga ? group_of(b, "MPI_Group_translate_ranks") : NULL;
	int i;

	if (!ga || !gb)
		return MPI_ERR_GROUP;
	for (i = 0; i < n; i++) {
		if (ranks_a[i] == MPI_PROC_NULL) {
			ranks_b[i] = MPI_PROC_NULL;
			continue;
		}
		if (ranks_a[i] < 0 || ranks_a[i] >= ga->size)
			return vpmpi_fail(MPI_ERR_RANK,
					  "MPI_Group_translate_ranks",
					  "ranks[%d] = %d is outside [0, %d)",
					  i, ranks_a[i], ga->size);
		ranks_b[i] = place(gb, ga->world[ranks_a[i]]);
	}
	return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result)
{
	const struct vpmpi_group *ga = group_of(a, "MPI_Group_compare");
	const struct vpmpi_group *gb =
	    ga ? group_of(b, "MPI_Group_compare") : NULL;
	int i, same = 1;

	if (!ga || !gb)
		return MPI_ERR_GROUP;
	if (ga->size != gb->size) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	for (i = 0; i < ga->size; i++)
		same &= ga->world[i] == gb->world[i];
	if (same) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	for (i = 0; i < ga->size; i++)
		if (place(gb, ga->world[i]) == MPI_UNDEFINED) {
			*result = MPI_UNEQUAL;
			return MPI_SUCCESS;
		}
	*result = MPI_SIMILAR;
	return MPI_SUCCESS;
}

/* Union, intersection, difference: a's members in a's order (kept when
 * in b as keep says), then for the union b's members not in a. */
static int set_op(MPI_Group a, MPI_Group b, int keep_in_b, int add_b,
		  MPI_Group *newgroup, const char *call)
{
	const struct vpmpi_group *ga = group_of(a, call);
	const struct vpmpi_group *gb = ga ? group_of(b, call) : NULL;
	int *w, i, k = 0, in_b;

	if (!ga || !gb)
		return MPI_ERR_GROUP;
	if (!(w = ints(ga->size + gb->size, call)))
		return MPI_ERR_NO_MEM;
	for (i = 0; i < ga->size; i++) {
		in_b = place(gb, ga->world[i]) != MPI_UNDEFINED;
		if (keep_in_b < 0 || in_b == keep_in_b)
			w[k++] = ga->world[i];
	}
	for (i = 0; add_b && i < gb->size; i++)
		if (place(ga, gb->world[i]) == MPI_UNDEFINED)
			w[k++] = gb->world[i];
	return vpmpi_group_put(k, w, newgroup, call);
}

int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
	return set_op(a, b, -1, 1, newgroup, "MPI_Group_union");
}

int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
	return set_op(a, b, 1, 0, newgroup, "MPI_Group_intersection");
}

int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
	return set_op(a, b, 0, 0, newgroup, "MPI_Group_difference");
}

int MPI_Group_free(MPI_Group *group)
{
	int i;

	if (!group || !group_of(*group, "MPI_Group_free"))
		return MPI_ERR_GROUP;
	if (*group != MPI_GROUP_EMPTY) {
		i = *group - 2;
		free(vpmpi_me.groups[i]->world);
		free(vpmpi_me.groups[i]);
		vpmpi_me.groups[i] = NULL;
	}
	*group = MPI_GROUP_NULL;
	return MPI_SUCCESS;
}

/* The ranks in c of g's members, in group order (malloc'd), or NULL after
 * the error: a member outside c, or no memory. */
static int *comm_ranks(MPI_Comm comm, vp_comm *c,
		       const struct vpmpi_group *g, const char *call)
{
	int i, j, *ranks = malloc(((size_t)g->size + 1) * sizeof(int));

	if (!ranks) {
		vpmpi_err(comm, MPI_ERR_NO_MEM, call, "no memory");
		return NULL;
	}
	for (i = 0; i < g->size; i++) { /* world ranks to comm's ranks */
		for (j = 0; j < vp_size(c); j++)
			if (vp_world_rank(c, j) == g->world[i])
				break;
		if (j == vp_size(c)) {
			free(ranks);
			vpmpi_err(comm, MPI_ERR_GROUP, call,
				  "the group's rank %d (world rank %d) is not "
				  "in the communicator",
				  i, g->world[i]);
			return NULL;
		}
		ranks[i] = j;
	}
	return ranks;
}

/* MPI_Comm_create: every rank of comm calls; since MPI 2.2 the groups may
 * differ between ranks if they are disjoint (each rank passes the group
 * it joins, or one without itself to get MPI_COMM_NULL); vp_comm_create
 * fails the job when they overlap but differ. */
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	static const char call[] = "MPI_Comm_create";
	vp_comm *c, *sub;
	const struct vpmpi_group *g;
	int rc, *ranks;

	if (vpmpi_is_inter(comm)) {
		int r; /* the group is a subgroup of the local one */

		if ((rc = MPI_Group_rank(group, &r)))
			return rc;
		return vpmpi_inter_split(comm, r == MPI_UNDEFINED ? r : 0, r,
					 newcomm, call);
	}
	c = vpmpi_comm(comm, call);
	g = c ? group_of(group, call) : NULL;
	if (!c || !g)
		return c ? MPI_ERR_GROUP : MPI_ERR_COMM;
	if (!newcomm)
		return vpmpi_err(comm, MPI_ERR_ARG, call, "newcomm is NULL");
	if (!(ranks = comm_ranks(comm, c, g, call)))
		return MPI_ERR_GROUP;
	rc = vp_comm_create(c, ranks, g->size, &sub);
	free(ranks);
	if (rc)
		return vpmpi_ret(rc);
	if ((*newcomm = vpmpi_comm_put(sub, comm, call)) < 0)
		return MPI_ERR_NO_MEM;
	return MPI_SUCCESS;
}

/* MPI_Comm_create_group (MPI 3.0): made by the group's members alone,
 * on vp_comm_create_group; a rank outside the group (MPI_GROUP_EMPTY
 * included) gets MPI_COMM_NULL at once, as in MPICH and Open MPI. */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm)
{
	static const char call[] = "MPI_Comm_create_group";
	vp_comm *c = vpmpi_comm(comm, call), *sub;
	const struct vpmpi_group *g = c ? group_of(group, call) : NULL;
	int rc, *ranks;

	if (!c || !g)
		return c ? MPI_ERR_GROUP : MPI_ERR_COMM;
	if (!newcomm)
		return vpmpi_err(comm, MPI_ERR_ARG, call, "newcomm is NULL");
	if ((rc = vpmpi_check_tag(comm, tag, 0, call)))
		return rc;
	if (!(ranks = comm_ranks(comm, c, g, call)))
		return MPI_ERR_GROUP;
	if (place(g, vp_world_rank(c, vp_rank(c))) == MPI_UNDEFINED) {
		free(ranks);
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	rc = vp_comm_create_group(c, ranks, g->size, tag, &sub);
	free(ranks);
	if (rc)
		return vpmpi_ret(rc);
	if ((*newcomm = vpmpi_comm_put(sub, comm, call)) < 0)
		return MPI_ERR_NO_MEM;
	return MPI_SUCCESS;
}
