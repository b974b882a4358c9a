/*
 * options.h - vp-run's command line, as the parts of vp-run read it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUN_OPTIONS_H
#define VP_RUN_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "apps/coll_ref.h"
#include "vp.h"

struct app_options {
	const char *name; /* --app */
	int n, nb;        /* --n, --nb (0: the tour's n, the default nb) */
	double gamma;     /* --gamma */
};

struct options {
	const char *topology, *trace, *svg, *model, *plot;
	int coll, alg, strict, reps, json, wall_clock, calibrated, apps;
	struct app_options app;
	size_t bytes;
	int bytes_given; /* --calibrated: its larger size (else 16 KiB) */
	double ts, tw, th;
	struct ref_case k;
	/* --schedule, --schedule-depth: a deterministic schedule (the first
	 * seed under --explore); --explore: runs per case (0: none);
	 * --timeout: each explored run's limit in seconds (0: vp's) */
	uint64_t schedule;
	int schedule_depth, explore;
	double timeout;
};

/* Says what is wrong with the command line on stderr, with the usage's
 * hint, and exits with status 2. */
void usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* The rank function and argument of the collective case o names (its
 * check included, no timing), and its options: what --explore hands
 * vp_explore (vp-run.c). */
void case_prepare(const struct options *o, vp_opts *vo,
		  int (**fn)(vp_comm *, void *), void **arg);

#endif
