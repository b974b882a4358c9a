/*
 * same_source.c - vp-bench --compare-mpi --same-source: one MPI source
 * (the twin, bench/mpi/vp-mpi-bench.c) built with vpmpicc and with Open
 * MPI's mpicc, next to vp's own loop, and the goal that an MPI program
 * through vpmpicc stays within 10% of the same loop written against vp.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "bench_mpi.h"
#include "bench_rows.h"
#include "compare_set.h"
#include "measure_op.h"
#include "modes.h"
#include "vp.h"

struct src_row {
	struct row vp, vpmpi, mpi;
};

/* The goal: an MPI program through vpmpicc within 10% of the
 * same loop written against vp (ping-pong and allreduce, p = 2 and 8). */
static void same_source_goals(const struct src_row *c, int n)
{
	int i, met = 0, all = 0;

	note("%s", "");
	note("goal: vpmpicc program / native vp <= 1.10 (best median of "
	     "each side):");
	for (i = 0; i < n; i++) {
		const struct row *v = &c[i].vp;
		double ratio = c[i].vpmpi.s.p50 / v->s.p50;

		if (v->p > 8 ||
		    (strcmp(v->op, "pingpong") && strcmp(v->op, "allreduce")))
			continue;
		all++;
		met += ratio <= 1.10;
		note("  %-10s p=%-3d %8zu B  vp %10.3f us  vpmpicc %10.3f us  "
		     "ratio %5.2f: %s",
		     v->op, v->p, v->bytes, v->s.p50, c[i].vpmpi.s.p50, ratio,
		     ratio <= 1.10 ? "met" : "NOT met");
	}
	note("MPI source on vp within 10%% of native vp: %d of %d met", met,
	     all);
}

static void write_same_source_csv(const char *dir, const struct src_row *c,
				  int n)
{
	char path[4096];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/same_source.csv", dir);
	if (!(f = fopen(path, "w"))) {
		perror(path);
		return;
	}
	fprintf(f, "op,p,bytes,vp_p50_us,vpmpi_p50_us,openmpi_p50_us,"
		   "vpmpi_over_vp,openmpi_over_vpmpi\n");
	for (i = 0; i < n; i++)
		fprintf(f, "%s,%d,%zu,%.3f,%.3f,%.3f,%.3f,%.3f\n", c[i].vp.op,
			c[i].vp.p, c[i].vp.bytes, c[i].vp.s.p50,
			c[i].vpmpi.s.p50, c[i].mpi.s.p50,
			c[i].vpmpi.s.p50 / c[i].vp.s.p50,
			c[i].mpi.s.p50 / c[i].vpmpi.s.p50);
	fclose(f);
	fprintf(stderr, "vp-bench: wrote %s\n", path);
}

/* One MPI source (bench/mpi/vp-mpi-bench.c) built twice, with vpmpicc and
 * with Open MPI's mpicc, next to vp's own loop: the cost of the MPI layer
 * and the comparison with Open MPI on the very same program. Noise only
 * adds time, so each vp side runs `rounds` times (7 for the goal's rows),
 * alternating, and keeps its best median. */
int mode_same_source(const char *outdir)
{
	static const int ps[] = { 2, 8, 64 };
	static struct src_row cmp[MAX_ROWS];
	struct row want[64], got[64], r;
	char twin[4096], vtwin[4200], dir[4200], list[8192], job[96], spec[16];
	int n = 0, pi, i, k, nw, rounds = bench_quick ? 1 : 3;

	if (mpi_ensure() ||
	    (mpi_twin_path(twin, sizeof(twin)), mpi_build(twin)) ||
	    vpmpi_build(vtwin, sizeof(vtwin), dir, sizeof(dir)))
		return 1;
	for (pi = 0; pi < 3; pi++) {
		int p = ps[pi];

		if ((nw = openmpi_rows(twin, p, want, got, list,
				       sizeof(list))) < 0)
			return 1;
		for (i = 0; i < nw && n < MAX_ROWS; i++) {
			spec_of(p, want[i].op, spec, sizeof(spec));
			snprintf(job, sizeof(job), "%.47s:%zu:%d", want[i].op,
				 want[i].bytes, want[i].iters);
			/* the goal's rows (p <= 8, ping-pong and allreduce)
			 * get more rounds: where the ranks outnumber the CPUs
			 * one median moves between runs of the same binary */
			int goal_row =
			    p <= 8 && (!strcmp(want[i].op, "pingpong") ||
				       !strcmp(want[i].op, "allreduce"));
			int nr = goal_row && !bench_quick ? 7 : rounds;

			for (k = 0; k < nr; k++) {
				progress("p=%d %s %zu B, round %d of %d", p,
					 want[i].op, want[i].bytes, k + 1, nr);
				if (measure_op(want[i].op, VP_ALG_AUTO, spec,
					       want[i].bytes, want[i].iters,
					       &r))
					return 1;
				keep_best(&cmp[n].vp, &r, !k);
				if (vpmpi_run(dir, vtwin, p, spec, job, &r,
					      1) != 1)
					return 1;
				keep_best(&cmp[n].vpmpi, &r, !k);
			}
			snprintf(cmp[n].vpmpi.topo, sizeof(cmp[n].vpmpi.topo),
				 "vpmpi:%s", spec);
			cmp[n].mpi = got[i];
			row_print(&cmp[n].vp);
			row_print(&cmp[n].vpmpi);
			row_print(&cmp[n].mpi);
			n++;
		}
	}
	progress("%s", "");
	note("%s", "");
	note("the same MPI source built with vpmpicc and with Open MPI's "
	     "mpicc, next to vp's own loop (medians, us):");
	note("%-10s %4s %9s %10s %10s %10s %12s %12s", "op", "p", "bytes", "vp",
	     "vpmpicc", "Open MPI", "vpmpicc/vp", "OpenMPI/vpmpicc");
	for (i = 0; i < n; i++)
		note("%-10s %4d %9zu %10.3f %10.3f %10.3f %12.2f %12.2f",
		     cmp[i].vp.op, cmp[i].vp.p, cmp[i].vp.bytes,
		     cmp[i].vp.s.p50, cmp[i].vpmpi.s.p50, cmp[i].mpi.s.p50,
		     cmp[i].vpmpi.s.p50 / cmp[i].vp.s.p50,
		     cmp[i].mpi.s.p50 / cmp[i].vpmpi.s.p50);
	same_source_goals(cmp, n);
	if (outdir) {
		mkdir(outdir, 0777); /* may exist already */
		write_same_source_csv(outdir, cmp, n);
	}
	return 0;
}
