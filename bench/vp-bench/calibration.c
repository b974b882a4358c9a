/*
 * calibration.c - vp-bench --calibrate: the cost models fitted to this
 * machine's point-to-point times (calibrate.h), printed as --model specs
 * (or one JSON object with --json).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "bench_rows.h"
#include "calibrate.h"
#include "modes.h"

int mode_calibrate(const struct bench_args *a)
{
	struct calibration cal;

	(void)a;
	if (calibrate(&cal))
		return 1;
	if (row_format == FORMAT_JSON) {
		printf("{\"ts_us\":%.6g,\"tw_us_per_byte\":%.6g,"
		       "\"max_rel_error\":%.4f,\"rms_rel_error\":%.4f,"
		       "\"L\":%.6g,\"o\":%.6g,\"g\":%.6g,\"G\":%.6g,"
		       "\"alpha_beta\":\"%s\",\"loggp\":\"%s\"}\n",
		       cal.ts, cal.tw, cal.max_rel, cal.rms_rel, cal.L, cal.o,
		       cal.g, cal.G, cal.alpha_beta, cal.loggp);
		return 0;
	}
	calibration_print(&cal, stdout);
	printf("then: vp-run --calibrated (each collective's prediction next "
	       "to its measured time)\n");
	return 0;
}
