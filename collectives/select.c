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
 * bandwidth-bound two-phase and ring algorithms for long ones. Under the
 * bsp cost model the BSP algorithms are chosen: each sends straight to its
 * targets, one superstep (two for bcast, reduce, allreduce). In strict mode
 * every message must go to a neighbour: the neighbour-only algorithms on
 * rings, lines, meshes and tori, the book's hypercube algorithms (and the
 * neighbour shift) on a hypercube.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "coll.h"

/* At or above this many bytes per rank a message counts as long. */
#define LONG_MSG ((size_t)64 * 1024)

/* "auto: " and the reason: vp_coll_choose's why points past the prefix,
 * dispatch's trace and log note the whole (no copy, no compare) */
#define AUTO_PREFIX "auto: "
static __thread char auto_reason[208] = AUTO_PREFIX;
#define REASON (auto_reason + sizeof(AUTO_PREFIX) - 1)
static __thread struct {
	const char *fmt, *a;
	int p;
	size_t bytes;
	unsigned gen; /* how many times REASON was written */
} last; /* what REASON holds: repeated calls skip the formatting */

static vp_alg pick(vp_alg alg, const char *fmt, const char *a, int p,
		   size_t bytes)
{
	if (fmt != last.fmt || a != last.a || p != last.p ||
	    bytes != last.bytes) {
		snprintf(REASON,
			 sizeof(auto_reason) - (sizeof(AUTO_PREFIX) - 1), fmt,
			 a, p, bytes);
		last.fmt = fmt;
		last.a = a;
		last.p = p;
		last.bytes = bytes;
		last.gen++;
	}
	return alg;
}

/* The facts about a call that AUTO's rules test. */
enum when {
	ALWAYS,
	CUBE,        /* the world of a hypercube */
	CUBE_SHORT,  /* ... and a short message */
	CUBE_LONG,   /* ... and a long one */
	GRID,        /* the world of a mesh or torus with its grid */
	TREE,        /* the world of a tree */
	RING,        /* the world of a ring or line */
	RING_POW2,   /* ... with p a power of two */
	POW2,        /* p a power of two */
	PLACED,      /* the world of any topology but the full one */
	LONG_P3,     /* a long message and p > 2 */
	SMALL_TOTAL, /* p > 2 blocks together are short */
	BSP,         /* the bsp cost model */
	LOGP_SHORT,  /* logp, or loggp and a short message */
	NEIGHBOURS,  /* strict mode on the world of a ring, line, mesh or
		      * torus */
	STRICT_CUBE, /* strict mode on the world of a hypercube */
};

/* The reasons, "%s" the kind of communicator, then p and the bytes. */
static const char TOPO[] = "%s: the book's algorithm for this topology "
			   "(p=%d, %zu bytes)";
static const char GEN[] = "%s: general algorithm for %d ranks and %zu-byte "
			  "messages";
static const char DOUBLING[] = "%s: recursive doubling, the book's "
			       "algorithm (p=%d, %zu bytes)";
static const char DOUBLING_POW2[] = "%s: recursive doubling (p=%d a power "
				    "of two, %zu bytes)";
static const char STRICT[] = "%s, strict mode: neighbour-only, "
			     "store-and-forward (p=%d, %zu bytes)";
static const char STRICT_TOPO[] = "%s, strict mode: the book's algorithm "
				  "for this topology, neighbour-only (p=%d, "
				  "%zu bytes)";
static const char HALVING[] = "%s: recursive halving, the book's algorithm "
			      "(p=%d, %zu bytes)";
static const char XOR[] = "%s: the XOR pairwise exchange, congestion-free "
			  "(p=%d, %zu bytes)";
static const char ECUBE[] = "%s: one E-cube routed step, congestion-free "
			    "(p=%d, %zu bytes)";

static const char SUPERSTEP[] = "%s, bsp: straight to the targets, in as "
				"few supersteps as the operation allows "
				"(p=%d, %zu bytes)";

