/*
 * test_direct.c - the one-copy hand-off: a receiver already waiting for a
 * message lends its buffer, and the sender copies straight into it.
 *   - the bytes arrive whole at the eager and the rendezvous sizes; eager
 *     sends to a waiting receiver are counted in vp_stats.direct_messages
 *     (a sleeping sender makes the receiver wait first in almost every
 *     round; the test asks for one round in ten), rendezvous ones never
 *     are (the receiver pulls them from the sender's buffer);
 *   - receives into buffers no larger than a fastbox slot's payload never
 *     lend (64 bytes); a one-way receive of a medium message (512 bytes,
 *     which the slot's extension could carry) lends, so the waiting
 *     receiver is not made to copy the data out of the sender's lines;
 *     the receive half of an exchange of 512 bytes does not (the
 *     fastbox's hand-offs beat a loan's there), nor a reduction's of 512;
 *     513 bytes lend in every case;
 *   - medium messages through the fastbox's extension: more of them than
 *     it has slots (the rest queue), received in another order than sent
 *     (by tag, so some wait aside), arrive whole and in order per tag,
 *     and the extension (2 KiB) is counted in vp_stats.peak_bytes;
 *   - an irecv posted before its send lends its buffer at once, so the
 *     send is one copy every time; a lent receive keeps MPI's rule that a
 *     message goes to the oldest posted receive that matches it;
 *   - vp_sendrecv lends its receive buffer before its send leaves, so one
 *     of the two messages of an exchange is one copy at least;
 *   - a waiting receive for tag 5 is not filled by a tag-7 message: that
 *     one waits aside and is received afterwards, in order;
 *   - a message larger than the waiting buffer is never written into it:
 *     the receive fails with VP_ETRUNC, and the bytes past it are intact;
 *   - order per pair holds when lent buffers, fastbox slots and queued
 *     messages mix (random sizes, the receiver sometimes late);
 *   - a receiver waiting with its buffer lent takes part in deadlock
 *     detection, and an abort while it waits ends the run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "late_rank.h"
#include "tap.h"
#include "vp.h"

#define ROUNDS 10

struct result {
	int bad;      /* wrong bytes or lengths seen by rank 1 */
	int rc;       /* the receive's result, where a test wants it */
	int guard_ok; /* bytes past a short buffer untouched */
};

static struct result res;
static int bad_of[2]; /* per rank, where both ranks check */
static size_t msg_size;

static unsigned char byte_of(int round, size_t i)
{
	return (unsigned char)(round * 37 + i * 11 + (i >> 9));
}

/* Rank 0 sleeps, so rank 1 is usually waiting when the message leaves. */
static int late_sender(vp_comm *c, void *arg)
{
	unsigned char *b = malloc(msg_size);
	int round, rc = VP_OK;
	size_t i;

	(void)arg;
	for (round = 0; round < ROUNDS && !rc; round++) {
		if (vp_rank(c) == 0) {
			for (i = 0; i < msg_size; i++)
				b[i] = byte_of(round, i);
			/* 10 ms, longer where no round found the receiver
			 * waiting (late_rank.h) */
			late_rank_sleep();
			rc = vp_send(c, 1, b, msg_size);
		} else {
			memset(b, 0, msg_size);
			rc = vp_recv(c, 0, b, msg_size);
			for (i = 0; i < msg_size; i++)
				res.bad += b[i] != byte_of(round, i);
		}
	}
	free(b);
	return rc;
}

/* ROUNDS exchanges of msg_size bytes; rank 0 sleeps before each, so rank 1
 * is usually waiting in its half when rank 0's message leaves. */
