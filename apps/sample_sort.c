/*
 * sample_sort.c - sample sort of n keys on p ranks.
 *
 * Source: Grama et al., Introduction to Parallel Computing, 2nd ed.,
 *         sec. 9.5 (bucket and sample sort); Huang, Chow 1983; Shi,
 *         Schaeffer 1992 (regular sampling).
 * Cost:   comparisons times gamma, k = n/p keys a rank, m = 8 bytes:
 *         T ~ k log k gamma                       local sort
 *           + allgather(p, 8 (p-1))                the samples
 *           + p(p-1) log(p(p-1)) gamma             sorting them
 *           + (p-1) log k gamma                    cutting into buckets
 *           + alltoall(p, 8)                       bucket sizes
 *           + (p-1) ts + tw 8 k (p-1)/p            the buckets (one port)
 *           + k log p gamma                        merging p runs
 *           + scan(p, 8)                           each rank's place
 *         "~": bucket sizes depend on the keys; with regular sampling no
 *         bucket exceeds 2k, and for uniform keys they are close to k.
 * Steps:  1. each rank sorts its k keys and picks p-1 evenly spaced ones;
 *         2. vp_allgather gives every rank all p(p-1) samples; each sorts
 *            them and takes every (p-1)-th as the p-1 splitters;
 *         3. each rank cuts its sorted keys at the splitters: bucket j
 *            goes to rank j; vp_alltoall exchanges the bucket sizes;
 *         4. vp_isend / vp_irecv move the buckets, vp_waitall ends them;
 *         5. each rank merges what it received; vp_scan of the counts
 *            gives each rank its place in the sorted whole.
 * Needs:  p divides n; any topology.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void reference(const struct app_ctx *x, double *keys)
{
	for (long i = 0; i < x->prm.n; i++)
		keys[i] = app_key(i);
	qsort(keys, (size_t)x->prm.n, sizeof(double), by_value);
}

/* Keys of sorted[0 .. k) below v: the first bucket boundary at v. */
static long below(const double *sorted, long k, double v)
{
	long lo = 0, hi = k;

	while (lo < hi) {
		long mid = (lo + hi) / 2;

		if (sorted[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static double lg(double v)
{
	return v > 1 ? log2(v) : 0;
}

struct buffers {
	double *keys, *samples, *got;
	int64_t *sendn, *recvn;
	long *start;
	vp_request *reqs;
};

/* Step d sends to me + d and receives from me - d: each receive is posted
 * in the order its message leaves its sender, so the single receive port
 * takes them as they arrive, (p-1)(ts + tw m) in all. */
static int exchange(vp_comm *c, struct app_ctx *x, struct buffers *b,
		    long *total)
{
	int p = x->p, me = vp_rank(c), nr = 0, rc;
	long at = 0, *from = b->start + p + 1; /* where source j's keys go */

	for (int j = 0; j < p; j++) {
		from[j] = at;
		at += (long)b->recvn[j];
	}
	memcpy(b->got + from[me], b->keys + b->start[me],
	       (size_t)b->sendn[me] * sizeof(double));
	for (int d = 1; d < p; d++) {
		int j = (me - d + p) % p;

		if (b->recvn[j] &&
		    (rc = vp_irecv(c, j, 1, b->got + from[j],
				   (size_t)b->recvn[j] * sizeof(double),
				   &b->reqs[nr++])))
			return rc;
	}
	for (int d = 1; d < p; d++) {
		int j = (me + d) % p;

		if (b->sendn[j] &&
		    (rc = vp_isend(c, j, 1, b->keys + b->start[j],
				   (size_t)b->sendn[j] * sizeof(double),
				   &b->reqs[nr++])))
			return rc;
	}
	*total = at;
	return vp_waitall(nr, b->reqs, NULL);
}

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int p = x->p, me = vp_rank(c), rc;
	long k = x->prm.n / p, total = 0;
	int64_t mine, upto;
	struct buffers b = { 0 };
	double g = x->prm.gamma;

	b.keys = malloc(sizeof(double) * (size_t)(k + (long)p * p + 2 * k));
	b.sendn = malloc(sizeof(int64_t) * 2 * p);
	b.start = malloc(sizeof(long) * (2 * p + 1));
	b.reqs = malloc(sizeof(vp_request) * 2 * p);
	if (!b.keys || !b.sendn || !b.start || !b.reqs) {
		rc = app_fail(c, x, "no memory for %ld keys", k);
		goto out;
	}
	b.samples = b.keys + k;
	b.got = b.samples + (size_t)p * p;
	b.recvn = b.sendn + p;
	/* 1. my keys, sorted, and p-1 evenly spaced samples */
	for (long t = 0; t < k; t++)
		b.keys[t] = app_key(me * k + t);
	qsort(b.keys, (size_t)k, sizeof(double), by_value);
	for (int t = 0; t < p - 1; t++)
		b.samples[p * p - p + 1 + t] = b.keys[(t + 1) * k / p];
	if ((rc = vp_compute(c, k * lg(k) * g)))
		goto out;
	/* 2. all samples everywhere; the splitters */
	vp_trace_label(c, "allgather samples");
	if (p > 1 && (rc = vp_allgather(c, b.samples + p * p - p + 1, b.samples,
					p - 1, VP_DOUBLE, x->prm.alg)))
		goto out;
	app_note_alg(c, x, 0);
	qsort(b.samples, (size_t)p * (p - 1), sizeof(double), by_value);
	if ((rc = vp_compute(c, (double)p * (p - 1) * lg(p * (p - 1.0)) * g)))
		goto out;
	/* 3. buckets: splitter j is sample (j - 1) p + p/2 - 1, as regular
	 * sampling takes j p + p/2 - 1 from p^2 samples with each rank's
	 * smallest key among them (those p come first) */
	b.start[0] = 0;
	for (int j = 1; j < p; j++)
		b.start[j] =
		    below(b.keys, k, b.samples[(j - 1) * p + p / 2 - 1]);
	b.start[p] = k;
	for (int j = 0; j < p; j++)
		b.sendn[j] = b.start[j + 1] - b.start[j];
	if ((rc = vp_compute(c, (p - 1) * lg(k) * g)))
		goto out;
	vp_trace_label(c, "alltoall sizes");
	if ((rc = vp_alltoall(c, b.sendn, b.recvn, 1, VP_INT64, x->prm.alg)))
		goto out;
	app_note_alg(c, x, 1);
	/* 4. the buckets */
	vp_trace_label(c, "buckets");
	if ((rc = exchange(c, x, &b, &total)))
		goto out;
	/* 5. merge (a p-way merge's comparisons), then my place */
	qsort(b.got, (size_t)total, sizeof(double), by_value);
	if ((rc = vp_compute(c, total * lg(p) * g)))
		goto out;
	mine = total;
	vp_trace_label(c, "scan counts");
	if ((rc = vp_scan(c, &mine, &upto, 1, VP_INT64, VP_SUM, x->prm.alg)))
		goto out;
	app_note_alg(c, x, 2);
	if (upto > x->prm.n || upto < total) {
		rc = app_fail(c, x, "rank %d: keys up to mine %lld of %d", me,
			      (long long)upto, x->prm.n);
		goto out;
	}
	memcpy(x->out + (upto - total), b.got, (size_t)total * sizeof(double));
out:
	free(b.keys);
	free(b.sendn);
	free(b.start);
	free(b.reqs);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	double p = x->p, k = (double)x->prm.n / x->p, g = x->prm.gamma;

	return k * lg(k) * g +
	       app_coll_cost(VP_COLL_ALLGATHER, x->used[0], x->topo.spec, x->p,
			     8 * (size_t)(x->p - 1), ts, tw, exact) +
	       p * (p - 1) * lg(p * (p - 1)) * g + (p - 1) * lg(k) * g +
	       app_coll_cost(VP_COLL_ALLTOALL, x->used[1], x->topo.spec, x->p,
			     8, ts, tw, exact) +
	       (p - 1) * ts + tw * 8 * k * (p - 1) / p + k * lg(p) * g +
	       app_coll_cost(VP_COLL_SCAN, x->used[2], x->topo.spec, x->p, 8,
			     ts, tw, exact);
}

const struct app app_sample_sort = {
	.name = "sample-sort",
	.title = "sample sort (regular sampling)",
	.source = "Grama et al. sec. 9.5",
	.book_text = "the formula above (the book gives its terms)",
	.topologies = "any",
	.check_text = "the n keys in rank order against the sequential sort",
	.tour = { "hypercube:3", "ring:8" },
	.tour_n = 4096,
	.shape = app_row_blocks,
	.out_len = app_n,
	.reference = reference,
	.cost = APP_ESTIMATE,
	.rank = rank_main,
	.formula = formula,
};