static const char GREEDY[] = "%s, logp: the optimal tree of Karp et al. "
			     "(p=%d, %zu bytes)";

/* AUTO's rules: for each operation, the first rule whose condition holds
 * picks the algorithm; every operation ends with an ALWAYS rule. */
static const struct rule {
	vp_coll op;
	enum when when;
	vp_alg alg;
	const char *reason;
} rules[] = {
	{ VP_COLL_BCAST, BSP, VP_ALG_DIRECT, SUPERSTEP },
	{ VP_COLL_BCAST, LOGP_SHORT, VP_ALG_GREEDY, GREEDY },
	{ VP_COLL_REDUCE, BSP, VP_ALG_DIRECT, SUPERSTEP },
	{ VP_COLL_ALLREDUCE, BSP, VP_ALG_DIRECT, SUPERSTEP },
	{ VP_COLL_ALLGATHER, BSP, VP_ALG_DIRECT, SUPERSTEP },
	{ VP_COLL_REDUCE_SCATTER, BSP, VP_ALG_PAIRWISE, SUPERSTEP },
	{ VP_COLL_SCAN, BSP, VP_ALG_DIRECT, SUPERSTEP },
	{ VP_COLL_SCATTER, BSP, VP_ALG_LINEAR, SUPERSTEP },
	{ VP_COLL_GATHER, BSP, VP_ALG_LINEAR, SUPERSTEP },
	{ VP_COLL_ALLTOALL, BSP, VP_ALG_PAIRWISE, SUPERSTEP },
	{ VP_COLL_SHIFT, BSP, VP_ALG_DIRECT, SUPERSTEP },
	{ VP_COLL_BCAST, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_REDUCE, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_ALLREDUCE, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_ALLGATHER, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_REDUCE_SCATTER, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_SCAN, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_SCATTER, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_GATHER, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_ALLTOALL, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_SHIFT, NEIGHBOURS, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_SHIFT, STRICT_CUBE, VP_ALG_NEIGHBOUR, STRICT },
	{ VP_COLL_ALLREDUCE, STRICT_CUBE, VP_ALG_HYPERCUBE, STRICT_TOPO },
	{ VP_COLL_ALLTOALL, STRICT_CUBE, VP_ALG_HYPERCUBE, STRICT_TOPO },
	{ VP_COLL_BCAST, CUBE, VP_ALG_HYPERCUBE, TOPO },
	{ VP_COLL_BCAST, GRID, VP_ALG_MESH, TOPO },
	{ VP_COLL_BCAST, TREE, VP_ALG_TREE, TOPO },
	{ VP_COLL_BCAST, RING_POW2, VP_ALG_HYPERCUBE, DOUBLING },
	{ VP_COLL_BCAST, LONG_P3, VP_ALG_SCATTER_ALLGATHER, GEN },
	{ VP_COLL_BCAST, ALWAYS, VP_ALG_BINOMIAL, GEN },
	{ VP_COLL_REDUCE, CUBE, VP_ALG_HYPERCUBE, TOPO },
	{ VP_COLL_REDUCE, GRID, VP_ALG_MESH, TOPO },
	{ VP_COLL_REDUCE, TREE, VP_ALG_TREE, TOPO },
	{ VP_COLL_REDUCE, RING_POW2, VP_ALG_HYPERCUBE, DOUBLING },
	{ VP_COLL_REDUCE, LONG_P3, VP_ALG_REDUCE_SCATTER_GATHER, GEN },
	{ VP_COLL_REDUCE, ALWAYS, VP_ALG_BINOMIAL, GEN },
	{ VP_COLL_ALLREDUCE, RING, VP_ALG_RING, TOPO },
	{ VP_COLL_ALLREDUCE, CUBE_SHORT, VP_ALG_HYPERCUBE, TOPO },
	{ VP_COLL_ALLREDUCE, LONG_P3, VP_ALG_RABENSEIFNER, GEN },
	{ VP_COLL_ALLREDUCE, ALWAYS, VP_ALG_RECURSIVE_DOUBLING, GEN },
	{ VP_COLL_ALLGATHER, RING, VP_ALG_RING, TOPO },
	{ VP_COLL_ALLGATHER, GRID, VP_ALG_MESH, TOPO },
	{ VP_COLL_ALLGATHER, CUBE, VP_ALG_HYPERCUBE, TOPO },
	{ VP_COLL_ALLGATHER, POW2, VP_ALG_HYPERCUBE, DOUBLING_POW2 },
	{ VP_COLL_ALLGATHER, SMALL_TOTAL, VP_ALG_BRUCK, GEN },
	{ VP_COLL_ALLGATHER, ALWAYS, VP_ALG_RING, GEN },
	{ VP_COLL_REDUCE_SCATTER, RING, VP_ALG_RING, TOPO },
	{ VP_COLL_REDUCE_SCATTER, GRID, VP_ALG_MESH, TOPO },
	{ VP_COLL_REDUCE_SCATTER, CUBE, VP_ALG_HYPERCUBE, TOPO },
	{ VP_COLL_REDUCE_SCATTER, POW2, VP_ALG_HYPERCUBE, DOUBLING_POW2 },
	{ VP_COLL_REDUCE_SCATTER, ALWAYS, VP_ALG_RING, GEN },
	{ VP_COLL_SCAN, CUBE, VP_ALG_HYPERCUBE, TOPO },
	{ VP_COLL_SCAN, ALWAYS, VP_ALG_RECURSIVE_DOUBLING, GEN },
	{ VP_COLL_SCATTER, PLACED, VP_ALG_BINOMIAL, HALVING },
	{ VP_COLL_SCATTER, ALWAYS, VP_ALG_BINOMIAL, GEN },
	{ VP_COLL_GATHER, PLACED, VP_ALG_BINOMIAL, HALVING },
	{ VP_COLL_GATHER, ALWAYS, VP_ALG_BINOMIAL, GEN },
	{ VP_COLL_ALLTOALL, RING, VP_ALG_RING, TOPO },
	{ VP_COLL_ALLTOALL, GRID, VP_ALG_MESH, TOPO },
	{ VP_COLL_ALLTOALL, CUBE_LONG, VP_ALG_PAIRWISE, XOR },
	{ VP_COLL_ALLTOALL, CUBE, VP_ALG_HYPERCUBE, TOPO },
	{ VP_COLL_ALLTOALL, SMALL_TOTAL, VP_ALG_BRUCK, GEN },
	{ VP_COLL_ALLTOALL, ALWAYS, VP_ALG_PAIRWISE, GEN },
	{ VP_COLL_SHIFT, RING, VP_ALG_RING, TOPO },
	{ VP_COLL_SHIFT, GRID, VP_ALG_MESH, TOPO },
	{ VP_COLL_SHIFT, CUBE, VP_ALG_DIRECT, ECUBE },
	{ VP_COLL_SHIFT, ALWAYS, VP_ALG_DIRECT, GEN },
};
#define NRULES (int)(sizeof(rules) / sizeof(rules[0]))

