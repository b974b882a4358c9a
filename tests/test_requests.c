/*
 * test_requests.c - nonblocking point to point, wildcards and probe, as an
 * MPI programmer expects them:
 *   - vp_isend/vp_irecv with vp_wait, vp_waitall, vp_waitany, vp_test,
 *     vp_testall move the bytes, fill the status and null the request;
 *   - a message goes to the oldest posted receive that matches it, and a
 *     blocking receive never overtakes a posted one;
 *   - a rendezvous vp_isend does not wait for its receive to be posted;
 *   - a vp_issend completes only once its receive has taken the message
 *     (vp_test says not yet before), and two ranks that issend to each
 *     other before receiving deadlock, reported;
 *   - VP_ANY_SOURCE takes every sender's message once and says who sent it;
 *   - vp_probe tells the size before the receive, vp_iprobe says "none";
 *   - the model clock: sends leave the port in the order posted (three
 *     10-byte isends with ts = 100, tw = 1 arrive at 110, 220, 330), a
 *     receive completes at max(T at the wait, arrival);
 *   - misuse fails the run naming rank, call and value: a request waited
 *     twice, another rank's request, bad tag, negative count, VP_IN_PLACE,
 *     truncation, a rank returning with requests not completed;
 *   - deadlocks in vp_waitall, vp_wait, vp_probe and a wildcard receive are
 *     reported, naming the pending requests;
 *   - the ring and hypercube allgathers of Pacheco's "Parallel Programming
 *     with MPI" (1997, ch. 13), written with requests, agree with
 *     vp_allgather.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define MAXP 8

struct seen {
	int ok[MAXP];
	double t[MAXP][4];
	char why[MAXP][160];
};

static struct seen seen;

static void reset(void)
{
	memset(&seen, 0, sizeof(seen));
}

static int all_ok(int p)
{
	int i;

	for (i = 0; i < p; i++)
		if (!seen.ok[i])
			return 0;
	return 1;
}

/* ---- semantics ---- */

static int basic_waitall(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), i, rc;
	int out = 100 + me, in[MAXP] = { 0 };
	vp_request req[2 * MAXP];
	vp_status st[2 * MAXP];

	(void)arg;
	for (i = 0; i < p; i++)
		if ((rc = vp_irecv(c, i, 7, &in[i], sizeof(int), &req[i])))
			return rc;
	for (i = 0; i < p; i++)
		if ((rc = vp_isend(c, i, 7, &out, sizeof(int), &req[p + i])))
			return rc;
	if ((rc = vp_waitall(2 * p, req, st)))
		return rc;
	seen.ok[me] = 1;
	for (i = 0; i < p; i++)
		if (in[i] != 100 + i || st[i].source != i || st[i].tag != 7 ||
		    st[i].bytes != sizeof(int) || req[i] || req[p + i])
			seen.ok[me] = 0;
	return VP_OK;
}

/* The rendezvous isend returns before its receive is posted: the
 * receiver first waits for a later message of the same sender. */
static int rendezvous_isend(vp_comm *c, void *arg)
{
	size_t big = 4 * vp_eager_max(c);
	char *buf = calloc(1, big), small = 's';
	vp_request r;
	int rc;

	(void)arg;
	if (!buf)
		return VP_ENOMEM;
	if (vp_rank(c) == 0) {
		memset(buf, 'b', big);
		if (!(rc = vp_isend(c, 1, 1, buf, big, &r)) &&
		    !(rc = vp_send_tag(c, 1, 2, &small, 1)))
			rc = vp_wait(&r, NULL);
		seen.ok[0] = !rc;
	} else {
		char got = 0;
		if (!(rc = vp_recv_tag(c, 0, 2, &got, 1, NULL)))
			rc = vp_recv_tag(c, 0, 1, buf, big, NULL);
		seen.ok[1] = !rc && got == 's' && buf[big - 1] == 'b';
	}
	free(buf);
	return rc;
}

/* vp_issend of 8 bytes: not complete while the receiver waits for
 * another message first; complete after. arg set: both ranks issend to
 * each other and wait before receiving (a deadlock). */