static int exchanger(vp_comm *c, void *arg)
{
	int me = vp_rank(c), round, rc = VP_OK;
	unsigned char *out = malloc(msg_size), *in = malloc(msg_size);
	size_t i;

	(void)arg;
	for (round = 0; round < ROUNDS && !rc && out && in; round++) {
		for (i = 0; i < msg_size; i++)
			out[i] = byte_of(round + me, i);
		if (me == 0)
			late_rank_sleep();
		rc =
		    vp_sendrecv(c, 1 - me, out, msg_size, 1 - me, in, msg_size);
		for (i = 0; !rc && i < msg_size; i++)
			bad_of[me] += in[i] != byte_of(round + 1 - me, i);
	}
	rc = rc ? rc : out && in ? VP_OK : VP_ENOMEM;
	free(out);
	free(in);
	return rc;
}

/* ROUNDS sums of 128 4-byte integers (512 bytes) at rank 0; rank 1 sleeps
 * first, so the root is usually waiting for its message. */
static int late_reducer(vp_comm *c, void *arg)
{
	int32_t mine[128], sum[128];
	int me = vp_rank(c), round, i, rc = VP_OK;

	(void)arg;
	for (round = 0; round < ROUNDS && !rc; round++) {
		for (i = 0; i < 128; i++)
			mine[i] = round * 1000 + i + me;
		if (me == 1)
			late_rank_sleep();
		rc = vp_reduce(c, mine, sum, 128, VP_INT32, VP_SUM, 0,
			       VP_ALG_AUTO);
		for (i = 0; !rc && me == 0 && i < 128; i++)
			bad_of[0] += sum[i] != 2 * (round * 1000 + i) + 1;
	}
	return rc;
}

static void test_sizes(void)
{
	/* eager (1 KiB, 64 KiB = eager_max), rendezvous (64 KiB + 1, 1 MiB) */
	static const size_t sizes[] = { 1024, 65536, 65537, 1 << 20 };
	vp_opts o = { .topology = "full:2" };
	vp_stats st;
	size_t k;
	int rc;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		memset(&res, 0, sizeof(res));
		msg_size = sizes[k];
		rc = msg_size <= VP_DEFAULT_EAGER_MAX
			 ? run_until_direct(&o, late_sender, NULL, &st, 10000)
			 : vp_run(&o, late_sender, NULL, &st);
		tap_ok(rc == VP_OK && res.bad == 0,
		       "%zu-byte messages to a waiting receiver arrive whole "
		       "(rc %d, %d bad bytes)",
		       msg_size, rc, res.bad);
		if (msg_size <= VP_DEFAULT_EAGER_MAX)
			tap_ok(st.direct_messages >= 1 &&
				   st.direct_messages <= ROUNDS,
			       "%zu bytes: %llu of %d sends copied straight "
			       "into the waiting buffer (at least 1)",
			       msg_size, (unsigned long long)st.direct_messages,
			       ROUNDS);
		else
			tap_ok(st.direct_messages == 0,
			       "%zu bytes (above eager_max): the waiting "
			       "receiver copies from the sender's buffer, the "
			       "sender never writes into the loan (%llu direct)",
			       msg_size,
			       (unsigned long long)st.direct_messages);
	}
	for (k = 0; k < 3; k++) {
		static const size_t small[] = { 64, 512, 513 };

		memset(&res, 0, sizeof(res));
		msg_size = small[k];
		rc = k < 1 ? vp_run(&o, late_sender, NULL, &st)
			   : run_until_direct(&o, late_sender, NULL, &st,
					      10000);
		if (k < 1)
			tap_ok(rc == VP_OK && res.bad == 0 &&
				   st.direct_messages == 0,
			       "%zu-byte receives do not lend their buffer: "
			       "they take the fastbox (rc %d, %d bad, %llu "
			       "direct)",
			       msg_size, rc, res.bad,
			       (unsigned long long)st.direct_messages);
		else
			tap_ok(rc == VP_OK && res.bad == 0 &&
				   st.direct_messages >= 1,
			       "%zu-byte one-way receives lend their buffer "
			       "(rc %d, %d bad, %llu direct)",
			       msg_size, rc, res.bad,
			       (unsigned long long)st.direct_messages);
	}
	for (k = 0; k < 2; k++) {
		memset(&res, 0, sizeof(res));
		memset(bad_of, 0, sizeof(bad_of));
		msg_size = k ? 513 : 512;
		rc = k ? run_until_direct(&o, exchanger, NULL, &st, 10000)
		       : vp_run(&o, exchanger, NULL, &st);
		tap_ok(rc == VP_OK && !bad_of[0] && !bad_of[1] &&
			   (k ? st.direct_messages >= 1
			      : st.direct_messages == 0),
		       "%zu-byte exchanges (vp_sendrecv, one partner late): "
		       "whole, and %s (rc %d, %llu direct)",
		       msg_size,
		       k ? "their receives lend their buffers"
			 : "their receives do not lend: the fastbox",
		       rc, (unsigned long long)st.direct_messages);
	}
	memset(bad_of, 0, sizeof(bad_of));
	rc = vp_run(&o, late_reducer, NULL, &st);
	tap_ok(rc == VP_OK && !bad_of[0] && st.direct_messages == 0,
	       "a reduction of 512 bytes to a waiting root: right, and its "
	       "receive does not lend (rc %d, %d bad, %llu direct)",
	       rc, bad_of[0], (unsigned long long)st.direct_messages);
}

