/*
 * vp-run.c - the main job: run collectives on a topology, check each result
 * against a plain sequential reference (apps/coll_ref.h), and print the
 * model time next to the book's formula, the link load, the messages and the
 * wall time.
 *
 *   vp-run                 the tour: every collective on every topology at
 *                          p = 8 (9 for the 3x3 mesh and torus), AUTO
 *   vp-run --topology hypercube:4 --collective alltoall --algorithm pairwise
 *          --bytes 1024 --ts 100 --tw 1 [--th 0] [--strict] [--reps N]
 *          [--root R] [--q Q] [--type T] [--op OP] [--json]
 *          [--trace FILE.json [--trace-clock model|wall]] [--svg FILE.svg]
 *
 * Each case is two runs: the first calls the collective once, alone, with
 * the trace and SVG if asked; it gives the model time, the link load and the
 * check. The second times --reps calls, each after a barrier, after one
 * warm-up call; an iteration's time is the slowest rank's, and wall_us is
 * the median.
 *
 * Exit status: 0 all cases right, 1 a case failed or gave a wrong answer,
 * 2 bad arguments (the message names the argument and the accepted values).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apps/apps.h"
#include "apps/coll_ref.h"
#include "bench_plot.h"
#include "calibrate.h"
#include "vp-run/explore.h"
#include "vp-run/options.h"
#include "vp-run/run_apps.h"
#include "vp.h"

#define MAX_REPS 1000

static const char *type_names[] = { "byte", "int32", "int64", "float",
				    "double" };
static const char *op_names[] = { "sum",  "prod", "min", "max",
				  "band", "bor",  "bxor" };

struct result {
	int ok, rc;
	char why[1100];     /* the error or the wrong element */
	char auto_why[256]; /* why AUTO chose it, on rank 0 */
	vp_alg used;        /* what rank 0 ran */
	vp_stats st;
	double wall_us, formula;
	int exact;
};

/* ---- command line ---- */

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vp-run: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(vp-run --help lists the options)\n");
	exit(2);
}

static void list_names(char *out, size_t len, const char **names, int n)
{
	int i;

	out[0] = 0;
	for (i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 i ? ", " : "", names[i]);
}

static int pick(const char *arg, const char *val, const char **names, int n)
{
	char all[256];
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(val, names[i]))
			return i;
	list_names(all, sizeof(all), names, n);
	usage_error("%s '%s' is not one of: %s", arg, val, all);
}

/* Options are read by vp's one strict reader (vp_setting_parse). */
static double number(const char *arg, const char *val, double lo)
{
	char err[256];
	double x;

	if (vp_setting_parse(arg, val, lo, INFINITY, 0, &x, err, sizeof(err)))
		usage_error("%s", err);
	return x;
}

static long integer(const char *arg, const char *val, long lo, long hi)
{
	char err[256];
	double x;

	if (vp_setting_parse(arg, val, (double)lo, (double)hi, 1, &x, err,
			     sizeof(err)))
		usage_error("%s", err);
	return (long)x;
}

static void help(void) __attribute__((noreturn));
static void help(void)
{
	puts("usage: vp-run                      the tour (every collective x "
	     "every topology)\n"
	     "       vp-run --topology T --collective C [options]\n"
	     "  --topology T     ring:P line:P mesh:RxC torus:RxC hypercube:D "
	     "tree:P full:P\n"
	     "  --collective C   bcast reduce allreduce allgather "
	     "reduce_scatter scan scatter\n"
	     "                   gather alltoall shift\n"
	     "  --algorithm A    auto (default) or a name: vp-run --list\n"
	     "  --bytes N        bytes per rank (per block for block "
	     "collectives), default 1024\n"
	     "  --ts X --tw X --th X   model parameters (default 100, 1, 0)\n"
	     "  --model SPEC     cost model: alpha-beta[:saf], logp:L=,o=,g=, "
	     "loggp:...,G=,\n"
	     "                   bsp:g=,l=; ,ports=K|all (README, \"Cost "
	     "models\")\n"
	     "  --strict         sends only between neighbours\n"
	     "  --reps N         timed calls for wall_us (default 10; 0: "
	     "none)\n"
	     "  --root R --q Q   root (default 0), shift distance (default "
	     "1)\n"
	     "  --type T --op OP element type (byte) and reduction (sum)\n"
	     "  --json           one JSON object per case\n"
	     "  --trace F.json   Perfetto trace (ui.perfetto.dev); "
	     "--trace-clock model|wall\n"
	     "  --svg F.svg      space-time diagram of the messages\n"
	     "  --calibrated     fit the model to this machine (vp-bench "
	     "--calibrate), then\n"
	     "                   each collective's predicted time next to "
	     "its measured one\n"
	     "                   at p = 2, 8, 64, 8 B and 16 KiB (or "
	     "--bytes N); --plot F.svg\n"
	     "                   draws them\n"
	     "  --app NAME       an application of the book (vp-run --list): "
	     "--n N (matrix\n"
	     "                   order or keys), --nb B (LU's block), --gamma "
	     "G (time a flop,\n"
	     "                   default 1), --topology, --algorithm, "
	     "--model, --svg, --trace\n"
	     "  --apps           the tour of every application\n"
	     "  --schedule SEED  a deterministic schedule (seed 1 or more): "
	     "the run replays\n"
	     "                   exactly (docs/schedules.md)\n"
	     "  --schedule-depth D  0: uniform choices (default); D >= 1: "
	     "PCT of depth D\n"
	     "  --explore N      the case (or, without --topology and "
	     "--collective, every\n"
	     "                   case of the tour) under N schedules, seeds "
	     "--schedule (1)\n"
	     "                   on; a failure's seed and the command that "
	     "replays it\n"
	     "  --timeout S      --explore: each run's limit, seconds "
	     "(default 60)\n"
	     "  --list           every collective with its algorithms, every "
	     "application\n"
	     "  --version        the version of vp\n"
	     "  --help           this text\n"
	     "exit status: 0 all right, 1 a case failed, 2 bad arguments");
	exit(0);
}

