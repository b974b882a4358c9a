/*
 * reduce_double_tree.c - all-to-one reduction of long vectors on two
 * pipelined binary trees; the dual of bcast_double_tree.c.
 *
 * Source: alpha-beta lecture (seeds/004), the dual of the double tree.
 * Cost:   T(p, m) ~ 2 log2 p ts + sqrt(m log2 p ts tw) + tw*m
 * Steps:  even segments go up tree A, odd ones up tree B: for each segment
 *         in turn a rank adds the segment from its children in that tree
 *         and sends the sum to its parent there (the top of each tree sends
 *         to the root). Scratch: one vector and one segment.
 * Needs:  any p; segment as for the broadcast.
 * Differs from the book: as for the broadcast.
 */
#include <stdlib.h>

#include "coll.h"

int vp__reduce_double_tree(const struct coll *a)
{
	size_t seg = vp__segment_bytes(a), off;
	struct view v;
	char *acc = vp__reduce_acc(a, a->r == a->root), *tmp;
	int links[2][3], t, s, rc = VP_OK;

	if (!acc)
		return VP_ENOMEM;
	if (!(tmp = vp__alloc(a, seg))) {
		vp__reduce_acc_free(a, acc);
		return VP_ENOMEM;
	}
	vp__view_all(&v, a->c, a->root);
	for (t = 0; t < 2; t++)
		vp__double_tree_links(v.n, t, v.me, &links[t][0], &links[t][1]);
	for (off = 0, s = 0; off < a->bytes && !rc; off += seg, s++) {
		size_t n = a->bytes - off < seg ? a->bytes - off : seg;
		int *l = links[s % 2], k;

		for (k = 1; k <= 2 && !rc; k++) {
			if (l[k] < 0)
				continue;
			rc = vp__vrecv(&v, l[k], tmp, n);
			if (!rc)
				vp_reduce_local(tmp, acc + off, n / a->esize,
						a->type, a->rop);
		}
		if (!rc && v.me > 0)
			rc = vp__vsend(&v, l[0], acc + off, n);
	}
	free(tmp);
	vp__reduce_acc_free(a, acc);
	return rc;
}