/* ---- medium messages: the fastbox's extension ---- */

#define MEDIUM_MSGS 12
#define MEDIUM_BYTES 300

/* Rank 0 sends MEDIUM_MSGS messages of MEDIUM_BYTES, tag k % 3, before
 * rank 1 receives any (a barrier between): four fit the fastbox, the rest
 * queue. Rank 1 takes tag 2's first, then tag 1's, then tag 0's, so the
 * others wait aside; each tag's come in send order. */
static int medium_aside(vp_comm *c, void *arg)
{
	unsigned char b[MEDIUM_BYTES];
	int k, t, rc;
	size_t i;

	(void)arg;
	if (vp_rank(c) == 0) {
		for (k = 0; k < MEDIUM_MSGS; k++) {
			for (i = 0; i < sizeof(b); i++)
				b[i] = byte_of(k, i);
			if ((rc = vp_send_tag(c, 1, k % 3, b, sizeof(b))))
				return rc;
		}
		return vp_barrier(c);
	}
	if ((rc = vp_barrier(c)))
		return rc;
	for (t = 2; t >= 0; t--)
		for (k = t; k < MEDIUM_MSGS; k += 3) {
			memset(b, 0, sizeof(b));
			if ((rc = vp_recv_tag(c, 0, t, b, sizeof(b), NULL)))
				return rc;
			for (i = 0; i < sizeof(b); i++)
				res.bad += b[i] != byte_of(k, i);
		}
	return VP_OK;
}

/* The same run's figures with 300-byte and with 64-byte messages. */
static void test_medium(void)
{
	vp_opts o = { .topology = "full:2" };
	vp_stats st, small;
	int rc, rc_small;

	memset(&res, 0, sizeof(res));
	rc = vp_run(&o, medium_aside, NULL, &st);
	tap_ok(rc == VP_OK && res.bad == 0,
	       "%d medium messages, more than the fastbox holds, taken by "
	       "tag in another order: whole, each tag's in send order (rc "
	       "%d, %d bad bytes)",
	       MEDIUM_MSGS, rc, res.bad);
	/* exchanges: their medium messages take the fastbox's extension */
	msg_size = 64;
	memset(bad_of, 0, sizeof(bad_of));
	rc_small = vp_run(&o, exchanger, NULL, &small);
	msg_size = MEDIUM_BYTES;
	rc = vp_run(&o, exchanger, NULL, &st);
	tap_ok(rc == VP_OK && rc_small == VP_OK && !bad_of[0] && !bad_of[1] &&
		   st.peak_bytes >= small.peak_bytes + 4 * 512,
	       "the fastbox's extension is counted: peak %zu bytes with "
	       "%d-byte exchanges, %zu with 64-byte ones",
	       st.peak_bytes, MEDIUM_BYTES, small.peak_bytes);
}

