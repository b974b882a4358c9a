/*
 * scatter_binomial.c - one-to-all personalized (scatter) by recursive
 * halving down a binomial tree.
 *
 * Source: Grama et al., sec. 4.4 (scatter on a hypercube, Fig. 4.16);
 *         MPICH's binomial scatter for any p (Thakur et al. 2005).
 * Cost:   T(p, m) = ts log2 p + tw*m (p - 1)       m = bytes per block
 *         (p a power of two; else ceil(log2 p) ts + tw*m (p - 1)).
 * Steps:  ceil(log2 p). Relative rank v receives the blocks of its subtree
 *         [v, v + sub) from its parent, then hands the upper half on, the
 *         larger halves first:
 *           p = 8, root 0:  0 -> 4: blocks 4-7;  0 -> 2: 2-3, 4 -> 6: 6-7;
 *                           0 -> 1, 2 -> 3, 4 -> 5, 6 -> 7: one block each.
 *         Scratch: the subtree's blocks (the root rotates its p blocks so
 *         that block j is relative rank j's).
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

/* buf holds chunks [me, me + subtree) with chunk k at off(k) - off(me). */
int vp__scatter_binomial_view(const struct view *v, void *buf,
			      const struct chunks *ch)
{
	size_t base = vp__chunk_off(ch, v->me);
	int mask = 1, rc, sub;

	while (mask < v->n) {
		if (v->me & mask) {
			sub = vp__binomial_subtree(v->me, v->n);
			if ((rc = vp__vrecv(v, v->me - mask, buf,
					    vp__chunk_span(ch, v->me, sub))))
				return rc;
			break;
		}
		mask <<= 1;
	}
	for (mask >>= 1; mask > 0; mask >>= 1) {
		int child = v->me + mask;

		if (child >= v->n)
			continue;
		sub = vp__binomial_subtree(child, v->n);
		rc = vp__vsend(v, child,
			       (char *)buf + vp__chunk_off(ch, child) - base,
			       vp__chunk_span(ch, child, sub));
		if (rc)
			return rc;
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
		return vp__scatter_binomial_view(&a->v, a->rbuf, &ch);
	tmp = vp__alloc(a, (size_t)sub * a->bytes);
	if (!tmp)
		return VP_ENOMEM;
	if (a->v.me == 0)
		vp__blocks_by_member(&a->v, tmp, a->sbuf, a->bytes);
	rc = vp__scatter_binomial_view(&a->v, tmp, &ch);
	if (!rc)
		vp__copy(a->rbuf, tmp, a->bytes);
	free(tmp);
	return rc;
}

/* The cost above, for vp_coll_formula. */
double vp__cost_scatter_binomial(const struct coll_cost *k, int *exact)
{
	*exact = k->pow2;
	return k->ts * k->L + k->tw * k->m * (k->P - 1);
}

const struct coll_algorithm vp__alg_scatter_binomial = {
	.op = VP_COLL_SCATTER,
	.alg = VP_ALG_BINOMIAL,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_TREE,
	.cost = vp__cost_scatter_binomial,
};
