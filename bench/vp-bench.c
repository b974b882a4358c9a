/*
 * vp-bench.c - message-passing overhead of vp, next to the machine's
 * physical limits and to Open MPI, measured in the same run (the machine is
 * shared and noisy: goals are ratios between figures of one run).
 *
 *   vp-bench                 the basic suite and the foundation's goals:
 *                            probes (cache-line ping-pong, memcpy), p = 2
 *                            latency (blocking and isend/irecv), bandwidth
 *                            with 64 messages in flight (as OSU's osu_bw)
 *                            and 16 MiB bandwidth, p = 64 ring
 *                            exchange and barrier, p = 4096 start to finish
 *   vp-bench --pingpong      one-way latency and bandwidth over sizes
 *   vp-bench --collectives   each collective x algorithm x p x size
 *            [--topology KIND] [--p 2,8,64] [--sizes 8,65536,1048576]
 *            [--ops bcast,...] [--algs all|auto]
 *   vp-bench --compare-mpi [--out DIR]
 *                            the same loops in vp and in Open MPI (this
 *                            project's twin, bench/mpi/), ratio per row,
 *                            and the goals; --out writes
 *                            DIR/{vp,mpi,compare}.csv and DIR/latency.svg
 *   --csv / --json           rows as CSV or one JSON object per line
 *   --quick                  a tenth of the iterations (smoke runs)
 *
 * Method: warm-up calls discarded, a barrier before each
 * iteration, every rank times its own call and an iteration's time is the
 * slowest rank's; rows give min, median, p99 and max over the iterations
 * and model_us, the model clock's time of one call run alone. Ping-pong is
 * timed by rank 0 (half a round trip), without barriers, as OSU's latency
 * test does. A progress line goes to stderr when stderr is a terminal.
 *
 * Each mode is a file of bench/vp-bench/ (modes.h); main reads the
 * options and runs the mode the table below names.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rows.h"
#include "vp-bench/bench.h"
#include "vp-bench/modes.h"
#include "vp-bench/perf_stat.h"
#include "vp.h"

/* What a mode prints before it runs: nothing of ours, and it runs even
 * with --loop (ALONE), nothing of ours (OWN), or the rows' header and the
 * --fibers note (ROWS). */
enum mode_kind { MODE_ALONE, MODE_OWN, MODE_ROWS };

struct mode {
	const char *name; /* --NAME; NULL: help lines of other options */
	const char *help; /* its lines in the usage, in the usage's order */
	int (*run)(const struct bench_args *a);
	enum mode_kind kind;
};

/* The modes, the first the default (and what an abbreviated mode name
 * that names no mode runs). */
static const struct mode modes[] = {
	{ "basic",
	  "  --basic          probes, p = 2 latency and bandwidth, p = 64 ring "
	  "and barrier,\n"
	  "                   p = 4096 and 32000 start to finish, the "
	  "machine's\n"
	  "                   limits measured beside them (the default)\n",
	  mode_basic, MODE_ROWS },
	{ "pingpong",
	  "  --pingpong       one-way latency and bandwidth over sizes\n",
	  mode_pingpong, MODE_ROWS },
	{ "collectives",
	  "  --collectives    each collective x algorithm x p x size:\n"
	  "    --topology K   full (default), ring, line, mesh, torus, "
	  "hypercube, tree\n"
	  "    --p LIST       rank counts (default 2,8,64)\n"
	  "    --sizes LIST   bytes per rank or block (default "
	  "8,65536,1048576)\n"
	  "    --ops LIST     collectives and barrier (default all)\n"
	  "    --algs all|auto  every algorithm (default) or AUTO only\n",
	  mode_collectives, MODE_ROWS },
	{ "compare-mpi",
	  "  --compare-mpi    the same loops in vp and in Open MPI (each "
	  "side's\n"
	  "                   better median of two passes, alternating):\n"
	  "    --out DIR      also write DIR/{vp,mpi,compare}.csv and "
	  "DIR/latency.svg\n"
	  "    --same-source  one MPI source built with vpmpicc and with "
	  "mpicc,\n"
	  "                   next to vp's loop (DIR/same_source.csv)\n",
	  mode_compare_mpi, MODE_ROWS },
	{ NULL, "  --csv, --json    rows as CSV or one JSON object per line\n",
	  NULL, MODE_OWN },
	{ "transport-mpi",
	  "  --transport mpi  under mpirun (make MPI=1): vp's collectives "
	  "over\n"
	  "                   the mpi transport next to the MPI library's "
	  "own,\n"
	  "                   as it chooses and (Open MPI) running vp's "
	  "algorithm\n",
	  mode_over_mpi, MODE_ALONE },
	{ "cliffs",
	  "  --cliffs         the misuse issue's slow cliffs: all-to-all at\n"
	  "                   p = 1024, 10^5 x split+barrier+free\n",
	  mode_cliffs, MODE_ROWS },
	{ "perf-stat",
	  "  --perf-stat      context switches and CPU time per message (p = "
	  "2\n"
	  "                   ping-pong, p = 64 barrier), counted by perf "
	  "stat\n",
	  mode_perf_stat, MODE_OWN },
	{ "apps",
	  "  --apps           Cannon and SUMMA over p = 1..64 and n (the\n"
	  "                   scaling table; --out DIR: "
	  "DIR/apps_scaling.svg)\n",
	  mode_apps, MODE_OWN },
	{ "reproducible",
	  "  --reproducible   what reproducible sums cost: allreduce of "
	  "doubles\n"
	  "                   plain and reproducible (model, bytes, wall "
	  "time)\n",
	  mode_reproducible, MODE_OWN },
	{ "rooted",
	  "  --rooted         bcast and reduce at p = 64 by messages, met, "
	  "and\n"
	  "                   as the default picks, in three kinds of loop\n",
	  mode_rooted, MODE_OWN },
	{ "schedule-cost",
	  "  --schedule-cost  a seeded run (vp_opts.schedule) at p = 64 "
	  "against\n"
	  "                   free-running fibers: ring, allreduce, "
	  "wildcards\n",
	  mode_schedule_cost, MODE_OWN },
	{ "calibrate",
	  "  --calibrate      fit the cost models to this machine's point-to-\n"
	  "                   point times; prints them as --model specs\n",
	  mode_calibrate, MODE_ALONE },
};

