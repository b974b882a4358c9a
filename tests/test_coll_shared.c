/*
 * test_coll_shared.c - where the ranks share memory and outnumber the
 * CPUs, a collective call whose signature was sent once before is made
 * without its messages (the ranks meet once; the model is charged with
 * the recorded messages; the results are written straight into every
 * rank's buffers), and nothing a program can see changes:
 *   - every rank's model time and result after each call, and the run's
 *     model time, congested time, messages, bytes, link load and
 *     supersteps, are those of the same program traced (a traced run
 *     sends every message), for all ten collectives with integer
 *     reductions, in place too, on ring, mesh, torus, hypercube, tree and
 *     fully connected topologies, under alpha-beta, store-and-forward,
 *     LogP and LogGP, as threads and as fibers, on sub-communicators, with
 *     ranks arriving at different model times and messages of their own
 *     in flight; vp_stats.shared_calls counts the calls made so (the
 *     second of each pair: 20 of the 40). That is under
 *     VP_SHARED_COLLECTIVES=all and by default (where a rooted call, the
 *     scan and the shift meet in their first calls, a trial), with the
 *     same figures; under sync only the all-reduce, all-gather,
 *     reduce-scatter and all-to-all (which wait for every rank anyway),
 *     under 0 none, and another value fails the run;
 *   - by default a rooted call goes the way a trial in the program's own
 *     loop found faster, now met, now by messages, and every rank goes
 *     the same way in every call: loops of broadcasts and reductions
 *     back to back, after a barrier, and with uneven work between them
 *     (on a fully connected world, and on a torus under LogGP and then
 *     on its halves) give the right results and the times and figures
 *     of the messages, and some calls go each way;
 *   - a floating-point sum (whose bits depend on the algorithm's order)
 *     and an algorithm that waits on requests are always sent;
 *   - a program that relies on a root leaving its broadcast early (legal
 *     where sends are buffered) still completes, by default too;
 *   - a receive posted across a collective completes;
 *   - ranks in different calls, a rank that skips a call, and a failing
 *     rank give the errors the messages give.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

#define MAXP 64
#define CALLS 40 /* 10 collectives x 2 rounds, each call made twice */

static int crowded(int p)
{
	return p > sysconf(_SC_NPROCESSORS_ONLN);
}

struct record {
	double at[MAXP][CALLS];      /* each rank's model time after a call */
	uint64_t result[MAXP][CALLS]; /* a hash of its output */
	int sub;
};

