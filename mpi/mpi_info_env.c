/*
 * mpi_info_env.c - the environment's info (MPI 4.0, sec. 11.2.1):
 * MPI_INFO_ENV, predefined and read-only, and MPI_Info_create_env, which
 * makes a new info object with the same keys from the given argc and
 * argv; both may be used before MPI_Init and after MPI_Finalize. The keys
 * are those sec. 11.2.1 reserves that vp knows: "command" (the program's
 * name), "argv" (its arguments, space-separated; absent without any),
 * "maxprocs" (the job's rank count, vpmpirun -np), "wdir" (the working
 * directory) and "thread_level" (MPI_THREAD_SINGLE, what MPI_Init_thread
 * provides).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE /* program_invocation_name */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vpmpi.h"

static __thread MPI_Info env_info = MPI_INFO_NULL; /* MPI_INFO_ENV's */

/* The environment's keys into info, the command and arguments from argv
 * (argc items; 0: the process's own name only). */
static int fill(MPI_Info info, int argc, char **argv)
{
	char buf[MPI_MAX_INFO_VAL + 1], *np = getenv("VPMPI_NP");
	size_t n = 0;
	int i, rc;

	rc = MPI_Info_set(info, "command",
			  argc > 0 && argv && argv[0] ? argv[0]
						      : program_invocation_name);
	for (i = 1, buf[0] = '\0'; !rc && argv && i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (n + len + 2 > sizeof(buf))
			break; /* at most MPI_MAX_INFO_VAL characters */
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, argv[i], len + 1);
		n += len;
	}
	if (!rc && n)
		rc = MPI_Info_set(info, "argv", buf);
	if (!rc)
		rc = MPI_Info_set(info, "maxprocs", np && *np ? np : "1");
	if (!rc && getcwd(buf, sizeof(buf)))
		rc = MPI_Info_set(info, "wdir", buf);
	if (!rc)
		rc = MPI_Info_set(info, "thread_level", "MPI_THREAD_SINGLE");
	return rc;
}

int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
	int rc;

	if (!info)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Info_create_env",
				  "the info pointer is NULL");
	if ((rc = MPI_Info_create(info)))
		return rc;
	if ((rc = fill(*info, argc, argv)))
		MPI_Info_free(info);
	return rc;
}

MPI_Info vpmpi_info_env(void)
{
	if (env_info == MPI_INFO_NULL &&
	    MPI_Info_create_env(0, NULL, &env_info))
		env_info = MPI_INFO_NULL;
	return env_info;
}

void vpmpi_info_env_forget(void)
{
	env_info = MPI_INFO_NULL; /* freed with the rank's other info objects */
}
