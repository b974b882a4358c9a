/*
 * coll_ref.c - the test data and the sequential reference of the
 * collectives (coll_ref.h).
 *
 * Element i of block b of rank r is ref_val(op, r, b, i): small integers,
 * exact in every type, so floating sums and products are exact too
 * (products use only 1 and 2). ref_input writes a rank's input; ref_expect
 * computes, by a plain sequential loop over the ranks, what the collective
 * must leave in the rank's output, and ref_check compares element by
 * element and describes the first difference (rank, block, index,
 * expected, actual). Integer results wrap as in two's complement, in the
 * type's width.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coll_ref.h"
#include "vp.h"

static long ref_val(vp_op op, int r, int b, size_t i)
{
	if (op == VP_PROD)
		return 1 + ((r + 3 * b + (long)i) % 7 == 0);
	return (long)((r * 7 + b * 3 + (long)i * 5 + 1) % 13);
}

int ref_is_float(vp_type t)
{
	return t == VP_FLOAT || t == VP_DOUBLE;
}

static void ref_set(vp_type t, void *buf, size_t idx, double fv, uint64_t iv)
{
	switch (t) {
	case VP_BYTE:
		((uint8_t *)buf)[idx] = (uint8_t)iv;
		break;
	case VP_INT32:
		((uint32_t *)buf)[idx] = (uint32_t)iv;
		break;
	case VP_INT64:
		((uint64_t *)buf)[idx] = iv;
		break;
	case VP_FLOAT:
		((float *)buf)[idx] = (float)fv;
		break;
	case VP_DOUBLE:
		((double *)buf)[idx] = fv;
		break;
	}
}

/* The element as a double (floating types) or as wrapped bits. */
static void ref_get(vp_type t, const void *buf, size_t idx, double *fv,
		    uint64_t *iv)
{
	*fv = 0;
	*iv = 0;
	switch (t) {
	case VP_BYTE:
		*iv = ((const uint8_t *)buf)[idx];
		break;
	case VP_INT32:
		*iv = ((const uint32_t *)buf)[idx];
		break;
	case VP_INT64:
		*iv = ((const uint64_t *)buf)[idx];
		break;
	case VP_FLOAT:
		*fv = ((const float *)buf)[idx];
		break;
	case VP_DOUBLE:
		*fv = ((const double *)buf)[idx];
		break;
	}
}

/* Block b of rank r's input: count elements. */
static void ref_fill(vp_type t, vp_op op, int r, int b, void *buf, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		long v = ref_val(op, r, b, i);

		ref_set(t, buf, i, (double)v, (uint64_t)v);
	}
}

/* Folds ranks lo..hi-1's element (b, i) with op, sequentially. */
static void ref_reduce(vp_type t, vp_op op, int lo, int hi, int b, size_t i,
		       double *fv, uint64_t *iv)
{
	int r;

	for (r = lo; r < hi; r++) {
		long v = ref_val(op, r, b, i);
		double f = (double)v;
		uint64_t u = (uint64_t)v;

		if (r == lo) {
			*fv = f;
			*iv = u;
			continue;
		}
		switch (op) {
		case VP_SUM:
			*fv += f;
			*iv += u;
			break;
		case VP_PROD:
			*fv *= f;
			*iv *= u;
			break;
		case VP_MIN:
			*fv = f < *fv ? f : *fv;
			*iv = u < *iv ? u : *iv;
			break;
		case VP_MAX:
			*fv = f > *fv ? f : *fv;
			*iv = u > *iv ? u : *iv;
			break;
		case VP_BAND:
			*iv &= u;
			break;
		case VP_BOR:
			*iv |= u;
			break;
		case VP_BXOR:
			*iv ^= u;
			break;
		default: /* VP_REPLACE, VP_NO_OP: one-sided only */
			break;
		}
	}
	(void)t;
}

/* Bits of an integer type, for comparing wrapped values. */
static uint64_t ref_mask(vp_type t)
{
	switch (t) {
	case VP_BYTE:
		return 0xff;
	case VP_INT32:
		return 0xffffffffu;
	default:
		return ~(uint64_t)0;
	}
}

/* Number of blocks of count elements in rank r's input and output. */
int ref_in_blocks(const struct ref_case *k, int r)
{
	switch (k->op) {
	case VP_COLL_REDUCE_SCATTER:
	case VP_COLL_ALLTOALL:
		return k->p;
	case VP_COLL_SCATTER:
		return r == k->root ? k->p : 0;
	case VP_COLL_BCAST:
		return r == k->root ? 1 : 0;
	default:
		return 1;
	}
}

int ref_out_blocks(const struct ref_case *k, int r)
{
	switch (k->op) {
	case VP_COLL_ALLGATHER:
	case VP_COLL_ALLTOALL:
		return k->p;
	case VP_COLL_GATHER:
		return r == k->root ? k->p : 0;
	case VP_COLL_REDUCE:
		return r == k->root ? 1 : 0;
	default:
		return 1;
	}
}

