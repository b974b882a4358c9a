/*
 * trace_json.c - the run as a Chrome/Perfetto trace (Trace Event Format,
 * JSON object form), which opens in ui.perfetto.dev and chrome://tracing.
 *
 *   - one process ("vp <topology>"), one thread track per rank ("rank r");
 *   - one complete slice ("ph":"X") per call: "send to d", "recv from s",
 *     "sendrecv to d from s", from the rank's time at entry to its time at
 *     return, with the bytes, the step and what sent it as arguments;
 *   - one flow arrow per delivered message: "ph":"s" inside the sender's
 *     slice where the transfer starts, "ph":"f" bound to the enclosing
 *     ("bp":"e") receiving slice where the message arrives;
 *   - a one-sided operation: a slice "put to t" (or get, accumulate) on
 *     the origin, an instant slice "put by o" on the target's track at the
 *     operation's arrival, and the arrow between them.
 * Times are in the trace's microseconds: one model time unit is shown as one
 * microsecond (vp_opts.trace_wall = 1: wall microseconds since the run
 * began). Event count: 1 + p metadata, one slice per call, two per message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "../runtime.h"
#include "trace.h"

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static double clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

static void op_times(const struct vp__trace_op *op, int wall, double *b,
		     double *e)
{
	*b = wall ? op->wbegin : op->begin;
	*e = wall ? op->wend : op->end;
	if (*e < *b)
		*e = *b;
}

static void write_slice(FILE *f, int rank, const struct vp__trace_op *op,
			int wall)
{
	double b, e;
	char name[96];

	op_times(op, wall, &b, &e);
	if (op->rma)
		snprintf(name, sizeof(name), "%s %s %d", op->rma,
			 op->rma[0] == 'g' ? "from" : "to", op->dst);
	else if (op->kind == VP__EV_SEND)
		snprintf(name, sizeof(name), "send to %d", op->dst);
	else if (op->kind == VP__EV_RECV)
		snprintf(name, sizeof(name), "recv from %d", op->src);
	else
		snprintf(name, sizeof(name), "sendrecv to %d from %d", op->dst,
			 op->src);
	fprintf(f,
		",\n{\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,"
		"\"dur\":%.3f,\"name\":\"%s\",\"cat\":",
		rank, b, e - b, name);
	put_string(f, op->label ? op->label : "p2p");
	fprintf(f, ",\"args\":{\"what\":");
	put_string(f, op->alg ? op->alg : "");
	if (op->kind != VP__EV_RECV)
		fprintf(f, ",\"step\":%u,\"bytes_sent\":%zu,\"hops\":%u",
			op->step, op->sbytes, op->hops);
	if (op->kind != VP__EV_SEND)
		fprintf(f, ",\"bytes_received\":%zu", op->rbytes);
	fprintf(f, "}}");
}

static void write_flow(FILE *f, size_t id, const struct vp__trace_msg *m,
		       int wall)
{
	double sb, se, rb, re, from, to;

	op_times(m->send, wall, &sb, &se);
	from = clamp(wall ? m->send->wsend : m->send->send_start, sb, se);
	if (m->recv) {
		op_times(m->recv, wall, &rb, &re);
		to = clamp(wall ? m->send->wsend : m->send->arrival, rb, re);
	} else {
		/* one-sided: the target is passive; an instant slice on its
		 * track holds the arrow's head */
		to = wall ? m->send->wsend : m->send->arrival;
		fprintf(f,
			",\n{\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,"
			"\"dur\":0,\"name\":\"%s by %d\",\"cat\":\"one-sided\","
			"\"args\":{\"bytes\":%zu}}",
			m->dst, to, m->send->rma, m->src, m->send->sbytes);
	}
	fprintf(f,
		",\n{\"ph\":\"s\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,"
		"\"id\":%zu,\"name\":\"message\",\"cat\":\"message\"}",
		m->src, from, id);
	fprintf(f,
		",\n{\"ph\":\"f\",\"bp\":\"e\",\"pid\":0,\"tid\":%d,"
		"\"ts\":%.3f,\"id\":%zu,\"name\":\"message\","
		"\"cat\":\"message\"}",
		m->dst, to, id);
}

void vp__trace_write_json(const struct vp__trace *t, FILE *f)
{
	const struct vp__world *w = t->w;
	int wall = w->opts.trace_wall, r;
	size_t k;

	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"topology\":");
	put_string(f, w->topo.spec);
	fprintf(f,
		",\"clock\":\"%s\",\"ts\":%g,\"tw\":%g,\"th\":%g,"
		"\"messages\":%zu,\"max_link_load\":%llu},\n"
		"\"traceEvents\":[\n",
		wall ? "wall us" : "model (1 unit = 1 us)", w->opts.ts,
		w->opts.tw, w->opts.th, t->nmsgs,
		(unsigned long long)t->st->max_link_load);
	fprintf(f, "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\","
		   "\"args\":{\"name\":");
	put_string(f, w->topo.spec);
	fprintf(f, "}}");
	for (r = 0; r < w->p; r++)
		fprintf(f,
			",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
			"\"name\":\"thread_name\",\"args\":{\"name\":"
			"\"rank %d\"}}",
			r, r);
	for (r = 0; r < w->p; r++) {
		const struct vp__vec *ops = &w->ranks[r].trace.ops;

		for (k = 0; k < w->ranks[r].trace.ops.len; k++) {
			const struct vp__trace_op *op = vp__vec_at(ops, k);

			write_slice(f, r, op, wall);
		}
	}
	for (k = 0; k < t->nmsgs; k++)
		write_flow(f, k, &t->msgs[k], wall);
	fprintf(f, "\n]}\n");
}
