/*
 * mpi_solibs.c - the shared libraries a program built with vpmpicc
 * brings: refused when its ranks would share them.
 *
 * vp loads one copy of the program per rank (mpi_main.c), so the
 * program's global variables are per rank. The shared libraries the
 * program needs (its DT_NEEDED entries, and theirs) are loaded by the
 * dynamic linker once for the process: every rank's copy binds to the
 * same libfoo.so, and libfoo's global variables would be one for all
 * ranks where under mpirun each process has its own. Rather than let the
 * ranks share them silently, the launcher refuses such a program at start
 * with a message naming the library.
 *
 * The exceptions are the system's C and language runtimes (libc, libm,
 * libpthread, libdl, librt, the compiler's libgcc_s, libstdc++, libgfortran,
 * libquadmath, libgomp, libatomic and the sanitizers' runtimes): vp runs its
 * ranks on them as threads of one process, and the state they keep per
 * process is either per thread, replaced per rank (vpmpicc's libvpmpi_rank.a,
 * mpi/rank/), or listed as shared in docs/reliability.md, "What ranks still
 * share, and why". One copy of the program (one rank, or vpmpirun
 * --shared-globals) shares nothing it would not share anyway.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

struct names {
	char **name;
	int n, cap, failed;
};

static int add_name(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct names *ns = arg;

	(void)size;
	if (ns->n == ns->cap) {
		int cap = ns->cap ? 2 * ns->cap : 32;
		char **grown = realloc(ns->name, (size_t)cap * sizeof(char *));

		if (!grown) {
			ns->failed = 1;
			return 1;
		}
		ns->name = grown;
		ns->cap = cap;
	}
	if (!(ns->name[ns->n] = strdup(info->dlpi_name ? info->dlpi_name : ""))) {
		ns->failed = 1;
		return 1;
	}
	ns->n++;
	return 0;
}

static void names_free(struct names *ns)
{
	while (ns->n)
		free(ns->name[--ns->n]);
	free(ns->name);
	free(ns);
}

void *vpmpi_solibs_before(void)
{
	struct names *ns = calloc(1, sizeof(*ns));

	if (ns)
		dl_iterate_phdr(add_name, ns);
	return ns;
}

/* A library of the system's C or language runtime, by its file name. */
static int runtime_library(const char *path)
{
	static const char *const runtime[] = {
		"libc",	      "libm",	    "libpthread", "libdl",
		"librt",      "libutil",    "libresolv",  "libanl",
		"libnsl",     "libcrypt",   "libmvec",	  "ld-linux",
		"ld-linux-x86-64", "libgcc_s", "libstdc++", "libgfortran",
		"libquadmath", "libgomp",   "libatomic",  "libasan",
		"libtsan",    "libubsan",   "liblsan",	  "linux-vdso",
		"linux-gate",
	};
	const char *base = strrchr(path, '/');
	size_t i, len;

	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	if (strncmp(base + len, ".so", 3))
		return 0;
	for (i = 0; i < sizeof(runtime) / sizeof(runtime[0]); i++)
		if (strlen(runtime[i]) == len && !strncmp(base, runtime[i], len))
			return 1;
	return 0;
}

int vpmpi_solibs_check(void *before, int ranks)
{
	struct names *was = before, *now = vpmpi_solibs_before();
	int i, k, refused = 0;

	if (!was || !now || was->failed || now->failed) {
		fprintf(stderr, "vpmpi: no memory to list the program's "
				"shared libraries\n");
		refused = 1;
		goto out;
	}
	for (i = 0; i < now->n; i++) {
		const char *name = now->name[i];

		for (k = 0; k < was->n && strcmp(was->name[k], name); k++)
			;
		if (k < was->n || !*name || !strncmp(name, "/proc/self/fd/", 14) ||
		    runtime_library(name))
			continue;
		fprintf(stderr,
			"vpmpi: the program needs the shared library %s, "
			"whose global variables its %d ranks would share "
			"(vp loads it once for the process, where mpirun's "
			"processes have one copy each): link that library "
			"statically into the program (its .a or its "
			"sources), or run with vpmpirun --shared-globals to "
			"share it, and the program's globals, on purpose\n",
			name, ranks);
		refused++;
	}
out:
	if (was)
		names_free(was);
	if (now)
		names_free(now);
	return refused;
}
