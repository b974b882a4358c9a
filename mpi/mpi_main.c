/*
 * mpi_main.c - the process's main for programs built with vpmpicc, which
 * renames the program's own main to vpmpi_user_main. It reads the job's
 * settings from the environment (vpmpirun sets them; a program started
 * directly runs as one rank, as an MPI singleton does), runs one rank
 * thread per rank, each calling the program's main with its own copy of
 * argv, and exits with the job's status: 0, the code given to MPI_Abort,
 * or 1 for any other failure (vp's report names it on stderr).
 *
 *   VPMPI_NP        ranks (default 1)
 *   VPMPI_TOPOLOGY  vp topology (default full:NP)
 *   VPMPI_TS, VPMPI_TW, VPMPI_TH   the model's parameters (default 0)
 *   VPMPI_STRICT    1: messages only between neighbours
 *   VPMPI_TRACE, VPMPI_SVG         trace and space-time diagram paths
 *   VPMPI_STATS     1: print the run's vp_stats to stderr at the end
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

int vpmpi_user_main(int argc, char **argv);

struct job {
	int argc;
	char **argv;
};

static int rank_main(vp_comm *world, void *arg)
{
	struct job *j = arg;
	char **argv = malloc(((size_t)j->argc + 1) * sizeof(*argv));
	int rc, i;

	if (!argv)
		return VP_ENOMEM;
	for (i = 0; i < j->argc; i++)
		argv[i] = j->argv[i];
	argv[j->argc] = NULL;
	vpmpi_bind(world);
	rc = vpmpi_user_main(j->argc, argv);
	free(argv);
	return rc;
}

static double env_double(const char *name)
{
	const char *s = getenv(name);

	return s ? atof(s) : 0;
}

int main(int argc, char **argv)
{
	const char *np_s = getenv("VPMPI_NP"), *topo = getenv("VPMPI_TOPOLOGY");
	int np = np_s ? atoi(np_s) : 1, rc;
	char spec[64];
	struct job j = { argc, argv };
	vp_opts o = { 0 };
	vp_stats st;

	if (np < 1) {
		fprintf(stderr, "vpmpi: VPMPI_NP=%s is not a rank count\n",
			np_s);
		return 2;
	}
	if (!topo || !*topo) {
		snprintf(spec, sizeof(spec), "full:%d", np);
		topo = spec;
	}
	o.topology = topo;
	o.ts = env_double("VPMPI_TS");
	o.tw = env_double("VPMPI_TW");
	o.th = env_double("VPMPI_TH");
	o.strict = getenv("VPMPI_STRICT") && atoi(getenv("VPMPI_STRICT"));
	o.trace = getenv("VPMPI_TRACE");
	o.svg = getenv("VPMPI_SVG");
	rc = vp_run(&o, rank_main, &j, &st);
	if (getenv("VPMPI_STATS") && atoi(getenv("VPMPI_STATS")))
		fprintf(stderr,
			"vpmpi: %d ranks on %s: %llu messages, %llu bytes, "
			"model time %g, max link load %llu, %.3f s\n%s%s",
			st.p, topo, (unsigned long long)st.messages,
			(unsigned long long)st.bytes, st.model_time,
			(unsigned long long)st.max_link_load, st.wall_seconds,
			st.collectives[0] ? "vpmpi: collectives:\n" : "",
			st.collectives);
	fflush(stdout);
	return rc > 0 ? rc : rc ? 1 : 0;
}
