/*
 * comm.c - communicators: the world, its collective twin, and sub-groups.
 *
 * A communicator is a group (who is in it, shared by its members and owned
 * by the world) seen from one rank, in one message space. Every group gets
 * an id; its contexts are id*4 + space, so user messages, collective
 * messages and the runtime's own exchanges never match one another.
 *
 * vp_comm_split gathers every member's (color, key) at group rank 0 and
 * sends the table back, in the runtime space and outside the model clock:
 * splitting is set-up, not part of an algorithm's cost. Rank 0 also numbers
 * the new groups, from ids only it hands out (world rank w's k-th id is
 * 1 + w + p k; group_ids.c), so members in different processes agree on
 * them without a shared counter. Where every rank of the run shares this
 * process, the members meet at a slot of the group instead
 * (split_slots.c), and the last to arrive numbers the groups from its own
 * ids. Each member then derives the same new group; in each process, the
 * first member to reach the registry creates its record.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE /* qsort_r */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static void dups_free(struct vp__group *g);
static void group_leave(struct vp__rank *me, struct vp__group *g);

int vp__from_world(const vp_comm *c, int w)
{
	const struct vp__group *g = c->group;
	int lo = 0, hi = g->size - 1, mid, r;

	if (!g->world_of)
		return w;
	while (lo <= hi) { /* O(log size): a split may make large groups */
		mid = lo + (hi - lo) / 2;
		r = g->by_world ? g->by_world[mid] : mid;
		if (g->world_of[r] == w)
			return r;
		if (g->world_of[r] < w)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* by_world's order: group ranks by their world rank (qsort_r). */
static int by_world_rank(const void *a, const void *b, void *world_of)
{
	const int *w = world_of;
	int x = w[*(const int *)a], y = w[*(const int *)b];

	return (x > y) - (x < y);
}

/* g->by_world for g's members (none when they increase already): VP_OK
 * or VP_ENOMEM. */
static int group_index(struct vp__group *g)
{
	int i, sorted = 1;

	for (i = 1; i < g->size; i++)
		sorted &= g->world_of[i - 1] < g->world_of[i];
	if (sorted)
		return VP_OK;
	if (!(g->by_world = malloc((size_t)g->size * sizeof(int))))
		return VP_ENOMEM;
	for (i = 0; i < g->size; i++)
		g->by_world[i] = i;
	qsort_r(g->by_world, (size_t)g->size, sizeof(int), by_world_rank,
		g->world_of);
	return VP_OK;
}

int vp_rank(const vp_comm *c)
{
	return c && c->magic == VP__COMM_LIVE ? c->rank : VP_EINVAL;
}

int vp_size(const vp_comm *c)
{
	return c && c->magic == VP__COMM_LIVE ? c->group->size : VP_EINVAL;
}

double vp_time(const vp_comm *c)
{
	return c ? c->me->clock.t : 0.0;
}

const char *vp_topology(const vp_comm *c)
{
	return c ? c->world->topo.spec : "";
}

int vp_topo_info(const vp_comm *c, vp_topo *t)
{
	if (!c || !t)
		return VP_EINVAL;
	*t = c->world->topo_info;
	return VP_OK;
}

int vp_comm_is_world(const vp_comm *c)
{
	return c && c->magic == VP__COMM_LIVE &&
	       (c->is_world || c->group->whole);
}

int vp_world_rank(const vp_comm *c, int r)
{
	if (!c || c->magic != VP__COMM_LIVE || r < 0 || r >= c->group->size)
		return VP_ERANK;
	return vp__to_world(c, r);
}

int vp_strict(const vp_comm *c)
{
	return c ? c->world->opts.strict != 0 : 0;
}

int vp_is_neighbor(const vp_comm *c, int a, int b)
{
	return c ? vp__topo_is_neighbor(&c->world->topo, a, b) : 0;
}

vp_comm *vp_coll_comm(vp_comm *c)
{
	return c ? c->coll : NULL;
}

vp_comm *vp_aux_comm(vp_comm *c)
{
	return c ? c->aux : NULL;
}

static void comm_fill(vp_comm *c, struct vp__rank *me, struct vp__group *g,
		      int rank, int space, vp_comm *user, vp_comm *coll,
		      vp_comm *aux, int is_world)
{
	memset(c, 0, sizeof(*c));
	c->magic = VP__COMM_LIVE;
	c->world = me->world;
	c->me = me;
	c->group = g;
	c->rank = rank;
	c->space = space;
	c->coll = coll;
	c->user = user;
	c->aux = aux;
	c->is_world = is_world;
}

/* A new communicator's three handles (nc: from twins_new), one per
 * message space, as rank `rank` of g. */
#define VP__TWINS 3
static void twins_fill(vp_comm *nc, struct vp__rank *me, struct vp__group *g,
		       int rank)
{
	comm_fill(&nc[0], me, g, rank, VP__SPACE_USER, &nc[0], &nc[1], &nc[2],
		  0);
	comm_fill(&nc[1], me, g, rank, VP__SPACE_COLL, &nc[0], &nc[1], &nc[2],
		  0);
	comm_fill(&nc[2], me, g, rank, VP__SPACE_AUX, &nc[0], &nc[1], &nc[2],
		  0);
	nc[0].live_next = me->live;
	if (me->live)
		me->live->live_prev = &nc[0];
	me->live = &nc[0];
}

/* Room for VP__TWINS zeroed handles: a freed communicator's, past the
 * quarantine (see quarantine), or new memory; NULL when out of it. */
static vp_comm *twins_new(struct vp__rank *me)
{
	vp_comm *nc = me->spare;

	if (!nc)
		return calloc(VP__TWINS, sizeof(*nc));
	me->spare = nc->next_freed;
	memset(nc, 0, VP__TWINS * sizeof(*nc));
	return nc;
}

/* sub leaves its rank's live list (vp_comm_free). */
static void live_remove(vp_comm *sub)
{
	if (sub->live_prev)
		sub->live_prev->live_next = sub->live_next;
	else
		sub->me->live = sub->live_next;
	if (sub->live_next)
		sub->live_next->live_prev = sub->live_prev;
	sub->live_prev = sub->live_next = NULL;
}

void vp__comm_init_world(struct vp__rank *r)
{
	comm_fill(&r->comm, r, &r->world->world_group, r->world_rank,
		  VP__SPACE_USER, &r->comm, &r->coll, &r->aux, 1);
	comm_fill(&r->coll, r, &r->world->world_group, r->world_rank,
		  VP__SPACE_COLL, &r->comm, &r->coll, &r->aux, 1);
	comm_fill(&r->aux, r, &r->world->world_group, r->world_rank,
		  VP__SPACE_AUX, &r->comm, &r->coll, &r->aux, 1);
}

void vp__groups_free(struct vp__world *w)
{
	struct vp__group *g = w->groups, *next;

	for (; g; g = next) {
		next = g->next;
		vp__sync_free(g);
		dups_free(g);
		vp__splits_free(g);
		free(g->world_of);
		free(g->by_world);
		free(g);
	}
	w->groups = NULL;
	dups_free(&w->world_group);
	vp__splits_free(&w->world_group);
}

/* A new group record numbered id with the given members, first in the
 * world's list (the caller holds group_lock): NULL when out of memory.
 * The record lives while the members of this process use it. */
static struct vp__group *group_new(struct vp__world *w, int id,
				   const int *members, int n)
{
	struct vp__group *g = calloc(1, sizeof(*g));
	int i, here = 0;

	if (!g || !(g->world_of = malloc((size_t)n * sizeof(int)))) {
		free(g);
		return NULL;
	}
	memcpy(g->world_of, members, (size_t)n * sizeof(int));
	g->size = n;
	if (group_index(g)) {
		free(g->world_of);
		free(g);
		return NULL;
	}
	g->whole = n == w->p;
	for (i = 0; i < n; i++) {
		g->whole &= members[i] == i;
		here += vp__is_local(w, members[i]);
	}
	atomic_init(&g->refs, here);
	g->id = id;
	g->next = w->groups;
	if (g->next)
		g->next->prev = g;
	w->groups = g;
	return g;
}

/* Finds or creates the group numbered id with the given members. */
static struct vp__group *group_get(struct vp__world *w, int id,
				   const int *members, int n)
{
	struct vp__group *g;

	pthread_mutex_lock(&w->group_lock);
	for (g = w->groups; g; g = g->next)
		if (g->id == id)
			break;
	if (!g)
		g = group_new(w, id, members, n);
	pthread_mutex_unlock(&w->group_lock);
	return g;
}

/* The id allocator's k-th group id (group_ids.c). */
static long long group_id(const struct vp__world *w, int allocator, long long k)
{
	return 1 + allocator + (long long)w->p * k;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * A split's table holds ENTRY ints per rank of the parent: color, key, and
 * for vp_comm_create the size and a hash of the group the rank passed
 * (0, 0 for vp_comm_split); then the verdict, VERDICT ints: the first
 * group id k0 of its allocator, when vp_comm_create's groups are neither
 * identical nor disjoint the two ranks that show it (else -1), and the
 * allocator's world rank (rank 0's, or the last arrival's at a slot).
 */
#define ENTRY 4
#define VERDICT 4

/* The distinct colors of table (VP_UNDEFINED left out), sorted into
 * colors; returns how many. */
static int distinct_colors(const int *table, int size, int *colors)
{
	int i, n = 0, k = 0;

	for (i = 0; i < size; i++)
		if (table[ENTRY * i] != VP_UNDEFINED)
			colors[n++] = table[ENTRY * i];
	qsort(colors, (size_t)n, sizeof(int), cmp_int);
	for (i = 0; i < n; i++)
		if (!k || colors[k - 1] != colors[i])
			colors[k++] = colors[i];
	return k;
}

/* The place of color among the distinct colors (every member computes
 * it alike). */
static int color_place(const int *colors, int ncolors, int color)
{
	const int *at =
	    bsearch(&color, colors, (size_t)ncolors, sizeof(int), cmp_int);

	return (int)(at - colors);
}

/* The id of color's group: the allocator's k0-th id plus the color's
 * place. */
static int id_of(const vp_comm *c, const int *colors, int ncolors,
		 const int *verdict, int color)
{
	return (int)group_id(c->world, verdict[3],
			     (long long)verdict[0] +
				 color_place(colors, ncolors, color));
}

/*
 * vp_comm_create's groups, checked at rank 0: the ranks of one color (the
 * lowest rank of the group they passed) must all have passed the same
 * group (size and hash), and as many of them as it has members; else
 * verdict[1] and [2] name two ranks that show the difference (a rank
 * named twice: too few members passed its group). 0 or VP_ENOMEM.
 */
static int check_groups(const int *table, int size, const int *colors,
			int ncolors, int *verdict)
{
	int *first = malloc((size_t)ncolors * 2 * sizeof(int)), *count, i, k;

	if (!first)
		return VP_ENOMEM;
	count = first + ncolors;
	for (k = 0; k < ncolors; k++)
		first[k] = -1, count[k] = 0;
	for (i = 0; i < size && verdict[1] < 0; i++) {
		const int *e = table + ENTRY * i, *f;

		if (e[0] == VP_UNDEFINED)
			continue;
		k = color_place(colors, ncolors, e[0]);
		count[k]++;
		if (first[k] < 0) {
			first[k] = i;
			continue;
		}
		f = table + ENTRY * first[k];
		if (f[2] != e[2] || f[3] != e[3])
			verdict[1] = first[k], verdict[2] = i;
	}
	for (k = 0; k < ncolors && verdict[1] < 0; k++)
		if (count[k] != table[ENTRY * first[k] + 2])
			verdict[1] = verdict[2] = first[k];
	free(first);
	return VP_OK;
}

/* Unmodelled blocking exchange in c's runtime space (vp_comm_split,
 * vp_win_create). */
int vp__rt_send(vp_comm *c, int dst, const void *buf, size_t n,
		const char *call)
{
	return vp__runtime_send(c->me,
				c->group->id * VP__SPACES + VP__SPACE_RUNTIME,
				vp__to_world(c, dst), buf, n, call);
}

int vp__rt_recv(vp_comm *c, int src, void *buf, size_t n, const char *call)
{
	return vp__runtime_recv(c->me,
				c->group->id * VP__SPACES + VP__SPACE_RUNTIME,
				vp__to_world(c, src), 0, buf, n, call);
}

/* Orders members by (key, parent rank), as MPI_Comm_split does; table holds
 * (color, key) per parent rank. */
static int cmp_by_key(const void *a, const void *b, void *table)
{
	const int *t = table;
	int x = *(const int *)a, y = *(const int *)b;
	int kx = t[ENTRY * x + 1], ky = t[ENTRY * y + 1];

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x - y;
}

/* The verdict on a complete table, from this rank's ids (check:
 * vp_comm_create's groups; order: scratch, an int a member). */
static int split_verdict(vp_comm *c, int *table, int check, int *order,
			 const char *call)
{
	int size = c->group->size, n, *verdict = table + ENTRY * size;

	n = distinct_colors(table, size, order);
	verdict[0] = vp__ids_take(c->me, n);
	verdict[1] = verdict[2] = -1;
	verdict[3] = c->me->world_rank;
	if (check && check_groups(table, size, order, n, verdict))
		return vp__fail(c->me, VP_ENOMEM, call,
				"no memory for %d groups", n);
	return VP_OK;
}

/* The table at every rank of c: at a slot of the group where the ranks
 * share this process, else (or when the deadlock check gave the slot up)
 * each rank's entry gathered at rank 0, which adds its verdict and sends
 * the whole table back, in the runtime space. */
static int split_exchange(vp_comm *c, const int *mine, int *table,
			  int check, int *order, const char *call)
{
	int size = c->group->size, i, rc;
	size_t bytes = (ENTRY * (size_t)size + VERDICT) * sizeof(int);

	if (vp__split_slots_may(c) &&
	    (rc = vp__split_meet(c, (unsigned long)c->user->split_seq, mine,
				 ENTRY, ENTRY * (size_t)size + VERDICT, check,
				 table, split_verdict, order, call)) != 1)
		return rc;
	if (c->rank) {
		if ((rc = vp__rt_send(c, 0, mine, ENTRY * sizeof(int), call)))
			return rc;
		return vp__rt_recv(c, 0, table, bytes, call);
	}
	memcpy(table, mine, ENTRY * sizeof(int));
	for (i = 1; i < size; i++)
		if ((rc = vp__rt_recv(c, i, table + ENTRY * i,
				      ENTRY * sizeof(int), call)))
			return rc;
	if ((rc = split_verdict(c, table, check, order, call)))
		return rc;
	for (i = 1; i < size; i++)
		if ((rc = vp__rt_send(c, i, table, bytes, call)))
			return rc;
	return VP_OK;
}

/* The failure every rank reports when rank 0 found vp_comm_create's
 * groups neither identical nor disjoint. */
static int groups_differ(vp_comm *c, const int *table, const int *verdict,
			 const char *call)
{
	const int *a = table + ENTRY * verdict[1];

	if (verdict[1] != verdict[2])
		return vp__fail(
		    c->me, VP_EMISMATCH, call,
		    "ranks %d and %d passed groups that overlap but differ "
		    "(%d and %d ranks, both with lowest rank %d): the groups "
		    "must be the same or disjoint",
		    verdict[1], verdict[2], a[2],
		    table[ENTRY * verdict[2] + 2], a[0]);
	return vp__fail(c->me, VP_EMISMATCH, call,
			"rank %d passed a group of %d ranks (lowest rank %d) "
			"that not all of its members passed: the groups must "
			"be the same or disjoint",
			verdict[1], a[2], a[0]);
}

/* vp_comm_split and vp_comm_create: mine is this rank's table entry. */
static int split(vp_comm *c, const int *mine, int check, vp_comm **sub,
		 const char *call)
{
	int size, r, i, n = 0, rc, ncolors, id, color = mine[0];
	int *table = NULL, *members = NULL, *order = NULL, *verdict;
	struct vp__group *g;
	vp_comm *nc;

	size = c->group->size;
	r = c->rank;
	table = malloc((ENTRY * (size_t)size + VERDICT) * sizeof(int));
	members = malloc((size_t)size * sizeof(int));
	order = malloc((size_t)size * sizeof(int));
	if (!table || !members || !order) {
		rc = vp__fail(c->me, VP_ENOMEM, call, "no memory for %d ranks",
			      size);
		goto out;
	}
	if ((rc = split_exchange(c, mine, table, check, order, call)))
		goto out;
	c->user->split_seq++; /* shared by both twins */
	verdict = table + ENTRY * size;
	if (verdict[0] < 0) {
		rc = vp__fail(c->me, VP_ENOMEM, call,
			      "world rank %d has used up its communicator ids",
			      verdict[3]);
		goto out;
	}
	if (verdict[1] >= 0) {
		rc = groups_differ(c, table, verdict, call);
		goto out;
	}
	if (color == VP_UNDEFINED)
		goto out;
	ncolors = distinct_colors(table, size, order);
	id = id_of(c, order, ncolors, verdict, color);
	for (i = 0; i < size; i++)
		if (table[ENTRY * i] == color)
			order[n++] = i;
	qsort_r(order, (size_t)n, sizeof(int), cmp_by_key, table);
	for (i = 0; i < n; i++)
		members[i] = vp__to_world(c, order[i]);
	g = group_get(c->world, id, members, n);
	nc = twins_new(c->me);
	if (!g || !nc) {
		free(nc);
		rc = vp__fail(c->me, VP_ENOMEM, call, "no memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (order[i] == r)
			break;
	twins_fill(nc, c->me, g, i);
	*sub = &nc[0];
out:
	free(table);
	free(members);
	free(order);
	return rc;
}

int vp_comm_split(vp_comm *c, int color, int key, vp_comm **sub)
{
	int rc, mine[ENTRY] = { color, key, 0, 0 };

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, "vp_comm_split")))
		return rc;
	if (!sub)
		return vp__fail(c->me, VP_EINVAL, "vp_comm_split",
				"result pointer is NULL");
	*sub = NULL;
	if (color < VP_UNDEFINED)
		return vp__fail(c->me, VP_EINVAL, "vp_comm_split",
				"color %d is negative (use VP_UNDEFINED = -1 "
				"to stay out)",
				color);
	return split(c, mine, 0, sub, "vp_comm_split");
}

static uint64_t list_hash(const int *ranks, int n);

/* Checks n distinct ranks of c in ranks: 0 or the error raised. */
static int check_list(vp_comm *c, const int *ranks, int n, int min_n,
		      const char *call)
{
	int i, j;

	if ((!ranks && n) || n < min_n || n > c->group->size)
		return vp__fail(c->me, VP_EINVAL, call,
				"%s: the list must name %d to %d ranks",
				!ranks && n ? "ranks is NULL" : "bad n", min_n,
				c->group->size);
	for (i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= c->group->size)
			return vp__fail(c->me, VP_ERANK, call,
					"ranks[%d] = %d is outside [0, %d)", i,
					ranks[i], c->group->size);
		for (j = 0; j < i; j++)
			if (ranks[j] == ranks[i])
				return vp__fail(c->me, VP_EINVAL, call,
						"rank %d is listed twice "
						"(ranks[%d] and ranks[%d])",
						ranks[i], j, i);
	}
	return VP_OK;
}

/*
 * vp_comm_create: a split whose color is the lowest rank of the group the
 * rank passed and whose key is its place there; rank 0 checks that the
 * ranks of one color passed one group, all of whose members called with it.
 */
int vp_comm_create(vp_comm *c, const int *ranks, int n, vp_comm **sub)
{
	static const char call[] = "vp_comm_create";
	int rc, i, mine[ENTRY] = { VP_UNDEFINED, 0, 0, 0 };
	uint64_t h;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, call)))
		return rc;
	if (!sub)
		return vp__fail(c->me, VP_EINVAL, call,
				"result pointer is NULL");
	*sub = NULL;
	if ((rc = check_list(c, ranks, n, 0, call)))
		return rc;
	for (i = 0; i < n; i++)
		if (ranks[i] == c->rank)
			mine[1] = i, mine[0] = 0;
	if (mine[0] == 0) { /* a member: color, key, size, hash */
		for (i = 0, mine[0] = ranks[0]; i < n; i++)
			if (ranks[i] < mine[0])
				mine[0] = ranks[i];
		h = list_hash(ranks, n);
		mine[2] = n;
		mine[3] = (int)(uint32_t)(h ^ (h >> 32));
	}
	return split(c, mine, 1, sub, call);
}

