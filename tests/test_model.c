/*
 * test_model.c - the model clock gives the textbook's numbers exactly:
 * ping-pong 2(ts + tw m), a hand-written hypercube broadcast
 * (ts + tw m) log p with link load 1, sendrecv overlap, th per hop,
 * contention (load > 1, congested time above the formula) and identical
 * numbers over 20 runs of a pattern with random sizes; where every route is
 * one link, the same figures without the replay's log; logs of up to
 * 40,000 events replayed exactly.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define TS 100.0
#define TW 1.0

struct ctx {
	size_t m;
	double t[4096]; /* each rank's vp_time at the end */
};

static int pingpong(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	char *b = calloc(1, x->m + 1);
	int me = vp_rank(c), rc;

	if (me == 0)
		rc = vp_send(c, 1, b, x->m) ?: vp_recv(c, 1, b, x->m);
	else
		rc = vp_recv(c, 0, b, x->m) ?: vp_send(c, 0, b, x->m);
	x->t[me] = vp_time(c);
	free(b);
	return rc;
}

/*
 * One-to-all broadcast on a hypercube (Grama et al., Alg. 4.1, root 0), written
 * here against the public API: in step d-1 down to 0, ranks whose low bits
 * below the step are zero exchange along dimension i.
 */
static int hypercube_bcast(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), d = 0, i, rc = 0;
	int mask;
	char *b = calloc(1, x->m + 1);

	while ((1 << d) < p)
		d++;
	mask = p - 1;
	for (i = d - 1; i >= 0 && !rc; i--) {
		mask ^= 1 << i;
		if ((me & mask) == 0) {
			int partner = me ^ (1 << i);
			if ((me & (1 << i)) == 0)
				rc = vp_send(c, partner, b, x->m);
			else
				rc = vp_recv(c, partner, b, x->m);
		}
	}
	x->t[me] = vp_time(c);
	free(b);
	return rc;
}

static int exchange(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), rc;
	char *s = calloc(1, x->m + 1), *r = calloc(1, x->m + 1);

	/* Everyone sends to the rank p/2 away at once. */
	rc = vp_sendrecv(c, (me + p / 2) % p, s, x->m, (me - p / 2 + p) % p, r,
			 x->m);
	x->t[me] = vp_time(c);
	free(s);
	free(r);
	return rc;
}

/* The same exchange as exchange(), with the send posted: waited at once
 * (way 1), after a vp_compute (way 2: T has moved past the post), or
 * after the receive (way 3). Blocking sends for way 0. */
struct ways {
	struct ctx x;
	int way;
};

static int exchange_posted(vp_comm *c, void *arg)
{
	struct ways *w = arg;
	int me = vp_rank(c), p = vp_size(c), rc;
	int to = (me + p / 2) % p, from = (me - p / 2 + p) % p;
	char *s = calloc(1, w->x.m + 1), *r = calloc(1, w->x.m + 1);
	vp_request q;

	if (w->way == 0)
		rc = vp_send(c, to, s, w->x.m) ?: vp_recv(c, from, r, w->x.m);
	else if (w->way == 1)
		rc = vp_isend(c, to, 0, s, w->x.m, &q) ?: vp_wait(&q, NULL) ?:
		     vp_recv(c, from, r, w->x.m);
	else if (w->way == 2)
		rc = vp_isend(c, to, 0, s, w->x.m, &q) ?: vp_compute(c, 10) ?:
		     vp_wait(&q, NULL) ?: vp_recv(c, from, r, w->x.m);
	else
		rc = vp_isend(c, to, 0, s, w->x.m, &q) ?:
		     vp_recv(c, from, r, w->x.m) ?: vp_wait(&q, NULL);
	w->x.t[me] = vp_time(c);
	free(s);
	free(r);
	return rc;
}

static int far_send(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), rc = 0;
	char *b = calloc(1, x->m + 1);

	if (me == 0)
		rc = vp_send(c, p - 1, b, x->m);
	else if (me == p - 1)
		rc = vp_recv(c, 0, b, x->m);
	x->t[me] = vp_time(c);
	free(b);
	return rc;
}

