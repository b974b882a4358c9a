/*
 * test_p2p.c - point-to-point semantics: ping-pong, ring pass, all pairs,
 * every message size class (eager and rendezvous), every length up to
 * 600 bytes, FIFO per pair, sendrecv,
 * exchanges of medium messages at once and with a late partner,
 * rendezvous messages taken after their sender parked or copied by both
 * ends, messages to self, sub-communicators, barrier, and p = 4096 (1024 under
 * the sanitizers and valgrind, VP_TEST_QUICK: there a hand-off between
 * 4096 threads costs a hundred times more and the code paths are the same).
 *
 * Rank threads never assert: they count mismatches in per-rank slots and the
 * main thread checks them after vp_run has joined the ranks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "vp.h"

#define MAXP 4096

/* The large run's p: 4096, or 1024 under VP_TEST_QUICK. */
static int big_p(void)
{
	return getenv("VP_TEST_QUICK") ? 1024 : 4096;
}

struct ctx {
	size_t size;	   /* message size under test */
	int one_way;	   /* every_length: sent one way and back */
	int bad[MAXP];	   /* mismatches seen by each rank */
	long first_bad[MAXP]; /* first bad index, -1 if none */
};

/* Byte i of a message from src to dst with sequence number seq. */
static unsigned char pattern(int src, int dst, int seq, size_t i)
{
	return (unsigned char)(src * 131 + dst * 31 + seq * 7 + i * 13 +
			       (i >> 8));
}

static void fill(unsigned char *b, size_t n, int src, int dst, int seq)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pattern(src, dst, seq, i);
}

static void verify(struct ctx *x, int me, const unsigned char *b, size_t n,
		   int src, int dst, int seq)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != pattern(src, dst, seq, i)) {
			if (!x->bad[me]++)
				x->first_bad[me] = (long)i;
		}
}

static int total_bad(struct ctx *x, int p)
{
	int r, t = 0;

	for (r = 0; r < p; r++) {
		if (x->bad[r] && t == 0)
			tap_diag("rank %d: %d bad bytes, first at index %ld", r,
				 x->bad[r], x->first_bad[r]);
		t += x->bad[r];
	}
	return t;
}

static struct ctx *new_ctx(size_t size)
{
	struct ctx *x = calloc(1, sizeof(*x));

	x->size = size;
	return x;
}

/* ---- ping-pong of every size class ---- */

static int pingpong(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), rc, it;
	unsigned char *b = malloc(x->size ? x->size : 1);

	for (it = 0; it < 3; it++) {
		if (me == 0) {
			fill(b, x->size, 0, 1, it);
			if ((rc = vp_send(c, 1, b, x->size)) ||
			    (rc = vp_recv(c, 1, b, x->size)))
				goto out;
			verify(x, me, b, x->size, 1, 0, it);
		} else {
			memset(b, 0, x->size);
			if ((rc = vp_recv(c, 0, b, x->size)))
				goto out;
			verify(x, me, b, x->size, 0, 1, it);
			fill(b, x->size, 1, 0, it);
			if ((rc = vp_send(c, 0, b, x->size)))
				goto out;
		}
	}
out:
	free(b);
	return rc;
}

static void test_size_classes(void)
{
	size_t em = 4096;
	size_t sizes[] = {0, 1, em - 1, em, em + 1, (size_t)16 << 20};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		vp_opts o = {.topology = "line:2", .eager_max = em};
		struct ctx *x = new_ctx(sizes[i]);
		vp_stats st;
		int rc = vp_run(&o, pingpong, x, &st);
		tap_ok(rc == VP_OK && total_bad(x, 2) == 0 &&
			       st.messages == 6 && st.bytes == 6 * sizes[i],
		       "ping-pong %zu bytes (eager_max %zu): data intact, 6 "
		       "messages, %zu bytes counted",
		       sizes[i], em, 6 * sizes[i]);
		free(x);
	}
	{
		/* the default eager limit, 64 KiB, both sides of it */
		vp_opts o = {.topology = "line:2"};
		struct ctx *x = new_ctx(VP_DEFAULT_EAGER_MAX + 1);
		int rc = vp_run(&o, pingpong, x, NULL);
		tap_ok(rc == VP_OK && total_bad(x, 2) == 0,
		       "ping-pong 64 KiB + 1 with the default eager limit");
		free(x);
	}
}

