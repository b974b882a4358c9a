/*
 * test_apps.c - the book's applications (apps/): each computes the
 * right answer on its topologies, costs what its formula says (equal where
 * the formula is exact, at most where it is a bound, near where it is an
 * estimate), fails loudly when the answer is wrong, and refuses shapes it
 * cannot run with a message naming them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/apps.h"
#include "tap.h"

static int run(const char *name, const char *topology, int n, int nb,
	       vp_alg alg, struct app_result *r)
{
	struct app_params prm = { .n = n, .nb = nb, .gamma = 0.5, .alg = alg };
	vp_opts o = { .topology = topology, .ts = 100, .tw = 1, .quiet = 1 };

	return app_run(app_find(name), &prm, &o, r);
}

/* The formula says what it is: exact, a bound, or an estimate. */
static int formula_holds(const struct app_result *r, double *ratio)
{
	*ratio = r->st.model_time / r->formula;
	switch (r->kind) {
	case APP_EXACT:
		return fabs(r->st.model_time - r->formula) <= 1e-9 * r->formula;
	case APP_BOUND: /* at most, and not far below: steps overlap a bit */
		return *ratio <= 1 + 1e-9 && *ratio >= 0.6;
	default: /* the sort's buckets: uniform keys, near k each */
		return *ratio >= 0.75 && *ratio <= 1.25;
	}
}

/* Every application on each of its tour topologies and two sizes. */
static void every_application(void)
{
	for (int i = 0; i < app_count; i++) {
		const struct app *a = app_table[i];

		for (int t = 0; t < 2; t++)
			for (int scale = 1; scale <= 2; scale++) {
				struct app_result r;
				double ratio = 0;
				int n = a->tour_n * scale;
				int rc = run(a->name, a->tour[t], n, 0,
					     VP_ALG_AUTO, &r);

				tap_ok(rc == 0 && r.ok,
				       "%s on %s, n = %d: %s (error %g, "
				       "tolerance %g) %s",
				       a->name, a->tour[t], n, r.check, r.error,
				       r.tolerance, r.why);
				int holds = formula_holds(&r, &ratio);

				tap_ok(holds,
				       "%s on %s, n = %d: model time %.1f, "
				       "formula %.1f (%s, ratio %.4f)",
				       a->name, a->tour[t], n, r.st.model_time,
				       r.formula, app_cost_name(r.kind), ratio);
			}
	}
}

/* Where the book's closed form is exact, vp's clock gives it to the unit. */
static void book_formulas(void)
{
	static const char *tori[] = { "torus:2x2", "torus:3x3", "torus:4x4",
				      "torus:5x5" };
	struct app_result r;

	for (int t = 0; t < 4; t++) {
		run("cannon", tori[t], 60, 0, VP_ALG_AUTO, &r);
		tap_ok(
		    r.ok && r.st.model_time == r.book,
		    "cannon on %s, n = 60: model time %.1f = the book's "
		    "2(n^3/p)gamma + 2 sqrt(p) ts + 2 tw 8n^2/sqrt(p) = %.1f",
		    tori[t], r.st.model_time, r.book);
	}
	run("matvec-1d", "hypercube:4", 64, 0, VP_ALG_HYPERCUBE, &r);
	tap_ok(r.ok && fabs(r.st.model_time - r.book) < 1e-9,
	       "matvec-1d on hypercube:4: model time %.1f = the book's "
	       "2(n^2/p)gamma + ts log p + tw 8n(p-1)/p = %.1f",
	       r.st.model_time, r.book);
	run("transpose", "hypercube:3", 32, 0, VP_ALG_HYPERCUBE, &r);
	tap_ok(r.ok && r.st.model_time == r.book,
	       "transpose on hypercube:3 with the book's algorithm: %.1f = "
	       "(ts + tw m p/2) log p = %.1f",
	       r.st.model_time, r.book);
	run("transpose", "mesh:4x4", 32, 0, VP_ALG_MESH, &r);
	tap_ok(r.ok && r.st.model_time == r.book,
	       "transpose on mesh:4x4 with the book's algorithm: %.1f = "
	       "(2 ts + tw m p)(sqrt p - 1) = %.1f",
	       r.st.model_time, r.book);
}

/* Every algorithm of the collective an application calls gives the right
 * answer, and the formula follows the algorithm that ran. */
