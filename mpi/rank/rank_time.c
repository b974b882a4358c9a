/*
 * rank_time.c - localtime, gmtime, asctime and ctime for one rank (see
 * rank_libc.h): libc returns their results in buffers of the process, so
 * one rank's call would overwrite another's result (C11 7.27.3: "the
 * functions ... return a pointer to one of these objects").
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <time.h>

#include "rank_libc.h"

static struct tm broken_down;
static char text[64]; /* asctime's form takes 26 bytes */

VPMPI_RANK_API struct tm *localtime(const time_t *t)
{
	tzset(); /* localtime follows TZ as it is now, localtime_r need not */
	return localtime_r(t, &broken_down);
}

VPMPI_RANK_API struct tm *gmtime(const time_t *t)
{
	return gmtime_r(t, &broken_down);
}

VPMPI_RANK_API char *asctime(const struct tm *tm)
{
	return asctime_r(tm, text);
}

VPMPI_RANK_API char *ctime(const time_t *t)
{
	struct tm *tm = localtime(t);

	return tm ? asctime(tm) : NULL;
}
