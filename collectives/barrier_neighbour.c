/*
 * barrier_neighbour.c - the barrier of strict mode, where the
 * dissemination barrier's partners (rank +- 2^k) are not neighbours: an
 * all-reduce of nothing between neighbours.
 *
 * Source: Grama et al., sec. 4.3 (all-reduce; a barrier is an all-reduce
 *         without data), with the patterns of allreduce_neighbour.c and,
 *         on a hypercube, the dimension exchange of sec. 4.3 (Algorithm
 *         4.7's pattern).
 * Cost:   empty messages (ts each, th = 0):
 *           ring (n - 1) ts; line 2 ceil(p/2) ts;
 *           R x C grid: (A(C) + A(R)) ts, A of allreduce_neighbour.c;
 *           hypercube: log2 p ts.
 *         After it every rank has heard, directly or through neighbours,
 *         from every rank since that rank entered.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

int vp__barrier_neighbour(vp_comm *c, const struct layout *l)
{
	struct view v, row, col;
	int p = vp_size(c), r = vp_rank(c), d, rc;

	if (l->kind == LAYOUT_CUBE) {
		for (d = 1; d < p; d <<= 1)
			if ((rc = vp_sendrecv(c, r ^ d, NULL, 0, r ^ d, NULL,
					      0)))
				return rc;
		return VP_OK;
	}
	if (l->kind == LAYOUT_CHAIN) {
		vp__view_all(&v, c, 0);
		return vp__chain_allreduce_view(&v, l->wrap, NULL, NULL, 0,
						VP_BYTE, VP_SUM);
	}
	vp__view_strided(&row, c, (r / l->cols) * l->cols, 1, l->cols, 0);
	vp__view_strided(&col, c, r % l->cols, l->cols, l->rows, 0);
	rc = vp__chain_allreduce_view(&row, l->wrap, NULL, NULL, 0, VP_BYTE,
				      VP_SUM);
	return rc ? rc
		  : vp__chain_allreduce_view(&col, l->wrap, NULL, NULL, 0,
					     VP_BYTE, VP_SUM);
}
