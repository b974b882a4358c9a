/*
 * allreduce_hypercube.c - all-reduce by recursive doubling: the all-to-all
 * broadcast pattern with messages of constant size; with MPICH's fix-up it
 * also serves p that is not a power of two (VP_ALG_RECURSIVE_DOUBLING).
 *
 * Source: Grama et al., sec. 4.3 (all-reduce on a hypercube);
 *         Thakur, Rabenseifner, Gropp 2005 for the fix-up.
 * Cost:   T(p, m) = (ts + tw*m) log2 p              p a power of two;
 *         otherwise 2(ts + tw*m) more for the fix-up, with log2 of the
 *         largest power of two below p.
 * Steps:  fix-up (only if p is not a power of two, r = p - 2^floor(log p)):
 *         among the first 2r ranks each even rank hands its vector to the
 *         odd one above and sits out. Then log2 p' steps: swap the whole
 *         vector with the partner across one dimension and add (where
 *         the partner's message lies: vp_sendrecv_reduce, into the
 *         buffer the partner is not reading). Finally the odd ranks hand
 *         the result back. Scratch: one vector.
 * Needs:  hypercube: p a power of two (else VP_EALG); recursive_doubling:
 *         any p.
 * Differs from the book: nothing for p a power of two.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

/* The combines this rank makes: one a step of the recursive doubling,
 * one more for an odd rank of the fix-up; none for a rank that sits out. */
static int combines(const struct coll *a, struct fold *f)
{
	vp__fold_plan(a->p, a->r, f);
	return f->me < 0 ? 0 : vp__log2_ceil(f->pof2) + (f->r < 2 * f->rem);
}

/* Scratch for run (dispatch allocates it): one vector, where next_out
 * below ever picks it; a single combine out of place goes straight into
 * rbuf (p = 2: a malloc and a free of 1 KiB were about 130 instructions
 * of an all-reduce of 1 KiB). */
static size_t scratch(const struct coll *a)
{
	struct fold f;
	int left = combines(a, &f);

	return left >= 2 || (left == 1 && a->sbuf == a->rbuf) ? a->bytes : 0;
}

/* Where the next combine writes, with left combines to go (this one
 * included): never into mine, which the partner may be reading; and so
 * that the last one lands in rbuf whenever the input is not already
 * there. */
static void *next_out(const struct coll *a, const void *mine, int left)
{
	if (mine == a->rbuf)
		return a->scratch;
	if (mine == a->scratch)
		return a->rbuf;
	return left % 2 ? a->rbuf : a->scratch;
}

static int run(const struct coll *a)
{
	const void *mine = a->sbuf; /* my partial result so far */
	struct fold f;
	int mask, left, rc = VP_OK;
	void *out;

	left = combines(a, &f);
	/* fix-up: an even rank of the first 2 rem hands its input on */
	if (f.me < 0)
		rc = vp_send(a->c, f.r + 1, a->sbuf, a->bytes);
	else if (f.r < 2 * f.rem) {
		out = next_out(a, mine, left--);
		rc = vp_recv_reduce(a->c, f.r - 1, mine, out, a->count,
				    a->type, a->rop);
		mine = out;
	}
	/* recursive doubling among the pof2 members: each exchange combines
	 * the partner's vector where it lies, into the buffer mine is not */
	for (mask = 1; mask < f.pof2 && f.me >= 0 && !rc; mask <<= 1) {
		int dst = vp__fold_rank(&f, f.me ^ mask);

		out = next_out(a, mine, left--);
		rc = vp_sendrecv_reduce(a->c, dst, mine, a->bytes, dst, mine,
					out, a->count, a->type, a->rop);
		mine = out;
	}
	if (!rc && f.me >= 0 && mine != a->rbuf)
		vp__copy(a->rbuf, mine, a->bytes);
	if (!rc)
		rc = vp__fold_out(a, &f);
	return rc;
}

/* The cost above, for vp_coll_formula. */
static double cost(const struct coll_cost *k, int *exact)
{
	(void)exact;
	return (vp__log2_ceil(k->pof2) + (k->pof2 < k->p ? 2 : 0)) * k->u;
}

const struct coll_algorithm vp__alg_allreduce_hypercube = {
	.op = VP_COLL_ALLREDUCE,
	.alg = VP_ALG_HYPERCUBE,
	.run = run,
	.needs = NEED_POW2,
	.scratch = scratch,
	.cost = cost,
};

const struct coll_algorithm vp__alg_allreduce_recursive_doubling = {
	.op = VP_COLL_ALLREDUCE,
	.alg = VP_ALG_RECURSIVE_DOUBLING,
	.run = run,
	.needs = NEED_ANY,
	.scratch = scratch,
	.cost = cost,
};
