/*
 * formula.c - vp_coll_formula: the book's cost of an algorithm, for tests
 * that check the model clock against it and for tools that print both.
 * Each algorithm's formula is in its own file (its descriptor's cost);
 * this file derives their common arguments.
 *
 * Costs are in the alpha-beta model with th = 0: u = ts + tw*m is one
 * message of m bytes; vp_coll_formula_model gives an algorithm's BSP and
 * LogP costs too where it has them. "exact" marks the formulas the model
 * clock reproduces to the unit; the others are the book's bounds or
 * estimates.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

/* The degree of the k-ary trees the formulas assume (vp_opts.kary's
 * default). */
#define DEFAULT_KARY 4

/* The grid a mesh algorithm uses for p ranks of topology; 0 if none. */
static int grid_of(const char *topology, int p, int *rows, int *cols)
{
	vp_topo t;
	int s;

	if (topology && !vp_topo_parse(topology, &t, NULL, 0) && t.ndims == 2 &&
	    t.p == p) {
		*rows = t.dims[0];
		*cols = t.dims[1];
		return 1;
	}
	for (s = 1; s * s < p; s++)
		;
	*rows = *cols = s;
	return s * s == p;
}

double vp_coll_formula(vp_coll op, vp_alg alg, const char *topology, int p,
		       size_t m_bytes, long q, double ts, double tw, int *exact)
{
	vp_model m = { .kind = VP_MODEL_ALPHA_BETA, .ts = ts, .tw = tw,
		       .ports = 1 };

	return vp_coll_formula_model(op, alg, topology, p, m_bytes, q, &m,
				     exact);
}

/* The cost function of d under model m, or NULL where the material gives
 * none: alpha-beta's for store-and-forward only where every message is
 * one hop (fully connected, the neighbour algorithms), none with more than
 * one port. */
static double (*cost_of(const struct coll_algorithm *d, const vp_model *m,
			const char *topology))(const struct coll_cost *,
						int *)
{
	if (m->kind == VP_MODEL_BSP)
		return d->bsp_cost;
	if (m->ports != 1)
		return NULL;
	switch (m->kind) {
	case VP_MODEL_ALPHA_BETA:
		return d->cost;
	case VP_MODEL_ALPHA_BETA_SAF: /* the same where every message is
				       * one hop */
		return (topology && !strncmp(topology, "full:", 5)) ||
			       d->alg == VP_ALG_NEIGHBOUR
			   ? d->cost
			   : NULL;
	default:
		return d->logp_cost;
	}
}

double vp_coll_formula_model(vp_coll op, vp_alg alg, const char *topology,
			     int p, size_t m_bytes, long q,
			     const vp_model *model, int *exact)
{
	double (*cost)(const struct coll_cost *, int *);
	double ts = model ? model->ts : 0, tw = model ? model->tw : 0;
	const struct coll_algorithm *d = vp__algorithm(op, alg);
	struct coll_cost k;
	int ex = 1, grid;
	double T;

	if (exact)
		*exact = 0;
	if (!d || p < 1 || !model || !(cost = cost_of(d, model, topology)))
		return -1;
	memset(&k, 0, sizeof(k));
	grid = grid_of(topology, p, &k.rows, &k.cols);
	vp__layout_of_spec(topology, p, &k.lay);
	if ((d->needs == NEED_POW2 && !vp__is_pow2(p)) ||
	    (d->needs == NEED_GRID && !grid))
		return -1;
	if ((d->needs == NEED_LAYOUT || d->needs == NEED_LAYOUT_OR_CUBE) &&
	    k.lay.kind != LAYOUT_CHAIN && k.lay.kind != LAYOUT_GRID &&
	    !(k.lay.kind == LAYOUT_CUBE && d->needs == NEED_LAYOUT_OR_CUBE))
		return -1;
	if (p == 1) {
		if (exact)
			*exact = 1;
		return 0;
	}
	k.p = p;
	k.P = p;
	k.m_bytes = m_bytes;
	k.m = (double)m_bytes;
	k.q = ((q % p) + p) % p;
	k.root = (int)k.q;
	k.ts = ts;
	k.tw = tw;
	k.u = ts + tw * k.m;
	k.L = vp__log2_ceil(p);
	k.pow2 = vp__is_pow2(p);
	for (k.pof2 = 1; k.pof2 * 2 <= p; k.pof2 *= 2)
		;
	k.divides = m_bytes % (size_t)p == 0;
	k.kary = DEFAULT_KARY;
	k.g = model->g;
	k.l = model->l;
	k.Lat = model->L;
	k.o = model->o;
	k.gap = model->g;
	k.G = model->kind == VP_MODEL_LOGGP ? model->G : 0;
	T = cost(&k, &ex);
	if (exact)
		*exact = ex;
	return T;
}
