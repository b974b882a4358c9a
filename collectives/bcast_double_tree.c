/*
 * bcast_double_tree.c - one-to-all broadcast of long messages on two
 * pipelined binary trees that share the work (Sanders, Speck, Traff 2009).
 *
 * Source: alpha-beta lecture, double pipelined binary tree (seeds/004).
 * Cost:   T(p, m) ~ 2 log2 p ts + sqrt(m log2 p ts tw) + tw*m
 * Steps:  the root (relative rank 0) deals even segments to tree A and odd
 *         ones to tree B, both over relative ranks 1..p-1. Tree A is the
 *         in-order tree of positions 1..n (node x has children x -+ b/2,
 *         b = lowest set bit of x); tree B is its mirror image (n even) or
 *         its shift by one (n odd), so most ranks are inner nodes of one
 *         tree and leaves of the other, and every rank's send port carries
 *         about one segment per segment time. For each segment in turn a
 *         rank receives it from its parent in that segment's tree and sends
 *         it to its children there. Scratch: 6 ints per tree.
 * Needs:  any p; segment as for bcast_pipelined_tree.c.
 * Differs from the book: the two trees are not edge-coloured; a rank
 *         handles its segments in order, which keeps the schedule simple
 *         and deadlock-free at the price of some idle time.
 */
#include "coll.h"

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
	for (up = x; ;) {
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

int vp__bcast_double_tree(const struct coll *a)
{
	size_t seg = vp__segment_bytes(a), off;
	struct view v;
	char *buf = a->rbuf;
	int links[2][3], t, s, rc;

	vp__view_all(&v, a->c, a->root);
	for (t = 0; t < 2; t++)
		vp__double_tree_links(v.n, t, v.me, &links[t][0], &links[t][1]);
	for (off = 0, s = 0; off < a->bytes; off += seg, s++) {
		size_t n = a->bytes - off < seg ? a->bytes - off : seg;
		int *l = links[s % 2], k;

		if (v.me > 0 && (rc = vp__vrecv(&v, l[0], buf + off, n)))
			return rc;
		for (k = 1; k <= 2; k++)
			if (l[k] >= 0 && (rc = vp__vsend(&v, l[k], buf + off, n)))
				return rc;
	}
	return VP_OK;
}