static int synchronous_isend(vp_comm *c, void *arg)
{
	int me = vp_rank(c), other = 1 - me, done = 1, rc;
	char out[8] = "payload", in[8], go = 'g';
	vp_request r;

	if (arg) {
		if ((rc = vp_issend(c, other, 1, out, 8, &r)) ||
		    (rc = vp_wait(&r, NULL)))
			return rc;
		return vp_recv_tag(c, other, 1, in, 8, NULL);
	}
	if (me == 0) {
		if (!(rc = vp_issend(c, 1, 1, out, 8, &r)) &&
		    !(rc = vp_test(&r, &done, NULL)) &&
		    !(rc = vp_send_tag(c, 1, 2, &go, 1)))
			rc = vp_wait(&r, NULL);
		seen.ok[0] = !rc && !done;
		return rc;
	}
	if (!(rc = vp_recv_tag(c, 0, 2, &go, 1, NULL)))
		rc = vp_recv_tag(c, 0, 1, in, 8, NULL);
	seen.ok[1] = !rc && !strcmp(in, "payload");
	return rc;
}

/* Posted order decides: the wildcard receive posted first gets the first
 * message; the later named one the second, even when waited first. A
 * blocking receive made afterwards gets the third. */
static int posted_order(vp_comm *c, void *arg)
{
	int a = 0, b = 0, d = 0, rc, i;
	vp_request ra, rb;
	vp_status sa, sb;

	(void)arg;
	if (vp_rank(c) == 0) {
		for (i = 1; i <= 3; i++)
			if ((rc = vp_send_tag(c, 1, i, &i, sizeof(i))))
				return rc;
		return VP_OK;
	}
	if ((rc = vp_irecv(c, VP_ANY_SOURCE, VP_ANY_TAG, &a, sizeof(a), &ra)) ||
	    (rc = vp_irecv(c, 0, VP_ANY_TAG, &b, sizeof(b), &rb)) ||
	    (rc = vp_wait(&rb, &sb)) ||
	    (rc = vp_recv_tag(c, 0, VP_ANY_TAG, &d, sizeof(d), NULL)) ||
	    (rc = vp_wait(&ra, &sa)))
		return rc;
	seen.ok[1] = a == 1 && b == 2 && d == 3 && sa.source == 0 &&
		     sa.tag == 1 && sb.tag == 2 && !ra && !rb;
	snprintf(seen.why[1], sizeof(seen.why[1]), "a %d b %d d %d", a, b, d);
	return VP_OK;
}

/* Every other rank sends to rank 0, which takes them with VP_ANY_SOURCE. */
static int any_source(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), i, rc, x, count[MAXP] = { 0 };
	vp_status st;

	(void)arg;
	if (me) {
		x = 1000 + me;
		return vp_send_tag(c, 0, me, &x, sizeof(x));
	}
	seen.ok[0] = 1;
	for (i = 1; i < p; i++) {
		if ((rc = vp_recv_tag(c, VP_ANY_SOURCE, VP_ANY_TAG, &x,
				      sizeof(x), &st)))
			return rc;
		if (st.source < 1 || st.source >= p || x != 1000 + st.source ||
		    st.tag != st.source)
			seen.ok[0] = 0;
		else
			count[st.source]++;
	}
	for (i = 1; i < p; i++)
		if (count[i] != 1)
			seen.ok[0] = 0;
	return VP_OK;
}

/* A ring shift with vp_sendrecv receiving from VP_ANY_SOURCE, on a
 * sub-communicator of the odd ranks (ranks there are not world ranks). */
static int sendrecv_any(vp_comm *c, void *arg)
{
	int me, p, got = -1, rc;
	vp_comm *odd;

	(void)arg;
	if ((rc = vp_comm_split(c, vp_rank(c) % 2, 0, &odd)))
		return rc;
	me = vp_rank(odd);
	p = vp_size(odd);
	rc = vp_sendrecv(odd, (me + 1) % p, &me, sizeof(me), VP_ANY_SOURCE,
			 &got, sizeof(got));
	seen.ok[vp_rank(c)] = !rc && got == (me + p - 1) % p;
	return rc ? rc : vp_comm_free(odd);
}

/* vp_waitany hands out each request once, then says -1. */
static int waitany(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), i, rc, idx, in[MAXP], got = 0;
	vp_request req[MAXP];
	vp_status st;

	(void)arg;
	if (me)
		return vp_send(c, 0, &me, sizeof(me));
	req[0] = VP_REQUEST_NULL;
	for (i = 1; i < p; i++)
		if ((rc = vp_irecv(c, i, 0, &in[i], sizeof(int), &req[i])))
			return rc;
	for (i = 1; i < p; i++) {
		if ((rc = vp_waitany(p, req, &idx, &st)))
			return rc;
		if (idx >= 1 && idx < p && !req[idx] && in[idx] == idx &&
		    st.source == idx)
			got |= 1 << idx;
	}
	if ((rc = vp_waitany(p, req, &idx, &st)))
		return rc;
	seen.ok[0] =
	    got == (1 << p) - 2 && idx == -1 && st.source == VP_ANY_SOURCE;
	return VP_OK;
}

