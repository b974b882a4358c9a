/*
 * explore.h - vp-run --explore N: each collective case under N
 * deterministic schedules (vp_explore), a row per case, and the command
 * that replays the first failure.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUN_EXPLORE_H
#define VP_RUN_EXPLORE_H

#include "options.h"

/* What the cases explored so far found. */
struct explore_tally {
	int cases, failed;
	char replay[1024]; /* the command replaying the first failure */
	char report[256];  /* that failure's first report line */
};

void explore_header(const struct options *o);
/* The case o names (settled: o->k) under o->explore schedules: its row;
 * 1 if a run failed, else 0. */
int explore_case(const struct options *o, struct explore_tally *t);
/* The closing lines; the exit status (0 when no case failed). */
int explore_summary(const struct options *o, const struct explore_tally *t);

#endif
