/*
 * perf_stat.c - vp-bench --perf-stat: what one message costs the machine,
 * counted by the kernel (perf stat), for the two loops the performance
 * goals name: the p = 2 ping-pong of 8 bytes and the p = 64 barrier.
 *
 * vp-bench runs itself under `perf stat -x,` with the hidden option
 * --loop NAME, which runs one loop and nothing else (no probes, one
 * vp_run), so the counts divide cleanly by the loop's iterations (warm-up
 * iterations included). Per one-way message (ping-pong) and per barrier it
 * prints the context switches, the CPU time of all threads together and,
 * where the machine exposes them (not in most VMs), cycles and
 * instructions. Without perf it says what to install.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "loops.h"
#include "modes.h"
#include "perf_stat.h"
#include "vp.h"

#define PERF_PINGPONG_ITERS 200000
#define PERF_BARRIER_ITERS 2000

/* One loop, alone: vp-bench --loop pingpong|barrier. Its units (one-way
 * messages or barriers) including warm-up, or -1 on a bad name. */
double perf_loop_units(const char *name)
{
	if (!strcmp(name, "pingpong")) /* warm: iters / 10 + 1 round trips */
		return 2.0 *
		       (PERF_PINGPONG_ITERS + PERF_PINGPONG_ITERS / 10 + 1);
	if (!strcmp(name, "barrier")) /* 5 warm-up, 1 to start, iters */
		return PERF_BARRIER_ITERS + 6.0;
	return -1;
}

/* One counter from perf's CSV lines "value,unit,event,...": its value, or
 * -1 when perf could not count it. */
static double perf_counter(const char *csv_path, const char *event)
{
	FILE *f = fopen(csv_path, "r");
	char line[512];
	double v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ','),
		     *c2 = c1 ? strchr(c1 + 1, ',') : 0;

		if (!c2 || strncmp(c2 + 1, event, strlen(event)) ||
		    (c2[1 + strlen(event)] != ',' &&
		     c2[1 + strlen(event)] != ':'))
			continue;
		if (line[0] >= '0' && line[0] <= '9')
			v = strtod(line, NULL);
	}
	fclose(f);
	return v;
}

/* vp-bench --perf-stat. self: the path of this program. */
static int perf_stat_mode(const char *self)
{
	static const char *const loops[2] = { "pingpong", "barrier" };
	static const char *const what[2] = {
		"ping-pong p = 2, 8 B, per one-way message",
		"barrier p = 64 (full:64), per barrier",
	};
	char csv[64], cmd[4096 + 256];
	int i, fd;

	if (system("perf --version > /dev/null 2>&1")) {
		fprintf(stderr, "vp-bench: --perf-stat needs perf: apt-get "
				"install linux-perf\n");
		return 1;
	}
	for (i = 0; i < 2; i++) {
		double units = perf_loop_units(loops[i]), cs, task, cyc, ins;

		snprintf(csv, sizeof(csv), "/tmp/vp-perf-XXXXXX");
		fd = mkstemp(csv);
		if (fd < 0)
			return 1;
		close(fd);
		snprintf(cmd, sizeof(cmd),
			 "perf stat -x, -o %s -e context-switches,task-clock,"
			 "cycles,instructions -- '%s' --loop %s",
			 csv, self, loops[i]);
		if (system(cmd)) {
			fprintf(stderr, "vp-bench: %s failed\n", cmd);
			unlink(csv);
			return 1;
		}
		cs = perf_counter(csv, "context-switches");
		task = perf_counter(csv, "task-clock"); /* ms */
		cyc = perf_counter(csv, "cycles");
		ins = perf_counter(csv, "instructions");
		unlink(csv);
		printf("%s:\n", what[i]);
		printf("  context switches  %10.3f\n", cs / units);
		printf("  CPU time (us)     %10.3f   (all threads)\n",
		       task * 1e3 / units);
		if (cyc > 0)
			printf("  cycles            %10.0f\n", cyc / units);
		else
			printf("  cycles            not counted on this "
			       "machine\n");
		if (ins > 0)
			printf("  instructions      %10.0f\n", ins / units);
	}
	return 0;
}

/* --loop NAME: one loop alone, under perf stat; --quick
 * runs a tenth of it (smoke tests). */
int mode_loop(const struct bench_args *a)
{
	const char *name = a->loop;
	int pingpong = !strcmp(name, "pingpong");
	struct job j = { .bytes = 8,
			 .iters = (pingpong ? PERF_PINGPONG_ITERS
					    : PERF_BARRIER_ITERS) /
				  (bench_quick ? 10 : 1) };
	vp_opts o = { .topology = pingpong ? "line:2" : "full:64",
		      .ts = 1,
		      .tw = 0.001 };
	vp_stats st;

	if (vp_run(&o, pingpong ? pingpong_fn : barrier_fn, &j, &st)) {
		fprintf(stderr, "vp-bench: --loop %s failed: %s\n", name,
			st.error);
		return 1;
	}
	return 0;
}

int mode_perf_stat(const struct bench_args *a)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0) {
		fprintf(stderr, "vp-bench: cannot find its own path\n");
		return 1;
	}
	(void)a;
	self[n] = 0;
	return perf_stat_mode(self);
}
