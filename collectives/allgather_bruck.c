/*
 * allgather_bruck.c - all-to-all broadcast for any p (Bruck et al. 1997).
 *
 * Source: Bruck, Ho, Kipnis, Upfal, Weathersby, "Efficient algorithms for
 *         all-to-all communications in multiport message-passing systems";
 *         the catalogue's "Bruck (any p)" row.
 * Cost:   T(p, m) = ceil(log2 p) ts + tw*m (p - 1)
 * Steps:  ceil(log2 p). Rank r keeps blocks r, r+1, ... at 0, 1, ... of a
 *         scratch vector; in the step with distance k it sends its first
 *         min(k, p - k) blocks to r - k and appends as many from r + k:
 *           p = 5, rank 0: [0] -> [0 1] -> [0 1 2 3] -> [0 1 2 3 4]
 *         then rotates them into rank order. Scratch: p blocks.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

/* Scratch for run (dispatch allocates it). */
static size_t scratch(const struct coll *a)
{
	return (size_t)a->p * a->bytes;
}

static int run(const struct coll *a)
{
	size_t b = a->bytes;
	int p = a->p, r = a->r, k, i, rc = VP_OK;
	char *tmp = a->scratch;

	vp__copy(tmp, a->sbuf, b);
	for (k = 1; k < p && !rc; k <<= 1) {
		int cnt = k < p - k ? k : p - k;

		rc = vp_sendrecv(a->c, (r - k + p) % p, tmp, (size_t)cnt * b,
				 (r + k) % p, tmp + (size_t)k * b,
				 (size_t)cnt * b);
	}
	if (!rc) /* tmp[i] is rank (r + i)'s block */
		for (i = 0; i < p; i++)
			vp__copy((char *)a->rbuf + (size_t)((r + i) % p) * b,
				 tmp + (size_t)i * b, b);
	return rc;
}

const struct coll_algorithm vp__alg_allgather_bruck = {
	.op = VP_COLL_ALLGATHER,
	.alg = VP_ALG_BRUCK,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.cost = vp__cost_allgather_hypercube,
};
