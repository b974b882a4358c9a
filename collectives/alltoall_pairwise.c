/*
 * alltoall_pairwise.c - all-to-all personalized exchange in p - 1 pairwise
 * steps; with p a power of two the partners are r XOR s, which E-cube
 * routing on a hypercube carries without link contention.
 *
 * Source: Grama et al., sec. 4.5.3, Algorithm 4.10 (the XOR schedule).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)  m = bytes per block; link load 1 on
 *         a hypercube.
 *         bsp: l + (p - 1) m g, one superstep (no message depends
 *         on another of the call).
 * Steps:  p - 1; in step s rank r swaps blocks with r XOR s (p a power of
 *         two) or sends to r + s and receives from r - s (otherwise).
 *         Scratch: none.
 * Needs:  any p.
 * Differs from the book: the shifted schedule for p not a power of two.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	const char *in = a->sbuf;
	char *out = a->rbuf;
	int p = a->p, r = a->r, s, rc;
	size_t b = a->bytes;

	vp__copy(out + (size_t)r * b, in + (size_t)r * b, b);
	for (s = 1; s < p; s++) {
		int dst = vp__is_pow2(p) ? r ^ s : (r + s) % p;
		int src = vp__is_pow2(p) ? r ^ s : (r - s + p) % p;

		rc = vp_sendrecv(a->c, dst, in + (size_t)dst * b, b, src,
				 out + (size_t)src * b, b);
		if (rc)
			return rc;
	}
	return VP_OK;
}

const struct coll_algorithm vp__alg_alltoall_pairwise = {
	.op = VP_COLL_ALLTOALL,
	.alg = VP_ALG_PAIRWISE,
	.run = run,
	.needs = NEED_ANY,
	.cost = vp__cost_bcast_linear,
	.bsp_cost = vp__bsp_cost_one_step,
};
