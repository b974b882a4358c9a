/*
 * reduce_double_tree.c - all-to-one reduction of long vectors on two
 * pipelined binary trees; the dual of bcast_double_tree.c.
 *
 * Source: the dual of the double tree (Sanders, Speck, Traeff 2009).
 * Cost:   T(p, m) ~ 2 log2 p ts + sqrt(m log2 p ts tw) + tw*m
 * Steps:  even segments go up tree A, odd ones up tree B, in pairs: a rank
 *         sends its segments of the tree where it is a leaf log2 p + 1
 *         pairs ahead, and in the other tree adds the segments of its
 *         children (leaf children first) and sends the sum to its parent
 *         (the top of each tree sends to the root). Segments above
 *         vp_eager_max go strictly in order instead (no waiting cycle).
 *         Scratch: one vector and one segment.
 * Needs:  any p; segment as for the broadcast.
 * Differs from the book: as for the broadcast.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

/* Adds segment s of tree t from my children and passes it up. */
static int step(const struct coll *a, const struct view *v,
		const struct dtree_plan *pl, int t, size_t s, size_t seg,
		char *acc, char *tmp)
{
	size_t off = s * seg, n;
	int k, rc;

	if (off >= a->bytes)
		return VP_OK;
	n = a->bytes - off < seg ? a->bytes - off : seg;
	for (k = 1; k >= 0; k--) { /* leaf children first */
		if (pl->kid[t][k] < 0)
			continue;
		if ((rc = vp__vrecv(v, pl->kid[t][k], tmp, n)))
			return rc;
		vp_reduce_local(tmp, acc + off, n / a->esize, a->type, a->rop);
	}
	return v->me > 0 ? vp__vsend(v, pl->parent[t], acc + off, n) : VP_OK;
}

static int run(const struct coll *a)
{
	size_t seg = vp__segment_bytes(a), nseg = (a->bytes + seg - 1) / seg;
	size_t pairs = (nseg + 1) / 2, lag, j;
	struct dtree_plan pl;
	char *acc, *tmp;
	int t, rc = vp__reduce_bufs(a, seg, &acc, &tmp);

	if (rc)
		return rc;
	vp__double_tree_plan(a->v.n, a->v.me, &pl);
	t = pl.first;
	if (seg > vp_eager_max(a->c)) {
		/* rendezvous segments: strictly in order (no waiting cycle) */
		for (j = 0; j < nseg && !rc; j++)
			rc =
			    step(a, &a->v, &pl, (int)(j % 2), j, seg, acc, tmp);
		goto out;
	}
	lag = (size_t)vp__log2_ceil(a->v.n) + 1;
	if (pl.kid[!t][0] >= 0 || pl.in_step)
		lag = 0;
	/* my leaf segments (nothing to wait for) run lag pairs ahead */
	for (j = 0; j < pairs + lag && !rc; j++) {
		if (j < pairs)
			rc = step(a, &a->v, &pl, !t, 2 * j + (size_t)!t, seg,
				  acc, tmp);
		if (!rc && j >= lag)
			rc = step(a, &a->v, &pl, t, 2 * (j - lag) + (size_t)t,
				  seg, acc, tmp);
	}
out:
	vp__reduce_bufs_free(a, acc, tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_double_tree = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_DOUBLE_TREE,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_double_tree,
};
