/*
 * ring.c - the ring and the linear array (Grama et al., sec. 2.4.3): p
 * ranks in a cycle, or in a row without the wraparound link.
 *
 * Routing: on the ring the shorter direction, a tie (p even, distance p/2)
 * clockwise, towards increasing rank; on the line the only path.
 * Links: rank r's two outgoing links are indexed 2r (towards r + 1) and
 * 2r + 1 (towards r - 1).
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

static int ring_neighbor(const struct vp__topo *t, int a, int b)
{
	return vp__iabs(vp__cyclic_steps(a, b, t->p)) == 1;
}

static int line_neighbor(const struct vp__topo *t, int a, int b)
{
	(void)t;
	return vp__iabs(a - b) == 1;
}

static int candidates(const struct vp__topo *t, int r, int *cand)
{
	cand[0] = (r - 1 + t->p) % t->p;
	cand[1] = (r + 1) % t->p;
	return 2;
}

static int ring_max_hops(const struct vp__topo *t)
{
	return t->p / 2;
}

static int line_max_hops(const struct vp__topo *t)
{
	return t->p - 1;
}

static int ring_route(const struct vp__topo *t, int a, int b, uint64_t *links,
		      int max)
{
	int n = 0, dir = vp__cyclic_steps(a, b, t->p) > 0 ? 1 : -1, cur;

	for (cur = a; cur != b; cur = (cur + dir + t->p) % t->p)
		vp__topo_hop(links, max, &n, cur, (cur + dir + t->p) % t->p);
	return n;
}

static int line_route(const struct vp__topo *t, int a, int b, uint64_t *links,
		      int max)
{
	int n = 0, dir = b > a ? 1 : -1, cur;

	(void)t;
	for (cur = a; cur != b; cur += dir)
		vp__topo_hop(links, max, &n, cur, cur + dir);
	return n;
}

static int ring_distance(const struct vp__topo *t, int a, int b)
{
	return vp__iabs(vp__cyclic_steps(a, b, t->p));
}

static int line_distance(const struct vp__topo *t, int a, int b)
{
	(void)t;
	return vp__iabs(a - b);
}

static size_t link_slots(const struct vp__topo *t)
{
	return 2 * (size_t)t->nodes;
}

static size_t link_index(const struct vp__topo *t, uint64_t link)
{
	int from = vp__link_from(link), to = vp__link_to(link);

	return 2 * (size_t)from + (to == (from + 1) % t->p ? 0 : 1);
}

const struct vp__topo_class vp__topo_ring = {
	.kind = VP__TOPO_RING,
	.name = "ring",
	.wraps = 1,
	.setup = setup,
	.is_neighbor = ring_neighbor,
	.candidates = candidates,
	.max_hops = ring_max_hops,
	.route = ring_route,
	.distance = ring_distance,
	.link_slots = link_slots,
	.link_index = link_index,
};

const struct vp__topo_class vp__topo_line = {
	.kind = VP__TOPO_LINE,
	.name = "line",
	.setup = setup,
	.is_neighbor = line_neighbor,
	.candidates = candidates,
	.max_hops = line_max_hops,
	.route = line_route,
	.distance = line_distance,
	.link_slots = link_slots,
	.link_index = link_index,
};
