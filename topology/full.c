/*
 * full.c - the fully connected network (Grama et al., sec. 2.4.3): a
 * direct link between every pair of ranks.
 *
 * Routing: one link. Links: p(p-1) of them, too many for per-link
 * counters, so link_slots is 0 and link loads are counted by sorting
 * (runtime/model/load.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "kinds.h"

static int setup(struct vp__topo *t, long a, long b, const char **why)
{
	(void)b;
	(void)why;
	t->p = (int)a;
	return 0;
}

static int is_neighbor(const struct vp__topo *t, int a, int b)
{
	(void)t;
	(void)a;
	(void)b;
	return 1;
}

static int max_hops(const struct vp__topo *t)
{
	(void)t;
	return 1;
}

static int route(const struct vp__topo *t, int a, int b, uint64_t *links,
		 int max)
{
	int n = 0;

	(void)t;
	vp__topo_hop(links, max, &n, a, b);
	return n;
}

static int distance(const struct vp__topo *t, int a, int b)
{
	(void)t;
	(void)a;
	(void)b;
	return 1;
}

static size_t link_slots(const struct vp__topo *t)
{
	(void)t;
	return 0;
}

static size_t link_index(const struct vp__topo *t, uint64_t link)
{
	(void)t;
	(void)link;
	return 0;
}

const struct vp__topo_class vp__topo_full = {
	.kind = VP__TOPO_FULL,
	.name = "full",
	.setup = setup,
	.is_neighbor = is_neighbor,
	.candidates = NULL, /* every other rank: see vp__topo_neighbors */
	.max_hops = max_hops,
	.route = route,
	.distance = distance,
	.link_slots = link_slots,
	.link_index = link_index,
};
