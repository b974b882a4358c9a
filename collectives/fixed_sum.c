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
 * call's largest and smallest exponents (emax, emin: frexp's, so every
 * non-zero term has 2^(emin-1) <= |x| < 2^emax), whether a NaN or
 * infinity occurs, and how many terms a sum may have (N). Every term is a
 * multiple of 2^(emin - mant) (mant = 53 for doubles, 24 for floats) and
 * the sum is below N 2^emax, so the integers need
 *     emax - emin + mant + ceil(log2 N) + 1 (sign)
 * bits: 64-bit limbs, as many as that takes (two for doubles whose
 * magnitudes span less than 2^(67 - log2 N); at most 38 for any doubles).
 *
 * Special values: when a term of the call is NaN or infinite, each
 * element gets three more limbs, first (lowest), that count its NaNs, +infs
 * and -infs (counts never carry into the value limbs, and the value's
 * carry out of its top limb is dropped, so one multi-limb add serves both).
 * A NaN, or +inf with -inf, gives NaN; an infinity alone gives itself. An
 * exact zero sum is +0, also when every term is -0 (IEEE would give -0
 * there; the exact sum has no sign).
 *
 * Cost: per term one frexp, a shift and an add of `limbs` words; on the
 * wire 8 limbs bytes an element, plus the one exchange of 16 bytes.
 */
#include <math.h>
#include <string.h>

#include "coll.h"

enum { NEED_EMAX, NEED_NEG_EMIN, NEED_SPECIAL, NEED_COUNT_BITS };

#define NO_TERM (-30000) /* emax and -emin of a rank with no finite term */
#define COUNT_LIMBS 3    /* NaN, +inf, -inf */

static int bits_of(uint64_t n) /* ceil(log2(n)), 0 for n <= 1 */
{
	int b = 0;

	while (b < 64 && (UINT64_C(1) << b) < n)
		b++;
	return b;
}

void vp__grid_need(int32_t need[VP__GRID_NEED], const void *x, size_t n,
		   int is_float, size_t terms_per_sum)
{
	size_t i;
	int e;

	need[NEED_EMAX] = NO_TERM;
	need[NEED_NEG_EMIN] = NO_TERM;
	need[NEED_SPECIAL] = 0;
	need[NEED_COUNT_BITS] = bits_of(terms_per_sum);
	for (i = 0; i < n; i++) {
		double v = is_float ? (double)((const float *)x)[i]
				    : ((const double *)x)[i];

		if (isnan(v) || isinf(v)) {
			need[NEED_SPECIAL] = 1;
			continue;
		}
		if (v == 0)
			continue;
		frexp(v, &e);
		if (e > need[NEED_EMAX])
			need[NEED_EMAX] = e;
		if (-e > need[NEED_NEG_EMIN])
			need[NEED_NEG_EMIN] = -e;
	}
}

int vp__grid_plan(struct vp__grid *g, const int32_t need[VP__GRID_NEED],
		  int is_float, int p)
{
	int headroom = need[NEED_COUNT_BITS] + bits_of((uint64_t)p), bits;

	g->is_float = is_float;
	g->mant = is_float ? 24 : 53;
	g->count_limbs = need[NEED_SPECIAL] ? COUNT_LIMBS : 0;
	if (need[NEED_EMAX] == NO_TERM) { /* no finite non-zero term */
		g->unit = 0;
		g->value_limbs = 1;
	} else {
		int emin = -need[NEED_NEG_EMIN];

		g->unit = emin - g->mant;
		bits = need[NEED_EMAX] - emin + g->mant + headroom + 1;
		g->value_limbs = (bits + 63) / 64;
	}
	g->limbs = g->count_limbs + g->value_limbs;
	return g->limbs <= VP__FIXED_MAX_LIMBS ? 0 : -1;
}

/* v[0..n) += w << (64 word + bit), or -= when negative: w < 2^53 */
static void add_word(uint64_t *v, int n, int word, int bit, uint64_t w,
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

void vp__grid_add_term(const struct vp__grid *g, uint64_t *acc, double x)
{
	uint64_t *value = acc + g->count_limbs, m;
	int e, shift;
	double f;

	if (isnan(x) || isinf(x)) {
		acc[isnan(x) ? 0 : x > 0 ? 1 : 2]++; /* count_limbs is 3 */
		return;
	}
	if (x == 0)
		return;
	f = frexp(fabs(x), &e);
	m = (uint64_t)ldexp(f, g->mant); /* exact: f has <= mant bits */
	shift = e - g->mant - g->unit;   /* >= 0: emin is the least e */
	add_word(value, g->value_limbs, shift / 64, shift % 64, m, x < 0);
}

void vp__fixed_add(const uint64_t *in, uint64_t *inout, int limbs)
{
	unsigned carry = 0;
	int i;

	for (i = 0; i < limbs; i++) {
		uint64_t s = in[i] + inout[i];
		unsigned c1 = s < in[i];

		inout[i] = s + carry;
		carry = c1 | (inout[i] < s);
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

double vp__grid_round(const struct vp__grid *g, const uint64_t *acc)
{
	/* emin_normal: frexp's exponent of the smallest normal number */
	int emin_normal = g->is_float ? -125 : -1021, n = g->value_limbs;
	uint64_t mag[VP__FIXED_MAX_LIMBS], q;
	int negative, t, ev, keep, pos;
	double r;

	if (g->count_limbs && (acc[0] || acc[1] || acc[2])) {
		if (acc[0] || (acc[1] && acc[2]))
			return NAN;
		return acc[1] ? INFINITY : -INFINITY;
	}
	memcpy(mag, acc + g->count_limbs, (size_t)n * sizeof(*mag));
	negative = (int)(mag[n - 1] >> 63);
	if (negative)
		negate(mag, n);
	t = top_bit(mag, n);
	if (t < 0)
		return 0.0;
	/* the sum is mag 2^unit, in [2^(t + unit), 2^(t + 1 + unit)) */
	ev = t + 1 + g->unit;
	keep = ev >= emin_normal ? g->mant : g->mant - (emin_normal - ev);
	pos = t + 1 - keep; /* the lowest bit kept */
	if (pos <= 0) {
		q = shifted_down(mag, n, 0); /* t < mant: exact */
		pos = 0;
	} else {
		int half = bit_at(mag, n, pos - 1);

		q = shifted_down(mag, n, pos);
		if (half && (any_below(mag, n, pos - 1) || (q & 1)))
			q++; /* to nearest, ties to even */
	}
	/* q <= 2^mant is exact as a double, and so is q 2^(pos + unit) in
	 * the target format unless it overflows, where inf is the correctly
	 * rounded result (the float conversion is exact or overflows) */
	r = ldexp((double)q, pos + g->unit);
	if (g->is_float)
		r = (double)(float)r;
	return negative ? -r : r;
}