static void test_pingpong(void)
{
	size_t ms[] = {1, 1024, 65536, 100000};
	int i;

	for (i = 0; i < 4; i++) {
		vp_opts o = {.topology = "line:2", .ts = TS, .tw = TW};
		struct ctx x = {.m = ms[i]};
		vp_stats st;
		int rc = vp_run(&o, pingpong, &x, &st);
		double want = 2 * (TS + TW * (double)ms[i]);
		tap_ok(rc == 0 && st.model_time == want && x.t[0] == want &&
			       x.t[1] == want &&
			       st.max_link_load == 1,
		       "ping-pong m = %zu: model time %g = 2(ts + tw m)", ms[i],
		       st.model_time);
	}
}

static void test_hypercube_bcast(void)
{
	static const struct {
		const char *spec;
		int logp;
	} cases[] = {{"hypercube:2", 2}, {"hypercube:3", 3},
		     {"hypercube:4", 4}, {"hypercube:6", 6},
		     {"ring:8", 3},	 {"full:16", 4}};
	size_t ms[] = {1, 1024, 65536};
	int i, j;

	for (i = 0; i < 6; i++)
		for (j = 0; j < 3; j++) {
			vp_opts o = {.topology = cases[i].spec, .ts = TS,
				     .tw = TW};
			struct ctx x = {.m = ms[j]};
			vp_stats st;
			int rc = vp_run(&o, hypercube_bcast, &x, &st);
			double want = (TS + TW * (double)ms[j]) * cases[i].logp;
			tap_ok(rc == 0 && st.model_time == want &&
				       st.max_link_load == 1 &&
				       st.model_time_congested == want,
			       "hypercube broadcast on %s, m = %zu: %g = "
			       "(ts + tw m) log p, link load %llu",
			       cases[i].spec, ms[j], st.model_time,
			       (unsigned long long)st.max_link_load);
		}
}

static void test_overlap_and_hops(void)
{
	vp_opts o = {.topology = "line:2", .ts = TS, .tw = TW};
	struct ctx x = {.m = 1000};
	vp_stats st;
	int rc = vp_run(&o, exchange, &x, &st);

	tap_ok(rc == 0 && st.model_time == TS + 1000 * TW && x.t[0] == x.t[1],
	       "sendrecv overlaps send and receive: %g = ts + tw m",
	       st.model_time);

	o.topology = "line:8";
	o.th = 5;
	rc = vp_run(&o, far_send, &x, &st);
	tap_ok(rc == 0 && x.t[7] == TS + 7 * 5 + 1000 * TW &&
		       x.t[0] == TS + 1000 * TW,
	       "cut-through over 7 hops: arrival ts + 7 th + tw m = %g, sender "
	       "done at ts + tw m",
	       x.t[7]);
}

static void test_contention(void)
{
	vp_opts o = {.topology = "ring:8", .ts = TS, .tw = TW};
	struct ctx x = {.m = 1000};
	vp_stats st;
	int rc = vp_run(&o, exchange, &x, &st);

	/* Every rank sends 4 hops clockwise (the tie rule) at time 0, so each
	 * clockwise link carries 4 transfers at once. */
	tap_ok(rc == 0 && st.max_link_load == 4 &&
		       st.model_time == TS + 1000 * TW &&
		       st.model_time_congested == TS + 4 * 1000 * TW,
	       "dimension-2 exchange on ring:8: load %llu, time %g, congested "
	       "%g = ts + 4 tw m",
	       (unsigned long long)st.max_link_load, st.model_time,
	       st.model_time_congested);

	o.topology = "hypercube:3";
	rc = vp_run(&o, exchange, &x, &st);
	tap_ok(rc == 0 && st.max_link_load == 1 &&
		       st.model_time_congested == st.model_time,
	       "the same exchange on hypercube:3 is congestion-free (load 1)");
}

/* A posted send waited for at once costs what the blocking send costs,
 * in the plain and in the congested model time; work between the post and
 * the wait overlaps the send. */
