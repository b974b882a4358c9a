/*
 * reduce_scatter_pairwise.c - all-to-all reduction by pairwise exchange:
 * every rank sends block j straight to rank j and adds what it receives.
 *
 * Source: the all-to-all personalized pairwise schedule (Grama et
 *         al., Algorithm 4.10) carrying partial blocks; MPICH's pairwise
 *         reduce-scatter.
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)            m = bytes per block
 *         bsp: l + (p - 1) m g, one superstep (no message depends
 *         on another of the call).
 * Steps:  p - 1; in step s rank r sends block r + s to r + s and receives
 *         its own block from r - s (XOR partners when p is a power of two).
 *         Scratch: one block.
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
	const char *in = a->sbuf;
	int p = a->p, r = a->r, s, rc = VP_OK;
	char *tmp = a->scratch;

	vp__copy(a->rbuf, in + (size_t)r * a->bytes, a->bytes);
	for (s = 1; s < p && !rc; s++) {
		int dst = vp__is_pow2(p) ? r ^ s : (r + s) % p;
		int src = vp__is_pow2(p) ? r ^ s : (r - s + p) % p;

		rc = vp_sendrecv(a->c, dst, in + (size_t)dst * a->bytes,
				 a->bytes, src, tmp, a->bytes);
		if (!rc)
			vp_reduce_local(tmp, a->rbuf, a->count, a->type,
					a->rop);
	}
	return rc;
}

const struct coll_algorithm vp__alg_reduce_scatter_pairwise = {
	.op = VP_COLL_REDUCE_SCATTER,
	.alg = VP_ALG_PAIRWISE,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.cost = vp__cost_allgather_ring,
	.bsp_cost = vp__bsp_cost_one_step,
};
