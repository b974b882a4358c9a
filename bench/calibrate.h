/*
 * calibrate.h - the model against the machine: point-to-point times
 * measured here, and the cost models' parameters fitted to them, in
 * microseconds (vp-bench --calibrate prints them, vp-run --calibrated
 * puts the model's prediction next to the measured time of each
 * collective).
 *
 * alpha-beta: one-way times t(m) (half a ping-pong's round trip, median of
 * batches) at sizes from 8 B to 1 MiB, fitted by least squares to
 * t = ts + tw m, weighting each point by 1/t^2 so that the fit minimizes
 * the relative error (an ordinary fit would let the 1 MiB point decide
 * alone); the fit's error is the largest and the root-mean-square
 * relative residual.
 * loggp (Culler et al. 1993; Alexandrov et al. 1995), read off bursts of
 * back-to-back messages: o = the sender's time per 8-byte send of a
 * burst; g = the burst's time per 8-byte message, end to end; G = the
 * burst's time per byte of 64 KiB messages beyond g; L = t(8) - 2o (0 if
 * negative). Rough by nature: on shared memory, overhead and latency are
 * one copy each.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_CALIBRATE_H
#define VP_BENCH_CALIBRATE_H

#include <stddef.h>
#include <stdio.h>

#define CAL_SIZES 8
#define CAL_BATCHES 7

struct calibration {
	int n;
	size_t bytes[CAL_SIZES];
	double us[CAL_SIZES]; /* one-way time, median of the batches */
	double ts, tw;        /* the fit, us and us per byte */
	double max_rel, rms_rel;
	double L, o, g, G;
	char alpha_beta[128], loggp[160];
};

/* Measures and fits; 0, or -1 if a run failed. */
int calibrate(struct calibration *cal);

/* Prints the measured times, the fit and the --model specs. */
void calibration_print(const struct calibration *cal, FILE *f);

#endif
