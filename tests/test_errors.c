/*
 * test_errors.c - every failure is clear and ends the run cleanly:
 * truncation, strict mode, bad ranks, bad specs and options, NULL buffers,
 * abort propagation, deadlocks (two receivers, the unsafe ring, a wait on a
 * rank that has exited) and no false deadlock under oversubscription.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

#define MAXP 512

struct ctx {
	int rc[MAXP];	/* what each rank's call returned */
	int guard_ok;
	size_t n; /* message size under test */
	char msg[512];
};

/* ---- truncation: nothing written past the buffer ---- */

static int truncate_fn(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	unsigned char buf[100];
	size_t n = x->n;
	unsigned char *big = malloc(n);
	int rc = VP_OK;

	if (vp_rank(c) == 0) {
		memset(big, 0xAB, n);
		rc = vp_send(c, 1, big, n);
	} else {
		memset(buf, 0x11, sizeof(buf));
		rc = vp_recv(c, 0, buf, 50);
		x->rc[1] = rc;
		x->guard_ok = 1;
		for (int i = 0; i < 100; i++)
			x->guard_ok &= buf[i] == 0x11;
		strncpy(x->msg, vp_errmsg(c), sizeof(x->msg) - 1);
	}
	free(big);
	return rc;
}

static void test_truncation(void)
{
	size_t sizes[] = {51, 300000};
	int i;

	for (i = 0; i < 2; i++) {
		struct {
			struct ctx x;
		} a;
		vp_opts o = {.topology = "line:2", .quiet = 1};
		vp_stats st;
		int rc;

		memset(&a, 0, sizeof(a));
		a.x.n = sizes[i];
		rc = vp_run(&o, truncate_fn, &a.x, &st);
		tap_ok(rc == VP_ETRUNC && a.x.rc[1] == VP_ETRUNC &&
			       st.error_rank == 1,
		       "%zu-byte message into a 50-byte buffer -> VP_ETRUNC at "
		       "rank 1, and vp_run returns it",
		       sizes[i]);
		tap_ok(a.x.guard_ok, "nothing written into the 50-byte buffer");
		tap_ok(strstr(a.x.msg, "rank 1: vp_recv") &&
			       strstr(a.x.msg, "50-byte") &&
			       strstr(st.error, "rank 1"),
		       "message names rank, call and both sizes: %s", a.x.msg);
	}
}

/* ---- strict mode, bad rank, NULL buffer ---- */

struct bad_call {
	int which;
	struct ctx x;
};

static int bad_call_fn(vp_comm *c, void *arg)
{
	struct bad_call *b = arg;
	int me = vp_rank(c), rc = VP_OK, v = 0;

	if (me != 0) /* wait on a neighbour: aborted, not hung */
		return vp_recv(c, me - 1, &v, sizeof(v));
	switch (b->which) {
	case 0:
		rc = vp_send(c, 4, &v, sizeof(v)); /* not a ring neighbour */
		break;
	case 1:
		rc = vp_send(c, 8, &v, sizeof(v));
		break;
	case 2:
		rc = vp_recv(c, -1, &v, sizeof(v));
		break;
	case 3:
		rc = vp_send(c, 1, NULL, 4);
		break;
	case 4:
		rc = vp_sendrecv(c, 1, &v, sizeof(v), 1, &v, sizeof(v));
		break;
	}
	b->x.rc[0] = rc;
	strncpy(b->x.msg, vp_errmsg(c), sizeof(b->x.msg) - 1);
	return rc;
}

