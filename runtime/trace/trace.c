/*
 * trace.c - recording a run's messages for the Perfetto trace and the SVG.
 *
 * Recording costs nothing unless a path is set: each rank appends to its own
 * log, without synchronization. After the join, sends and receives are
 * matched by (sender, sequence number): the sender numbers its modelled
 * sends, and each receive knows the number of the message it took.
 *
 * Link load of one message: the most transfers that hold one of its links at
 * the same moment (itself included). Per directed link, the transfers are
 * sorted by start and swept with the set of those still active; the most
 * overlapping intervals always include some interval's start, so giving the
 * count at each start to every active interval is exact. Cost: sorting the
 * route links of all messages plus the sum of the active sets.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../runtime.h"
#include "trace.h"

double vp__trace_wall_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int space_of(const vp_comm *c)
{
	return c->space == VP__SPACE_COLL;
}

void vp__trace_begin(const vp_comm *c, struct vp__trace_op *op, int kind)
{
	struct vp__rank *me = c->me;

	if (!me->world->trace.on)
		return;
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	op->dst = op->src = -1;
	op->begin = me->clock.t;
	op->wbegin = vp__trace_wall_us() - me->world->trace.wall0_us;
	op->label = me->trace.label[space_of(c)];
	op->alg = me->trace.alg[space_of(c)];
}

void vp__trace_sent(const vp_comm *c, struct vp__trace_op *op, int dst,
		    size_t n, int hops, const struct vp__envelope *env)
{
	struct vp__rank *me = c->me;

	if (!me->world->trace.on)
		return;
	op->dst = dst;
	op->sbytes = n;
	op->hops = (uint32_t)hops;
	op->send_seq = env->seq;
	op->step = env->step;
	op->send_start = me->clock.last_start;
	op->arrival = env->arrival;
	op->wsend = vp__trace_wall_us() - me->world->trace.wall0_us;
}

void vp__trace_received(const vp_comm *c, struct vp__trace_op *op, int src,
			uint32_t seq, size_t n)
{
	if (!c->me->world->trace.on)
		return;
	op->src = src;
	op->recv_seq = seq;
	op->rbytes = n;
}

void vp__trace_end(const vp_comm *c, struct vp__trace_op *op)
{
	struct vp__rank *me = c->me;

	if (!me->world->trace.on)
		return;
	op->end = me->clock.t;
	op->wend = vp__trace_wall_us() - me->world->trace.wall0_us;
	vp__vec_push(&me->trace.ops, op);
}

void vp_trace_label(vp_comm *c, const char *label)
{
	if (!c)
		return;
	c->me->trace.label[space_of(c)] = label;
	c->me->trace.alg[space_of(c)] = NULL;
	c->me->trace.step = 0;
}

/* Called by vp_coll_note: the collective names its own messages. */
void vp__trace_coll(vp_comm *c, const char *op, const char *alg)
{
	c->me->trace.label[1] = op;
	c->me->trace.alg[1] = alg;
	c->me->trace.step = 0;
}

static FILE *open_for(const char *path, const char *what, char *err,
		      size_t errlen)
{
	FILE *f = fopen(path, "w");

	if (!f)
		snprintf(err, errlen,
			 "vp_run: cannot write the %s file '%s': %s", what,
			 path, strerror(errno));
	return f;
}

int vp__trace_open(struct vp__world *w, char *err, size_t errlen)
{
	/* Across processes, the one running rank 0 writes the files from
	 * every rank's records; the others only record. */
	if (!vp__is_local(w, 0)) {
		w->trace.on = w->opts.trace || w->opts.svg;
		w->trace.wall0_us = vp__trace_wall_us();
		return 0;
	}
	if (w->opts.trace && !(w->trace.json_file = open_for(
				   w->opts.trace, "trace", err, errlen)))
		return VP_EINVAL;
	if (w->opts.svg &&
	    !(w->trace.svg_file = open_for(w->opts.svg, "svg", err, errlen))) {
		vp__trace_close(w);
		return VP_EINVAL;
	}
	w->trace.on = w->trace.json_file || w->trace.svg_file;
	w->trace.wall0_us = vp__trace_wall_us();
	return 0;
}

void vp__trace_close(struct vp__world *w)
{
	if (w->trace.json_file)
		fclose(w->trace.json_file);
	if (w->trace.svg_file)
		fclose(w->trace.svg_file);
	w->trace.json_file = w->trace.svg_file = NULL;
}

/* ---- matching ---- */

