/*
 * alltoall_bruck.c - all-to-all personalized exchange in ceil(log2 p)
 * steps for any p (Bruck et al. 1997).
 *
 * Source: Bruck, Ho, Kipnis, Upfal, Weathersby 1997 (index algorithm).
 * Cost:   T(p, m) = ts ceil(log2 p) + tw*m * sum_k |{i < p : i & 2^k}|
 *         = ts log2 p + tw*m (p/2) log2 p            p a power of two.
 * Steps:  rotate so that slot i holds the block for r + i; in the step
 *         with distance 2^k send every slot whose index has bit k set to
 *         r + 2^k and receive the same slots from r - 2^k; then slot i
 *         holds the block from r - i. Scratch: 2p blocks.
 * Needs:  any p.
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int run(const struct coll *a)
{
	size_t b = a->bytes;
	int p = a->p, r = a->r, k, i, n, rc = VP_OK;
	char *slot = vp__alloc(a, 3 * (size_t)p * b), *sendb, *recvb;
	const char *in = a->sbuf;

	if (!slot)
		return VP_ENOMEM;
	sendb = slot + (size_t)p * b;
	recvb = sendb + (size_t)p * b;
	for (i = 0; i < p; i++)
		memcpy(slot + (size_t)i * b, in + (size_t)((r + i) % p) * b, b);
	for (k = 1; k < p && !rc; k <<= 1) {
		for (i = 0, n = 0; i < p; i++)
			if (i & k)
				memcpy(sendb + (size_t)n++ * b,
				       slot + (size_t)i * b, b);
		rc = vp_sendrecv(a->c, (r + k) % p, sendb, (size_t)n * b,
				 (r - k + p) % p, recvb, (size_t)n * b);
		for (i = 0, n = 0; i < p && !rc; i++)
			if (i & k)
				memcpy(slot + (size_t)i * b,
				       recvb + (size_t)n++ * b, b);
	}
	for (i = 0; i < p && !rc; i++)
		memcpy((char *)a->rbuf + (size_t)((r - i + p) % p) * b,
		       slot + (size_t)i * b, b);
	free(slot);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	double blocks = 0;
	long bit, i;

	/* step bit sends the blocks whose index has that bit set */
	for (bit = 1; bit < k->p; bit <<= 1)
		for (i = 0; i < k->p; i++)
			blocks += (i & bit) != 0;
	return k->ts * k->L + k->tw * k->m * blocks;
}

const struct coll_algorithm vp__alg_alltoall_bruck = {
	.op = VP_COLL_ALLTOALL,
	.alg = VP_ALG_BRUCK,
	.run = run,
	.needs = NEED_ANY,
	.cost = cost,
};
