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
 *     fences on two windows in swapped order, are mismatches;
 *   - a NULL communicator names the rank and the call;
 *   - with VP_CHECK=buffers, a send buffer changed between vp_isend and
 *     the send's completion fails naming the destination, tag and size.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
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

/* ---- fences, frees and barriers ---- */

enum { FENCE_BARRIER, FREE_FENCE, SWAPPED, CORRECT };
static const char *const epoch_names[] = {
	"a fence on rank 0 against a barrier on the others",
	"a free on rank 0 against a fence and a put on the others",
	"fences on two windows in swapped order on odd ranks",
	"fences, puts, barriers and frees in one order on all ranks",
};

/* Each case makes two windows on the world; rank 0 (or the odd ranks)
 * does something else than the others, and no rank checks the results of
 * its calls after the mismatch: the run must fail by itself, before a
 * rank writes into a window another has freed. */
struct epoch_case {
	int kase;
	int *a[8], *b[8]; /* each rank's windows, freed after the run */
};

static int epochs(vp_comm *c, void *arg)
{
	struct epoch_case *e = arg;
	int kase = e->kase, r = vp_rank(c), p = vp_size(c);
	int *a = e->a[r] = calloc((size_t)p, sizeof(int));
	int *b = e->b[r] = calloc(1, sizeof(int));
	vp_win *wa, *wb;
	int rc;

	if (!a || !b)
		return VP_ENOMEM;
	if ((rc = vp_win_create(c, a, (size_t)p * sizeof(int), &wa)) ||
	    (rc = vp_win_create(c, b, sizeof(int), &wb)))
		goto out;
	switch (kase) {
	case FENCE_BARRIER:
		rc = r == 0 ? vp_win_fence(wa) : vp_barrier(c);
		break;
	case FREE_FENCE:
		if (r == 0) {
			rc = vp_win_free(wa);
			free(a);
			e->a[r] = NULL;
			break;
		}
		rc = vp_win_fence(wa);
		vp_put(wa, 0, (size_t)r * sizeof(int), &r, sizeof(r));
		vp_win_fence(wa);
		break;
	case SWAPPED:
		if (r % 2) {
			rc = vp_win_fence(wb);
			vp_win_fence(wa);
		} else {
			rc = vp_win_fence(wa);
			vp_win_fence(wb);
		}
		break;
	default:
		if ((rc = vp_win_fence(wa)) || (rc = vp_win_fence(wb)) ||
		    (rc = vp_put(wa, (r + 1) % p, (size_t)r * sizeof(int), &r,
				 sizeof(r))) ||
		    (rc = vp_win_fence(wa)) || (rc = vp_barrier(c)) ||
		    (rc = vp_win_fence(wb)) || (rc = vp_win_free(wa)) ||
		    (rc = vp_win_free(wb)))
			break;
		rc = a[(r + p - 1) % p] == (r + p - 1) % p ? VP_OK : VP_EINVAL;
	}
out:
	/* the windows' memory is freed after the run: on a failed run a rank
	 * that did not see the failure yet may still be reading it */
	return rc;
}

static void test_epochs(void)
{
	static const char *const specs[] = { "full:2", "full:8" };
	const char *want[][2] = {
		{ "vp_win_fence", "vp_barrier" },
		{ "vp_win_free", "vp_win_fence" },
		{ "window 1 here but window 2", "window 2 here but window 1" },
		{ "", "" },
	};
	vp_stats st;
	size_t i;
	int k;

	for (i = 0; i < 2; i++)
		for (k = FENCE_BARRIER; k <= CORRECT; k++) {
			struct epoch_case e = { .kase = k };
			int rc = run(specs[i], epochs, &e, &st), r;

			for (r = 0; r < 8; r++) {
				free(e.a[r]);
				free(e.b[r]);
			}
			if (k == CORRECT) {
				tap_ok(rc == VP_OK, "%s: %s works (%d): %s",
				       specs[i], epoch_names[k], rc,
				       rc ? st.error : "");
				continue;
			}
			tap_ok(rc == VP_EMISMATCH &&
				   (strstr(st.error, want[k][0]) ||
				    strstr(st.error, want[k][1])) &&
				   strstr(st.error, " here but "),
			       "%s: %s is a mismatch (%d): %s", specs[i],
			       epoch_names[k], rc, st.error);
		}
}

