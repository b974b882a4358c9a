/*
 * formula.c - the book's cost of each algorithm, for tests
 * that check the model clock against it and for tools that print both.
 *
 * Costs are in the alpha-beta model with th = 0: u = ts + tw*m is one
 * message of m bytes. "exact" marks the formulas the model clock reproduces
 * to the unit; the others are the book's bounds or estimates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

static int ceil_log(long p, long k)
{
	int n = 0;
	long s = 1;

	while (s < p) {
		s *= k;
		n++;
	}
	return n;
}

static int is_power_of(long p, long k)
{
	long s = 1;

	while (s < p)
		s *= k;
	return s == p;
}

/* The grid a mesh algorithm uses for p ranks of topology; 0 if none. */
static int grid_of(const char *topology, int p, int *rows, int *cols)
{
	vp_topo t;
	int s;

	if (topology && !vp_topo_parse(topology, &t, NULL, 0) &&
	    t.ndims == 2 && t.p == p) {
		*rows = t.dims[0];
		*cols = t.dims[1];
		return 1;
	}
	for (s = 1; s * s < p; s++)
		;
	*rows = *cols = s;
	return s * s == p;
}

static double min_steps(long q, long n)
{
	return (double)(q < n - q ? q : n - q);
}

double vp_coll_formula(vp_coll op, vp_alg alg, const char *topology, int p,
		       size_t m_bytes, long q, double ts, double tw, int *exact)
{
	double m = (double)m_bytes, u = ts + tw * m, P = p, L, T = -1;
	int pow2 = vp__is_pow2(p), R = 0, C = 0, ex = 1, k = 4;
	int grid = p > 0 && grid_of(topology, p, &R, &C);
	int Lc = vp__log2_ceil(p), pof2 = 1;
	int divides = p > 0 && m_bytes % (size_t)p == 0;

	if (exact)
		*exact = 0;
	if (p < 1)
		return -1;
	L = Lc;
	while (pof2 * 2 <= p)
		pof2 *= 2;
	if ((alg == VP_ALG_HYPERCUBE && !pow2) || (alg == VP_ALG_MESH && !grid))
		return -1;
	if (p == 1) {
		if (exact)
			*exact = 1;
		return 0;
	}
	switch (op) {
	case VP_COLL_BCAST:
	case VP_COLL_REDUCE:
		switch (alg) {
		case VP_ALG_LINEAR:
			T = (P - 1) * u;
			break;
		case VP_ALG_HYPERCUBE:
		case VP_ALG_TREE:
		case VP_ALG_BINOMIAL:
			T = L * u;
			break;
		case VP_ALG_MESH:
			T = (vp__log2_ceil(R) + vp__log2_ceil(C)) * u;
			break;
		case VP_ALG_KARY:
			T = ceil_log(p, k) * (k - 1) * u;
			ex = is_power_of(p, k);
			break;
		case VP_ALG_SCATTER_ALLGATHER:
		case VP_ALG_REDUCE_SCATTER_GATHER:
			if ((alg == VP_ALG_SCATTER_ALLGATHER) !=
			    (op == VP_COLL_BCAST))
				return -1;
			if (pow2)
				T = 2 * (ts * L + tw * m * (P - 1) / P);
			else
				T = ts * L + tw * m * (P - 1) / P +
				    (P - 1) * (ts + tw * m / P);
			ex = divides;
			break;
		case VP_ALG_PIPELINED_TREE: {
			double seg = tw > 0 ? sqrt(m * ts / (tw * log2(P))) : m;

			if (seg < 1)
				seg = 1;
			if (seg > m)
				seg = m;
			T = 2 * (log2(P) + m / seg) * (ts + tw * seg);
			ex = 0;
			break;
		}
		case VP_ALG_DOUBLE_TREE:
			T = 2 * log2(P) * ts + sqrt(m * log2(P) * ts * tw) +
			    tw * m;
			ex = 0;
			break;
		default:
			return -1;
		}
		break;
	case VP_COLL_ALLREDUCE:
		switch (alg) {
		case VP_ALG_HYPERCUBE:
		case VP_ALG_RECURSIVE_DOUBLING:
			T = (vp__log2_ceil(pof2) + (pof2 < p ? 2 : 0)) * u;
			break;
		case VP_ALG_BINOMIAL:
			T = 2 * L * u;
			break;
		case VP_ALG_RABENSEIFNER:
			T = 2 * ts * vp__log2_ceil(pof2) +
			    2 * tw * m * (pof2 - 1) / pof2 +
			    (pof2 < p ? 2 * u : 0);
			ex = m_bytes % (size_t)pof2 == 0;
			break;
		case VP_ALG_RING:
			T = 2 * (P - 1) * (ts + tw * m / P);
			ex = divides;
			break;
		default:
			return -1;
		}
		break;
	case VP_COLL_ALLGATHER:
	case VP_COLL_REDUCE_SCATTER:
		switch (alg) {
		case VP_ALG_RING:
		case VP_ALG_PAIRWISE:
			if (alg == VP_ALG_PAIRWISE &&
			    op == VP_COLL_ALLGATHER)
				return -1;
			T = (P - 1) * u;
			break;
		case VP_ALG_MESH:
			T = ts * (R + C - 2) + tw * m * (P - 1);
			break;
		case VP_ALG_HYPERCUBE:
			T = ts * L + tw * m * (P - 1);
			break;
		case VP_ALG_BRUCK:
			if (op != VP_COLL_ALLGATHER)
				return -1;
			T = ts * L + tw * m * (P - 1);
			break;
		case VP_ALG_LINEAR:
			T = (P - 1) * u + (P - 1) * (ts + tw * m * P);
			break;
		default:
			return -1;
		}
		break;
	case VP_COLL_SCAN:
		switch (alg) {
		case VP_ALG_HYPERCUBE:
		case VP_ALG_RECURSIVE_DOUBLING:
			T = L * u;
			break;
		case VP_ALG_LINEAR:
			T = (P - 1) * u;
			break;
		default:
			return -1;
		}
		break;
	case VP_COLL_SCATTER:
	case VP_COLL_GATHER:
		switch (alg) {
		case VP_ALG_LINEAR:
			T = (P - 1) * u;
			break;
		case VP_ALG_BINOMIAL:
			T = ts * L + tw * m * (P - 1);
			ex = pow2;
			break;
		default:
			return -1;
		}
		break;
	case VP_COLL_ALLTOALL:
		switch (alg) {
		case VP_ALG_RING:
			T = (P - 1) * ts + tw * m * P * (P - 1) / 2;
			break;
		case VP_ALG_MESH:
			T = ts * (R + C - 2) +
			    tw * m * ((double)R * C * (C - 1) / 2 +
				      (double)C * R * (R - 1) / 2);
			break;
		case VP_ALG_HYPERCUBE:
			T = (ts + tw * m * P / 2) * L;
			break;
		case VP_ALG_PAIRWISE:
			T = (P - 1) * u;
			break;
		case VP_ALG_BRUCK: {
			double blocks = 0;
			long bit, i;

			for (bit = 1; bit < p; bit <<= 1)
				for (i = 0; i < p; i++)
					blocks += (i & bit) != 0;
			T = ts * L + tw * m * blocks;
			break;
		}
		default:
			return -1;
		}
		break;
	case VP_COLL_SHIFT:
		q = ((q % p) + p) % p;
		switch (alg) {
		case VP_ALG_RING:
			T = min_steps(q, p) * u;
			break;
		case VP_ALG_MESH: {
			long b = q % C, a = q / C, s0 = a % R,
			     s1 = (a + 1) % R;
			double col = min_steps(s0, R);

			if (b > 0 && min_steps(s1, R) > col)
				col = min_steps(s1, R);
			T = (min_steps(b, C) + col) * u;
			break;
		}
		case VP_ALG_HYPERCUBE:
			T = vp__popcount((unsigned long)q) * u;
			break;
		case VP_ALG_DIRECT:
			T = q ? u : 0;
			break;
		default:
			return -1;
		}
		break;
	case VP_COLL_COUNT_:
		return -1;
	}
	if (exact)
		*exact = ex;
	return T;
}