/* ---- ring pass: a token goes round twice, each rank adds its id ---- */

static int ring_pass(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), rc, lap;
	int64_t token = 0;

	for (lap = 0; lap < 2; lap++) {
		if (me == 0) {
			if ((rc = vp_send(c, 1 % p, &token, sizeof(token))) ||
			    (rc = vp_recv(c, p - 1, &token, sizeof(token))))
				return rc;
			if (token != (int64_t)(lap + 1) * p * (p - 1) / 2)
				x->bad[me]++;
		} else {
			if ((rc = vp_recv(c, me - 1, &token, sizeof(token))))
				return rc;
			token += me;
			if ((rc = vp_send(c, (me + 1) % p, &token,
					  sizeof(token))))
				return rc;
		}
	}
	return VP_OK;
}

static void test_ring_pass(void)
{
	char big[16];
	const char *const specs[] = {"ring:2", "ring:5", "ring:64", big};
	size_t i;

	snprintf(big, sizeof(big), "ring:%d", big_p());

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		vp_opts o = {.topology = specs[i], .strict = 1};
		struct ctx *x = new_ctx(8);
		vp_stats st;
		int rc = vp_run(&o, ring_pass, x, &st);
		tap_ok(rc == VP_OK && total_bad(x, st.p) == 0 &&
			       st.messages == 2 * (uint64_t)st.p,
		       "ring pass on %s (strict): token sums correct, %d "
		       "messages; %.3f s, %zu mailboxes",
		       specs[i], 2 * st.p, st.wall_seconds, st.mailboxes);
		free(x);
	}
}

/* ---- all pairs on full:16, in a deadlock-free order ---- */

static int all_pairs(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), k, rc;
	unsigned char *sb = malloc(x->size), *rb = malloc(x->size);

	/* Step k: send to me+k, receive from me-k (a shift permutation). */
	for (k = 1; k < p; k++) {
		int dst = (me + k) % p, src = (me - k + p) % p;
		fill(sb, x->size, me, dst, k);
		rc = vp_sendrecv(c, dst, sb, x->size, src, rb, x->size);
		if (rc)
			goto out;
		verify(x, me, rb, x->size, src, me, k);
	}
	rc = VP_OK;
out:
	free(sb);
	free(rb);
	return rc;
}

static void test_all_pairs(void)
{
	size_t sizes[] = {8, 100000};
	size_t i;

	for (i = 0; i < 2; i++) {
		vp_opts o = {.topology = "full:16", .strict = 1};
		struct ctx *x = new_ctx(sizes[i]);
		vp_stats st;
		int rc = vp_run(&o, all_pairs, x, &st);
		tap_ok(rc == VP_OK && total_bad(x, 16) == 0 &&
			       st.messages == 16 * 15 && st.mailboxes == 16 * 15,
		       "all pairs on full:16, %zu bytes: every message intact, "
		       "240 mailboxes",
		       sizes[i]);
		free(x);
	}
}

/* ---- every length from 0 to 600 bytes (in a fastbox slot, in its
 * extension, past it), at every offset mod 8 of the receive buffer, which
 * is larger than the message: the message arrives byte for byte and the
 * bytes around it stay as they were ---- */

enum { LONGEST = 600, GUARD = 64 };

static void verify_guards(struct ctx *x, int me, const unsigned char *rb,
			  size_t off, size_t n)
{
	size_t i;

	for (i = 0; i < off + n + GUARD; i++)
		if ((i < off || i >= off + n) && rb[i] != 0xA5 &&
		    !x->bad[me]++)
			x->first_bad[me] = (long)i;
}

/* Both ranks exchange each length (vp_sendrecv), or with x->one_way rank
 * 0 sends it and rank 1 sends it back (vp_send, vp_recv). */
