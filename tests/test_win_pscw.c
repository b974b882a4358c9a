/*
 * test_win_pscw.c - generalized active target (post, start, complete, wait,
 * test) and the window kinds (vp_win_allocate, vp_win_shared_query,
 * dynamic windows):
 *   - a ring: each rank exposes its window to its left neighbour and
 *     accesses its right neighbour's; puts, gets and accumulates are
 *     visible after complete and wait, 20 epochs in a row, threads and
 *     fibers (p = 64 on fibers);
 *   - a star: every rank accumulates into rank 0, which waits with a
 *     vp_win_test loop; the others expose to nobody;
 *   - the model: start waits for the target's post (its T), wait for the
 *     origin's complete (its operations' arrival): exact times;
 *   - a start whose target never posts, a wait for an origin that never
 *     completes: reported as deadlocks naming the call;
 *   - misuse names rank, call and value: a target outside the start group,
 *     complete without start, wait without post, a second start, a fence
 *     inside an epoch, a group rank out of range or twice;
 *   - vp_win_allocate: the ranks' memories are one block (shared query),
 *     a store by one rank is a load by another after a barrier;
 *   - dynamic windows: memory attached at any time, addresses as offsets,
 *     an operation outside the attached memory refused, detach;
 *   - a window made after one whose communicator was freed.
 * Everything but the shared block runs twice: in shared memory and with
 * VP_WIN=messages (operations carried as messages).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define PMAX 64
#define EPOCHS 20

static int bad[PMAX];
static double when[PMAX];

static int ring(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc, e;
	int left = (me + p - 1) % p, right = (me + 1) % p;
	int32_t mem[3], got, one;
	vp_win *w;

	(void)arg;
	mem[0] = -1;
	mem[1] = 1000 * me;
	mem[2] = 0;
	if ((rc = vp_win_create(c, mem, sizeof(mem), &w)))
		return rc;
	for (e = 0; e < EPOCHS; e++) {
		one = e + 1;
		got = -1;
		if ((rc = vp_win_post(w, &left, 1)) ||
		    (rc = vp_win_start(w, &right, 1)) ||
		    (rc = vp_put(w, right, 0, &me, sizeof(me))) ||
		    (rc = vp_get(w, right, 4, &got, sizeof(got))) ||
		    (rc = vp_accumulate(w, right, 8, &one, 1, VP_INT32,
					VP_SUM)) ||
		    (rc = vp_win_complete(w)) || (rc = vp_win_wait(w)))
			return rc;
		bad[me] += mem[0] != left || got != 1000 * right + e;
		bad[me] += mem[2] != (e + 1) * (e + 2) / 2;
		mem[1]++; /* the exposure has ended: the window is ours */
		/* the left neighbour reads mem[1] in the next epoch only */
	}
	return vp_win_free(w);
}

static int star(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc, i, done = 0, zero = 0;
	int ranks[PMAX];
	int64_t sum = 0, mine = me;
	vp_win *w;

	(void)arg;
	for (i = 1; i < p; i++)
		ranks[i - 1] = i;
	if ((rc = vp_win_create(c, &sum, sizeof(sum), &w)))
		return rc;
	if (me == 0) {
		if ((rc = vp_win_post(w, ranks, p - 1)))
			return rc;
		while (!done && !(rc = vp_win_test(w, &done)))
			;
		if (rc)
			return rc;
		bad[me] += sum != (int64_t)p * (p - 1) / 2;
	} else if ((rc = vp_win_post(w, NULL, 0)) ||
		   (rc = vp_win_start(w, &zero, 1)) ||
		   (rc = vp_accumulate(w, 0, 0, &mine, 1, VP_INT64, VP_SUM)) ||
		   (rc = vp_win_complete(w)) || (rc = vp_win_wait(w))) {
		return rc;
	}
	return vp_win_free(w);
}

