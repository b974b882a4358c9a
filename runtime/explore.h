/*
 * explore.h - what vp_explore (explore.c) needs of one run in a child
 * process (explore_run.c): its outcome as the parent sees it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_EXPLORE_H
#define VP_EXPLORE_H

#include <stddef.h>

#include "vp.h"

/* Bytes kept of a run's stderr: its report's start. */
#define VP__EXPLORE_ERR_BYTES 4096

struct vp__explore_outcome {
	int done;      /* vp_run returned in the child */
	int rc, rank;  /* its result and failing rank (done only) */
	int have_info; /* info is vp_schedule_last's (done only) */
	vp_schedule_info info;
	int status;    /* the child's wait status (not timed_out) */
	int timed_out; /* killed after the time limit */
	size_t err_len;
	char err[VP__EXPLORE_ERR_BYTES]; /* stderr's start, NUL-ended */
};

/* Runs vp_run(o, fn, arg) in a child process whose stdout is /dev/null
 * and whose stderr is kept in out->err; kills it after timeout seconds.
 * VP_OK, or VP_ENOMEM with why filled when no child could run. */
int vp__explore_run(const vp_opts *o, int (*fn)(vp_comm *, void *),
		    void *arg, double timeout, struct vp__explore_outcome *out,
		    char *why, size_t whylen);

#endif