static int every_length(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), peer = 1 - me, rc = VP_OK;
	unsigned char *sb = malloc(LONGEST);
	unsigned char *rb = malloc(8 + LONGEST + GUARD);
	size_t n;

	for (n = 0; n <= LONGEST && !rc; n++) {
		size_t off = n % 8;

		fill(sb, n, me, peer, (int)n);
		memset(rb, 0xA5, 8 + LONGEST + GUARD);
		if (!x->one_way)
			rc = vp_sendrecv(c, peer, sb, n, peer, rb + off,
					 n + GUARD);
		else if (me == 0 && !(rc = vp_send(c, peer, sb, n)))
			rc = vp_recv(c, peer, rb + off, n + GUARD);
		else if (me == 1 && !(rc = vp_recv(c, peer, rb + off,
						   n + GUARD)))
			rc = vp_send(c, peer, sb, n);
		if (!rc) {
			verify(x, me, rb + off, n, peer, me, (int)n);
			verify_guards(x, me, rb, off, n);
		}
	}
	free(sb);
	free(rb);
	return rc;
}

static void test_every_length(void)
{
	static const char *const how[] = { "exchanged (vp_sendrecv)",
					   "sent one way and back" };
	int k;

	for (k = 0; k < 2; k++) {
		vp_opts o = { .topology = "full:2" };
		struct ctx *x = new_ctx(0);
		int rc;

		x->one_way = k;
		rc = vp_run(&o, every_length, x, NULL);

		tap_ok(rc == VP_OK && total_bad(x, 2) == 0,
		       "every length 0-%d bytes %s, at every offset mod 8: "
		       "intact, the bytes around it untouched",
		       LONGEST, how[k]);
		free(x);
	}
}

/* ---- exchanges of medium messages: the send half waits a little for the
 * partner's receive, or goes eager when the partner comes late ---- */

enum { EXCHANGES = 500 };

/* Both ranks exchange at once, EXCHANGES times, of x->size bytes each. */
static int exchange_together(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), peer = 1 - me, k, rc = VP_OK;
	unsigned char *sb = malloc(x->size), *rb = malloc(x->size);

	for (k = 0; k < EXCHANGES && !rc; k++) {
		fill(sb, x->size, me, peer, k);
		rc = vp_sendrecv(c, peer, sb, x->size, peer, rb, x->size);
		if (!rc)
			verify(x, me, rb, x->size, peer, me, k);
	}
	free(sb);
	free(rb);
	return rc;
}

/* Rank 0 sends one message, then exchanges; rank 1 exchanges late (after
 * 2 ms) and so first takes the message sent before the exchange, then the
 * exchange's with a plain receive: order per pair holds however the send
 * half went (straight into a lent buffer, or eager after waiting). */
static int exchange_late(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), rc;
	unsigned char *a = malloc(x->size), *b = malloc(x->size);
	struct timespec pause = { 0, 2000000 };

	if (me == 0) {
		fill(a, x->size, 0, 1, 1);
		if (!(rc = vp_send(c, 1, a, x->size))) {
			fill(a, x->size, 0, 1, 2);
			rc = vp_sendrecv(c, 1, a, x->size, 1, b, x->size);
		}
		if (!rc)
			verify(x, me, b, x->size, 1, 0, 3);
	} else {
		nanosleep(&pause, NULL);
		fill(a, x->size, 1, 0, 3);
		rc = vp_sendrecv(c, 0, a, x->size, 0, b, x->size);
		if (!rc) {
			verify(x, me, b, x->size, 0, 1, 1);
			rc = vp_recv(c, 0, b, x->size);
		}
		if (!rc)
			verify(x, me, b, x->size, 0, 1, 2);
	}
	free(a);
	free(b);
	return rc;
}

static void test_exchanges(void)
{
	size_t sizes[] = { 200, 16384, 65536 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		vp_opts o = { .topology = "full:2" };
		struct ctx *x = new_ctx(sizes[i]);
		vp_stats st;
		int rc = vp_run(&o, exchange_together, x, &st);

		tap_ok(rc == VP_OK && total_bad(x, 2) == 0 &&
			       st.messages == 2 * EXCHANGES,
		       "%d exchanges of %zu bytes at once: every byte "
		       "received, in order",
		       EXCHANGES, sizes[i]);
		free(x);
		x = new_ctx(sizes[i]);
		rc = vp_run(&o, exchange_late, x, &st);
		tap_ok(rc == VP_OK && total_bad(x, 2) == 0 &&
			       st.messages == 3 && st.unreceived == 0,
		       "a late partner's exchange of %zu bytes takes the "
		       "message sent before it first, then the exchange's",
		       sizes[i]);
		free(x);
	}
}