#define NMODES ((int)(sizeof(modes) / sizeof(modes[0])))

static const char usage_head[] =
    "usage: vp-bench [--basic | --pingpong | --collectives | "
    "--compare-mpi]\n"
    "                [--csv | --json] [--quick]\n";

static const char usage_tail[] =
    "  --fibers         every run with its ranks as fibers\n"
    "                   (vp_opts.fibers); --basic and --cliffs measure\n"
    "                   both ways anyway\n"
    "  --quick          a tenth of the iterations (smoke runs)\n"
    "  --version, --help\n"
    "exit status: 0 done, 1 a run failed, 2 bad arguments\n";

static void usage_print(FILE *f)
{
	int i;

	fputs(usage_head, f);
	for (i = 0; i < NMODES; i++)
		fputs(modes[i].help, f);
	fputs(usage_tail, f);
}

static void usage(const char *fmt, const char *arg) __attribute__((noreturn));
static void usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "vp-bench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage_print(stderr);
	exit(2);
}

/* The mode called name, or the default. */
static const struct mode *mode_named(const char *name)
{
	int i;

	for (i = 0; i < NMODES; i++)
		if (modes[i].name && !strcmp(modes[i].name, name))
			return &modes[i];
	return &modes[0];
}

static int parse_list(const char *arg, const char *s, long *out, int max)
{
	int n = 0;
	char *end;

	while (*s && n < max) {
		out[n] = strtol(s, &end, 10);
		if (end == s || out[n] < 0 || (*end && *end != ','))
			usage("'%s' is not a comma-separated list of numbers",
			      arg);
		n++;
		s = *end ? end + 1 : end;
	}
	return n;
}

enum {
	OPT_CSV = 256,
	OPT_JSON,
	OPT_QUICK,
	OPT_MODE,
	OPT_OUT,
	OPT_TOPOLOGY,
	OPT_P,
	OPT_SIZES,
	OPT_OPS,
	OPT_ALGS,
	OPT_SAME_SOURCE,
	OPT_TRANSPORT,
	OPT_LOOP,
	OPT_FIBERS,
};

static const struct option long_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "basic", no_argument, NULL, OPT_MODE },
	{ "pingpong", no_argument, NULL, OPT_MODE },
	{ "collectives", no_argument, NULL, OPT_MODE },
	{ "compare-mpi", no_argument, NULL, OPT_MODE },
	{ "cliffs", no_argument, NULL, OPT_MODE },
	{ "calibrate", no_argument, NULL, OPT_MODE },
	{ "perf-stat", no_argument, NULL, OPT_MODE },
	{ "apps", no_argument, NULL, OPT_MODE },
	{ "reproducible", no_argument, NULL, OPT_MODE },
	{ "rooted", no_argument, NULL, OPT_MODE },
	{ "schedule-cost", no_argument, NULL, OPT_MODE },
	{ "loop", required_argument, NULL, OPT_LOOP },
	{ "fibers", no_argument, NULL, OPT_FIBERS },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "p", required_argument, NULL, OPT_P },
	{ "sizes", required_argument, NULL, OPT_SIZES },
	{ "ops", required_argument, NULL, OPT_OPS },
	{ "algs", required_argument, NULL, OPT_ALGS },
	{ "same-source", no_argument, NULL, OPT_SAME_SOURCE },
	{ "transport", required_argument, NULL, OPT_TRANSPORT },
	{ NULL, 0, NULL, 0 },
};

