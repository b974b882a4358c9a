/* getopt_cases.c - getopt, getopt_long and getopt_long_only on a table
 * of command lines, on every rank at once: each call's result, optarg,
 * optind and optopt, and argv's final order (GNU getopt permutes it), go
 * into a trace whose hash rank 0 prints. Under a real MPI that is
 * glibc's getopt; the hash is the same wherever getopt behaves as
 * glibc's does. "getopt_cases -v" prints the trace itself.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { SHORT, LONG, LONG_ONLY };

struct tcase {
	enum kind kind;
	const char *optstring;
	const char *args[12]; /* after argv[0] */
};

static int flag;
static const struct option longopts[] = {
	{ "alpha", no_argument, NULL, 'a' },
	{ "beta", required_argument, NULL, 'b' },
	{ "gamma", optional_argument, NULL, 'g' },
	{ "verbose", no_argument, NULL, 'V' },
	{ "version", no_argument, NULL, 'W' },
	{ "flag", no_argument, &flag, 7 },
	{ NULL, 0, NULL, 0 },
};

static const struct tcase cases[] = {
	{ SHORT, "ab:c::", { "-a", "-b", "x", "-cfoo", "-c", "file" } },
	{ SHORT, "ab:", { "x", "-a", "y", "-b", "1", "z" } },
	{ SHORT, "ab:", { "-a", "--", "-b", "x" } },
	{ SHORT, "+ab", { "-a", "x", "-b" } },
	{ SHORT, "-ab", { "x", "-a", "y", "-b" } },
	{ SHORT, ":ab:", { "-a", "-b" } },
	{ SHORT, "ab:", { "-a", "-b" } },
	{ SHORT, "ab", { "-z", "-a", "-:" } },
	{ SHORT, "ab:", { "-abx", "-ba", "q" } },
	{ SHORT, "ab", { "-", "-a", "--" } },
	{ SHORT, "ab", { "x", "y", "--", "-a" } },
	{ LONG, "ab:g::", { "--alpha", "--beta=1", "--beta", "2", "--al",
			    "x", "--gam" } },
	{ LONG, "a", { "--unknown", "--alpha=3", "--ver", "--verb" } },
	{ LONG, ":a", { "--beta" } },
	{ LONG, "a", { "--beta" } },
	{ LONG, "a", { "--flag", "--gamma", "--gamma=v", "--gamma", "w" } },
	{ LONG, "+a", { "--alpha", "x", "--beta", "1" } },
	{ LONG_ONLY, "ab:", { "-alpha", "-b", "1", "-beta=2", "-a", "-ab",
			      "-fl" } },
	{ LONG_ONLY, "ab:", { "-v", "-ver", "-zz", "--b", "3" } },
	{ LONG_ONLY, "xyz", { "-xy", "-x", "-gamma" } },
};

#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

static char trace[16384];
static size_t used;

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void put(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(trace + used, sizeof(trace) - used, fmt, ap);
	va_end(ap);
	if (n > 0 && used + (size_t)n < sizeof(trace))
		used += (size_t)n;
}

static void run_case(int k)
{
	const struct tcase *t = &cases[k];
	char *argv[16], buf[12][16];
	int argc = 1, c, i, index;

	argv[0] = "getopt_cases";
	for (i = 0; t->args[i]; i++) {
		snprintf(buf[i], sizeof(buf[i]), "%s", t->args[i]);
		argv[argc++] = buf[i];
	}
	argv[argc] = NULL;
	optind = 0; /* a new scan, as GNU getopt defines */
	flag = 0;
	put("case %d:", k);
	do {
		index = -1;
		if (t->kind == SHORT)
			c = getopt(argc, argv, t->optstring);
		else if (t->kind == LONG)
			c = getopt_long(argc, argv, t->optstring, longopts,
					&index);
		else
			c = getopt_long_only(argc, argv, t->optstring,
					     longopts, &index);
		put(" %d/%s/%d/%d/%d", c, optarg ? optarg : "-", optind,
		    c == '?' || c == ':' ? optopt : 0, index);
	} while (c != -1);
	put(" flag %d; argv", flag);
	for (i = 1; i < argc; i++)
		put(" %s", argv[i]);
	put("\n");
}

int main(int argc, char **argv)
{
	int rank, p, k, verbose = argc > 1 && !strcmp(argv[1], "-v");
	unsigned long long h = 1469598103934665603ull, lo, hi;
	size_t i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	opterr = 0; /* the messages go to stderr, not compared here */
	for (k = 0; k < NCASES; k++) {
		run_case(k);
		MPI_Barrier(MPI_COMM_WORLD); /* the ranks' scans side by side */
	}
	for (i = 0; i < used; i++) /* FNV-1a */
		h = (h ^ (unsigned char)trace[i]) * 1099511628211ull;
	MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN,
		      MPI_COMM_WORLD);
	MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX,
		      MPI_COMM_WORLD);
	if (rank == 0) {
		printf("getopt on %d ranks: %d cases, trace %016llx, %s\n", p,
		       NCASES, h,
		       lo == hi ? "the same on every rank" : "ranks differ");
		if (verbose)
			fputs(trace, stdout);
	}
	MPI_Finalize();
	return 0;
}
