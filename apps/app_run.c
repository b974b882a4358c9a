/*
 * app_run.c - runs one application: checks that it fits the topology,
 * computes the sequential answer, runs the ranks, compares, and costs the
 * run with the application's formulas.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

const struct app *const app_table[] = {
	&app_matvec_rowwise, &app_matvec_2d, &app_transpose, &app_cannon,
	&app_summa,          &app_mm3d,      &app_mm_recursive, &app_lu, &app_lu_recursive, &app_sample_sort,
};
const int app_count = (int)(sizeof(app_table) / sizeof(app_table[0]));

const char *app_cost_name(enum app_cost k)
{
	return k == APP_EXACT ? "exact" : k == APP_BOUND ? "bound" : "~";
}

const struct app *app_find(const char *name)
{
	for (int i = 0; i < app_count; i++)
		if (!strcmp(app_table[i]->name, name))
			return app_table[i];
	return NULL;
}

/* The alpha-beta parameters the run uses, or 0 when it runs another model,
 * charges hops (th > 0) or sums reproducibly (its reductions carry wider
 * integers after one more all-reduce): the formulas are for alpha-beta
 * with th = 0 and plain sums. */
static int alpha_beta(const vp_opts *o, double *ts, double *tw)
{
	const char *spec = getenv("VP_MODEL"), *repro = getenv("VP_REPRODUCIBLE");
	double th = o->th;
	vp_model m;

	*ts = o->ts;
	*tw = o->tw;
	if (repro ? atoi(repro) == 1 : o->reproducible)
		return 0;
	if (!spec || !*spec)
		spec = o->model;
	if (spec && *spec) {
		if (vp_model_parse(spec, &m, NULL, 0) ||
		    m.kind != VP_MODEL_ALPHA_BETA || m.ports > 1)
			return 0;
		if (m.ts > 0)
			*ts = m.ts;
		if (m.tw > 0)
			*tw = m.tw;
		if (m.th > 0)
			th = m.th;
	}
	return th == 0;
}

/* Largest |out - ref|; a NaN (a part no rank wrote) is infinitely wrong. */
static double max_difference(const double *out, const double *ref, size_t n,
			     size_t *where)
{
	double worst = 0;

	*where = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs(out[i] - ref[i]);

		if (isnan(d))
			d = INFINITY;
		if (d > worst) {
			worst = d;
			*where = i;
		}
	}
	return worst;
}

int app_run(const struct app *a, const struct app_params *prm,
	    const vp_opts *opts, struct app_result *r)
{
	const char *spec = opts->topology ? opts->topology : "full:1";
	struct app_ctx x;
	double *ref = NULL, ts, tw;
	size_t len, where = 0;
	char err[512];

	memset(r, 0, sizeof(*r));
	memset(&x, 0, sizeof(x));
	r->formula = r->book = -1;
	x.app = a;
	x.prm = *prm;
	if (x.prm.gamma < 0 || x.prm.n < 1) {
		snprintf(r->why, sizeof(r->why),
			 "%s: n %d and gamma %g must be positive", a->name,
			 x.prm.n, x.prm.gamma);
		return 2;
	}
	if (vp_topo_parse(spec, &x.topo, err, sizeof(err))) {
		snprintf(r->why, sizeof(r->why), "%s", err);
		return 2;
	}
	x.p = x.topo.p;
	if (a->shape(&x, r->why, sizeof(r->why)))
		return 2;
	len = a->out_len(&x);
	x.out = malloc(len * sizeof(double));
	if (a->reference)
		ref = malloc(len * sizeof(double));
	if (!x.out || (a->reference && !ref)) {
		free(x.out);
		free(ref);
		snprintf(r->why, sizeof(r->why), "%s: no memory for n = %d",
			 a->name, x.prm.n);
		return 2;
	}
	for (size_t i = 0; i < len; i++)
		x.out[i] = NAN; /* parts no rank writes fail the check */
	if (ref)
		a->reference(&x, ref);

	r->rc = vp_run(opts, a->rank, &x, &r->st);
	if (r->rc) {
		snprintf(r->why, sizeof(r->why), "%s", r->st.error);
	} else if (a->check) {
		r->error = a->check(&x, &r->tolerance);
	} else {
		r->error = max_difference(x.out, ref, len, &where);
		r->tolerance = 0;
	}
	snprintf(r->check, sizeof(r->check), "%s", a->check_text);
	r->ok = r->rc == 0 && r->error <= r->tolerance;
	if (!r->rc && !r->ok && a->check)
		snprintf(r->why, sizeof(r->why),
			 "%s: wrong result: error %g > tolerance %g", a->name,
			 r->error, r->tolerance);
	else if (!r->rc && !r->ok)
		snprintf(r->why, sizeof(r->why),
			 "%s: wrong result: element %zu is %g, the sequential "
			 "answer %g",
			 a->name, where, x.out[where], ref[where]);
	if (alpha_beta(opts, &ts, &tw)) {
		int exact = 1;

		r->formula = a->formula(&x, ts, tw, &exact);
		r->kind = exact ? a->cost : APP_ESTIMATE;
		r->book = a->book ? a->book(&x, ts, tw) : r->formula;
	}
	free(x.out);
	free(ref);
	return r->ok ? 0 : 1;
}
