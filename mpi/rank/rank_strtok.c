/*
 * rank_strtok.c - strtok for one rank (see rank_libc.h): libc's keeps the
 * position in the string in a variable of the process, so ranks that
 * tokenize at the same time would continue each other's strings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <string.h>

#include "rank_libc.h"

static char *position;

VPMPI_RANK_API char *strtok(char *restrict s, const char *restrict delim)
{
	return strtok_r(s, delim, &position);
}
