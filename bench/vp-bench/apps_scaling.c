/*
 * apps_scaling.c - vp-bench --apps: SUMMA on q x q meshes and Cannon on
 * q x q tori over p and n, each run checked; the model time next to the
 * step formula, and the wall time of the whole run (thread start, local
 * multiplies on this machine's cores, messages). With --out DIR, also
 * DIR/apps_scaling.svg: model time against p, a line per (app, n).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/apps.h"
#include "bench.h"
#include "bench_plot.h"
#include "bench_rows.h"
#include "modes.h"
#include "vp.h"

static int apps_scaling(const char *outdir, int smoke)
{
	static const char *colours[] = { "#1f77b4", "#d62728", "#2ca02c" };
	static const int sides[] = { 1, 2, 4, 8 }, sizes[] = { 128, 256, 512 };
	static const char *names[] = { "cannon", "summa" };
	struct plot pl = { .title = "Cannon (torus) and SUMMA (mesh): model "
				    "time against p",
			   .subtitle = "ts = 100, tw = 1, gamma = 0.01 a flop; "
				       "solid Cannon, dashed SUMMA",
			   .xlabel = "p",
			   .ylabel = "model time" };
	int failed = 0, ns = smoke ? 1 : 3;

	printf("# vp-bench --apps: ts = 100, tw = 1, gamma = 0.01 a flop; "
	       "every run checked against the sequential product\n");
	printf("# %-7s %-10s %4s %5s %14s %14s %-5s %10s %9s\n", "app",
	       "topology", "p", "n", "model", "formula", "is", "wall_s",
	       "messages");
	for (int a = 0; a < 2; a++)
		for (int k = 0; k < ns; k++)
			for (int s = 0; s < 4; s++) {
				int q = sides[s];
				char topo[32], series[64];
				struct app_params prm = { .n = sizes[k],
							  .gamma = 0.01 };
				vp_opts o = { .topology = topo,
					      .ts = 100,
					      .tw = 1,
					      .quiet = 1 };
				struct app_result r;

				snprintf(topo, sizeof(topo), "%s:%dx%d",
					 a == 0 ? "torus" : "mesh", q, q);
				if (app_run(app_find(names[a]), &prm, &o, &r)) {
					printf("%-9s %-10s FAILED: %s\n",
					       names[a], topo, r.why);
					failed++;
					continue;
				}
				printf("  %-7s %-10s %4d %5d %14.1f %14.1f "
				       "%-5s %10.3f %9llu\n",
				       names[a], topo, q * q, sizes[k],
				       r.st.model_time, r.formula,
				       app_cost_name(r.kind), r.st.wall_seconds,
				       (unsigned long long)r.st.messages);
				snprintf(series, sizeof(series), "%s n=%d",
					 names[a], sizes[k]);
				plot_add(&pl, series, colours[k], a == 1, q * q,
					 r.st.model_time);
			}
	if (outdir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/apps_scaling.svg", outdir);
		if (plot_write(&pl, path))
			failed++;
		else
			printf("# plot: %s\n", path);
	}
	return failed ? 1 : 0;
}

int mode_apps(const struct bench_args *a)
{
	return apps_scaling(a->outdir, bench_quick);
}