/* vp_test and vp_testall poll until done; a test of a null request is
 * done at once. */
static int testing(vp_comm *c, void *arg)
{
	int x = 5, y[2] = { 0, 0 }, done = 0, rc, polls = 0;
	vp_request r[2], none = VP_REQUEST_NULL;

	(void)arg;
	if (vp_rank(c) == 0) {
		if ((rc = vp_isend(c, 1, 0, &x, sizeof(x), &r[0])))
			return rc;
		while (!done && !(rc = vp_test(&r[0], &done, NULL)))
			polls++;
		if (!rc && !(rc = vp_send(c, 1, &x, sizeof(x))))
			rc = vp_test(&none, &done, NULL);
		seen.ok[0] = !rc && done && !r[0];
		return rc;
	}
	if ((rc = vp_irecv(c, 0, 0, &y[0], sizeof(int), &r[0])) ||
	    (rc = vp_irecv(c, 0, 0, &y[1], sizeof(int), &r[1])))
		return rc;
	while (!done && !(rc = vp_testall(2, r, &done, NULL)))
		polls++;
	seen.ok[1] = !rc && y[0] == 5 && y[1] == 5 && !r[0] && !r[1];
	return rc;
}

static int probing(vp_comm *c, void *arg)
{
	int found = 1, rc, go = 1;
	vp_status st;
	char *buf;

	(void)arg;
	if (vp_rank(c) == 0) {
		char msg[37];
		memset(msg, 'm', sizeof(msg));
		if ((rc = vp_recv(c, 1, &go, sizeof(go))))
			return rc;
		return vp_send_tag(c, 1, 5, msg, sizeof(msg));
	}
	if ((rc = vp_iprobe(c, 0, 5, &found, &st)))
		return rc;
	seen.ok[1] = !found;
	if ((rc = vp_send(c, 0, &go, sizeof(go))) ||
	    (rc = vp_probe(c, VP_ANY_SOURCE, VP_ANY_TAG, &st)))
		return rc;
	seen.ok[1] &= st.source == 0 && st.tag == 5 && st.bytes == 37;
	if (!(buf = malloc(st.bytes)))
		return VP_ENOMEM;
	rc = vp_iprobe(c, 0, 5, &found, &st);
	seen.ok[1] &= !rc && found && st.bytes == 37;
	if (!rc)
		rc = vp_recv_tag(c, st.source, st.tag, buf, st.bytes, &st);
	seen.ok[1] &= !rc && buf[36] == 'm';
	free(buf);
	return rc;
}

/* ---- the model clock ---- */

/* vp_cancel (MPI_Cancel): an unmatched receive is taken back (nothing
 * received, the clock still, the message sent later left for a later
 * receive); a matched receive and a send complete as usual. */