/* ---- receives posted before the send ---- */

/* Rank 1 posts an irecv, then tells rank 0 to send: the buffer is lent at
 * the post, so every message goes straight into it. */
static int irecv_first(vp_comm *c, void *arg)
{
	unsigned char b[4096];
	int round, rc, go = 1;
	vp_request req;
	vp_status st;
	size_t i;

	(void)arg;
	for (round = 0; round < ROUNDS; round++) {
		if (vp_rank(c) == 0) {
			if ((rc = vp_recv(c, 1, &go, sizeof(go))))
				return rc;
			for (i = 0; i < sizeof(b); i++)
				b[i] = byte_of(round, i);
			if ((rc = vp_send_tag(c, 1, 3, b, sizeof(b))))
				return rc;
			continue;
		}
		memset(b, 0, sizeof(b));
		if ((rc = vp_irecv(c, 0, 3, b, sizeof(b), &req)) ||
		    (rc = vp_send(c, 0, &go, sizeof(go))) ||
		    (rc = vp_wait(&req, &st)))
			return rc;
		res.bad += st.bytes != sizeof(b) || st.source != 0 || st.tag != 3;
		for (i = 0; i < sizeof(b); i++)
			res.bad += b[i] != byte_of(round, i);
	}
	return VP_OK;
}

/* Rank 0 posts a receive from rank 1 (lent) and then one from any rank;
 * rank 1's first message fills the first straight, its second goes to the
 * wildcard receive. Rank 2 sends only after both completed, to a blocking
 * receive that may lend its buffer too. */
static int lent_then_wildcard(vp_comm *c, void *arg)
{
	char named[1024] = { 0 }, any[1024] = { 0 }, late[1024] = { 0 };
	char out[1024];
	vp_request req[2];
	vp_status st[2], sl;
	int rc, go = 1, me = vp_rank(c);

	(void)arg;
	if (me > 0) {
		if ((rc = vp_recv(c, 0, &go, sizeof(go))))
			return rc;
		memset(out, 'A' + me, sizeof(out));
		if ((rc = vp_send_tag(c, 0, 1, out, 700)))
			return rc;
		if (me == 2)
			return VP_OK;
		memset(out, 'a', sizeof(out));
		return vp_send_tag(c, 0, 1, out, 600);
	}
	if ((rc = vp_irecv(c, 1, 1, named, sizeof(named), &req[0])) ||
	    (rc = vp_irecv(c, VP_ANY_SOURCE, 1, any, sizeof(any), &req[1])) ||
	    (rc = vp_send(c, 1, &go, sizeof(go))) ||
	    (rc = vp_waitall(2, req, st)))
		return rc;
	res.bad += st[0].bytes != 700 || named[0] != 'B' || named[699] != 'B';
	if (st[1].source == 1) /* rank 1's second message */
		res.bad += st[1].bytes != 600 || any[0] != 'a';
	else
		res.bad++;
	if ((rc = vp_send(c, 2, &go, sizeof(go))) ||
	    (rc = vp_recv_tag(c, 2, 1, late, sizeof(late), &sl)))
		return rc;
	res.bad += sl.bytes != 700 || late[0] != 'C';
	return VP_OK;
}

/* Both ranks exchange with vp_sendrecv: each lends its receive buffer
 * before its send leaves, so the later sender of each round copies
 * straight into its partner's buffer. */
static int exchange(vp_comm *c, void *arg)
{
	unsigned char out[4096], in[4096];
	int round, rc, me = vp_rank(c);
	size_t i;

	(void)arg;
	for (round = 0; round < ROUNDS; round++) {
		for (i = 0; i < sizeof(out); i++)
			out[i] = byte_of(round + 100 * me, i);
		memset(in, 0, sizeof(in));
		if ((rc = vp_sendrecv(c, 1 - me, out, sizeof(out), 1 - me, in,
				      sizeof(in))))
			return rc;
		for (i = 0; i < sizeof(in); i++)
			bad_of[me] += in[i] != byte_of(round + 100 * (1 - me), i);
	}
	return VP_OK;
}

