/*
 * test_vp_bench.c - vp-bench as a user meets it (smoke runs with --quick;
 * the numbers themselves are not asserted: the machine is shared).
 *
 * Specification:
 *   - --collectives prints the '#' header and one row per collective,
 *     algorithm, p and size, in the table, CSV and JSON forms alike;
 *   - each row's statistics are ordered: min <= p50 <= p99 <= max, and the
 *     model time of one call is the book's (bcast binomial at p = 8 with
 *     ts = 1 and tw = 0.001 per byte: 3 (1 + 0.008) = 3.024 for 8 bytes);
 *   - --pingpong gives one-way rows over sizes;
 *   - --calibrate prints the fitted models as specs vp accepts;
 *   - bad arguments exit 2 naming the argument.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json_check.h"
#include "tap.h"
#include "tool_run.h"
#include "vp.h"

static void csv_rows(void)
{
	int rc = tool("vp-bench --collectives --quick --csv --p 2,8 --sizes "
		      "8,4096 --ops bcast,allreduce --algs all");
	char *line, *save = NULL;
	int rows = 0, ordered = 0, header = 0, book = 0;

	for (line = strtok_r(out, "|", &save); line;
	     line = strtok_r(NULL, "|", &save)) {
		char op[64], topo[32];
		int p, iters;
		size_t bytes;
		double mn, p50, p99, mx, model;

		if (!strcmp(line, "op,topo,p,bytes,iters,min_us,p50_us,p99_us,"
				  "max_us,model_us"))
			header++;
		if (sscanf(line,
			   "%63[^,],%31[^,],%d,%zu,%d,%lf,%lf,%lf,%lf,%lf", op,
			   topo, &p, &bytes, &iters, &mn, &p50, &p99, &mx,
			   &model) != 10)
			continue;
		rows++;
		ordered += mn <= p50 && p50 <= p99 && p99 <= mx && iters > 0;
		if (!strcmp(op, "bcast:binomial") && p == 8 && bytes == 8)
			book += model > 3.0239 && model < 3.0241;
	}
	/* bcast: 8 algorithms at p = 8, fewer at p = 2 where some cannot
	 * run; allreduce: 5 at p = 8 */
	tap_ok(rc == 0 && header == 1 && rows >= 40,
	       "--collectives --csv: header once and %d rows (exit %d)", rows,
	       rc);
	tap_ok(ordered == rows,
	       "every row has min <= p50 <= p99 <= max (%d of "
	       "%d)",
	       ordered, rows);
	tap_ok(book == 1, "bcast binomial p = 8, 8 B: model 3.024 as the book");
}

static void json_rows(void)
{
	int rc = tool("vp-bench --collectives --quick --json --p 4 --sizes 8 "
		      "--ops barrier,alltoall --algs auto");
	char *line, *save = NULL;
	int rows = 0, valid = 0;

	for (line = strtok_r(out, "|", &save); line;
	     line = strtok_r(NULL, "|", &save)) {
		rows++;
		valid += json_valid(line, NULL) && strstr(line, "\"p50_us\":");
	}
	tap_ok(rc == 0 && rows == 2 && valid == 2,
	       "--json: one valid object per row (%d of %d, exit %d)", valid,
	       rows, rc);
}

/* --calibrate: the fit comes out as specs that vp accepts, with its
 * error; the numbers are this machine's and are not asserted. */
static void calibrate(void)
{
	int rc = tool("vp-bench --calibrate --json");
	char ab[128] = "", lg[160] = "", err[256];
	const char *at;
	vp_model m;
	double mx = -1, rms = -1;

	if ((at = strstr(out, "\"alpha_beta\":\"")))
		sscanf(at + 14, "%127[^\"]", ab);
	if ((at = strstr(out, "\"loggp\":\"")))
		sscanf(at + 9, "%159[^\"]", lg);
	if ((at = strstr(out, "\"max_rel_error\":")))
		sscanf(at + 16, "%lf", &mx);
	if ((at = strstr(out, "\"rms_rel_error\":")))
		sscanf(at + 16, "%lf", &rms);
	tap_ok(rc == 0 && json_valid(out, NULL) &&
		   !vp_model_parse(ab, &m, err, sizeof(err)) &&
		   m.kind == VP_MODEL_ALPHA_BETA && m.ts > 0 &&
		   !vp_model_parse(lg, &m, err, sizeof(err)) &&
		   m.kind == VP_MODEL_LOGGP,
	       "--calibrate --json: one valid object whose specs vp accepts "
	       "('%s', '%s', exit %d)",
	       ab, lg, rc);
	tap_ok(rms >= 0 && mx >= rms,
	       "--calibrate: the fit's error, largest %.3f >= rms %.3f", mx,
	       rms);
	rc = tool("vp-bench --calibrate");
	tap_ok(rc == 0 && count_substr(out, "--model ") == 2 &&
		   strstr(out, "measured_us"),
	       "--calibrate: the measured points, the fit and two --model "
	       "lines");
}

