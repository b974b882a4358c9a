/*
 * gather_linear.c - all-to-one gather: the root receives each rank's block
 * in turn.
 *
 * Source: the flat gather: one BSP superstep (Valiant 1990).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)            m = bytes per block
 *         (the root's single receive port takes one block at a time).
 *         bsp: l + (p - 1) m g, one superstep (no message depends
 *         on another of the call).
 * Steps:  p - 1 receives at the root (root+1, root+2, ...); scratch: none.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__gather_linear(const struct coll *a)
{
	int j, rc;

	if (a->r != a->root)
		return vp_send(a->c, a->root, a->sbuf, a->bytes);
	for (j = 1; j < a->p; j++) {
		int src = (a->root + j) % a->p;

		rc =
		    vp_recv(a->c, src, (char *)a->rbuf + (size_t)src * a->bytes,
			    a->bytes);
		if (rc)
			return rc;
	}
	vp__copy((char *)a->rbuf + (size_t)a->root * a->bytes, a->sbuf,
		 a->bytes);
	return VP_OK;
}

const struct coll_algorithm vp__alg_gather_linear = {
	.op = VP_COLL_GATHER,
	.alg = VP_ALG_LINEAR,
	.run = vp__gather_linear,
	.needs = NEED_ANY,
	.cost = vp__cost_bcast_linear,
	.bsp_cost = vp__bsp_cost_one_step,
};
