/*
 * allreduce_direct.c - all-reduce in two rounds: a direct reduce-scatter
 * of the vector's p chunks, then a direct allgather of them.
 *
 * Source: the two-superstep allreduce of BSP (reduce-scatter, then
 *         allgather; Valiant 1990), the direct version of Rabenseifner's
 *         reduce-scatter + allgather (Rabenseifner 2004).
 * Cost:   bsp: 2l + 2(p - 1)(m/p) g, two supersteps (p | m);
 *         alpha-beta: 2(p - 1)(ts + tw*m/p) (an estimate: the two rounds
 *         overlap where ranks finish the first at different times).
 * Steps:  1. in step s = 1 .. p-1 rank r sends chunk r + s to rank r + s
 *         and adds chunk r of rank r - s into its own (vp_sendrecv);
 *         2. vp__allgather_direct_view. Scratch: the largest chunk.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__reduce_scatter_direct_view(const struct view *v, void *buf,
				   const struct chunks *ch, void *tmp,
				   vp_type t, vp_op op)
{
	int n = v->n, me = v->me, s, rc;
	char *b = buf;

	for (s = 1; s < n; s++) {
		int to = (me + s) % n, from = (me - s + n) % n;
		size_t mine = vp__chunk_len(ch, me);

		rc = vp_sendrecv(v->c, vp__view_rank(v, to),
				 b + vp__chunk_off(ch, to),
				 vp__chunk_len(ch, to), vp__view_rank(v, from),
				 tmp, mine);
		if (rc)
			return rc;
		vp_reduce_local(tmp, b + vp__chunk_off(ch, me),
				mine / vp_type_size(t), t, op);
	}
	return VP_OK;
}

static size_t scratch(const struct coll *a)
{
	return (a->count / (size_t)a->p + 1) * a->esize;
}

static int run(const struct coll *a)
{
	struct chunks ch = { a->count, a->esize, a->p };
	int rc;

	rc = vp__reduce_scatter_direct_view(&a->v, a->rbuf, &ch, a->scratch,
					    a->type, a->rop);
	if (!rc && vp__bsp(a->c))
		rc = vp_superstep(a->c);
	return rc ? rc : vp__allgather_direct_view(&a->v, a->rbuf, &ch);
}

const struct coll_algorithm vp__alg_allreduce_direct = {
	.op = VP_COLL_ALLREDUCE,
	.alg = VP_ALG_DIRECT,
	.run = run,
	.needs = NEED_ANY,
	.input = INPUT_IN_RBUF,
	.view = VIEW_ALL,
	.scratch = scratch,
	.cost = vp__cost_direct_two_steps,
	.bsp_cost = vp__bsp_cost_two_steps,
};