/* ---- a sender parked on its rendezvous ---- */

enum { LATE_BYTES = 8 << 20, LATE_SENDS = 3 };

/* Busy for ms milliseconds of wall time: a rank that keeps a CPU. */
static void busy_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 +
		       (t.tv_nsec - t0.tv_nsec) / 1000000 <
	       ms);
}

/* Rank 0 sends LATE_SENDS rendezvous messages to rank 1, which takes
 * each 20 ms late: rank 0 has parked by then, and is woken when rank 1
 * starts copying (a CPU is free for it) or when it is done (none is:
 * ranks 2 and up keep the CPUs busy meanwhile). */
static int late_receiver(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	struct timespec late = { 0, 20000000 };
	int me = vp_rank(c), k, rc = VP_OK;
	unsigned char *b;

	if (me > 1) {
		busy_ms(LATE_SENDS * 25);
		return VP_OK;
	}
	b = malloc(LATE_BYTES);
	for (k = 0; k < LATE_SENDS && !rc; k++) {
		if (me == 0) {
			fill(b, LATE_BYTES, 0, 1, k);
			rc = vp_send(c, 1, b, LATE_BYTES);
		} else {
			nanosleep(&late, NULL);
			memset(b, 0, LATE_BYTES);
			rc = vp_recv(c, 0, b, LATE_BYTES);
			if (!rc)
				verify(x, me, b, LATE_BYTES, 0, 1, k);
		}
	}
	free(b);
	return rc;
}

static void test_parked_sender(void)
{
	int p;

	for (p = 2; p <= 4; p += 2) {
		char spec[16];
		vp_opts o = { .topology = spec };
		struct ctx *x = new_ctx(LATE_BYTES);
		vp_stats st;
		int rc;

		snprintf(spec, sizeof(spec), "full:%d", p);
		rc = vp_run(&o, late_receiver, x, &st);
		tap_ok(rc == VP_OK && total_bad(x, p) == 0 &&
			       st.messages == LATE_SENDS &&
			       st.unreceived == 0,
		       "p = %d: %d messages of %d MiB, each received 20 ms "
		       "after its sender parked, arrive whole and wake it%s",
		       p, LATE_SENDS, LATE_BYTES >> 20,
		       p > 2 ? " (two more ranks busy on the CPUs)" : "");
		free(x);
	}
}

/* ---- a rendezvous copied by both ends ---- */

enum { SHARED_ROUNDS = 20, SLACK = 100 };

/* Rank 0 sends x->size bytes, rank 1 receives them into a buffer SLACK
 * bytes longer and answers with the same: the receiver copies from the
 * front while the waiting sender copies from the back (64 KiB chunks);
 * every byte lands once and in place, none past the message. */
static int shared_copy(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), peer = 1 - me, k, rc = VP_OK;
	unsigned char *sb = malloc(x->size), *rb = malloc(x->size + SLACK);
	size_t got, i;

	for (k = 0; k < SHARED_ROUNDS && !rc; k++) {
		int from_me = me == k % 2; /* the ranks take turns */

		if (from_me) {
			fill(sb, x->size, me, peer, k);
			rc = vp_send(c, peer, sb, x->size);
			continue;
		}
		memset(rb, 0xEE, x->size + SLACK);
		rc = vp_recv_len(c, peer, rb, x->size + SLACK, &got);
		if (rc)
			break;
		if (got != x->size)
			x->bad[me]++;
		verify(x, me, rb, x->size, peer, me, k);
		for (i = x->size; i < x->size + SLACK; i++)
			if (rb[i] != 0xEE && !x->bad[me]++)
				x->first_bad[me] = (long)i;
	}
	free(sb);
	free(rb);
	return rc;
}

static void test_shared_copy(void)
{
	size_t sizes[] = { (size_t)128 << 10, ((size_t)128 << 10) + 1,
			   ((size_t)1 << 20) + 7, (size_t)5 << 20 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		vp_opts o = { .topology = "full:2" };
		struct ctx *x = new_ctx(sizes[i]);
		vp_stats st;
		int rc = vp_run(&o, shared_copy, x, &st);

		tap_ok(rc == VP_OK && total_bad(x, 2) == 0 &&
			       st.messages == SHARED_ROUNDS &&
			       st.bytes == SHARED_ROUNDS * sizes[i],
		       "%d rendezvous messages of %zu bytes, copied by both "
		       "ends, into buffers %d bytes longer: every byte in "
		       "place, none past the message",
		       SHARED_ROUNDS, sizes[i], SLACK);
		free(x);
	}
}

