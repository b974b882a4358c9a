/*
 * scan_recursive_doubling.c - inclusive prefix sums for any p by recursive
 * doubling (Hillis and Steele).
 *
 * Source: Hillis and Steele 1986, "Data parallel algorithms"; the same
 *         doubling as Grama et al., Algorithm 4.9, without the hypercube
 *         pairing.
 * Cost:   T(p, m) = (ts + tw*m) ceil(log2 p)
 * Steps:  ceil(log2 p); in the step with distance k rank r sends its
 *         running prefix to r + k and adds the one from r - k (when they
 *         exist). Scratch: one vector.
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
	return a->bytes;
}

static int run(const struct coll *a)
{
	char *in = a->scratch;
	int k, r = a->r, rc = VP_OK;

	for (k = 1; k < a->p && !rc; k <<= 1) {
		int up = r + k < a->p, down = r - k >= 0;

		if (up && down)
			rc = vp_sendrecv(a->c, r + k, a->rbuf, a->bytes, r - k,
					 in, a->bytes);
		else if (up)
			rc = vp_send(a->c, r + k, a->rbuf, a->bytes);
		else if (down)
			rc = vp_recv(a->c, r - k, in, a->bytes);
		if (!rc && down)
			vp_reduce_local(in, a->rbuf, a->count, a->type, a->rop);
	}
	return rc;
}

const struct coll_algorithm vp__alg_scan_recursive_doubling = {
	.op = VP_COLL_SCAN,
	.alg = VP_ALG_RECURSIVE_DOUBLING,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.input = INPUT_IN_RBUF,
	.cost = vp__cost_bcast_binomial,
};