static void test_bad_calls(void)
{
	static const struct {
		int code;
		const char *expect;
		const char *what;
	} cases[] = {
		{VP_ENOLINK, "rank 0: vp_send: strict mode: destination 4",
		 "strict: send to a non-neighbour"},
		{VP_ERANK, "rank 0: vp_send: destination 8 is outside [0, 8)",
		 "destination 8 of 8"},
		{VP_ERANK, "rank 0: vp_recv: source -1 is outside [0, 8)",
		 "source -1"},
		{VP_EINVAL, "rank 0: vp_send: buffer is NULL but its size is 4",
		 "NULL buffer with n > 0"},
		{VP_EINVAL, "rank 0: vp_sendrecv: send and receive buffers overlap",
		 "sendrecv with one buffer for both"},
	};
	int i;

	for (i = 0; i < 5; i++) {
		struct bad_call b;
		vp_opts o = {.topology = "ring:8", .strict = 1, .quiet = 1};
		vp_stats st;
		int rc;

		memset(&b, 0, sizeof(b));
		b.which = i;
		rc = vp_run(&o, bad_call_fn, &b, &st);
		tap_ok(rc == cases[i].code && b.x.rc[0] == cases[i].code &&
			       strstr(b.x.msg, cases[i].expect) &&
			       st.error_rank == 0,
		       "%s -> %s: \"%s\"", cases[i].what,
		       vp_strerror(cases[i].code), b.x.msg);
		if (st.error_rank != 0)
			tap_diag("first error: rank %d, code %d: %s",
				 st.error_rank, rc, st.error);
	}
}

static int noop(vp_comm *c, void *arg)
{
	(void)c;
	(void)arg;
	return 0;
}

static void test_bad_options(void)
{
	vp_opts o = {.topology = "mesh:3x", .quiet = 1};
	vp_stats st;
	int rc = vp_run(&o, noop, NULL, &st);

	tap_ok(rc == VP_EINVAL && strstr(st.error, "\"mesh:3x\"") &&
		       strstr(st.error, "accepted"),
	       "vp_run with \"mesh:3x\" -> VP_EINVAL: %s", st.error);
	o.topology = "ring:4";
	o.ts = -1;
	tap_ok(vp_run(&o, noop, NULL, &st) == VP_EINVAL &&
		       strstr(st.error, "ts -1"),
	       "negative ts -> VP_EINVAL naming it");
	o.ts = 0;
	tap_ok(vp_run(&o, NULL, NULL, &st) == VP_EINVAL,
	       "NULL rank function -> VP_EINVAL");
	tap_ok(vp_run(NULL, noop, NULL, &st) == VP_OK && st.p == 1,
	       "NULL options run one rank");
	tap_ok(vp_send(NULL, 0, "", 0) == VP_EINVAL &&
		       vp_recv(NULL, 0, NULL, 0) == VP_EINVAL &&
		       vp_barrier(NULL) == VP_EINVAL,
	       "calls on a NULL communicator -> VP_EINVAL");
	tap_ok(vp_alg_parse("bruck") == VP_ALG_BRUCK &&
		       vp_alg_parse("nope") == VP_EALG &&
		       !strcmp(vp_alg_name(VP_ALG_PIPELINED_TREE),
			       "pipelined_tree"),
	       "algorithm names map both ways");
}

/* ---- abort: rank 3 fails while the others wait on it ---- */

static int abort_fn(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), v = 0;

	if (me == 3) {
		usleep(20000); /* let the others block first */
		return 42;
	}
	x->rc[me] = vp_recv(c, 3, &v, sizeof(v));
	return x->rc[me];
}

static void test_abort(void)
{
	vp_opts o = {.topology = "full:8", .quiet = 1};
	struct ctx x;
	vp_stats st;
	int rc, r, all = 1;

	memset(&x, 0, sizeof(x));
	rc = vp_run(&o, abort_fn, &x, &st);
	for (r = 0; r < 8; r++)
		if (r != 3)
			all &= x.rc[r] == VP_EABORT;
	tap_ok(rc == 42 && st.error_rank == 3 && all &&
		       strstr(st.error, "rank 3: rank function: returned 42"),
	       "rank 3 returns 42: the 7 waiting ranks get VP_EABORT, vp_run "
	       "returns 42: %s",
	       st.error);
}

/* ---- deadlocks ---- */

static int two_receivers(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), v;

	x->rc[me] = vp_recv(c, 1 - me, &v, sizeof(v));
	return x->rc[me];
}

static int unsafe_ring(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), p = vp_size(c), rc;
	size_t n = (size_t)4 << 20;
	char *b = malloc(n), *r = malloc(n);

	memset(b, me, n);
	/* The MPI lecture's unsafe exchange: everyone sends first. */
	rc = vp_send(c, (me + 1) % p, b, n);
	if (!rc)
		rc = vp_recv(c, (me - 1 + p) % p, r, n);
	x->rc[me] = rc;
	free(b);
	free(r);
	return rc;
}

