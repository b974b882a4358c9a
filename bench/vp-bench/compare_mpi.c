/*
 * compare_mpi.c - vp-bench --compare-mpi: the same loops in vp and in
 * Open MPI (this project's MPI twin, bench/mpi/), a ratio per row, the
 * goals, the limits measured beside them, and (--out DIR) the rows as
 * CSV and the latency plot.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "bench_mpi.h"
#include "bench_plot.h"
#include "bench_rows.h"
#include "compare_set.h"
#include "machine_limits.h"
#include "measure_op.h"
#include "modes.h"
#include "probes.h"
#include "vp.h"

struct cmp_row {
	struct row vp, mpi;
	/* p = 64, a call that lets ranks leave early (bcast, reduce): the
	 * same loop with VP_SHARED_COLLECTIVES=all, its median; 0 when not
	 * measured */
	double met_us;
};

static const char *p_colour(int p)
{
	return p == 2 ? "#1f77b4" : p == 8 ? "#2ca02c" : "#d62728";
}

static void write_csv(const char *dir, const char *name,
		      const struct cmp_row *c, int n, int which)
{
	char path[4096];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w"))) {
		perror(path);
		return;
	}
	if (which == 2)
		fprintf(f, "op,p,bytes,vp_p50_us,mpi_p50_us,mpi_over_vp\n");
	else
		fprintf(f, "op,topo,p,bytes,iters,min_us,p50_us,p99_us,"
			   "max_us,model_us\n");
	for (i = 0; i < n; i++) {
		const struct row *r = which ? &c[i].mpi : &c[i].vp;

		if (which == 2)
			fprintf(f, "%s,%d,%zu,%.3f,%.3f,%.2f\n", c[i].vp.op,
				c[i].vp.p, c[i].vp.bytes, c[i].vp.s.p50,
				c[i].mpi.s.p50, c[i].mpi.s.p50 / c[i].vp.s.p50);
		else
			fprintf(f, "%s,%s,%d,%zu,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n",
				r->op, r->topo, r->p, r->bytes, r->iters,
				r->s.min, r->s.p50, r->s.p99, r->s.max,
				r->model);
	}
	fclose(f);
	fprintf(stderr, "vp-bench: wrote %s\n", path);
}

static void plot_compare(const char *dir, const struct cmp_row *c, int n,
			 double cl_us)
{
	struct plot pl = { .title = "allreduce and ping-pong: vp (solid) and "
				    "Open MPI (dashed), median per call" };
	char path[4096], name[64], sub[160];
	int i;

	snprintf(sub, sizeof(sub),
		 "one run on %ld CPUs; cache-line one-way probe %.3f us",
		 sysconf(_SC_NPROCESSORS_ONLN), cl_us);
	pl.subtitle = sub;
	for (i = 0; i < n; i++) {
		const struct row *v = &c[i].vp, *m = &c[i].mpi;
		int pp = !strcmp(v->op, "pingpong");

		if (!pp && strcmp(v->op, "allreduce"))
			continue;
		snprintf(name, sizeof(name), "%.16s p=%d vp", v->op, v->p);
		plot_add(&pl, name, pp ? "#555" : p_colour(v->p), 0,
			 (double)v->bytes, v->s.p50);
		snprintf(name, sizeof(name), "%.16s p=%d Open MPI", v->op,
			 v->p);
		plot_add(&pl, name, pp ? "#555" : p_colour(v->p), 1,
			 (double)v->bytes, m->s.p50);
	}
	snprintf(path, sizeof(path), "%s/latency.svg", dir);
	if (plot_write(&pl, path))
		perror(path);
	else
		fprintf(stderr, "vp-bench: wrote %s\n", path);
}

/* The machine's limits measured before the rows, which the goals not met
 * are set against. */
struct compare_limits {
	double cl_us;    /* a cache line's one-way time */
	double meet_us;  /* 64 bare threads' yielding barrier in a loop */
	double after_us; /* their meeting right after a barrier */
	double tree_us;  /* their tree of flags right after a barrier */
	/* [k][0] one way, [k][1] both ways at once, k = 0 for 1 KiB and 1
	 * for 256 bytes: two bare threads moving as many bytes */
	double lim[2][2];
};