/* Each operation's rules in order, indexed once: a scan of the whole
 * table on every call was half of AUTO's cost (about 30 ns). */
static unsigned char rules_of[VP_COLL_COUNT_][NRULES];
static int nrules_of[VP_COLL_COUNT_];
static pthread_once_t rules_indexed = PTHREAD_ONCE_INIT;

static void index_rules(void)
{
	int i;

	for (i = 0; i < NRULES; i++)
		rules_of[rules[i].op][nrules_of[rules[i].op]++] =
		    (unsigned char)i;
}

/* The facts of this call, as a bit per enum when. */
static unsigned facts_of(vp_comm *c, const vp_topo *t, size_t bytes)
{
	int p = vp_size(c), world = vp__is_world(c), rows, cols;
	int longm = bytes >= LONG_MSG, pow2 = vp__is_pow2(p);
	int cube = world && t->kind == VP_TOPO_HYPERCUBE;
	int ring =
	    world && (t->kind == VP_TOPO_RING || t->kind == VP_TOPO_LINE);
	int strict = vp_strict(c);
	vp_model_kind model = vp_model_kind_of(c);
	const char *nogrid;
	unsigned f = 1u << ALWAYS;

	f |= (unsigned)cube << CUBE;
	f |= (unsigned)(cube && !longm) << CUBE_SHORT;
	f |= (unsigned)(cube && longm) << CUBE_LONG;
	f |= (unsigned)(world && t->ndims == 2 &&
			!vp__grid(c, &rows, &cols, &nogrid))
	     << GRID;
	f |= (unsigned)(world && t->kind == VP_TOPO_TREE) << TREE;
	f |= (unsigned)ring << RING;
	f |= (unsigned)(ring && pow2) << RING_POW2;
	f |= (unsigned)(strict && world &&
			(ring || t->kind == VP_TOPO_MESH ||
			 t->kind == VP_TOPO_TORUS))
	     << NEIGHBOURS;
	f |= (unsigned)(strict && cube) << STRICT_CUBE;
	f |= (unsigned)pow2 << POW2;
	f |= (unsigned)(world && t->kind != VP_TOPO_FULL) << PLACED;
	f |= (unsigned)(longm && p > 2) << LONG_P3;
	/* At p = 2 Bruck is one exchange, as pairwise is (the same model
	 * time), plus two local rotations, so pairwise is the faster
	 * (its exchange lends its receive) */
	f |= (unsigned)(bytes * (size_t)p < LONG_MSG && p > 2) << SMALL_TOTAL;
	f |= (unsigned)(model == VP_MODEL_BSP) << BSP;
	f |= (unsigned)(model == VP_MODEL_LOGP ||
			(model == VP_MODEL_LOGGP && !longm))
	     << LOGP_SHORT;
	return f;
}

