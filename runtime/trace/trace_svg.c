/*
 * trace_svg.c - the run as a space-time diagram, drawn as the book draws its
 * communication figures: ranks are horizontal lines (rank 0 on top), model
 * time runs left to right, and each message is one arrow from its sender at
 * the start of its transfer to its receiver at its arrival, labelled with
 * its step in a circle. A message that shared a link with another transfer
 * (load > 1, the book's congestion) is drawn in red and says its load.
 *
 * When the model takes no time (ts = tw = th = 0) the x axis counts steps
 * instead: a message of step s runs from s - 1 to s.
 *
 * Every arrow is a <line> (or, for a send to self, a <path>) with class
 * "msg" and data-src, data-dst, data-step, data-bytes and data-load
 * attributes, so tests and scripts can read the picture back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../runtime.h"
#include "trace.h"

#define WIDTH 1000.0
#define LEFT 80.0
#define RIGHT 40.0
#define TOP 76.0
#define BOTTOM 56.0

struct frame {
	double tmax, row, height;
	int steps; /* 1: x is the step, not the model time */
};

static void put_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static double x_of(const struct frame *fr, double t)
{
	return LEFT +
	       (WIDTH - LEFT - RIGHT) * (fr->tmax > 0 ? t / fr->tmax : 0);
}

static double y_of(const struct frame *fr, int rank)
{
	return TOP + fr->row * (rank + 0.5);
}

static void message_span(const struct frame *fr, const struct vp__trace_msg *m,
			 double *t0, double *t1)
{
	if (fr->steps) {
		*t0 = (double)m->send->step - 1;
		*t1 = (double)m->send->step;
	} else {
		*t0 = m->send->send_start;
		*t1 = m->send->arrival;
	}
}

static struct frame make_frame(const struct vp__trace *t)
{
	struct frame fr = { 0 };
	int p = t->w->p, r;
	size_t k;

	fr.row = p <= 16 ? 40 : p <= 64 ? 20 : 8;
	fr.height = TOP + fr.row * p + BOTTOM;
	for (r = 0; r < p; r++) {
		const struct vp__vec *ops = &t->w->ranks[r].trace.ops;

		for (k = 0; k < t->w->ranks[r].trace.ops.len; k++) {
			const struct vp__trace_op *op = vp__vec_at(ops, k);

			if (op->end > fr.tmax)
				fr.tmax = op->end;
		}
	}
	if (!(fr.tmax > 0)) {
		fr.steps = 1;
		for (k = 0; k < t->nmsgs; k++)
			if (t->msgs[k].send->step > fr.tmax)
				fr.tmax = t->msgs[k].send->step;
	}
	return fr;
}

/* "bcast hypercube, then barrier" from the labels of the messages. */
static void write_title(FILE *f, const struct vp__trace *t)
{
	const char *seen[4][2];
	int n = 0, i, more = 0;
	size_t k;

	for (k = 0; k < t->nmsgs; k++) {
		const char *l = t->msgs[k].send->label;
		const char *a = t->msgs[k].send->alg;

		l = l ? l : "point-to-point";
		for (i = 0; i < n; i++)
			if (!strcmp(seen[i][0], l) &&
			    !strcmp(seen[i][1], a ? a : ""))
				break;
		if (i < n)
			continue;
		if (n == 4) {
			more = 1;
			break;
		}
		seen[n][0] = l;
		seen[n][1] = a ? a : "";
		n++;
	}
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		put_text(f, seen[i][0]);
		fputs(*seen[i][1] ? " (" : "", f);
		put_text(f, seen[i][1]);
		fputs(*seen[i][1] ? ")" : "", f);
	}
	if (more)
		fputs(", ...", f);
	if (!n)
		fputs("no messages", f);
	fputs(" on ", f);
	put_text(f, t->w->topo.spec);
}

/* A tick spacing of 1, 2 or 5 times a power of ten: 4 to 10 ticks. */
static double nice_step(double span)
{
	double unit, k[] = { 1, 2, 5, 10 };
	int i;

	if (!(span > 0))
		return 0;
	unit = pow(10, floor(log10(span / 10)));
	for (i = 0; i < 4; i++)
		if (span / (k[i] * unit) <= 10)
			return k[i] * unit;
	return 10 * unit;
}

static void write_axes(FILE *f, const struct vp__trace *t,
		       const struct frame *fr)
{
	double y0 = TOP, y1 = fr->height - BOTTOM, step;
	int r, i;

	for (r = 0; r < t->w->p; r++)
		fprintf(
		    f,
		    "<line class=\"rank\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/>\n"
		    "<text class=\"rank\" x=\"%.1f\" y=\"%.1f\">%d</text>\n",
		    LEFT, y_of(fr, r), WIDTH - RIGHT, y_of(fr, r), LEFT - 10,
		    y_of(fr, r) + 4, r);
	fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\">rank</text>\n",
		LEFT - 10, y0 - 8);
	step = nice_step(fr->tmax);
	if (fr->steps && step < 1)
		step = 1; /* whole steps */
	for (i = 0; step > 0 && i * step <= fr->tmax * (1 + 1e-9); i++) {
		double tv = i * step, x = x_of(fr, tv);

		fprintf(
		    f,
		    "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/>\n"
		    "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\">%g</text>\n",
		    x, y0, x, y1, x, y1 + 16, tv);
	}
	fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
		(LEFT + WIDTH - RIGHT) / 2, y1 + 36,
		fr->steps ? "step (the model takes no time: ts = tw = th = 0)"
			  : "model time");
}

