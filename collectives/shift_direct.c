/*
 * shift_direct.c - circular q-shift in one routed step: every rank sends
 * its block straight to r + q.
 *
 * Source: Grama et al., sec. 4.6.2: with cut-through routing a q-shift
 *         on a hypercube is one E-cube routed message per rank, and those
 *         routes share no link.
 * Cost:   T(p, m) = ts + tw*m   (+ th per hop); on other topologies the
 *         routes may share links (see max_link_load);
 *         bsp: l + m g, one superstep.
 * Steps:  one sendrecv: to r + q, from r - q. Scratch: none.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	int p = a->p, r = a->r;

	if (a->q == 0) {
		vp__copy(a->rbuf, a->sbuf, a->bytes);
		return VP_OK;
	}
	return vp_sendrecv(a->c, (int)((r + a->q) % p), a->sbuf, a->bytes,
			   (int)((r - a->q + p) % p), a->rbuf, a->bytes);
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return k->q ? k->u : 0;
}

/* bsp: one superstep, every rank sending and receiving m bytes. */
static double bsp_cost(const struct coll_cost *k, int *exact)
{
	*exact = 1;
	return k->l + (k->q ? k->m * k->g : 0);
}

const struct coll_algorithm vp__alg_shift_direct = {
	.op = VP_COLL_SHIFT,
	.alg = VP_ALG_DIRECT,
	.run = run,
	.needs = NEED_ANY,
	.cost = cost,
	.bsp_cost = bsp_cost,
};