static int cancelling(vp_comm *c, void *arg)
{
	int me = vp_rank(c), x = -1, y = -1, ok = 1, rc, seven = 7;
	vp_request q, copy;
	vp_status st;
	double t;

	(void)arg;
	if (me == 0) {
		/* never matched: cancelled, buffer untouched, clock still */
		t = vp_time(c);
		if ((rc = vp_irecv(c, 1, 7, &x, sizeof(x), &q)) ||
		    (rc = vp_cancel(&q)) || (rc = vp_wait(&q, &st)))
			return rc;
		ok &= st.cancelled == 1 && st.bytes == 0 && x == -1 &&
		      q == VP_REQUEST_NULL && vp_time(c) == t;
		ok &= vp_cancel(&q) == VP_OK; /* a null request: nothing */
		if ((rc = vp_barrier(c))) /* rank 1 sends tag 7 now */
			return rc;
		/* the tag-7 message was not taken by the cancelled receive */
		if ((rc = vp_recv_tag(c, 1, 7, &y, sizeof(y), &st)))
			return rc;
		ok &= y == 7 && !st.cancelled;
		/* matched already (it arrived before the post): not cancelled */
		if ((rc = vp_barrier(c)) ||
		    (rc = vp_probe(c, 1, 8, &st)) ||
		    (rc = vp_irecv(c, 1, 8, &x, sizeof(x), &q)) ||
		    (rc = vp_cancel(&q)) || (rc = vp_wait(&q, &st)))
			return rc;
		ok &= st.cancelled == 0 && st.bytes == sizeof(x) && x == 8;
		/* a send is never cancelled */
		if ((rc = vp_isend(c, 1, 9, &seven, sizeof(seven), &q)) ||
		    (rc = vp_cancel(&q)) || (rc = vp_wait(&q, &st)))
			return rc;
		ok &= st.cancelled == 0;
		/* a handle completed through a copy is refused by vp_cancel */
		if ((rc = vp_irecv(c, 1, 10, &x, sizeof(x), &q)))
			return rc;
		copy = q;
		if ((rc = vp_cancel(&q)) || (rc = vp_wait(&q, NULL)))
			return rc;
		seen.ok[0] = ok;
		/* rank 1 is done before the run fails */
		if ((rc = vp_recv_tag(c, 1, 11, &y, sizeof(y), NULL)))
			return rc;
		return vp_cancel(&copy); /* fails the run, naming it */
	}
	if ((rc = vp_barrier(c)) ||
	    (rc = vp_send_tag(c, 0, 7, &seven, sizeof(seven))))
		return rc;
	x = 8;
	if ((rc = vp_send_tag(c, 0, 8, &x, sizeof(x))) ||
	    (rc = vp_barrier(c)) ||
	    (rc = vp_recv_tag(c, 0, 9, &y, sizeof(y), NULL)))
		return rc;
	seen.ok[1] = y == 7;
	return vp_send_tag(c, 0, 11, &y, sizeof(y));
}

static int three_isends(vp_comm *c, void *arg)
{
	char b[3][10] = { "a", "b", "c" };
	vp_request r[3];
	int i, rc;

	(void)arg;
	if (vp_rank(c) == 0) {
		for (i = 0; i < 3; i++)
			if ((rc = vp_isend(c, 1, i, b[i], 10, &r[i])))
				return rc;
		seen.t[0][0] = vp_time(c); /* nothing waited yet: 0 */
		if ((rc = vp_waitall(3, r, NULL)))
			return rc;
		seen.t[0][1] = vp_time(c);
		return VP_OK;
	}
	for (i = 0; i < 3; i++)
		if ((rc = vp_irecv(c, 0, i, b[i], 10, &r[i])))
			return rc;
	for (i = 0; i < 3; i++) {
		if ((rc = vp_wait(&r[i], NULL)))
			return rc;
		seen.t[1][i] = vp_time(c);
	}
	return VP_OK;
}

/* A receive completes at max(T at the wait, arrival): work after the post
 * hides the transfer. */
static int late_wait(vp_comm *c, void *arg)
{
	char b[100] = { 0 };
	vp_request r;
	int rc, other;

	(void)arg;
	if (vp_rank(c) == 0)
		return vp_send(c, 1, b, sizeof(b)); /* arrives at 200 */
	if ((rc = vp_irecv(c, 0, 0, b, sizeof(b), &r)))
		return rc;
	/* 500 units of modelled sending (the receive port stays free):
	 * five 0-byte messages to rank 2 */
	for (other = 0; other < 5 && !rc; other++)
		rc = vp_send(c, 2, b, 0);
	seen.t[1][0] = vp_time(c);
	if (!rc)
		rc = vp_wait(&r, NULL);
	seen.t[1][1] = vp_time(c);
	return rc;
}

static int late_wait_peer(vp_comm *c, void *arg)
{
	char b[2];
	int rc = VP_OK, k;

	if (vp_rank(c) != 2)
		return late_wait(c, arg);
	for (k = 0; k < 5 && !rc; k++)
		rc = vp_recv(c, 1, b, 0);
	return rc;
}

/* ---- misuse ---- */

static vp_request stolen;

