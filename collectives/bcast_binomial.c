/*
 * bcast_binomial.c - one-to-all broadcast down a binomial tree.
 *
 * Source: the minimum-spanning-tree broadcast (Chan et al. 2007); MPICH's
 *         binomial broadcast (Thakur, Rabenseifner, Gropp 2005).
 * Cost:   T(p, m) = ceil(log2 p)(ts + tw*m)
 * Steps:  ceil(log2 p). Relative rank v (root = 0) receives from v minus its
 *         lowest set bit, then sends to v + 2^k for the powers of two below
 *         that bit, largest first; scratch: none.
 * Needs:  any p.
 * Ranks:  relabelled so that the root is member 0 (vp__view_tree): by XOR
 *         when p is a power of two, so every edge is a hypercube link and
 *         the tree runs neighbour-only on a hypercube in strict mode from
 *         any root; by rotation otherwise.
 * Differs from the book: nothing; for p a power of two it is the
 *         hypercube schedule.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__bcast_binomial_view(const struct view *v, void *buf, size_t n)
{
	int mask = 1, rc;

	while (mask < v->n) {
		if (v->me & mask) {
			/* my parent: clear my lowest set bit */
			if ((rc = vp__vrecv(v, v->me - mask, buf, n)))
				return rc;
			break;
		}
		mask <<= 1;
	}
	/* my children: me + 2^k for every 2^k below my lowest set bit */
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (v->me + mask < v->n &&
		    (rc = vp__vsend(v, v->me + mask, buf, n)))
			return rc;
	return VP_OK;
}

static int run(const struct coll *a)
{

	return vp__bcast_binomial_view(&a->v, a->rbuf, a->bytes);
}

/* The cost above, for vp_coll_formula. */
double vp__cost_bcast_binomial(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return k->L * k->u;
}

const struct coll_algorithm vp__alg_bcast_binomial = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_BINOMIAL,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_TREE,
	.cost = vp__cost_bcast_binomial,
};
