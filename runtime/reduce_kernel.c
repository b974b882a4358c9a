/*
 * reduce_kernel.c - the element types' sizes (vp_type_size) and the
 * element-wise combine of the reductions: out[i] = in[i] op mine[i]
 * (vp__reduce_into, for vp_recv_reduce, which combines a message where it
 * lies, for the one-sided accumulate and for the collectives), and
 * inout[i] = in[i] op inout[i] (vp_reduce_local, MPI_Reduce_local).
 * VP_BYTE is unsigned 8-bit; integer sums and products wrap around; the
 * bitwise operators need an integer type. The internal type of the
 * reproducible sums (VP__TYPE_FIXED(limbs)) adds with VP_SUM only
 * (vp__fixed_add).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <string.h>

#include "reduce_kernel.h"
#include "vp.h"

size_t vp_type_size(vp_type t)
{
	switch (t) {
	case VP_BYTE:
		return 1;
	case VP_INT32:
	case VP_FLOAT:
		return 4;
	case VP_INT64:
	case VP_DOUBLE:
		return 8;
	}
	if (VP__IS_TYPE_FIXED(t)) /* internal: the public calls refuse it */
		return 8 * (size_t)((int)t - 64);
	return 0;
}

/* Limb by limb with the carries; one and two limbs (the common cases) as
 * plain and 128-bit adds. */
void vp__fixed_add(const uint64_t *in, uint64_t *inout, size_t count, int limbs)
{
	size_t k, n = count * (size_t)limbs;

	if (limbs == 1) { /* the common narrow case: vectorizes */
		for (k = 0; k < n; k++)
			inout[k] += in[k];
		return;
	}
	if (limbs == 2) { /* the common case: 128-bit adds */
		for (k = 0; k < n; k += 2) {
			unsigned __int128 a, b;

			memcpy(&a, in + k, 16);
			memcpy(&b, inout + k, 16);
			b += a;
			memcpy(inout + k, &b, 16);
		}
		return;
	}
	for (k = 0; k < n; k += (size_t)limbs) {
		unsigned carry = 0;
		int i;

		for (i = 0; i < limbs; i++) {
			uint64_t s = in[k + i] + inout[k + i];
			unsigned c1 = s < in[k + i];

			inout[k + i] = s + carry;
			carry = c1 | (inout[k + i] < s);
		}
	}
}

/* The loops below are the reductions' whole compute cost: let GCC
 * vectorize them (-O2's cost model leaves loops of unknown length scalar,
 * about ten times slower than the vector loops). in never overlaps
 * mine or out (it is another rank's data, or scratch), so it is restrict;
 * mine and out are identical or disjoint (the callers refuse a partial
 * overlap), and GCC checks which at run time before the vector loop. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#define ARITH(T, in, mine, out, n, op)                                         \
	do {                                                                   \
		const T *restrict x = (const T *)(in);                         \
		const T *m = (const T *)(mine);                                \
		T *y = (T *)(out);                                             \
		size_t i;                                                      \
		switch (op) {                                                  \
		case VP_SUM:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] = (T)(x[i] + m[i]);                       \
			break;                                                 \
		case VP_PROD:                                                  \
			for (i = 0; i < (n); i++)                              \
				y[i] = (T)(x[i] * m[i]);                       \
			break;                                                 \
		case VP_MIN:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] = x[i] < m[i] ? x[i] : m[i];              \
			break;                                                 \
		case VP_MAX:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] = x[i] > m[i] ? x[i] : m[i];              \
			break;                                                 \
		default:                                                       \
			return VP_EINVAL;                                      \
		}                                                              \
	} while (0)

#define BITWISE(T, in, mine, out, n, op)                                       \
	do {                                                                   \
		const T *restrict x = (const T *)(in);                         \
		const T *m = (const T *)(mine);                                \
		T *y = (T *)(out);                                             \
		size_t i;                                                      \
		switch (op) {                                                  \
		case VP_BAND:                                                  \
			for (i = 0; i < (n); i++)                              \
				y[i] = x[i] & m[i];                            \
			return VP_OK;                                          \
		case VP_BOR:                                                   \
			for (i = 0; i < (n); i++)                              \
				y[i] = x[i] | m[i];                            \
			return VP_OK;                                          \
		case VP_BXOR:                                                  \
			for (i = 0; i < (n); i++)                              \
				y[i] = x[i] ^ m[i];                            \
			return VP_OK;                                          \
		default:                                                       \
			break;                                                 \
		}                                                              \
	} while (0)

int vp__reduce_check(vp_type type, vp_op op)
{
	if ((unsigned)op > VP_BXOR)
		return VP_EINVAL;
	if ((unsigned)type <= VP_DOUBLE)
		return op >= VP_BAND && (type == VP_FLOAT || type == VP_DOUBLE)
			   ? VP_EINVAL
			   : VP_OK;
	return VP__IS_TYPE_FIXED(type) && op == VP_SUM ? VP_OK : VP_EINVAL;
}

/* What combine_primitive answers for a type it does not know (vp's
 * errors are negative). */