static uint64_t hash(const void *buf, size_t n)
{
	const unsigned char *b = buf;
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* Call k of the sequence on c: the ten collectives in turn, each made
 * twice in a row (the second one is the same signature: made without its
 * messages), the second round with other roots, types, operations and
 * in-place forms. */
static int one_call(vp_comm *c, int k, int64_t *in, int64_t *out,
		    uint64_t *h)
{
	int p = vp_size(c), r = vp_rank(c), round = k / 20, i, rc;
	vp_type t = round ? VP_INT64 : VP_INT32;
	size_t es = vp_type_size(t), count = 1 + 2 * round;
	vp_op op = (vp_op)((round * 3 + k / 2) % 7); /* VP_SUM .. VP_BXOR */
	int root = (round * 5 + 1) % p;

	for (i = 0; i < p * 3; i++)
		in[i] = (int64_t)(r * 1000 + i * 7 + k) * (i % 2 ? -1 : 1);
	memset(out, 0, (size_t)p * 3 * sizeof(int64_t));
	switch (k / 2 % 10) {
	case 0:
		rc = vp_bcast(c, in, count, t, root, VP_ALG_AUTO);
		*h = hash(in, count * es);
		return rc;
	case 1:
		rc = vp_reduce(c, round && r == root ? VP_IN_PLACE : in,
			       round && r == root ? in : out, count, t, op,
			       root, VP_ALG_AUTO);
		*h = r == root ? hash(round ? in : out, count * es) : 0;
		return rc;
	case 2:
		rc = vp_allreduce(c, round ? VP_IN_PLACE : in,
				  round ? in : out, count, t, op,
				  VP_ALG_AUTO);
		*h = hash(round ? in : out, count * es);
		return rc;
	case 3:
		rc = vp_allgather(c, in, out, count, t, VP_ALG_AUTO);
		*h = hash(out, (size_t)p * count * es);
		return rc;
	case 4:
		rc = vp_reduce_scatter(c, in, out, count, t, op, VP_ALG_AUTO);
		*h = hash(out, count * es);
		return rc;
	case 5:
		rc = vp_scan(c, in, out, count, t, op, VP_ALG_AUTO);
		*h = hash(out, count * es);
		return rc;
	case 6:
		rc = vp_scatter(c, in, out, count, t, root, VP_ALG_AUTO);
		*h = hash(out, count * es);
		return rc;
	case 7:
		rc = vp_gather(c, in, out, count, t, root, VP_ALG_AUTO);
		*h = r == root ? hash(out, (size_t)p * count * es) : 0;
		return rc;
	case 8:
		rc = vp_alltoall(c, round ? VP_IN_PLACE : in,
				 round ? in : out, count, t, VP_ALG_AUTO);
		*h = hash(round ? in : out, (size_t)p * count * es);
		return rc;
	default:
		rc = vp_shift(c, in, out, count, t, round + 1 + p,
			      VP_ALG_AUTO);
		*h = hash(out, count * es);
		return rc;
	}
}

/* The sequence, two rounds of the ten collectives, each made twice, with model work and
 * a message of each rank's own in flight between the calls; on halves
 * too when asked. */
static int sequence(vp_comm *c, void *arg)
{
	struct record *rec = arg;
	int p = vp_size(c), r = vp_rank(c), k, x = r, y, rc = 0;
	int64_t in[MAXP * 3], out[MAXP * 3];
	vp_comm *half = NULL;
	uint64_t h = 0;

	if (rec->sub && (rc = vp_comm_split(c, r % 2, r, &half)))
		return rc;
	for (k = 0; k < CALLS && !rc; k++) {
		vp_compute(c, (double)((r * 7 + k * 3) % 11));
		if (p > 1 && k % 4 == 0)
			rc = vp_sendrecv(c, (r + 1) % p, &x, sizeof(x),
					 (r + p - 1) % p, &y, sizeof(y));
		if (!rc && half && k % 3 == 1)
			rc = one_call(half, k, in, out, &h);
		if (!rc)
			rc = one_call(c, k, in, out, &h);
		if (r % 3 == 0)
			sched_yield();
		rec->at[r][k] = vp_time(c);
		rec->result[r][k] = h;
	}
	if (half)
		vp_comm_free(half);
	return rc;
}

struct run {
	vp_stats st;
	struct record rec;
	int rc;
};

static void run_one(const char *topo, const char *model, int fibers,
		    int traced, int sub, struct run *out)
{
	vp_opts o = { .topology = topo, .model = model, .fibers = fibers,
		      .ts = 10, .tw = 1, .th = 3, .quiet = 1 };

	memset(out, 0, sizeof(*out));
	out->rec.sub = sub;
	if (traced)
		o.trace = "/dev/null";
	out->rc = vp_run(&o, sequence, &out->rec, &out->st);
}

/* The first call where a and b differ, -1 when none. */
static int first_difference(const struct run *a, const struct run *b, int p,
			    int *rank)
{
	int r, k;

	for (k = 0; k < CALLS; k++)
		for (r = 0; r < p; r++)
			if (a->rec.at[r][k] != b->rec.at[r][k] ||
			    a->rec.result[r][k] != b->rec.result[r][k]) {
				*rank = r;
				return k;
			}
	return -1;
}

/* The run's figures that a call made without its messages must leave as
 * the messages would: model and congested time, messages, bytes, load. */
static int same_figures(const vp_stats *a, const vp_stats *b)
{
	return a->model_time == b->model_time &&
	       a->model_time_congested == b->model_time_congested &&
	       a->messages == b->messages && a->bytes == b->bytes &&
	       a->max_link_load == b->max_link_load;
}

static void test_same_as_messages(void)
{
	setenv("VP_SHARED_COLLECTIVES", "all", 1); /* read by each vp_run */
	static const struct {
		const char *topo, *model;
		int fibers, sub;
	} cases[] = {
		{ "full:16", NULL, 0, 0 },
		{ "ring:13", NULL, 0, 1 },
		{ "mesh:3x4", NULL, 0, 1 },
		{ "torus:4x4", "alpha-beta:saf", 0, 0 },
		{ "hypercube:4", "loggp:L=7,o=2,g=3,G=0.5", 0, 0 },
		{ "tree:8", NULL, 0, 0 },
		{ "full:8", "logp:L=5,o=1,g=4", 0, 1 },
		{ "full:64", NULL, 0, 1 },
		{ "ring:13", NULL, 1, 0 },
		{ "full:64", "logp:L=5,o=1,g=4", 1, 1 },
	};
	static struct run shared, sent;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rank = -1, k;

		run_one(cases[i].topo, cases[i].model, cases[i].fibers, 0,
			cases[i].sub, &shared);
		run_one(cases[i].topo, cases[i].model, cases[i].fibers, 1,
			cases[i].sub, &sent);
		k = first_difference(&shared, &sent, shared.st.p, &rank);
		tap_ok(shared.rc == 0 && sent.rc == 0 && k < 0 &&
			   same_figures(&shared.st, &sent.st) &&
			   shared.st.supersteps == sent.st.supersteps &&
			   sent.st.shared_calls == 0 &&
			   (shared.st.shared_calls >= CALLS / 2 ||
			    !crowded(shared.st.p)),
		       "%s, %s%s%s: every rank's time and result after each of "
		       "%d calls and the run's figures as when the messages "
		       "are sent (rc %d / %d; model %.17g / %.17g, congested "
		       "%.17g / %.17g, %llu / %llu messages, load %llu / %llu; "
		       "first difference call %d rank %d); %llu calls made "
		       "without their messages",
		       cases[i].topo,
		       cases[i].model ? cases[i].model : "alpha-beta",
		       cases[i].fibers ? ", fibers" : "",
		       cases[i].sub ? ", halves too" : "", CALLS, shared.rc,
		       sent.rc, shared.st.model_time, sent.st.model_time,
		       shared.st.model_time_congested,
		       sent.st.model_time_congested,
		       (unsigned long long)shared.st.messages,
		       (unsigned long long)sent.st.messages,
		       (unsigned long long)shared.st.max_link_load,
		       (unsigned long long)sent.st.max_link_load, k, rank,
		       (unsigned long long)shared.st.shared_calls);
	}
	unsetenv("VP_SHARED_COLLECTIVES");
}

