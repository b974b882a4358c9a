/*
 * scan_linear.c - inclusive prefix sums along a chain: rank r waits for the
 * prefix of r - 1, adds its own and passes it on.
 *
 * Source: the sequential dependence chain; the baseline of Grama et al.,
 *         sec. 4.3.
 * Cost:   T(p, m) = (ts + tw*m)(p - 1)
 * Steps:  p - 1 messages, one after the other. Scratch: one vector.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	char *in;
	int rc = VP_OK;

	if (a->r > 0) {
		if (!(in = vp__alloc(a, a->bytes)))
			return VP_ENOMEM;
		rc = vp_recv(a->c, a->r - 1, in, a->bytes);
		if (!rc)
			vp_reduce_local(in, a->rbuf, a->count, a->type, a->rop);
		free(in);
	}
	if (!rc && a->r + 1 < a->p)
		rc = vp_send(a->c, a->r + 1, a->rbuf, a->bytes);
	return rc;
}

const struct coll_algorithm vp__alg_scan_linear = {
	.op = VP_COLL_SCAN,
	.alg = VP_ALG_LINEAR,
	.run = run,
	.needs = NEED_ANY,
	.input = INPUT_IN_RBUF,
	.cost = vp__cost_bcast_linear,
};