/* The performance goals, from the rows of this run:
 *   p = 2: vp at least as fast as Open MPI at every size, for ping-pong
 *          and every collective, and 1.5x faster from 1 KiB to 256 KiB;
 *   p = 64: every 8-byte collective and the barrier 5x faster; a row not
 *          met is set against meet_us, 64 bare threads meeting once at
 *          one counter in a loop of such meetings, and after_us, the
 *          same threads meeting right after a barrier, timed as this
 *          loop times a call (machine_limits.h: the floor of a
 *          collective made without its messages in this loop); a
 *          broadcast's also against tree_us, the same threads passing
 *          a flag down a binomial tree right after a barrier,
 *          each leaving once its own is in (the least a broadcast that
 *          forwards its data, as Open MPI's does, can take here);
 *   p = 8, 1 MiB: at least as fast.
 * A row of 1 KiB or 256 bytes at p = 2 not met is set against two bare
 * threads moving as many bytes in the same run (machine_limits.h):
 * lim[k][0] one way (ping-pong, bcast, reduce), lim[k][1] both ways at
 * once (the rest: exchanges). */
static const size_t limit_bytes[2] = { 1024, 256 };

/* The goals' tallies: met[g] of all[g] rows, g = 0 p = 2 every size,
 * 1 p = 2 1-256 KiB, 2 p = 64 8 B, 3 p = 8 1 MiB. */
struct goal_tally {
	int met[4], all[4];
};

/* The ratio row v needs (-1: none), counted in t. */
static double goal_need(const struct row *v, double ratio, struct goal_tally *t)
{
	static const double needs[4] = { 1, 1.5, 5, 1 };
	int g = -1;

	if (v->p == 2 && v->bytes >= 1024 && v->bytes <= 262144)
		g = 1;
	else if (v->p == 2)
		g = 0;
	else if (v->p == 64 && v->bytes <= 8)
		g = 2;
	else if (v->p == 8 && v->bytes == 1048576)
		g = 3;
	if (g < 0)
		return -1;
	t->all[g]++;
	t->met[g] += ratio >= needs[g];
	return needs[g];
}

/* What bounds a p = 64 row not met. */
static void goal_limit_p64(const struct cmp_row *c, double need,
			   const struct compare_limits *l)
{
	if (c->met_us > 0)
		note("    by default (met or sent, as a trial in this "
		     "loop found faster); always met (=all) %.3f us, "
		     "ratio %.2f",
		     c->met_us, c->mpi.s.p50 / c->met_us);
	note("    the limit: 64 bare threads take %.1f us a "
	     "barrier in a loop of them, and %.1f us to meet "
	     "after one, timed as this loop times a call; 5x "
	     "needs at most %.1f us",
	     l->meet_us, l->after_us, c->mpi.s.p50 / need);
	if (!strcmp(c->vp.op, "bcast"))
		note("    a tree of flags instead, each thread leaving "
		     "once its own is in (no meeting): %.1f us",
		     l->tree_us);
}

/* What bounds a p = 2 row of 1 KiB or 256 bytes not met. */
static void goal_limit_p2(const struct cmp_row *c, double need,
			  const struct compare_limits *l)
{
	const struct row *v = &c->vp;
	int both = strcmp(v->op, "pingpong") && strcmp(v->op, "bcast") &&
		   strcmp(v->op, "reduce");
	int k = v->bytes == limit_bytes[1];

	double most = c->mpi.s.p50 / need;

	note("    the limit: two bare threads moving %zu B %s "
	     "(copied in, a flag, copied out) take %.3f us "
	     "here, the best of %d means; %.1fx needs at most "
	     "%.3f us: %s",
	     v->bytes, both ? "both ways at once" : "one way", l->lim[k][both],
	     REPS, need, most,
	     l->lim[k][both] > most ? "the machine stops it"
				    : "the machine allows it, vp's own "
				      "path stops it");
}

static void compare_goals(const struct cmp_row *c, int n,
			  const struct compare_limits *l)
{
	struct goal_tally t = { { 0 }, { 0 } };
	int i;

	note("%s", "");
	note("goals (Open MPI time / vp time, medians of this run):");
	for (i = 0; i < n; i++) {
		const struct row *v = &c[i].vp;
		double ratio = c[i].mpi.s.p50 / v->s.p50;
		double need = goal_need(v, ratio, &t);

		if (need > 0)
			note("  %-10s p=%-3d %8zu B  vp %10.3f us  Open MPI "
			     "%10.3f us  ratio %6.2f  goal >= %.1f: %s",
			     v->op, v->p, v->bytes, v->s.p50, c[i].mpi.s.p50,
			     ratio, need, ratio >= need ? "met" : "NOT met");
		if (need == 5 && ratio < need)
			goal_limit_p64(&c[i], need, l);
		if (v->p == 2 && ratio < need &&
		    (v->bytes == limit_bytes[0] || v->bytes == limit_bytes[1]))
			goal_limit_p2(&c[i], need, l);
	}
	note("p = 2, every size, vp at least as fast:     %d of %d met",
	     t.met[0], t.all[0]);
	note("p = 2, 1-256 KiB, vp >= 1.5x faster:         %d of %d met",
	     t.met[1], t.all[1]);
	note("p = 64, 8 B and barrier, vp >= 5x faster:   %d of %d met",
	     t.met[2], t.all[2]);
	note("p = 8, 1 MiB, vp at least as fast:          %d of %d met",
	     t.met[3], t.all[3]);
}

