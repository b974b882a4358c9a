/*
 * reduce_tree.c - all-to-one reduction on a balanced binary tree with the
 * ranks at the leaves, the dual of bcast_tree.c.
 *
 * Source: Grama et al., sec. 4.1.4 (balanced binary tree, Fig. 4.7), run
 *         backwards.
 * Cost:   T(p, m) = (ts + tw*m) ceil(log2 p)   (+ th per switch hop)
 * Steps:  the levels of bcast_tree.c bottom up: at each level the rank that
 *         received there sends its partial vector back to the holder.
 *         Scratch: one or two vectors.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	struct tree_level lv[32];
	int k = vp__tree_levels(a->p, a->root, a->r, lv), rc;
	char *acc, *tmp;

	if ((rc = vp__reduce_bufs(a, a->bytes, &acc, &tmp)))
		return rc;
	while (--k >= 0 && !rc) {
		if (a->r == lv[k].other) {
			rc = vp_send(a->c, lv[k].holder, acc, a->bytes);
			break;
		}
		if (a->r == lv[k].holder) {
			rc = vp_recv(a->c, lv[k].other, tmp, a->bytes);
			if (!rc)
				vp_reduce_local(tmp, acc, a->count, a->type,
						a->rop);
		}
	}
	vp__reduce_bufs_free(a, acc, tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_tree = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_TREE,
	.run = run,
	.needs = NEED_ANY,
	.cost = vp__cost_bcast_binomial,
};
