/*
 * test_onesided.c - windows, put, get, accumulate and fences:
 *   - a put into the right neighbour's window and a get from the left one
 *     are visible after the fence (a BSP superstep);
 *   - accumulates from every rank into one counter are atomic: the total is
 *     exact;
 *   - the model charges each operation as a message on the route and the
 *     fence as a barrier: a 100-byte put costs ts + tw*100 on top of the
 *     fences alone;
 *   - errors name the rank, the call and the value: bytes outside the
 *     target's window (target, offset, size), a target out of range, an
 *     operation before the first fence, a window used after vp_win_free.
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
	return VP_OK;
}

static const char *misuse_says[] = {
	"rank 0: vp_put: bytes [6, 6 + 4) are outside target 1's window of "
	"8 bytes",
	"rank 0: vp_get: target 5 is outside [0, 2)",
	"rank 0: vp_put: outside an epoch",
	"rank 0: vp_put: the window was freed by vp_win_free",
	"rank 0: vp_accumulate: offset 2 is not a multiple",
};

int main(void)
{
	vp_opts o = { .topology = "ring:4", .quiet = 1 };
	vp_stats st;
	double fences_only;
	int rc, i, which;

	memset(ok, 0, sizeof(ok));
	rc = vp_run(&o, ring_put_get, NULL, &st);
	tap_ok(rc == 0 && ok[0] && ok[1] && ok[2] && ok[3],
	       "ring:4: put to the right, get from the left, both visible "
	       "after the fence (%d)",
	       rc);
	o.topology = "full:4";
	memset(ok, 0, sizeof(ok));
	rc = vp_run(&o, accumulate, NULL, &st);
	tap_ok(rc == 0 && ok[0],
	       "%d accumulates of (1, 2) from each of 4 ranks into rank 0: "
	       "exact totals (%d)",
	       ADDS, rc);
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
	       "a 100-byte put costs ts + tw*100 = 200 on top of the fences "
	       "(%g - %g)",
	       st.model_time, fences_only);
	o.ts = o.tw = 0;
	for (i = 0; i < (int)(sizeof(misuse_says) / sizeof(misuse_says[0]));
	     i++) {
		rc = vp_run(&o, misuse, &i, &st);
		tap_ok(rc != 0 && strstr(st.error, misuse_says[i]),
		       "misuse %d fails (%s): %s", i, vp_strerror(rc),
		       st.error);
	}
	return tap_done();
}
