/*
 * bench_plot.c - a log-log line chart as SVG, drawn by the tool itself (no
 * gnuplot needed): median latency against message size, one line per
 * series, solid for vp and dashed for Open MPI, a colour per p.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_plot.h"

/* Adds point (x, y) to the series called name, creating it if needed. */
void plot_add(struct plot *pl, const char *name, const char *colour, int dashed,
	      double x, double y)
{
	struct series *s = NULL;
	int i;

	for (i = 0; i < pl->n; i++)
		if (!strcmp(pl->s[i].name, name))
			s = &pl->s[i];
	if (!s) {
		if (pl->n == PLOT_MAX_SERIES)
			return;
		s = &pl->s[pl->n++];
		snprintf(s->name, sizeof(s->name), "%.63s", name);
		s->colour = colour;
		s->dashed = dashed;
	}
	if (s->n < PLOT_MAX_POINTS && x > 0 && y > 0) {
		s->x[s->n] = x;
		s->y[s->n++] = y;
	}
}

static const char *plot_size_label(double b, char *buf, size_t len)
{
	if (b >= 1048576)
		snprintf(buf, len, "%g MiB", b / 1048576);
	else if (b >= 1024)
		snprintf(buf, len, "%g KiB", b / 1024);
	else
		snprintf(buf, len, "%g B", b);
	return buf;
}

/* The chart's frame: its size and margins in pixels, the data's range
 * rounded out to whole steps on each axis, and the x axis's step. */
struct plot_frame {
	double W, H, L, R, T, B;
	double x0, x1, y0, y1, xs;
};

static double plot_px(const struct plot_frame *fr, double x)
{
	return fr->L + (fr->W - fr->L - fr->R) * log10(x / fr->x0) /
			   log10(fr->x1 / fr->x0);
}

static double plot_py(const struct plot_frame *fr, double y)
{
	return fr->H - fr->B -
	       (fr->H - fr->T - fr->B) * log10(y / fr->y0) /
		   log10(fr->y1 / fr->y0);
}

static void plot_bounds(const struct plot *pl, struct plot_frame *fr)
{
	double x0 = INFINITY, x1 = 0, y0 = INFINITY, y1 = 0, xs;
	int i, k;

	for (i = 0; i < pl->n; i++)
		for (k = 0; k < pl->s[i].n; k++) {
			x0 = fmin(x0, pl->s[i].x[k]);
			x1 = fmax(x1, pl->s[i].x[k]);
			y0 = fmin(y0, pl->s[i].y[k]);
			y1 = fmax(y1, pl->s[i].y[k]);
		}
	if (!(x1 > 0)) {
		x0 = y0 = 1;
		x1 = y1 = 10;
	}
	/* powers of 8 bytes across (1 B, 8 B, ... 2 MiB), decades up */
	xs = pl->xlabel ? 10 : 8;
	x0 = pow(xs, floor(log(x0) / log(xs) + 1e-9));
	x1 = pow(xs, ceil(log(x1) / log(xs) - 1e-9));
	y0 = pow(10, floor(log10(y0)));
	y1 = pow(10, ceil(log10(y1)));
	if (x1 <= x0)
		x1 = x0 * xs;
	if (y1 <= y0)
		y1 = y0 * 10;
	*fr = (struct plot_frame){ .W = 900,
				   .H = 560,
				   .L = 80,
				   .R = 220,
				   .T = 60,
				   .B = 60,
				   .x0 = x0,
				   .x1 = x1,
				   .y0 = y0,
				   .y1 = y1,
				   .xs = xs };
}

/* The title, the grid with its labels, and the axes' names. */
static void plot_axes(FILE *f, const struct plot *pl,
		      const struct plot_frame *fr)
{
	const double W = fr->W, H = fr->H, L = fr->L, R = fr->R, T = fr->T,
		     B = fr->B;
	char buf[32];
	double v;

	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"#fff\"/>\n",
		W, H);
	fprintf(f, "<text x=\"%.0f\" y=\"26\" font-size=\"15\">%s</text>\n", L,
		pl->title);
	fprintf(f, "<text x=\"%.0f\" y=\"44\">%s</text>\n", L, pl->subtitle);
	for (v = fr->x0; v <= fr->x1 * 1.0001; v *= fr->xs) {
		if (pl->xlabel)
			snprintf(buf, sizeof(buf), "%g", v);
		else
			plot_size_label(v, buf, sizeof(buf));
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n",
			plot_px(fr, v), T, plot_px(fr, v), H - B,
			plot_px(fr, v), H - B + 18, buf);
	}
	for (v = fr->y0; v <= fr->y1 * 1.0001; v *= 10)
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%g</text>\n",
			L, plot_py(fr, v), W - R, plot_py(fr, v), L - 6,
			plot_py(fr, v) + 4, v);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n"
		"<text x=\"18\" y=\"%.1f\" transform=\"rotate(-90 18 %.1f)\" "
		"text-anchor=\"middle\">%s</text>\n",
		(L + W - R) / 2, H - 16,
		pl->xlabel ? pl->xlabel : "bytes per rank (log)",
		(T + H - B) / 2, (T + H - B) / 2,
		pl->ylabel ? pl->ylabel : "median time per call, us (log)");
}

/* Series i: its line (a scatter draws only its dashed series' lines), its
 * points, and its entry in the legend. */
static void plot_series(FILE *f, const struct plot *pl,
			const struct plot_frame *fr, int i)
{
	const struct series *s = &pl->s[i];
	const double W = fr->W, R = fr->R, T = fr->T;
	int k;

	if (!s->n)
		return;
	if (!pl->xlabel || s->dashed)
		fprintf(f,
			"<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\"%s points=\"",
			s->colour,
			s->dashed ? " stroke-dasharray=\"6 4\"" : "");
	for (k = 0; (!pl->xlabel || s->dashed) && k < s->n; k++)
		fprintf(f, "%s%.1f,%.1f", k ? " " : "", plot_px(fr, s->x[k]),
			plot_py(fr, s->y[k]));
	if (!pl->xlabel || s->dashed)
		fprintf(f, "\"/>\n");
	for (k = 0; k < s->n; k++)
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"%s\"/>\n",
			plot_px(fr, s->x[k]), plot_py(fr, s->y[k]), s->colour);
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"2\"%s/><text x=\"%.1f\" "
		"y=\"%.1f\">%s</text>\n",
		W - R + 16, T + 10 + 20.0 * i, W - R + 46, T + 10 + 20.0 * i,
		s->colour, s->dashed ? " stroke-dasharray=\"6 4\"" : "",
		W - R + 52, T + 14 + 20.0 * i, s->name);
}

int plot_write(const struct plot *pl, const char *path)
{
	struct plot_frame fr;
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		return -1;
	plot_bounds(pl, &fr);
	plot_axes(f, pl, &fr);
	for (i = 0; i < pl->n; i++)
		plot_series(f, pl, &fr, i);
	fprintf(f, "</svg>\n");
	return fclose(f);
}