#define NOT_PRIMITIVE 1

/* The combine of the primitive types. Built into each function below for
 * its vector width. */
static inline __attribute__((always_inline)) int
combine_primitive(const void *in, const void *mine, void *out, size_t count,
		  vp_type type, vp_op op)
{
	switch (type) {
	case VP_BYTE:
		BITWISE(uint8_t, in, mine, out, count, op);
		ARITH(uint8_t, in, mine, out, count, op);
		return VP_OK;
	case VP_INT32:
		BITWISE(uint32_t, in, mine, out, count, op);
		if (op == VP_MIN || op == VP_MAX)
			ARITH(int32_t, in, mine, out, count, op);
		else
			ARITH(uint32_t, in, mine, out, count, op);
		return VP_OK;
	case VP_INT64:
		BITWISE(uint64_t, in, mine, out, count, op);
		if (op == VP_MIN || op == VP_MAX)
			ARITH(int64_t, in, mine, out, count, op);
		else
			ARITH(uint64_t, in, mine, out, count, op);
		return VP_OK;
	case VP_FLOAT:
		ARITH(float, in, mine, out, count, op);
		return VP_OK;
	case VP_DOUBLE:
		ARITH(double, in, mine, out, count, op);
		return VP_OK;
	}
	return NOT_PRIMITIVE;
}

static int combine_base(const void *in, const void *mine, void *out,
			size_t count, vp_type type, vp_op op)
{
	return combine_primitive(in, mine, out, count, type, op);
}

/*
 * A long combine runs at about the speed of a memcpy, and -O2 for plain
 * x86-64 vectorizes it 16 bytes at a time. GCC builds it for AVX2 and for
 * AVX-512 (with byte and word lanes) as well, and each call takes the
 * widest this CPU has (__builtin_cpu_supports reads a word libgcc fills at
 * start; valgrind shows its guest no AVX-512 and gets AVX2). The lanes
 * combine element by element, so every width gives the same bits, floating
 * point included; the wider lanes are the faster, the widest about as
 * fast as a memcpy. A call, not GCC's target_clones: its ifunc resolver
 * runs in the loader, before ThreadSanitizer's runtime is set up, and
 * crashes there.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WIDE_COMBINE 1
__attribute__((target("avx2"))) static int
combine_avx2(const void *in, const void *mine, void *out, size_t count,
	     vp_type type, vp_op op)
{
	return combine_primitive(in, mine, out, count, type, op);
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) static int
combine_avx512(const void *in, const void *mine, void *out, size_t count,
	       vp_type type, vp_op op)
{
	return combine_primitive(in, mine, out, count, type, op);
}
#endif

/* Integer products and sums wrap: compute them unsigned. */
int vp__reduce_into(const void *in, const void *mine, void *out, size_t count,
		    vp_type type, vp_op op)
{
	int rc;

	if (!count)
		return VP_OK;
	if (!in || !mine || !out || (unsigned)op > VP_BXOR)
		return VP_EINVAL;
#ifdef WIDE_COMBINE
	if (__builtin_cpu_supports("avx512bw"))
		rc = combine_avx512(in, mine, out, count, type, op);
	else if (__builtin_cpu_supports("avx2"))
		rc = combine_avx2(in, mine, out, count, type, op);
	else
#endif
		rc = combine_base(in, mine, out, count, type, op);
	if (rc != NOT_PRIMITIVE)
		return rc;
	if (VP__IS_TYPE_FIXED(type) && op == VP_SUM) { /* reproducible sums */
		if (out != mine)
			memcpy(out, mine, count * vp_type_size(type));
		vp__fixed_add(in, out, count, (int)type - 64);
		return VP_OK;
	}
	return VP_EINVAL;
}

int vp_reduce_local(const void *in, void *inout, size_t count, vp_type type,
		    vp_op op)
{
	return vp__reduce_into(in, inout, inout, count, type, op);
}
