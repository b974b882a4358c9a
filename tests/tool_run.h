/*
 * tool_run.h - runs one of the project's programs as a user would and keeps
 * what it printed: tool("vp-run --json") runs $VP_TOOLS/vp-run (make check
 * sets VP_TOOLS to the build folder) with stdout and stderr into out, lines
 * joined by '|' so a TAP message stays on one line, and returns the exit
 * status (-1 if it did not exit).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_TESTS_TOOL_RUN_H
#define VP_TESTS_TOOL_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static char out[1 << 20];

static int tool(const char *args)
{
	const char *dir = getenv("VP_TOOLS");
	char cmd[1024];
	size_t n = 0, k;
	FILE *f;
	int st;

	snprintf(cmd, sizeof(cmd), "%s/%s 2>&1", dir ? dir : "build", args);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while ((k = fread(out + n, 1, sizeof(out) - 1 - n, f)) > 0)
		n += k;
	out[n] = 0;
	st = pclose(f);
	while (n && out[n - 1] == '\n')
		out[--n] = 0;
	for (k = 0; k < n; k++)
		if (out[k] == '\n')
			out[k] = '|';
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
