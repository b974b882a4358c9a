/*
 * mpi_intercomm.c - intercommunicators (MPI 4.0, sec. 7.6):
 * MPI_Intercomm_create makes one, MPI_Comm_size, MPI_Comm_rank,
 * MPI_Comm_group, MPI_Comm_remote_size, MPI_Comm_remote_group,
 * MPI_Comm_test_inter, the names and the attributes query it;
 * MPI_Intercomm_create_from_groups makes one of two groups (no message),
 * MPI_Intercomm_merge makes an intracommunicator of both groups, MPI_Comm_dup, MPI_Comm_split and
 * MPI_Comm_create make new ones (sec. 7.4.2), and MPI_Comm_free frees it.
 * Its point to point is in mpi_intercomm_p2p.c, its collectives in
 * mpi_intercomm_coll.c; a call this layer has no intercommunicator form
 * of fails with MPI_ERR_COMM, saying so.
 *
 * An intercommunicator keeps both groups (world ranks in rank order) and
 * a hidden intracommunicator over their union, the group whose lowest
 * world rank is lower first: the two sides agree on it without a further
 * message, and MPI_Intercomm_merge splits it. Its handle is a slot of the
 * communicators' table whose intracommunicator is NULL (vpmpi_me.inter
 * holds it), so that no call on intracommunicators takes one for an
 * intracommunicator, and the table grows as the program makes either.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

struct vpmpi_inter {
	MPI_Comm uni;	     /* the hidden union, both groups */
	MPI_Comm coll;	     /* its duplicate for collectives (0: none yet) */
	int lrank, lsize, rsize;
	int left;	     /* this side's group comes first in uni */
	int *rworld, *lworld; /* both groups' world ranks */
};

static struct vpmpi_inter *inter_of(MPI_Comm h)
{
	return h >= VPMPI_FIRST_INTER && h < vpmpi_me.ncomms
		   ? vpmpi_me.inter[h]
		   : NULL;
}

/* A zeroed intercommunicator: NULL when memory is out. */
static struct vpmpi_inter *inter_new(void)
{
	return calloc(1, sizeof(struct vpmpi_inter));
}

static void inter_destroy(struct vpmpi_inter *ic)
{
	free(ic->lworld);
	free(ic->rworld);
	free(ic);
}

/* ic made: its handle in *h (the lowest free), or -1 after the error,
 * ic and its union freed. Its handle is taken only now, once the union
 * made on the way has taken its own. */
static int inter_put(struct vpmpi_inter *ic, MPI_Comm *h, const char *call)
{
	int slot = vpmpi_comm_slot();

	if (slot < 0) {
		MPI_Comm_free(&ic->uni);
		inter_destroy(ic);
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for another communicator handle "
				  "(%d in use)",
				  vpmpi_me.ncomms);
	}
	vpmpi_me.inter[slot] = ic;
	*h = slot;
	return MPI_SUCCESS;
}

int vpmpi_inter_size(MPI_Comm h, int *size, int *rank)
{
	struct vpmpi_inter *ic = inter_of(h);

	if (size)
		*size = ic->lsize;
	if (rank)
		*rank = ic->lrank;
	return MPI_SUCCESS;
}

int vpmpi_inter_union(MPI_Comm h, MPI_Comm *uni, int *rsize, int *off)
{
	struct vpmpi_inter *ic = inter_of(h);

	if (!ic)
		return -1;
	*uni = ic->uni;
	*rsize = ic->rsize;
	*off = ic->left ? ic->lsize : 0;
	return 0;
}

MPI_Comm vpmpi_errh_handle(MPI_Comm h)
{
	struct vpmpi_inter *ic = inter_of(h);

	return ic ? ic->uni : h;
}

