/*
 * fixed_sum.c - the numbers behind the reproducible sums: floating-point
 * terms turned exactly into wide fixed-point integers on a grid every rank
 * agrees on, summed exactly as integers (so in any order, by any
 * algorithm, over any split of the terms among ranks), and rounded once.
 * The result is the exact sum correctly rounded (to nearest, ties to even),
 * so it cannot depend on anything but the terms.
 *
 * Method: exact accumulation in a long fixed-point accumulator (Kulisch's
 * long accumulator, Kulisch and Miranker 1981), sized for each call as in
 * the pre-rounding schemes of Demmel and Nguyen, "Fast Reproducible
 * Floating-Point Summation" (ARITH 2013), but wide enough that nothing is
 * rounded before the end. A MAX reduction first tells every rank the
 * call's largest and smallest exponents of the terms' last bits (qmax,
 * qmin: a finite term is m 2^q with m < 2^mant, mant = 53 for doubles, 24
 * for floats, read from its IEEE fields), whether a NaN or infinity
 * occurs, and how many terms a sum may have (N). Every term is a multiple
 * of 2^qmin and the sum is below N 2^(qmax + mant), so the integers need
 *     qmax - qmin + mant + ceil(log2 N) + 1 (sign)
 * bits: 64-bit limbs, as many as that takes (two for doubles whose
 * magnitudes span less than about 2^(74 - log2 N); 33 for DBL_MAX and
 * the least subnormal on 4 ranks; at most 37 in any call).
 *
 * Special values: when a term of the call is NaN or infinite, each
 * element gets three more limbs, first (lowest), that count its NaNs, +infs
 * and -infs (counts never carry into the value limbs, and the value's
 * carry out of its top limb is dropped, so one multi-limb add serves both).
 * A NaN, or +inf with -inf, gives NaN; an infinity alone gives itself. An
 * exact zero sum is +0, also when every term is -0 (IEEE would give -0
 * there; the exact sum has no sign).
 *
 * Cost: per term a read of its fields, a shift and an add of `limbs`
 * words; on the wire 8 limbs bytes an element, plus the one exchange of
 * 16 bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "coll.h"

enum { NEED_QMAX, NEED_NEG_QMIN, NEED_SPECIAL, NEED_COUNT_BITS };

#define NO_TERM (-30000) /* qmax and -qmin of a rank with no finite term */
#define COUNT_LIMBS 3    /* NaN, +inf, -inf */

static int bits_of(uint64_t n) /* ceil(log2(n)), 0 for n <= 1 */
{
	int b = 0;

	while (b < 64 && (UINT64_C(1) << b) < n)
		b++;
	return b;
}

/*
 * Term i of x read from its IEEE 754 bits: a finite term is
 * (*neg ? -1 : 1) m 2^q with m < 2^mant (0 for a zero), and the result is
 * -1; NaN gives 0, +inf 1, -inf 2 (the count limb to add to).
 */
static inline int split(const void *x, size_t i, int is_float, uint64_t *m,
			int *q, int *neg)
{
	uint64_t bits, frac;
	int biased;

	if (is_float) {
		uint32_t b32;

		memcpy(&b32, (const float *)x + i, 4);
		bits = b32;
		*neg = (int)(bits >> 31);
		biased = (int)(bits >> 23) & 0xff;
		frac = bits & 0x7fffff;
		if (biased == 0xff)
			return frac ? 0 : 1 + *neg;
		*m = biased ? frac | 0x800000 : frac;
		*q = (biased ? biased : 1) - 150;
	} else {
		memcpy(&bits, (const double *)x + i, 8);
		*neg = (int)(bits >> 63);
		biased = (int)(bits >> 52) & 0x7ff;
		frac = bits & UINT64_C(0xfffffffffffff);
		if (biased == 0x7ff)
			return frac ? 0 : 1 + *neg;
		*m = biased ? frac | UINT64_C(0x10000000000000) : frac;
		*q = (biased ? biased : 1) - 1075;
	}
	return -1;
}

void vp__grid_need(int32_t need[VP__GRID_NEED], const void *x, size_t n,
		   int is_float, size_t terms_per_sum)
{
	int qmax = NO_TERM, neg_qmin = NO_TERM, special = 0, q, neg;
	uint64_t m;
	size_t i;

	for (i = 0; i < n; i++) {
		if (split(x, i, is_float, &m, &q, &neg) >= 0) {
			special = 1;
			continue;
		}
		if (!m)
			continue;
		qmax = q > qmax ? q : qmax;
		neg_qmin = -q > neg_qmin ? -q : neg_qmin;
	}
	need[NEED_QMAX] = qmax;
	need[NEED_NEG_QMIN] = neg_qmin;
	need[NEED_SPECIAL] = special;
	need[NEED_COUNT_BITS] = bits_of(terms_per_sum);
}

