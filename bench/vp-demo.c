/*
 * vp-demo.c - point-to-point patterns on every topology: prints, per run,
 * the model time next to the textbook's formula, the congested time, the
 * wall time, the messages and the most loaded link.
 *
 * Patterns (m bytes per message, ts = 100, tw = 1 per byte, th = 0):
 *   pingpong    rank 0 <-> the last rank, once        2 (ts + tw m)
 *   ring-shift  every rank sends to rank+1 at once     ts + tw m
 *   dim-exchange  log p rounds, partner rank ^ 2^k     (ts + tw m) log p
 *                 (hypercube pattern; contention elsewhere)
 *   hc-bcast    one-to-all broadcast by recursive doubling from rank 0
 *                                                      (ts + tw m) log p
 * Every result is checked: the demo exits non-zero if a payload is wrong.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vp.h"

#define TS 100.0
#define TW 1.0
#define M 1024

static int bad;

static int log2i(int p)
{
	int d = 0;

	while ((1 << d) < p)
		d++;
	return d;
}

static int pingpong(vp_comm *c, void *arg)
{
	char b[M];
	int me = vp_rank(c), last = vp_size(c) - 1;

	(void)arg;
	memset(b, me, M);
	if (last == 0)
		return 0;
	if (me == 0)
		return vp_send(c, last, b, M) ?: vp_recv(c, last, b, M);
	if (me == last)
		return vp_recv(c, 0, b, M) ?: vp_send(c, 0, b, M);
	return 0;
}

static int ring_shift(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc;
	int s[M / 4], r[M / 4];

	(void)arg;
	s[0] = me;
	rc = vp_sendrecv(c, (me + 1) % p, s, M, (me - 1 + p) % p, r, M);
	if (!rc && r[0] != (me - 1 + p) % p)
		__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	return rc;
}

static int dim_exchange(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), k, rc = 0;
	int s[M / 4], r[M / 4];

	(void)arg;
	for (k = 1; k < p && !rc; k <<= 1) {
		s[0] = me;
		rc = vp_sendrecv(c, me ^ k, s, M, me ^ k, r, M);
		if (!rc && r[0] != (me ^ k))
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	}
	return rc;
}

static int hc_bcast(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), k, rc = 0;
	int b[M / 4];

	(void)arg;
	b[0] = me == 0 ? 4242 : -1;
	for (k = 1 << (log2i(p) - 1); k >= 1 && !rc; k >>= 1) {
		if (me % (2 * k) == 0)
			rc = vp_send(c, me + k, b, M);
		else if (me % (2 * k) == k)
			rc = vp_recv(c, me - k, b, M);
	}
	if (!rc && b[0] != 4242)
		__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	return rc;
}

int main(void)
{
	static const char *const topos[] = { "ring:8",      "line:8",
					     "mesh:3x3",    "torus:4x4",
					     "hypercube:3", "tree:8",
					     "full:8" };
	static const struct {
		const char *name;
		int (*fn)(vp_comm *, void *);
		int pow2; /* needs p a power of two */
	} pats[] = {
		{ "pingpong", pingpong, 0 },
		{ "ring-shift", ring_shift, 0 },
		{ "dim-exchange", dim_exchange, 1 },
		{ "hc-bcast", hc_bcast, 1 },
	};
	size_t t, k;
	int failures = 0;

	printf("vp demo: point-to-point patterns on every topology\n");
	printf("m = %d bytes, ts = %g, tw = %g per byte, th = 0\n\n", M, TS,
	       TW);
	printf("%-12s %-13s %4s %10s %10s %5s %11s %9s %5s %5s\n", "topology",
	       "pattern", "p", "model", "formula", "match", "congested",
	       "wall_us", "msgs", "load");
	for (t = 0; t < sizeof(topos) / sizeof(topos[0]); t++) {
		for (k = 0; k < sizeof(pats) / sizeof(pats[0]); k++) {
			vp_opts o = { .topology = topos[t],
				      .ts = TS,
				      .tw = TW };
			vp_stats st;
			double f = 0, unit = TS + TW * M;
			int rc, p, lg;

			/* probe p with a trivial run of the same options */
			rc = vp_run(&o, pingpong, NULL, &st);
			p = st.p;
			lg = log2i(p);
			if (pats[k].pow2 && (p & (p - 1)))
				continue;
			rc = vp_run(&o, pats[k].fn, NULL, &st);
			if (rc) {
				printf("%-12s %-13s failed: %s\n", topos[t],
				       pats[k].name, st.error);
				failures++;
				continue;
			}
			if (k == 0)
				f = 2 * unit;
			else if (k == 1)
				f = unit;
			else
				f = unit * lg;
			printf("%-12s %-13s %4d %10.0f %10.0f %5s %11.0f %9.0f "
			       "%5llu %5llu\n",
			       topos[t], pats[k].name, p, st.model_time, f,
			       st.model_time == f ? "yes" : "no",
			       st.model_time_congested, st.wall_seconds * 1e6,
			       (unsigned long long)st.messages,
			       (unsigned long long)st.max_link_load);
		}
	}
	printf("\nmodel = max-plus model time (th = 0, so the book's formulas "
	       "hold when the pattern is contention-free);\ncongested = the "
	       "same run with tw scaled by the most loaded link's load.\n");
	if (bad || failures) {
		printf("FAILED: %d wrong payloads, %d failed runs\n", bad,
		       failures);
		return 1;
	}
	return 0;
}