int vpmpi_inter_coll(MPI_Comm h, MPI_Comm *coll, int *rsize, int *off,
		     int *lsize, int *lrank)
{
	struct vpmpi_inter *ic = inter_of(h);
	int rc;

	if (!ic->coll && (rc = MPI_Comm_dup(ic->uni, &ic->coll)))
		return rc;
	*coll = ic->coll;
	*rsize = ic->rsize;
	*off = ic->left ? ic->lsize : 0;
	*lsize = ic->lsize;
	*lrank = ic->lrank;
	return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	if (!flag)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Comm_test_inter",
				  "flag is NULL");
	if (inter_of(comm) && !vpmpi_started("MPI_Comm_test_inter")) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (!vpmpi_comm(comm, "MPI_Comm_test_inter"))
		return MPI_ERR_COMM;
	*flag = 0;
	return MPI_SUCCESS;
}

/* The intercommunicator of handle comm, or NULL after the error. */
static struct vpmpi_inter *need_inter(MPI_Comm comm, const char *call)
{
	struct vpmpi_inter *ic = inter_of(comm);

	if (vpmpi_started(call))
		return NULL;
	if (ic)
		return ic;
	if (vpmpi_comm(comm, call))
		vpmpi_err(comm, MPI_ERR_COMM, call,
			  "communicator %d is an intracommunicator: it has no "
			  "remote group",
			  comm);
	return NULL;
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	struct vpmpi_inter *ic = need_inter(comm, "MPI_Comm_remote_size");

	if (!ic)
		return MPI_ERR_COMM;
	*size = ic->rsize;
	return MPI_SUCCESS;
}

/* A group of the n world ranks in w (copied). */
static int group_of(const int *w, int n, MPI_Group *group, const char *call)
{
	int *copy = malloc(((size_t)n + 1) * sizeof(*copy));

	if (!copy)
		return vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for a group");
	for (int i = 0; i < n; i++)
		copy[i] = w[i];
	return vpmpi_group_put(n, copy, group, call);
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	struct vpmpi_inter *ic = need_inter(comm, "MPI_Comm_remote_group");

	if (!ic)
		return MPI_ERR_COMM;
	return group_of(ic->rworld, ic->rsize, group, "MPI_Comm_remote_group");
}

int vpmpi_inter_group(MPI_Comm comm, MPI_Group *group)
{
	struct vpmpi_inter *ic = inter_of(comm);

	return group_of(ic->lworld, ic->lsize, group, "MPI_Comm_group");
}

/* The leaders swap their groups' world ranks over peer (remote leader
 * rl, tag), and each leader passes the remote group on to its side: the
 * remote group's size and world ranks (malloc'd) in *rsize, *rw. */
static int swap_groups(MPI_Comm local, int leader, MPI_Comm peer, int rl,
		       int tag, const int *lw, int lsize, int *rsize,
		       int **rw)
{
	int rc, lrank;

	MPI_Comm_rank(local, &lrank);
	if (lrank == leader &&
	    (rc = MPI_Sendrecv(&lsize, 1, MPI_INT, rl, tag, rsize, 1, MPI_INT,
			       rl, tag, peer, MPI_STATUS_IGNORE)))
		return rc;
	if ((rc = MPI_Bcast(rsize, 1, MPI_INT, leader, local)))
		return rc;
	if (!(*rw = malloc(((size_t)*rsize + 1) * sizeof(int))))
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Intercomm_create",
				  "no memory for the remote group");
	if (lrank == leader &&
	    (rc = MPI_Sendrecv(lw, lsize, MPI_INT, rl, tag, *rw, *rsize,
			       MPI_INT, rl, tag, peer, MPI_STATUS_IGNORE)))
		return rc;
	return MPI_Bcast(*rw, *rsize, MPI_INT, leader, local);
}

/* The hidden union of both groups, made over MPI_COMM_WORLD by the
 * members alone (MPI_Comm_create_group). */
