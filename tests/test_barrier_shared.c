/*
 * test_barrier_shared.c - vp_barrier where the ranks share memory and
 * outnumber the CPUs meets at one counter instead of sending the
 * dissemination barrier's messages (vp_coll_dissemination), and nothing a
 * program can see changes (where the ranks do not outnumber the CPUs the
 * messages are sent, and the same figures hold):
 *   - every rank's model time after every barrier, the run's model time,
 *     its congested time, messages, bytes, link load and supersteps are
 *     those of the same program traced (a traced run sends the messages),
 *     under alpha-beta on multi-hop topologies, LogP, LogGP, with ranks
 *     arriving at different model times and with messages of their own in
 *     flight, as threads and as fibers, on sub-communicators too;
 *   - a rank with a receive posted across the barrier: the barrier sends
 *     its messages and the receive completes;
 *   - a rank that never arrives, or calls another collective: the same
 *     deadlock report and mismatch error as the messages give;
 *   - a failing rank: the waiting ranks' vp_barrier returns VP_EABORT;
 *   - 1024 ranks asleep at a barrier (128 under the sanitizers and
 *     valgrind; woken by one system call where the kernel has
 *     futex_waitv): woken together, each parks again in a receive and
 *     is woken by its message; a failing rank and a rank that never
 *     arrives end such a run as with 8 ranks;
 *   - vp_coll_dissemination itself: 1 on a collective communicator of the
 *     threads transport, 0 on a user communicator.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"
#include "vp/vp_layer.h"

#define ROUNDS 12
#define MAXP 64

/* Whether p ranks outnumber this machine's CPUs: then the barrier sends
 * no messages. */
static int crowded(int p)
{
	return p > sysconf(_SC_NPROCESSORS_ONLN);
}

/* every rank's model time after each barrier */
struct times {
	double at[MAXP][ROUNDS];
	int sub; /* 1: barriers on two halves between the world's */
};

/* Ranks reach each barrier at different model times (vp_compute) and with
 * a message of their own to the next rank in flight. */
static int staggered(vp_comm *c, void *arg)
{
	struct times *t = arg;
	int p = vp_size(c), r = vp_rank(c), k, x = r, y, rc = 0;
	vp_comm *half = NULL;

	if (t->sub && (rc = vp_comm_split(c, r % 2, r, &half)))
		return rc;
	for (k = 0; k < ROUNDS && !rc; k++) {
		vp_compute(c, (double)((r * 7 + k * 3) % 11));
		if (p > 1)
			rc = vp_sendrecv(c, (r + 1) % p, &x, sizeof(x),
					 (r + p - 1) % p, &y, sizeof(y));
		if (!rc && half && k % 3 == 1)
			rc = vp_barrier(half);
		if (!rc)
			rc = vp_barrier(c);
		if (r % 3 == 0) /* arrive late in real time too */
			sched_yield();
		t->at[r][k] = vp_time(c);
	}
	if (half)
		vp_comm_free(half);
	return rc;
}

struct run {
	vp_stats st;
	struct times t;
	int rc;
};

static void run_one(const char *topo, const char *model, int fibers,
		    int traced, int sub, struct run *out)
{
	vp_opts o = { .topology = topo, .model = model, .fibers = fibers,
		      .ts = 10, .tw = 1, .th = 3, .quiet = 1 };

	memset(out, 0, sizeof(*out));
	out->t.sub = sub;
	if (traced)
		o.trace = "/dev/null";
	out->rc = vp_run(&o, staggered, &out->t, &out->st);
}

static int same_times(const struct run *a, const struct run *b, int p,
		      int *bad_rank, int *bad_round)
{
	int r, k;

	for (r = 0; r < p; r++)
		for (k = 0; k < ROUNDS; k++)
			if (a->t.at[r][k] != b->t.at[r][k]) {
				*bad_rank = r;
				*bad_round = k;
				return 0;
			}
	return 1;
}