static int misuse(vp_comm *c, void *arg)
{
	int which = *(int *)arg, x = 0, rc, flag;
	vp_request r, copy;
	vp_status st;

	if (vp_rank(c) == 1) {
		if (which == 1) { /* rank 1's request, handed to rank 0 */
			rc = vp_irecv(c, 0, 3, &x, sizeof(x), &stolen);
			if (!rc)
				rc = vp_send(c, 0, &x, sizeof(x));
			if (!rc)
				rc = vp_recv(c, 0, &x, sizeof(x));
			return rc;
		}
		if (which == 5)
			return vp_send(c, 0, "0123456789", 10);
		return VP_OK;
	}
	switch (which) {
	case 0: /* waited twice through a copy of the handle */
		if ((rc = vp_isend(c, 1, 0, &x, 0, &r)))
			return rc;
		copy = r;
		if ((rc = vp_wait(&r, NULL)))
			return rc;
		return vp_wait(&copy, NULL);
	case 1:
		if ((rc = vp_recv(c, 1, &x, sizeof(x))))
			return rc;
		return vp_wait(&stolen, NULL);
	case 2:
		return vp_isend(c, 1, VP_TAG_MAX + 1, &x, sizeof(x), &r);
	case 3:
		return vp_waitall(-2, &r, NULL);
	case 4:
		return vp_irecv(c, 1, 0, VP_IN_PLACE, sizeof(x), &r);
	case 5:
		if ((rc = vp_irecv(c, 1, 0, &x, sizeof(x), &r)))
			return rc;
		return vp_wait(&r, &st);
	case 6: /* returns with two requests not completed */
		if ((rc = vp_irecv(c, 1, 9, &x, sizeof(x), &r)) ||
		    (rc = vp_isend(c, 1, 4, &x, sizeof(x), &copy)))
			return rc;
		return VP_OK;
	case 7:
		return vp_iprobe(c, 1, -4, &flag, NULL);
	default:
		return vp_isend(c, 1, 0, &x, sizeof(x), NULL);
	}
}

static const struct {
	int code;
	const char *says;
} misuse_expect[] = {
	{ VP_EINVAL, "rank 0: vp_wait: request was already completed" },
	{ VP_EINVAL, "rank 0: vp_wait: request belongs to rank 1" },
	{ VP_EINVAL, "rank 0: vp_isend: tag 1073741824 is outside" },
	{ VP_EINVAL, "rank 0: vp_waitall: count -2 is negative" },
	{ VP_EINVAL, "rank 0: vp_irecv: buffer is VP_IN_PLACE" },
	{ VP_ETRUNC, "rank 0: vp_wait: message of 10 bytes from rank 1" },
	{ VP_EINVAL, "rank 0: rank function: returned with 2 requests not "
		     "completed" },
	{ VP_EINVAL, "rank 0: vp_iprobe: tag -4" },
	{ VP_EINVAL, "rank 0: vp_isend: the request pointer is NULL" },
};

/* ---- deadlocks ---- */

static int deadlock(vp_comm *c, void *arg)
{
	int which = *(int *)arg, x = 0, y = 0, rc;
	vp_request r[2];
	vp_status st;

	if (vp_rank(c) == 1)
		return vp_recv(c, 0, &x, sizeof(x)); /* never sent */
	switch (which) {
	case 0:
		if ((rc = vp_irecv(c, 1, 7, &x, sizeof(x), &r[0])) ||
		    (rc = vp_irecv(c, VP_ANY_SOURCE, 8, &y, sizeof(y), &r[1])))
			return rc;
		return vp_waitall(2, r, NULL);
	case 1:
		return vp_recv_tag(c, VP_ANY_SOURCE, VP_ANY_TAG, &x, sizeof(x),
				   NULL);
	default:
		return vp_probe(c, 1, 3, &st);
	}
}

static const char *deadlock_says[] = {
	"rank 0 in vp_waitall waits for a receive from rank 1, tag 7, into "
	"a 4-byte buffer; a receive from any rank, tag 8",
	"rank 0 in vp_recv_tag waits for a receive from any rank, any tag",
	"rank 0 in vp_probe waits for a probe for rank 1, tag 3",
};

/* ---- Pacheco's allgathers with requests ---- */

/* Allgather_ring, made safe with nonblocking calls: each of the p - 1
 * steps posts the receive of the next block, sends the last one and waits
 * for both (the book's ring allgather, Grama et al., sec. 4.2). */