static int make_union(struct vpmpi_inter *ic, const int *lw, int tag)
{
	int n = ic->lsize + ic->rsize, *all, i, rc;
	MPI_Group world, g;

	if (!(all = malloc((size_t)n * sizeof(*all))))
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Intercomm_create",
				  "no memory for the groups");
	for (i = 0; i < n; i++) {
		int mine = ic->left ? i < ic->lsize : i >= ic->rsize;
		int k = ic->left ? (mine ? i : i - ic->lsize)
				 : (mine ? i - ic->rsize : i);

		all[i] = mine ? lw[k] : ic->rworld[k];
	}
	rc = MPI_Comm_group(MPI_COMM_WORLD, &world);
	if (!rc)
		rc = MPI_Group_incl(world, n, all, &g);
	free(all);
	if (rc)
		return rc;
	rc = MPI_Comm_create_group(MPI_COMM_WORLD, g, tag, &ic->uni);
	MPI_Group_free(&g);
	MPI_Group_free(&world);
	return rc;
}

static int lowest(const int *w, int n)
{
	int m = w[0];

	for (int i = 1; i < n; i++)
		m = w[i] < m ? w[i] : m;
	return m;
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag,
			 MPI_Comm *newintercomm)
{
	static const char call[] = "MPI_Intercomm_create";
	struct vpmpi_inter *ic;
	int rc, me, *lw;

	if (!vpmpi_comm(local_comm, call))
		return MPI_ERR_COMM;
	if (!newintercomm)
		return vpmpi_err(local_comm, MPI_ERR_ARG, call,
				 "newintercomm is NULL");
	if (!(ic = inter_new()))
		return vpmpi_err(local_comm, MPI_ERR_NO_MEM, call,
				 "no memory for an intercommunicator");
	MPI_Comm_rank(local_comm, &ic->lrank);
	MPI_Comm_size(local_comm, &ic->lsize);
	if ((rc = vpmpi_check_rank(local_comm, vpmpi_me.comm[local_comm],
				   local_leader, 0, call, "local_leader")) ||
	    !(lw = malloc((size_t)ic->lsize * sizeof(*lw)))) {
		free(ic);
		return rc ? rc : vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory");
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	rc = MPI_Allgather(&me, 1, MPI_INT, lw, 1, MPI_INT, local_comm);
	if (!rc)
		rc = swap_groups(local_comm, local_leader, peer_comm,
				 remote_leader, tag, lw, ic->lsize, &ic->rsize,
				 &ic->rworld);
	if (!rc) {
		ic->left = lowest(lw, ic->lsize) < lowest(ic->rworld, ic->rsize);
		rc = make_union(ic, lw, tag);
	}
	ic->lworld = lw;
	if (rc) {
		inter_destroy(ic);
		return rc;
	}
	return inter_put(ic, newintercomm, call);
}

/* A copy of n ints (NULL: no memory). */
static int *ints_dup(const int *a, int n)
{
	int *b = malloc(((size_t)n + 1) * sizeof(*b));

	for (int i = 0; b && i < n; i++)
		b[i] = a[i];
	return b;
}

/* Checks the groups of MPI_Intercomm_create_from_groups: this rank in
 * the local group, leaders within their groups, no rank in both. */
static int check_sides(const int *lw, int lsize, int lleader, const int *rw,
		       int rsize, int rleader, int me, const char *call)
{
	int i, j, in = 0;

	for (i = 0; i < lsize; i++)
		in |= lw[i] == me;
	if (!in)
		return vpmpi_fail(MPI_ERR_GROUP, call,
				  "this rank (world rank %d) is not in "
				  "local_group",
				  me);
	if (lleader < 0 || lleader >= lsize || rleader < 0 || rleader >= rsize)
		return vpmpi_fail(MPI_ERR_RANK, call,
				  "%s %d is outside [0, %d)",
				  lleader < 0 || lleader >= lsize
				      ? "local_leader"
				      : "remote_leader",
				  lleader < 0 || lleader >= lsize ? lleader
								 : rleader,
				  lleader < 0 || lleader >= lsize ? lsize
								 : rsize);
	for (i = 0; i < lsize; i++)
		for (j = 0; j < rsize; j++)
			if (lw[i] == rw[j])
				return vpmpi_fail(MPI_ERR_GROUP, call,
						  "world rank %d is in both "
						  "groups",
						  lw[i]);
	return MPI_SUCCESS;
}

/* MPI 4.0 sec. 7.6.2: both groups are known to every caller, so the
 * intercommunicator is made without a message between the leaders; the
 * hidden union is made by its members under stringtag's tag. */
int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
				     MPI_Group remote_group, int remote_leader,
				     const char *stringtag, MPI_Info info,
				     MPI_Errhandler errhandler,
				     MPI_Comm *newintercomm)
{
	static const char call[] = "MPI_Intercomm_create_from_groups";
	const int *lw, *rw;
	struct vpmpi_inter *ic;
	int rc, lsize, rsize, me, i;

	(void)info;
	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!stringtag || !newintercomm)
		return vpmpi_fail(MPI_ERR_ARG, call, "%s is NULL",
				  !stringtag ? "stringtag" : "newintercomm");
	if (!(lw = vpmpi_group_world(local_group, &lsize, call)) ||
	    !(rw = vpmpi_group_world(remote_group, &rsize, call)))
		return MPI_ERR_GROUP;
	me = vp_rank(vpmpi_me.comm[MPI_COMM_WORLD]);
	if ((rc = check_sides(lw, lsize, local_leader, rw, rsize,
			      remote_leader, me, call)))
		return rc;
	if (!(ic = inter_new()))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for an intercommunicator");
	ic->lsize = lsize;
	ic->rsize = rsize;
	for (i = 0; i < lsize; i++)
		if (lw[i] == me)
			ic->lrank = i;
	ic->lworld = ints_dup(lw, lsize);
	ic->rworld = ints_dup(rw, rsize);
	ic->left = lowest(lw, lsize) < lowest(rw, rsize);
	rc = !ic->lworld || !ic->rworld
		 ? vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory")
		 : make_union(ic, ic->lworld, vpmpi_string_tag(stringtag));
	if (rc) {
		inter_destroy(ic);
		return rc;
	}
	if ((rc = inter_put(ic, newintercomm, call)))
		return rc;
	return MPI_Comm_set_errhandler(*newintercomm, errhandler);
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	static const char call[] = "MPI_Intercomm_merge";
	struct vpmpi_inter *ic = need_inter(intercomm, call);
	int n, *highs, mine, theirs, first, rc;

	if (!ic)
		return MPI_ERR_COMM;
	if (!newintracomm)
		return vpmpi_fail(MPI_ERR_ARG, call, "newintracomm is NULL");
	n = ic->lsize + ic->rsize;
	if (!(highs = malloc((size_t)n * sizeof(*highs))))
		return vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory");
	high = high != 0;
	rc = MPI_Allgather(&high, 1, MPI_INT, highs, 1, MPI_INT, ic->uni);
	if (rc) {
		free(highs);
		return rc;
	}
	/* sec. 7.6.2: the group with high false first; if both sides gave
	 * the same value, either order (here the union's) */
	mine = highs[ic->left ? 0 : ic->rsize];
	theirs = highs[ic->left ? ic->lsize : 0];
	free(highs);
	first = mine != theirs ? !mine : ic->left;
	return MPI_Comm_split(ic->uni, 0, (first ? 0 : n) + ic->lrank,
			      newintracomm);
}

