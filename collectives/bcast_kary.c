/*
 * bcast_kary.c - one-to-all broadcast by k-ary replication.
 *
 * Source: the k-ary tree broadcast (a k-nomial generalisation of the
 *         binomial tree; Chan et al. 2007 cost the family).
 * Cost:   T(p, m) = ceil(log_k p) (k - 1)(ts + tw*m)   single send port;
 *         exact when p is a power of k.
 * Steps:  in round j (s = k^j) the s holders v < s each send to
 *         v + s, v + 2s, ..., v + (k-1)s (those below p); scratch: none.
 * Needs:  any p; k >= 2 from vp_set_coll_params or vp_opts.kary (default 4).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static int run(const struct coll *a)
{
	long s, k;
	int kary, i, rc;

	vp_coll_params(a->c, &kary, NULL);
	k = kary;
	for (s = 1; s < a->v.n; s *= k) {
		if (a->v.me < s) {
			for (i = 1; i < k && a->v.me + i * s < a->v.n; i++)
				if ((rc = vp__vsend(&a->v,
						    (int)(a->v.me + i * s),
						    a->rbuf, a->bytes)))
					return rc;
		} else if (a->v.me < s * k) {
			if ((rc = vp__vrecv(&a->v, (int)(a->v.me % s), a->rbuf,
					    a->bytes)))
				return rc;
		}
	}
	return VP_OK;
}

/* The cost above, for vp_coll_formula. */
double vp__cost_bcast_kary(const struct coll_cost *k, int *exact)
{
	*exact = vp__is_power_of(k->p, k->kary);
	return vp__ceil_log(k->p, k->kary) * (k->kary - 1) * k->u;
}

const struct coll_algorithm vp__alg_bcast_kary = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_KARY,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_kary,
};
