/*
 * reduce_binomial.c - all-to-one reduction up a binomial tree, the dual of
 * bcast_binomial.c.
 *
 * Source: the minimum-spanning-tree reduce (Chan et al. 2007); MPICH's
 *         binomial reduce (Thakur et al. 2005).
 * Cost:   T(p, m) = ceil(log2 p)(ts + tw*m)  (+ combine work)
 * Steps:  ceil(log2 p); relative rank v adds the vectors of v + 1, v + 2,
 *         v + 4, ... (below its lowest set bit), then sends to its parent
 *         v minus that bit. Scratch: one or two vectors.
 * Needs:  any p.
 * Ranks:  relabelled so that the root is member 0 (vp__view_tree): by XOR
 *         when p is a power of two, so every edge is a hypercube link and
 *         the tree runs neighbour-only on a hypercube in strict mode from
 *         any root; by rotation otherwise.
 * Differs from the book: nothing.
 */
#include <stdlib.h>

#include "coll.h"

int vp__reduce_binomial_view(const struct view *v, void *acc, void *tmp,
			     size_t count, vp_type t, vp_op op)
{
	size_t n = count * vp_type_size(t);
	int mask, rc;

	for (mask = 1; mask < v->n; mask <<= 1) {
		if (v->me & mask)
			return vp__vsend(v, v->me - mask, acc, n);
		if (v->me + mask < v->n) {
			if ((rc = vp__vrecv(v, v->me + mask, tmp, n)))
				return rc;
			vp_reduce_local(tmp, acc, count, t, op);
		}
	}
	return VP_OK;
}

/* The member whose vector v.me adds, first, or 0 when it adds none (a
 * leaf of the tree): the lowest set bit of v.me bounds its children. */
static int first_child(const struct view *v)
{
	int mask;

	for (mask = 1; mask < v->n && !(v->me & mask); mask <<= 1)
		if (v->me + mask < v->n)
			return v->me + mask;
	return 0;
}

static int run(const struct coll *a)
{
	const struct view *v = &a->v;
	char *acc, *tmp;
	int rc;

	/* A leaf sends its input as it is: no accumulator to fill by a
	 * copy (the same message, so the same model time) */
	if (v->me > 0 && !first_child(v))
		return vp__vsend(v, v->me & (v->me - 1), a->sbuf, a->bytes);
	if ((rc = vp__reduce_bufs(a, a->bytes, &acc, &tmp)))
		return rc;
	rc = vp__reduce_binomial_view(&a->v, acc, tmp, a->count, a->type,
				      a->rop);
	vp__reduce_bufs_free(a, acc, tmp);
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