static void test_posted(void)
{
	vp_opts o2 = { .topology = "full:2" }, o3 = { .topology = "full:3" };
	vp_stats st;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = vp_run(&o2, irecv_first, NULL, &st);
	tap_ok(rc == VP_OK && res.bad == 0 && st.direct_messages == ROUNDS,
	       "an irecv posted before its send: all %d messages copied "
	       "straight into it (rc %d, bad %d, %llu direct)",
	       ROUNDS, rc, res.bad, (unsigned long long)st.direct_messages);
	memset(&res, 0, sizeof(res));
	bad_of[0] = bad_of[1] = 0;
	rc = vp_run(&o2, exchange, NULL, &st);
	res.bad = bad_of[0] + bad_of[1];
	tap_ok(rc == VP_OK && res.bad == 0 && st.direct_messages >= 1,
	       "vp_sendrecv lends its receive buffer before sending: %llu of "
	       "%d exchanged messages copied straight in (rc %d, bad %d)",
	       (unsigned long long)st.direct_messages, 2 * ROUNDS, rc,
	       res.bad);
	memset(&res, 0, sizeof(res));
	rc = vp_run(&o3, lent_then_wildcard, NULL, &st);
	tap_ok(rc == VP_OK && res.bad == 0 && st.direct_messages >= 1 &&
		   st.direct_messages <= 2,
	       "a lent receive takes its sender's first message, the older-"
	       "posted rule gives the second to the wildcard (rc %d, bad %d, "
	       "%llu direct)",
	       rc, res.bad, (unsigned long long)st.direct_messages);
}

/* ---- tags ---- */

static int tag_mismatch(vp_comm *c, void *arg)
{
	char b5[2048], b7[2048], out[1024];
	vp_status s5, s7;
	int rc;

	(void)arg;
	if (vp_rank(c) == 0) {
		usleep(3000); /* rank 1 waits for tag 5 with its buffer lent */
		memset(out, 7, sizeof(out));
		if ((rc = vp_send_tag(c, 1, 7, out, sizeof(out))))
			return rc;
		memset(out, 5, sizeof(out));
		return vp_send_tag(c, 1, 5, out, 512);
	}
	memset(b5, 0, sizeof(b5));
	memset(b7, 0, sizeof(b7));
	if ((rc = vp_recv_tag(c, 0, 5, b5, sizeof(b5), &s5)) ||
	    (rc = vp_recv_tag(c, 0, 7, b7, sizeof(b7), &s7)))
		return rc;
	res.bad = s5.tag != 5 || s5.bytes != 512 || b5[0] != 5 ||
		  b5[511] != 5 || b5[512] != 0 || s7.tag != 7 ||
		  s7.bytes != 1024 || b7[0] != 7 || b7[1023] != 7;
	return VP_OK;
}

static void test_tags(void)
{
	vp_opts o = { .topology = "full:2" };
	vp_stats st;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = vp_run(&o, tag_mismatch, NULL, &st);
	tap_ok(rc == VP_OK && res.bad == 0,
	       "a receive waiting for tag 5 is not filled by tag 7; both "
	       "arrive right (rc %d, bad %d)",
	       rc, res.bad);
}

/* ---- truncation ---- */

static int too_long(vp_comm *c, void *arg)
{
	unsigned char b[4096];
	int i, rc;

	(void)arg;
	if (vp_rank(c) == 0) {
		usleep(3000);
		memset(b, 1, sizeof(b));
		vp_send(c, 1, b, 3000);
		return VP_OK;
	}
	memset(b, 0xEE, sizeof(b));
	rc = vp_recv(c, 0, b, 1000);
	res.rc = rc;
	res.guard_ok = 1;
	for (i = 1000; i < (int)sizeof(b); i++)
		if (b[i] != 0xEE)
			res.guard_ok = 0;
	return rc;
}