/* Rank 1 exposes at T = 300; rank 0 computes 500, starts, puts 100
 * bytes (ts 100 + tw 100), completes at 700: rank 1's wait ends at 700.
 * Rank 0 then exposes at 700 to rank 1, which starts at 700. */
static int timed(vp_comm *c, void *arg)
{
	char mem[100] = { 0 }, data[100] = { 0 };
	int me = vp_rank(c), peer = !me, rc;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, mem, sizeof(mem), &w)))
		return rc;
	if (me == 1) {
		if ((rc = vp_compute(c, 300)) || (rc = vp_win_post(w, &peer, 1)) ||
		    (rc = vp_win_wait(w)))
			return rc;
		when[1] = vp_time(c);
		if ((rc = vp_win_start(w, &peer, 1)) ||
		    (rc = vp_win_complete(w)))
			return rc;
		when[3] = vp_time(c);
	} else {
		if ((rc = vp_compute(c, 500)) ||
		    (rc = vp_win_start(w, &peer, 1)) ||
		    (rc = vp_put(w, 1, 0, data, 100)) ||
		    (rc = vp_win_complete(w)))
			return rc;
		when[0] = vp_time(c);
		if ((rc = vp_compute(c, 50)) || (rc = vp_win_post(w, &peer, 1)) ||
		    (rc = vp_win_wait(w)))
			return rc;
		when[2] = vp_time(c);
	}
	return vp_win_free(w);
}

/* 0: both start on each other, nobody posts; 1: rank 0 waits for rank 1,
 * which started but receives a message nobody sends. */
static int stuck(vp_comm *c, void *arg)
{
	int which = *(int *)arg, me = vp_rank(c), peer = !me, rc, x;
	char mem[8];
	vp_win *w;

	if ((rc = vp_win_create(c, mem, sizeof(mem), &w)))
		return rc;
	if (which == 0)
		return vp_win_start(w, &peer, 1);
	if (me == 0)
		return (rc = vp_win_post(w, &peer, 1)) ? rc : vp_win_wait(w);
	if ((rc = vp_win_start(w, &peer, 1)))
		return rc;
	return vp_recv(c, 0, &x, sizeof(x));
}

static const char *stuck_says[] = {
	"vp_win_start",
	"vp_win_wait",
};

/* Rank 0 exposes its window to itself and accesses it, then errs; the
 * others wait in a barrier (the failure ends it). */
static int misuse(vp_comm *c, void *arg)
{
	int which = *(int *)arg, me = vp_rank(c), rc, x = 0, self = 0;
	int twice[2] = { 1, 1 }, far = 7;
	char mem[8];
	vp_win *w;

	if ((rc = vp_win_create(c, mem, sizeof(mem), &w)))
		return rc;
	if (me != 0)
		return vp_barrier(c);
	if ((rc = vp_win_post(w, &self, 1)) || (rc = vp_win_start(w, &self, 1)))
		return rc;
	if (which == 0)
		return vp_put(w, 2, 0, &x, sizeof(x));
	if (which == 3)
		return vp_win_start(w, &self, 1);
	if (which == 4)
		return vp_win_fence(w);
	if ((rc = vp_win_complete(w)))
		return rc;
	if (which == 1)
		return vp_win_complete(w);
	if ((rc = vp_win_wait(w)))
		return rc;
	if (which == 2)
		return vp_win_wait(w);
	return vp_win_start(w, which == 5 ? &far : twice, which == 5 ? 1 : 2);
}

static const char *misuse_says[] = {
	"rank 0: vp_put: target 2 is not in the group of vp_win_start",
	"rank 0: vp_win_complete: no access epoch is open: call vp_win_start",
	"rank 0: vp_win_wait: no exposure epoch is open: call vp_win_post",
	"rank 0: vp_win_start: an epoch of vp_win_start is open already",
	"rank 0: vp_win_fence: an epoch of vp_win_start is open on this "
	"window",
	"rank 0: vp_win_start: group rank 7 is outside [0, 3)",
	"rank 0: vp_win_start: rank 1 is twice in the group",
};
/* ... and its code: out of its epoch VP_ESYNC, a bad group not */
static const int misuse_code[] = { VP_ESYNC, VP_ESYNC, VP_ESYNC, VP_ESYNC,
				   VP_ESYNC, VP_ERANK, VP_EINVAL };

