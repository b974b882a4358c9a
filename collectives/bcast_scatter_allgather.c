/*
 * bcast_scatter_allgather.c - one-to-all broadcast of long messages in two
 * phases: scatter the message in p pieces, then all-gather the pieces
 * (van de Geijn's broadcast).
 *
 * Source: Grama et al., sec. 4.7.1 (broadcast as scatter + all-to-all
 *         broadcast); van de Geijn's long-message broadcast (Chan et al. 2007).
 * Cost:   T(p, m) = 2(ts log2 p + tw*m (p - 1)/p)   p a power of two,
 *         p | m; otherwise the ring all-gather: ceil(log2 p) ts +
 *         tw*m (p - 1)/p + (p - 1)(ts + tw*m/p).
 * Steps:  phase 1: binomial scatter (relative rank j gets piece j);
 *         phase 2: recursive doubling all-gather (ring when p is not a
 *         power of two). Scratch: none; pieces land in place.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	struct chunks ch = { a->count, a->esize, a->p };
	int rc;

	rc = vp__scatter_binomial_view(
	    &a->v, (char *)a->rbuf + vp__chunk_off(&ch, a->v.me), &ch);
	if (rc)
		return rc;
	if (vp__is_pow2(a->p))
		return vp__allgather_doubling_view(&a->v, a->rbuf, &ch, NULL);
	return vp__allgather_ring_view(&a->v, a->rbuf, &ch, NULL);
}

/* The cost above, for vp_coll_formula. */
double vp__cost_bcast_scatter_allgather(const struct coll_cost *k, int *exact)
{
	*exact = k->divides;
	return k->pow2 ? 2 * (k->ts * k->L + k->tw * k->m * (k->P - 1) / k->P)
		       : k->ts * k->L + k->tw * k->m * (k->P - 1) / k->P +
			     (k->P - 1) * (k->ts + k->tw * k->m / k->P);
}

const struct coll_algorithm vp__alg_bcast_scatter_allgather = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_SCATTER_ALLGATHER,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_scatter_allgather,
};