static void list_algorithms(void) __attribute__((noreturn));
static void list_algorithms(void)
{
	int op, i, n;
	vp_alg algs[VP_ALG_COUNT_];

	for (op = 0; op < VP_COLL_COUNT_; op++) {
		n = vp_coll_algorithms(op, algs, VP_ALG_COUNT_);
		printf("%-15s auto", vp_coll_name(op));
		for (i = 0; i < n; i++)
			printf(" %s", vp_alg_name(algs[i]));
		printf("\n");
	}
	printf("\napplications (vp-run --app NAME):\n");
	for (i = 0; i < app_count; i++)
		printf("  %-12s %s (%s); %s\n", app_table[i]->name,
		       app_table[i]->title, app_table[i]->source,
		       app_table[i]->topologies);
	exit(0);
}

static int noop(vp_comm *c, void *arg)
{
	(void)c;
	(void)arg;
	return 0;
}

/* The topology is checked by the library itself; its message lists the
 * accepted forms. Returns p. Checked as threads: under mpirun the mpi
 * transport would refuse a topology of another size, which the tour
 * skips case by case instead. */
static int check_topology(const char *spec)
{
	vp_opts o = { .topology = spec, .quiet = 1 };
	vp_stats st;
	const char *env = getenv("VP_TRANSPORT");
	char *saved = env ? strdup(env) : NULL;
	int rc;

	unsetenv("VP_TRANSPORT");
	rc = vp_run(&o, noop, NULL, &st);
	if (saved) {
		setenv("VP_TRANSPORT", saved, 1);
		free(saved);
	}
	if (rc)
		usage_error("--topology: %s", st.error);
	return st.p;
}

static void check_algorithm(const struct options *o)
{
	vp_alg algs[VP_ALG_COUNT_];
	int n = vp_coll_algorithms(o->coll, algs, VP_ALG_COUNT_), i;
	char all[512] = "auto";

	if (o->alg == VP_ALG_AUTO)
		return;
	for (i = 0; i < n; i++)
		if (algs[i] == (vp_alg)o->alg)
			return;
	for (i = 0; i < n; i++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), ", %s",
			 vp_alg_name(algs[i]));
	usage_error("--algorithm '%s' is not an algorithm of %s; it has: %s",
		    vp_alg_name(o->alg), vp_coll_name(o->coll), all);
}

enum {
	OPT_HELP = 'h',
	OPT_VERSION = 'V',
	OPT_LIST = 256,
	OPT_STRICT,
	OPT_JSON,
	OPT_TOPOLOGY,
	OPT_COLLECTIVE,
	OPT_ALGORITHM,
	OPT_BYTES,
	OPT_TS,
	OPT_TW,
	OPT_TH,
	OPT_REPS,
	OPT_ROOT,
	OPT_Q,
	OPT_TYPE,
	OPT_OP,
	OPT_TRACE,
	OPT_SVG,
	OPT_TRACE_CLOCK,
	OPT_MODEL,
	OPT_CALIBRATED,
	OPT_PLOT,
	OPT_APP,
	OPT_APPS,
	OPT_N,
	OPT_NB,
	OPT_GAMMA,
	OPT_SCHEDULE,
	OPT_SCHEDULE_DEPTH,
	OPT_EXPLORE,
	OPT_TIMEOUT,
};