int vp__grid_plan(struct vp__grid *g, const int32_t need[VP__GRID_NEED],
		  int is_float, int p)
{
	int headroom = need[NEED_COUNT_BITS] + bits_of((uint64_t)p), bits;

	g->is_float = is_float;
	g->mant = is_float ? 24 : 53;
	g->count_limbs = need[NEED_SPECIAL] ? COUNT_LIMBS : 0;
	if (need[NEED_QMAX] == NO_TERM) { /* no finite non-zero term */
		g->unit = 0;
		g->value_limbs = 1;
	} else {
		/* every term is a multiple of 2^unit and below 2^(qmax +
		 * mant); the sum below 2^(qmax + mant + headroom) */
		g->unit = -need[NEED_NEG_QMIN];
		bits = need[NEED_QMAX] + g->mant - g->unit + headroom + 1;
		g->value_limbs = (bits + 63) / 64;
	}
	g->limbs = g->count_limbs + g->value_limbs;
	return g->limbs <= VP__FIXED_MAX_LIMBS ? 0 : -1;
}

/* v[0..n) += w << (64 word + bit), or -= when negative: w < 2^53 */
static inline void add_word(uint64_t *v, int n, int word, int bit, uint64_t w,
			    int negative)
{
	uint64_t part[2] = { w << bit, bit ? w >> (64 - bit) : 0 };
	unsigned carry = 0;
	int i;

	for (i = word; i < n; i++) {
		uint64_t a = i - word < 2 ? part[i - word] : 0, s;

		if (i - word >= 2 && !carry)
			break;
		if (!negative) {
			s = v[i] + a;
			unsigned c1 = s < a;
			v[i] = s + carry;
			carry = c1 | (v[i] < s);
		} else {
			s = v[i] - a;
			unsigned b1 = v[i] < a;
			v[i] = s - carry;
			carry = b1 | (s < carry);
		}
	}
}

void vp__grid_add_terms(const struct vp__grid *g, uint64_t *acc, int each,
			const void *x, size_t n)
{
	uint64_t m, *a = acc;
	int q, neg, shift, special;
	size_t i;

	for (i = 0; i < n; i++, a += each ? g->limbs : 0) {
		if ((special = split(x, i, g->is_float, &m, &q, &neg)) >= 0) {
			a[special]++; /* count_limbs is 3: the plan saw it */
			continue;
		}
		if (!m)
			continue;
		shift = q - g->unit; /* >= 0: unit is the least q */
		add_word(a + g->count_limbs, g->value_limbs, shift / 64,
			 shift % 64, m, neg);
	}
}

static void negate(uint64_t *v, int n)
{
	unsigned carry = 1;
	int i;

	for (i = 0; i < n; i++) {
		v[i] = ~v[i] + carry;
		carry = carry && v[i] == 0;
	}
}

static int top_bit(const uint64_t *v, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--)
		if (v[i])
			return i * 64 + 63 - __builtin_clzll(v[i]);
	return -1;
}

static int bit_at(const uint64_t *v, int n, int i)
{
	return i >= 0 && i < 64 * n && (v[i / 64] >> (i % 64)) & 1;
}

/* 1 if any of bits [0, k) of v is set */
static int any_below(const uint64_t *v, int n, int k)
{
	int i;

	for (i = 0; i < n && k > 0; i++, k -= 64)
		if (k >= 64 ? v[i] != 0 : (v[i] & ((UINT64_C(1) << k) - 1)))
			return 1;
	return 0;
}

/* the low 64 bits of v >> k, k >= 0 */
static uint64_t shifted_down(const uint64_t *v, int n, int k)
{
	int word = k / 64, bit = k % 64;
	uint64_t lo, hi;

	if (word >= n)
		return 0;
	lo = v[word] >> bit;
	hi = bit && word + 1 < n ? v[word + 1] << (64 - bit) : 0;
	return lo | hi;
}

/* Element i of out (float or double) from its IEEE 754 fields. */
static void put(const struct vp__grid *g, void *out, size_t i, int negative,
		uint64_t bits)
{
	if (g->is_float) {
		uint32_t b32 = (uint32_t)bits | (uint32_t)negative << 31;

		memcpy((float *)out + i, &b32, 4);
	} else {
		bits |= (uint64_t)negative << 63;
		memcpy((double *)out + i, &bits, 8);
	}
}

/* How many bits of a sum whose top bit is 2^(t + unit) are kept: mant, or
 * fewer where the lowest would fall below the least subnormal (2^tiny). */
