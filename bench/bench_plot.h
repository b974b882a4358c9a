/*
 * bench_plot.h - a log-log line chart as SVG, drawn by the tool itself (no
 * gnuplot needed): median latency against message size, one line per
 * series, solid for vp and dashed for Open MPI, a colour per p.
 */
#ifndef VP_BENCH_PLOT_H
#define VP_BENCH_PLOT_H

#include <math.h>
#include <stdio.h>

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
static void plot_add(struct plot *pl, const char *name, const char *colour,
		     int dashed, double x, double y)
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

static int plot_write(const struct plot *pl, const char *path)
{
	const double W = 900, H = 560, L = 80, R = 220, T = 60, B = 60;
	double x0 = INFINITY, x1 = 0, y0 = INFINITY, y1 = 0, v, xs;
	FILE *f = fopen(path, "w");
	char buf[32];
	int i, k;

	if (!f)
		return -1;
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
#define PX(x) (L + (W - L - R) * log10((x) / x0) / log10(x1 / x0))
#define PY(y) (H - B - (H - T - B) * log10((y) / y0) / log10(y1 / y0))
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
	for (v = x0; v <= x1 * 1.0001; v *= xs) {
		if (pl->xlabel)
			snprintf(buf, sizeof(buf), "%g", v);
		else
			plot_size_label(v, buf, sizeof(buf));
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n",
			PX(v), T, PX(v), H - B, PX(v), H - B + 18, buf);
	}
	for (v = y0; v <= y1 * 1.0001; v *= 10)
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%g</text>\n",
			L, PY(v), W - R, PY(v), L - 6, PY(v) + 4, v);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n"
		"<text x=\"18\" y=\"%.1f\" transform=\"rotate(-90 18 %.1f)\" "
		"text-anchor=\"middle\">%s</text>\n",
		(L + W - R) / 2, H - 16,
		pl->xlabel ? pl->xlabel : "bytes per rank (log)",
		(T + H - B) / 2, (T + H - B) / 2,
		pl->ylabel ? pl->ylabel : "median time per call, us (log)");
	for (i = 0; i < pl->n; i++) {
		const struct series *s = &pl->s[i];

		if (!s->n)
			continue;
		if (!pl->xlabel || s->dashed)
			fprintf(f,
				"<polyline fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"2\"%s points=\"",
				s->colour,
				s->dashed ? " stroke-dasharray=\"6 4\"" : "");
		for (k = 0; (!pl->xlabel || s->dashed) && k < s->n; k++)
			fprintf(f, "%s%.1f,%.1f", k ? " " : "", PX(s->x[k]),
				PY(s->y[k]));
		if (!pl->xlabel || s->dashed)
			fprintf(f, "\"/>\n");
		for (k = 0; k < s->n; k++)
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				"fill=\"%s\"/>\n",
				PX(s->x[k]), PY(s->y[k]), s->colour);
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"2\"%s/><text x=\"%.1f\" "
			"y=\"%.1f\">%s</text>\n",
			W - R + 16, T + 10 + 20.0 * i, W - R + 46,
			T + 10 + 20.0 * i, s->colour,
			s->dashed ? " stroke-dasharray=\"6 4\"" : "",
			W - R + 52, T + 14 + 20.0 * i, s->name);
	}
#undef PX
#undef PY
	fprintf(f, "</svg>\n");
	return fclose(f);
}

#endif