/* Each side's row is the lower median of COMPARE_PASSES passes, Open
 * MPI's and vp's alternating (Open MPI, vp, Open MPI, vp), as
 * --same-source keeps the best of its rounds: the machine's speed moves
 * in spells of seconds, and one pass of each side draws one spell each. */
#define COMPARE_PASSES 2

/*
 * The host may move the CPUs between placements in spells of seconds to
 * minutes, and the one-way time of a cache line moves several times over
 * with them: a run that draws two placements compares placements as much
 * as libraries. So the p = 2 rows of each side are preceded by the probe,
 * and a run whose probes differ by more than 2x says so.
 */
static void placement_note(const double *mpi, const double *vp, int passes)
{
	double lo = mpi[0], hi = mpi[0];
	int k;

	note("%s", "");
	note("placement: a cache line bounced between two threads, before "
	     "each side's p = 2 rows:");
	for (k = 0; k < passes; k++) {
		note(
		    "  pass %d: before Open MPI's %.3f us, before vp's %.3f us",
		    k + 1, mpi[k], vp[k]);
		lo = fmin(lo, fmin(mpi[k], vp[k]));
		hi = fmax(hi, fmax(mpi[k], vp[k]));
	}
	if (hi > 2 * lo)
		note("the placement changed during this run (%.3f to %.3f us): "
		     "the p = 2 rows of the two sides may come from different "
		     "placements, and their ratios then compare placements "
		     "as much as libraries; run it again",
		     lo, hi);
	else
		note("one placement throughout (%.3f to %.3f us)", lo, hi);
}

/* The probes and limits before the rows, each printed as a row. */
static void compare_limits_measure(struct compare_limits *l)
{
	double v[REPS];
	int i, k;

	for (k = 0; k < REPS; k++)
		v[k] = probe_cacheline_us();
	emit("probe_cacheline", "-", 2, 64, probe_iters, summarize(v, REPS), 0);
	l->cl_us = v[REPS / 2];
	for (k = 0; k < REPS; k++)
		v[k] = (double)(16 << 20) / probe_memcpy_bpus(16 << 20);
	emit("probe_memcpy", "-", 1, 16 << 20, 10, summarize(v, REPS), 0);
	for (k = 0; k < REPS; k++)
		v[k] = limits_barrier_us(64, 2000, LIMITS_YIELD);
	emit("limit_barrier_yield", "-", 64, 0, 2000, summarize(v, REPS), 0);
	l->meet_us = v[REPS / 2];
	for (k = 0; k < REPS; k++)
		v[k] = limits_after_barrier_us(64, 400, LIMITS_AFTER_BARRIER);
	emit("limit_meeting_after_barrier", "-", 64, 0, 400, summarize(v, REPS),
	     0);
	l->after_us = v[REPS / 2];
	for (k = 0; k < REPS; k++)
		v[k] =
		    limits_after_barrier_us(64, 400, LIMITS_TREE_AFTER_BARRIER);
	emit("limit_tree_bcast_after_barrier", "-", 64, 0, 400,
	     summarize(v, REPS), 0);
	l->tree_us = v[REPS / 2];
	for (i = 0; i < 4; i++) {
		size_t bytes = limit_bytes[i / 2];

		for (k = 0; k < REPS; k++)
			v[k] = limits_exchange_us(bytes, 20000, !(i % 2));
		emit(i % 2 ? "limit_exchange" : "limit_oneway", "-", 2, bytes,
		     20000, summarize(v, REPS), 0);
		/* a floor: the best of the means (noise only adds time, and
		 * the host may change placements between them) */
		l->lim[i / 2][i % 2] = v[0];
	}
}

/* vp's side of one row of one pass: measured, the better kept, and at
 * p = 64 a bcast or reduce of 8 bytes again with every call met
 * (VP_SHARED_COLLECTIVES=all). */