static const struct option long_options[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "collective", required_argument, NULL, OPT_COLLECTIVE },
	{ "algorithm", required_argument, NULL, OPT_ALGORITHM },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "ts", required_argument, NULL, OPT_TS },
	{ "tw", required_argument, NULL, OPT_TW },
	{ "th", required_argument, NULL, OPT_TH },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "q", required_argument, NULL, OPT_Q },
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "op", required_argument, NULL, OPT_OP },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "trace-clock", required_argument, NULL, OPT_TRACE_CLOCK },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "calibrated", no_argument, NULL, OPT_CALIBRATED },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "app", required_argument, NULL, OPT_APP },
	{ "apps", no_argument, NULL, OPT_APPS },
	{ "n", required_argument, NULL, OPT_N },
	{ "nb", required_argument, NULL, OPT_NB },
	{ "gamma", required_argument, NULL, OPT_GAMMA },
	{ "schedule", required_argument, NULL, OPT_SCHEDULE },
	{ "schedule-depth", required_argument, NULL, OPT_SCHEDULE_DEPTH },
	{ "explore", required_argument, NULL, OPT_EXPLORE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ NULL, 0, NULL, 0 },
};

static void parse_collective(const char *v, struct options *o)
{
	const char *names[VP_COLL_COUNT_];
	char all[256];
	int c;

	if ((o->coll = vp_coll_parse(v)) >= 0)
		return;
	for (c = 0; c < VP_COLL_COUNT_; c++)
		names[c] = vp_coll_name(c);
	list_names(all, sizeof(all), names, VP_COLL_COUNT_);
	usage_error("--collective '%s' is not one of: %s", v, all);
}

/* A seed: the whole text digits, from 1 to 2^64 - 1. */
static uint64_t seed_of(const char *a, const char *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (!isdigit((unsigned char)*v) || *end || errno == ERANGE || !x)
		usage_error("%s '%s' is not a seed: an integer from 1 to "
			    "18446744073709551615 (0 is free-running: leave "
			    "%s out)",
			    a, v, a);
	return x;
}

/* take_option's third part: schedules and exploration. */
static void take_option_schedule(int id, const char *a, const char *v,
				 struct options *o)
{
	switch (id) {
	case OPT_SCHEDULE:
		o->schedule = seed_of(a, v);
		break;
	case OPT_SCHEDULE_DEPTH:
		o->schedule_depth = (int)integer(a, v, 0, 1 << 20); /* vp_run's */
		break;
	case OPT_EXPLORE:
		o->explore = (int)integer(a, v, 1, 1000000000);
		break;
	case OPT_TIMEOUT:
		o->timeout = number(a, v, 0);
		if (o->timeout <= 0)
			usage_error("%s '%s': it must be more than 0 seconds",
				    a, v);
		break;
	}
}

/* take_option's second half: the trace, the model and the applications. */
static void take_option_more(int id, const char *a, const char *v,
			     struct options *o)
{
	switch (id) {
	case OPT_TRACE:
		o->trace = v;
		break;
	case OPT_SVG:
		o->svg = v;
		break;
	case OPT_MODEL: {
		char err[512];
		vp_model m;

		if (vp_model_parse(v, &m, err, sizeof(err)))
			usage_error("--model: %s", err);
		o->model = v;
		break;
	}
	case OPT_CALIBRATED:
		o->calibrated = 1;
		break;
	case OPT_PLOT:
		o->plot = v;
		break;
	case OPT_APP:
		o->app.name = v;
		break;
	case OPT_APPS:
		o->apps = 1;
		break;
	case OPT_N:
		o->app.n = (int)integer(a, v, 1, 1 << 16);
		break;
	case OPT_NB:
		o->app.nb = (int)integer(a, v, 1, 1 << 16);
		break;
	case OPT_GAMMA:
		o->app.gamma = number(a, v, 0);
		break;
	case OPT_TRACE_CLOCK:
		o->wall_clock =
		    pick(a, v, (const char *[]){ "model", "wall" }, 2);
		break;
	default:
		take_option_schedule(id, a, v, o);
	}
}

