/*
 * test_safe_exchange.c - MPI's "safe" exchanges complete, whatever the
 * protocol, and are never reported as deadlocks.
 *
 * MPI 4.0, sec. 3.5 ("Progress"): if a send and a matching receive have
 * been started on two processes, at least one of them completes, whatever
 * else the system does; and sec. 3.4: a synchronous send completes once
 * its matching receive has started. So a program that posts its receives
 * first and then sends is safe: a send whose matching receive is already
 * posted never waits for its receiver's program to reach a receive call.
 * Each rank here posts its receive, the ranks meet in a barrier (so every
 * receive is posted before any send starts and every sender then blocks
 * at once), and then sends:
 *   - sizes 0, 8, eager_max - 1, eager_max, eager_max + 1, 100 KiB and
 *     4 MiB (the fastbox, eager, direct and rendezvous paths);
 *   - vp_send_tag, vp_ssend_tag, vp_isend then a wait;
 *   - completed by vp_wait, vp_waitall, vp_waitany or a vp_test loop;
 *   - between pairs (rank ^ 1) and around rings of p = 2, 3, 8 and 64;
 *   - receives naming the source and the tag, or VP_ANY_SOURCE, or
 *     VP_ANY_TAG;
 * every byte received, and the status, is checked, and nothing is written
 * past the message. make check runs this under threads and again under
 * fibers (VP_FIBERS=1). VP_TEST_QUICK (the sanitizer and valgrind passes)
 * keeps p <= 8 and 4 MiB at p = 2.
 * A third rank in between: rank 0 posts a receive from rank 1 and then
 * blocks in another call that waits for rank 2 (a receive, a probe, a
 * wait, a waitall on a second receive, a synchronous or rendezvous send,
 * a bcast, barrier or all-reduce of a sub-communicator, a window fence),
 * while rank 1 sends to rank 0 (synchronous 8 B, or 100 KiB) before it
 * releases rank 2. Rank 1's send must complete while rank 0 is blocked
 * elsewhere (its posted receive makes the message deliverable).
 * Real deadlocks stay reported: a posted receive that does not match
 * (another tag, another source) leaves the cycle, and vp_run names it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define MAXP 64
#define MIB4 ((size_t)4 << 20)

enum send_mode { SEND, SSEND, ISEND, NSEND };
enum done_mode { WAIT, WAITALL, WAITANY, TESTLOOP, NDONE };
enum pattern { PAIR, RING };
enum wild { NAMED, ANY_SRC, ANY_TAG_W };

static const char *send_name[] = { "vp_send_tag", "vp_ssend_tag",
				   "vp_isend" };
static const char *done_name[] = { "vp_wait", "vp_waitall", "vp_waitany",
				   "vp_test loop" };
static const char *wild_name[] = { "source and tag named", "VP_ANY_SOURCE",
				   "VP_ANY_TAG" };

#define NSIZE 7
#define ROUNDS (NSIZE * NSEND * NDONE)

struct plan {
	int p, pattern, wild;
};

/* per rank, per round: 1 done and every byte right, 2 skipped, -1 wrong,
 * 0 not reached; why: the first wrong thing a rank saw */
static int result[MAXP][ROUNDS];
static int quick_most_p = 3; /* 4 MiB rounds up to this p */
static char why[MAXP][160];

static void sizes_of(size_t e, size_t s[NSIZE])
{
	s[0] = 0;
	s[1] = 8;
	s[2] = e - 1;
	s[3] = e;
	s[4] = e + 1;
	s[5] = 100 * 1024;
	s[6] = MIB4;
}

static unsigned char byte_of(int src, size_t i, int round)
{
	return (unsigned char)(src * 31 + i * 7 + (size_t)round * 13 + 1);
}

/* Completes the receive rq (and the send sq, when not null) as mode says;
 * the receive's status in *st. */
