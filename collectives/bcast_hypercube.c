/*
 * bcast_hypercube.c - one-to-all broadcast on a d-dimensional hypercube,
 * from any source; on a ring or a linear array (routed) it is the book's
 * recursive doubling.
 *
 * Source: Grama et al., sec. 4.1.3, Algorithms 4.1-4.3; recursive doubling
 *         on a ring or mesh, sec. 4.1.1-4.1.2.
 * Cost:   T(p, m) = (ts + tw*m) log2 p
 * Steps:  d = log2 p, dimension d-1 first. With virtual id v = id XOR root,
 *         in step i the ranks whose v has its low i+1 bits clear exchange
 *         along dimension i: the one holding the data (bit i clear) sends
 *         to its partner id XOR 2^i. On a ring these messages are 2^i apart
 *         and never share a link. Scratch: none.
 * Needs:  p a power of two (else VP_EALG).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	int d = vp__log2_ceil(a->p), v = a->r ^ a->root, i, rc;

	for (i = d - 1; i >= 0; i--) {
		int bit = 1 << i;

		if (v & (bit - 1))
			continue; /* not yet reached, or no longer sending */
		if (!(v & bit))
			rc = vp_send(a->c, a->r ^ bit, a->rbuf, a->bytes);
		else
			rc = vp_recv(a->c, a->r ^ bit, a->rbuf, a->bytes);
		if (rc)
			return rc;
	}
	return VP_OK;
}

const struct coll_algorithm vp__alg_bcast_hypercube = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.cost = vp__cost_bcast_binomial,
};