static int always_sent(vp_comm *c, void *arg);

/* The default policy, and the variable's other values. */
static void test_policy(void)
{
	static struct run shared, sent;
	vp_opts o = { .topology = "full:8", .quiet = 1 };
	vp_stats st;
	int rank = -1, k, rc;

	run_one("full:16", NULL, 0, 0, 0, &shared);
	run_one("full:16", NULL, 0, 1, 0, &sent);
	k = first_difference(&shared, &sent, shared.st.p, &rank);
	tap_ok(shared.rc == 0 && sent.rc == 0 && k < 0 &&
		   shared.st.model_time == sent.st.model_time &&
		   shared.st.messages == sent.st.messages &&
		   shared.st.shared_calls == (crowded(16) ? 20u : 0u),
	       "by default the second call of each pair too, 20 of 40 (%llu): "
	       "those that wait for every rank anyway always, the rooted ones, "
	       "the scan and the shift in their first trial, with every time, "
	       "result and figure of the messages (first difference call %d "
	       "rank %d)",
	       (unsigned long long)shared.st.shared_calls, k, rank);
	setenv("VP_SHARED_COLLECTIVES", "0", 1);
	run_one("full:16", NULL, 0, 0, 0, &shared);
	rc = vp_run(&o, always_sent, NULL, &st);
	tap_ok(shared.rc == 0 && shared.st.shared_calls == 0 && rc == 0,
	       "VP_SHARED_COLLECTIVES=0: every call sends its messages (%llu "
	       "without)",
	       (unsigned long long)shared.st.shared_calls);
	setenv("VP_SHARED_COLLECTIVES", "sync", 1);
	run_one("full:16", NULL, 0, 0, 0, &shared);
	k = first_difference(&shared, &sent, shared.st.p, &rank);
	tap_ok(shared.rc == 0 && k < 0 &&
		   shared.st.model_time == sent.st.model_time &&
		   shared.st.shared_calls == (crowded(16) ? 8u : 0u),
	       "VP_SHARED_COLLECTIVES=sync: only the calls that wait for every "
	       "rank anyway, the second all-reduce, all-gather, reduce-scatter "
	       "and all-to-all of each round, 8 of 40 (%llu), with every time "
	       "and result of the messages (first difference call %d)",
	       (unsigned long long)shared.st.shared_calls, k);
	setenv("VP_SHARED_COLLECTIVES", "some", 1);
	rc = vp_run(&o, always_sent, NULL, &st);
	tap_ok(rc == VP_EINVAL &&
	       strstr(st.error, "VP_SHARED_COLLECTIVES=some: it must be 0, "
				"1, sync or all"),
	       "another value fails the run saying what it must be (rc %d): %s",
	       rc, st.error);
	unsetenv("VP_SHARED_COLLECTIVES");
}