/* MPI_Comm_dup of an intercommunicator: the same groups over a duplicate
 * of the union (collective over both groups, as the call is). */
int vpmpi_inter_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	static const char call[] = "MPI_Comm_dup";
	struct vpmpi_inter *ic = inter_of(comm), *n;
	int rc;

	if (!newcomm)
		return vpmpi_fail(MPI_ERR_ARG, call, "newcomm is NULL");
	if (!(n = inter_new()))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for an intercommunicator");
	*n = *ic;
	n->coll = MPI_COMM_NULL;
	n->lworld = ints_dup(ic->lworld, ic->lsize);
	n->rworld = ints_dup(ic->rworld, ic->rsize);
	if (!n->lworld || !n->rworld)
		rc = vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory");
	else
		rc = MPI_Comm_dup(ic->uni, &n->uni);
	if (rc) {
		inter_destroy(n);
		return rc;
	}
	if ((rc = inter_put(n, newcomm, call)))
		return rc;
	/* MPI 4.0 sec. 7.7.2: a copy callback's failure fails the call */
	if ((rc = vpmpi_attrs_copy(comm, *newcomm))) {
		vpmpi_attr_forget(VPMPI_ATTR_COMM, *newcomm);
		vpmpi_inter_free(newcomm);
	}
	return rc;
}

