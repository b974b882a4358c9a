/*
 * scatter_linear.c - one-to-all personalized: the root sends each rank its
 * block in turn.
 *
 * Source: the flat scatter: one BSP superstep (Valiant 1990).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)            m = bytes per block
 *         bsp: l + (p - 1) m g, one superstep (no message depends
 *         on another of the call).
 * Steps:  p - 1 sends from the root (root+1, root+2, ...); scratch: none.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__scatter_linear(const struct coll *a)
{
	int j, rc;

	if (a->r != a->root)
		return vp_recv(a->c, a->root, a->rbuf, a->bytes);
	for (j = 1; j < a->p; j++) {
		int dst = (a->root + j) % a->p;

		rc = vp_send(a->c, dst,
			     (const char *)a->sbuf + (size_t)dst * a->bytes,
			     a->bytes);
		if (rc)
			return rc;
	}
	vp__copy(a->rbuf, (const char *)a->sbuf + (size_t)a->root * a->bytes,
		 a->bytes);
	return VP_OK;
}

const struct coll_algorithm vp__alg_scatter_linear = {
	.op = VP_COLL_SCATTER,
	.alg = VP_ALG_LINEAR,
	.run = vp__scatter_linear,
	.needs = NEED_ANY,
	.cost = vp__cost_bcast_linear,
	.bsp_cost = vp__bsp_cost_one_step,
};
