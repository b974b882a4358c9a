/*
 * bcast_double_tree.c - one-to-all broadcast of long messages on two
 * pipelined binary trees that share the work (Sanders, Speck, Traff 2009).
 *
 * Source: the two-tree broadcast (Sanders, Speck, Traeff 2009).
 * Cost:   T(p, m) ~ 2 log2 p ts + sqrt(m log2 p ts tw) + tw*m
 * Steps:  the root (relative rank 0) deals even segments to tree A and odd
 *         ones to tree B, both over relative ranks 1..p-1. Tree A is the
 *         in-order tree of positions 1..n (node x has children x -+ b/2,
 *         b = lowest set bit of x); tree B is its mirror image (n even) or
 *         its shift by one (n odd), so most ranks are inner nodes of one
 *         tree and leaves of the other, and every rank's send port carries
 *         about one segment per segment time. Segments go in pairs (one per
 *         tree); in each pair a rank first serves the tree it forwards in
 *         (receive from the parent, send to the children, forwarding ones
 *         first), then takes, as a leaf, the other tree's segment of the
 *         pair log2 p + 1 earlier, so a tree's forwarding does not wait on
 *         the other tree's pipeline. That needs eager segments (sends that
 *         do not wait); segments above vp_eager_max go strictly in order,
 *         slower but free of waiting cycles.
 *         Scratch: none.
 * Needs:  any p; segment as for bcast_pipelined_tree.c.
 * Differs from the book: the two trees are not edge-coloured, so a rank
 *         may send in both trees in the same time slot; ranks that are inner
 *         nodes of both trees (small p) serve tree A first.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"
#include <math.h>

/* In-order tree of positions 1..n: parent and children of x (0: none). */
static int lowbit(int x)
{
	return x & -x;
}

static void inorder_links(int n, int x, int *parent, int kid[2])
{
	int b = lowbit(x), top = 1, c, up;

	while (top * 2 <= n)
		top *= 2;
	kid[0] = kid[1] = 0;
	if (b > 1) {
		kid[0] = x - b / 2;
		/* the right child, or the nearest node below it that exists */
		for (c = x + b / 2; c > n && lowbit(c) > 1; c -= lowbit(c) / 2)
			;
		kid[1] = c <= n ? c : 0;
	}
	if (x == top) {
		*parent = 0;
		return;
	}
	/* the parent has the next larger lowest bit; skip missing ones */
	for (up = x;;) {
		int pb = lowbit(up);

		up = (up & (2 * pb)) ? up - pb : up + pb;
		if (up <= n)
			break;
	}
	*parent = up;
}

void vp__double_tree_links(int p, int tree, int rel, int *parent, int kid[2])
{
	int n = p - 1, x, k;

	kid[0] = kid[1] = -1;
	*parent = -1;
	if (n < 1)
		return;
	if (rel == 0) { /* the root feeds the top of each tree */
		int top = 1, t;

		while (top * 2 <= n)
			top *= 2;
		t = tree == 0 ? top : (n % 2 == 0 ? n + 1 - top : top % n + 1);
		kid[0] = t;
		return;
	}
	/* position of rel in this tree */
	x = rel;
	if (tree == 1)
		x = n % 2 == 0 ? n + 1 - rel : (rel + n - 2) % n + 1;
	inorder_links(n, x, parent, kid);
	/* back from positions to relative ranks */
	for (k = 0; k < 2; k++) {
		if (!kid[k])
			kid[k] = -1;
		else if (tree == 1)
			kid[k] = n % 2 == 0 ? n + 1 - kid[k] : kid[k] % n + 1;
	}
	if (*parent && tree == 1)
		*parent = n % 2 == 0 ? n + 1 - *parent : *parent % n + 1;
}

/* 1 if rel has children in tree t. */
static int inner(int p, int t, int rel)
{
	int parent, kid[2];

	vp__double_tree_links(p, t, rel, &parent, kid);
	return kid[0] >= 0 || kid[1] >= 0;
}

void vp__double_tree_plan(int p, int rel, struct dtree_plan *pl)
{
	int t, k;

	for (t = 0; t < 2; t++) {
		int kid[2];

		vp__double_tree_links(p, t, rel, &pl->parent[t], kid);
		/* children that forward the segment go first */
		k = kid[1] >= 0 && inner(p, t, kid[1]) && !inner(p, t, kid[0]);
		pl->kid[t][0] = kid[k];
		pl->kid[t][1] = kid[!k];
	}
	/* the tree this rank forwards in goes first in each pair */
	pl->first = inner(p, 1, rel) && !inner(p, 0, rel);
	pl->in_step = 0;
	if (pl->parent[0] >= 0 && pl->parent[0] == pl->parent[1]) {
		/* One parent in both trees: its messages share one FIFO
		 * channel, so take them in the parent's order, unlagged. */
		struct dtree_plan pp;

		vp__double_tree_plan(p, pl->parent[0], &pp);
		pl->first = pp.first;
		pl->in_step = 1;
	}
}

/* Receives or forwards segment s of tree t (nothing past the last one). */
static int step(const struct coll *a, const struct view *v,
		const struct dtree_plan *pl, int t, size_t s, size_t seg,
		int forward)
{
	size_t off = s * seg, n;
	char *buf = a->rbuf;
	int k, rc;

	if (off >= a->bytes)
		return VP_OK;
	n = a->bytes - off < seg ? a->bytes - off : seg;
	if (v->me > 0 && (rc = vp__vrecv(v, pl->parent[t], buf + off, n)))
		return rc;
	for (k = 0; k < 2 && forward; k++)
		if (pl->kid[t][k] >= 0 &&
		    (rc = vp__vsend(v, pl->kid[t][k], buf + off, n)))
			return rc;
	return VP_OK;
}

static int run(const struct coll *a)
{
	size_t seg = vp__segment_bytes(a), nseg = (a->bytes + seg - 1) / seg;
	size_t pairs = (nseg + 1) / 2, lag, j;
	struct dtree_plan pl;
	int t, rc = VP_OK;

	vp__double_tree_plan(a->v.n, a->v.me, &pl);
	if (seg > vp_eager_max(a->c)) {
		/* Segments wait for their receivers: take them strictly in
		 * order, which no chain of waiting sends can close. */
		for (j = 0; j < nseg && !rc; j++)
			rc = step(a, &a->v, &pl, (int)(j % 2), j, seg, 1);
		return rc;
	}
	lag = (size_t)vp__log2_ceil(a->v.n) + 1;
	t = pl.first;
	if (pl.kid[!t][0] >= 0 || pl.in_step) /* see vp__double_tree_plan */
		lag = 0;
	for (j = 0; j < pairs + lag && !rc; j++) {
		if (j < pairs)
			rc = step(a, &a->v, &pl, t, 2 * j + (size_t)t, seg, 1);
		if (!rc && j >= lag)
			rc = step(a, &a->v, &pl, !t, 2 * (j - lag) + (size_t)!t,
				  seg, 1);
	}
	return rc;
}

/* The cost above, for vp_coll_formula. */
double vp__cost_bcast_double_tree(const struct coll_cost *k, int *exact)
{
	double lg = log2(k->P);

	*exact = 0;
	return 2 * lg * k->ts + sqrt(k->m * lg * k->ts * k->tw) + k->tw * k->m;
}

const struct coll_algorithm vp__alg_bcast_double_tree = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_DOUBLE_TREE,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_double_tree,
};
