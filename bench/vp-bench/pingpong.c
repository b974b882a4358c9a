/*
 * pingpong.c - vp-bench --pingpong: one-way latency and bandwidth of the
 * p = 2 ping-pong over sizes from 1 B to 4 MiB.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "bench.h"
#include "bench_rows.h"
#include "measure_op.h"
#include "modes.h"
#include "vp.h"

int mode_pingpong(const struct bench_args *a)
{
	size_t b;

	(void)a;
	for (b = 1; b <= ((size_t)4 << 20); b *= 8) {
		struct row r;

		progress("pingpong %zu B", b);
		if (measure_op("pingpong", VP_ALG_AUTO, "line:2", b,
			       b <= 4096     ? (bench_quick ? 1000 : 10000)
			       : b <= 262144 ? 500
					     : 50,
			       &r))
			return 1;
		snprintf(r.op, sizeof(r.op), "pingpong_oneway");
		row_print(&r);
		note("  %zu B: %.3f GB/s one way", b,
		     (double)b / r.s.p50 / 1e3);
	}
	progress("%s", "");
	return 0;
}
