/*
 * reduce_linear.c - all-to-one reduction: the root receives every rank's
 * vector in turn and combines it; the dual of bcast_linear.c.
 *
 * Source: the dual of the linear broadcast (bcast_linear.c).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)  (one receive port at the root)
 * Steps:  p - 1 receives at the root; scratch: one vector.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

int vp__reduce_linear(const struct coll *a)
{
	char *acc, *tmp;
	int j, rc = VP_OK;

	if (a->r != a->root)
		return vp_send(a->c, a->root, a->sbuf, a->bytes);
	acc = vp__reduce_acc(a, 1);
	tmp = vp__alloc(a, a->bytes);
	if (!tmp)
		return VP_ENOMEM;
	for (j = 1; j < a->p && !rc; j++) {
		rc = vp_recv(a->c, (a->root + j) % a->p, tmp, a->bytes);
		if (!rc)
			vp_reduce_local(tmp, acc, a->count, a->type, a->rop);
	}
	free(tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_linear = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_LINEAR,
	.run = vp__reduce_linear,
	.needs = NEED_ANY,
	.cost = vp__cost_bcast_linear,
};
