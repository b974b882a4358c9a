/*
 * shift_hypercube.c - circular q-shift on a hypercube, q taken as a sum of
 * powers of two.
 *
 * Source: Grama et al., sec. 4.6.2 (circular shift on a hypercube,
 *         Fig. 4.23).
 * Cost:   T(p, m) = (ts + tw*m) popcount(q) <= (ts + tw*m) log2 p, within
 *         the book's bound (ts + tw*m)(2 log2 p - 1).
 * Steps:  for each bit 2^k of q, lowest first, every rank sends its current
 *         block to r + 2^k and takes the one from r - 2^k. Scratch: one
 *         block.
 * Needs:  p a power of two (else VP_EALG).
 * Differs from the book: the book runs each power-of-two shift on the
 *         Gray-code ring, where it is at most two neighbour hops; vp keeps
 *         rank order as the ring (vp_shift's contract), so each phase is one
 *         E-cube routed message, charged ts + tw*m with th = 0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int run(const struct coll *a)
{
	char *cur = a->rbuf, *next = vp__alloc(a, a->bytes), *spare = next, *t;
	int p = a->p, r = a->r, rc = VP_OK;
	long k;

	if (!next)
		return VP_ENOMEM;
	vp__copy(a->rbuf, a->sbuf, a->bytes);
	for (k = 1; k < p && !rc; k <<= 1) {
		if (!(a->q & k))
			continue;
		rc = vp_sendrecv(a->c, (int)((r + k) % p), cur, a->bytes,
				 (int)((r - k + p) % p), next, a->bytes);
		t = cur;
		cur = next;
		next = t;
	}
	if (!rc && cur != a->rbuf)
		memcpy(a->rbuf, cur, a->bytes);
	free(spare);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return vp__popcount((unsigned long)k->q) * k->u;
}

const struct coll_algorithm vp__alg_shift_hypercube = {
	.op = VP_COLL_SHIFT,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.cost = cost,
};