static int compare_vp_row(struct cmp_row *c, const struct row *want,
			  const struct row *got, int p, int pass)
{
	struct row probe;
	char spec[32];

	spec_of(p, want->op, spec, sizeof(spec));
	if (measure_op(want->op, VP_ALG_AUTO, spec, want->bytes, want->iters,
		       &probe))
		return 1;
	keep_best(&c->vp, &probe, !pass);
	keep_best(&c->mpi, got, !pass);
	if (!pass)
		c->met_us = 0;
	if (p == 64 &&
	    (!strcmp(want->op, "bcast") || !strcmp(want->op, "reduce")) &&
	    want->bytes <= 8) {
		setenv("VP_SHARED_COLLECTIVES", "all", 1);
		if (!measure_op(want->op, VP_ALG_AUTO, spec, want->bytes,
				want->iters, &probe) &&
		    (!c->met_us || probe.s.p50 < c->met_us))
			c->met_us = probe.s.p50;
		unsetenv("VP_SHARED_COLLECTIVES");
	}
	return 0;
}

/* The placement probes of each pass before each side's p = 2 rows. */
struct placements {
	double mpi[COMPARE_PASSES], vp[COMPARE_PASSES];
};

/* The rows at p, from cmp[n0]: the passes, then each row's two sides
 * printed. How many rows, or -1 after an error. */
static int compare_at(const char *twin, int p, struct cmp_row *cmp, int n0,
		      int passes, struct placements *pl)
{
	struct row want[64], got[64];
	char list[8192];
	int i, nw = 0, pass;

	for (pass = 0; pass < passes; pass++) { /* --quick: one */
		if (p == 2)
			pl->mpi[pass] = placement_us();
		if ((nw = openmpi_rows(twin, p, want, got, list,
				       sizeof(list))) < 0)
			return -1;
		if (p == 2)
			pl->vp[pass] = placement_us();
		for (i = 0; i < nw && n0 + i < MAX_ROWS; i++) {
			progress("vp p=%d %s %zu B, pass %d of %d", p,
				 want[i].op, want[i].bytes, pass + 1, passes);
			if (compare_vp_row(&cmp[n0 + i], &want[i], &got[i], p,
					   pass))
				return -1;
		}
	}
	for (i = 0; i < nw && n0 + i < MAX_ROWS; i++) {
		row_print(&cmp[n0 + i].vp);
		row_print(&cmp[n0 + i].mpi);
	}
	return i;
}

/* The table of medians and ratios. */
static void compare_table(const struct cmp_row *cmp, int n)
{
	int i;

	note("%s", "");
	note("%-10s %4s %9s %12s %12s %8s", "op", "p", "bytes", "vp_p50_us",
	     "mpi_p50_us", "mpi/vp");
	for (i = 0; i < n; i++)
		note("%-10s %4d %9zu %12.3f %12.3f %8.2f", cmp[i].vp.op,
		     cmp[i].vp.p, cmp[i].vp.bytes, cmp[i].vp.s.p50,
		     cmp[i].mpi.s.p50, cmp[i].mpi.s.p50 / cmp[i].vp.s.p50);
}

static int mode_compare(const char *outdir)
{
	static const int ps[] = { 2, 8, 64 };
	static struct cmp_row cmp[MAX_ROWS];
	struct compare_limits l;
	struct placements pl;
	char twin[4096];
	int n = 0, pi, got, passes = bench_quick ? 1 : COMPARE_PASSES;

	if (mpi_ensure() ||
	    (mpi_twin_path(twin, sizeof(twin)), mpi_build(twin)))
		return 1;
	compare_largest = 1;
	compare_limits_measure(&l);
	for (pi = 0; pi < 3; pi++) {
		if ((got = compare_at(twin, ps[pi], cmp, n, passes, &pl)) < 0)
			return 1;
		n += got;
	}
	progress("%s", "");
	compare_table(cmp, n);
	compare_goals(cmp, n, &l);
	placement_note(pl.mpi, pl.vp, passes);
	if (outdir) {
		mkdir(outdir, 0777); /* may exist already */
		write_csv(outdir, "vp.csv", cmp, n, 0);
		write_csv(outdir, "mpi.csv", cmp, n, 1);
		write_csv(outdir, "compare.csv", cmp, n, 2);
		plot_compare(outdir, cmp, n, l.cl_us);
	}
	return 0;
}

int mode_compare_mpi(const struct bench_args *a)
{
	return a->same_source ? mode_same_source(a->outdir)
			      : mode_compare(a->outdir);
}
