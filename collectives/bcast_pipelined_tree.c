/*
 * bcast_pipelined_tree.c - one-to-all broadcast of long messages down a
 * binary tree, cut into segments that follow each other down the tree.
 *
 * Source: the pipelined binary tree and its segment-size optimum
 *         (Sanders, Speck, Traeff 2009, sec. 2).
 * Cost:   T(p, m) ~ 2(log2 p + m/k)(ts + tw*k)     k = segment bytes;
 *         best k = sqrt(m ts / (tw log2 p)); LogGP: T ~ log2 p (L +
 *         3 max(o, g) + 2G k) + 2(m/k)(max(o, g) + G k), best k =
 *         sqrt(m / log2 p) sqrt(max(o, g) / G) (Solomonik's lecture
 *         notes on LogGP, after Alexandrov et al. 1995). Bound used by the tests:
 *         T <= 2(depth + segments)(ts + tw*k), depth = floor(log2 p).
 * Steps:  relative rank v has children 2v+1 and 2v+2 (heap order); for
 *         each segment in turn it receives it from (v-1)/2 and sends it to
 *         both children. Scratch: none.
 * Needs:  any p; segment from vp_set_coll_params / vp_opts.segment, 0 for
 *         the optimum (rounded to whole elements).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "coll.h"

size_t vp__segment_bytes(const struct coll *a)
{
	double ts, tw, k;
	size_t seg;
	vp_model m;

	vp_coll_params(a->c, NULL, &seg);
	vp_model_of(a->c, &m);
	if (!seg) {
		/* LogGP: k = sqrt(m / log2 p) sqrt(max(o, g) / G), the same
		 * optimum with max(o, g) for ts and G for tw */
		ts = m.kind == VP_MODEL_LOGGP ? (m.o > m.g ? m.o : m.g) : m.ts;
		tw = m.kind == VP_MODEL_LOGGP ? m.G : m.tw;
		if (tw <= 0 || a->p < 2)
			k = (double)a->bytes;
		else
			k = sqrt((double)a->bytes * ts /
				 (tw * log2((double)a->p)));
		seg = k < 1 ? 1 : (size_t)k;
	}
	seg -= seg % a->esize;
	if (seg < a->esize)
		seg = a->esize;
	return seg < a->bytes ? seg : a->bytes;
}

static int run(const struct coll *a)
{
	size_t seg = vp__segment_bytes(a), off;
	char *buf = a->rbuf;
	int rc;

	for (off = 0; off < a->bytes; off += seg) {
		size_t n = a->bytes - off < seg ? a->bytes - off : seg;
		int kid;

		if (a->v.me > 0 &&
		    (rc = vp__vrecv(&a->v, (a->v.me - 1) / 2, buf + off, n)))
			return rc;
		for (kid = 2 * a->v.me + 1;
		     kid <= 2 * a->v.me + 2 && kid < a->v.n; kid++)
			if ((rc = vp__vsend(&a->v, kid, buf + off, n)))
				return rc;
	}
	return VP_OK;
}

/* The cost above, for vp_coll_formula. */
double vp__cost_bcast_pipelined_tree(const struct coll_cost *k, int *exact)
{
	double lg = log2(k->P),
	       seg = k->tw > 0 ? sqrt(k->m * k->ts / (k->tw * lg)) : k->m;

	if (seg < 1)
		seg = 1;
	if (seg > k->m)
		seg = k->m;
	*exact = 0;
	return 2 * (lg + k->m / seg) * (k->ts + k->tw * seg);
}

const struct coll_algorithm vp__alg_bcast_pipelined_tree = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_PIPELINED_TREE,
	.run = run,
	.needs = NEED_ANY,
	.view = VIEW_ROOTED,
	.cost = vp__cost_bcast_pipelined_tree,
};
