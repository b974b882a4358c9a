/*
 * allgather_hypercube.c - all-to-all broadcast on a hypercube by recursive
 * doubling: exchange everything held so far along one dimension per step.
 *
 * Source: Grama et al., sec. 4.2.3, Algorithms 4.7-4.8 (recursive doubling,
 *         the butterfly of Thakur et al. 2005).
 * Cost:   T(p, m) = ts log2 p + tw*m (p - 1)       m = bytes per rank
 * Steps:  log2 p; in step i (dimension i, lowest first) rank r swaps its
 *         2^i blocks with r XOR 2^i:
 *           p = 4: step 0: {0,1} {0,1} {2,3} {2,3};  step 1: all four.
 *         Scratch: none.
 *         The first step sends this rank's block from the caller's input
 *         rather than from its copy in rbuf (same bytes, same model
 *         time): on the mpi transport, Open MPI's single copy has the
 *         partner read the sent pages with process_vm_readv, and the
 *         first write into such a page afterwards (the next call's copy
 *         of the input) can cost several times a plain memcpy (the
 *         probe of vp-bench --transport mpi shows what it costs).
 * Needs:  p a power of two (else VP_EALG).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__allgather_doubling_view(const struct view *v, void *buf,
				const struct chunks *ch, const void *own)
{
	int mask, rc;
	char *b = buf;

	for (mask = 1; mask < v->n; mask <<= 1) {
		int peer = v->me ^ mask;
		int mine = v->me & ~(mask - 1), theirs = peer & ~(mask - 1);
		const void *out = mask == 1 && own ?
			own : b + vp__chunk_off(ch, mine);

		rc = vp__vsendrecv(v, peer, out,
				   vp__chunk_span(ch, mine, mask), peer,
				   b + vp__chunk_off(ch, theirs),
				   vp__chunk_span(ch, theirs, mask));
		if (rc)
			return rc;
	}
	return VP_OK;
}

static int run(const struct coll *a)
{
	struct chunks ch = { (size_t)a->p * a->count, a->esize, a->p };

	return vp__allgather_doubling_view(&a->v, a->rbuf, &ch,
					   a->sbuf == a->rbuf ? NULL : a->sbuf);
}

/* The cost above, for vp_coll_formula. */
double vp__cost_allgather_hypercube(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return k->ts * k->L + k->tw * k->m * (k->P - 1);
}

const struct coll_algorithm vp__alg_allgather_hypercube = {
	.op = VP_COLL_ALLGATHER,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.view = VIEW_ALL,
	.input = INPUT_OWN_BLOCK,
	.cost = vp__cost_allgather_hypercube,
};