/* The union's entries (color, key, rank in its group) of one side with
 * color, ordered by (key, rank): their ranks in the side's group into
 * out, their count returned. */
static int members(const int *all, int from, int n, int color, int *out)
{
	int k = 0, i, j;

	for (i = from; i < from + n; i++) {
		const int *e = &all[3 * i];

		if (e[0] != color)
			continue;
		for (j = k; j > 0; j--) { /* insertion by (key, rank) */
			const int *f = &all[3 * (from + out[j - 1])];

			if (f[1] < e[1] || (f[1] == e[1] && f[2] < e[2]))
				break;
			out[j] = out[j - 1];
		}
		out[j] = i - from;
		k++;
	}
	return k;
}

/* The new intercommunicator of a split: both sides' members of color
 * from all (the union's entries), its union split off ic's. */
static int split_made(struct vpmpi_inter *ic, const int *all, int color,
		      struct vpmpi_inter *n, MPI_Comm *uni)
{
	int lfrom = ic->left ? 0 : ic->rsize, rfrom = ic->left ? ic->lsize : 0;
	int total = ic->lsize + ic->rsize, i, *lr, *rr;

	lr = malloc((size_t)(total + 1) * sizeof(*lr));
	rr = malloc((size_t)(total + 1) * sizeof(*rr));
	n->lworld = malloc((size_t)(total + 1) * sizeof(int));
	n->rworld = malloc((size_t)(total + 1) * sizeof(int));
	if (!lr || !rr || !n->lworld || !n->rworld) {
		free(lr);
		free(rr);
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Comm_split",
				  "no memory for the groups");
	}
	n->lsize = color == MPI_UNDEFINED
		       ? 0
		       : members(all, lfrom, ic->lsize, color, lr);
	n->rsize = color == MPI_UNDEFINED
		       ? 0
		       : members(all, rfrom, ic->rsize, color, rr);
	for (i = 0; i < n->lsize; i++) {
		n->lworld[i] = ic->lworld[lr[i]];
		if (lr[i] == ic->lrank)
			n->lrank = i;
	}
	for (i = 0; i < n->rsize; i++)
		n->rworld[i] = ic->rworld[rr[i]];
	free(lr);
	free(rr);
	if (n->rsize) /* else no intercommunicator: MPI_COMM_NULL */
		n->left = lowest(n->lworld, n->lsize) <
			  lowest(n->rworld, n->rsize);
	return MPI_Comm_split(ic->uni, n->rsize ? color : MPI_UNDEFINED,
			      (n->left ? 0 : total) + n->lrank, uni);
}

/* MPI_Comm_split (and MPI_Comm_create) of an intercommunicator (MPI 4.0
 * sec. 7.4.2): the members of a color on each side form the new local
 * and remote groups, ordered by key then rank; a color only one side
 * has gives MPI_COMM_NULL. Collective over both groups. */
