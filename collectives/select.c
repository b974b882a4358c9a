/*
 * select.c - what VP_ALG_AUTO runs, and why.
 *
 * On the whole world (the communicator is every rank in rank order) the
 * book's algorithm for the topology is chosen where it applies: hypercube
 * algorithms on a hypercube, mesh algorithms on a mesh or torus, ring
 * algorithms on a ring, the leaf tree on a tree. Elsewhere (fully connected,
 * sub-communicators, p the topology's algorithm cannot take) general
 * algorithms that run on any p are chosen by message size, as MPICH does:
 * latency-bound trees and recursive doubling for short messages,
 * bandwidth-bound two-phase and ring algorithms for long ones.
 */
#include <stdio.h>
#include <string.h>

#include "coll.h"

/* At or above this many bytes per rank a message counts as long. */
#define LONG_MSG ((size_t)64 * 1024)

static __thread char reason[200];
static __thread struct {
	const char *fmt, *a;
	int p;
	size_t bytes;
} last; /* what reason holds: repeated calls skip the formatting */

static vp_alg pick(vp_alg alg, const char *fmt, const char *a, int p,
		   size_t bytes)
{
	if (fmt != last.fmt || a != last.a || p != last.p ||
	    bytes != last.bytes) {
		snprintf(reason, sizeof(reason), fmt, a, p, bytes);
		last.fmt = fmt;
		last.a = a;
		last.p = p;
		last.bytes = bytes;
	}
	return alg;
}

vp_alg vp_coll_choose(vp_comm *c, vp_coll op, size_t bytes, const char **why)
{
	const char *kind, *nogrid;
	int p = vp_size(c), world = vp__is_world(c), rows, cols;
	int pow2 = vp__is_pow2(p), longm = bytes >= LONG_MSG;
	int cube, grid, ring, tree;
	vp_topo t;

	vp_topo_info(c, &t);
	kind = t.name;
	cube = world && t.kind == VP_TOPO_HYPERCUBE;
	grid = world && t.ndims == 2 && !vp__grid(c, &rows, &cols, &nogrid);
	ring = world && (t.kind == VP_TOPO_RING || t.kind == VP_TOPO_LINE);
	tree = world && t.kind == VP_TOPO_TREE;
	const char *topo = "%s: the book's algorithm for this topology "
			   "(p=%d, %zu bytes)";
	const char *gen = "%s: general algorithm for %d ranks and %zu-byte "
			  "messages";
	vp_alg alg = VP_ALG_BINOMIAL;

	if (!world)
		kind = "sub-communicator";
	else if (t.kind == VP_TOPO_FULL)
		kind = "fully connected";
	switch (op) {
	case VP_COLL_BCAST:
	case VP_COLL_REDUCE:
		if (cube)
			alg = pick(VP_ALG_HYPERCUBE, topo, kind, p, bytes);
		else if (grid)
			alg = pick(VP_ALG_MESH, topo, kind, p, bytes);
		else if (tree)
			alg = pick(VP_ALG_TREE, topo, kind, p, bytes);
		else if (ring && pow2)
			alg = pick(VP_ALG_HYPERCUBE,
				   "%s: recursive doubling, the book's "
				   "algorithm (p=%d, %zu bytes)",
				   kind, p, bytes);
		else if (longm && p > 2)
			alg = pick(op == VP_COLL_BCAST
				       ? VP_ALG_SCATTER_ALLGATHER
				       : VP_ALG_REDUCE_SCATTER_GATHER,
				   gen, kind, p, bytes);
		else
			alg = pick(VP_ALG_BINOMIAL, gen, kind, p, bytes);
		break;
	case VP_COLL_ALLREDUCE:
		if (ring)
			alg = pick(VP_ALG_RING, topo, kind, p, bytes);
		else if (cube && !longm)
			alg = pick(VP_ALG_HYPERCUBE, topo, kind, p, bytes);
		else if (longm && p > 2)
			alg = pick(VP_ALG_RABENSEIFNER, gen, kind, p, bytes);
		else
			alg = pick(VP_ALG_RECURSIVE_DOUBLING, gen, kind, p,
				   bytes);
		break;
	case VP_COLL_ALLGATHER:
	case VP_COLL_REDUCE_SCATTER:
		if (ring)
			alg = pick(VP_ALG_RING, topo, kind, p, bytes);
		else if (grid)
			alg = pick(VP_ALG_MESH, topo, kind, p, bytes);
		else if (cube || pow2)
			alg = pick(VP_ALG_HYPERCUBE,
				   cube ? topo
					: "%s: recursive doubling "
					  "(p=%d a power of two, %zu "
					  "bytes)",
				   kind, p, bytes);
		else if (op == VP_COLL_ALLGATHER && bytes * p < LONG_MSG)
			alg = pick(VP_ALG_BRUCK, gen, kind, p, bytes);
		else
			alg = pick(VP_ALG_RING, gen, kind, p, bytes);
		break;
	case VP_COLL_SCAN:
		if (cube)
			alg = pick(VP_ALG_HYPERCUBE, topo, kind, p, bytes);
		else if (ring && vp_strict(c))
			alg = pick(VP_ALG_LINEAR,
				   "%s, strict mode: the chain i -> i+1, the "
				   "only scan between neighbours (p=%d, %zu "
				   "bytes)",
				   kind, p, bytes);
		else
			alg = pick(VP_ALG_RECURSIVE_DOUBLING, gen, kind, p,
				   bytes);
		break;
	case VP_COLL_SCATTER:
	case VP_COLL_GATHER:
		alg = pick(VP_ALG_BINOMIAL,
			   world && t.kind != VP_TOPO_FULL
			       ? "%s: recursive halving, the book's "
				 "algorithm (p=%d, %zu bytes)"
			       : gen,
			   kind, p, bytes);
		break;
	case VP_COLL_ALLTOALL:
		if (ring)
			alg = pick(VP_ALG_RING, topo, kind, p, bytes);
		else if (grid)
			alg = pick(VP_ALG_MESH, topo, kind, p, bytes);
		else if (cube)
			alg = pick(longm ? VP_ALG_PAIRWISE : VP_ALG_HYPERCUBE,
				   longm ? "%s: the XOR pairwise exchange, "
					   "congestion-free (p=%d, %zu bytes)"
					 : topo,
				   kind, p, bytes);
		else if (bytes * p < LONG_MSG)
			alg = pick(VP_ALG_BRUCK, gen, kind, p, bytes);
		else
			alg = pick(VP_ALG_PAIRWISE, gen, kind, p, bytes);
		break;
	case VP_COLL_SHIFT:
		if (ring)
			alg = pick(VP_ALG_RING, topo, kind, p, bytes);
		else if (grid)
			alg = pick(VP_ALG_MESH, topo, kind, p, bytes);
		else
			alg = pick(VP_ALG_DIRECT,
				   cube ? "%s: one E-cube routed step, "
					  "congestion-free (p=%d, %zu bytes)"
					: gen,
				   kind, p, bytes);
		break;
	case VP_COLL_COUNT_:
		break;
	}
	if (why)
		*why = reason;
	return alg;
}