static void every_algorithm(void)
{
	static const struct {
		const char *app, *topology;
		vp_coll op;
		int n;
	} cases[] = {
		{ "matvec-1d", "hypercube:3", VP_COLL_ALLGATHER, 32 },
		{ "transpose", "mesh:3x3", VP_COLL_ALLTOALL, 18 },
		{ "transpose", "hypercube:3", VP_COLL_ALLTOALL, 16 },
		{ "summa", "mesh:4x4", VP_COLL_BCAST, 32 },
	};
	vp_alg algs[VP_ALG_COUNT_];

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int na = vp_coll_algorithms(cases[k].op, algs, VP_ALG_COUNT_);

		for (int i = 0; i < na; i++) {
			struct app_result r;
			double ratio = 0;
			int rc = run(cases[k].app, cases[k].topology,
				     cases[k].n, 0, algs[i], &r);

			if (rc == 1 && r.rc == VP_EALG)
				continue; /* cannot run on this topology */
			tap_ok(rc == 0 && r.ok &&
				   (r.kind == APP_ESTIMATE ||
				    formula_holds(&r, &ratio)),
			       "%s on %s with %s %s: right, model %.1f, "
			       "formula %.1f (%s) %s",
			       cases[k].app, cases[k].topology,
			       vp_coll_name(cases[k].op), vp_alg_name(algs[i]),
			       r.st.model_time, r.formula,
			       app_cost_name(r.kind), r.why);
		}
	}
}

/* Shapes at the edges: one rank, uneven block-cyclic layouts, p not a
 * power of two. */
static void edges(void)
{
	static const struct {
		const char *app, *topology;
		int n, nb;
	} cases[] = {
		{ "matvec-1d", "full:1", 8, 0 },
		{ "cannon", "full:1", 8, 0 },
		{ "summa", "full:1", 8, 0 },
		{ "mm3d", "full:1", 8, 0 },
		{ "mm-recursive", "full:1", 8, 0 },
		{ "lu-recursive", "full:1", 8, 0 },
		{ "lu", "full:1", 8, 0 },
		{ "sample-sort", "full:1", 100, 0 },
		{ "lu", "mesh:4x4", 45, 5 },
		{ "lu", "torus:3x3", 40, 1 },
		{ "lu", "mesh:2x2", 36, 18 },
		{ "lu", "full:4", 35, 7 },
		{ "sample-sort", "ring:6", 6000, 0 },
		{ "sample-sort", "full:5", 5000, 0 },
		{ "mm3d", "full:27", 30, 0 },
		{ "mm-recursive", "full:8", 4, 0 },
		{ "mm-recursive", "hypercube:6", 16, 0 },
		{ "lu-recursive", "torus:3x3", 60, 0 },
		{ "lu-recursive", "mesh:2x2", 48, 6 },
		{ "lu-recursive", "full:16", 32, 0 },
		{ "matvec-2d", "mesh:5x5", 25, 0 },
		{ "transpose", "ring:5", 15, 0 },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct app_result r;
		int rc = run(cases[k].app, cases[k].topology, cases[k].n,
			     cases[k].nb, VP_ALG_AUTO, &r);

		tap_ok(rc == 0 && r.ok,
		       "%s on %s, n = %d, nb = %d: right (error %g) %s",
		       cases[k].app, cases[k].topology, cases[k].n, cases[k].nb,
		       r.error, r.why);
		if (!strcmp(cases[k].topology, "full:1"))
			tap_ok(r.st.messages == 0 && r.st.model_time > 0,
			       "%s on one rank: no messages, model time %.1f "
			       "(its flops times gamma)",
			       cases[k].app, r.st.model_time);
	}
}

/* Shapes an application cannot take are refused, naming them. */
static void refused(void)
{
	static const struct {
		const char *app, *topology, *says;
		int n, nb;
	} cases[] = {
		{ "matvec-1d", "hypercube:3", "n 10 is not a multiple of p 8",
		  10, 0 },
		{ "cannon", "ring:8", "needs p a square (p = 8)", 16, 0 },
		{ "mm3d", "full:8", "root divides n (n = 9)", 9, 0 },
		{ "mm-recursive", "full:27", "needs p = 8^k (p = 27)", 27, 0 },
		{ "mm-recursive", "full:8", "(n = 6)", 6, 0 },
		{ "lu-recursive", "full:8", "needs p a square (p = 8)", 16, 0 },
		{ "lu", "mesh:2x2", "block size 7 dividing n (n = 20)", 20, 7 },
		{ "summa", "mesh:2x3", "needs p a square (p = 6)", 12, 0 },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct app_result r;
		int rc = run(cases[k].app, cases[k].topology, cases[k].n,
			     cases[k].nb, VP_ALG_AUTO, &r);

		tap_ok(rc == 2 && strstr(r.why, cases[k].says),
		       "%s on %s, n = %d: refused, saying \"%s\" (%s)",
		       cases[k].app, cases[k].topology, cases[k].n,
		       cases[k].says, r.why);
	}
}

