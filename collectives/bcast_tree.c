/*
 * bcast_tree.c - one-to-all broadcast on a balanced binary tree with the
 * ranks at the leaves (tree topology: switches inside, ranks at leaves).
 *
 * Source: Grama et al., sec. 4.1.4 (balanced binary tree, Fig. 4.7).
 * Cost:   T(p, m) = (ts + tw*m) ceil(log2 p)   (+ th per switch hop)
 * Steps:  ceil(log2 p) levels. The leaves are halved recursively (left half
 *         the larger); at each level the holder of an interval sends to the
 *         rank at the same offset in the other half, so every message of a
 *         level stays inside its own subtree and no link is shared.
 *         Scratch: none.
 * Needs:  any p (on the tree topology p is a power of two).
 * Differs from the book: nothing; the halving also serves p that is not a
 *         power of two.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__tree_levels(int n, int root, int me, struct tree_level *lv)
{
	int lo = 0, hi = n, h = root, k = 0;

	while (hi - lo > 1) {
		int mid = lo + (hi - lo + 1) / 2, other;

		if (h < mid) {
			other = mid + (h - lo);
			if (other > hi - 1)
				other = hi - 1;
		} else {
			other = lo + (h - mid);
		}
		lv[k].holder = h;
		lv[k].other = other;
		k++;
		/* descend into my half; its holder is h or other */
		if (me < mid) {
			if (h >= mid)
				h = other;
			hi = mid;
		} else {
			if (h < mid)
				h = other;
			lo = mid;
		}
	}
	return k;
}

static int run(const struct coll *a)
{
	struct tree_level lv[32];
	int k, n = vp__tree_levels(a->p, a->root, a->r, lv), rc = VP_OK;

	for (k = 0; k < n && !rc; k++) {
		if (a->r == lv[k].holder)
			rc = vp_send(a->c, lv[k].other, a->rbuf, a->bytes);
		else if (a->r == lv[k].other)
			rc = vp_recv(a->c, lv[k].holder, a->rbuf, a->bytes);
	}
	return rc;
}

const struct coll_algorithm vp__alg_bcast_tree = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_TREE,
	.run = run,
	.needs = NEED_ANY,
	.cost = vp__cost_bcast_binomial,
};