static void test_same_as_messages(void)
{
	static const struct {
		const char *topo, *model;
		int fibers, sub;
	} cases[] = {
		{ "ring:13", NULL, 0, 0 },
		{ "mesh:3x4", NULL, 0, 1 },
		{ "hypercube:3", "loggp:L=7,o=2,g=3,G=0.5", 0, 0 },
		{ "full:8", "logp:L=5,o=1,g=4", 0, 1 },
		{ "tree:8", NULL, 0, 0 },
		{ "torus:4x4", "alpha-beta:saf", 0, 0 },
		{ "ring:64", NULL, 0, 1 },
		{ "ring:13", NULL, 1, 0 },
		{ "full:64", "logp:L=5,o=1,g=4", 1, 1 },
	};
	static struct run shared, sent;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int br = -1, bk = -1, ok;

		run_one(cases[i].topo, cases[i].model, cases[i].fibers, 0,
			cases[i].sub, &shared);
		run_one(cases[i].topo, cases[i].model, cases[i].fibers, 1,
			cases[i].sub, &sent);
		ok = shared.rc == 0 && sent.rc == 0 &&
		     same_times(&shared, &sent, shared.st.p, &br, &bk);
		tap_ok(ok && shared.st.model_time == sent.st.model_time &&
			   shared.st.model_time_congested ==
			       sent.st.model_time_congested &&
			   shared.st.messages == sent.st.messages &&
			   shared.st.bytes == sent.st.bytes &&
			   shared.st.max_link_load == sent.st.max_link_load &&
			   shared.st.supersteps == sent.st.supersteps &&
			   (shared.st.mailboxes < sent.st.mailboxes ||
			    !crowded(shared.st.p)),
		       "%s, %s%s%s: every rank's time after each of %d barriers "
		       "and the run's figures as when the messages are sent "
		       "(model %.17g / %.17g, congested %.17g / %.17g, "
		       "%llu / %llu messages, supersteps %llu / %llu; first "
		       "difference rank %d round %d), with fewer mailboxes "
		       "where the ranks outnumber the CPUs (%zu / %zu: no "
		       "barrier messages)",
		       cases[i].topo, cases[i].model ? cases[i].model
						      : "alpha-beta",
		       cases[i].fibers ? ", fibers" : "",
		       cases[i].sub ? ", halves too" : "", ROUNDS,
		       shared.st.model_time, sent.st.model_time,
		       shared.st.model_time_congested,
		       sent.st.model_time_congested,
		       (unsigned long long)shared.st.messages,
		       (unsigned long long)sent.st.messages,
		       (unsigned long long)shared.st.supersteps,
		       (unsigned long long)sent.st.supersteps, br, bk,
		       shared.st.mailboxes, sent.st.mailboxes);
	}
}

/* 500 barriers of 64 ranks with nothing else: each costs ceil(log2 64)
 * startups, and the ranks arrive in a different real-time order each
 * time. */
static int many(vp_comm *c, void *arg)
{
	int k, rc = 0, r = vp_rank(c);

	(void)arg;
	for (k = 0; k < 500 && !rc; k++) {
		if ((r + k) % 5 == 0)
			sched_yield();
		rc = vp_barrier(c);
	}
	return rc;
}

static void test_many(void)
{
	int fibers;

	for (fibers = 0; fibers < 2; fibers++) {
		vp_opts o = { .topology = "full:64", .ts = 1, .fibers = fibers };
		vp_stats st;
		int rc = vp_run(&o, many, NULL, &st);

		tap_ok(rc == 0 && st.model_time == 6 * 500 &&
			   st.messages == 64 * 6 * 500 &&
			   (st.mailboxes == 0 || !crowded(64)),
		       "500 barriers of 64 %s: model time %g (6 x 500 ts), "
		       "%llu messages charged, %zu mailboxes made",
		       fibers ? "fibers" : "threads", st.model_time,
		       (unsigned long long)st.messages, st.mailboxes);
	}
}

/* Rank 0 has a receive posted across the barrier; rank 1 sends after it. */
static int posted_across(vp_comm *c, void *arg)
{
	int *got = arg, x = 42, rc;
	vp_request r;

	if (vp_rank(c) == 0) {
		got[0] = 0;
		if ((rc = vp_irecv(c, 1, 5, &got[0], sizeof(int), &r)) ||
		    (rc = vp_barrier(c)))
			return rc;
		return vp_wait(&r, NULL);
	}
	if ((rc = vp_barrier(c)))
		return rc;
	return vp_rank(c) == 1 ? vp_send_tag(c, 0, 5, &x, sizeof(x)) : 0;
}