/* A wrong answer fails: an application whose rank 3 gets one entry
 * wrong (y_5 + 1/8) is reported, naming the element. */
static int off_by_one_entry(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int rows = x->prm.n / x->p, me = vp_rank(c);

	for (int i = me * rows; i < (me + 1) * rows; i++) {
		double s = 0;

		for (int j = 0; j < x->prm.n; j++)
			s += app_matrix_entry(1, i, j) *
			     app_matrix_entry(2, j, 0);
		x->out[i] = s + (i == 5 ? 0.125 : 0);
	}
	return vp_barrier(c);
}

static double no_formula(const struct app_ctx *x, double ts, double tw,
			 int *exact)
{
	(void)x, (void)ts, (void)tw, (void)exact;
	return 0;
}

static void wrong_answers_fail(void)
{
	struct app wrong = app_matvec_rowwise;
	struct app_params prm = { .n = 16, .gamma = 1 };
	vp_opts o = { .topology = "full:4", .quiet = 1 };
	struct app_result r;
	int rc;

	wrong.rank = off_by_one_entry;
	wrong.formula = no_formula;
	rc = app_run(&wrong, &prm, &o, &r);
	tap_ok(rc == 1 && !r.ok && strstr(r.why, "element 5"),
	       "a result off by 1/8 in one entry fails, naming it: %s", r.why);
	/* an entry no rank writes fails too (it stays NaN) */
	wrong.rank = app_matvec_rowwise.rank;
	o.topology = "full:2";
	prm.n = 16;
	rc = app_run(&wrong, &prm, &o, &r);
	tap_ok(rc == 0 && r.ok, "the same application unbroken is right");
}

/* Under another cost model there is no alpha-beta formula; the answer is
 * still checked. The SVG of Cannon draws its alignment and its shifts. */
static void models_and_pictures(void)
{
	struct app_params prm = { .n = 24, .gamma = 1 };
	char svg[] = "/tmp/vp-test-apps-XXXXXX";
	vp_opts o = { .topology = "torus:3x3",
		      .model = "logp:L=10,o=2,g=4",
		      .quiet = 1 };
	struct app_result r = { 0 };
	char *text = NULL;
	long len = 0;
	FILE *f;
	int fd;

	tap_ok(app_run(&app_cannon, &prm, &o, &r) == 0 && r.ok &&
		   r.formula < 0 && r.st.model_time > 0,
	       "cannon under LogP: right, model time %.1f, no alpha-beta "
	       "formula (%g)",
	       r.st.model_time, r.formula);
	fd = mkstemp(svg);
	if (fd >= 0)
		close(fd);
	o.model = NULL;
	o.ts = 100;
	o.tw = 1;
	o.svg = svg;
	app_run(&app_cannon, &prm, &o, &r);
	f = fopen(svg, "r");
	if (f) {
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)len + 1);
		if (text && fread(text, 1, (size_t)len, f) != (size_t)len)
			len = 0;
		fclose(f);
	}
	tap_ok(text && strstr(text, "alignment") && strstr(text, "shift") &&
		   strstr(text, "<line"),
	       "cannon's SVG (%ld bytes) draws the alignment and the shifts",
	       len);
	free(text);
	unlink(svg);
}

/* With reproducible sums the reductions cost more than the formulas say:
 * no formula is claimed, and the answer is still right. */
static void reproducible_sums(void)
{
	struct app_params prm = { .n = 48, .gamma = 0.5 };
	vp_opts o = { .topology = "hypercube:3", .ts = 100, .tw = 1,
		      .quiet = 1, .reproducible = 1 };
	struct app_result r;
	int rc = app_run(app_find("mm3d"), &prm, &o, &r);

	tap_ok(rc == 0 && r.ok && r.formula < 0 && r.book < 0,
	       "mm3d with reproducible sums: right (error %g), no formula "
	       "claimed (%g)",
	       r.error, r.formula);
}

int main(void)
{
	every_application();
	reproducible_sums();
	book_formulas();
	every_algorithm();
	edges();
	refused();
	wrong_answers_fail();
	models_and_pictures();
	return tap_done();
}