/* Rank r's input: block b of it is ref_fill(.., r, b, ..). */
void ref_input(const struct ref_case *k, int r, void *buf)
{
	size_t bs = k->count * vp_type_size(k->type);
	int b;

	for (b = 0; b < ref_in_blocks(k, r); b++)
		ref_fill(k->type, k->rop, r, b, (char *)buf + b * bs, k->count);
}

/*
 * The expected element i of output block b at rank r: which rank's which
 * block it is, or which range of ranks is folded.
 */
static void ref_expect(const struct ref_case *k, int r, int b, size_t i,
		       double *fv, uint64_t *iv)
{
	int p = k->p;
	long v = 0;

	switch (k->op) {
	case VP_COLL_BCAST:
		v = ref_val(k->rop, k->root, 0, i);
		break;
	case VP_COLL_REDUCE:
	case VP_COLL_ALLREDUCE:
		ref_reduce(k->type, k->rop, 0, p, 0, i, fv, iv);
		return;
	case VP_COLL_SCAN:
		ref_reduce(k->type, k->rop, 0, r + 1, 0, i, fv, iv);
		return;
	case VP_COLL_REDUCE_SCATTER:
		ref_reduce(k->type, k->rop, 0, p, r, i, fv, iv);
		return;
	case VP_COLL_ALLGATHER:
	case VP_COLL_GATHER:
		v = ref_val(k->rop, b, 0, i);
		break;
	case VP_COLL_SCATTER:
		v = ref_val(k->rop, k->root, r, i);
		break;
	case VP_COLL_ALLTOALL:
		v = ref_val(k->rop, b, r, i);
		break;
	case VP_COLL_SHIFT:
		v = ref_val(k->rop, (int)(((r - k->q) % p + p) % p), 0, i);
		break;
	case VP_COLL_COUNT_:
		break;
	}
	*fv = (double)v;
	*iv = (uint64_t)v;
}

/* 0 if rank r's output is right, else 1 with a description in msg. */
int ref_check(const struct ref_case *k, int r, const void *out, char *msg,
	      size_t len)
{
	int b;
	size_t i;

	for (b = 0; b < ref_out_blocks(k, r); b++)
		for (i = 0; i < k->count; i++) {
			double ef, af;
			uint64_t ei, ai;
			size_t idx = (size_t)b * k->count + i;

			ref_expect(k, r, b, i, &ef, &ei);
			ref_get(k->type, out, idx, &af, &ai);
			if (ref_is_float(k->type)
				? ef != af
				: ((ei ^ ai) & ref_mask(k->type))) {
				if (ref_is_float(k->type))
					snprintf(msg, len,
						 "rank %d block %d index %zu: "
						 "expected %g, got %g",
						 r, b, i, ef, af);
				else
					snprintf(
					    msg, len,
					    "rank %d block %d index %zu: "
					    "expected %llu, got %llu",
					    r, b, i,
					    (unsigned long long)(ei &
								 ref_mask(
								     k->type)),
					    (unsigned long long)ai);
				return 1;
			}
		}
	return 0;
}

/* Runs the collective of case k on c with algorithm alg. */
int ref_call(vp_comm *c, const struct ref_case *k, const void *in, void *out,
	     vp_alg alg)
{
	switch (k->op) {
	case VP_COLL_BCAST:
		if (vp_rank(c) == k->root && k->count)
			memcpy(out, in, k->count * vp_type_size(k->type));
		return vp_bcast(c, out, k->count, k->type, k->root, alg);
	case VP_COLL_REDUCE:
		return vp_reduce(c, in, out, k->count, k->type, k->rop, k->root,
				 alg);
	case VP_COLL_ALLREDUCE:
		return vp_allreduce(c, in, out, k->count, k->type, k->rop, alg);
	case VP_COLL_ALLGATHER:
		return vp_allgather(c, in, out, k->count, k->type, alg);
	case VP_COLL_REDUCE_SCATTER:
		return vp_reduce_scatter(c, in, out, k->count, k->type, k->rop,
					 alg);
	case VP_COLL_SCAN:
		return vp_scan(c, in, out, k->count, k->type, k->rop, alg);
	case VP_COLL_SCATTER:
		return vp_scatter(c, in, out, k->count, k->type, k->root, alg);
	case VP_COLL_GATHER:
		return vp_gather(c, in, out, k->count, k->type, k->root, alg);
	case VP_COLL_ALLTOALL:
		return vp_alltoall(c, in, out, k->count, k->type, alg);
	case VP_COLL_SHIFT:
		return vp_shift(c, in, out, k->count, k->type, k->q, alg);
	case VP_COLL_COUNT_:
		break;
	}
	return VP_EINVAL;
}
