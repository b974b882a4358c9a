/*
 * bcast_greedy.c - the optimal broadcast tree of the LogP model: every
 * rank that has the message keeps sending it to ranks that have not, as
 * soon as its gap allows, from the moment it has it.
 *
 * Source: Karp, Sahay, Santos and Schauser 1993, "Optimal broadcast and
 *         summation in the LogP model"; Culler et al. 1993, Fig. 3 (P = 8,
 *         L = 6, o = 2, g = 4: done at 24).
 * Cost:   the schedule's last delivery. With lat = L + 2o + (m-1)G (one
 *         message, start of its send to its receiver done) and gap =
 *         max(g, o + (m-1)G) between two sends of one rank (LogP: G = 0):
 *         the ranks informed by time t follow N(t) = N(t - gap) +
 *         N(t - lat), N(t) = 1 for t < lat. Exact in the model clock. In
 *         alpha-beta lat = gap = ts + tw*m and the tree is the binomial
 *         one: ceil(log2 p)(ts + tw*m).
 * Steps:  every rank computes the same schedule: repeatedly the informed
 *         rank free first (the lower rank on a tie) sends to the next
 *         uninformed one. A rank receives from its parent, then sends to
 *         its children in schedule order. Scratch: O(p) while planning.
 * Needs:  any p; not under bsp (its rounds chain).
 * Differs from the book: nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "coll.h"

struct slot {
	double t; /* when this rank can next send */
	int rank; /* relative to the root */
};

static int earlier(const struct slot *a, const struct slot *b)
{
	return a->t < b->t || (a->t == b->t && a->rank < b->rank);
}

static void push(struct slot *h, int *n, struct slot s)
{
	int i = (*n)++;

	while (i > 0 && earlier(&s, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = s;
}

static struct slot pop(struct slot *h, int *n)
{
	struct slot top = h[0], last = h[--*n];
	int i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && earlier(&h[c + 1], &h[c]))
			c++;
		if (!earlier(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
	return top;
}

/*
 * The schedule for p ranks: returns the last delivery time, or -1 without
 * memory. With me >= 0, sets *parent (-1 for the root) and me's children
 * in order (kids holds p - 1, *nkids their number).
 */
static double schedule(int p, double lat, double gap, int me, int *parent,
		       int *kids, int *nkids)
{
	struct slot *h = malloc((size_t)p * sizeof(*h)), s;
	double last = 0;
	int n = 0, j;

	if (!h)
		return -1;
	if (nkids)
		*nkids = 0;
	if (parent)
		*parent = -1;
	push(h, &n, (struct slot){ 0, 0 });
	for (j = 1; j < p; j++) {
		s = pop(h, &n);
		if (s.rank == me)
			kids[(*nkids)++] = j;
		if (j == me)
			*parent = s.rank;
		if (s.t + lat > last)
			last = s.t + lat;
		push(h, &n, (struct slot){ s.t + lat, j });
		push(h, &n, (struct slot){ s.t + gap, s.rank });
	}
	free(h);
	return last;
}

/* One message of n bytes in c's model: start of its send to its receiver
 * done (lat), and between two sends of one rank (gap). */
static void per_message(vp_comm *c, size_t n, double *lat, double *gap)
{
	vp_model m;
	double tail;

	vp_model_of(c, &m);
	if (m.kind == VP_MODEL_LOGP || m.kind == VP_MODEL_LOGGP) {
		tail = m.kind == VP_MODEL_LOGGP && n > 1 ? (double)(n - 1) * m.G
							 : 0;
		*lat = m.L + 2 * m.o + tail;
		*gap = m.g > m.o + tail ? m.g : m.o + tail;
	} else {
		*lat = *gap = m.ts + m.tw * (double)n;
	}
}

static int run(const struct coll *a)
{
	int p = a->p, me = (a->r - a->root + p) % p, parent, nk, i, rc;
	int *kids = malloc((size_t)p * sizeof(*kids));
	double lat, gap;

	if (!kids)
		return vp_abort(a->c, VP_ENOMEM, "bcast",
				"no memory for the schedule of %d ranks", p);
	per_message(a->c, a->bytes, &lat, &gap);
	if (schedule(p, lat, gap, me, &parent, kids, &nk) < 0) {
		free(kids);
		return vp_abort(a->c, VP_ENOMEM, "bcast",
				"no memory for the schedule of %d ranks", p);
	}
	rc = parent < 0 ? VP_OK
			: vp_recv(a->c, (parent + a->root) % p, a->rbuf,
				  a->bytes);
	for (i = 0; i < nk && !rc; i++) /* to each child as the gap allows */
		rc = vp_send(a->c, (kids[i] + a->root) % p, a->rbuf, a->bytes);
	free(kids);
	return rc;
}

static double cost(const struct coll_cost *k, int *exact)
{
	*exact = 1;
	return schedule(k->p, k->u, k->u, -1, NULL, NULL, NULL);
}

static double logp_cost(const struct coll_cost *k, int *exact)
{
	double tail = k->m > 1 ? (k->m - 1) * k->G : 0;
	double gap = k->gap > k->o + tail ? k->gap : k->o + tail;

	*exact = 1;
	return schedule(k->p, k->Lat + 2 * k->o + tail, gap, -1, NULL, NULL,
			NULL);
}

const struct coll_algorithm vp__alg_bcast_greedy = {
	.op = VP_COLL_BCAST,
	.alg = VP_ALG_GREEDY,
	.run = run,
	.needs = NEED_ANY,
	.cost = cost,
	.logp_cost = logp_cost,
};