/* One option with its value (NULL for flags); a is its name for messages. */
static void take_option(int id, const char *a, const char *v, struct options *o)
{
	switch (id) {
	case OPT_HELP:
		help();
	case OPT_VERSION:
		printf("vp-run %s\n", VP_VERSION);
		exit(0);
	case OPT_LIST:
		list_algorithms();
	case OPT_STRICT:
		o->strict = 1;
		break;
	case OPT_JSON:
		o->json = 1;
		break;
	case OPT_TOPOLOGY:
		o->topology = v;
		break;
	case OPT_COLLECTIVE:
		parse_collective(v, o);
		break;
	case OPT_ALGORITHM:
		if ((o->alg = vp_alg_parse(v)) < 0)
			usage_error("--algorithm '%s' is unknown; vp-run "
				    "--list shows each collective's "
				    "algorithms",
				    v);
		break;
	case OPT_BYTES:
		o->bytes = (size_t)integer(a, v, 0, 1L << 30);
		o->bytes_given = 1;
		break;
	case OPT_TS:
		o->ts = number(a, v, 0);
		break;
	case OPT_TW:
		o->tw = number(a, v, 0);
		break;
	case OPT_TH:
		o->th = number(a, v, 0);
		break;
	case OPT_REPS:
		o->reps = (int)integer(a, v, 0, MAX_REPS);
		break;
	case OPT_ROOT:
		o->k.root = (int)integer(a, v, 0, VP_MAX_RANKS - 1);
		break;
	case OPT_Q:
		o->k.q = integer(a, v, -(1L << 40), 1L << 40);
		break;
	case OPT_TYPE:
		o->k.type = (vp_type)pick(a, v, type_names, 5);
		break;
	case OPT_OP:
		o->k.rop = (vp_op)pick(a, v, op_names, 7);
		break;
	default:
		take_option_more(id, a, v, o);
	}
}

static void parse(int argc, char **argv, struct options *o)
{
	char name[64];
	int id, idx;

	opterr = 0; /* our messages, exit status 2 */
	while ((idx = -1, id = getopt_long(argc, argv, ":hV", long_options,
					   &idx)) != -1) {
		const char *bad = argv[optind - 1];

		if (id == '?')
			usage_error("'%s' is not an option", bad);
		if (id == ':')
			usage_error("%s needs a value", bad);
		/* idx is set for long options only (-h, -V are short) */
		if (idx >= 0)
			snprintf(name, sizeof(name), "--%s",
				 long_options[idx].name);
		else
			snprintf(name, sizeof(name), "%s", bad);
		take_option(id, name, optarg, o);
	}
	if (optind < argc)
		usage_error("'%s' is not an option", argv[optind]);
}

/* ---- running one case ---- */

