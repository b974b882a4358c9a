/*
 * alltoall_hypercube.c - all-to-all personalized exchange on a hypercube:
 * one exchange of p/2 blocks per dimension.
 *
 * Source: Grama et al., sec. 4.5.3 (all-to-all personalized on a hypercube,
 *         Fig. 4.20).
 * Cost:   T(p, m) = (ts + tw*m p/2) log2 p           m = bytes per block
 *         bsp: log2 p (l + (m p/2) g), a superstep per level (the
 *         butterfly all-to-all with h < p keeps the log factor).
 * Steps:  log2 p, dimension 0 first. Slot k of rank r's vector holds, after
 *         the dimensions in M are done, the block from (r & ~M) | (k & M)
 *         to (k & ~M) | (r & M). Across dimension i rank r sends the p/2
 *         slots whose bit i differs from r's and receives the partner's
 *         into the same slots (slot k <- partner's slot k ^ 2^i); at the
 *         end slot k holds the block from k to r.
 *         Scratch: p blocks.
 * Needs:  p a power of two (else VP_EALG).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int run(const struct coll *a)
{
	size_t b = a->bytes, half = (size_t)a->p / 2 * b;
	char *out = a->rbuf, *sendb = vp__alloc(a, 2 * half), *recvb;
	int bit, k, n, rc = VP_OK;

	if (!sendb)
		return VP_ENOMEM;
	recvb = sendb + half;
	vp__copy(out, a->sbuf, (size_t)a->p * b);
	for (bit = 1; bit < a->p && !rc; bit <<= 1) {
		for (k = 0, n = 0; k < a->p; k++) /* slots leaving */
			if ((k & bit) != (a->r & bit))
				memcpy(sendb + (size_t)n++ * b,
				       out + (size_t)k * b, b);
		rc = vp_sendrecv(a->c, a->r ^ bit, sendb, half, a->r ^ bit,
				 recvb, half);
		for (k = 0, n = 0; k < a->p && !rc; k++) /* same slots */
			if ((k & bit) != (a->r & bit))
				memcpy(out + (size_t)k * b,
				       recvb + (size_t)n++ * b, b);
		/* bsp: the next level sends what this one received */
		if (!rc && bit << 1 < a->p && vp__bsp(a->c))
			rc = vp_superstep(a->c);
	}
	free(sendb);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return (k->ts + k->tw * k->m * k->P / 2) * k->L;
}

/* bsp: a superstep per level, each rank sending and receiving half its
 * blocks (the butterfly all-to-all: the log factor on the bandwidth
 * stays when h < p). */
static double bsp_cost(const struct coll_cost *k, int *exact)
{
	*exact = 1;
	return k->L * (k->l + k->m * k->P / 2 * k->g);
}

const struct coll_algorithm vp__alg_alltoall_hypercube = {
	.op = VP_COLL_ALLTOALL,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.cost = cost,
	.bsp_cost = bsp_cost,
};
