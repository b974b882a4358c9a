/*
 * trace_rank.h - what the trace keeps per rank and per run (trace.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_TRACE_RANK_H
#define VP_RUNTIME_TRACE_RANK_H

#include <stdint.h>
#include <stdio.h>

#include "../vec.h"

/* One rank's part, private to its thread. */
struct vp__trace_rank {
	uint32_t step; /* Lamport step of the messages it sends */
	/* what names the messages sent from now on, per message space
	 * (user, collective): vp_trace_label, vp_coll_note */
	const char *label[2], *alg[2];
	struct vp__vec ops; /* struct vp__trace_op, when tracing */
};

/* The run's part: on when either output path is set. */
struct vp__trace_world {
	int on;
	double wall0_us; /* the run's start, for wall-clock traces */
	FILE *json_file, *svg_file;
};

#endif /* VP_RUNTIME_TRACE_RANK_H */
