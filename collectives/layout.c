/*
 * layout.c - how the neighbour-only algorithms see the topology (coll.h,
 * struct layout): a chain, a grid or a hypercube of the world's ranks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

static void layout_of(const vp_topo *t, struct layout *l, const char **why)
{
	*l = (struct layout){ LAYOUT_NONE, 0, 0, 0 };
	switch (t->kind) {
	case VP_TOPO_RING:
	case VP_TOPO_FULL:
		l->kind = LAYOUT_CHAIN;
		l->wrap = 1;
		break;
	case VP_TOPO_LINE:
		l->kind = LAYOUT_CHAIN;
		break;
	case VP_TOPO_MESH:
	case VP_TOPO_TORUS:
		l->kind = LAYOUT_GRID;
		l->wrap = t->kind == VP_TOPO_TORUS;
		l->rows = t->dims[0];
		l->cols = t->dims[1];
		break;
	case VP_TOPO_HYPERCUBE:
		l->kind = LAYOUT_CUBE;
		break;
	case VP_TOPO_TREE:
		if (why)
			*why = "no two leaves of a tree share a link (the "
			       "tree's collectives are its tree algorithms)";
		break;
	}
}

void vp__layout(vp_comm *c, struct layout *l, const char **why)
{
	vp_topo t;

	if (!vp__is_world(c)) {
		*l = (struct layout){ LAYOUT_NONE, 0, 0, 0 };
		if (why)
			*why = "neighbour-only algorithms run on the whole "
			       "world in rank order, not a sub-communicator";
		return;
	}
	vp_topo_info(c, &t);
	layout_of(&t, l, why);
}

void vp__layout_of_spec(const char *topology, int p, struct layout *l)
{
	vp_topo t;

	*l = (struct layout){ LAYOUT_NONE, 0, 0, 0 };
	if (topology && !vp_topo_parse(topology, &t, NULL, 0) && t.p == p)
		layout_of(&t, l, NULL);
}

void vp__grid_views(const struct coll *a, const struct layout *l,
		    struct view *row, struct view *col)
{
	vp__view_strided(row, a->c, (a->r / l->cols) * l->cols, 1, l->cols, 0);
	vp__view_strided(col, a->c, a->r % l->cols, l->cols, l->rows, 0);
}
