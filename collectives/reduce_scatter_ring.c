/*
 * reduce_scatter_ring.c - all-to-all reduction on a ring, the dual of the
 * ring all-to-all broadcast: partial sums travel p - 1 hops to the right.
 *
 * Source: all-to-all reduction as the dual of Algorithm 4.4
 *         (Grama et al., sec. 4.2.1).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)            m = bytes per block
 *         (+ local combine work, not charged).
 * Steps:  p - 1; in step s rank i sends its partial block i - s - 1 to
 *         i + 1, receives partial block i - s - 2 from i - 1 and adds its
 *         own share; after the last step block i is complete at rank i.
 *         Scratch: a copy of the p input blocks.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int vp__reduce_scatter_ring_view(const struct view *v, void *buf,
				 const struct chunks *ch, vp_type t, vp_op op)
{
	int n = v->n, me = v->me, s, rc;
	size_t es = ch->esize;
	char *b = buf;

	for (s = 0; s < n - 1; s++) {
		int out = (me - s - 1 + 2 * n) % n,
		    in = (me - s - 2 + 2 * n) % n;
		size_t len = vp__chunk_len(ch, in);

		/* block in arrives as the left neighbour's partial sum and
		 * is added where it lies; block out, sent, is not written */
		rc = vp_sendrecv_reduce(
		    v->c, vp__view_rank(v, (me + 1) % n),
		    b + vp__chunk_off(ch, out), vp__chunk_len(ch, out),
		    vp__view_rank(v, (me - 1 + n) % n),
		    b + vp__chunk_off(ch, in), b + vp__chunk_off(ch, in),
		    len / es, t, op);
		if (rc)
			return rc;
	}
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
	rc = vp__reduce_scatter_ring_view(&a->v, work, &ch, a->type, a->rop);
	if (!rc)
		memcpy(a->rbuf, work + (size_t)a->r * a->bytes, a->bytes);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_scatter_ring = {
	.op = VP_COLL_REDUCE_SCATTER,
	.alg = VP_ALG_RING,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.view = VIEW_ALL,
	.cost = vp__cost_allgather_ring,
};
