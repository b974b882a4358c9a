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
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	int p = a->p, r = a->r, pof2 = 1, rem, j, rc = VP_OK;
	struct chunks ch;
	struct view v;
	int *members;
	char *tmp;

	while (pof2 * 2 <= p)
		pof2 *= 2;
	rem = p - pof2;
	tmp = vp__alloc(a, a->bytes);
	members = tmp ? vp__alloc(a, (size_t)pof2 * sizeof(int)) : NULL;
	if (!members) {
		free(tmp);
		return VP_ENOMEM;
	}
	vp__copy(a->rbuf, a->sbuf, a->bytes);
	/* the p' ranks that take part: the odd ones below 2 rem, then all */
	for (j = 0; j < pof2; j++)
		members[j] = j < rem ? 2 * j + 1 : j + rem;
	v = (struct view){.c = a->c, .n = pof2, .members = members};
	v.me = r < 2 * rem ? (r % 2 ? r / 2 : -1) : r - rem;
	if (r < 2 * rem && r % 2 == 0) {
		rc = vp_send(a->c, r + 1, a->rbuf, a->bytes);
	} else if (r < 2 * rem) {
		rc = vp_recv(a->c, r - 1, tmp, a->bytes);
		if (!rc)
			vp_reduce_local(tmp, a->rbuf, a->count, a->type,
					a->rop);
	}
	ch = (struct chunks){a->count, a->esize, pof2};
	if (!rc && v.me >= 0)
		rc = vp__reduce_scatter_halving_view(&v, a->rbuf, &ch, tmp,
						     a->type, a->rop);
	if (!rc && v.me >= 0)
		rc = vp__allgather_doubling_view(&v, a->rbuf, &ch);
	if (!rc && r < 2 * rem) {
		if (r % 2)
			rc = vp_send(a->c, r - 1, a->rbuf, a->bytes);
		else
			rc = vp_recv(a->c, r + 1, a->rbuf, a->bytes);
	}
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
    .cost = cost,
};
