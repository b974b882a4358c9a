/*
 * allreduce_rabenseifner.c - all-reduce of long vectors: reduce-scatter by
 * recursive halving, then all-gather by recursive doubling (Rabenseifner).
 *
 * Source: Grama et al., sec. 4.7.3; Rabenseifner 2004;
 *         Thakur, Rabenseifner, Gropp 2005 for p not a power of two.
 * Cost:   T(p, m) = 2 ts log2 p + 2 tw*m (p - 1)/p   p a power of two,
 *         p | m; otherwise 2(ts + tw*m) more for the fix-up.
 * Steps:  fix-up in as in allreduce_hypercube.c, leaving p' = 2^k ranks;
 *         log2 p' halving steps (each rank ends with piece j of p' summed),
 *         log2 p' doubling steps (everyone gets every piece); fix-up out.
 *         Scratch: one vector.
 * Needs:  any p.
 * Differs from the book: nothing for p a power of two.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	struct chunks ch;
	struct fold f;
	struct view v;
	int *members;
	char *tmp;
	int j, rc;

	vp__fold_plan(a->p, a->r, &f);
	tmp = vp__alloc(a, a->bytes);
	members = tmp ? vp__alloc(a, (size_t)f.pof2 * sizeof(int)) : NULL;
	if (!members) {
		free(tmp);
		return VP_ENOMEM;
	}
	for (j = 0; j < f.pof2; j++)
		members[j] = vp__fold_rank(&f, j);
	v = (struct view){
		.c = a->c, .n = f.pof2, .me = f.me, .members = members
	};
	rc = vp__fold_in(a, &f, tmp);
	ch = (struct chunks){ a->count, a->esize, f.pof2 };
	if (!rc && v.me >= 0)
		rc = vp__reduce_scatter_halving_view(&v, a->rbuf, &ch, a->type,
						     a->rop);
	if (!rc && v.me >= 0)
		rc = vp__allgather_doubling_view(&v, a->rbuf, &ch, NULL);
	if (!rc)
		rc = vp__fold_out(a, &f);
	free(members);
	free(tmp);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	*exact = k->m_bytes % (size_t)k->pof2 == 0;
	return 2 * k->ts * vp__log2_ceil(k->pof2) +
	       2 * k->tw * k->m * (k->pof2 - 1) / k->pof2 +
	       (k->pof2 < k->p ? 2 * k->u : 0);
}

const struct coll_algorithm vp__alg_allreduce_rabenseifner = {
	.op = VP_COLL_ALLREDUCE,
	.alg = VP_ALG_RABENSEIFNER,
	.run = run,
	.needs = NEED_ANY,
	.input = INPUT_IN_RBUF,
	.cost = cost,
};
