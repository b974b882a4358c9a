/*
 * tree.c - the balanced binary tree with ranks at the leaves (Grama et
 * al., sec. 2.4.3, Fig. 2.22: a dynamic tree network, switches inside).
 *
 * Nodes: ranks are nodes 0..p-1; the p-1 switches are nodes p..2p-2 in heap
 * order (the switch with heap index h is node p + h - 1; the root switch
 * has h = 1; leaf rank r has heap index p + r). Two ranks are neighbours
 * when one switch joins them (siblings).
 * Routing: up to the lowest common switch, then down.
 * Links: each child-parent link is indexed 2 * child (up) or 2 * child + 1
 * (down).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "kinds.h"

static int setup(struct vp__topo *t, long a, long b, const char **why)
{
	(void)b;
	if (a & (a - 1)) {
		*why = "tree size not a power of two";
		return -1;
	}
	t->p = (int)a;
	while ((1 << t->dim) < t->p)
		t->dim++;
	t->nodes = 2 * t->p - 1;
	return 0;
}

static int is_neighbor(const struct vp__topo *t, int a, int b)
{
	(void)t;
	return (a >> 1) == (b >> 1);
}

static int candidates(const struct vp__topo *t, int r, int *cand)
{
	cand[0] = (r - 1 + t->p) % t->p;
	cand[1] = (r + 1) % t->p;
	return 2;
}

static int max_hops(const struct vp__topo *t)
{
	return 2 * t->dim;
}

/* The node number of heap index h. */
static int node_of(const struct vp__topo *t, int h)
{
	return h >= t->p ? h - t->p : t->p + h - 1;
}

static int route(const struct vp__topo *t, int a, int b, uint64_t *links,
		 int max)
{
	int ha = t->p + a, hb = t->p + b, up = 0, n = 0, i;
	int down[32];

	/* Heap indices climb until they meet at the common switch. */
	while (ha != hb) {
		vp__topo_hop(links, max, &n, node_of(t, ha),
			     t->p + (ha >> 1) - 1);
		down[up++] = hb;
		ha >>= 1;
		hb >>= 1;
	}
	/* Descend along b's ancestors, from the common switch. */
	for (i = up - 1; i >= 0; i--)
		vp__topo_hop(links, max, &n, t->p + (down[i] >> 1) - 1,
			     node_of(t, down[i]));
	return n;
}

static int distance(const struct vp__topo *t, int a, int b)
{
	int x, levels = 0;

	(void)t;
	/* levels up to the common switch: bit length of a ^ b */
	for (x = a ^ b; x; x >>= 1)
		levels++;
	return 2 * levels;
}

static size_t link_slots(const struct vp__topo *t)
{
	return 2 * (size_t)t->nodes;
}

static size_t link_index(const struct vp__topo *t, uint64_t link)
{
	int from = vp__link_from(link), to = vp__link_to(link);
	/* Leaves have no children; between two switches the child has the
	 * larger node number (a larger heap index). */
	int child = from < t->p || (to >= t->p && from > to) ? from : to;

	return 2 * (size_t)child + (child == from ? 0 : 1);
}

const struct vp__topo_class vp__topo_tree = {
	.kind = VP__TOPO_TREE,
	.name = "tree",
	.setup = setup,
	.is_neighbor = is_neighbor,
	.candidates = candidates,
	.max_hops = max_hops,
	.route = route,
	.distance = distance,
	.link_slots = link_slots,
	.link_index = link_index,
};