/* Loops of rooted calls of three kinds (back to back, each after a
 * barrier, with uneven work between them), LOOP_CALLS of each: a
 * broadcast and a reduction of int32 sums, checked against their
 * formulas; the rank's model time after each loop in at[rank][loop], and
 * with sub, the same loops on halves of the world after (at[rank][3 +
 * loop]). */
#define LOOP_CALLS 120
struct loops {
	double at[MAXP][6];
	int wrong[MAXP];
	int sub;
};

static int loops_on(vp_comm *c, struct loops *l, int me, double *at)
{
	int p = vp_size(c), r = vp_rank(c), kind, k, rc = 0;
	volatile double sink = 0;
	int32_t x, sum;

	for (kind = 0; kind < 3 && !rc; kind++) {
		for (k = 0; k < LOOP_CALLS && !rc; k++) {
			if (kind == 1)
				rc = vp_barrier(c);
			if (kind == 2) { /* work of 0 .. 20 units, uneven */
				int units = (r * 7 + k * 13) % 21, i;

				for (i = 0; i < units * 200; i++)
					sink += i * 0.5;
				vp_compute(c, units);
			}
			x = r == k % 3 ? 1000 + k : -1;
			rc = rc ? rc : vp_bcast(c, &x, 1, VP_INT32, k % 3,
						VP_ALG_AUTO);
			if (!rc && x != 1000 + k)
				l->wrong[me]++;
			x = r + k;
			rc = rc ? rc : vp_reduce(c, &x, &sum, 1, VP_INT32,
						 VP_SUM, 0, VP_ALG_AUTO);
			if (!rc && r == 0 && sum != p * (p - 1) / 2 + p * k)
				l->wrong[me]++;
		}
		at[kind] = vp_time(c);
	}
	return rc;
}

static int loops(vp_comm *c, void *arg)
{
	struct loops *l = arg;
	int r = vp_rank(c), rc = loops_on(c, l, r, l->at[r]);
	vp_comm *half = NULL;

	if (!rc && l->sub && !(rc = vp_comm_split(c, r % 2, r, &half))) {
		rc = loops_on(half, l, r, l->at[r] + 3);
		vp_comm_free(half);
	}
	return rc;
}

static int wrongs(const struct loops *l)
{
	int i, n = 0;

	for (i = 0; i < MAXP; i++)
		n += l->wrong[i];
	return n;
}