static void test_posted_send_contention(void)
{
	vp_opts o = {.topology = "ring:8", .ts = TS, .tw = TW};
	struct ways w = {.x = {.m = 1000}};
	vp_stats st[4];
	int way, rc = 0;

	for (way = 0; way < 4; way++) {
		w.way = way;
		rc |= vp_run(&o, exchange_posted, &w, &st[way]);
	}
	tap_ok(rc == 0 && st[1].model_time == st[0].model_time &&
		       st[1].model_time_congested ==
			   st[0].model_time_congested &&
		       st[0].model_time == TS + 1000 * TW &&
		       st[0].model_time_congested == TS + 4 * 1000 * TW,
	       "ring:8, send 4 hops then receive: isend + wait at once gives "
	       "the blocking send's times (%g = ts + tw m, congested %g = ts "
	       "+ 4 tw m)",
	       st[1].model_time, st[1].model_time_congested);
	tap_ok(rc == 0 && st[2].model_time == st[0].model_time &&
		       st[2].model_time_congested ==
			   st[0].model_time_congested,
	       "a vp_compute(10) between isend and wait is hidden by the "
	       "send, congested or not (%g, congested %g)",
	       st[2].model_time, st[2].model_time_congested);
	tap_ok(rc == 0 && st[3].model_time == TS + 1000 * TW &&
		       st[3].model_time_congested == TS + 4 * 1000 * TW,
	       "the receive before the wait overlaps the send: ts + tw m, "
	       "congested ts + 4 tw m (%g, %g)",
	       st[3].model_time, st[3].model_time_congested);
}

/* Rank 0 posts two sends to rank 1 at once; rank 1 takes both. */
static int two_at_once(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	char *a = calloc(1, x->m + 1), *b = calloc(1, x->m + 1);
	vp_request q[2];
	int rc = 0;

	if (vp_rank(c) == 0)
		rc = vp_isend(c, 1, 0, a, x->m, &q[0]) ?:
		     vp_isend(c, 1, 0, b, x->m, &q[1]) ?: vp_waitall(2, q, NULL);
	else if (vp_rank(c) == 1)
		rc = vp_recv(c, 0, a, x->m) ?: vp_recv(c, 0, b, x->m);
	free(a);
	free(b);
	return rc;
}

static int nothing(vp_comm *c, void *arg)
{
	(void)c;
	(void)arg;
	return 0;
}

/* Where every route is one link and a rank has one send port, a link
 * carries one message at a time: the run keeps no log for the congested
 * replay, and its figures are still the replay's (load 1, congested =
 * model time). With two ports the same link carries two. */
static void test_one_link_routes(void)
{
	vp_opts o = {.topology = "full:4", .ts = TS, .tw = TW};
	struct ctx x = {.m = 1000};
	vp_stats st;
	int rc = vp_run(&o, exchange, &x, &st);

	tap_ok(rc == 0 && st.max_link_load == 1 &&
		       st.model_time == TS + 1000 * TW &&
		       st.model_time_congested == st.model_time,
	       "exchange on full:4: load 1, congested = time = ts + tw m "
	       "(%llu, %g, %g)",
	       (unsigned long long)st.max_link_load, st.model_time,
	       st.model_time_congested);
	rc = vp_run(&o, two_at_once, &x, &st);
	tap_ok(rc == 0 && st.max_link_load == 1 &&
		       st.model_time == 2 * (TS + 1000 * TW) &&
		       st.model_time_congested == st.model_time,
	       "two isends to one rank on full:4, one port: one after the "
	       "other, load 1, time 2 (ts + tw m) (%llu, %g, %g)",
	       (unsigned long long)st.max_link_load, st.model_time,
	       st.model_time_congested);
	o.model = "alpha-beta:ts=100,tw=1,ports=2";
	rc = vp_run(&o, two_at_once, &x, &st);
	tap_ok(rc == 0 && st.max_link_load == 2 &&
		       st.model_time == TS + 1000 * TW &&
		       st.model_time_congested == TS + 2 * 1000 * TW,
	       "... with ports=2 both share the link: load 2, time ts + tw m, "
	       "congested ts + 2 tw m (%llu, %g, %g)",
	       (unsigned long long)st.max_link_load, st.model_time,
	       st.model_time_congested);
	o.model = NULL;
	rc = vp_run(&o, nothing, NULL, &st);
	tap_ok(rc == 0 && st.max_link_load == 0 && st.model_time == 0 &&
		       st.model_time_congested == 0,
	       "no message on full:4: load 0, times 0");
}

/* Rank 0 sends x->m pairs of messages to the last rank, which receives
 * them: pair k is two isends of 100 ((k + x->t[0]) % 5 + 1) bytes, waited
 * together, so with two ports both cross every link of the route at
 * once. Runs with another t[0] log other sizes at the same places, so a
 * log read from memory a previous run left would give other times. */
