/*
 * reduce_binomial.c - all-to-one reduction up a binomial tree, the dual of
 * bcast_binomial.c.
 *
 * Source: the minimum-spanning-tree reduce (Chan et al. 2007); MPICH's
 *         binomial reduce (Thakur et al. 2005).
 * Cost:   T(p, m) = ceil(log2 p)(ts + tw*m)  (+ combine work)
 * Steps:  ceil(log2 p); relative rank v adds the vectors of v + 1, v + 2,
 *         v + 4, ... (below its lowest set bit), then sends to its parent
 *         v minus that bit; each vector is combined where its
 *         message lies (vp_recv_reduce). Scratch: one vector on inner
 *         members.
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

int vp__reduce_binomial_view(const struct view *v, const void *mine,
			     void *acc, size_t count, vp_type t, vp_op op)
{
	size_t n = count * vp_type_size(t);
	int mask, rc;

	for (mask = 1; mask < v->n; mask <<= 1) {
		if (v->me & mask)
			return vp__vsend(v, v->me - mask, mine, n);
		if (v->me + mask < v->n) {
			/* acc = child's vector op mine, combined where the
			 * child's message lies (no copy into scratch) */
			rc = vp_recv_reduce(v->c, vp__view_rank(v, v->me + mask),
					    mine, acc, count, t, op);
			if (rc)
				return rc;
			mine = acc;
		}
	}
	if (mine != acc) /* a view of one member */
		vp__copy(acc, mine, n);
	return VP_OK;
}

/* Whether v.me adds anyone's vector (else it is a leaf of the tree: its
 * lowest set bit bounds its children). */
static int has_child(const struct view *v)
{
	int mask;

	for (mask = 1; mask < v->n && !(v->me & mask); mask <<= 1)
		if (v->me + mask < v->n)
			return 1;
	return 0;
}

static int run(const struct coll *a)
{
	const struct view *v = &a->v;
	void *acc = NULL;
	int rc;

	/* The root combines into its result, an inner member into scratch;
	 * a leaf sends its input as it is. Nobody copies its input into an
	 * accumulator first: the first combine reads it (the same messages,
	 * so the same model time). */
	if (v->me == 0)
		acc = a->rbuf;
	else if (has_child(v) && !(acc = vp__alloc(a, a->bytes)))
		return VP_ENOMEM;
	rc = vp__reduce_binomial_view(v, a->sbuf, acc, a->count, a->type,
				      a->rop);
	if (acc != a->rbuf)
		free(acc);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_binomial = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_BINOMIAL,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_TREE,
	.cost = vp__cost_bcast_binomial,
};
