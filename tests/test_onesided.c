/*
 * test_onesided.c - windows, put, get, accumulate and fences:
 *   - a put into the right neighbour's window and a get from the left one
 *     are visible after the fence (a BSP superstep);
 *   - accumulates from every rank into one counter are atomic: the total is
 *     exact;
 *   - the model charges each operation as a message on the route and the
 *     fence as a barrier: a 100-byte put costs ts + tw*100 on top of the
 *     fences alone;
 *   - 64 KiB puts and gets (past the eager limit) arrive whole, and a get
 *     after a put to the same bytes of the same target sees the put;
 *   - errors name the rank, the call and the value: bytes outside the
 *     target's window (target, offset, size), a target out of range, an
 *     operation before the first fence, a window used after vp_win_free,
 *     operations that no fence closed before the rank returned.
 * Everything runs twice: with the ranks' windows in shared memory, and
 * with VP_WIN=messages, the path of transports without shared memory
 * (operations as messages, applied by the target in its fence).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define P 4
#define ADDS 500

static int ok[P];

static int ring_put_get(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc;
	int win_mem[2] = { -1, 100 + me }, got = -1;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, win_mem, sizeof(win_mem), &w)) ||
	    (rc = vp_win_fence(w)) ||
	    (rc = vp_put(w, (me + 1) % p, 0, &me, sizeof(me))) ||
	    (rc = vp_get(w, (me + p - 1) % p, sizeof(int), &got,
			 sizeof(got))) ||
	    (rc = vp_win_fence(w)))
		return rc;
	ok[me] = win_mem[0] == (me + p - 1) % p &&
		 got == 100 + (me + p - 1) % p;
	return vp_win_free(w);
}

static int accumulate(vp_comm *c, void *arg)
{
	int me = vp_rank(c), rc, i;
	int64_t counter[2] = { 0, 0 }, one[2] = { 1, 2 };
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, counter, sizeof(counter), &w)) ||
	    (rc = vp_win_fence(w)))
		return rc;
	for (i = 0; i < ADDS && !rc; i++)
		rc = vp_accumulate(w, 0, 0, one, 2, VP_INT64, VP_SUM);
	if (rc || (rc = vp_win_fence(w)))
		return rc;
	ok[me] = me || (counter[0] == (int64_t)P * ADDS &&
			counter[1] == 2 * (int64_t)P * ADDS);
	return vp_win_free(w);
}

#define BIG 65536

/* Each rank puts BIG bytes of its rank into the right neighbour's window,
 * writes a marker into the left neighbour's last word and reads it back,
 * and gets the left neighbour's second half. */
static int big(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc, right = (me + 1) % p;
	int left = (me + p - 1) % p, marker = 1000 + me, back = -1;
	size_t i, ints = 2 * BIG / sizeof(int);
	int *mem = malloc(2 * BIG), *src = malloc(BIG), *got = malloc(BIG);
	vp_win *w = NULL;

	(void)arg;
	if (!mem || !src || !got) {
		free(mem), free(src), free(got);
		return vp_abort(c, 1, "big", "no memory");
	}
	for (i = 0; i < ints; i++)
		mem[i] = -me;
	for (i = 0; i < BIG / sizeof(int); i++)
		src[i] = me;
	if (!(rc = vp_win_create(c, mem, 2 * BIG, &w)) &&
	    !(rc = vp_win_fence(w)) &&
	    !(rc = vp_put(w, right, 0, src, BIG)) &&
	    !(rc = vp_put(w, left, 2 * BIG - sizeof(int), &marker,
			  sizeof(int))) &&
	    !(rc = vp_get(w, left, 2 * BIG - sizeof(int), &back,
			  sizeof(int))) &&
	    !(rc = vp_get(w, left, BIG, got, BIG)) && !(rc = vp_win_fence(w))) {
		ok[me] = back == marker && mem[ints - 1] == 1000 + right;
		for (i = 0; i < BIG / sizeof(int); i++)
			ok[me] &= mem[i] == left &&
				  (i + 1 == BIG / sizeof(int) ||
				   got[i] == -left);
		rc = vp_win_free(w);
	}
	free(mem), free(src), free(got);
	return rc;
}

/* arg: 1 = each rank puts 100 bytes to its neighbour, 0 = fences only */
static int timed(vp_comm *c, void *arg)
{
	char mem[100], src[100] = { 0 };
	vp_win *w;
	int rc;

	if ((rc = vp_win_create(c, mem, sizeof(mem), &w)) ||
	    (rc = vp_win_fence(w)))
		return rc;
	if (*(int *)arg &&
	    (rc = vp_put(w, vp_rank(c) ^ 1, 0, src, sizeof(src))))
		return rc;
	if ((rc = vp_win_fence(w)))
		return rc;
	return vp_win_free(w);
}

