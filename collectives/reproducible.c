/*
 * reproducible.c - floating-point sums that give the same bits every time:
 * the reductions' route when the run is reproducible (vp_opts.reproducible,
 * VP_REPRODUCIBLE=1), and vp_reproducible_sum over terms spread among the
 * ranks. The numbers are in fixed_sum.c: the terms go exactly onto a wide
 * fixed-point grid, the integers are summed exactly, and each sum is
 * rounded once, so every result is the exact sum correctly rounded.
 *
 * Steps of a reduction of count elements (reduce, allreduce, scan; reduce-
 * scatter's input has p blocks):
 *   1. each rank scans its input for the largest and smallest exponents
 *      and for NaNs and infinities; an all-reduce with VP_MAX of those 16
 *      bytes sizes the grid (limbs 64-bit words an element) on every rank;
 *   2. each rank puts its elements on the grid, exactly;
 *   3. the same collective runs with the same algorithm on the integers,
 *      whose VP_SUM is exact and associative;
 *   4. the ranks holding results round each element once.
 * Cost in the alpha-beta model: T_allreduce(16 bytes) + T_op(8 limbs count
 * bytes), against T_op(8 count) for doubles: limbs is 2 for doubles whose
 * magnitudes span less than about 2^50 on 64 ranks (vp-bench
 * --reproducible measures it).
 *
 * vp_reproducible_sum: the same steps for one sum whose terms are the
 * union of the ranks' arrays (the usual way to make a distributed dot
 * product reproducible, Demmel and Nguyen 2013): one all-reduce of the
 * needs, one of one accumulator. The result is the exact sum of all the
 * terms correctly rounded: the same for any p and any split.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>

#include "coll.h"

/* Step 1 on every rank: the grid of n terms at x here, of which
 * terms_per_sum go into one sum. */
static int agree_on_grid(vp_comm *c, const char *call, const void *x, size_t n,
			 int is_float, size_t terms_per_sum, struct vp__grid *g)
{
	int32_t need[VP__GRID_NEED];
	int rc;

	vp__grid_need(need, x, n, is_float, terms_per_sum);
	rc =
	    vp__coll_run(c, VP_COLL_ALLREDUCE, VP_IN_PLACE, need, VP__GRID_NEED,
			 VP_INT32, VP_MAX, 0, 0, VP_ALG_AUTO, 1);
	if (rc)
		return rc;
	if (vp__grid_plan(g, need, is_float, vp_size(c)))
		return vp_abort(c, VP_EINVAL, call,
				"reproducible sum: the terms need %d limbs, "
				"more than %d",
				g->limbs, VP__FIXED_MAX_LIMBS);
	return VP_OK;
}

/* Step 2: n elements of x on the grid, in a new zeroed array. */
static uint64_t *on_grid(vp_comm *c, const char *call, const struct vp__grid *g,
			 const void *x, size_t n)
{
	uint64_t *fix = calloc(n ? n : 1, (size_t)g->limbs * sizeof(*fix));

	if (!fix) {
		vp_abort(c, VP_ENOMEM, call,
			 "reproducible sum: no memory for %zu accumulators "
			 "of %d limbs",
			 n, g->limbs);
		return NULL;
	}
	vp__grid_add_terms(g, fix, 1, x, n);
	return fix;
}

int vp__reproducible_reduction(vp_comm *c, vp_coll op, const void *sbuf,
			       void *rbuf, size_t count, vp_type type, int root,
			       vp_alg alg)
{
	const char *call = vp_coll_name(op);
	int p = vp_size(c), r = vp_rank(c), is_float = type == VP_FLOAT;
	size_t n_in = op == VP_COLL_REDUCE_SCATTER ? (size_t)p * count : count;
	const void *in = sbuf == VP_IN_PLACE ? rbuf : sbuf;
	uint64_t *fix, *out = NULL;
	struct vp__grid g;
	vp_type ft;
	size_t i;
	int rc;

	if (!count)
		return VP_OK;
	if ((rc = agree_on_grid(c, call, in, n_in, is_float, 1, &g)))
		return rc;
	if (!(fix = on_grid(c, call, &g, in, n_in)))
		return VP_ENOMEM;
	ft = VP__TYPE_FIXED(g.limbs);
	if (op == VP_COLL_REDUCE_SCATTER) {
		out = calloc(count, (size_t)g.limbs * sizeof(*out));
		rc = out ? vp__coll_run(c, op, fix, out, count, ft, VP_SUM, 0,
					0, alg, 1)
			 : vp_abort(c, VP_ENOMEM, call,
				    "reproducible sum: no memory for %zu "
				    "accumulators",
				    count);
	} else if (op == VP_COLL_REDUCE && r != root) {
		rc = vp__coll_run(c, op, fix, NULL, count, ft, VP_SUM, root, 0,
				  alg, 1);
	} else {
		rc = vp__coll_run(c, op, VP_IN_PLACE, fix, count, ft, VP_SUM,
				  root, 0, alg, 1);
		out = fix; /* the results are in place */
		fix = NULL;
	}
	if (!rc && (op != VP_COLL_REDUCE || r == root))
		for (i = 0; i < count; i++)
			vp__grid_round(&g, out + i * (size_t)g.limbs, rbuf, i);
	free(out);
	free(fix);
	return rc;
}

int vp_reproducible_sum(vp_comm *c, const void *x, size_t n, vp_type type,
			void *sum, vp_alg alg)
{
	static const char call[] = "vp_reproducible_sum";
	int is_float = type == VP_FLOAT, rc;
	struct vp__grid g;
	uint64_t *acc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp_comm_check(c, call)))
		return rc;
	if (type != VP_FLOAT && type != VP_DOUBLE)
		return vp_abort(c, VP_EINVAL, call,
				"type %d: the terms must be VP_FLOAT or "
				"VP_DOUBLE",
				(int)type);
	if (n && !x)
		return vp_abort(c, VP_EINVAL, call,
				"x is NULL but must hold %zu terms", n);
	if (!sum)
		return vp_abort(c, VP_EINVAL, call, "sum is NULL");
	if (n > (UINT64_C(1) << 40) / (uint64_t)vp_size(c))
		return vp_abort(c, VP_EINVAL, call,
				"n %zu: at most 2^40 terms in all, 2^40 / %d "
				"a rank",
				n, vp_size(c));
	if ((unsigned)alg >= VP_ALG_COUNT_)
		return vp_error(c, VP_EALG, call,
				"algorithm %d is not a vp_alg", (int)alg);
	if ((rc = agree_on_grid(c, call, x, n, is_float, n, &g)))
		return rc;
	if (!(acc = calloc(1, (size_t)g.limbs * sizeof(*acc))))
		return vp_abort(c, VP_ENOMEM, call,
				"no memory for an accumulator of %d limbs",
				g.limbs);
	vp__grid_add_terms(&g, acc, 0, x, n);
	rc = vp__coll_run(c, VP_COLL_ALLREDUCE, VP_IN_PLACE, acc, 1,
			  VP__TYPE_FIXED(g.limbs), VP_SUM, 0, 0, alg, 1);
	if (!rc)
		vp__grid_round(&g, acc, sum, 0);
	free(acc);
	return rc;
}
