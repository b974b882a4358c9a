/*
 * reduce_hypercube.c - all-to-one reduction on a hypercube to any root, the
 * dual of bcast_hypercube.c.
 *
 * Source: Grama et al., sec. 4.1.3, Algorithm 4.3 run backwards.
 * Cost:   T(p, m) = (ts + tw*m) log2 p  (+ combine work)
 * Steps:  d = log2 p, dimension 0 first. With v = id XOR root, in step i
 *         the ranks whose v has its low i bits clear pair up along
 *         dimension i: the one with bit i set sends its partial vector and
 *         drops out, the other adds it. Scratch: one or two vectors.
 * Needs:  p a power of two (else VP_EALG).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	int d = vp__log2_ceil(a->p), v = a->r ^ a->root, i, rc;
	char *acc, *tmp;

	if ((rc = vp__reduce_bufs(a, a->bytes, &acc, &tmp)))
		return rc;
	for (i = 0; i < d && !rc; i++) {
		int bit = 1 << i;

		if (v & (bit - 1))
			break; /* sent my partial sum already */
		if (v & bit) {
			rc = vp_send(a->c, a->r ^ bit, acc, a->bytes);
			break;
		}
		rc = vp_recv(a->c, a->r ^ bit, tmp, a->bytes);
		if (!rc)
			vp_reduce_local(tmp, acc, a->count, a->type, a->rop);
	}
	vp__reduce_bufs_free(a, acc, tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_hypercube = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.cost = vp__cost_bcast_binomial,
};
