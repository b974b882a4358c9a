/*
 * test_vp_run.c - the vp-run tool as a user meets it (the binary is
 * $VP_TOOLS/vp-run, set by make check).
 *
 * Specification:
 *   - one case with --json prints one valid JSON object with the fields of
 *     the README (topology, p, collective, algorithm, bytes, ok, model_time,
 *     formula_time, max_link_load, messages, wall_us) and the book's time;
 *   - the tour (--json --reps 0) runs every collective on every topology,
 *     70 cases, each checked against the sequential reference and right;
 *   - --trace and --svg write a valid trace and a well-formed SVG;
 *   - --explore N runs a case under N schedules, each right, and
 *     --schedule SEED one run under a schedule;
 *   - bad arguments exit with status 2 and a message naming the argument
 *     and the accepted values.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_check.h"
#include "tap.h"
#include "tool_run.h"
#include "xml_check.h"

static int has_fields(const char *line)
{
	static const char *fields[] = {
		"\"topology\":", "\"p\":",	   "\"collective\":",
		"\"algorithm\":", "\"bytes\":",	   "\"ok\":",
		"\"model_time\":", "\"formula_time\":", "\"max_link_load\":",
		"\"messages\":",  "\"wall_us\":"};
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strstr(line, fields[i]))
			return 0;
	return 1;
}

static void one_case(void)
{
	int rc = tool("vp-run --topology hypercube:3 --collective bcast "
			     "--algorithm hypercube --bytes 1024 --ts 100 "
			     "--tw 1 --json");
	size_t at;

	tap_ok(rc == 0, "one case exits 0 (%d)", rc);
	tap_ok(json_valid(out, &at) && has_fields(out),
	       "one case prints one JSON object with every field: %s", out);
	tap_ok(strstr(out, "\"ok\":true") &&
		       strstr(out, "\"model_time\":3372,") &&
		       strstr(out, "\"formula_time\":3372,") &&
		       strstr(out, "\"max_link_load\":1,") &&
		       strstr(out, "\"messages\":7,"),
	       "hypercube broadcast of 1 KiB: (ts + tw m) log p = 3372, "
	       "load 1, 7 messages");

	rc = tool("vp-run --topology hypercube:4 --collective alltoall "
			 "--algorithm pairwise --bytes 1024 --ts 100 --tw 1 "
			 "--reps 3 --json");
	tap_ok(rc == 0 && strstr(out, "\"matches\":\"yes\"") &&
		       strstr(out, "\"max_link_load\":1,") &&
		       !strstr(out, "\"wall_us\":null"),
	       "pairwise all-to-all on hypercube:4 matches the book, load 1, "
	       "timed: %s", out);

	rc = tool("vp-run --topology ring:6 --collective allreduce");
	tap_ok(rc == 0 && strstr(out, "ring:6") && strstr(out, "ok"),
	       "the table form names the case: %s", out);
}

static void tour(void)
{
	int rc = tool("vp-run --json --reps 0"), lines = 0, good = 0;
	char *line, *save = NULL;

	for (line = strtok_r(out, "|\n", &save); line;
	     line = strtok_r(NULL, "|\n", &save)) {
		lines++;
		good += json_valid(line, NULL) && has_fields(line) &&
			strstr(line, "\"ok\":true") != NULL;
	}
	tap_ok(rc == 0 && lines == 70 && good == 70,
	       "the tour: %d JSON lines, %d valid and right (exit %d)", lines,
	       good, rc);
}

static char *slurp(const char *path)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void pictures(void)
{
	char args[512], json[64], svg[64];
	const char *s;
	int rc;

	snprintf(json, sizeof(json), "/tmp/vp_run_test_%d.json", (int)getpid());
	snprintf(svg, sizeof(svg), "/tmp/vp_run_test_%d.svg", (int)getpid());
	snprintf(args, sizeof(args),
		 "vp-run --topology ring:8 --collective allgather --algorithm "
		 "hypercube --bytes 64 --trace %s --svg %s",
		 json, svg);
	rc = tool(args);
	tap_ok(rc == 0, "--trace and --svg run (%d)", rc);
	s = slurp(json);
	tap_ok(s && json_valid(s, NULL) &&
		       count_substr(s, "\"ph\":\"s\"") == 24,
	       "the trace is valid JSON with 24 message flows");
	s = slurp(svg);
	tap_ok(s && xml_well_formed(s, NULL) &&
		       count_substr(s, "class=\"msg") == 24 &&
		       strstr(s, "class=\"msg congested\""),
	       "the SVG is well-formed, 24 arrows, congestion on the ring");
	remove(json);
	remove(svg);
}

/* --calibrated: 60 cases (10 collectives, p = 2, 8, 64, two sizes), each
 * with a prediction and a measurement, and the plot; --bytes 0 refused. */