static int allocated(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc, i;
	void *base, *other;
	size_t bytes, size = sizeof(int32_t) * (size_t)(me + 1);
	int32_t *mine;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_allocate(c, size, &base, &w)))
		return rc;
	mine = base;
	for (i = 0; i <= me; i++)
		mine[i] = 100 * me + i;
	if ((rc = vp_barrier(c)))
		return rc;
	/* rank r's memory follows rank r - 1's: r (r + 1) / 2 ints in */
	for (i = 0; i < p; i++) {
		if ((rc = vp_win_shared_query(w, i, &other, &bytes)))
			return rc;
		bad[me] += bytes != sizeof(int32_t) * (size_t)(i + 1);
		bad[me] += (char *)other - (char *)base !=
			   (long)sizeof(int32_t) * (i * (i + 1) / 2 -
						    me * (me + 1) / 2);
		bad[me] += ((int32_t *)other)[i] != 100 * i + i;
	}
	return vp_win_free(w);
}

static int dynamic(vp_comm *c, void *arg)
{
	/* each rank's attached memory outlives the run: when the misuse
	 * case fails the run, other ranks may still be putting into it */
	static int64_t cells_of[PMAX][4];
	int me = vp_rank(c), p = vp_size(c), rc, right = (me + 1) % p;
	int64_t *cells = cells_of[me], addr[PMAX], mine;
	int32_t got = -1;
	int which = *(int *)arg;
	vp_win *w;

	memset(cells, 0, sizeof(cells_of[me]));
	if ((rc = vp_win_create_dynamic(c, &w)) ||
	    (rc = vp_win_attach(w, cells, 4 * sizeof(*cells))))
		goto out;
	cells[1] = 10 * me;
	mine = (int64_t)(uintptr_t)cells;
	if ((rc = vp_allgather(c, &mine, addr, 1, VP_INT64, VP_ALG_AUTO)) ||
	    (rc = vp_win_fence(w)))
		goto out;
	if (which == 1 && me == 0) { /* one past the attached memory: the
				      * origin (shared memory) or the target
				      * (messages) refuses it */
		if (!(rc = vp_put(w, right, (size_t)addr[right] + 32, &me, 4)))
			rc = vp_win_fence(w);
		goto out;
	}
	if ((rc = vp_put(w, right, (size_t)addr[right], &me, 4)) ||
	    (rc = vp_get(w, right, (size_t)addr[right] + 8, &got, 4)) ||
	    (rc = vp_win_fence(w)))
		goto out;
	bad[me] += (int32_t)cells[0] != (me + p - 1) % p ||
		   got != 10 * right;
	if ((rc = vp_win_detach(w, cells)))
		goto out;
	rc = vp_win_free(w);
out:
	return rc;
}

/* A window on a sub-communicator, freed with it; then a window on the
 * world (the windows of a freed communicator are not counted on
 * it once it is freed). */
static int after_freed_comm(vp_comm *c, void *arg)
{
	int me = vp_rank(c), rc, x = me, right = (me + 1) % vp_size(c);
	int32_t mem = -1;
	vp_comm *half;
	vp_win *w;

	(void)arg;
	if ((rc = vp_comm_split(c, me % 2, me, &half)) ||
	    (rc = vp_win_create(half, &mem, sizeof(mem), &w)) ||
	    (rc = vp_win_free(w)) || (rc = vp_comm_free(half)) ||
	    (rc = vp_win_create(c, &mem, sizeof(mem), &w)) ||
	    (rc = vp_win_fence(w)) ||
	    (rc = vp_put(w, right, 0, &x, sizeof(x))) ||
	    (rc = vp_win_fence(w)))
		return rc;
	bad[me] += mem != (me + vp_size(c) - 1) % vp_size(c);
	return vp_win_free(w);
}