/* ---- FIFO: a burst of mixed eager/rendezvous messages keeps order ---- */

static int fifo(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), k, rc;
	size_t n;
	unsigned char *b = malloc(3 * x->size);

	for (k = 0; k < 200; k++) {
		n = (size_t)(k % 3) * x->size + (size_t)k; /* mixes protocols */
		if (me == 0) {
			fill(b, n, 0, 1, k);
			if ((rc = vp_send(c, 1, b, n)))
				goto out;
		} else {
			size_t got = 0;
			if ((rc = vp_recv_len(c, 0, b, 3 * x->size, &got)))
				goto out;
			if (got != n)
				x->bad[me]++;
			verify(x, me, b, got, 0, 1, k);
		}
	}
	rc = VP_OK;
out:
	free(b);
	return rc;
}

static void test_fifo(void)
{
	vp_opts o = {.topology = "line:2", .eager_max = 1000};
	struct ctx *x = new_ctx(1000);
	int rc = vp_run(&o, fifo, x, NULL);

	tap_ok(rc == VP_OK && total_bad(x, 2) == 0,
	       "200 messages of mixed protocols arrive in send order, with "
	       "their lengths");
	free(x);
}

/* ---- messages to self ---- */

static int to_self(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), rc;
	unsigned char a[64], b[64];
	unsigned char *big = malloc(200000), *big2 = malloc(200000);

	fill(a, 64, me, me, 0);
	/* eager to self: buffered, then received */
	if ((rc = vp_send(c, me, a, 64)) || (rc = vp_recv(c, me, b, 64)))
		goto out;
	verify(x, me, b, 64, me, me, 0);
	/* rendezvous to self works inside sendrecv */
	fill(big, 200000, me, me, 1);
	if ((rc = vp_sendrecv(c, me, big, 200000, me, big2, 200000)))
		goto out;
	verify(x, me, big2, 200000, me, me, 1);
out:
	free(big);
	free(big2);
	return rc;
}

static void test_self(void)
{
	vp_opts o = {.topology = "ring:3", .strict = 1};
	struct ctx *x = new_ctx(0);
	int rc = vp_run(&o, to_self, x, NULL);

	tap_ok(rc == VP_OK && total_bad(x, 3) == 0,
	       "messages to self: eager send then recv, rendezvous sendrecv");
	free(x);
}

/* ---- sub-communicators and barrier ---- */

static int split_rows(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), rc, sum = 0, v, i;
	vp_comm *row, *rev;

	/* rows of a 3x4 mesh: color = row, key = column */
	if ((rc = vp_comm_split(c, me / 4, me % 4, &row)))
		return rc;
	if (vp_size(row) != 4 || vp_rank(row) != me % 4 ||
	    vp_world_rank(row, 0) != me - me % 4)
		x->bad[me]++;
	/* a user message on the sub-communicator: everyone sends its world
	 * rank to sub-rank 0, which sums them */
	if (vp_rank(row) == 0) {
		for (i = 1; i < 4; i++) {
			if ((rc = vp_recv(row, i, &v, sizeof(v))))
				return rc;
			sum += v;
		}
		if (sum != 3 * me + 6)
			x->bad[me]++;
	} else if ((rc = vp_send(row, 0, &me, sizeof(me)))) {
		return rc;
	}
	if ((rc = vp_barrier(row)))
		return rc;
	/* reversed order by key; odd ranks stay out */
	if ((rc = vp_comm_split(c, me % 2 ? VP_UNDEFINED : 0, -me, &rev)))
		return rc;
	if (me % 2) {
		if (rev)
			x->bad[me]++;
	} else {
		if (!rev || vp_size(rev) != 6 || vp_rank(rev) != 5 - me / 2)
			x->bad[me]++;
		if (rev && (rc = vp_barrier(rev)))
			return rc;
		/* a status names the source in the sub-communicator's
		 * ranks, whose world ranks here decrease: each sends its
		 * sub-rank to sub-rank 0, which receives from any source,
		 * blocking and nonblocking */
		if (rev && vp_rank(rev) == 0) {
			for (i = 1; i < 6; i++) {
				vp_status s;
				vp_request q;

				if ((rc = i % 2 ? vp_recv_tag(rev, VP_ANY_SOURCE,
							      7, &v, sizeof(v),
							      &s)
						: vp_irecv(rev, VP_ANY_SOURCE, 7,
							   &v, sizeof(v), &q) ?:
						  vp_wait(&q, &s)))
					return rc;
				if (s.source != v)
					x->bad[me]++;
			}
		} else if (rev) {
			v = vp_rank(rev);
			if ((rc = vp_send_tag(rev, 0, 7, &v, sizeof(v))))
				return rc;
		}
		vp_comm_free(rev);
	}
	vp_comm_free(row);
	return vp_barrier(c);
}