static void test_trials(void)
{
	static const struct {
		const char *topo, *model;
		int sub;
	} cases[] = {
		{ "full:16", NULL, 0 },
		{ "torus:4x4", "loggp:L=7,o=2,g=3,G=0.5", 1 },
	};
	static struct loops a, b;
	vp_stats sa, sb;
	long long rooted_met;
	size_t i;
	int ra, rb;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		vp_opts o = { .topology = cases[i].topo,
			      .model = cases[i].model,
			      .ts = 10,
			      .tw = 1,
			      .quiet = 1 };

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.sub = b.sub = cases[i].sub;
		ra = vp_run(&o, loops, &a, &sa);
		o.trace = "/dev/null"; /* every message sent */
		rb = vp_run(&o, loops, &b, &sb);
		/* on the world, of 3 x 120 x 2 rooted calls, the broadcast's
		 * root turning among three (three signatures, each with a
		 * cycle of its own) and the reduction's fixed: after the call
		 * that records it, each signature's first cycle meets 9
		 * calls and sends the next 7, so both ways are taken whatever
		 * the trials find (the 120 barriers always meet) */
		rooted_met = (long long)sa.shared_calls - 120;
		tap_ok(ra == 0 && rb == 0 && !wrongs(&a) && !wrongs(&b) &&
			   !memcmp(a.at, b.at, sizeof(a.at)) &&
			   same_figures(&sa, &sb) &&
			   (!crowded(16) ||
			    (cases[i].sub ? sa.shared_calls > 0
					  : rooted_met >= 4 * 9 &&
						rooted_met <= 720 - 4 * 8)),
		       "by default, on %s, %s%s: rooted calls in loops back to "
		       "back, after a barrier and with uneven work, right "
		       "results (%d wrong), every rank's time and the run's "
		       "figures as when every message is sent (rc %d / %d, "
		       "model %g / %g, messages %llu / %llu), some calls met "
		       "and some sent (%llu calls met in all)",
		       cases[i].topo,
		       cases[i].model ? cases[i].model : "alpha-beta",
		       cases[i].sub ? ", then on halves" : "",
		       wrongs(&a) + wrongs(&b), ra, rb, sa.model_time,
		       sb.model_time, (unsigned long long)sa.messages,
		       (unsigned long long)sb.messages,
		       (unsigned long long)sa.shared_calls);
	}
}

/* The results themselves, not only their agreement: 30 all-reduces of
 * 64 ranks' int64 sums and all-to-alls, checked against the formula. */
static int checked(vp_comm *c, void *arg)
{
	int p = vp_size(c), r = vp_rank(c), k, i, *bad = arg, rc = 0;
	int64_t x[2], s[2], in[MAXP], out[MAXP];

	for (k = 0; k < 30 && !rc; k++) {
		x[0] = r + k;
		x[1] = -(int64_t)r * k;
		if ((rc = vp_allreduce(c, x, s, 2, VP_INT64, VP_SUM,
				       VP_ALG_AUTO)))
			break;
		if (s[0] != (int64_t)p * (p - 1) / 2 + (int64_t)p * k ||
		    s[1] != -(int64_t)k * p * (p - 1) / 2)
			bad[r]++;
		for (i = 0; i < p; i++)
			in[i] = r * 100 + i + k;
		if ((rc = vp_alltoall(c, in, out, 1, VP_INT64, VP_ALG_AUTO)))
			break;
		for (i = 0; i < p; i++)
			if (out[i] != i * 100 + r + k)
				bad[r]++;
	}
	return rc;
}

static void test_results(void)
{
	vp_opts o = { .topology = "full:64", .ts = 1 };
	vp_stats st;
	int bad[MAXP] = { 0 }, rc = vp_run(&o, checked, bad, &st), i, n = 0;

	for (i = 0; i < MAXP; i++)
		n += bad[i];
	tap_ok(rc == 0 && n == 0 &&
		   (st.shared_calls >= 56 || !crowded(64)),
	       "30 all-reduces and all-to-alls of 64 ranks give the sums "
	       "and blocks the formula gives (%d wrong; %llu calls without "
	       "their messages)",
	       n, (unsigned long long)st.shared_calls);
}

/* More signatures in turn than a communicator keeps scripts of (16):
 * all-reduces of 1 .. 20 elements, three times over. */
static int many_signatures(vp_comm *c, void *arg)
{
	double *at = arg;
	int32_t in[20], out[20];
	int k, n, rc = 0, r = vp_rank(c);

	for (n = 0; n < 20; n++)
		in[n] = r + n;
	for (k = 0; k < 3 && !rc; k++)
		for (n = 1; n <= 20 && !rc; n++) {
			vp_compute(c, (double)((r + n) % 3));
			rc = vp_allreduce(c, in, out, (size_t)n, VP_INT32,
					  VP_SUM, VP_ALG_AUTO);
			if (!rc && out[n - 1] != 8 * (n - 1) + 28)
				rc = VP_EINVAL;
		}
	at[r] = vp_time(c);
	return rc;
}