static void pingpong(void)
{
	int rc = tool("vp-bench --pingpong --quick");

	tap_ok(rc == 0 && count_substr(out, "pingpong_oneway") == 8 &&
		   strstr(out, "GB/s"),
	       "--pingpong: 8 sizes with their bandwidth (exit %d)", rc);
}

/* The loop vp-bench --perf-stat runs under perf stat, alone. */
static void perf_loop(void)
{
	int rc = tool("vp-bench --loop pingpong --quick");

	tap_ok(rc == 0, "--loop pingpong runs its loop alone (exit %d): %s", rc,
	       out);
}

/* The applications' scaling table: Cannon exact, SUMMA a bound. */
static void apps_scaling(void)
{
	int rc = tool("vp-bench --apps --quick");

	tap_ok(rc == 0 && count_substr(out, " exact ") == 4 &&
		   count_substr(out, " bound ") == 4 && !strstr(out, "FAILED"),
	       "--apps --quick: Cannon and SUMMA at p = 1, 4, 16, 64 and "
	       "n = 128, all right (exit %d): %s",
	       rc, out);
}

/* What reproducible sums cost: bytes on the wire as many limbs as the
 * data's span needs (one for one binade, two for uniform doubles). */
static void reproducible_cost(void)
{
	int rc = tool("vp-bench --reproducible --quick");

	tap_ok(rc == 0 && count_substr(out, "    8 ") == 6 &&
		   strstr(out, "1024 narrow ") &&
		   strstr(strstr(out, "1024 narrow "), "(x1.00)") &&
		   strstr(out, "1024 uniform ") &&
		   strstr(strstr(out, "1024 uniform "), "(x2.00)") &&
		   !strstr(out, "FAILED"),
	       "--reproducible --quick: six rows at p = 8; one limb an "
	       "element for narrow data, two for uniform (exit %d): %s",
	       rc, out);
}

/* What a deterministic schedule costs: the three runs, none failed. */
static void schedule_cost(void)
{
	int rc = tool("vp-bench --schedule-cost --quick");

	tap_ok(rc == 0 && strstr(out, "free fibers") &&
		   strstr(out, "seeded fibers") &&
		   strstr(out, "seeded threads (baton)") &&
		   !strstr(out, "FAILED"),
	       "--schedule-cost --quick: free fibers, seeded fibers and "
	       "seeded threads at p = 64 (exit %d): %s",
	       rc, out);
}

static void bad_arguments(void)
{
	int rc = tool("vp-bench --collectives --p 0");

	tap_ok(rc == 2 && strstr(out, "--p"), "--p 0 exits 2: %s", out);
	rc = tool("vp-bench --ops frobnicate");
	tap_ok(rc == 2 && strstr(out, "frobnicate"),
	       "an unknown collective exits 2: %s", out);
	rc = tool("vp-bench --sideways");
	tap_ok(rc == 2 && strstr(out, "--sideways"),
	       "an unknown option exits 2: %s", out);
	rc = tool("vp-bench --collectives --p");
	tap_ok(rc == 2 && strstr(out, "--p needs a value"),
	       "an option without its value exits 2: %s", out);
	rc = tool("vp-bench --collectives --same-source");
	tap_ok(rc == 2 && strstr(out, "--same-source goes with --compare-mpi"),
	       "--same-source without --compare-mpi exits 2: %s", out);
	rc = tool("vp-bench --loop frobnicate");
	tap_ok(rc == 2 && strstr(out, "--loop 'frobnicate'"),
	       "--loop takes only the loops --perf-stat counts: %s", out);
	rc = tool("vp-bench --help");
	tap_ok(rc == 0 && strstr(out, "usage: vp-bench") &&
		   strstr(out, "--compare-mpi") &&
		   strstr(out, "--same-source") && strstr(out, "--perf-stat"),
	       "--help prints the usage and exits 0");
	rc = tool("vp-bench --version");
	tap_ok(rc == 0 && !strncmp(out, "vp-bench ", 9),
	       "--version exits 0: %s", out);
}

int main(void)
{
	csv_rows();
	json_rows();
	pingpong();
	calibrate();
	perf_loop();
	apps_scaling();
	reproducible_cost();
	schedule_cost();
	bad_arguments();
	return tap_done();
}