static int pairs(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), rc = 0;
	static const char b[500];
	char r[500];
	vp_request q[2];
	size_t k;

	for (k = 0; k < x->m && !rc; k++) {
		size_t n = 100 * ((k + (size_t)x->t[0]) % 5 + 1);

		if (me == 0)
			rc = vp_isend(c, p - 1, 0, b, n, &q[0]) ?:
			     vp_isend(c, p - 1, 0, b, n, &q[1]) ?:
			     vp_waitall(2, q, NULL);
		else if (me == p - 1)
			rc = vp_recv(c, 0, r, n) ?: vp_recv(c, 0, r, n);
	}
	return rc;
}

/* Each rank's log of the run grows from a small first chunk (16 events
 * lent by the run, then 64 malloc'd) to chunks of 4096 events and past
 * its first table of chunks (2 events a pair on the receiver, 2 link
 * holds a pair on the sender): at every length the congested replay of
 * the log (load 2) gives the textbook's time, so no event was lost or
 * changed. */
static void test_long_logs(void)
{
	static const size_t ns[] = { 7, 8, 9, 31, 32, 33, 2047, 2048, 2049,
				     20000 };
	vp_opts o = { .topology = "line:3",
		      .model = "alpha-beta:ts=100,tw=1,ports=2" };
	int i;

	for (i = 0; i < (int)(sizeof(ns) / sizeof(ns[0])); i++) {
		struct ctx x = { .m = ns[i], .t = { (double)i } };
		double want = 0, congested = 0;
		vp_stats st;
		size_t k;
		int rc;

		for (k = 0; k < ns[i]; k++) {
			double m = 100 * (double)((k + (size_t)i) % 5 + 1);

			want += TS + TW * m;
			congested += TS + 2 * TW * m;
		}
		rc = vp_run(&o, pairs, &x, &st);
		tap_ok(rc == 0 && st.model_time == want &&
			       st.model_time_congested == congested &&
			       st.max_link_load == 2 && st.incomplete == 0 &&
			       st.messages == 2 * ns[i],
		       "%zu pairs of messages over 2 hops, two ports: time "
		       "%.17g = the sum of ts + tw m, congested %.17g = the "
		       "sum of ts + 2 tw m (load %llu)",
		       ns[i], st.model_time, st.model_time_congested,
		       (unsigned long long)st.max_link_load);
	}
}

/* Random sizes and partners, fixed seed: the model must not depend on the
 * thread interleaving. */
static int random_pattern(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), round, rc;
	unsigned seed = 12345;
	char *s = malloc(70000), *r = malloc(70000);

	(void)arg;
	for (round = 0; round < 40; round++) {
		int shift = 1 + (int)(rand_r(&seed) % (unsigned)(p - 1));
		size_t n = (size_t)(rand_r(&seed) % 70000);
		size_t n2 = (size_t)((rand_r(&seed) + (unsigned)me * 7919) % 300);
		rc = vp_sendrecv(c, (me + shift) % p, s, n,
				 (me - shift + p) % p, r, 70000);
		if (rc)
			break;
		/* an uneven extra message, so ranks drift apart in time */
		if (me % 2 == 0)
			rc = vp_send(c, (me + 1) % p, s, n2 + (size_t)me);
		else
			rc = vp_recv(c, me - 1, r, 70000);
		if (rc)
			break;
	}
	free(s);
	free(r);
	return rc;
}

static void test_determinism(void)
{
	vp_opts o = {.topology = "torus:4x4", .ts = 3, .tw = 0.25, .th = 2};
	vp_stats first, st;
	int i, same = 1;

	vp_run(&o, random_pattern, NULL, &first);
	for (i = 0; i < 19; i++) {
		if (vp_run(&o, random_pattern, NULL, &st))
			same = 0;
		same &= st.model_time == first.model_time &&
			st.model_time_congested == first.model_time_congested &&
			st.max_link_load == first.max_link_load &&
			st.messages == first.messages && st.bytes == first.bytes;
	}
	tap_ok(same && first.messages == 40 * 16 + 40 * 8,
	       "20 runs of a random pattern on torus:4x4 give identical model "
	       "numbers (time %g, congested %g, load %llu)",
	       first.model_time, first.model_time_congested,
	       (unsigned long long)first.max_link_load);
}

int main(void)
{
	test_pingpong();
	test_hypercube_bcast();
	test_overlap_and_hops();
	test_contention();
	test_posted_send_contention();
	test_one_link_routes();
	test_determinism();
	test_long_logs();
	return tap_done();
}