static void write_message(FILE *f, const struct frame *fr,
			  const struct vp__trace_msg *m)
{
	double t0, t1, x0, x1, y0, y1, lx, ly;
	int hot = m->load > 1;
	const char *cls = hot		   ? "msg congested"
			  : m->send->rma ? "msg onesided"
					 : "msg";

	message_span(fr, m, &t0, &t1);
	x0 = x_of(fr, t0);
	x1 = x_of(fr, t1);
	y0 = y_of(fr, m->src);
	y1 = y_of(fr, m->dst);
	if (m->src == m->dst)
		fprintf(f,
			"<path class=\"%s\" d=\"M%.1f %.1f C%.1f %.1f %.1f "
			"%.1f %.1f %.1f\"",
			cls, x0, y0, x0, y0 - fr->row * 0.6, x1,
			y1 - fr->row * 0.6, x1, y1);
	else
		fprintf(
		    f,
		    "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"",
		    cls, x0, y0, x1, y1);
	fprintf(f,
		" data-src=\"%d\" data-dst=\"%d\" data-step=\"%u\" "
		"data-bytes=\"%zu\" data-load=\"%u\" marker-end=\"url(#%s)\">"
		"<title>",
		m->src, m->dst, m->send->step, m->send->sbytes, m->load,
		hot ? "hot" : "head");
	if (m->send->rma)
		fprintf(f, "step %u: rank %d: %s %s rank %d's window, %zu bytes, "
			   "%g to %g",
			m->send->step, m->src, m->send->rma,
			m->send->rma[0] == 'g' ? "from" : "into", m->dst,
			m->send->sbytes, m->send->send_start,
			m->send->arrival);
	else
		fprintf(f, "step %u: rank %d to rank %d, %zu bytes, %g to %g",
			m->send->step, m->src, m->dst, m->send->sbytes,
			m->send->send_start, m->send->arrival);
	if (hot)
		fprintf(f, ", link load %u", m->load);
	fprintf(f, "</title></%s>\n", m->src == m->dst ? "path" : "line");
	/* the step label, 30% along the arrow: the two arrows of an
	 * exchange cross at the middle, their labels stay apart */
	lx = x0 + 0.3 * (x1 - x0);
	ly = (m->src == m->dst ? y0 - fr->row * 0.45 : y0 + 0.3 * (y1 - y0));
	fprintf(f,
		"<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\"/>"
		"<text class=\"step\" x=\"%.1f\" y=\"%.1f\">%u</text>\n",
		hot ? "step congested" : "step", lx, ly, lx, ly + 3.5,
		m->send->step);
}

void vp__trace_write_svg(const struct vp__trace *t, FILE *f)
{
	struct frame fr = make_frame(t);
	size_t k;

	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n",
		WIDTH, fr.height, WIDTH, fr.height);
	fputs("<style>\n"
	      "line.rank { stroke: #888; stroke-width: 1; }\n"
	      "line.tick { stroke: #ddd; stroke-width: 1; }\n"
	      "text.rank, text.axis { fill: #444; text-anchor: middle; }\n"
	      ".msg { stroke: #1f5fbf; stroke-width: 1.6; fill: none; }\n"
	      ".msg.congested { stroke: #d62728; stroke-width: 2.4; }\n"
	      ".msg.onesided { stroke-dasharray: 6 3; }\n"
	      "circle.step { fill: #fff; stroke: #1f5fbf; }\n"
	      "circle.step.congested { stroke: #d62728; }\n"
	      "text.step { font-size: 10px; text-anchor: middle; }\n"
	      "</style>\n"
	      "<defs>\n"
	      "<marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"10\" "
	      "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
	      "orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" "
	      "fill=\"#1f5fbf\"/></marker>\n"
	      "<marker id=\"hot\" viewBox=\"0 0 10 10\" refX=\"10\" "
	      "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
	      "orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" "
	      "fill=\"#d62728\"/></marker>\n"
	      "</defs>\n"
	      "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
	      f);
	fprintf(f, "<text x=\"%.1f\" y=\"24\" font-size=\"15\">", LEFT);
	write_title(f, t);
	fprintf(f, " (p = %d)</text>\n", t->w->p);
	fprintf(f,
		"<text x=\"%.1f\" y=\"44\">model time %g (ts = %g, tw = %g, "
		"th = %g); %zu messages; max link load %llu%s</text>\n",
		LEFT, t->st->model_time, t->w->opts.ts, t->w->opts.tw,
		t->w->opts.th, t->nmsgs,
		(unsigned long long)t->st->max_link_load,
		t->st->max_link_load > 1
		    ? " (red: a message sharing a link with another)"
		    : "");
	write_axes(f, t, &fr);
	for (k = 0; k < t->nmsgs; k++)
		write_message(f, &fr, &t->msgs[k]);
	fputs("</svg>\n", f);
}