static int allgather_ring(vp_comm *c, const float *x, float *y, int bs)
{
	int p = vp_size(c), me = vp_rank(c), i, rc;
	int succ = (me + 1) % p, pred = (me - 1 + p) % p;
	vp_request r[2];

	memcpy(y + me * bs, x, (size_t)bs * sizeof(float));
	for (i = 0; i < p - 1; i++) {
		int so = ((me - i + p) % p) * bs;
		int ro = ((me - i - 1 + p) % p) * bs;
		if ((rc = vp_irecv(c, pred, 0, y + ro,
				   (size_t)bs * sizeof(float), &r[0])) ||
		    (rc = vp_isend(c, succ, 0, y + so,
				   (size_t)bs * sizeof(float), &r[1])) ||
		    (rc = vp_waitall(2, r, NULL)))
			return rc;
	}
	return VP_OK;
}

/* Allgather_cube: at stage s partners differ in bit s, and exchange the
 * 2^s blocks gathered so far (contiguous here: block j of the group whose
 * high bits match). */
static int allgather_cube(vp_comm *c, const float *x, float *y, int bs)
{
	int p = vp_size(c), me = vp_rank(c), rc, bit;
	vp_request r[2];

	memcpy(y + me * bs, x, (size_t)bs * sizeof(float));
	for (bit = 1; bit < p; bit <<= 1) {
		int partner = me ^ bit;
		int mine = me & ~(bit - 1), theirs = partner & ~(bit - 1);
		size_t n = (size_t)bit * (size_t)bs * sizeof(float);
		if ((rc = vp_irecv(c, partner, 1, y + theirs * bs, n, &r[0])) ||
		    (rc = vp_isend(c, partner, 1, y + mine * bs, n, &r[1])) ||
		    (rc = vp_waitall(2, r, NULL)))
			return rc;
	}
	return VP_OK;
}

#define BS 3

static int pacheco(vp_comm *c, void *arg)
{
	int p = vp_size(c), me = vp_rank(c), i, rc;
	float x[BS], ring[MAXP * BS], cube[MAXP * BS], ref[MAXP * BS];

	(void)arg;
	for (i = 0; i < BS; i++)
		x[i] = (float)(me * 10 + i);
	if ((rc = allgather_ring(c, x, ring, BS)) ||
	    (rc = allgather_cube(c, x, cube, BS)) ||
	    (rc = vp_allgather(c, x, ref, BS, VP_FLOAT, VP_ALG_AUTO)))
		return rc;
	seen.ok[me] = !memcmp(ring, ref, sizeof(float) * (size_t)(p * BS)) &&
		      !memcmp(cube, ref, sizeof(float) * (size_t)(p * BS));
	return VP_OK;
}

