/*
 * calibrate.c - the model against the machine: point-to-point times
 * measured here, and the cost models' parameters fitted to them
 * (calibrate.h says how).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vp.h"

#include "calibrate.h"

struct cal_job {
	size_t bytes;
	int iters, burst;
	double us;      /* ping-pong: one-way; burst: per message */
	double send_us; /* burst: the sender's time per send */
};

static double cal_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* Rank 0 and 1: iters round trips (one-way time), or iters bursts of
 * burst messages acknowledged by an empty one. */
static int cal_body(vp_comm *c, void *arg)
{
	struct cal_job *j = arg;
	char *b = calloc(1, j->bytes + 1);
	int me = vp_rank(c), i, k, rc = 0;
	double t0 = 0, sending = 0, s0;

	if (!b)
		return VP_ENOMEM;
	for (i = -1; i < j->iters && !rc; i++) { /* i = -1: warm-up */
		if (i == 0) {
			rc = vp_barrier(c);
			t0 = cal_now_us();
		}
		if (me == 0 && !j->burst) {
			rc = vp_send(c, 1, b, j->bytes)
				 ?: vp_recv(c, 1, b, j->bytes);
		} else if (!j->burst) {
			rc = vp_recv(c, 0, b, j->bytes)
				 ?: vp_send(c, 0, b, j->bytes);
		} else if (me == 0) {
			s0 = cal_now_us();
			for (k = 0; k < j->burst && !rc; k++)
				rc = vp_send(c, 1, b, j->bytes);
			if (i >= 0)
				sending += cal_now_us() - s0;
			rc = rc ?: vp_recv(c, 1, NULL, 0);
		} else {
			for (k = 0; k < j->burst && !rc; k++)
				rc = vp_recv(c, 0, b, j->bytes);
			rc = rc ?: vp_send(c, 0, NULL, 0);
		}
	}
	if (me == 0 && !rc) {
		double per = (cal_now_us() - t0) / j->iters;

		j->us = j->burst ? per / j->burst : per / 2;
		j->send_us = j->burst ? sending / j->iters / j->burst : 0;
	}
	free(b);
	return rc;
}

static int cal_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median over CAL_BATCHES runs of one measurement; *send_us likewise. */
static int cal_measure(size_t bytes, int burst, double *us, double *send_us)
{
	double v[CAL_BATCHES], s[CAL_BATCHES];
	int k, iters = (int)(4000000 / (bytes + 4000)) + 4;

	if (burst)
		iters = iters / burst + 2;
	for (k = 0; k < CAL_BATCHES; k++) {
		vp_opts o = { .topology = "full:2", .quiet = 1 };
		struct cal_job j = { bytes, iters, burst, 0, 0 };
		vp_stats st;

		if (vp_run(&o, cal_body, &j, &st)) {
			fprintf(stderr, "calibration failed: %s\n", st.error);
			return -1;
		}
		v[k] = j.us;
		s[k] = j.send_us;
	}
	qsort(v, CAL_BATCHES, sizeof(double), cal_cmp);
	qsort(s, CAL_BATCHES, sizeof(double), cal_cmp);
	*us = v[CAL_BATCHES / 2];
	if (send_us)
		*send_us = s[CAL_BATCHES / 2];
	return 0;
}

/* Weighted least squares of t = ts + tw m with weights 1/t^2. */
static void cal_fit(struct calibration *cal)
{
	double sw = 0, sx = 0, sxx = 0, sy = 0, sxy = 0, w, x, y, det, r;
	int i;

	for (i = 0; i < cal->n; i++) {
		x = (double)cal->bytes[i];
		y = cal->us[i];
		w = 1 / (y * y);
		sw += w;
		sx += w * x;
		sxx += w * x * x;
		sy += w * y;
		sxy += w * x * y;
	}
	det = sw * sxx - sx * sx;
	cal->tw = det > 0 ? (sw * sxy - sx * sy) / det : 0;
	cal->ts = (sy - cal->tw * sx) / sw;
	/* the best fit with both >= 0 (a model refuses a negative time): on
	 * a loaded machine the free fit's start-up time came out below 0,
	 * and every case vp-run --calibrated ran with it was refused */
	if (cal->ts < 0 && sxx > 0) {
		cal->ts = 0;
		cal->tw = sxy / sxx;
	}
	if (cal->tw < 0) {
		cal->tw = 0;
		cal->ts = sy / sw;
	}
	cal->max_rel = cal->rms_rel = 0;
	for (i = 0; i < cal->n; i++) {
		r = (cal->ts + cal->tw * (double)cal->bytes[i] - cal->us[i]) /
		    cal->us[i];
		cal->max_rel = fmax(cal->max_rel, fabs(r));
		cal->rms_rel += r * r;
	}
	cal->rms_rel = sqrt(cal->rms_rel / cal->n);
}

/* Measures and fits; 0, or -1 if a run failed. */
int calibrate(struct calibration *cal)
{
	static const size_t sizes[CAL_SIZES] = {
		8, 512, 4096, 16384, 65536, 262144, 524288, 1048576
	};
	double burst8, burst64k, send8;
	int i;

	memset(cal, 0, sizeof(*cal));
	for (i = 0; i < CAL_SIZES; i++) {
		cal->bytes[i] = sizes[i];
		if (cal_measure(sizes[i], 0, &cal->us[i], NULL))
			return -1;
	}
	cal->n = CAL_SIZES;
	cal_fit(cal);
	if (cal_measure(8, 64, &burst8, &send8) ||
	    cal_measure(65536, 8, &burst64k, NULL))
		return -1;
	cal->o = send8;
	cal->g = burst8;
	cal->G = fmax(0, (burst64k - burst8) / 65535);
	cal->L = fmax(0, cal->us[0] - 2 * cal->o);
	snprintf(cal->alpha_beta, sizeof(cal->alpha_beta),
		 "alpha-beta:ts=%.4g,tw=%.4g", cal->ts, fmax(cal->tw, 0));
	snprintf(cal->loggp, sizeof(cal->loggp),
		 "loggp:L=%.4g,o=%.4g,g=%.4g,G=%.4g", cal->L, cal->o, cal->g,
		 cal->G);
	return 0;
}

void calibration_print(const struct calibration *cal, FILE *f)
{
	int i;

	fprintf(f,
		"point to point on this machine (full:2, one-way = half a "
		"round trip, median of %d runs):\n",
		CAL_BATCHES);
	fprintf(f, "%10s %12s %12s %9s\n", "bytes", "measured_us", "fit_us",
		"residual");
	for (i = 0; i < cal->n; i++) {
		double fit = cal->ts + cal->tw * (double)cal->bytes[i];

		fprintf(f, "%10zu %12.3f %12.3f %+8.1f%%\n", cal->bytes[i],
			cal->us[i], fit, 100 * (fit - cal->us[i]) / cal->us[i]);
	}
	fprintf(f,
		"fit t = ts + tw m (least squares of the relative error): "
		"ts = %.4g us, tw = %.4g us/byte (%.2f GB/s); relative "
		"error: largest %.1f%%, rms %.1f%%\n",
		cal->ts, cal->tw, cal->tw > 0 ? 1e-3 / cal->tw : 0,
		100 * cal->max_rel, 100 * cal->rms_rel);
	fprintf(f,
		"loggp from bursts: o = %.4g us (sender per 8-byte send), g = "
		"%.4g us (8-byte burst per message), G = %.4g us/byte, L = "
		"%.4g us (t(8) - 2o)\n",
		cal->o, cal->g, cal->G, cal->L);
	fprintf(f, "--model %s\n--model %s\n", cal->alpha_beta, cal->loggp);
}