static void calibrated(void)
{
	char args[256], svg[64], op[32], alg[32], *line, *save = NULL;
	const char *s;
	int rc, rows = 0, large = 0, said = 0, p, ok,
	    quick = getenv("VP_TEST_QUICK") != NULL;
	size_t bytes;
	double pred, meas, ratio;

	snprintf(svg, sizeof(svg), "/tmp/vp_run_cal_%d.svg", (int)getpid());
	/* under the sanitizers (VP_TEST_QUICK) one call a case, of 8 B and
	 * 1 KiB: ThreadSanitizer's p = 64 cases of 16 KiB took 45 s at
	 * three calls, 35 s at one */
	snprintf(args, sizeof(args), "vp-run --calibrated --reps %d%s --plot %s",
		 quick ? 1 : 3, quick ? " --bytes 1024" : "", svg);
	rc = tool(args);
	ok = rc == 0 && strstr(out, "--model alpha-beta:ts=") &&
	     strstr(out, "measured / predicted") &&
	     strstr(out, "oversubscribed") && !strstr(out, "FAILED");
	for (line = strtok_r(out, "|", &save); line;
	     line = strtok_r(NULL, "|", &save)) {
		int row = sscanf(line, "%d %31s %zu %31s %lf %lf %lf", &p, op,
				 &bytes, alg, &pred, &meas, &ratio) == 7 &&
			  pred > 0 && meas > 0;

		rows += row;
		large += row && bytes == (quick ? 1024 : 16384);
		/* what went wrong, where something did */
		if (rc && !row && ++said <= 20)
			tap_diag("vp-run said: %s", line);
	}
	tap_ok(ok && rows == 60 && large == 30,
	       "--calibrated: the fit, then 60 cases predicted and measured, "
	       "30 of them of %d bytes (%d rows, %d of that size, exit %d)",
	       quick ? 1024 : 16384, rows, large, rc);
	s = slurp(svg);
	tap_ok(s && xml_well_formed(s, NULL) && count_substr(s, "<circle") >= 60,
	       "--calibrated --plot: a well-formed SVG with a point per case");
	remove(svg);
	rc = tool("vp-run --calibrated --topology ring:4");
	tap_ok(rc == 2 && strstr(out, "--calibrated runs its own cases"),
	       "--calibrated with --topology exits 2 (%d)", rc);
	rc = tool("vp-run --calibrated --bytes 0");
	tap_ok(rc == 2 && strstr(out, "at least 1 byte"),
	       "--calibrated --bytes 0 exits 2 (%d)", rc);
}

static void bad_arguments(void)
{
	static const struct {
		const char *args, *says;
	} bad[] = {
		{"--topology foo:3 --collective bcast", "hypercube:D"},
		{"--topology ring:4 --collective bcastt", "reduce_scatter"},
		{"--topology ring:6 --collective bcast --algorithm hypercube",
		 "--algorithm hypercube"},
		{"--topology ring:4 --collective bcast --algorithm bruck",
		 "binomial"},
		{"--topology ring:4 --collective bcast --bytes lots", "--bytes"},
		{"--topology ring:4 --collective reduce --type float --op band",
		 "integer"},
		{"--topology ring:4 --collective bcast --root 9", "--root 9"},
		{"--topology ring:4 --collective bcast --type int32 --bytes 6",
		 "multiple"},
		{"--topology ring:4 --collective bcast --trace-clock cpu",
		 "model, wall"},
		{"--topology ring:4 --collective bcast --frobnicate 1",
		 "--frobnicate"},
		{"--topology ring:4", "--collective is missing"},
		{"--svg x.svg", "--topology and --collective"},
		{"--app nosuch", "they are: matvec-1d"},
		{"--app cannon --topology ring:8", "needs p a square (p = 8)"},
		{"--app cannon --collective bcast", "leave out --collective"},
		{"--apps --topology ring:8", "--apps is the tour"},
		{"--n 8", "--n and --nb go with --app"},
		{"--explore 0 --topology ring:4 --collective bcast",
		 "--explore"},
		{"--explore some --topology ring:4 --collective bcast",
		 "--explore"},
		{"--schedule 0 --topology ring:4 --collective bcast",
		 "--schedule '0' is not a seed"},
		{"--schedule 12x --topology ring:4 --collective bcast",
		 "--schedule '12x' is not a seed"},
		{"--schedule-depth -1 --topology ring:4 --collective bcast",
		 "--schedule-depth"},
		{"--timeout 5 --topology ring:4 --collective bcast",
		 "--timeout limits each run of --explore"},
		{"--explore 2 --timeout 0 --topology ring:4 --collective bcast",
		 "more than 0 seconds"},
		{"--explore 2 --app cannon", "leave out --app"},
		{"--explore 2 --topology ring:4 --collective bcast --json",
		 "leave out --json"},
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cmd[256];
		int rc;

		snprintf(cmd, sizeof(cmd), "vp-run %s", bad[i].args);
		rc = tool(cmd);

		tap_ok(rc == 2 && strstr(out, bad[i].says),
		       "'%s' exits 2 (%d) saying '%s': %s", bad[i].args, rc,
		       bad[i].says, out);
	}
}