static int none_bad(int p)
{
	int i, n = 0;

	for (i = 0; i < p; i++)
		n += bad[i];
	memset(bad, 0, sizeof(bad));
	return n == 0;
}

static void run_all(const char *path, int messages)
{
	vp_opts o = { .topology = "full:5", .quiet = 1 };
	vp_stats st;
	int rc, i;

	rc = vp_run(&o, ring, NULL, &st);
	tap_ok(rc == 0 && none_bad(5),
	       "%s: ring of 5: %d epochs of post, start, put, get, "
	       "accumulate, complete, wait (%s)",
	       path, EPOCHS, rc ? st.error : "");
	o.topology = "full:64";
	o.fibers = 1;
	rc = vp_run(&o, ring, NULL, &st);
	tap_ok(rc == 0 && none_bad(64),
	       "%s: the same on 64 fibers (%s)", path, rc ? st.error : "");
	o.fibers = 0;
	o.topology = "full:6";
	rc = vp_run(&o, star, NULL, &st);
	tap_ok(rc == 0 && none_bad(6),
	       "%s: a star of 6 into rank 0, which tests until done (%s)",
	       path, rc ? st.error : "");
	o.topology = "full:2";
	o.ts = 100;
	o.tw = 1;
	rc = vp_run(&o, timed, NULL, &st);
	tap_ok(rc == 0 && when[0] == 700 && when[1] == 700 &&
		   when[2] == 750 && when[3] == 750,
	       "%s: model: the put ends at 700, the wait too; the next start "
	       "waits for the post at 750 (%g %g %g %g)",
	       path, when[0], when[1], when[2], when[3]);
	o.ts = o.tw = 0;
	for (i = 0; i < 2; i++) {
		rc = vp_run(&o, stuck, &i, &st);
		tap_ok(rc == VP_EDEADLOCK && strstr(st.error, stuck_says[i]),
		       "%s: deadlock %d is reported (%s): %s", path, i,
		       vp_strerror(rc), st.error);
	}
	o.topology = "full:3";
	for (i = 0; i < (int)(sizeof(misuse_says) / sizeof(misuse_says[0]));
	     i++) {
		rc = vp_run(&o, misuse, &i, &st);
		tap_ok(rc == misuse_code[i] && strstr(st.error, misuse_says[i]),
		       "%s: misuse %d fails (%s): %s", path, i,
		       vp_strerror(rc), st.error);
	}
	o.topology = "full:4";
	if (!messages) {
		rc = vp_run(&o, allocated, NULL, &st);
		tap_ok(rc == 0 && none_bad(4),
		       "%s: vp_win_allocate: one block, rank after rank; "
		       "stores seen by every rank (%s)",
		       path, rc ? st.error : "");
	}
	i = 0;
	rc = vp_run(&o, dynamic, &i, &st);
	tap_ok(rc == 0 && none_bad(4),
	       "%s: dynamic window: attach, put and get at addresses, "
	       "detach (%s)",
	       path, rc ? st.error : "");
	i = 1;
	rc = vp_run(&o, dynamic, &i, &st);
	tap_ok(rc != 0 && strstr(st.error, "are not inside memory that "
					   "target 1 attached"),
	       "%s: dynamic window: a put past the attached memory fails: "
	       "%s",
	       path, st.error);
	rc = vp_run(&o, after_freed_comm, NULL, &st);
	tap_ok(rc == 0 && none_bad(4),
	       "%s: a window after one on a freed sub-communicator (%s)",
	       path, rc ? st.error : "");
	memset(bad, 0, sizeof(bad));
}

int main(void)
{
	unsetenv("VP_WIN");
	run_all("shared memory", 0);
	setenv("VP_WIN", "messages", 1);
	run_all("VP_WIN=messages", 1);
	return tap_done();
}
