/*
 * run_apps.c - vp-run's applications (apps/): --app NAME runs one,
 * --apps is the tour of all of them. Each line: the result's check, the
 * model time next to the step-by-step formula and what the formula is to
 * it (exact: equal to the unit; bound: at most; ~: an estimate), the
 * source's closed form, the wall time, the messages and the link load.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "apps/apps.h"
#include "options.h"
#include "run_apps.h"
#include "vp.h"

static void apps_header(void)
{
	printf("%-12s %-12s %5s %-6s %10s %10s %-5s %10s %8s %5s %4s\n", "app",
	       "topology", "n", "check", "model", "formula", "is", "book",
	       "wall_ms", "msgs", "load");
}

/* 0 right and the formula holds as it says; 1 not. */
static int formula_holds(const struct app_result *r)
{
	double m = r->st.model_time, f = r->formula;

	if (f < 0 || r->kind == APP_ESTIMATE)
		return 1;
	if (r->kind == APP_EXACT)
		return fabs(m - f) <= 1e-9 * (f > 1 ? f : 1);
	return m <= f * (1 + 1e-9);
}

static int apps_row(const struct app *a, const char *topology,
		    const struct app_result *r, int n)
{
	char f[32] = "-", b[32] = "-";
	int good = r->ok && formula_holds(r);

	if (r->formula >= 0)
		snprintf(f, sizeof(f), "%.1f", r->formula);
	if (r->book >= 0)
		snprintf(b, sizeof(b), "%.1f", r->book);
	printf("%-12s %-12s %5d %-6s %10.1f %10s %-5s %10s %8.2f %5llu "
	       "%4llu%s%s\n",
	       a->name, topology, n, r->ok ? "ok" : "WRONG", r->st.model_time,
	       f, r->formula >= 0 ? app_cost_name(r->kind) : "-", b,
	       r->st.wall_seconds * 1e3, (unsigned long long)r->st.messages,
	       (unsigned long long)r->st.max_link_load,
	       good ? "" : "  FAILED: ",
	       good    ? ""
	       : r->ok ? "the model time breaks the formula's claim"
		       : r->why);
	return good ? 0 : 1;
}

static void apps_opts(const struct options *o, const char *topology, vp_opts *v)
{
	memset(v, 0, sizeof(*v));
	v->topology = topology;
	v->strict = o->strict;
	v->ts = o->ts;
	v->tw = o->tw;
	v->th = o->th;
	v->model = o->model;
	v->trace = o->trace;
	v->svg = o->svg;
	v->trace_wall = o->wall_clock;
	v->schedule = o->schedule;
	v->schedule_depth = o->schedule_depth;
	v->quiet = 1;
}

int app_one(const struct options *o, const struct app_options *ao)
{
	const struct app *a = app_find(ao->name);
	struct app_params prm;
	struct app_result r;
	const char *topology;
	vp_opts v;
	int rc;

	if (!a) {
		char all[256] = "";

		for (int i = 0; i < app_count; i++)
			snprintf(all + strlen(all), sizeof(all) - strlen(all),
				 "%s%s", i ? ", " : "", app_table[i]->name);
		usage_error("--app '%s' is not an application; they are: %s",
			    ao->name, all);
	}
	topology = o->topology ? o->topology : a->tour[0];
	prm = (struct app_params){ .n = ao->n ? ao->n : a->tour_n,
				   .nb = ao->nb,
				   .gamma = ao->gamma,
				   .alg = (vp_alg)o->alg };
	apps_opts(o, topology, &v);
	rc = app_run(a, &prm, &v, &r);
	if (rc == 2)
		usage_error("%s", r.why);
	printf("%s: %s (%s)\n", a->name, a->title, a->source);
	printf("check: %s: error %g, tolerance %g\n", r.check, r.error,
	       r.tolerance);
	printf("book:  %s\n\n", a->book_text);
	apps_header();
	rc = apps_row(a, topology, &r, prm.n);
	printf("\nts = %g, tw = %g, th = %g, gamma = %g a flop; model time "
	       "congested (tw x load): %.1f\n%s\n",
	       o->ts, o->tw, o->th, ao->gamma, r.st.model_time_congested,
	       r.st.collectives);
	if (r.formula < 0)
		printf("no formula: they are alpha-beta's with th = 0\n");
	if (o->svg)
		printf("svg: %s\n", o->svg);
	if (o->trace)
		printf("trace: %s (open in ui.perfetto.dev)\n", o->trace);
	return rc;
}

int app_tour(const struct options *o, const struct app_options *ao)
{
	int failed = 0, cases = 0;

	printf("vp-run --apps: the book's applications, each checked against "
	       "a sequential computation;\nts = %g, tw = %g, th = %g, gamma = "
	       "%g a flop (or comparison); formula: the steps' cost, exact,\n"
	       "a bound (steps overlap) or ~ (data-dependent); book: the "
	       "source's closed form\n\n",
	       o->ts, o->tw, o->th, ao->gamma);
	apps_header();
	for (int i = 0; i < app_count; i++) {
		const struct app *a = app_table[i];

		for (int t = 0; t < 2; t++) {
			struct app_params prm = { .n =
						      ao->n ? ao->n : a->tour_n,
						  .nb = ao->nb,
						  .gamma = ao->gamma,
						  .alg = (vp_alg)o->alg };
			struct app_result r;
			vp_opts v;

			apps_opts(o, a->tour[t], &v);
			if (app_run(a, &prm, &v, &r) == 2) {
				printf("%-12s %-12s %5d FAILED: %s\n", a->name,
				       a->tour[t], prm.n, r.why);
				failed++;
			} else {
				failed += apps_row(a, a->tour[t], &r, prm.n);
			}
			cases++;
		}
	}
	printf("\n%d runs, %d failed\n", cases, failed);
	return failed ? 1 : 0;
}