static int wait_on_exited(vp_comm *c, void *arg)
{
	struct ctx *x = arg;
	int me = vp_rank(c), v;

	if (me == 1)
		return 0;
	x->rc[me] = vp_recv(c, 1, &v, sizeof(v));
	return x->rc[me];
}

static void test_deadlock(void)
{
	vp_opts o = {.topology = "line:2", .quiet = 1};
	struct ctx x;
	vp_stats st;
	int rc, r, all;

	memset(&x, 0, sizeof(x));
	rc = vp_run(&o, two_receivers, &x, &st);
	tap_ok(rc == VP_EDEADLOCK && x.rc[0] == VP_EDEADLOCK &&
		       x.rc[1] == VP_EDEADLOCK &&
		       strstr(st.error, "rank 0 in vp_recv waits for rank 1: recv") &&
		       strstr(st.error, "rank 1 in vp_recv waits for rank 0: recv") &&
		       strstr(st.error, "cycle: 0 -> 1 -> 0"),
	       "two ranks receiving from each other -> VP_EDEADLOCK with a "
	       "report");
	tap_diag("%s", st.error);

	o.topology = "ring:8";
	memset(&x, 0, sizeof(x));
	rc = vp_run(&o, unsafe_ring, &x, &st);
	all = 1;
	for (r = 0; r < 8; r++)
		all &= x.rc[r] == VP_EDEADLOCK;
	tap_ok(rc == VP_EDEADLOCK && all &&
		       strstr(st.error, "send 4194304 bytes (rendezvous") &&
		       strstr(st.error, "cycle: 0 -> 1 -> 2"),
	       "unsafe ring (4 MiB sends first) on ring:8 -> VP_EDEADLOCK at "
	       "every rank, cycle reported");
	tap_diag("%s", st.error);

	o.topology = "ring:64";
	memset(&x, 0, sizeof(x));
	rc = vp_run(&o, unsafe_ring, &x, &st);
	tap_ok(rc == VP_EDEADLOCK, "unsafe ring on ring:64 -> VP_EDEADLOCK");

	o.topology = "full:3";
	memset(&x, 0, sizeof(x));
	rc = vp_run(&o, wait_on_exited, &x, &st);
	tap_ok(rc == VP_EDEADLOCK && x.rc[0] == VP_EDEADLOCK &&
		       strstr(st.error, "rank 1, which has exited"),
	       "receiving from a rank that has returned -> VP_EDEADLOCK "
	       "naming it");
	tap_diag("%s", st.error);
}

/* ---- no false positives: slow is not deadlocked ---- */

static int slow_chain(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), v = 0, rc, k;
	volatile double sink = 0;

	(void)arg;
	for (k = 0; k < 20; k++) {
		if (me == 0) {
			/* the only running rank computes, everyone waits */
			for (int i = 0; i < 20000 * (k % 3 + 1); i++)
				sink += i;
			if ((rc = vp_send(c, 1, &v, sizeof(v))) ||
			    (rc = vp_recv(c, p - 1, &v, sizeof(v))))
				return rc;
		} else {
			if ((rc = vp_recv(c, me - 1, &v, sizeof(v))))
				return rc;
			v++;
			if ((rc = vp_send(c, (me + 1) % p, &v, sizeof(v))))
				return rc;
		}
		if (k % 5 == 0)
			usleep(1000); /* a rank asleep in the kernel */
	}
	return 0;
}

static void test_no_false_deadlock(void)
{
	vp_opts o = {.topology = "ring:512"};
	int i, ok = 1;

	for (i = 0; i < 3; i++)
		ok &= vp_run(&o, slow_chain, NULL, NULL) == VP_OK;
	tap_ok(ok, "a slow token ring at p = 512 on 2 cores runs to the end "
		   "three times, never reported as deadlocked");
}

int main(void)
{
	test_truncation();
	test_bad_calls();
	test_bad_options();
	test_abort();
	test_deadlock();
	test_no_false_deadlock();
	return tap_done();
}