int vpmpi_inter_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm,
		      const char *call)
{
	struct vpmpi_inter *ic = inter_of(comm), *n;
	int mine[3] = { color, key, ic->lrank }, *all, rc;

	if (!newcomm)
		return vpmpi_fail(MPI_ERR_ARG, call, "newcomm is NULL");
	if (color < 0 && color != MPI_UNDEFINED)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "color %d is negative and not MPI_UNDEFINED",
				  color);
	all = malloc(3 * (size_t)(ic->lsize + ic->rsize) * sizeof(*all));
	if (!all || !(n = inter_new())) {
		free(all);
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for an intercommunicator");
	}
	rc = MPI_Allgather(mine, 3, MPI_INT, all, 3, MPI_INT, ic->uni);
	if (!rc)
		rc = split_made(ic, all, color, n, &n->uni);
	free(all);
	if (rc || n->uni == MPI_COMM_NULL) {
		inter_destroy(n);
		*newcomm = MPI_COMM_NULL;
		return rc;
	}
	return inter_put(n, newcomm, call);
}

/* How two lists of world ranks compare: MPI_CONGRUENT when they are
 * the same in the same order, MPI_SIMILAR when in another, else
 * MPI_UNEQUAL. */
static int ranks_compare(const int *a, const int *b, int n)
{
	int i, j, found, same = 1;

	for (i = 0; i < n; i++)
		same &= a[i] == b[i];
	if (same)
		return MPI_CONGRUENT;
	for (i = 0; i < n; i++) {
		for (j = 0, found = 0; j < n && !found; j++)
			found = a[i] == b[j];
		if (!found)
			return MPI_UNEQUAL;
	}
	return MPI_SIMILAR;
}

/* MPI_Comm_compare where a or b is an intercommunicator (MPI 4.0 sec.
 * 7.4.1): identical handles are MPI_IDENT; two intercommunicators whose
 * local groups and remote groups are congruent, or similar, are that;
 * anything else, an intracommunicator with one too, is MPI_UNEQUAL. */
int vpmpi_inter_compare(MPI_Comm a, MPI_Comm b, int *result)
{
	struct vpmpi_inter *x = inter_of(a), *y = inter_of(b);
	int l, r;

	if (!result)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Comm_compare",
				  "result is NULL");
	if (!x || !y) {
		if (!VPMPI_IS_INTER(a) && !vpmpi_comm(a, "MPI_Comm_compare"))
			return MPI_ERR_COMM;
		if (!VPMPI_IS_INTER(b) && !vpmpi_comm(b, "MPI_Comm_compare"))
			return MPI_ERR_COMM;
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	if (a == b) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (x->lsize != y->lsize || x->rsize != y->rsize) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	l = ranks_compare(x->lworld, y->lworld, x->lsize);
	r = ranks_compare(x->rworld, y->rworld, x->rsize);
	*result = l == MPI_UNEQUAL || r == MPI_UNEQUAL ? MPI_UNEQUAL
		  : l == MPI_SIMILAR || r == MPI_SIMILAR ? MPI_SIMILAR
							 : MPI_CONGRUENT;
	return MPI_SUCCESS;
}

int vpmpi_inter_free(MPI_Comm *comm)
{
	struct vpmpi_inter *ic = inter_of(*comm);
	int rc = vpmpi_attrs_drop(*comm); /* MPI: before it goes */

	if (rc)
		return rc;
	rc = MPI_Comm_free(&ic->uni);

	if (ic->coll && !rc)
		rc = MPI_Comm_free(&ic->coll);

	vpmpi_name_drop(VPMPI_NAME_COMM, *comm);
	vpmpi_me.inter[*comm] = NULL;
	inter_destroy(ic);
	*comm = MPI_COMM_NULL;
	return rc;
}

void vpmpi_inters_free(void)
{
	for (int h = 0; h < vpmpi_me.ncomms; h++)
		if (vpmpi_me.inter[h])
			inter_destroy(vpmpi_me.inter[h]);
	free(vpmpi_me.inter);
	vpmpi_me.inter = NULL;
}
