/*
 * allgather_ring.c - all-to-all broadcast on a ring: every block travels
 * p - 1 hops to the right.
 *
 * Source: Grama et al., sec. 4.2.1, Algorithm 4.4 (all-to-all broadcast on a
 *         ring).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)            m = bytes per rank
 * Steps:  p - 1; in step s rank i sends block i - s to i + 1 and receives
 *         block i - s - 1 from i - 1 (indices mod p):
 *           p = 4, after step 0: rank 0 holds 0,3; 1: 1,0; 2: 2,1; 3: 3,2.
 *         Scratch: none (blocks land in place in rbuf). The first step
 *         sends from the caller's input, as allgather_hypercube.c says.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__allgather_ring_view(const struct view *v, void *buf,
			    const struct chunks *ch, const void *own)
{
	int n = v->n, me = v->me, s, rc;
	char *b = buf;

	for (s = 0; s < n - 1; s++) {
		int out = (me - s + n) % n, in = (me - s - 1 + n) % n;
		const void *from = s == 0 && own ?
			own : b + vp__chunk_off(ch, out);

		rc = vp__vsendrecv(v, (me + 1) % n, from,
				   vp__chunk_len(ch, out), (me - 1 + n) % n,
				   b + vp__chunk_off(ch, in),
				   vp__chunk_len(ch, in));
		if (rc)
			return rc;
	}
	return VP_OK;
}

static int run(const struct coll *a)
{
	struct chunks ch = { (size_t)a->p * a->count, a->esize, a->p };

	return vp__allgather_ring_view(&a->v, a->rbuf, &ch,
				       a->sbuf == a->rbuf ? NULL : a->sbuf);
}

/* The cost above, for vp_coll_formula. */
double vp__cost_allgather_ring(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return (k->P - 1) * k->u;
}

const struct coll_algorithm vp__alg_allgather_ring = {
	.op = VP_COLL_ALLGATHER,
	.alg = VP_ALG_RING,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ALL,
	.input = INPUT_OWN_BLOCK,
	.cost = vp__cost_allgather_ring,
};