static void help_and_version(void)
{
	int rc = tool("vp-run --help");

	tap_ok(rc == 0 && strstr(out, "usage: vp-run") &&
		       strstr(out, "--collective"),
	       "--help prints the usage and exits 0");
	rc = tool("vp-run -h");
	tap_ok(rc == 0 && strstr(out, "usage: vp-run"), "-h as --help");
	rc = tool("vp-run --version");
	tap_ok(rc == 0 && !strncmp(out, "vp-run ", 7), "--version exits 0: %s",
	       out);
}

/* --explore N: a case under N schedules, every one right; --schedule:
 * one run under a schedule. */
static void explore(void)
{
	int rc = tool("vp-run --explore 4 --topology hypercube:3 "
		      "--collective allreduce --bytes 64");

	tap_ok(rc == 0 && strstr(out, "vp-run --explore 4: each case under "
				      "4 schedules (seeds 1 on") &&
		       strstr(out, "hypercube:3  allreduce") &&
		       strstr(out, "  ok|") &&
		       strstr(out, "1 case, each under 4 schedules: 0 failed"),
	       "--explore 4: allreduce on hypercube:3 passes 4 schedules "
	       "(%d): %s",
	       rc, out);
	rc = tool("vp-run --explore 2 --schedule 50 --schedule-depth 2 "
		  "--topology ring:5 --collective alltoall --bytes 8");
	tap_ok(rc == 0 && strstr(out, "seeds 50 on, PCT") &&
		       strstr(out, "1 case, each under 2 schedules: 0 failed"),
	       "--explore 2 --schedule 50 --schedule-depth 2: seeds 50 on, "
	       "PCT (%d): %s",
	       rc, out);
	rc = tool("vp-run --schedule 9 --topology mesh:3x3 --collective "
		  "scan --bytes 16 --reps 0 --json");
	tap_ok(rc == 0 && strstr(out, "\"ok\":true"),
	       "--schedule 9: one case under a schedule, right (%d): %s", rc,
	       out);
}

/* The applications: one, drawn, and the tour. */
static void applications(void)
{
	int rc = tool("vp-run --app cannon --topology torus:3x3 --n 12 "
		      "--gamma 2");

	tap_ok(rc == 0 && strstr(out, "Cannon") && strstr(out, " ok ") &&
		       strstr(out, "exact") && strstr(out, "gamma = 2"),
	       "--app cannon: right, its formula exact (%d): %s", rc, out);
	rc = tool("vp-run --app lu --topology mesh:2x2 --n 16 --nb 2");
	tap_ok(rc == 0 && strstr(out, "L U - A") && strstr(out, "bound"),
	       "--app lu --nb 2: the residual checked, a bound (%d): %s", rc,
	       out);
	rc = tool("vp-run --apps");
	tap_ok(rc == 0 && strstr(out, "20 runs, 0 failed") &&
		       strstr(out, "sample-sort") && strstr(out, "mm3d") &&
		       strstr(out, "mm-recursive") &&
		       strstr(out, "lu-recursive"),
	       "--apps: every application on two topologies, all right "
	       "(%d): %s",
	       rc, out);
	rc = tool("vp-run --list");
	tap_ok(rc == 0 && strstr(out, "applications") &&
		       strstr(out, "summa"),
	       "--list names the applications");
}

int main(void)
{
	help_and_version();
	applications();
	one_case();
	tour();
	pictures();
	calibrated();
	explore();
	bad_arguments();
	return tap_done();
}