static int match(struct vp__trace *t)
{
	struct vp__world *w = t->w;
	const struct vp__trace_op ***recv_of;
	size_t k, n = 0;
	int r, rc = VP_ENOMEM;

	recv_of = calloc((size_t)w->p, sizeof(*recv_of));
	if (!recv_of)
		return rc;
	for (r = 0; r < w->p; r++) {
		recv_of[r] = calloc((size_t)w->ranks[r].clock.send_seq + 1,
				    sizeof(**recv_of));
		if (!recv_of[r])
			goto out;
	}
	for (r = 0; r < w->p; r++) {
		const struct vp__vec *ops = &w->ranks[r].trace.ops;

		t->nops += w->ranks[r].trace.ops.len;
		for (k = 0; k < w->ranks[r].trace.ops.len; k++) {
			const struct vp__trace_op *op = vp__vec_at(ops, k);

			if (op->kind != VP__EV_SEND &&
			    op->recv_seq < w->ranks[op->src].clock.send_seq)
				recv_of[op->src][op->recv_seq] = op;
		}
	}
	for (r = 0; r < w->p; r++)
		n += w->ranks[r].trace.ops.len;
	t->msgs = calloc(n + 1, sizeof(*t->msgs));
	if (!t->msgs)
		goto out;
	for (r = 0; r < w->p; r++) {
		const struct vp__vec *ops = &w->ranks[r].trace.ops;

		for (k = 0; k < w->ranks[r].trace.ops.len; k++) {
			const struct vp__trace_op *op = vp__vec_at(ops, k);
			const struct vp__trace_op *rcv;

			if (op->kind == VP__EV_RECV)
				continue;
			if (op->rma) { /* no receive: into the target */
				t->msgs[t->nmsgs++] = (struct vp__trace_msg){
				    r, op->dst, op, NULL, 0 };
				continue;
			}
			rcv = recv_of[r][op->send_seq];
			if (!rcv) {
				t->unmatched++;
				continue;
			}
			t->msgs[t->nmsgs++] =
			    (struct vp__trace_msg){ r, op->dst, op, rcv, 0 };
		}
	}
	rc = 0;
out:
	for (r = 0; r < w->p; r++)
		free(recv_of[r]);
	free(recv_of);
	return rc;
}

/* ---- link loads ---- */

struct hold {
	uint64_t link;
	double start, end;
	size_t msg;
};

static int cmp_hold(const void *a, const void *b)
{
	const struct hold *x = a, *y = b;

	if (x->link != y->link)
		return x->link < y->link ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->msg > y->msg) - (x->msg < y->msg);
}

static void raise_load(struct vp__trace *t, size_t m, uint32_t load)
{
	if (t->msgs[m].load < load)
		t->msgs[m].load = load;
}

/* Sweeps the holds of one link, h[0..n). active has room for n. */
static void sweep_link(struct vp__trace *t, const struct hold *h, size_t n,
		       const struct hold **active)
{
	size_t i, j, na = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < na;) /* drop those that ended */
			if (active[j]->end <= h[i].start)
				active[j] = active[--na];
			else
				j++;
		active[na++] = &h[i];
		for (j = 0; j < na; j++)
			raise_load(t, active[j]->msg, (uint32_t)na);
	}
}

static int weigh(struct vp__trace *t)
{
	struct vp__world *w = t->w;
	int max_hops = vp__topo_max_hops(&w->topo), h, k;
	uint64_t *route = malloc(((size_t)max_hops + 1) * sizeof(*route));
	struct hold *holds = NULL;
	const struct hold **active = NULL;
	size_t n = 0, cap = 0, i, j;

	if (!route)
		return VP_ENOMEM;
	for (i = 0; i < t->nmsgs; i++) {
		const struct vp__trace_op *s = t->msgs[i].send;
		double hold = t->ts + t->tw * (double)s->sbytes;

		h = vp__topo_route(&w->topo, t->msgs[i].src, t->msgs[i].dst,
				   route, max_hops);
		if (h > 0)
			t->msgs[i].load = 1;
		if (!(hold > 0))
			continue; /* takes no time: shares nothing */
		for (k = 0; k < h; k++) {
			if (n == cap) {
				struct hold *g;

				cap = cap ? 2 * cap : 256;
				g = realloc(holds, cap * sizeof(*holds));
				if (!g)
					goto fail;
				holds = g;
			}
			holds[n++] = (struct hold){ route[k], s->send_start,
						    s->send_start + hold, i };
		}
	}
	active = malloc((n + 1) * sizeof(*active));
	if (!active)
		goto fail;
	if (n)
		qsort(holds, n, sizeof(*holds), cmp_hold);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && holds[j].link == holds[i].link; j++)
			;
		sweep_link(t, &holds[i], j - i, active);
	}
	free(active);
	free(holds);
	free(route);
	return 0;
fail:
	free(holds);
	free(route);
	return VP_ENOMEM;
}

void vp__trace_finish(struct vp__world *w, const vp_stats *st)
{
	struct vp__trace t = {
		.w = w, .ts = w->opts.ts, .tw = w->opts.tw, .st = st
	};

	if (w->trace.on && !match(&t) && !weigh(&t)) {
		if (w->trace.json_file)
			vp__trace_write_json(&t, w->trace.json_file);
		if (w->trace.svg_file)
			vp__trace_write_svg(&t, w->trace.svg_file);
	}
	free(t.msgs);
	vp__trace_close(w);
}
