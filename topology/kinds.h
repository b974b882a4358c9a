/*
 * kinds.h - what each kind of interconnect tells topology.c: one
 * descriptor per kind, each in its own file (ring.c holds the ring and the
 * line, mesh.c the mesh and the torus). Adding a kind is one file and one
 * line in topology.c's table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_TOPOLOGY_KINDS_H
#define VP_TOPOLOGY_KINDS_H

#include "topology.h"

struct vp__topo_class {
	enum vp__topo_kind kind;
	const char *name;   /* the spec's prefix, "ring" */
	int two_dims;       /* the spec's size is RxC */
	int size_is_dim;    /* the spec's size is a dimension d, p = 2^d */
	int wraps;          /* wraparound links (ring, torus) */
	int max_candidates; /* bound on candidates() (default 4) */
	/* Fills p (and rows, cols, dim, nodes) from the spec's numbers a (and
	 * b for RxC); 0, or -1 with *why set. */
	int (*setup)(struct vp__topo *t, long a, long b, const char **why);
	int (*is_neighbor)(const struct vp__topo *t, int a, int b);
	/* Ranks that may be neighbours of r (filtered by is_neighbor, sorted
	 * and deduplicated by the caller); NULL: every other rank. */
	int (*candidates)(const struct vp__topo *t, int r, int *cand);
	int (*max_hops)(const struct vp__topo *t);
	int (*route)(const struct vp__topo *t, int a, int b, uint64_t *links,
		     int max);
	int (*distance)(const struct vp__topo *t, int a, int b);
	size_t (*link_slots)(const struct vp__topo *t);
	size_t (*link_index)(const struct vp__topo *t, uint64_t link);
};

extern const struct vp__topo_class vp__topo_ring, vp__topo_line, vp__topo_mesh,
    vp__topo_torus, vp__topo_hypercube, vp__topo_tree, vp__topo_full;

static inline int vp__iabs(int x)
{
	return x < 0 ? -x : x;
}

/* Signed steps along a cycle of n from a to b: shorter way, ties forward. */
static inline int vp__cyclic_steps(int a, int b, int n)
{
	int fwd = ((b - a) % n + n) % n;

	return fwd <= n - fwd ? fwd : fwd - n;
}

/* Appends a link to a route, counting links that do not fit. */
static inline void vp__topo_hop(uint64_t *links, int max, int *n, int from,
				int to)
{
	if (*n < max)
		links[*n] = vp__link(from, to);
	(*n)++;
}

#endif /* VP_TOPOLOGY_KINDS_H */
