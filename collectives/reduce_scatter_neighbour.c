/*
 * reduce_scatter_neighbour.c - all-to-all reduction between neighbours
 * only (strict mode), the dual of allgather_neighbour.c: on a chain
 * (chain_allgather.c), or columns reducing whole rows and then rows
 * reducing single blocks on a grid (reduce_scatter_mesh.c's phases).
 *
 * Source: Grama et al., sec. 4.2 (all-to-all reduction as the dual of
 *         all-to-all broadcast), store-and-forward.
 * Cost:   that of allgather_neighbour.c (combines are not charged):
 *           chain: G(p, m);  R x C grid: G(R, C m) + G(C, m)
 * Needs:  the world of a ring, line, fully connected, mesh or torus
 *         topology.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int run(const struct coll *a)
{
	struct layout l;
	struct view v;
	struct chunks ch;
	size_t all = (size_t)a->p * a->bytes;
	char *work;
	int rc;

	vp__layout(a->c, &l, NULL);
	if (l.kind == LAYOUT_GRID)
		return vp__reduce_scatter_grid(a, l.rows, l.cols, l.wrap);
	ch = (struct chunks){ (size_t)a->p * a->count, a->esize, a->p };
	work =
	    vp__alloc(a, all + vp__chain_reduce_scatter_scratch(l.wrap, &ch));
	if (!work)
		return VP_ENOMEM;
	memcpy(work, a->sbuf, all);
	vp__view_all(&v, a->c, 0);
	rc = vp__chain_reduce_scatter_view(&v, l.wrap, work, &ch, work + all,
					   a->type, a->rop);
	if (!rc)
		memcpy(a->rbuf, work + (size_t)a->r * a->bytes, a->bytes);
	free(work);
	return rc;
}

const struct coll_algorithm vp__alg_reduce_scatter_neighbour = {
	.op = VP_COLL_REDUCE_SCATTER,
	.alg = VP_ALG_NEIGHBOUR,
	.run = run,
	.needs = NEED_LAYOUT,
	.cost = vp__cost_allgather_neighbour,
};
