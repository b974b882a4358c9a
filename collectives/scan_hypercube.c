/*
 * scan_hypercube.c - inclusive prefix sums on a hypercube.
 *
 * Source: Grama et al., sec. 4.3, Algorithm 4.9 (prefix sums on a hypercube).
 * Cost:   T(p, m) = (ts + tw*m) log2 p  (+ combine work)
 * Steps:  log2 p; in step i rank r swaps its running total of the sub-cube
 *         with r XOR 2^i, adds what it gets to the total, and also to its
 *         result when the partner is below it. Scratch: two vectors.
 * Needs:  p a power of two (else VP_EALG).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int run(const struct coll *a)
{
	char *msg = vp__alloc(a, 2 * a->bytes), *in;
	int mask, rc = VP_OK;

	if (!msg)
		return VP_ENOMEM;
	in = msg + a->bytes;
	memcpy(msg, a->rbuf, a->bytes);
	for (mask = 1; mask < a->p && !rc; mask <<= 1) {
		int peer = a->r ^ mask;

		rc = vp_sendrecv(a->c, peer, msg, a->bytes, peer, in, a->bytes);
		if (rc)
			break;
		vp_reduce_local(in, msg, a->count, a->type, a->rop);
		if (peer < a->r)
			vp_reduce_local(in, a->rbuf, a->count, a->type, a->rop);
	}
	free(msg);
	return rc;
}

const struct coll_algorithm vp__alg_scan_hypercube = {
	.op = VP_COLL_SCAN,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.input = INPUT_IN_RBUF,
	.cost = vp__cost_bcast_binomial,
};