static void test_many_signatures(void)
{
	vp_opts o = { .topology = "ring:8", .ts = 3, .tw = 1 };
	vp_stats a, b;
	double ta[8], tb[8];
	int ra = vp_run(&o, many_signatures, ta, &a), rb;

	o.trace = "/dev/null";
	rb = vp_run(&o, many_signatures, tb, &b);
	tap_ok(ra == 0 && rb == 0 && !memcmp(ta, tb, sizeof(ta)) &&
		   a.model_time == b.model_time &&
		   a.model_time_congested == b.model_time_congested &&
		   a.messages == b.messages,
	       "20 signatures in turn (more than the 16 kept): right sums, "
	       "and every rank's time and the run's figures as when the "
	       "messages are sent (rc %d / %d, model %g / %g; %llu calls "
	       "without messages)",
	       ra, rb, a.model_time, b.model_time,
	       (unsigned long long)a.shared_calls);
}

/* Double sums, and the all-gather that waits on requests: sent. */
static int always_sent(vp_comm *c, void *arg)
{
	double x = vp_rank(c) * 0.1, s;
	int k, rc = 0, v[MAXP];

	(void)arg;
	for (k = 0; k < 5 && !rc; k++)
		rc = vp_allreduce(c, &x, &s, 1, VP_DOUBLE, VP_SUM, VP_ALG_AUTO);
	for (k = 0; k < 5 && !rc; k++)
		rc = vp_allgather(c, &k, v, 1, VP_INT32, VP_ALG_DIRECT);
	return rc;
}

static void test_always_sent(void)
{
	vp_opts o = { .topology = "full:8", .ts = 1 };
	vp_stats st;
	int rc = vp_run(&o, always_sent, NULL, &st);

	tap_ok(rc == 0 && st.shared_calls == 0 && st.messages > 0,
	       "floating-point sums and an algorithm that waits on requests "
	       "are always sent (%llu calls without messages, %llu "
	       "messages)",
	       (unsigned long long)st.shared_calls,
	       (unsigned long long)st.messages);
}

/* Rank 0 broadcasts, then sends to rank 1, which receives before it
 * broadcasts: legal where sends are buffered (as vp's are). */
static int root_leaves_early(vp_comm *c, void *arg)
{
	int *got = arg, r = vp_rank(c), k, x, rc = 0;

	for (k = 0; k < 4 && !rc; k++) {
		x = r == 0 ? 100 + k : 0;
		if (r == 0) {
			rc = vp_bcast(c, &x, 1, VP_INT32, 0, VP_ALG_AUTO);
			if (!rc)
				rc = vp_send(c, 1, &k, sizeof(k));
		} else if (r == 1) {
			int y;

			rc = vp_recv(c, 0, &y, sizeof(y));
			if (!rc)
				rc = vp_bcast(c, &x, 1, VP_INT32, 0,
					      VP_ALG_AUTO);
		} else {
			rc = vp_bcast(c, &x, 1, VP_INT32, 0, VP_ALG_AUTO);
		}
		got[r] += x == 100 + k;
	}
	return rc;
}

static void test_root_leaves_early(void)
{
	vp_opts o = { .topology = "full:8", .ts = 1 };
	vp_stats st;
	int got[8] = { 0 }, rc, i, all = 1;

	setenv("VP_SHARED_COLLECTIVES", "all", 1); /* broadcasts meet */
	rc = vp_run(&o, root_leaves_early, got, &st);
	unsetenv("VP_SHARED_COLLECTIVES");

	for (i = 0; i < 8; i++)
		all &= got[i] == 4;
	tap_ok(rc == 0 && all,
	       "a root that leaves its broadcast before rank 1 enters it (rank "
	       "1 first receives what the root sends after): 4 broadcasts "
	       "complete with the root's value on every rank (rc %d)",
	       rc);
	memset(got, 0, sizeof(got));
	all = 1;
	rc = vp_run(&o, root_leaves_early, got, &st); /* their first trial */
	for (i = 0; i < 8; i++)
		all &= got[i] == 4;
	tap_ok(rc == 0 && all,
	       "the same by default (rc %d)", rc);
}