/* ---- VP_CHECK=buffers ---- */

struct changed {
	size_t n;   /* bytes sent */
	int change; /* rank 0 writes into the buffer before its wait */
	unsigned char *sent; /* rank 0's buffer, freed after the run */
};

/* Rank 0 starts a send of n bytes to rank 1 (tag 7), may change its
 * buffer, then tells rank 1 (tag 8) to receive it and waits; the change
 * happens before rank 1 reads the buffer, so the program has no race,
 * only MPI's erroneous change. */
static int change_buffer(vp_comm *c, void *arg)
{
	struct changed *k = arg;
	unsigned char *buf = calloc(k->n, 1);
	vp_request q;
	int go = 1, rc;

	if (!buf)
		return VP_ENOMEM;
	if (vp_rank(c) == 1) {
		if (!(rc = vp_recv_tag(c, 0, 8, &go, sizeof(go), NULL)))
			rc = vp_recv_tag(c, 0, 7, buf, k->n, NULL);
		free(buf);
		return rc;
	}
	k->sent = buf;
	memset(buf, 3, k->n);
	if ((rc = vp_isend(c, 1, 7, buf, k->n, &q)))
		goto out;
	if (k->change)
		buf[k->n / 2] ^= 1;
	if (!(rc = vp_send_tag(c, 1, 8, &go, sizeof(go))))
		rc = vp_wait(&q, NULL);
out:
	return rc; /* buf may still be lent out: freed after the run */
}

static void test_buffers(void)
{
	size_t sizes[] = { 8, 1 << 20 };
	vp_stats st;
	size_t i;
	int rc;

	for (i = 0; i < 2; i++) {
		struct changed k = { sizes[i], 1, NULL };
		char want[96];

		snprintf(want, sizeof(want), "rank 1, tag 7, %zu bytes",
			 sizes[i]);
		setenv("VP_CHECK", "buffers", 1);
		rc = run("full:2", change_buffer, &k, &st);
		free(k.sent);
		tap_ok(rc == VP_EINVAL && st.error_rank == 0 &&
			   strstr(st.error, "rank 0: vp_wait: ") &&
			   strstr(st.error, want) &&
			   strstr(st.error, "changed before the send"),
		       "VP_CHECK=buffers: a %zu-byte send buffer changed "
		       "before vp_wait fails (%d): %s",
		       sizes[i], rc, st.error);
		k.change = 0;
		rc = run("full:2", change_buffer, &k, &st);
		free(k.sent);
		tap_ok(rc == VP_OK,
		       "VP_CHECK=buffers: an unchanged %zu-byte buffer "
		       "passes (%d): %s",
		       sizes[i], rc, rc ? st.error : "");
		unsetenv("VP_CHECK");
	}
}

/* ---- a NULL communicator ---- */

static int null_comm(vp_comm *c, void *arg)
{
	int which = *(int *)arg, x = 0;

	if (vp_rank(c) != 1)
		return VP_OK;
	switch (which) {
	case 0:
		return vp_barrier(NULL);
	case 1:
		return vp_bcast(NULL, &x, 1, VP_INT32, 0, VP_ALG_AUTO);
	default:
		return vp_send(NULL, 0, &x, sizeof(x));
	}
}

static void test_null_comm(void)
{
	const char *calls[] = { "vp_barrier", "vp_bcast", "vp_send" };
	vp_stats st;
	int k;

	for (k = 0; k < 3; k++) {
		char want[96];
		int rc = run("full:2", null_comm, &k, &st);

		snprintf(want, sizeof(want),
			 "rank 1: %s: the communicator is NULL", calls[k]);
		tap_ok(rc == VP_EINVAL && st.error_rank == 1 &&
			   strstr(st.error, want),
		       "%s(NULL) fails naming the rank and the call (%d): %s",
		       calls[k], rc, st.error);
	}
}

int main(void)
{
	test_twice();
	test_stale();
	test_epochs();
	test_buffers();
	test_null_comm();
	return tap_done();
}