const char *vp__coll_auto_why(void)
{
	return auto_reason;
}

unsigned vp__coll_auto_why_gen(void)
{
	return last.gen;
}

/*
 * AUTO: the first of op's rules whose facts hold. A rank keeps its last
 * choice for each collective (runtime/coll_seam.h): within a run the facts
 * depend only on the communicator and the size, and working them out again
 * took about 300 instructions of every call (counted by callgrind in a
 * loop of 8-byte broadcasts), as many as the rest of the call's checks.
 */
vp_alg vp_coll_choose(vp_comm *c, vp_coll op, size_t bytes, const char **why)
{
	struct vp__auto_memo *memo = vp__auto_memo(c, op);
	const char *kind;
	unsigned facts;
	vp_alg alg = VP_ALG_BINOMIAL;
	vp_topo t;
	int i, rule = -1;

	if (memo && memo->c == c && memo->bytes == bytes) {
		if (memo->rule >= 0)
			alg = pick(rules[memo->rule].alg,
				   rules[memo->rule].reason, memo->kind,
				   vp_size(c), bytes);
		if (why)
			*why = REASON;
		return alg;
	}
	vp_topo_info(c, &t);
	facts = facts_of(c, &t, bytes);
	kind = !vp__is_world(c)         ? "sub-communicator"
	       : t.kind == VP_TOPO_FULL ? "fully connected"
					: t.name;
	pthread_once(&rules_indexed, index_rules);
	for (i = 0; (unsigned)op < VP_COLL_COUNT_ && i < nrules_of[op]; i++) {
		const struct rule *r = &rules[rules_of[op][i]];

		if (facts >> r->when & 1u) {
			alg = pick(r->alg, r->reason, kind, vp_size(c), bytes);
			rule = rules_of[op][i];
			break;
		}
	}
	if (memo)
		*memo = (struct vp__auto_memo){ c, bytes, rule, kind };
	if (why)
		*why = REASON;
	return alg;
}