/* Rank 0 has a receive posted across an all-reduce; rank 1 sends after. */
static int posted_across(vp_comm *c, void *arg)
{
	int *got = arg, x = 42, rc, k, s;
	vp_request q;

	for (k = 0; k < 3; k++) {
		if (vp_rank(c) == 0) {
			got[0] = 0;
			if ((rc = vp_irecv(c, 1, 5, &got[0], sizeof(int),
					   &q)) ||
			    (rc = vp_allreduce(c, &k, &s, 1, VP_INT32, VP_SUM,
					       VP_ALG_AUTO)) ||
			    (rc = vp_wait(&q, NULL)))
				return rc;
			continue;
		}
		if ((rc = vp_allreduce(c, &k, &s, 1, VP_INT32, VP_SUM,
				       VP_ALG_AUTO)))
			return rc;
		if (vp_rank(c) == 1 && (rc = vp_send_tag(c, 0, 5, &x, 4)))
			return rc;
	}
	return 0;
}

static void test_posted_across(void)
{
	vp_opts o = { .topology = "full:4", .ts = 1 };
	vp_stats st;
	int got[1] = { -1 }, rc = vp_run(&o, posted_across, got, &st);

	tap_ok(rc == 0 && got[0] == 42,
	       "a receive posted across an all-reduce: the all-reduce sends "
	       "its messages, then the receive completes (%d, rc %d)",
	       got[0], rc);
}

/* Rank 5 skips the third all-reduce; rank 1 gives another root in the
 * third broadcast; rank 2 fails while the others wait in a collective. */
static int skipping(vp_comm *c, void *arg)
{
	int k, rc = 0, x = 1, s;

	(void)arg;
	for (k = 0; k < 3 && !rc; k++)
		if (k < 2 || vp_rank(c) != 5)
			rc = vp_allreduce(c, &x, &s, 1, VP_INT32, VP_SUM,
					  VP_ALG_AUTO);
	return rc;
}

static int wrong_root(vp_comm *c, void *arg)
{
	int k, rc = 0, x = 1;

	(void)arg;
	for (k = 0; k < 3 && !rc; k++)
		rc = vp_bcast(c, &x, 1, VP_INT32,
			      k == 2 && vp_rank(c) == 1 ? 1 : 0, VP_ALG_AUTO);
	return rc;
}

static int failing(vp_comm *c, void *arg)
{
	int *rcs = arg, k, x = 1, s;

	for (k = 0; k < 2; k++)
		if (vp_allreduce(c, &x, &s, 1, VP_INT32, VP_SUM, VP_ALG_AUTO))
			return 1;
	if (vp_rank(c) == 2)
		return VP_EINVAL;
	rcs[vp_rank(c)] = vp_allreduce(c, &x, &s, 1, VP_INT32, VP_SUM,
				       VP_ALG_AUTO);
	return rcs[vp_rank(c)] == VP_EABORT ? 0 : 1;
}

static void test_wrong_programs(void)
{
	vp_opts o = { .topology = "full:8", .quiet = 1 };
	vp_stats st;
	int rcs[8] = { 0 }, rc, i, aborted = 1;

	rc = vp_run(&o, skipping, NULL, &st);
	tap_ok(rc == VP_EMISMATCH && st.report &&
		   strstr(st.report, "rank 5 made 2 collective calls"),
	       "a rank that skips an all-reduce: the report its messages give "
	       "(rc %d, below)",
	       rc);
	tap_diag("%s", st.report ? st.report : st.error);
	setenv("VP_SHARED_COLLECTIVES", "all", 1); /* broadcasts meet too */
	rc = vp_run(&o, wrong_root, NULL, &st);
	unsetenv("VP_SHARED_COLLECTIVES");
	tap_ok(rc == VP_EMISMATCH && strstr(st.error, "root"),
	       "a rank with another root in a broadcast: the mismatch is "
	       "named (rc %d): %s",
	       rc, st.error);
	rc = vp_run(&o, failing, rcs, &st);
	for (i = 0; i < 8; i++)
		if (i != 2 && rcs[i] != VP_EABORT)
			aborted = 0;
	tap_ok(rc == VP_EINVAL && st.error_rank == 2 && aborted,
	       "a failing rank: the others' all-reduce returns VP_EABORT, the "
	       "run rank 2's error (rc %d, rank %d)",
	       rc, st.error_rank);
}

int main(void)
{
	test_same_as_messages();
	test_policy();
	test_trials();
	test_results();
	test_many_signatures();
	test_always_sent();
	test_root_leaves_early();
	test_posted_across();
	test_wrong_programs();
	return tap_done();
}