static void test_split(void)
{
	vp_opts o = {.topology = "mesh:3x4", .ts = 10, .tw = 1};
	struct ctx *x = new_ctx(0);
	vp_stats st;
	int rc = vp_run(&o, split_rows, x, &st);

	tap_ok(rc == VP_OK && total_bad(x, 12) == 0,
	       "comm_split: rows by color, order by key, VP_UNDEFINED stays out, "
	       "statuses name sub-ranks");
	/* 3 user messages per row, barriers: rows of 4 (2 rounds x 4),
	 * evens of 6 (3 rounds x 6, and 5 user messages), world of 12 (4
	 * rounds x 12) */
	tap_ok(st.messages == 9 + 3 * 8 + 18 + 5 + 48,
	       "split's own exchanges are not counted: %llu messages",
	       (unsigned long long)st.messages);
	free(x);
}

static int barrier_many(vp_comm *c, void *arg)
{
	int i, rc;

	(void)arg;
	for (i = 0; i < 50; i++)
		if ((rc = vp_barrier(c)))
			return rc;
	return VP_OK;
}

static void test_barrier(void)
{
	static const char *const specs[] = {"full:1", "full:2", "full:3",
					    "full:7", "full:64"};
	size_t i;

	for (i = 0; i < 5; i++) {
		vp_opts o = {.topology = specs[i], .ts = 1};
		vp_stats st;
		int rc = vp_run(&o, barrier_many, NULL, &st), lg = 0;
		while ((1 << lg) < st.p)
			lg++;
		tap_ok(rc == VP_OK && st.model_time == 50.0 * lg &&
			       st.messages == (uint64_t)50 * lg * st.p,
		       "50 barriers on %s: model time 50 x ceil(log2 p) ts = %g",
		       specs[i], st.model_time);
	}
}

/* ---- p = 4096 (1024 quick): one ring exchange and one barrier ---- */

static int ring_exchange_barrier(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), rc, got = -1;

	rc = vp_sendrecv(c, (me + 1) % p, &me, sizeof(me), (me - 1 + p) % p,
			 &got, sizeof(got));
	if (rc)
		return rc;
	if (got != (me - 1 + p) % p)
		x->bad[me]++;
	return vp_barrier(c);
}

static void test_big(void)
{
	int p = big_p(), lg = p == 4096 ? 12 : 10;
	char spec[16];
	vp_opts o = {.topology = spec};
	struct ctx *x = new_ctx(0);
	vp_stats st;
	int rc;

	snprintf(spec, sizeof(spec), "ring:%d", p);
	rc = vp_run(&o, ring_exchange_barrier, x, &st);
	/* a message each, then the barrier's log2 p rounds of one each */
	tap_ok(rc == VP_OK && total_bad(x, p) == 0 &&
		       st.messages == (uint64_t)p * (1 + lg),
	       "%s exchange + barrier: %.3f s wall, %zu mailboxes, "
	       "%zu KiB runtime memory",
	       spec, st.wall_seconds, st.mailboxes, st.peak_bytes / 1024);
	free(x);
}

int main(void)
{
	test_size_classes();
	test_every_length();
	test_ring_pass();
	test_all_pairs();
	test_exchanges();
	test_parked_sender();
	test_shared_copy();
	test_fifo();
	test_self();
	test_split();
	test_barrier();
	test_big();
	return tap_done();
}