static void test_posted_across(void)
{
	vp_opts o = { .topology = "full:4", .ts = 1 };
	vp_stats st;
	int got[1] = { -1 };
	int rc = vp_run(&o, posted_across, got, &st);

	tap_ok(rc == 0 && got[0] == 42 && st.messages == 4 * 2 + 1 &&
		   st.mailboxes > 0,
	       "a receive posted across the barrier: the barrier sends its "
	       "messages (%zu mailboxes), then the receive completes (%d; "
	       "%llu messages)",
	       st.mailboxes, got[0], (unsigned long long)st.messages);
}

/* Rank 5 returns without the barrier. */
static int missing(vp_comm *c, void *arg)
{
	(void)arg;
	return vp_rank(c) == 5 ? 0 : vp_barrier(c);
}

/* Rank 1 broadcasts while the others enter the barrier. */
static int mismatched(vp_comm *c, void *arg)
{
	int x = 0;

	(void)arg;
	if (vp_rank(c) == 1)
		return vp_bcast(c, &x, 1, VP_INT32, 1, VP_ALG_AUTO);
	return vp_barrier(c);
}

/* Rank 2 fails; the others wait in the barrier. */
static int failing(vp_comm *c, void *arg)
{
	int *rcs = arg;

	if (vp_rank(c) == 2)
		return VP_EINVAL;
	rcs[vp_rank(c)] = vp_barrier(c);
	return rcs[vp_rank(c)] == VP_EABORT ? 0 : 1;
}

static void test_wrong_programs(void)
{
	vp_opts o = { .topology = "full:8", .quiet = 1 };
	vp_stats st;
	int rcs[8] = { 0 }, rc, i, aborted = 1;

	rc = vp_run(&o, missing, NULL, &st);
	tap_ok(rc == VP_EMISMATCH && st.report &&
		   strstr(st.report, "rank 5 made 0 collective calls") &&
		   strstr(st.report, "in vp_barrier (its vp_sendrecv) waits "
				     "for rank 5, which has exited"),
	       "a rank that never arrives: the report the barrier's messages "
	       "give (rc %d, below)",
	       rc);
	tap_diag("%s", st.report ? st.report : st.error);
	rc = vp_run(&o, mismatched, NULL, &st);
	tap_ok(rc == VP_EMISMATCH && strstr(st.error, "vp_bcast") &&
		   strstr(st.error, "vp_barrier"),
	       "a rank in another collective: the mismatch is named (rc %d): "
	       "%s",
	       rc, st.error);
	rc = vp_run(&o, failing, rcs, &st);
	for (i = 0; i < 8; i++)
		if (i != 2 && rcs[i] != VP_EABORT)
			aborted = 0;
	tap_ok(rc == VP_EINVAL && st.error_rank == 2 && aborted,
	       "a failing rank: the waiting ranks' vp_barrier returns "
	       "VP_EABORT, the run rank 2's error (rc %d, rank %d)",
	       rc, st.error_rank);
}

/* Many sleepers at one barrier (BIG ranks), woken together: each round a
 * barrier, then a ring exchange whose receive finds its message missing
 * for a third of the ranks (their senders yield first), so that a rank
 * woken at the barrier parks again at once, in a receive, and must be
 * woken there by its message. Every value received is checked. */
#define BIG 1024
#define BIG_ROUNDS 20

static int barrier_then_receive(vp_comm *c, void *arg)
{
	int p = vp_size(c), r = vp_rank(c), k, x, y, rc = 0;
	const int *rounds = arg;

	for (k = 0; k < *rounds && !rc; k++) {
		rc = vp_barrier(c);
		if (!rc && (r + k) % 3 == 0)
			sched_yield();
		x = r * 100 + k;
		if (!rc)
			rc = vp_sendrecv(c, (r + 1) % p, &x, sizeof(x),
					 (r + p - 1) % p, &y, sizeof(y));
		if (!rc && y != (r + p - 1) % p * 100 + k)
			return VP_EINVAL;
	}
	return rc;
}

/* Rank 7 fails while the others sleep at the barrier. */
static int failing_late(vp_comm *c, void *arg)
{
	int *rcs = arg;

	if (vp_rank(c) == 7) {
		usleep(20000);
		return VP_EINVAL;
	}
	rcs[vp_rank(c)] = vp_barrier(c);
	return rcs[vp_rank(c)] == VP_EABORT ? 0 : 1;
}

