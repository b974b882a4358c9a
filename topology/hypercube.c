/*
 * hypercube.c - the d-dimensional hypercube (Grama et al., sec. 2.4.3):
 * p = 2^d ranks, joined when their numbers differ in one bit.
 *
 * Routing: E-cube (Grama et al., sec. 2.6): fix the differing bits lowest
 * first. Links: rank r's d outgoing links are indexed r*d + k, k the bit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "kinds.h"

#define MAX_DIM 16

static int setup(struct vp__topo *t, long a, long b, const char **why)
{
	(void)b;
	if (a > MAX_DIM) {
		*why = "dimension above 16";
		return -1;
	}
	t->dim = (int)a;
	t->p = 1 << t->dim;
	return 0;
}

static int is_neighbor(const struct vp__topo *t, int a, int b)
{
	int x = a ^ b;

	(void)t;
	return (x & (x - 1)) == 0;
}

static int candidates(const struct vp__topo *t, int r, int *cand)
{
	int k;

	for (k = 0; k < t->dim; k++)
		cand[k] = r ^ (1 << k);
	return t->dim;
}

static int max_hops(const struct vp__topo *t)
{
	return t->dim;
}

static int route(const struct vp__topo *t, int a, int b, uint64_t *links,
		 int max)
{
	int n = 0, cur, x, next;

	(void)t;
	/* E-cube: correct the lowest differing bit first. */
	for (cur = a, x = a ^ b; x; x &= x - 1) {
		next = cur ^ (x & -x);
		vp__topo_hop(links, max, &n, cur, next);
		cur = next;
	}
	return n;
}

static int distance(const struct vp__topo *t, int a, int b)
{
	(void)t;
	return __builtin_popcount((unsigned)(a ^ b));
}

static size_t link_slots(const struct vp__topo *t)
{
	return (size_t)t->nodes * (size_t)(t->dim ? t->dim : 1);
}

static size_t link_index(const struct vp__topo *t, uint64_t link)
{
	int bit = 0, x;

	for (x = vp__link_from(link) ^ vp__link_to(link); x > 1; x >>= 1)
		bit++;
	return (size_t)vp__link_from(link) * (size_t)t->dim + (size_t)bit;
}

const struct vp__topo_class vp__topo_hypercube = {
	.kind = VP__TOPO_HYPERCUBE,
	.name = "hypercube",
	.size_is_dim = 1,
	.max_candidates = MAX_DIM,
	.setup = setup,
	.is_neighbor = is_neighbor,
	.candidates = candidates,
	.max_hops = max_hops,
	.route = route,
	.distance = distance,
	.link_slots = link_slots,
	.link_index = link_index,
};