static int unfenced[P][4];

static int misuse(vp_comm *c, void *arg)
{
	int which = *(int *)arg, mem[4] = { 0 }, x = 0, rc;
	vp_win *w;

	if ((rc = vp_win_create(c, mem, vp_rank(c) == 1 ? 8 : sizeof(mem),
				&w)))
		return rc;
	if (which == 2 && vp_rank(c) == 0) /* before the first fence */
		return vp_put(w, 1, 0, &x, sizeof(x));
	if ((rc = vp_win_fence(w)))
		return rc;
	if (vp_rank(c) == 0) {
		if (which == 0)
			return vp_put(w, 1, 6, &x, sizeof(x));
		if (which == 1)
			return vp_get(w, 5, 0, &x, sizeof(x));
		if (which == 4)
			return vp_accumulate(w, 1, 2, &x, 1, VP_INT32, VP_SUM);
	}
	if ((rc = vp_win_fence(w)) || (rc = vp_win_free(w)))
		return rc;
	if (which == 3 && vp_rank(c) == 0)
		return vp_put(w, 1, 0, &x, sizeof(x));
	/* no fence closes the put; the windows outlive the rank functions
	 * (a put into shared memory writes the target's window at once) */
	if (which == 5 &&
	    !(rc = vp_win_create(c, unfenced[vp_rank(c)],
				 sizeof(unfenced[0]), &w)) &&
	    !(rc = vp_win_fence(w)))
		return vp_put(w, !vp_rank(c), 0, &x, sizeof(x));
	return rc;
}

static const char *misuse_says[] = {
	"rank 0: vp_put: bytes [6, 6 + 4) are outside target 1's window of "
	"8 bytes",
	"rank 0: vp_get: target 5 is outside [0, 2)",
	"rank 0: vp_put: outside an epoch",
	"rank 0: vp_put: the window was freed by vp_win_free",
	"rank 0: vp_accumulate: offset 2 is not a multiple",
	"rank function: returned with 1 one-sided operation of an epoch that "
	"no vp_win_fence closed",
};

static void run_all(const char *path)
{
	vp_opts o = { .topology = "ring:4", .quiet = 1 };
	vp_stats st;
	double fences_only;
	int rc, i, which;

	memset(ok, 0, sizeof(ok));
	rc = vp_run(&o, ring_put_get, NULL, &st);
	tap_ok(rc == 0 && ok[0] && ok[1] && ok[2] && ok[3],
	       "%s: ring:4: put to the right, get from the left, both visible "
	       "after the fence (%d)",
	       path, rc);
	o.topology = "full:4";
	memset(ok, 0, sizeof(ok));
	rc = vp_run(&o, accumulate, NULL, &st);
	tap_ok(rc == 0 && ok[0],
	       "%s: %d accumulates of (1, 2) from each of 4 ranks into rank 0: "
	       "exact totals (%d)",
	       path, ADDS, rc);
	memset(ok, 0, sizeof(ok));
	rc = vp_run(&o, big, NULL, &st);
	tap_ok(rc == 0 && ok[0] && ok[1] && ok[2] && ok[3],
	       "%s: 64 KiB puts and gets arrive whole; a get after a put to "
	       "the same bytes sees it (%d: %s)",
	       path, rc, rc ? st.error : "");
	o.topology = "full:2";
	o.ts = 100;
	o.tw = 1;
	which = 0;
	rc = vp_run(&o, timed, &which, &st);
	fences_only = st.model_time;
	which = 1;
	rc |= vp_run(&o, timed, &which, &st);
	tap_ok(rc == 0 && st.model_time - fences_only == 200 &&
		   fences_only > 0,
	       "%s: a 100-byte put costs ts + tw*100 = 200 on top of the "
	       "fences (%g - %g)",
	       path, st.model_time, fences_only);
	o.ts = o.tw = 0;
	for (i = 0; i < (int)(sizeof(misuse_says) / sizeof(misuse_says[0]));
	     i++) {
		rc = vp_run(&o, misuse, &i, &st);
		tap_ok(rc != 0 && strstr(st.error, misuse_says[i]),
		       "%s: misuse %d fails (%s): %s", path, i,
		       vp_strerror(rc), st.error);
	}
}

int main(void)
{
	unsetenv("VP_WIN");
	run_all("shared memory");
	setenv("VP_WIN", "messages", 1);
	run_all("VP_WIN=messages");
	return tap_done();
}
