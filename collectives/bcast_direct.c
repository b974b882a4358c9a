/*
 * bcast_direct.c - one-to-all broadcast in two rounds: the root sends
 * chunk j of the message straight to rank j, then every rank sends its
 * chunk straight to every other (a direct scatter, then a direct
 * allgather).
 *
 * Source: the two-superstep broadcast of BSP, scatter then allgather
 *         (Valiant 1990); the direct form of van de Geijn's broadcast
 *         (Grama et al., sec. 4.7.1).
 * Cost:   bsp: 2l + 2(p - 1)(m/p) g, two supersteps (p | m);
 *         alpha-beta: 2(p - 1)(ts + tw*m/p) (an estimate: the allgather
 *         starts as the chunks arrive).
 * Steps:  1. the root sends chunk j to rank j, j = root+1, root+2, ...;
 *         2. vp__allgather_direct_view. Scratch: none.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	struct chunks ch = { a->count, a->esize, a->p };
	char *buf = a->rbuf;
	int j, rc = VP_OK;

	if (a->r == a->root)
		for (j = 1; j < a->p && !rc; j++) {
			int to = (a->root + j) % a->p;

			rc = vp_send(a->c, to, buf + vp__chunk_off(&ch, to),
				     vp__chunk_len(&ch, to));
		}
	else
		rc = vp_recv(a->c, a->root, buf + vp__chunk_off(&ch, a->r),
			     vp__chunk_len(&ch, a->r));
	if (!rc && vp__bsp(a->c))
		rc = vp_superstep(a->c);
	return rc ? rc : vp__allgather_direct_view(&a->v, a->rbuf, &ch);
}

const struct coll_algorithm vp__alg_bcast_direct = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_DIRECT,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ALL,
	.cost = vp__cost_direct_two_steps,
	.bsp_cost = vp__bsp_cost_two_steps,
};
