/*
 * topology.h - interconnects as pure data: no threads, no allocation beyond
 * what the caller passes in. The runtime asks a topology three things: how
 * many ranks it has, whether two ranks share a link, and which directed links
 * a message from a to b crosses.
 *
 * Nodes: ranks are nodes 0..p-1. The tree adds its p-1 switches as nodes
 * p..2p-2 (heap order: switch with heap index h is node p + h - 1; the root
 * switch has h = 1, leaf rank r has heap index p + r). A directed link is the
 * pair (from node, to node), packed by vp__link().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_TOPOLOGY_H
#define VP_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

enum vp__topo_kind {
	VP__TOPO_RING,
	VP__TOPO_LINE,
	VP__TOPO_MESH,
	VP__TOPO_TORUS,
	VP__TOPO_HYPERCUBE,
	VP__TOPO_TREE,
	VP__TOPO_FULL,
};

struct vp__topo_class;

struct vp__topo {
	enum vp__topo_kind kind;
	const struct vp__topo_class *cls; /* the kind's descriptor (kinds.h) */
	int p;                            /* ranks */
	int nodes;                        /* ranks plus switches */
	int rows, cols; /* mesh and torus; rank = row * cols + col */
	int dim;        /* hypercube dimension, tree depth (log2 p) */
	char spec[64];  /* canonical spec, e.g. "mesh:3x4" */
};

/*
 * Parses spec into *t. Returns 0, or VP_EINVAL with a message in err (which
 * quotes the spec and lists the accepted forms).
 */
int vp__topo_parse(const char *spec, struct vp__topo *t, char *err,
		   size_t errlen);

/* Fills the public description (vp_topo_info, vp_topo_parse). */
struct vp_topo;
void vp__topo_describe(const struct vp__topo *t, struct vp_topo *out);

/* "ring", "mesh", ... */
const char *vp__topo_kind_name(enum vp__topo_kind kind);
/* 1 if the kind has wraparound links (ring, torus). */
int vp__topo_wraps(const struct vp__topo *t);

/* 1 if ranks a != b are joined by one physical link (tree: by one switch). */
int vp__topo_is_neighbor(const struct vp__topo *t, int a, int b);

/*
 * Neighbours of rank r in increasing order; writes at most max and returns
 * the total count (full:p has p-1).
 */
int vp__topo_neighbors(const struct vp__topo *t, int r, int *out, int max);

/* Largest route length in links, a bound for vp__topo_route's buffer. */
int vp__topo_max_hops(const struct vp__topo *t);

/*
 * The directed links a message from rank a to rank b crosses, in order.
 * Writes at most max and returns the route length (0 when a == b).
 */
int vp__topo_route(const struct vp__topo *t, int a, int b, uint64_t *links,
		   int max);

/* Route length in links, without building the route. */
int vp__topo_distance(const struct vp__topo *t, int a, int b);

/*
 * Dense numbering of directed links for per-link counters: every link of the
 * topology gets an index in [0, vp__topo_link_slots(t)). Full topologies have
 * p(p-1) links and return 0 slots: count them by sorting instead.
 */
size_t vp__topo_link_slots(const struct vp__topo *t);
size_t vp__topo_link_index(const struct vp__topo *t, uint64_t link);

static inline uint64_t vp__link(int from, int to)
{
	return ((uint64_t)(uint32_t)from << 32) | (uint32_t)to;
}
static inline int vp__link_from(uint64_t l)
{
	return (int)(l >> 32);
}
static inline int vp__link_to(uint64_t l)
{
	return (int)(uint32_t)l;
}

/* Gray-code embedding of a ring of 2^d nodes in a d-cube: ring position i
 * sits on cube node gray(i); vp__gray_inverse maps back. */
static inline int vp__gray(int i)
{
	return i ^ (i >> 1);
}
int vp__gray_inverse(int g);

#endif /* VP_TOPOLOGY_H */
