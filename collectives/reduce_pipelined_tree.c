/*
 * reduce_pipelined_tree.c - all-to-one reduction of long vectors up a
 * binary tree in segments; the dual of bcast_pipelined_tree.c.
 *
 * Source: the dual of the pipelined tree (Sanders, Speck, Traeff 2009).
 * Cost:   T(p, m) ~ 2(log2 p + m/k)(ts + tw*k)     k = segment bytes
 * Steps:  for each segment in turn, relative rank v adds the segment from
 *         children 2v+1 and 2v+2, then sends it to (v-1)/2.
 *         Scratch: one or two vectors.
 * Needs:  any p; segment as for the broadcast.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	size_t seg = vp__segment_bytes(a), off;
	char *acc, *tmp;
	int rc = vp__reduce_bufs(a, seg, &acc, &tmp);

	if (rc)
		return rc;
	for (off = 0; off < a->bytes && !rc; off += seg) {
		size_t n = a->bytes - off < seg ? a->bytes - off : seg;
		int kid;

		for (kid = 2 * a->v.me + 1;
		     kid <= 2 * a->v.me + 2 && kid < a->v.n && !rc; kid++) {
			rc = vp__vrecv(&a->v, kid, tmp, n);
			if (!rc)
				vp_reduce_local(tmp, acc + off, n / a->esize,
						a->type, a->rop);
		}
		if (!rc && a->v.me > 0)
			rc = vp__vsend(&a->v, (a->v.me - 1) / 2, acc + off, n);
	}
	vp__reduce_bufs_free(a, acc, tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_pipelined_tree = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_PIPELINED_TREE,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_pipelined_tree,
};