struct job {
	const struct options *o;
	struct result *res;
	int timing;
	char fail[64][512]; /* the first 64 ranks' wrong answers */
	double span[MAX_REPS][64];
	int failed_rank;
	vp_model model; /* the run's model (rank 0) */
};

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int body(vp_comm *c, void *arg)
{
	struct job *jb = arg;
	const struct ref_case *k = &jb->o->k;
	int r = vp_rank(c), i, rc;
	size_t bs = k->count * vp_type_size(k->type);
	size_t in_len = (size_t)ref_in_blocks(k, r) * bs;
	size_t out_len = (size_t)ref_out_blocks(k, r) * bs;
	unsigned char *in = malloc(in_len + 1), *out = malloc(out_len + 1);
	char msg[512];

	if (!in || !out) {
		free(in);
		free(out);
		return VP_ENOMEM;
	}
	ref_input(k, r, in);
	rc = ref_call(c, k, in_len ? in : NULL, out_len ? out : NULL,
		      jb->o->alg);
	if (!jb->timing) {
		const char *why;
		vp_alg used;

		if (r == 0)
			vp_model_of(c, &jb->model);
		if (r == 0 && vp_coll_last_info(c, NULL, &used, &why) == 1) {
			jb->res->used = used;
			snprintf(jb->res->auto_why, sizeof(jb->res->auto_why),
				 "%s",
				 strncmp(why, "auto: ", 6) ? "" : why + 6);
		}
		if (!rc && ref_check(k, r, out, msg, sizeof(msg)) && r < 64) {
			snprintf(jb->fail[r], sizeof(jb->fail[r]), "%s", msg);
			rc = 1;
		}
	}
	for (i = 0; jb->timing && i < jb->o->reps && !rc; i++) {
		double t0;

		if ((rc = vp_barrier(c)))
			break;
		t0 = now_us();
		rc = ref_call(c, k, in_len ? in : NULL, out_len ? out : NULL,
			      jb->o->alg);
		if (r < 64)
			jb->span[i][r] = now_us() - t0;
	}
	free(in);
	free(out);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void run_case(const struct options *o, struct result *res)
{
	static struct job jb;
	vp_opts vo = { .topology = o->topology,
		       .strict = o->strict,
		       .ts = o->ts,
		       .tw = o->tw,
		       .th = o->th,
		       .quiet = 1,
		       .trace = o->trace,
		       .svg = o->svg,
		       .trace_wall = o->wall_clock,
		       .model = o->model,
		       .schedule = o->schedule,
		       .schedule_depth = o->schedule_depth };
	double t[MAX_REPS];
	int i, r, p;

	memset(res, 0, sizeof(*res));
	memset(&jb, 0, sizeof(jb));
	res->used = (vp_alg)o->alg;
	jb.o = o;
	jb.res = res;
	res->rc = vp_run(&vo, body, &jb, &res->st);
	p = res->st.p;
	res->ok = res->rc == VP_OK;
	for (r = 0; r < p && r < 64 && !res->why[0]; r++)
		if (jb.fail[r][0])
			snprintf(res->why, sizeof(res->why), "%s", jb.fail[r]);
	if (!res->ok && !res->why[0])
		snprintf(res->why, sizeof(res->why), "%s", res->st.error);
	/* q is the shift's distance, or the root of a rooted operation */
	res->formula =
	    vp_coll_formula_model(o->coll, res->used, o->topology, p, o->bytes,
				  o->coll == VP_COLL_SHIFT ? o->k.q : o->k.root,
				  &jb.model, &res->exact);
	res->wall_us = -1;
	if (!res->ok || o->reps == 0)
		return;
	/* the timed run: no trace, no check */
	vo.trace = vo.svg = NULL;
	jb.timing = 1;
	if (vp_run(&vo, body, &jb, NULL))
		return;
	for (i = 0; i < o->reps; i++) {
		t[i] = 0;
		for (r = 0; r < p && r < 64; r++)
			if (jb.span[i][r] > t[i])
				t[i] = jb.span[i][r];
	}
	qsort(t, (size_t)o->reps, sizeof(double), cmp_double);
	res->wall_us = t[o->reps / 2];
}

void case_prepare(const struct options *o, vp_opts *vo,
		  int (**fn)(vp_comm *, void *), void **arg)
{
	static struct job jb;
	static struct result res;

	*vo = (vp_opts){ .topology = o->topology,
			 .strict = o->strict,
			 .ts = o->ts,
			 .tw = o->tw,
			 .th = o->th,
			 .quiet = 1,
			 .model = o->model,
			 .schedule = o->schedule,
			 .schedule_depth = o->schedule_depth,
			 .explore_timeout = o->timeout };
	memset(&res, 0, sizeof(res));
	memset(&jb, 0, sizeof(jb));
	jb.o = o;
	jb.res = &res;
	*fn = body;
	*arg = &jb;
}

/* ---- output ---- */

/* "yes" / "NO" for exact rows, "<= bound" or "+x.x%" (above the book's
 * estimate, e.g. blocks that do not split evenly) for the others, "-" where
 * the book gives no formula. */
static const char *verdict(const struct options *o, const struct result *r)
{
	static char above[32];
	double m = r->st.model_time, f = r->formula;

	if (f < 0 || !r->ok)
		return "-";
	if (o->th > 0)
		return "n/a th>0";
	if (r->exact)
		return fabs(m - f) <= 1e-9 * (f > 1 ? f : 1) ? "yes" : "NO";
	if (m <= f * (1 + 1e-9))
		return "<= bound";
	snprintf(above, sizeof(above), "+%.1f%%", 100 * (m - f) / f);
	return above;
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* Why AUTO chose it ("" for a named algorithm). */
static const char *reason_of(const struct result *r)
{
	return r->auto_why;
}

static void print_json(const struct options *o, const struct result *r)
{
	printf("{\"topology\":");
	json_string(o->topology);
	printf(",\"p\":%d,\"collective\":\"%s\",\"algorithm\":\"%s\","
	       "\"auto\":%s,\"why\":",
	       r->st.p, vp_coll_name(o->coll), vp_alg_name(r->used),
	       o->alg == VP_ALG_AUTO ? "true" : "false");
	if (o->alg == VP_ALG_AUTO && *reason_of(r))
		json_string(reason_of(r));
	else
		printf("null");
	printf(",\"bytes\":%zu,\"type\":\"%s\",\"op\":\"%s\",\"root\":%d,"
	       "\"q\":%ld,\"ts\":%g,\"tw\":%g,\"th\":%g,\"strict\":%s,"
	       "\"ok\":%s,",
	       o->bytes, type_names[o->k.type], op_names[o->k.rop], o->k.root,
	       o->k.q, o->ts, o->tw, o->th, o->strict ? "true" : "false",
	       r->ok ? "true" : "false");
	/* every digit: equal model times print equal, different ones
	 * differ (a seeded run's are compared with a free run's) */
	printf("\"model_time\":%.17g,\"model_time_congested\":%.17g,"
	       "\"formula_time\":",
	       r->st.model_time, r->st.model_time_congested);
	if (r->formula >= 0)
		printf("%.6g,\"formula_exact\":%s,\"matches\":\"%s\"",
		       r->formula, r->exact ? "true" : "false", verdict(o, r));
	else
		printf("null,\"formula_exact\":null,\"matches\":null");
	printf(",\"max_link_load\":%llu,\"messages\":%llu,\"wall_us\":",
	       (unsigned long long)r->st.max_link_load,
	       (unsigned long long)r->st.messages);
	if (r->wall_us >= 0)
		printf("%.3f", r->wall_us);
	else
		printf("null");
	printf(",\"error\":");
	if (r->ok)
		printf("null");
	else
		json_string(r->why);
	printf("}\n");
}

static void print_header(void)
{
	printf("%-12s %-14s %-21s %10s %10s %-8s %4s %5s %9s  %s\n", "topology",
	       "collective", "algorithm", "model", "formula", "matches", "load",
	       "msgs", "wall_us", "ok / why AUTO chose it");
}

static void print_row(const struct options *o, const struct result *r)
{
	char f[32] = "-", w[32] = "-";

	if (r->formula >= 0)
		snprintf(f, sizeof(f), "%.1f", r->formula);
	if (r->wall_us >= 0)
		snprintf(w, sizeof(w), "%.1f", r->wall_us);
	printf("%-12s %-14s %-21s %10.1f %10s %-8s %4llu %5llu %9s  %s%s%s\n",
	       o->topology, vp_coll_name(o->coll), vp_alg_name(r->used),
	       r->st.model_time, f, verdict(o, r),
	       (unsigned long long)r->st.max_link_load,
	       (unsigned long long)r->st.messages, w, r->ok ? "ok" : "FAILED: ",
	       r->ok ? (o->alg == VP_ALG_AUTO ? ", " : "") : r->why,
	       r->ok && o->alg == VP_ALG_AUTO ? reason_of(r) : "");
}

/* Fills the reference case from the options: count from bytes, root, q. */
static int settle_case(struct options *o, int p)
{
	size_t es = vp_type_size(o->k.type);

	if (o->bytes % es)
		usage_error("--bytes %zu is not a multiple of the %s size %zu",
			    o->bytes, type_names[o->k.type], es);
	if (o->k.root >= p)
		usage_error("--root %d is not a rank of %s (p = %d)", o->k.root,
			    o->topology, p);
	if (o->k.rop >= VP_BAND && ref_is_float(o->k.type))
		usage_error("--op %s needs an integer --type, not %s",
			    op_names[o->k.rop], type_names[o->k.type]);
	o->k.op = (vp_coll)o->coll;
	o->k.count = o->bytes / es;
	o->k.p = p;
	return 0;
}

static int one(struct options *o)
{
	struct result r;

	settle_case(o, check_topology(o->topology));
	check_algorithm(o);
	if (o->explore) {
		struct explore_tally t = { 0 };

		explore_header(o);
		explore_case(o, &t);
		return explore_summary(o, &t);
	}
	run_case(o, &r);
	if (!r.ok && r.rc == VP_EALG) /* named algorithm cannot run here */
		usage_error("--algorithm %s: %s", vp_alg_name(o->alg), r.why);
	if (o->json) {
		print_json(o, &r);
	} else {
		print_header();
		print_row(o, &r);
		printf("\nmodel time congested (tw x load): %.1f; %s\n",
		       r.st.model_time_congested, r.st.collectives);
		if (o->trace)
			printf("trace: %s (open in ui.perfetto.dev)\n",
			       o->trace);
		if (o->svg)
			printf("svg: %s\n", o->svg);
	}
	return r.ok ? 0 : 1;
}

/* Under mpirun with VP_TRANSPORT=mpi every process runs vp-run and gets the
 * same figures: only the process of rank 0 prints them (its rank, from the
 * launcher's environment: Open MPI's or MPICH's). */
static void quiet_unless_rank0(void)
{
	const char *t = getenv("VP_TRANSPORT"), *r;

	if (!t || strcmp(t, "mpi"))
		return;
	r = getenv("OMPI_COMM_WORLD_RANK");
	if (!r)
		r = getenv("PMI_RANK");
	if (r && atoi(r) != 0 && !freopen("/dev/null", "w", stdout))
		exit(1);
}

/* Under mpirun, a topology of another size than the job cannot run. */
static int other_job_size(const struct result *r)
{
	return r->rc == VP_EINVAL && strstr(r->st.error, "the MPI job has");
}

static int tour(struct options *o)
{
	static const char *topologies[] = { "ring:8",      "line:8",
					    "mesh:3x3",    "torus:3x3",
					    "hypercube:3", "tree:8",
					    "full:8" };
	int t, c, failed = 0, exact = 0, exact_ok = 0, skipped = 0;
	struct explore_tally tally = { 0 };

	if (o->explore)
		explore_header(o);
	else if (!o->json) {
		printf("vp-run tour: every collective on every topology, "
		       "AUTO, %zu bytes per rank (block), ts = %g, tw = %g, "
		       "th = %g;\neach result checked against a sequential "
		       "reference; wall_us: median of %d calls\n\n",
		       o->bytes, o->ts, o->tw, o->th, o->reps);
		print_header();
	}
	for (t = 0; t < 7; t++) {
		int p = check_topology(topologies[t]); /* once a topology */

		for (c = 0; c < VP_COLL_COUNT_; c++) {
			struct result r;

			o->topology = topologies[t];
			o->coll = c;
			o->k.root = 0;
			settle_case(o, p);
			if (o->explore) {
				failed += explore_case(o, &tally);
				continue;
			}
			run_case(o, &r);
			if (other_job_size(&r)) {
				if (!o->json && c == 0)
					printf("%-12s (p = %d: run the tour "
					       "under mpirun -np %d for it)\n",
					       o->topology, p, p);
				skipped++;
				continue;
			}
			failed += !r.ok;
			if (r.ok && r.exact && r.formula >= 0 && o->th == 0) {
				exact++;
				exact_ok += !strcmp(verdict(o, &r), "yes");
			}
			if (o->json)
				print_json(o, &r);
			else
				print_row(o, &r);
		}
		if (!o->json && !o->explore && t < 6)
			printf("\n");
	}
	if (o->explore)
		return explore_summary(o, &tally);
	if (!o->json)
		printf("\n%d cases, %d failed; %d of %d exact formulas "
		       "reproduced to the unit%s\n",
		       7 * VP_COLL_COUNT_ - skipped, failed, exact_ok, exact,
		       skipped ? " (cases of another p skipped)" : "");
	return failed || exact_ok != exact ? 1 : 0;
}

/* ---- the model against the machine ---- */

/* What --calibrated gathers over its cases: the plot, its range, and the
 * measured / predicted ratios at each p. */
struct cal_run {
	struct plot pl;
	double lo, hi, ratio[3][2 * VP_COLL_COUNT_];
	int n[3], failed;
};

/* One case of --calibrated: collective c at ps[pi] ranks (on topo) and
 * bytes, its line, its point and its ratio. */
static void calibrated_case(struct options *o, struct cal_run *cr, int pi,
			    int p, const char *topo, size_t bytes, int c)
{
	static const char *const colours[] = { "#1f77b4", "#d62728",
					       "#2ca02c" };
	struct result r;
	char name[32];

	snprintf(name, sizeof(name), "p = %d", p);
	o->topology = topo;
	o->coll = c;
	o->bytes = bytes;
	o->k.root = 0;
	settle_case(o, p);
	run_case(o, &r);
	cr->failed += !r.ok;
	if (!r.ok || r.wall_us <= 0) {
		printf("%4d %-15s %7zu FAILED: %s\n", p, vp_coll_name(c), bytes,
		       r.why);
		return;
	}
	printf("%4d %-15s %7zu %-21s %12.2f %12.2f "
	       "%9.2f\n",
	       p, vp_coll_name(c), bytes, vp_alg_name(r.used), r.st.model_time,
	       r.wall_us, r.wall_us / r.st.model_time);
	cr->ratio[pi][cr->n[pi]++] = r.wall_us / r.st.model_time;
	plot_add(&cr->pl, name, colours[pi], 0, r.st.model_time, r.wall_us);
	cr->lo = fmin(cr->lo, fmin(r.st.model_time, r.wall_us));
	cr->hi = fmax(cr->hi, fmax(r.st.model_time, r.wall_us));
}

/* The medians of the ratios at each p, and where p exceeds the cores. */
static void calibrated_summary(const int *ps, struct cal_run *cr)
{
	int pi, c, cores = 0;

#ifdef _SC_NPROCESSORS_ONLN
	cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
#endif
	printf("\nmeasured / predicted, median over the collectives:");
	for (pi = 0; pi < 3; pi++) {
		qsort(cr->ratio[pi], (size_t)cr->n[pi], sizeof(double),
		      cmp_double);
		printf(" p = %d: %.2f%s", ps[pi],
		       cr->n[pi] ? cr->ratio[pi][cr->n[pi] / 2] : 0,
		       pi < 2 ? ";" : "\n");
	}
	printf("caveat: %d cores here; where p exceeds them (", cores);
	for (pi = 0, c = 0; pi < 3; pi++)
		if (ps[pi] > cores)
			printf("%sp = %d", c++ ? ", " : "", ps[pi]);
	printf(") the ranks take turns on the cores (oversubscribed), which "
	       "the model, one processor per rank, does not see\n");
}

/*
 * vp-run --calibrated: the alpha-beta model fitted to this machine's
 * point-to-point times (calibrate.h), then every collective with AUTO on
 * full:p for p = 2, 8 and 64 at 8 B and 16 KiB (or --bytes): the model's
 * time next to the measured one (median of the slowest rank's time per
 * call).
 */
static int calibrated(struct options *o)
{
	static const int ps[] = { 2, 8, 64 };
	static char topo[3][16], subtitle[160];
	size_t sizes[2] = { 8, o->bytes_given ? o->bytes : 16384 };
	struct calibration cal;
	static struct cal_run cr;
	int pi, si, c;

	cr = (struct cal_run){
		.pl = { .title = "vp: the calibrated alpha-beta model "
				 "against the measurement",
			.subtitle = subtitle,
			.xlabel = "predicted (model) time per call, us",
			.ylabel = "measured time per call, us" },
		.lo = INFINITY
	};
	snprintf(subtitle, sizeof(subtitle),
		 "every collective, AUTO, full:p, 8 B and %zu B; on the dashed "
		 "line the model is exact",
		 sizes[1]);
	if (calibrate(&cal))
		return 1;
	calibration_print(&cal, stdout);
	printf("\neach collective, AUTO on full:p, --model %s: predicted "
	       "and measured us per call (median of %d calls)\n",
	       cal.alpha_beta, o->reps);
	printf("%4s %-15s %7s %-21s %12s %12s %9s\n", "p", "collective",
	       "bytes", "algorithm", "predicted", "measured", "meas/pred");
	o->model = cal.alpha_beta;
	for (pi = 0; pi < 3; pi++) {
		snprintf(topo[pi], sizeof(topo[pi]), "full:%d", ps[pi]);
		for (si = 0; si < 2; si++)
			for (c = 0; c < VP_COLL_COUNT_; c++)
				calibrated_case(o, &cr, pi, ps[pi], topo[pi],
						sizes[si], c);
	}
	calibrated_summary(ps, &cr);
	if (o->plot && cr.hi > 0) {
		plot_add(&cr.pl, "predicted = measured", "#888", 1, cr.lo,
			 cr.lo);
		plot_add(&cr.pl, "predicted = measured", "#888", 1, cr.hi,
			 cr.hi);
		if (plot_write(&cr.pl, o->plot))
			fprintf(stderr, "vp-run: cannot write %s\n", o->plot);
		else
			printf("plot: %s\n", o->plot);
	}
	return cr.failed ? 1 : 0;
}

/* --explore runs the collective cases, each a child process per run, and
 * prints its own table; --timeout is its runs' limit. */
static void check_explore(const struct options *o)
{
	if (!o->explore) {
		if (o->timeout)
			usage_error("--timeout limits each run of --explore: "
				    "add --explore N");
		return;
	}
	if (o->app.name || o->apps || o->calibrated)
		usage_error("--explore runs the collectives' cases: leave out "
			    "--app, --apps and --calibrated");
	if (o->json || o->trace || o->svg)
		usage_error("--explore prints a table of its own and draws "
			    "nothing: leave out --json, --trace and --svg "
			    "(replay the failing seed with --schedule SEED to "
			    "draw it)");
	if (getenv("VP_TRANSPORT") && strcmp(getenv("VP_TRANSPORT"), "threads"))
		usage_error("--explore runs on the threads transport (each "
			    "run a child process): unset VP_TRANSPORT");
}

int main(int argc, char **argv)
{
	struct options o = { .alg = VP_ALG_AUTO,
			     .bytes = 1024,
			     .ts = 100,
			     .tw = 1,
			     .reps = 10,
			     .coll = -1,
			     .app = { .gamma = 1 } };

	o.k.q = 1;
	parse(argc, argv, &o);
	quiet_unless_rank0();
	check_explore(&o);
	if (o.calibrated) {
		if (o.topology || o.coll >= 0 || o.model)
			usage_error("--calibrated runs its own cases (full:2, "
				    "8, 64) with the fitted model: leave out "
				    "--topology, --collective and --model");
		if (o.bytes_given && o.bytes == 0)
			usage_error("--calibrated --bytes: the larger size "
				    "must be at least 1 byte");
		return calibrated(&o);
	}
	if (o.plot)
		usage_error("--plot goes with --calibrated");
	if (o.app.name || o.apps) {
		if (o.coll >= 0 || o.json)
			usage_error("--app and --apps run applications: leave "
				    "out --collective and --json");
		if (o.apps && (o.app.name || o.topology || o.svg || o.trace))
			usage_error("--apps is the tour: --app NAME "
				    "--topology T runs one (and draws it)");
		return o.apps ? app_tour(&o, &o.app) : app_one(&o, &o.app);
	}
	if (o.app.n || o.app.nb)
		usage_error("--n and --nb go with --app");
	if (!o.topology && o.coll < 0) {
		if (o.trace || o.svg)
			usage_error("--trace and --svg draw one case: add "
				    "--topology and --collective");
		if (o.model)
			usage_error("--model runs one case (the tour checks "
				    "alpha-beta's formulas): add --topology "
				    "and --collective");
		return tour(&o);
	}
	if (!o.topology)
		usage_error("--topology is missing (e.g. --topology "
			    "hypercube:3)");
	if (o.coll < 0)
		usage_error("--collective is missing (e.g. --collective "
			    "bcast)");
	return one(&o);
}