int main(void)
{
	vp_opts o = { .topology = "full:4", .quiet = 1 };
	vp_stats st;
	int rc, i;

	reset();
	rc = vp_run(&o, basic_waitall, NULL, &st);
	tap_ok(rc == 0 && all_ok(4) && st.messages == 16,
	       "4 ranks each isend to and irecv from all: bytes, statuses, "
	       "null requests (%d, %llu messages)",
	       rc, (unsigned long long)st.messages);
	o.topology = "full:2";
	reset();
	rc = vp_run(&o, rendezvous_isend, NULL, &st);
	tap_ok(rc == 0 && all_ok(2),
	       "a rendezvous vp_isend returns before its receive is posted "
	       "(%d)",
	       rc);
	reset();
	rc = vp_run(&o, synchronous_isend, NULL, &st);
	tap_ok(rc == 0 && all_ok(2),
	       "an 8-byte vp_issend is not complete before its receive takes "
	       "it, and completes after (%d)",
	       rc);
	rc = vp_run(&o, synchronous_isend, &o, &st);
	tap_ok(rc == VP_EDEADLOCK &&
		   strstr(st.error, "rank 0 in vp_wait waits for a send to "
				    "rank 1, tag 1, of 8 bytes") &&
		   strstr(st.error, "rank 1 in vp_wait waits for a send to "
				    "rank 0"),
	       "two ranks that vp_issend to each other and wait before "
	       "receiving deadlock, reported: %s",
	       st.error);
	reset();
	rc = vp_run(&o, posted_order, NULL, &st);
	tap_ok(rc == 0 && seen.ok[1],
	       "messages go to posted receives in post order; a later "
	       "blocking receive does not overtake them (%s)",
	       seen.why[1]);
	o.topology = "full:8";
	for (i = 0; i < 3; i++) {
		reset();
		rc = vp_run(&o, any_source, NULL, &st);
		tap_ok(rc == 0 && seen.ok[0],
		       "VP_ANY_SOURCE on 8 ranks: each sender's message once, "
		       "status names it (run %d: %d)",
		       i, rc);
	}
	reset();
	o.ts = 10;
	rc = vp_run(&o, sendrecv_any, NULL, &st);
	tap_ok(rc == 0 && all_ok(8) && st.model_time > 0 &&
		   !(st.incomplete & VP_STATS_REPLAY_FAILED),
	       "vp_sendrecv from VP_ANY_SOURCE on a sub-communicator: the "
	       "shift arrives, the model and its replay take it (%d)",
	       rc);
	o.ts = 0;
	reset();
	rc = vp_run(&o, waitany, NULL, &st);
	tap_ok(rc == 0 && seen.ok[0],
	       "vp_waitany completes each of 7 requests once, then index -1 "
	       "(%d)",
	       rc);
	o.topology = "full:2";
	reset();
	rc = vp_run(&o, testing, NULL, &st);
	tap_ok(rc == 0 && all_ok(2),
	       "vp_test and vp_testall poll to completion; a null request "
	       "tests done (%d)",
	       rc);
	reset();
	rc = vp_run(&o, cancelling, NULL, &st);
	tap_ok(rc == VP_EINVAL && all_ok(2) &&
		   strstr(st.error, "vp_cancel: request was already completed"),
	       "vp_cancel takes back an unmatched receive (nothing received, "
	       "the clock still, its message left for a later receive), not "
	       "a matched one nor a send; a stale handle fails: %s",
	       st.error);
	reset();
	rc = vp_run(&o, probing, NULL, &st);
	tap_ok(rc == 0 && seen.ok[1],
	       "vp_iprobe finds nothing before the send; vp_probe gives "
	       "source, tag and size, the receive then takes it (%d)",
	       rc);

	o.ts = 100;
	o.tw = 1;
	reset();
	rc = vp_run(&o, three_isends, NULL, &st);
	tap_ok(rc == 0 && seen.t[1][0] == 110 && seen.t[1][1] == 220 &&
		   seen.t[1][2] == 330 && seen.t[0][0] == 0 &&
		   seen.t[0][1] == 330 && st.model_time == 330,
	       "three 10-byte isends, ts 100, tw 1: received at %g %g %g; "
	       "the sender is at %g before its waitall, %g after",
	       seen.t[1][0], seen.t[1][1], seen.t[1][2], seen.t[0][0],
	       seen.t[0][1]);
	o.topology = "full:3";
	reset();
	rc = vp_run(&o, late_wait_peer, NULL, &st);
	tap_ok(rc == 0 && seen.t[1][0] == 500 && seen.t[1][1] == 500,
	       "an irecv waited at T = %g, after its 100-byte message arrived "
	       "at 200, completes at %g (max of the two)",
	       seen.t[1][0], seen.t[1][1]);
	o.ts = o.tw = 0;

	o.topology = "full:2";
	for (i = 0; i < (int)(sizeof(misuse_expect) / sizeof(misuse_expect[0]));
	     i++) {
		rc = vp_run(&o, misuse, &i, &st);
		tap_ok(rc == misuse_expect[i].code &&
			   strstr(st.error, misuse_expect[i].says),
		       "misuse %d fails with %s: %s", i,
		       vp_strerror(misuse_expect[i].code), st.error);
	}
	rc = vp_run(&o, misuse, &(int){ 6 }, &st);
	tap_ok(rc == VP_EINVAL &&
		   strstr(st.error, "vp_irecv from rank 1, tag 9, 4 bytes") &&
		   strstr(st.error, "vp_isend to rank 1, tag 4, 4 bytes"),
	       "the requests left are named: %s", st.error);
	for (i = 0; i < 3; i++) {
		rc = vp_run(&o, deadlock, &i, &st);
		tap_ok(rc == VP_EDEADLOCK && strstr(st.error, deadlock_says[i]),
		       "deadlock %d reported: %s", i, st.error);
	}
	for (i = 2; i <= MAXP; i *= 2) {
		char topo[16];
		snprintf(topo, sizeof(topo), "hypercube:%d",
			 i == 2   ? 1
			 : i == 4 ? 2
				  : 3);
		o.topology = topo;
		reset();
		rc = vp_run(&o, pacheco, NULL, &st);
		tap_ok(rc == 0 && all_ok(i),
		       "p = %d: Pacheco's ring and hypercube allgathers with "
		       "requests agree with vp_allgather (%d)",
		       i, rc);
	}
	return tap_done();
}