static int kept_bits(const struct vp__grid *g, int t, int tiny)
{
	int keep = g->mant;

	if (t + g->unit - (keep - 1) < tiny)
		keep = t + g->unit - tiny + 1;
	return keep;
}

/* The sum of one or two value limbs v rounded, in 128-bit arithmetic (the
 * common case): its magnitude q 2^(*pos + unit) to nearest, ties to even,
 * and *negative its sign; 0 for an exact zero, else 1. */
static int round_small(const struct vp__grid *g, const uint64_t *v, int n,
		       int tiny, int *negative, int *pos, uint64_t *q)
{
	unsigned __int128 x = v[0];
	int t;

	x |= (unsigned __int128)(n == 2 ? v[1]
					: (uint64_t)((int64_t)v[0] >> 63))
	     << 64;
	*negative = (int)(x >> 127);
	if (*negative)
		x = -x;
	if (!x)
		return 0;
	t = x >> 64 ? 127 - __builtin_clzll((uint64_t)(x >> 64))
		    : 63 - __builtin_clzll((uint64_t)x);
	*pos = t + 1 - kept_bits(g, t, tiny);
	if (*pos <= 0) {
		*q = (uint64_t)x << -*pos;
	} else {
		unsigned __int128 rest, half;

		*q = 0; /* pos > 128: below half the least subnormal */
		if (*pos <= 128) {
			half = (unsigned __int128)1 << (*pos - 1);
			*q = *pos == 128 ? 0 : (uint64_t)(x >> *pos);
			rest = *pos == 128 ? x : x & (2 * half - 1);
			/* above half, or a tie with q odd: up */
			if (rest > half || (rest == half && (*q & 1)))
				(*q)++;
		}
	}
	return 1;
}

/* The same for a sum of n > 2 value limbs v, limb by limb. */
static int round_limbs(const struct vp__grid *g, const uint64_t *v, int n,
		       int tiny, int *negative, int *pos, uint64_t *q)
{
	uint64_t mag[VP__FIXED_MAX_LIMBS];
	int t, keep;

	memcpy(mag, v, (size_t)n * sizeof(*mag));
	*negative = (int)(mag[n - 1] >> 63);
	if (*negative)
		negate(mag, n);
	t = top_bit(mag, n);
	if (t < 0) /* an exact zero is +0 */
		return 0;
	/* the sum is mag 2^unit, its top bit 2^(t + unit) */
	keep = kept_bits(g, t, tiny);
	*pos = t + 1 - keep; /* the lowest bit kept */
	if (*pos <= 0) {     /* exact */
		*q = shifted_down(mag, n, 0) << -*pos;
	} else {
		int half = bit_at(mag, n, *pos - 1);

		*q = keep > 0 ? shifted_down(mag, n, *pos) : 0;
		if (half && (any_below(mag, n, *pos - 1) || (*q & 1)))
			(*q)++; /* to nearest, ties to even */
	}
	return 1;
}

void vp__grid_round(const struct vp__grid *g, const uint64_t *acc, void *out,
		    size_t i)
{
	/* the format: tiny, the exponent of the least subnormal (and of the
	 * smallest normal number's lowest bit); shift, where the exponent
	 * field starts; inf, that field for infinity and NaN */
	int tiny = g->is_float ? -149 : -1074, shift = g->mant - 1;
	uint64_t inf = g->is_float ? 0xffu : 0x7ffu;
	uint64_t q = 0, bits;
	int n = g->value_limbs, negative = 0, pos = 0, nonzero, e2;

	if (g->count_limbs && (acc[0] || acc[1] || acc[2])) {
		if (acc[0] || (acc[1] && acc[2])) /* a quiet NaN */
			put(g, out, i, 0,
			    inf << shift | UINT64_C(1) << (shift - 1));
		else
			put(g, out, i, !acc[1], inf << shift);
		return;
	}
	nonzero = n <= 2 ? round_small(g, acc + g->count_limbs, n, tiny,
				       &negative, &pos, &q)
			 : round_limbs(g, acc + g->count_limbs, n, tiny,
				       &negative, &pos, &q);
	if (!nonzero) {
		put(g, out, i, 0, 0);
		return;
	}
	/* q 2^e2 with q < 2^mant (subnormal, e2 = tiny) or 2^(mant-1) <=
	 * q <= 2^mant: IEEE's fields are then (e2 - tiny) << shift plus q,
	 * whose hidden bit (or a carry to 2^mant) steps the exponent */
	e2 = pos + g->unit;
	bits = ((uint64_t)(e2 - tiny) << shift) + q;
	if (bits >= inf << shift) /* overflow: to nearest is infinity */
		bits = inf << shift;
	put(g, out, i, negative, bits);
}
