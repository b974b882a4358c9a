/*
 * bench_mpi.c - Open MPI for vp-bench --compare-mpi: install it when missing
 * (Debian, as root), build this project's MPI twin of the measurement loops
 * (bench/mpi/vp-mpi-bench.c) with mpicc, and run it with mpirun at a given p;
 * and the same source built with vp's own vpmpicc, run with vpmpirun.
 *
 * mpirun options, and why:
 *   --oversubscribe                p may exceed the cores (64 ranks on 2)
 *   --bind-to none                 let the kernel place oversubscribed ranks
 *   --mca mpi_yield_when_idle 1    only when p > cores: a waiting rank yields
 *                                  instead of spinning (Open MPI's advice for
 *                                  oversubscription)
 *   --mca btl_vader_single_copy_mechanism none
 *                                  containers often forbid the CMA/ptrace
 *                                  single copy; vader then copies twice
 *                                  through shared memory, as vp's eager path
 * and OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM) so that CI, which runs as root, can.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_rows.h"

#include "bench_mpi.h"

#ifndef VP_SOURCE_DIR
#define VP_SOURCE_DIR "."
#endif

static int have_mpi(void)
{
	return system("command -v mpicc >/dev/null 2>&1 && "
		      "command -v mpirun >/dev/null 2>&1") == 0;
}

/* 0 when mpicc and mpirun are there (installing them if root), else -1 with
 * the command to run on stderr. */
int mpi_ensure(void)
{
	if (have_mpi())
		return 0;
	if (geteuid() != 0) {
		fprintf(stderr, "vp-bench: Open MPI is missing; run:\n"
				"  sudo apt-get install -y openmpi-bin "
				"libopenmpi-dev\n");
		return -1;
	}
	fprintf(stderr, "vp-bench: installing openmpi-bin libopenmpi-dev "
			"with apt-get (once)...\n");
	if (system("export DEBIAN_FRONTEND=noninteractive; "
		   "apt-get install -y -qq openmpi-bin libopenmpi-dev "
		   ">/dev/null 2>&1 || { apt-get update -qq && apt-get install "
		   "-y -qq openmpi-bin libopenmpi-dev >/dev/null; }") != 0 ||
	    !have_mpi()) {
		fprintf(stderr, "vp-bench: apt-get could not install Open MPI; "
				"run: apt-get install -y openmpi-bin "
				"libopenmpi-dev\n");
		return -1;
	}
	return 0;
}

/* The twin's path, next to this program: build/vp-mpi-bench. */
void mpi_twin_path(char *out, size_t len)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		snprintf(self, sizeof(self), "./vp-bench");
	else
		self[n] = 0;
	snprintf(out, len, "%s/vp-mpi-bench", dirname(self));
}

/* The newest modification time of the twin's sources (the program, its
 * loops and their buffers), or -1 when one is missing (said on stderr). */
static time_t twin_sources_mtime(void)
{
	static const char *const src[] = {
		VP_SOURCE_DIR "/bench/mpi/vp-mpi-bench.c",
		VP_SOURCE_DIR "/bench/mpi/mpi_loops.h",
		VP_SOURCE_DIR "/bench/bench_buffer.h",
	};
	struct stat s;
	time_t newest = 0;
	int i;

	for (i = 0; i < (int)(sizeof(src) / sizeof(src[0])); i++) {
		if (stat(src[i], &s)) {
			fprintf(stderr,
				"vp-bench: the MPI twin's source %s "
				"is missing\n",
				src[i]);
			return -1;
		}
		if (s.st_mtime > newest)
			newest = s.st_mtime;
	}
	return newest;
}

/* Builds the twin with mpicc when it is missing or older than its source. */
int mpi_build(const char *twin)
{
	const char *src = VP_SOURCE_DIR "/bench/mpi/vp-mpi-bench.c";
	time_t newest = twin_sources_mtime();
	struct stat b;
	char cmd[8192];

	if (newest < 0)
		return -1;
	if (!stat(twin, &b) && b.st_mtime >= newest)
		return 0;
	snprintf(cmd, sizeof(cmd), "mpicc -O2 -o '%s' '%s'", twin, src);
	fprintf(stderr, "vp-bench: %s\n", cmd);
	return system(cmd) == 0 ? 0 : -1;
}

/* Runs launch (an mpirun command line up to the program) on the twin with
 * the OP:BYTES:ITERS list; fills rows, returns how many (or -1). */
static int twin_run(const char *launch, const char *twin, const char *jobs,
		    struct row *rows, int max)
{
	char cmd[16384], line[512];
	FILE *f;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "%s '%s' %s", launch, twin, jobs);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (n < max && row_parse(line, &rows[n]))
			n++;
		else
			fprintf(stderr, "twin: %s", line);
	if (pclose(f) != 0) {
		fprintf(stderr, "vp-bench: this failed: %s\n", cmd);
		return -1;
	}
	return n;
}

/* Runs the twin under Open MPI at p (see the options above). */
int mpi_run(const char *twin, int p, int ncpu, const char *jobs,
	    struct row *rows, int max)
{
	char launch[512];

	snprintf(launch, sizeof(launch),
		 "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
		 "mpirun --oversubscribe --bind-to none "
		 "--mca btl_vader_single_copy_mechanism none %s -np %d",
		 p > ncpu ? "--mca mpi_yield_when_idle 1" : "", p);
	return twin_run(launch, twin, jobs, rows, max);
}

/* The same twin source built with this build tree's vpmpicc, next to this
 * program: build/vp-mpi-bench-vp (rebuilt when older than its source or
 * than libvp.a). dir receives the tools' folder. */
int vpmpi_build(char *twin, size_t len, char *dir, size_t dlen)
{
	const char *src = VP_SOURCE_DIR "/bench/mpi/vp-mpi-bench.c";
	char lib[4300], cmd[8192], path[4300];
	time_t newest = twin_sources_mtime();
	struct stat b, l;

	mpi_twin_path(twin, len);
	snprintf(path, sizeof(path), "%s", twin);
	snprintf(dir, dlen, "%s", dirname(path));
	snprintf(twin + strlen(twin), len - strlen(twin), "-vp");
	snprintf(lib, sizeof(lib), "%s/libvp.a", dir);
	if (newest < 0)
		return -1;
	if (stat(lib, &l)) {
		fprintf(stderr, "vp-bench: %s is missing\n", lib);
		return -1;
	}
	if (!stat(twin, &b) && b.st_mtime >= newest && b.st_mtime >= l.st_mtime)
		return 0;
	snprintf(cmd, sizeof(cmd), "'%s/vpmpicc' -O2 -o '%s' '%s'", dir, twin,
		 src);
	fprintf(stderr, "vp-bench: %s\n", cmd);
	return system(cmd) == 0 ? 0 : -1;
}

/* Runs the vpmpicc twin with vpmpirun at p on topology spec. */
int vpmpi_run(const char *dir, const char *twin, int p, const char *spec,
	      const char *jobs, struct row *rows, int max)
{
	char launch[4400];

	snprintf(launch, sizeof(launch), "'%s/vpmpirun' -np %d --topology %s",
		 dir, p, spec);
	return twin_run(launch, twin, jobs, rows, max);
}