/* --ops LIST: collectives (or barrier); the names point into list, which
 * is cut at its commas. */
static void parse_ops(struct coll_set *cs, char *list)
{
	char *tok, *save = NULL;

	cs->nops = 0;
	for (tok = strtok_r(list, ",", &save); tok && cs->nops < 16;
	     tok = strtok_r(NULL, ",", &save)) {
		if (vp_coll_parse(tok) < 0 && strcmp(tok, "barrier"))
			usage("--ops: '%s' is not a collective (vp-run --list) "
			      "or barrier",
			      tok);
		cs->ops[cs->nops++] = tok;
	}
}

/* --p LIST or --sizes LIST. */
static void parse_counts(int id, const char *a, const char *v,
			 struct coll_set *cs)
{
	long list[16];
	int k, n = parse_list(a, v, list, 16);

	for (k = 0; k < n; k++) {
		if (id == OPT_P && (list[k] < 1 || list[k] > VP_MAX_RANKS))
			usage("--p '%s': each p in [1, 65536]", v);
		if (id == OPT_P)
			cs->ps[k] = (int)list[k];
		else
			cs->sizes[k] = (size_t)list[k];
	}
	*(id == OPT_P ? &cs->nps : &cs->nsizes) = n;
}

/* The options that take a value. */
static void parse_value(int id, const char *a, char *v, struct bench_args *b,
			const char **mode)
{
	char spec[48];

	switch (id) {
	case OPT_OUT:
		b->outdir = v;
		break;
	case OPT_LOOP:
		if (perf_loop_units(v) < 0)
			usage("--loop '%s' is not pingpong or barrier", v);
		b->loop = v;
		break;
	case OPT_TRANSPORT:
		if (strcmp(v, "mpi") && strcmp(v, "threads"))
			usage("--transport '%s' is not mpi or threads", v);
		if (!strcmp(v, "mpi"))
			*mode = "transport-mpi";
		break;
	case OPT_TOPOLOGY:
		if (!spec_for(v, 4, spec, sizeof(spec)))
			usage("--topology '%s' is not a kind", v);
		b->cs.topology = v;
		break;
	case OPT_P:
	case OPT_SIZES:
		parse_counts(id, a, v, &b->cs);
		break;
	case OPT_OPS:
		parse_ops(&b->cs, v);
		break;
	case OPT_ALGS:
		if (strcmp(v, "all") && strcmp(v, "auto"))
			usage("--algs '%s' is not all or auto", v);
		b->cs.all_algs = !strcmp(v, "all");
		break;
	}
}

/* One option; exits after --help, --version and a bad one. */
static void parse_option(int id, const char *a, char *v, struct bench_args *b,
			 const char **mode)
{
	switch (id) {
	case 'h':
		usage_print(stdout);
		exit(0);
	case 'V':
		printf("vp-bench %s\n", VP_VERSION);
		exit(0);
	case '?':
		usage("'%s' is not an option", a);
	case ':':
		usage("%s needs a value", a);
	case OPT_CSV:
		row_format = FORMAT_CSV;
		break;
	case OPT_JSON:
		row_format = FORMAT_JSON;
		break;
	case OPT_QUICK:
		bench_quick = 1;
		break;
	case OPT_FIBERS:
		bench_fibers = 1;
		break;
	case OPT_MODE:
		*mode = a + 2;
		break;
	case OPT_SAME_SOURCE:
		b->same_source = 1;
		break;
	default:
		parse_value(id, a, v, b, mode);
	}
}

int main(int argc, char **argv)
{
	struct bench_args b = { .cs = { .topology = "full",
					.ps = { 2, 8, 64 },
					.nps = 3,
					.sizes = { 8, 65536, 1048576 },
					.nsizes = 3,
					.all_algs = 1 } };
	const char *name = "basic";
	const struct mode *m;
	int i, id;

	for (i = 0; i < VP_COLL_COUNT_; i++)
		b.cs.ops[b.cs.nops++] = vp_coll_name(i);
	opterr = 0; /* our messages, exit status 2 */
	while ((id = getopt_long(argc, argv, ":hV", long_options, NULL)) != -1)
		parse_option(id, argv[optind - 1], optarg, &b, &name);
	if (optind < argc)
		usage("'%s' is not an option", argv[optind]);
	if (b.same_source && strcmp(name, "compare-mpi"))
		usage("%s goes with --compare-mpi", "--same-source");
	m = mode_named(name);
	if (b.loop && m->kind != MODE_ALONE)
		return mode_loop(&b);
	if (m->kind == MODE_ROWS) {
		row_header();
		if (bench_fibers)
			note("every run with its ranks as fibers (--fibers): "
			     "one carrier thread per CPU");
	}
	return m->run(&b);
}
