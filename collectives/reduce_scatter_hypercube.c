/*
 * reduce_scatter_hypercube.c - all-to-all reduction on a hypercube by
 * recursive halving, the dual of recursive-doubling all-to-all broadcast.
 *
 * Source: all-to-all reduction as the dual of Algorithm 4.7
 *         (Grama et al., sec. 4.2.3); the halving half of Rabenseifner's
 *         allreduce (Rabenseifner 2004).
 * Cost:   T(p, m) = ts log2 p + tw*m (p - 1)       m = bytes per block
 * Steps:  log2 p, highest dimension first: rank r keeps the half of its
 *         window of blocks on r's side of the dimension, sends the other
 *         half to r XOR 2^i and adds the partner's copy of its own half:
 *           p = 4, rank 1: window 0-3 -> keeps 0-1 (gets 2's and 3's
 *           partial sums of 0-1 from 3) -> keeps 1 (from 0).
 *         The partner's half is added where it lies (vp_sendrecv_reduce).
 *         Scratch: a copy of the p blocks.
 * Needs:  p a power of two (else VP_EALG).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int vp__reduce_scatter_halving_view(const struct view *v, void *buf,
				    const struct chunks *ch, vp_type t,
				    vp_op op)
{
	int lo = 0, hi = v->n, mask, rc;
	char *b = buf;

	for (mask = v->n / 2; mask > 0; mask >>= 1) {
		int peer = v->me ^ mask, mid = lo + mask;
		int keep = (v->me & mask) ? mid : lo;
		int give = (v->me & mask) ? lo : mid;
		size_t keep_len = vp__chunk_span(ch, keep, mask);

		/* the partner reads the half we give while we add its
		 * copy of the half we keep into ours, where it lies */
		rc = vp_sendrecv_reduce(
		    v->c, vp__view_rank(v, peer), b + vp__chunk_off(ch, give),
		    vp__chunk_span(ch, give, mask), vp__view_rank(v, peer),
		    b + vp__chunk_off(ch, keep), b + vp__chunk_off(ch, keep),
		    keep_len / ch->esize, t, op);
		if (rc)
			return rc;
		lo = keep;
		hi = keep + mask;
	}
	(void)hi;
	return VP_OK;
}

/* Scratch for run (dispatch allocates it). */
static size_t scratch(const struct coll *a)
{
	return (size_t)a->p * a->bytes;
}

static int run(const struct coll *a)
{
	struct chunks ch = { (size_t)a->p * a->count, a->esize, a->p };
	size_t all = (size_t)a->p * a->bytes;
	char *work = a->scratch;
	int rc;

	memcpy(work, a->sbuf, all);
	rc = vp__reduce_scatter_halving_view(&a->v, work, &ch, a->type,
					     a->rop);
	if (!rc)
		memcpy(a->rbuf, work + (size_t)a->r * a->bytes, a->bytes);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_scatter_hypercube = {
	.op = VP_COLL_REDUCE_SCATTER,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.scratch = scratch,
	.view = VIEW_ALL,
	.cost = vp__cost_allgather_hypercube,
};
