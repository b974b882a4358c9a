/*
 * scan_direct.c - inclusive prefix reduction in one round: every rank
 * sends its vector straight to every rank above it, and rank r reduces
 * the r + 1 vectors of ranks 0..r in rank order.
 *
 * Source: the one-superstep prefix sum of BSP with h = p (Valiant 1990).
 * Cost:   bsp: l + (p - 1) m g, one superstep (rank 0 sends, rank p-1
 *         receives (p - 1) m bytes);
 *         alpha-beta: (p - 1)(ts + tw*m) (rank p-1 takes p - 1 messages
 *         through its single receive port; rank 0's sends leave one after
 *         another).
 * Steps:  rank r sends its input to r+1, ..., p-1 (isends), receives the
 *         inputs of r-1, ..., 0 in that order (the order they arrive) and
 *         folds each into its own. Scratch: the vector (and a copy of the
 *         input to send from).
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static size_t scratch(const struct coll *a)
{
	return a->bytes;
}

static int run(const struct coll *a)
{
	int p = a->p, r = a->r, j, k = 0, rc = VP_OK;
	vp_request *req = NULL;
	const void *out = a->rbuf;
	char *own = NULL;

	if (r + 1 < p && !(req = malloc((size_t)(p - r - 1) * sizeof(*req))))
		return vp_abort(a->c, VP_ENOMEM, "scan",
				"no memory for %d requests", p - r - 1);
	/* rbuf holds our input (INPUT_IN_RBUF) and becomes the prefix while
	 * the sends may still read: they send a copy */
	if (r > 0 && r + 1 < p) {
		if (!(own = vp__alloc(a, a->bytes)))
			rc = VP_ENOMEM;
		else
			out = memcpy(own, a->rbuf, a->bytes);
	}
	for (j = r + 1; j < p && !rc; j++)
		rc = vp_isend(a->c, j, 0, out, a->bytes, &req[k++]);
	/* rank j's message to r is its (r - j)th send: the nearest first */
	for (j = r - 1; j >= 0 && !rc; j--) {
		rc = vp_recv(a->c, j, a->scratch, a->bytes);
		if (!rc)
			vp_reduce_local(a->scratch, a->rbuf, a->count, a->type,
					a->rop);
	}
	if (k)
		rc = vp_waitall(k, req, NULL) ?: rc;
	free(own);
	free(req);
	return rc;
}

static double cost(const struct coll_cost *k, int *exact)
{
	*exact = 1;
	return (k->P - 1) * k->u;
}

const struct coll_algorithm vp__alg_scan_direct = {
	.op = VP_COLL_SCAN,
	.alg = VP_ALG_DIRECT,
	.run = run,
	.needs = NEED_ANY,
	.input = INPUT_IN_RBUF,
	.scratch = scratch,
	.cost = cost,
	.bsp_cost = vp__bsp_cost_one_step,
};