static void test_many_sleepers(void)
{
	static int rcs[BIG];
	char topo[32];
	/* under the sanitizers and valgrind: 128 ranks, 8 rounds */
	int quick = getenv("VP_TEST_QUICK") != NULL;
	int p = quick ? BIG / 8 : BIG, rounds = quick ? 8 : BIG_ROUNDS;
	int rc, i, aborted = 1;
	vp_opts o = { .topology = topo, .ts = 1, .quiet = 1 };
	vp_stats st;

	snprintf(topo, sizeof(topo), "full:%d", p);
	rc = vp_run(&o, barrier_then_receive, &rounds, &st);
	/* each round: log2 p startups, then one message */
	tap_ok(rc == 0 && st.model_time == rounds * (quick ? 8 : 11),
	       "%d rounds of a barrier of %d ranks, then a receive that "
	       "parks: every value arrives, model time %g (rc %d)",
	       rounds, p, st.model_time, rc);
	rc = vp_run(&o, failing_late, rcs, &st);
	for (i = 0; i < p; i++)
		if (i != 7 && rcs[i] != VP_EABORT)
			aborted = 0;
	tap_ok(rc == VP_EINVAL && st.error_rank == 7 && aborted,
	       "%d ranks asleep at a barrier, rank 7 fails: every one "
	       "returns VP_EABORT (rc %d, rank %d)",
	       p, rc, st.error_rank);
	rc = vp_run(&o, missing, NULL, &st);
	tap_ok(rc == VP_EMISMATCH && st.report &&
		   strstr(st.report, "rank 5 made 0 collective calls"),
	       "%d ranks asleep at a barrier that rank 5 never calls: the "
	       "run reports it (rc %d)",
	       p, rc);
}

/* vp_coll_dissemination on the collective twin after vp_coll_begin. */
static int direct_call(vp_comm *c, void *arg)
{
	int *says = arg;
	vp_coll_sig sig = { .call = "my_barrier", .type = -1, .op = -1,
			    .root = -1 };
	int rc;

	if ((rc = vp_coll_begin(c, &sig)))
		return rc;
	says[vp_rank(c)] = vp_coll_dissemination(vp_coll_comm(c));
	return 0;
}

/* ... and, wrongly, on the user's communicator. */
static int wrong_comm(vp_comm *c, void *arg)
{
	int *says = arg;

	says[vp_rank(c)] = vp_coll_dissemination(c);
	return says[vp_rank(c)];
}

static void test_direct_call(void)
{
	vp_opts o = { .topology = "full:4", .ts = 1 };
	vp_stats st;
	int says[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
	int rc = vp_run(&o, direct_call, says, &st), want = crowded(4);

	tap_ok(rc == 0 && says[0] == want && says[1] == want &&
		   says[2] == want && says[3] == want &&
		   st.model_time == 2 * want &&
		   st.messages == (uint64_t)(8 * want),
	       "vp_coll_dissemination: %d on the collective communicator of 4 "
	       "ranks on %ld CPUs (1: it charged 2 rounds; model %g, %llu "
	       "messages)",
	       says[0], sysconf(_SC_NPROCESSORS_ONLN), st.model_time,
	       (unsigned long long)st.messages);
	o.quiet = 1;
	rc = vp_run(&o, wrong_comm, says, &st);
	tap_ok(rc == VP_EINVAL && says[st.error_rank] == VP_EINVAL &&
		   strstr(st.error, "vp_coll_dissemination: the communicator "
				    "is not a collective one"),
	       "vp_coll_dissemination on a user's communicator fails the run "
	       "naming the rank and the call (rc %d): %s",
	       rc, st.error);
	o.topology = "full:2"; /* fewer ranks than CPUs here: messages */
	says[0] = says[1] = -1;
	rc = vp_run(&o, direct_call, says, &st);
	tap_ok(rc == 0 && says[0] == crowded(2) && says[1] == crowded(2),
	       "vp_coll_dissemination with 2 ranks on %ld CPUs: %d (0: the "
	       "caller sends the messages, faster when every rank has a CPU)",
	       sysconf(_SC_NPROCESSORS_ONLN), says[0]);
}

int main(void)
{
	test_same_as_messages();
	test_many();
	test_posted_across();
	test_wrong_programs();
	test_many_sleepers();
	test_direct_call();
	return tap_done();
}
