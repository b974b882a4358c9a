/*
 * reduce_kary.c - all-to-one reduction by k-ary combining, the dual of
 * bcast_kary.c.
 *
 * Source: the dual of the k-ary tree broadcast (bcast_kary.c).
 * Cost:   T(p, m) = ceil(log_k p)(k - 1)(ts + tw*m)   one receive port
 * Steps:  the rounds of bcast_kary.c, last first: in the round with stride
 *         s, ranks v in [s, ks) send their partial vector to v mod s, which
 *         adds the k - 1 it receives. Scratch: one or two vectors.
 * Needs:  any p; k as for bcast_kary.c.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

static int run(const struct coll *a)
{
	long s, k;
	char *acc, *tmp;
	int kary, i, rc = vp__reduce_bufs(a, a->bytes, &acc, &tmp);

	if (rc)
		return rc;
	vp_coll_params(a->c, &kary, NULL);
	k = kary;
	for (s = 1; s * k < a->v.n; s *= k)
		; /* s: the stride of the last broadcast round */
	for (; s >= 1 && !rc; s /= k) {
		if (a->v.me >= s && a->v.me < s * k) {
			rc =
			    vp__vsend(&a->v, (int)(a->v.me % s), acc, a->bytes);
			break;
		}
		if (a->v.me >= s)
			continue;
		for (i = 1; i < k && a->v.me + i * s < a->v.n && !rc; i++) {
			rc = vp__vrecv(&a->v, (int)(a->v.me + i * s), tmp,
				       a->bytes);
			if (!rc)
				vp_reduce_local(tmp, acc, a->count, a->type,
						a->rop);
		}
	}
	vp__reduce_bufs_free(a, acc, tmp);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_kary = {
	.op = VP_COLL_REDUCE,
	.alg = VP_ALG_KARY,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_kary,
};
