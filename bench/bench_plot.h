/*
 * bench_plot.h - a log-log line chart as SVG, drawn by the tool itself (no
 * gnuplot needed): median latency against message size, one line per
 * series, solid for vp and dashed for Open MPI, a colour per p.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_PLOT_H
#define VP_BENCH_PLOT_H

#define PLOT_MAX_POINTS 32
#define PLOT_MAX_SERIES 16

struct series {
	char name[64];
	const char *colour;
	int dashed;
	int n;
	double x[PLOT_MAX_POINTS], y[PLOT_MAX_POINTS];
};

struct plot {
	const char *title, *subtitle;
	/* a scatter of times against times (vp-run --calibrated): decades on
	 * both axes, these labels, and no lines but the dashed series' */
	const char *xlabel, *ylabel;
	int n;
	struct series s[PLOT_MAX_SERIES];
};

/* Adds point (x, y) to the series called name, creating it if needed. */
void plot_add(struct plot *pl, const char *name, const char *colour, int dashed,
	      double x, double y);

/* Writes the chart to path as SVG; 0, or -1 (errno) if it cannot. */
int plot_write(const struct plot *pl, const char *path);

#endif
