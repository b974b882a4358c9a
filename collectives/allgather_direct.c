/*
 * allgather_direct.c - all-to-all broadcast in one round: every rank sends
 * its block straight to every other rank.
 *
 * Source: the one-superstep allgather of BSP with h = p (Valiant 1990; the
 *         direct algorithm of Bruck et al. 1997's "linear" baseline).
 * Cost:   T(p, m) = (ts + tw*m)(p - 1) in alpha-beta (the sends leave one
 *         after another through the single port, the receives come in
 *         as the other ranks' sends reach them);
 *         bsp: l + (p - 1) m g, one superstep.
 * Steps:  rank r posts receives from r - 1, r - 2, ... and sends to
 *         r + 1, r + 2, ..., then waits for all. Scratch: 2(p - 1)
 *         requests.
 * Needs:  any p. With k ports (the multi-port model) the sends overlap:
 *         ceil((p - 1)/k)(ts + tw*m).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

int vp__allgather_direct_view(const struct view *v, void *buf,
			      const struct chunks *ch)
{
	int n = v->n, me = v->me, s, k = 0, rc = VP_OK;
	vp_request *req;

	if (n < 2)
		return VP_OK;
	if (!(req = malloc(2 * (size_t)(n - 1) * sizeof(*req))))
		return vp_abort(v->c, VP_ENOMEM, "allgather",
				"no memory for %d requests", 2 * (n - 1));
	for (s = 1; s < n && !rc; s++) {
		int from = (me - s + n) % n;

		rc = vp_irecv(v->c, vp__view_rank(v, from), 0,
			      (char *)buf + vp__chunk_off(ch, from),
			      vp__chunk_len(ch, from), &req[k++]);
	}
	for (s = 1; s < n && !rc; s++)
		rc = vp_isend(v->c, vp__view_rank(v, (me + s) % n), 0,
			      (char *)buf + vp__chunk_off(ch, me),
			      vp__chunk_len(ch, me), &req[k++]);
	if (!rc)
		rc = vp_waitall(k, req, NULL);
	free(req);
	return rc;
}

static int run(const struct coll *a)
{
	struct chunks ch = { a->count * (size_t)a->p, a->esize, a->p };

	return vp__allgather_direct_view(&a->v, a->rbuf, &ch);
}

static double cost(const struct coll_cost *k, int *exact)
{
	*exact = 1;
	return (k->P - 1) * k->u;
}

double vp__bsp_cost_one_step(const struct coll_cost *k, int *exact)
{
	*exact = 1;
	return k->l + (k->P - 1) * k->m * k->g;
}

double vp__cost_direct_two_steps(const struct coll_cost *k, int *exact)
{
	*exact = 0;
	return 2 * (k->P - 1) * (k->ts + k->tw * k->m / k->P);
}

double vp__bsp_cost_two_steps(const struct coll_cost *k, int *exact)
{
	*exact = k->divides;
	return 2 * k->l + 2 * (k->P - 1) * (k->m / k->P) * k->g;
}

const struct coll_algorithm vp__alg_allgather_direct = {
	.op = VP_COLL_ALLGATHER,
	.alg = VP_ALG_DIRECT,
	.run = run,
	.needs = NEED_ANY,
	.input = INPUT_OWN_BLOCK,
	.view = VIEW_ALL,
	.cost = cost,
	.bsp_cost = vp__bsp_cost_one_step,
};