/* 64-bit FNV-1a of the listed ranks (vp_comm_create_group's check that
 * every member passed the same list). */
static uint64_t list_hash(const int *ranks, int n)
{
	uint64_t h = 1469598103934665603ull;
	int i;

	for (i = 0; i < n; i++) {
		h ^= (uint64_t)(unsigned)ranks[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The listed ranks agree on the list and on one communicator id (*k0):
 * each reports (n, the list's hash) to the first listed rank in c's
 * runtime space under tag + 1 (split uses 0); it checks that they agree,
 * takes the id and sends it to each. me is this rank's place in the list. */
static int agree_on_id(vp_comm *c, const int *ranks, int n, int me, int tag,
		       int *k0, const char *call)
{
	int ctx = c->group->id * VP__SPACES + VP__SPACE_RUNTIME;
	int leader = ranks[0], i, rc;
	uint64_t mine[2], theirs[2];

	mine[0] = (uint64_t)n;
	mine[1] = list_hash(ranks, n);
	if (me != 0) {
		rc = vp__runtime_send_tag(c->me, ctx, vp__to_world(c, leader),
					  tag + 1, mine, sizeof(mine), call);
		if (!rc)
			rc = vp__runtime_recv(c->me, ctx,
					      vp__to_world(c, leader), tag + 1,
					      k0, sizeof(*k0), call);
		return rc;
	}
	for (i = 1; i < n; i++) {
		if ((rc = vp__runtime_recv(c->me, ctx,
					   vp__to_world(c, ranks[i]), tag + 1,
					   theirs, sizeof(theirs), call)))
			return rc;
		if (theirs[0] != mine[0] || theirs[1] != mine[1])
			return vp__fail(c->me, VP_EMISMATCH, call,
					"rank %d passed another list of "
					"ranks (%llu ranks) than rank "
					"%d (%d ranks)",
					ranks[i],
					(unsigned long long)theirs[0], leader,
					n);
	}
	*k0 = vp__ids_take(c->me, 1);
	for (i = 1; i < n; i++)
		if ((rc = vp__runtime_send_tag(c->me, ctx,
					       vp__to_world(c, ranks[i]),
					       tag + 1, k0, sizeof(*k0), call)))
			return rc;
	return VP_OK;
}

/*
 * vp_comm_create_group: the listed ranks agree on the list and a group id
 * (agree_on_id), and each makes its communicator over the group.
 */
int vp_comm_create_group(vp_comm *c, const int *ranks, int n, int tag,
			 vp_comm **sub)
{
	static const char call[] = "vp_comm_create_group";
	int me = -1, i, rc = VP_OK, leader, k0 = 0;
	int *members = NULL;
	struct vp__group *g;
	vp_comm *nc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, call)))
		return rc;
	if (!sub)
		return vp__fail(c->me, VP_EINVAL, call,
				"result pointer is NULL");
	*sub = NULL;
	if ((rc = check_list(c, ranks, n, 1, call)))
		return rc;
	if (tag < 0 || tag > VP_TAG_MAX)
		return vp__fail(c->me, VP_EINVAL, call,
				"tag %d is outside [0, %d]", tag, VP_TAG_MAX);
	for (i = 0; i < n; i++)
		if (ranks[i] == c->rank)
			me = i;
	if (me < 0)
		return vp__fail(c->me, VP_EINVAL, call,
				"rank %d is not in the list it passed: only "
				"the listed ranks call",
				c->rank);
	leader = ranks[0];
	if ((rc = agree_on_id(c, ranks, n, me, tag, &k0, call)))
		return rc;
	if (k0 < 0)
		return vp__fail(c->me, VP_ENOMEM, call,
				"rank %d of this communicator has used up its "
				"communicator ids",
				leader);
	members = malloc((size_t)n * sizeof(int));
	nc = twins_new(c->me);
	if (!members || !nc) {
		free(members);
		free(nc);
		return vp__fail(c->me, VP_ENOMEM, call, "no memory");
	}
	for (i = 0; i < n; i++)
		members[i] = vp__to_world(c, ranks[i]);
	g = group_get(c->world,
		      (int)group_id(c->world, vp__to_world(c, leader), k0),
		      members, n);
	free(members);
	if (!g) {
		free(nc);
		return vp__fail(c->me, VP_ENOMEM, call, "no memory");
	}
	twins_fill(nc, c->me, g, me);
	*sub = &nc[0];
	return VP_OK;
}

/*
 * vp_comm_dup where every rank of the run shares this process: the ranks
 * agree on the duplicate without a message. A member's n-th duplicate of
 * c (c->user->dups counts them; every member duplicates c in the same
 * order, as MPI requires of collectives on one communicator) is the group
 * the first member to make its n-th one created, under an id of that
 * member's own, and left in c's group's table of duplicates. Members take
 * a communicator's duplicates in order, so the table holds those numbered
 * lo .. lo + n - 1 (a ring): the first member to make one appends it, the
 * last to take one removes it from the front. Nothing makes the members
 * keep pace: a rank may be many duplicates ahead of the others.
 */
struct vp__dup_slot {
	struct vp__group *g;
	int taken; /* members that have made this duplicate */
};

struct vp__dups {
	unsigned long lo;
	int head, n, cap;
	struct vp__dup_slot *slot; /* slot[(head + i) % cap]: number lo + i */
};

static void dups_free(struct vp__group *g)
{
	if (g->dups)
		free(g->dups->slot);
	free(g->dups);
	g->dups = NULL;
}

/* Room for one more duplicate in c's group's table: 0 or VP_ENOMEM. */
static int dups_room(struct vp__group *g)
{
	struct vp__dups *t = g->dups;
	struct vp__dup_slot *s;
	int i, cap;

	if (!t && !(t = g->dups = calloc(1, sizeof(*t))))
		return VP_ENOMEM;
	if (t->n < t->cap)
		return VP_OK;
	cap = t->cap ? 2 * t->cap : 8;
	if (!(s = malloc((size_t)cap * sizeof(*s))))
		return VP_ENOMEM;
	for (i = 0; i < t->n; i++)
		s[i] = t->slot[(t->head + i) % t->cap];
	free(t->slot);
	t->slot = s;
	t->head = 0;
	t->cap = cap;
	return VP_OK;
}

/* A new group for c's duplicate, under an id of this rank's own, added to
 * c's group's table unless c has one member (the caller holds group_lock).
 * NULL when out of memory or ids, *why saying which. */
static struct vp__group *dup_new(vp_comm *c, const char **why)
{
	struct vp__group *g = c->group, *ng;
	int n = g->size, i, k0, *members;

	*why = "no memory";
	if (n > 1 && dups_room(g))
		return NULL;
	if ((k0 = vp__ids_take(c->me, 1)) < 0) {
		*why = "this rank has used up its communicator ids";
		return NULL;
	}
	if (!(members = malloc((size_t)n * sizeof(int))))
		return NULL;
	for (i = 0; i < n; i++)
		members[i] = vp__to_world(c, i);
	ng = group_new(c->world, (int)group_id(c->world, c->me->world_rank, k0),
		       members, n);
	free(members);
	if (ng && n > 1) {
		struct vp__dups *t = g->dups;

		t->slot[(t->head + t->n++) % t->cap] =
		    (struct vp__dup_slot){ ng, 1 };
	}
	return ng;
}

/* The group of c's duplicate number seq: the table's, or a new one. */
static struct vp__group *dup_group(vp_comm *c, unsigned long seq,
				   const char **why)
{
	struct vp__group *g = c->group, *ng;
	struct vp__dups *t;
	struct vp__dup_slot *s;

	pthread_mutex_lock(&c->world->group_lock);
	t = g->dups;
	if (!t || seq >= t->lo + (unsigned long)t->n) {
		ng = dup_new(c, why);
	} else {
		s = &t->slot[(t->head + (seq - t->lo)) % t->cap];
		ng = s->g;
		if (++s->taken == g->size) { /* the last: the front one */
			t->head = (t->head + 1) % t->cap;
			t->lo++;
			t->n--;
		}
	}
	pthread_mutex_unlock(&c->world->group_lock);
	return ng;
}

int vp_comm_dup(vp_comm *c, vp_comm **sub)
{
	static const char call[] = "vp_comm_dup";
	vp_coll_sig sig = { .call = call, .type = -1, .op = -1, .root = -1 };
	int rc, mine[ENTRY] = { 0, 0, 0, 0 };
	struct vp__group *g;
	const char *why = "";
	vp_comm *nc;

	if (!c)
		return vp__null_comm(c, call);
	if ((rc = vp__enter(c, call)))
		return rc;
	if (!sub)
		return vp__fail(c->me, VP_EINVAL, call,
				"result pointer is NULL");
	*sub = NULL;
	if (c->world->local_count != c->world->p) {
		mine[1] = c->rank; /* ranks elsewhere: a split agrees */
		return split(c, mine, 0, sub, call);
	}
	/* numbered as a collective call, so that a rank whose next call
	 * on c differs is named by the messages of that call */
	if ((rc = vp_coll_begin(c, &sig)))
		return rc;
	if (!(g = dup_group(c, c->user->dups++, &why)) ||
	    !(nc = twins_new(c->me))) {
		if (g)
			group_leave(c->me, g);
		return vp__fail(c->me, VP_ENOMEM, call,
				"%s (a communicator of %d ranks)",
				g ? "no memory" : why, c->group->size);
	}
	twins_fill(nc, c->me, g, c->rank);
	*sub = &nc[0];
	return VP_OK;
}

/* This rank is done with g; the last member to leave releases it: its
 * record, and below the seam its mailboxes. */
static void group_leave(struct vp__rank *me, struct vp__group *g)
{
	struct vp__world *w = me->world;
	int lo = g->id * VP__SPACES, hi = lo + VP__SPACES - 1;

	w->tx_ops->forget(me->tx, lo, hi);
	if (atomic_fetch_sub(&g->refs, 1) != 1)
		return;
	pthread_mutex_lock(&w->group_lock);
	if (g->prev)
		g->prev->next = g->next;
	else if (w->groups == g)
		w->groups = g->next;
	if (g->next)
		g->next->prev = g->prev;
	pthread_mutex_unlock(&w->group_lock);
	w->tx_ops->release(w->tx, lo, hi);
	vp__ids_give(w, g->id); /* its mailboxes are gone: the id is free */
	vp__sync_free(g);
	dups_free(g);
	vp__splits_free(g);
	free(g->world_of);
	free(g->by_world);
	free(g);
}

static void free_handles(vp_comm *c)
{
	vp_comm *next;

	for (; c; c = next) {
		next = c->next_freed;
		free(c); /* the twins calloc'd by vp_comm_split */
	}
}

/*
 * Freed handles stay recognisable (magic VP__COMM_FREED) while they sit in
 * the rank's quarantine of its last QUARANTINE frees; older ones become
 * the rank's spares, which its next communicators take (twins_new), so a
 * loop of split and free runs in constant memory and a stale handle
 * always points at a communicator of its rank: freed, or one made since,
 * on which a call then acts (as an MPI implementation's reused handle
 * does; docs/known-limits.md, "Runs and ranks").
 */
#define QUARANTINE 256

static void quarantine(struct vp__rank *me, vp_comm *sub)
{
	vp_comm *c, *old;
	int i;

	sub->group = NULL; /* gone, or going with its last member */
	sub->coll->group = NULL;
	sub->aux->group = NULL;
	sub->next_freed = me->freed;
	me->freed = sub;
	if (++me->nfreed <= QUARANTINE)
		return;
	for (c = me->freed, i = 1; i < QUARANTINE; i++)
		c = c->next_freed;
	old = c->next_freed; /* the one beyond: a spare now */
	c->next_freed = NULL;
	old->next_freed = me->spare;
	me->spare = old;
	me->nfreed = QUARANTINE;
}

/* Every twin of sub dies; they are kept a while (see quarantine). */
static void comm_release(vp_comm *sub)
{
	sub->magic = VP__COMM_FREED;
	sub->coll->magic = VP__COMM_FREED;
	sub->aux->magic = VP__COMM_FREED;
	group_leave(sub->me, sub->group);
	live_remove(sub);
	quarantine(sub->me, sub);
}

/* Releases the rank's doomed communicators whose requests have all
 * completed. */
static void doomed_sweep(struct vp__rank *me)
{
	vp_comm *c, *next;

	for (c = me->live; c; c = next) {
		next = c->live_next;
		if (c->doomed && !vp__comm_requests(me, c))
			comm_release(c);
	}
}

/*
 * As MPI_Comm_free (MPI 4.0 sec. 7.4.3): the communicator is marked for
 * release, and requests already started on it complete as usual; it is
 * released at once when none is live, else at a later vp_comm_free of
 * this rank once they have completed, or at the run's end. Using it after
 * vp_comm_free is an error (reported as such once it is released).
 */
int vp_comm_free(vp_comm *sub)
{
	if (!sub)
		return VP_EINVAL;
	if (sub->magic == VP__COMM_FREED || (sub->magic == VP__COMM_LIVE &&
					     sub->user && sub->user->doomed))
		return vp__fail(sub->me, VP_EINVAL, "vp_comm_free",
				"the communicator was already freed");
	if (sub->magic != VP__COMM_LIVE)
		return VP_EINVAL;
	if (sub->is_world)
		return vp__fail(sub->me, VP_EINVAL, "vp_comm_free",
				"the world communicator cannot be freed");
	if (sub->space != VP__SPACE_USER)
		return vp__fail(sub->me, VP_EINVAL, "vp_comm_free",
				"pass the communicator vp_comm_split returned, "
				"not one of its twins (vp_coll_comm, "
				"vp_aux_comm)");
	if (vp__comm_requests(sub->me, sub))
		sub->doomed = 1;
	else
		comm_release(sub);
	doomed_sweep(sub->me);
	return VP_OK;
}

/* At the run's end: the handles freed, and those the program did not
 * free (as MPI_Finalize allows; their groups go with the world). */
void vp__comms_free(struct vp__rank *r)
{
	vp_comm *c, *next;

	free_handles(r->freed);
	free_handles(r->spare);
	r->freed = r->spare = NULL;
	r->nfreed = 0;
	vp__ids_free(r);
	for (c = r->live; c; c = next) {
		next = c->live_next;
		free(c); /* the twins calloc'd together */
	}
	r->live = NULL;
}

int vp_comm_check(vp_comm *c, const char *call)
{
	if (!c)
		return VP_EINVAL;
	return vp__enter(c, call ? call : "?");
}
