/*
 * load.c - link load: how many modelled transfers overlap on the busiest
 * directed link (1 means the run was congestion-free).
 *
 * A transfer holds each link of its route during [start, end). Sweeping the
 * start and end points in time order (ends first at equal times: the
 * intervals are half-open) while counting per link gives the most transfers
 * that overlap on one link. Store-and-forward moves a message one link at a
 * time: link j of its route is busy during [start + ts + j*step,
 * end + j*step) for j > 0, step = tw*m + th. Work is the total route length; memory is one
 * record per message plus one counter per link. A fully connected topology
 * has p(p-1) links but one link per route, so there the points are sorted by
 * (link, time) instead and counted link by link.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "model.h"

struct endpoint {
	uint64_t link; /* fully connected only */
	double t;
	int delta; /* -1 end, +1 start */
	int hop;   /* store-and-forward: the one link of the route it is
		    * for (its times shifted); -1: every link */
	const struct vp__transfer *tr;
};

static int cmp_time(const void *a, const void *b)
{
	const struct endpoint *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;
}

static int cmp_link_time(const void *a, const void *b)
{
	const struct endpoint *x = a, *y = b;

	if (x->link != y->link)
		return x->link < y->link ? -1 : 1;
	return cmp_time(a, b);
}

static uint64_t sweep_full(struct endpoint *ep, size_t n)
{
	uint64_t best = 0;
	int64_t cur = 0;
	size_t i;

	qsort(ep, n, sizeof(*ep), cmp_link_time);
	for (i = 0; i < n; i++) {
		if (i == 0 || ep[i].link != ep[i - 1].link)
			cur = 0;
		cur += ep[i].delta;
		if (cur > (int64_t)best)
			best = (uint64_t)cur;
	}
	return best;
}

static uint64_t sweep_routed(const struct vp__topo *t, struct endpoint *ep,
			     size_t n, int *failed)
{
	size_t slots = vp__topo_link_slots(t), i;
	int max_hops = vp__topo_max_hops(t);
	int32_t *count = calloc(slots, sizeof(*count));
	uint64_t *route = malloc(((size_t)max_hops + 1) * sizeof(*route));
	uint64_t best = 0;
	int h, k;

	if (!count || !route) {
		free(count);
		free(route);
		*failed = 1;
		return 0;
	}
	qsort(ep, n, sizeof(*ep), cmp_time);
	for (i = 0; i < n; i++) {
		h = vp__topo_route(t, ep[i].tr->src, ep[i].tr->dst, route,
				   max_hops);
		for (k = 0; k < h; k++) {
			int32_t *c = &count[vp__topo_link_index(t, route[k])];

			if (ep[i].hop >= 0 && ep[i].hop != k)
				continue;
			*c += ep[i].delta;
			if (*c > (int64_t)best)
				best = (uint64_t)*c;
		}
	}
	free(count);
	free(route);
	return best;
}

/* How many endpoint pairs tr needs: one, or one per hop when it moves
 * store-and-forward over a routed topology. */
static int pieces(const struct vp__topo *t, const struct vp__transfer *tr)
{
	if (!(tr->step > 0) || t->kind == VP__TOPO_FULL)
		return 1;
	return vp__topo_distance(t, tr->src, tr->dst);
}

uint64_t vp__model_link_load(const struct vp__topo *t,
			     const struct vp__clock *const *clocks, int p,
			     int *failed)
{
	size_t total = 0, n = 0, k;
	struct endpoint *ep;
	uint64_t best;
	int r, j;

	*failed = 0;
	for (r = 0; r < p; r++)
		for (k = 0; k < clocks[r]->transfers.len; k++)
			total += (size_t)pieces(
			    t, vp__vec_at(&clocks[r]->transfers, k));
	if (!total)
		return 0;
	ep = malloc(2 * total * sizeof(*ep));
	if (!ep) {
		*failed = 1;
		return 0;
	}
	for (r = 0; r < p; r++) {
		for (k = 0; k < clocks[r]->transfers.len; k++) {
			const struct vp__transfer *tr =
			    vp__vec_at(&clocks[r]->transfers, k);
			uint64_t l = vp__link(tr->src, tr->dst);
			int np = pieces(t, tr);

			/* A zero-length transfer (ts = tw = 0) occupies no
			 * time; it still makes the link used (load >= 1). */
			if (!(tr->end > tr->start))
				continue;
			for (j = 0; j < np; j++) {
				/* link j > 0 starts ts (lead) after the
				 * message is whole at its start node */
				double d = np > 1 ? j * tr->step : 0;
				double lead = j ? tr->lead : 0;
				int hop = np > 1 ? j : -1;

				ep[n++] = (struct endpoint){
					l, tr->start + d + lead, 1, hop, tr
				};
				ep[n++] = (struct endpoint){
					l, tr->end + d, -1, hop, tr
				};
			}
		}
	}
	best = t->kind == VP__TOPO_FULL ? sweep_full(ep, n)
					: sweep_routed(t, ep, n, failed);
	free(ep);
	return *failed ? 0 : best ? best : 1;
}