static void test_truncation(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_stats st;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = vp_run(&o, too_long, NULL, &st);
	tap_ok(rc == VP_ETRUNC && res.rc == VP_ETRUNC && res.guard_ok &&
		   st.direct_messages == 0,
	       "3000 bytes to a waiting 1000-byte receive: VP_ETRUNC, nothing "
	       "written past the buffer (rc %d, guard %d)",
	       rc, res.guard_ok);
	tap_ok(strstr(st.error, "3000") && strstr(st.error, "1000"),
	       "the error names both sizes: %s", st.error);
}

/* ---- order through every channel ---- */

#define ORDER_MSGS 4000

static int mixed_order(vp_comm *c, void *arg)
{
	unsigned seed = 12345;
	static unsigned char out[2][70000], in[70000];
	int k, rc;
	size_t n;

	(void)arg;
	for (k = 0; k < ORDER_MSGS; k++) {
		seed = seed * 1103515245u + 12345u;
		/* fastbox, eager, and now and then rendezvous sizes */
		n = (seed >> 16) % 8 == 0 ? 66000 : (seed >> 8) % 3000;
		if (vp_rank(c) == 0) {
			unsigned char *b = out[k & 1];

			memset(b, k & 0xff, n);
			if (n >= 4)
				memcpy(b, &k, sizeof(k));
			if ((rc = vp_send(c, 1, b, n)))
				return rc;
		} else {
			size_t got = 0;
			int first = -1;

			if ((seed >> 20) % 5 == 0)
				usleep(50); /* late: messages pile up */
			if ((rc = vp_recv_len(c, 0, in, sizeof(in), &got)))
				return rc;
			if (got >= 4)
				memcpy(&first, in, sizeof(first));
			if (got != n || (got >= 4 && first != k) ||
			    (got > 4 && in[got - 1] != (unsigned char)(k & 0xff)))
				res.bad++;
		}
	}
	return VP_OK;
}

static void test_order(void)
{
	vp_opts o = { .topology = "full:2" };
	vp_stats st;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = vp_run(&o, mixed_order, NULL, &st);
	tap_ok(rc == VP_OK && res.bad == 0,
	       "%d messages of random sizes keep their order through the "
	       "lent buffers, fastbox and queue (rc %d, %d out of place, %llu "
	       "direct)",
	       ORDER_MSGS, rc, res.bad, (unsigned long long)st.direct_messages);
}

/* ---- deadlock and abort while a buffer is lent ---- */

static int both_receive(vp_comm *c, void *arg)
{
	char b[4096];

	(void)arg;
	return vp_recv(c, 1 - vp_rank(c), b, sizeof(b));
}

static int abort_while_waiting(vp_comm *c, void *arg)
{
	char b[4096];

	(void)arg;
	if (vp_rank(c) == 0) {
		usleep(3000);
		return vp_abort(c, 3, "test", "rank 0 gives up");
	}
	return vp_recv(c, 0, b, sizeof(b));
}

static void test_failures(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_stats st;
	int rc;

	rc = vp_run(&o, both_receive, NULL, &st);
	tap_ok(rc == VP_EDEADLOCK,
	       "two ranks each waiting with a lent 4 KiB buffer: deadlock "
	       "reported (rc %d: %s)",
	       rc, st.error);
	rc = vp_run(&o, abort_while_waiting, NULL, &st);
	tap_ok(rc != VP_OK && strstr(st.error, "rank 0 gives up"),
	       "an abort while rank 1 waits with its buffer lent ends the run "
	       "(rc %d: %s)",
	       rc, st.error);
}

int main(void)
{
	test_sizes();
	test_medium();
	test_posted();
	test_tags();
	test_truncation();
	test_order();
	test_failures();
	return tap_done();
}
