/*
 * measure_op.h - one operation (a collective, the barrier or the
 * ping-pong), measured the same way for every mode.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_MEASURE_OP_H
#define VP_BENCH_MEASURE_OP_H

#include <stddef.h>

#include "bench_rows.h"
#include "vp.h"

/* The transport measure_op runs on: NULL the default (threads), "mpi"
 * for vp-bench --transport mpi. */
extern const char *bench_transport;

/* Measures op on topo; 0 and a filled row, VP_EALG when alg cannot run
 * there, or another error (printed). */
int measure_op(const char *op, vp_alg alg, const char *topo, size_t bytes,
	       int iters, struct row *r);

/* Iterations for a size and p: enough for a median, bounded in time. */
int iterations(size_t bytes, int p);

#endif
