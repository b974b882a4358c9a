/*
 * reduce_local.c - the element-wise combine of the reductions:
 * inout[i] = in[i] op inout[i] (MPI_Reduce_local). VP_BYTE is unsigned
 * 8-bit; integer sums and products wrap around; the bitwise operators need
 * an integer type. The internal type of the reproducible sums
 * (VP__TYPE_FIXED(limbs), fixed_sum.c) adds with VP_SUM only.
 */
#include <stdint.h>

#include "coll.h"

/* The loops below are the reductions' whole compute cost: let GCC
 * vectorize them (-O2's cost model leaves loops of unknown length scalar;
 * measured 1.6 ns per byte scalar, 10x less vectorized). in and inout are
 * distinct or identical buffers, never partly overlapping (dispatch.c
 * refuses that), so restrict holds for the distinct case, and the
 * identical case computes x op x element by element, also fine. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#define ARITH(T, in, io, n, op)                                                \
	do {                                                                   \
		const T *restrict x = (const T *)(in);                         \
		T *restrict y = (T *)(io);                                     \
		size_t i;                                                      \
		switch (op) {                                                  \
		case VP_SUM:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] = (T)(x[i] + y[i]);                       \
			break;                                                 \
		case VP_PROD:                                                  \
			for (i = 0; i < (n); i++)                              \
				y[i] = (T)(x[i] * y[i]);                       \
			break;                                                 \
		case VP_MIN:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] = x[i] < y[i] ? x[i] : y[i];              \
			break;                                                 \
		case VP_MAX:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] = x[i] > y[i] ? x[i] : y[i];              \
			break;                                                 \
		default:                                                       \
			return VP_EINVAL;                                      \
		}                                                              \
	} while (0)

#define BITWISE(T, in, io, n, op)                                              \
	do {                                                                   \
		const T *restrict x = (const T *)(in);                         \
		T *restrict y = (T *)(io);                                     \
		size_t i;                                                      \
		switch (op) {                                                  \
		case VP_BAND:                                                  \
			for (i = 0; i < (n); i++)                              \
				y[i] &= x[i];                                  \
			return VP_OK;                                          \
		case VP_BOR:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] |= x[i];                                  \
			return VP_OK;                                          \
		case VP_BXOR:                                                  \
			for (i = 0; i < (n); i++)                              \
				y[i] ^= x[i];                                  \
			return VP_OK;                                          \
		default:                                                       \
			break;                                                 \
		}                                                              \
	} while (0)

/* Integer products and sums wrap: compute them unsigned. */
int vp_reduce_local(const void *in, void *inout, size_t count, vp_type type,
		    vp_op op)
{
	if (!count)
		return VP_OK;
	if (!in || !inout || (unsigned)op > VP_BXOR)
		return VP_EINVAL;
	switch (type) {
	case VP_BYTE:
		BITWISE(uint8_t, in, inout, count, op);
		ARITH(uint8_t, in, inout, count, op);
		return VP_OK;
	case VP_INT32:
		BITWISE(uint32_t, in, inout, count, op);
		if (op == VP_MIN || op == VP_MAX)
			ARITH(int32_t, in, inout, count, op);
		else
			ARITH(uint32_t, in, inout, count, op);
		return VP_OK;
	case VP_INT64:
		BITWISE(uint64_t, in, inout, count, op);
		if (op == VP_MIN || op == VP_MAX)
			ARITH(int64_t, in, inout, count, op);
		else
			ARITH(uint64_t, in, inout, count, op);
		return VP_OK;
	case VP_FLOAT:
		ARITH(float, in, inout, count, op);
		return VP_OK;
	case VP_DOUBLE:
		ARITH(double, in, inout, count, op);
		return VP_OK;
	}
	if (VP__IS_TYPE_FIXED(type) && op == VP_SUM) { /* reproducible sums */
		vp__fixed_add(in, inout, count, (int)type - 64);
		return VP_OK;
	}
	return VP_EINVAL;
}
