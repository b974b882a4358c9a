/*
 * gather_binomial.c - all-to-one gather up a binomial tree, the dual of
 * scatter_binomial.c.
 *
 * Source: Grama et al., sec. 4.4 (gather, the dual of scatter);
 *         MPICH's binomial gather for any p (Thakur et al. 2005).
 * Cost:   T(p, m) = ts log2 p + tw*m (p - 1)       m = bytes per block
 * Steps:  ceil(log2 p). Relative rank v collects the blocks of its subtree
 *         from its children, smallest subtree first, then sends them all to
 *         its parent. Scratch: the subtree's blocks.
 * Needs:  any p.
 * Ranks:  relabelled so that the root is member 0 (vp__view_tree): by XOR
 *         when p is a power of two, so every edge is a hypercube link and
 *         the tree runs neighbour-only on a hypercube in strict mode from
 *         any root; by rotation otherwise.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

/* buf holds my chunk at 0 and receives chunks [me, me + subtree). */
int vp__gather_binomial_view(const struct view *v, void *buf,
			     const struct chunks *ch)
{
	size_t base = vp__chunk_off(ch, v->me);
	int mask = 1, rc;

	while (mask < v->n) {
		int child = v->me + mask;

		if (v->me & mask)
			return vp__vsend(
			    v, v->me - mask, buf,
			    vp__chunk_span(ch, v->me,
					   vp__binomial_subtree(v->me, v->n)));
		if (child < v->n) {
			rc = vp__vrecv(
			    v, child,
			    (char *)buf + vp__chunk_off(ch, child) - base,
			    vp__chunk_span(ch, child,
					   vp__binomial_subtree(child, v->n)));
			if (rc)
				return rc;
		}
		mask <<= 1;
	}
	return VP_OK;
}

static int run(const struct coll *a)
{
	struct chunks ch = { (size_t)a->p * a->count, a->esize, a->p };
	char *tmp;
	int sub, rc;

	sub = vp__binomial_subtree(a->v.me, a->v.n);
	if (sub == 1 && a->v.me != 0)
		return vp__gather_binomial_view(&a->v, (void *)a->sbuf, &ch);
	tmp = vp__alloc(a, (size_t)sub * a->bytes);
	if (!tmp)
		return VP_ENOMEM;
	vp__copy(tmp, a->sbuf, a->bytes);
	rc = vp__gather_binomial_view(&a->v, tmp, &ch);
	if (!rc && a->v.me == 0)
		vp__blocks_by_rank(&a->v, a->rbuf, tmp, a->bytes);
	free(tmp);
	return rc;
}

const struct coll_algorithm vp__alg_gather_binomial = {
	.op = VP_COLL_GATHER,
	.alg = VP_ALG_BINOMIAL,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_TREE,
	.cost = vp__cost_scatter_binomial,
};
