/*
 * reduce_reduce_scatter_gather.c - all-to-one reduction of long vectors in
 * two phases: reduce-scatter the vector in p pieces, then gather the pieces
 * at the root; the dual of bcast_scatter_allgather.c.
 *
 * Source: Grama et al., sec. 4.7.2 (all-to-one reduction as reduce-scatter
 *         then gather, the dual of sec. 4.7.1); Rabenseifner 2004.
 * Cost:   T(p, m) = 2(ts log2 p + tw*m (p - 1)/p)   p a power of two,
 *         p | m; otherwise the ring reduce-scatter: (p - 1)(ts + tw*m/p)
 *         + ceil(log2 p) ts + tw*m (p - 1)/p.
 * Steps:  phase 1: recursive halving (ring when p is not a power of two)
 *         leaves relative rank j with piece j summed; phase 2: binomial
 *         gather of the pieces to the root. Scratch: one vector off the root.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	struct chunks ch = { a->count, a->esize, a->p };
	char *acc = vp__reduce_acc(a, a->r == a->root);
	int rc;

	if (!acc)
		return VP_ENOMEM;
	if (vp__is_pow2(a->p))
		rc = vp__reduce_scatter_halving_view(&a->v, acc, &ch, a->type,
						     a->rop);
	else
		rc = vp__reduce_scatter_ring_view(&a->v, acc, &ch, a->type,
						  a->rop);
	if (!rc)
		rc = vp__gather_binomial_view(
		    &a->v, acc + vp__chunk_off(&ch, a->v.me), &ch);
	vp__reduce_acc_free(a, acc);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_reduce_scatter_gather = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_REDUCE_SCATTER_GATHER,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_scatter_allgather,
};