static int complete(int mode, vp_request *sq, vp_request *rq, vp_status *st)
{
	vp_request reqs[2] = { *sq, *rq };
	vp_status sts[2], one;
	int rc, idx, done;

	switch (mode) {
	case WAIT:
		if ((rc = vp_wait(sq, NULL)))
			return rc;
		return vp_wait(rq, st);
	case WAITALL:
		rc = vp_waitall(2, reqs, sts);
		*st = sts[1];
		*sq = reqs[0];
		*rq = reqs[1];
		return rc;
	case WAITANY:
		for (;;) {
			if ((rc = vp_waitany(2, reqs, &idx, &one)))
				return rc;
			if (idx < 0)
				break;
			if (idx == 1)
				*st = one;
		}
		*sq = reqs[0];
		*rq = reqs[1];
		return VP_OK;
	default:
		while (*sq || *rq) {
			if (*sq && (rc = vp_test(sq, &done, NULL)))
				return rc;
			if (*rq && (rc = vp_test(rq, &done, &one)))
				return rc;
			if (!*rq && done)
				*st = one, done = 0;
		}
		return VP_OK;
	}
}

static int check_round(int me, int round, int src, int tag, size_t n,
		       const unsigned char *rb, const vp_status *st)
{
	size_t i;

	if (st->source != src || st->tag != tag || st->bytes != n) {
		snprintf(why[me], sizeof(why[me]),
			 "round %d: status source %d tag %d bytes %zu, "
			 "expected %d %d %zu",
			 round, st->source, st->tag, st->bytes, src, tag, n);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (rb[i] != byte_of(src, i, round)) {
			snprintf(why[me], sizeof(why[me]),
				 "round %d: byte %zu from rank %d is %u, "
				 "expected %u",
				 round, i, src, rb[i], byte_of(src, i, round));
			return -1;
		}
	if (rb[n] != 0xEE) {
		snprintf(why[me], sizeof(why[me]),
			 "round %d: byte %zu past the message was written",
			 round, n);
		return -1;
	}
	return 1;
}

/* One round: post the receive, meet, send, complete, check. */
static int one_round(vp_comm *c, const struct plan *pl, int round, size_t n,
		     int smode, int dmode, unsigned char *sb, unsigned char *rb)
{
	int me = vp_rank(c), p = vp_size(c), rc, tag = round % 100;
	int to = pl->pattern == PAIR ? me ^ 1 : (me + 1) % p;
	int from = pl->pattern == PAIR ? me ^ 1 : (me + p - 1) % p;
	vp_request sq = VP_REQUEST_NULL, rq;
	vp_status st = { -9, -9, 0, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		sb[i] = byte_of(me, i, round);
	memset(rb, 0xEE, n + 1);
	if ((rc = vp_irecv(c, pl->wild == ANY_SRC ? VP_ANY_SOURCE : from,
			   pl->wild == ANY_TAG_W ? VP_ANY_TAG : tag, rb, n,
			   &rq)))
		return rc;
	if ((rc = vp_barrier(c))) /* every receive is posted now */
		return rc;
	if (smode == SEND)
		rc = vp_send_tag(c, to, tag, sb, n);
	else if (smode == SSEND)
		rc = vp_ssend_tag(c, to, tag, sb, n);
	else
		rc = vp_isend(c, to, tag, sb, n, &sq);
	if (rc || (rc = complete(dmode, &sq, &rq, &st)))
		return rc;
	result[me][round] = check_round(me, round, from, tag, n, rb, &st);
	return VP_OK;
}

static int exchange(vp_comm *c, void *arg)
{
	const struct plan *pl = arg;
	int me = vp_rank(c), s, m, k, round = 0, rc = VP_OK;
	size_t sz[NSIZE], most = pl->p <= quick_most_p ? MIB4 : 100 * 1024;
	unsigned char *sb = malloc(most + 1), *rb = malloc(most + 1);

	if (!sb || !rb)
		goto out;
	sizes_of(vp_eager_max(c), sz);
	for (s = 0; s < NSIZE; s++)
		for (m = 0; m < NSEND; m++)
			for (k = 0; k < NDONE; k++, round++) {
				if (sz[s] > most) { /* 4 MiB: p <= 8 */
					result[me][round] = 2;
					continue;
				}
				rc = one_round(c, pl, round, sz[s], m, k, sb,
					       rb);
				if (rc)
					goto out;
			}
out:
	free(sb);
	free(rb);
	return rc;
}

static void run_plan(int p, int pattern, int wild)
{
	char topo[32];
	struct plan pl = { p, pattern, wild };
	vp_opts o = { .topology = topo, .quiet = 1 };
	vp_stats st;
	size_t sz[NSIZE];
	int rc, s, m, k, r, round = 0;

	snprintf(topo, sizeof(topo), "full:%d", p);
	memset(result, 0, sizeof(result));
	memset(why, 0, sizeof(why));
	rc = vp_run(&o, exchange, &pl, &st);
	if (rc)
		tap_diag("p=%d %s %s: vp_run: %s", p,
			 pattern == PAIR ? "pairs" : "ring", wild_name[wild],
			 st.report ? st.report : st.error);
	sizes_of(64 * 1024, sz);
	for (s = 0; s < NSIZE; s++)
		for (m = 0; m < NSEND; m++)
			for (k = 0; k < NDONE; k++, round++) {
				int good = 1, skipped = 1, bad = -1;

				for (r = 0; r < p; r++) {
					skipped &= result[r][round] == 2;
					good &= result[r][round] >= 1;
					if (result[r][round] < 0 && bad < 0)
						bad = r;
				}
				if (skipped)
					continue;
				tap_ok(good,
				       "%s p=%d, %s: receives posted, then "
				       "%s of %s, %s: completes with every "
				       "byte",
				       pattern == PAIR ? "pairs" : "ring", p,
				       wild_name[wild], send_name[m],
				       s == 0	? "0 B"
				       : s == 1 ? "8 B"
				       : s == 2 ? "eager_max - 1"
				       : s == 3 ? "eager_max"
				       : s == 4 ? "eager_max + 1"
				       : s == 5 ? "100 KiB"
						: "4 MiB",
				       done_name[k]);
				if (bad >= 0)
					tap_diag("rank %d: %s", bad, why[bad]);
			}
}

/* ---- a third rank in between ---- */

enum between {
	B_RECV,
	B_PROBE,
	B_WAIT,
	B_WAITALL,
	B_SSEND,
	B_RDV_SEND,
	B_ISEND_WAIT,
	B_BCAST,
	B_BARRIER,
	B_ALLREDUCE,
	B_FENCE,
	NBETWEEN
};
static const char *between_name[] = {
	"vp_recv_tag from rank 2",
	"vp_probe for rank 2",
	"vp_wait on a receive from rank 2",
	"vp_waitall on both receives",
	"vp_ssend_tag to rank 2",
	"vp_send_tag of 100 KiB to rank 2",
	"vp_isend of 100 KiB to rank 2 and vp_wait",
	"vp_bcast from rank 2 on a sub-communicator",
	"vp_barrier on a sub-communicator",
	"vp_allreduce on a sub-communicator",
	"vp_win_fence on a sub-communicator's window",
};

struct third {
	int between; /* what rank 0 blocks in */
	size_t n;    /* rank 1's message to rank 0 */
	int sync;    /* ... sent by vp_ssend_tag */
	int real;    /* 0: safe; 1: rank 0's receive takes tag 9, never sent */
};

static int third_ok[3];
static char third_why[3][160];

#define BIG (100 * 1024)

/* Rank 0: what waits for rank 2, with its receive from rank 1 posted. */
static int third_rank0(vp_comm *c, vp_comm *sub, const struct third *t,
		       unsigned char *buf)
{
	int x = 0, y = 0, rc;
	vp_request q[2] = { VP_REQUEST_NULL, VP_REQUEST_NULL };
	vp_status st;
	vp_win *win = NULL;

	switch (t->between) {
	case B_RECV:
		return vp_recv_tag(c, 2, 3, &x, sizeof(x), NULL);
	case B_PROBE:
		if ((rc = vp_probe(c, 2, 3, &st)))
			return rc;
		return vp_recv_tag(c, 2, 3, &x, sizeof(x), NULL);
	case B_WAIT:
	case B_WAITALL:
		if ((rc = vp_irecv(c, 2, 3, &x, sizeof(x), &q[0])))
			return rc;
		return t->between == B_WAIT ? vp_wait(&q[0], NULL)
					    : vp_waitall(2, q, NULL);
	case B_SSEND:
		return vp_ssend_tag(c, 2, 3, &x, sizeof(x));
	case B_RDV_SEND:
		return vp_send_tag(c, 2, 3, buf, BIG);
	case B_ISEND_WAIT:
		if ((rc = vp_isend(c, 2, 3, buf, BIG, &q[0])))
			return rc;
		return vp_wait(&q[0], NULL);
	case B_BCAST:
		return vp_bcast(sub, &x, 1, VP_INT32, 1, VP_ALG_AUTO);
	case B_BARRIER:
		return vp_barrier(sub);
	case B_ALLREDUCE:
		return vp_allreduce(sub, &x, &y, 1, VP_INT32, VP_SUM,
				    VP_ALG_AUTO);
	default:
		if ((rc = vp_win_create(sub, &y, sizeof(y), &win)) ||
		    (rc = vp_win_fence(win)))
			return rc;
		return vp_win_free(win);
	}
}

/* Rank 2: released by rank 1, then does rank 0's counterpart. */
static int third_rank2(vp_comm *c, vp_comm *sub, const struct third *t,
		       unsigned char *buf)
{
	int x = 5, y = 0, rc;
	vp_win *win = NULL;

	if (t->between == B_FENCE &&
	    (rc = vp_win_create(sub, &y, sizeof(y), &win)))
		return rc;
	if ((rc = vp_recv_tag(c, 1, 2, &y, sizeof(y), NULL)))
		return rc;
	switch (t->between) {
	case B_SSEND:
		return vp_recv_tag(c, 0, 3, &y, sizeof(y), NULL);
	case B_RDV_SEND:
	case B_ISEND_WAIT:
		return vp_recv_tag(c, 0, 3, buf, BIG, NULL);
	case B_BCAST:
		return vp_bcast(sub, &x, 1, VP_INT32, 1, VP_ALG_AUTO);
	case B_BARRIER:
		return vp_barrier(sub);
	case B_ALLREDUCE:
		return vp_allreduce(sub, &x, &y, 1, VP_INT32, VP_SUM,
				    VP_ALG_AUTO);
	case B_FENCE:
		if ((rc = vp_win_fence(win)))
			return rc;
		return vp_win_free(win);
	default:
		return vp_send_tag(c, 0, 3, &x, sizeof(x));
	}
}

static int third(vp_comm *c, void *arg)
{
	const struct third *t = arg;
	int me = vp_rank(c), rc, one = 1;
	unsigned char *buf = calloc(1, BIG), *rb = malloc(BIG);
	vp_request q = VP_REQUEST_NULL;
	vp_comm *sub = NULL;
	size_t i;

	if (!buf || !rb) {
		rc = VP_ENOMEM;
		goto out;
	}
	/* ranks 0 and 2 in one sub-communicator (rank 2 its rank 1) */
	if ((rc = vp_comm_split(c, me == 1, me, &sub)))
		goto out;
	if (me == 0 && (rc = vp_irecv(c, 1, t->real ? 9 : 1, rb, t->n, &q)))
		goto out;
	if ((rc = vp_barrier(c))) /* rank 0's receive is posted */
		goto out;
	if (me == 0) {
		if ((rc = third_rank0(c, sub, t, buf)) ||
		    (rc = vp_wait(&q, NULL)))
			goto out;
		for (i = 0; i < t->n; i++)
			if (rb[i] != byte_of(1, i, 0)) {
				snprintf(third_why[0], sizeof(third_why[0]),
					 "byte %zu is %u, expected %u", i,
					 rb[i], byte_of(1, i, 0));
				goto out;
			}
	} else if (me == 1) {
		for (i = 0; i < t->n; i++)
			buf[i] = byte_of(1, i, 0);
		rc = t->sync ? vp_ssend_tag(c, 0, 1, buf, t->n)
			     : vp_send_tag(c, 0, 1, buf, t->n);
		if (rc || (rc = vp_send_tag(c, 2, 2, &one, sizeof(one))))
			goto out;
	} else if ((rc = third_rank2(c, sub, t, buf))) {
		goto out;
	}
	third_ok[me] = 1;
out:
	if (sub && !rc)
		rc = vp_comm_free(sub);
	free(buf);
	free(rb);
	return rc;
}

static void run_third(int between, size_t n, int sync)
{
	struct third t = { between, n, sync, 0 };
	vp_opts o = { .topology = "full:3", .quiet = 1 };
	vp_stats st;
	int rc;

	memset(third_ok, 0, sizeof(third_ok));
	memset(third_why, 0, sizeof(third_why));
	rc = vp_run(&o, third, &t, &st);
	tap_ok(rc == VP_OK && third_ok[0] && third_ok[1] && third_ok[2] &&
		   !third_why[0][0],
	       "p=3: rank 0 posts a receive from rank 1, then blocks in "
	       "%s; rank 1's %s of %zu B to rank 0 completes",
	       between_name[between],
	       sync ? "vp_ssend_tag" : "vp_send_tag", n);
	if (rc)
		tap_diag("vp_run: %s", st.report ? st.report : st.error);
	if (third_why[0][0])
		tap_diag("rank 0: %s", third_why[0]);
}

/* ---- real deadlocks stay reported ---- */

static int head_to_head(vp_comm *c, void *arg)
{
	int me = vp_rank(c), other = me ^ 1, rc;
	char out[8] = "abcdefg", in[8];
	vp_request q;

	(void)arg;
	/* the receive takes tag 5; the sends carry tag 6 */
	if ((rc = vp_irecv(c, other, 5, in, sizeof(in), &q)) ||
	    (rc = vp_barrier(c)) ||
	    (rc = vp_ssend_tag(c, other, 6, out, sizeof(out))))
		return rc;
	return vp_wait(&q, NULL);
}

static void real_deadlocks(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_opts o3 = { .topology = "full:3", .quiet = 1 };
	struct third t = { B_RECV, 8, 1, 1 };
	vp_stats st;
	int rc;

	rc = vp_run(&o, head_to_head, NULL, &st);
	tap_ok(rc == VP_EDEADLOCK && strstr(st.error, "cycle: 0 -> 1 -> 0") &&
		   strstr(st.error, "vp_ssend_tag"),
	       "p=2: receives posted for tag 5, synchronous sends of tag "
	       "6 head to head: a deadlock, reported with its cycle");
	if (rc != VP_EDEADLOCK)
		tap_diag("vp_run returned %d: %s", rc, st.error);
	/* rank 0's posted receive takes tag 9: rank 1's ssend is not its */
	rc = vp_run(&o3, third, &t, &st);
	tap_ok(rc == VP_EDEADLOCK &&
		   strstr(st.error, "cycle: 0 -> 2 -> 1 -> 0"),
	       "p=3: rank 0 blocked in a receive from 2, 2 in one from 1, "
	       "1 in a synchronous send to 0 that 0's posted receive does "
	       "not match: a deadlock, reported with its cycle");
	if (rc != VP_EDEADLOCK || !strstr(st.error, "cycle: 0 -> 2 -> 1 -> 0"))
		tap_diag("vp_run returned %d: %s", rc, st.error);
}

int main(void)
{
	static const int ps[] = { 2, 3, 8 };
	const char *q = getenv("VP_TEST_QUICK");
	int quick = q && *q && strcmp(q, "0");
	int i, b, wild;

	if (quick)
		quick_most_p = 2;
	for (i = 0; i < 3; i++)
		for (wild = NAMED; wild <= ANY_TAG_W; wild++)
			run_plan(ps[i], RING, wild);
	run_plan(8, PAIR, NAMED);
	if (!quick) {
		run_plan(64, RING, NAMED);
		run_plan(64, PAIR, ANY_SRC);
	}
	for (b = 0; b < NBETWEEN; b++) {
		run_third(b, 8, 1);
		run_third(b, BIG, 0);
	}
	real_deadlocks();
	return tap_done();
}
