/*
 * test_handles.c - a request or a window handle used wrongly fails the run
 * with VP_EINVAL or VP_EMISMATCH, naming the rank, the call and the
 * handle, instead of touching another request or another window:
 *   - one request named twice in an array given to vp_waitall,
 *     vp_testall or vp_waitany (VP_REQUEST_NULL repeated is fine);
 *   - a copy of a completed request's handle, waited or tested after any
 *     number of newer requests (its slot may hold one of them);
 *   - vp_win_fence, vp_win_free and vp_barrier are different collective
 *     calls: one rank's fence meeting another's free or barrier, or
 *     fences on two windows in swapped order, are mismatches.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

static int run(const char *spec, int (*fn)(vp_comm *, void *), void *arg,
	       vp_stats *st)
{
	vp_opts o = { .topology = spec, .quiet = 1 };

	return vp_run(&o, fn, arg, st);
}

/* ---- one request twice in an array ---- */

enum { WAITALL, TESTALL, WAITANY };
static const char *const array_calls[] = { "vp_waitall", "vp_testall",
					   "vp_waitany" };

struct twice {
	int call;
	int nulls_only; /* VP_REQUEST_NULL repeated, the request once */
};

/* Rank 1 sends one int; rank 0 receives it with a request it names at
 * indexes 1 and 3 of a four-entry array (0 and 2 are null). */
static int request_twice(vp_comm *c, void *arg)
{
	const struct twice *t = arg;
	vp_request reqs[4] = { VP_REQUEST_NULL };
	vp_status sts[4];
	int x = 7, y = 0, done = 0, idx, rc;

	if (vp_rank(c) == 1)
		return vp_send(c, 0, &x, sizeof(x));
	if ((rc = vp_irecv(c, 1, 0, &y, sizeof(y), &reqs[1])))
		return rc;
	if (!t->nulls_only)
		reqs[3] = reqs[1];
	switch (t->call) {
	case WAITALL:
		return vp_waitall(4, reqs, sts);
	case TESTALL:
		while (!done)
			if ((rc = vp_testall(4, reqs, &done, sts)))
				return rc;
		return y == 7 ? VP_OK : VP_EINVAL;
	default:
		if ((rc = vp_waitany(4, reqs, &idx, sts)) || t->nulls_only)
			return rc;
		/* the repeat must not let a second call complete it again */
		return vp_waitany(4, reqs, &idx, sts);
	}
}

static void test_twice(void)
{
	vp_stats st;
	int k;

	for (k = WAITALL; k <= WAITANY; k++) {
		struct twice t = { k, 0 };
		int rc = run("full:2", request_twice, &t, &st);

		tap_ok(rc == VP_EINVAL && st.error_rank == 0 &&
			   strstr(st.error, "rank 0") &&
			   strstr(st.error, array_calls[k]) &&
			   strstr(st.error, "requests 1 and 3"),
		       "%s refuses one request at indexes 1 and 3 (%d): %s",
		       array_calls[k], rc, st.error);
		t.nulls_only = 1;
		rc = run("full:2", request_twice, &t, &st);
		tap_ok(rc == VP_OK,
		       "%s takes VP_REQUEST_NULL twice (%d): %s",
		       array_calls[k], rc, rc ? st.error : "");
	}
}

/* ---- a stale copy of a handle ---- */

struct stale {
	int newer; /* requests started and completed after the stale one */
	int by_test; /* vp_test on the stale copy instead of vp_wait */
	int rc;      /* what the call on the stale copy returned */
};

/* Rank 0 completes a receive, keeps a copy of its handle, runs `newer`
 * requests, posts a receive that may reuse the slot, and waits on the
 * copy. Rank 1 sends the two messages. */
static int stale_wait(vp_comm *c, void *arg)
{
	struct stale *s = arg;
	vp_request a, copy, b, n;
	int x = 1, y = 0, z = 0, done, i, rc;

	if (vp_rank(c) == 1) {
		if ((rc = vp_send_tag(c, 0, 1, &x, sizeof(x))))
			return rc;
		return vp_send_tag(c, 0, 2, &x, sizeof(x));
	}
	if ((rc = vp_irecv(c, 1, 1, &y, sizeof(y), &a)))
		return rc;
	copy = a;
	if ((rc = vp_wait(&a, NULL)))
		return rc;
	for (i = 0; i < s->newer; i++)
		if ((rc = vp_isend(c, VP_PROC_NULL, 0, &x, sizeof(x), &n)) ||
		    (rc = vp_wait(&n, NULL)))
			return rc;
	if ((rc = vp_irecv(c, 1, 2, &z, sizeof(z), &b)))
		return rc;
	if (s->by_test)
		rc = vp_test(&copy, &done, NULL);
	else
		rc = vp_wait(&copy, NULL);
	if ((s->rc = rc))
		return rc;
	return vp_wait(&b, NULL);
}

static void test_stale(void)
{
	int newer[] = { 0, 1, 62, 63, 64, 65, 1023, 1100, 5000 };
	vp_stats st;
	size_t i;
	int t;

	for (t = 0; t < 2; t++)
		for (i = 0; i < sizeof(newer) / sizeof(newer[0]); i++) {
			struct stale s = { newer[i], t, 1 };
			const char *call = t ? "vp_test" : "vp_wait";
			int rc = run("full:2", stale_wait, &s, &st);
			char want[64];

			snprintf(want, sizeof(want), "rank 0: %s: ", call);
			tap_ok(rc == VP_EINVAL && s.rc == VP_EINVAL &&
				   st.error_rank == 0 &&
				   strstr(st.error, want) &&
				   strstr(st.error, "already completed"),
			       "%s on a completed request's copy after %d "
			       "newer requests fails (%d): %s",
			       call, newer[i], rc, st.error);
		}
}

int main(void)
{
	test_twice();
	test_stale();
	return tap_done();
}
