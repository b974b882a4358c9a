/*
 * test_win_lock.c - passive target and atomics (vp_win_lock and friends,
 * vp_get_accumulate, vp_fetch_and_op, vp_compare_and_swap):
 *   - an exclusive lock excludes every other lock of its target: p ranks
 *     each read, increment and write back one counter many times under
 *     it, with a plain get and put, and lose no increment;
 *   - shared locks coexist: two ranks hold one target's shared lock at
 *     once (each waits for the other's message while holding it);
 *   - an exclusive lock excludes shared ones: a reader that asks while
 *     the writer holds it sees the writer's last value, not its first;
 *   - concurrent fetch-and-add from p ranks under vp_win_lock_all loses
 *     no update and every fetch sees a different value; SUM accumulates
 *     under shared locks are exact; vp_compare_and_swap lets exactly one
 *     rank claim each slot; VP_NO_OP reads, VP_REPLACE swaps;
 *     vp_win_update applies its function, with or without a result;
 *   - the target calls nothing: it waits in vp_recv while others lock and
 *     write its window;
 *   - a lock that can never be granted fails the run with VP_EDEADLOCK
 *     naming the holder;
 *   - epoch errors return VP_ESYNC naming rank, call and target; windows
 *     carried as messages (VP_WIN=messages) refuse passive target.
 * make check runs it again with fibers (VP_FIBERS=1): a waiting fiber
 * yields its carrier.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vp.h"

#define P 6
#define ITERS 300

static int ok[P];
static int64_t seen[P][ITERS];

/* Read, increment, write back under the exclusive lock of rank 0. */
static int exclusive_counter(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc, i, found;
	int64_t counter = 0, v;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, &counter, sizeof(counter), &w)) ||
	    (rc = vp_barrier(c)))
		return rc;
	for (i = 0; i < ITERS; i++) {
		if ((rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0)) ||
		    (rc = vp_get(w, 0, 0, &v, sizeof(v))) ||
		    (rc = vp_win_flush(w, 0)))
			return rc;
		/* give the CPU (and a fiber's carrier) away inside the
		 * lock: without exclusion increments would be lost */
		sched_yield();
		if ((rc = vp_iprobe(c, VP_ANY_SOURCE, 99, &found, NULL)))
			return rc;
		v++;
		if ((rc = vp_put(w, 0, 0, &v, sizeof(v))) ||
		    (rc = vp_win_unlock(w, 0)))
			return rc;
	}
	if ((rc = vp_barrier(c)))
		return rc;
	ok[me] = me != 0 || counter == (int64_t)p * ITERS;
	if (me == 0 && !ok[0])
		tap_diag("counter %lld, want %d", (long long)counter,
			 p * ITERS);
	return vp_win_free(w);
}

/* Ranks 1 and 2 hold target 0's shared lock at the same time. */
static int shared_coexist(vp_comm *c, void *arg)
{
	int me = vp_rank(c), rc, x = 0, token = 7, back = 0;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, &x, sizeof(x), &w)))
		return rc;
	if (me == 1 || me == 2) {
		if ((rc = vp_win_lock(w, VP_LOCK_SHARED, 0)))
			return rc;
		/* both hold it before either lets go */
		if ((rc = vp_sendrecv(c, 3 - me, &token, sizeof(token),
				      3 - me, &back, sizeof(back))) ||
		    (rc = vp_win_unlock(w, 0)))
			return rc;
	}
	ok[me] = 1;
	return vp_win_free(w);
}

/* Rank 0 writes 1, then (after telling rank 1 to ask) 2, under its
 * exclusive lock of itself; rank 1's shared lock waits, then reads 2. */
static int exclusive_excludes_shared(vp_comm *c, void *arg)
{
	int me = vp_rank(c), rc, x = 0, v = 0, go = 1;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, &x, sizeof(x), &w)))
		return rc;
	if (me == 0) {
		v = 1;
		if ((rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0)) ||
		    (rc = vp_put(w, 0, 0, &v, sizeof(v))) ||
		    (rc = vp_send(c, 1, &go, sizeof(go))))
			return rc;
		usleep(20000); /* rank 1 asks meanwhile */
		v = 2;
		if ((rc = vp_put(w, 0, 0, &v, sizeof(v))) ||
		    (rc = vp_win_unlock(w, 0)))
			return rc;
		ok[0] = 1;
	} else if (me == 1) {
		if ((rc = vp_recv(c, 0, &go, sizeof(go))) ||
		    (rc = vp_win_lock(w, VP_LOCK_SHARED, 0)) ||
		    (rc = vp_get(w, 0, 0, &v, sizeof(v))) ||
		    (rc = vp_win_unlock(w, 0)))
			return rc;
		ok[1] = v == 2;
		if (!ok[1])
			tap_diag("rank 1 read %d under its shared lock, want 2",
				 v);
	} else {
		ok[me] = 1;
	}
	return vp_win_free(w);
}

/* Every rank adds 1 to rank 0's counter ITERS times with fetch-and-add
 * under vp_win_lock_all, and 2 to counter 1 with accumulates under shared
 * locks of target 0; rank 0 waits in a receive meanwhile. */
static int fetch_add(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc, i, j, r;
	int64_t counter[2] = { 0, 0 }, one = 1, two = 2;
	char done = 0;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, counter, sizeof(counter), &w)) ||
	    (rc = vp_barrier(c)))
		return rc;
	if ((rc = vp_win_lock_all(w, 0)))
		return rc;
	for (i = 0; i < ITERS; i++)
		if ((rc = vp_fetch_and_op(w, 0, 0, &one, &seen[me][i],
					  VP_INT64, VP_SUM)))
			return rc;
	if ((rc = vp_win_unlock_all(w)))
		return rc;
	for (i = 0; i < ITERS; i++)
		if ((rc = vp_win_lock(w, VP_LOCK_SHARED, 0)) ||
		    (rc = vp_accumulate(w, 0, 8, &two, 1, VP_INT64, VP_SUM)) ||
		    (rc = vp_win_unlock(w, 0)))
			return rc;
	/* the target took no part: it only waits for everyone's word */
	if (me == 0) {
		for (r = 1; r < p; r++)
			if ((rc = vp_recv(c, r, &done, 1)))
				return rc;
	} else if ((rc = vp_send(c, 0, &done, 1))) {
		return rc;
	}
	if ((rc = vp_barrier(c)))
		return rc;
	if (me == 0) {
		/* every value 0 .. p*ITERS-1 fetched exactly once */
		char *hit = calloc((size_t)p * ITERS, 1);
		int good = hit && counter[0] == (int64_t)p * ITERS &&
			   counter[1] == (int64_t)2 * p * ITERS;

		for (r = 0; good && r < p; r++)
			for (j = 0; good && j < ITERS; j++) {
				int64_t v = seen[r][j];

				good = v >= 0 && v < (int64_t)p * ITERS &&
				       !hit[v] && (j == 0 || v > seen[r][j - 1]);
				if (good)
					hit[v] = 1;
			}
		free(hit);
		ok[0] = good;
		if (!good)
			tap_diag("counters %lld %lld, want %d %d",
				 (long long)counter[0], (long long)counter[1],
				 p * ITERS, 2 * p * ITERS);
	} else {
		ok[me] = 1;
	}
	return vp_win_free(w);
}

/* Slots of rank 0 start at -1; every rank tries to claim each one with
 * compare-and-swap; a claim returns -1 (won) or the winner. Then VP_NO_OP
 * reads and VP_REPLACE swaps. */
#define SLOTS 64
static int32_t won_by[P][SLOTS];

/* vp_win_update's function: adds 100 to the first int32 */
static void add_100(void *bytes, size_t n, void *arg)
{
	int32_t v;

	(void)arg;
	if (n >= sizeof(v)) {
		memcpy(&v, bytes, sizeof(v));
		v += 100;
		memcpy(bytes, &v, sizeof(v));
	}
}

static int cas(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), rc, s, r;
	int32_t slots[SLOTS], minus = -1, mine = me, got, old, n[3];
	vp_win *w;

	(void)arg;
	for (s = 0; s < SLOTS; s++)
		slots[s] = -1;
	if ((rc = vp_win_create(c, slots, sizeof(slots), &w)) ||
	    (rc = vp_barrier(c)) || (rc = vp_win_lock_all(w, 0)))
		return rc;
	for (s = 0; s < SLOTS; s++)
		if ((rc = vp_compare_and_swap(w, 0, 4 * (size_t)s, &mine,
					      &minus, &won_by[me][s],
					      VP_INT32)))
			return rc;
	if ((rc = vp_win_unlock_all(w)) || (rc = vp_barrier(c)))
		return rc;
	ok[me] = 1;
	if (me == 0) {
		for (s = 0; s < SLOTS; s++) {
			int winners = 0;

			for (r = 0; r < p; r++)
				winners += won_by[r][s] == -1;
			/* the winner is in the slot; the losers saw it */
			for (r = 0; r < p; r++)
				if (won_by[r][s] != -1 &&
				    won_by[r][s] != slots[s])
					ok[0] = 0;
			if (winners != 1 || won_by[slots[s]][s] != -1)
				ok[0] = 0;
		}
		/* VP_NO_OP reads, VP_REPLACE swaps, on rank 0's own window */
		int32_t before[5] = { slots[0], slots[1], slots[2], slots[3],
				      slots[4] };
		int32_t fetched[2] = { -7, -7 };

		n[0] = 40, n[1] = 41, n[2] = -5;
		if ((rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0)) ||
		    (rc = vp_fetch_and_op(w, 0, 0, NULL, &got, VP_INT32,
					  VP_NO_OP)) ||
		    (rc = vp_get_accumulate(w, 0, 4, n, &old, 1, VP_INT32,
					    VP_REPLACE)) ||
		    (rc = vp_get_accumulate(w, 0, 8, n + 1, n + 2, 1,
					    VP_INT32, VP_MAX)) ||
		    (rc = vp_win_update(w, 0, 12, 8, fetched, add_100,
					NULL)) ||
		    (rc = vp_win_update(w, 0, 16, 4, NULL, add_100, NULL)) ||
		    (rc = vp_win_unlock(w, 0)))
			return rc;
		ok[0] = ok[0] && got == before[0] && slots[0] == before[0] &&
			old == before[1] && slots[1] == 40 &&
			n[2] == before[2] && slots[2] == 41 &&
			fetched[0] == before[3] && fetched[1] == before[4] &&
			slots[3] == before[3] + 100 &&
			slots[4] == before[4] + 100;
		if (!ok[0])
			tap_diag("slots %d %d %d, read %d, swapped out %d, "
				 "fetched %d",
				 slots[0], slots[1], slots[2], got, old, n[2]);
	}
	return vp_win_free(w);
}

/* ---- deadlock and misuse ---- */

/* Rank 0 holds target 0's exclusive lock and waits for a message rank 1
 * sends only after it has the lock. */
static int never_granted(vp_comm *c, void *arg)
{
	int me = vp_rank(c), rc, x = 0;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, &x, sizeof(x), &w)))
		return rc;
	if (me == 0 && !(rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0)) &&
	    !(rc = vp_send(c, 1, &x, sizeof(x))))
		rc = vp_recv(c, 1, &x, sizeof(x));
	if (me == 1 && !(rc = vp_recv(c, 0, &x, sizeof(x))) &&
	    !(rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0)))
		rc = vp_send(c, 0, &x, sizeof(x));
	return rc;
}

static int misuse(vp_comm *c, void *arg)
{
	int which = *(int *)arg, me = vp_rank(c), rc, x = 0;
	vp_win *w;

	if ((rc = vp_win_create(c, &x, sizeof(x), &w)))
		return rc;
	if (me == 0) {
		switch (which) {
		case 0:
			return vp_put(w, 1, 0, &x, sizeof(x));
		case 1:
			return vp_win_unlock(w, 1);
		case 2:
			if ((rc = vp_win_lock(w, VP_LOCK_SHARED, 1)))
				return rc;
			return vp_win_lock(w, VP_LOCK_SHARED, 1);
		case 3:
			if ((rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 1)))
				return rc;
			return vp_win_fence(w);
		case 4:
			if ((rc = vp_win_lock(w, VP_LOCK_SHARED, 1)))
				return rc;
			return vp_get(w, 0, 0, &x, sizeof(x));
		case 5:
			return vp_win_flush(w, 1);
		case 6:
			return vp_win_lock(w, 3, 1);
		case 7:
			return vp_win_lock(w, VP_LOCK_SHARED, 1);
		case 8:
			return vp_win_lock_all(w, 0) ? -1
						     : vp_win_unlock(w, 1);
		case 9:
			if ((rc = vp_win_lock(w, VP_LOCK_SHARED, 1)))
				return rc;
			return vp_fetch_and_op(w, 1, 0, &x, &x, VP_FLOAT,
					       VP_BAND);
		}
	}
	return which == 3 ? vp_win_fence(w) : VP_OK;
}

static const char *misuse_says[] = {
	"rank 0: vp_put: outside an epoch",
	"rank 0: vp_win_unlock: this rank holds no lock on target 1",
	"rank 0: vp_win_lock: this rank already holds a lock on target 1",
	"rank 0: vp_win_fence: a passive-target epoch is open: this rank "
	"holds a vp_win_lock (target 1)",
	"rank 0: vp_get: target 0 is outside every epoch",
	"rank 0: vp_win_flush: this rank holds no lock on target 1",
	"rank 0: vp_win_lock: lock type 3 is not VP_LOCK_SHARED",
	"rank 0: rank function: returned holding 1 lock of vp_win_lock",
	"rank 0: vp_win_unlock: this rank holds no lock on target 1 of its "
	"own (it holds vp_win_lock_all",
	"rank 0: vp_fetch_and_op: op 4 does not apply to type 3",
};
static const int misuse_code[] = { VP_ESYNC, VP_ESYNC, VP_ESYNC, VP_ESYNC,
				   VP_ESYNC, VP_ESYNC, VP_EINVAL, VP_ESYNC,
				   VP_ESYNC, VP_EINVAL };

static void run_case(int (*fn)(vp_comm *, void *), const char *topo,
		     const char *what)
{
	vp_opts o = { .topology = topo, .quiet = 1 };
	vp_stats st;
	int rc, i, p = atoi(strchr(topo, ':') + 1), good = 1;

	if (!tap_selected(what)) {
		tap_ok(1, "%s", what);
		return;
	}
	memset(ok, 0, sizeof(ok));
	rc = vp_run(&o, fn, NULL, &st);
	for (i = 0; i < p; i++)
		good = good && ok[i];
	tap_ok(rc == 0 && good, "%s (%s%s%s)", what, vp_strerror(rc),
	       rc ? ": " : "", rc ? st.error : "");
}

int main(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_stats st;
	int rc, i;

	unsetenv("VP_WIN");
	run_case(exclusive_counter, "full:6",
		 "exclusive lock: 6 ranks x 300 read-increment-write of one "
		 "counter lose nothing");
	run_case(shared_coexist, "full:3",
		 "shared locks: two ranks hold one target's at once");
	run_case(exclusive_excludes_shared, "full:3",
		 "an exclusive lock excludes a shared one until its unlock");
	run_case(fetch_add, "full:6",
		 "6 ranks x 300 fetch-and-add under lock_all and SUM "
		 "accumulates under shared locks: exact, every fetch unique; "
		 "the target only waits in vp_recv");
	run_case(cas, "full:5",
		 "compare-and-swap: one winner per slot; VP_NO_OP reads, "
		 "VP_REPLACE swaps, get_accumulate VP_MAX fetches, "
		 "vp_win_update with and without a result");

	if (tap_selected("deadlock")) {
		rc = vp_run(&o, never_granted, NULL, &st);
		tap_ok(rc == VP_EDEADLOCK &&
			       strstr(st.error,
				      "vp_win_lock: deadlock: waits for an "
				      "exclusive lock on target 0, held "
				      "exclusive by rank 0"),
		       "deadlock: a lock never granted names its holder (%s: "
		       "%s)",
		       vp_strerror(rc), st.error);
	} else {
		tap_ok(1, "deadlock");
	}
	o.topology = "full:2";
	for (i = 0; i < (int)(sizeof(misuse_says) / sizeof(*misuse_says));
	     i++) {
		rc = vp_run(&o, misuse, &i, &st);
		tap_ok(rc == misuse_code[i] && strstr(st.error, misuse_says[i]),
		       "misuse %d fails with %s (%s): %s", i,
		       vp_strerror(misuse_code[i]), vp_strerror(rc), st.error);
	}
	setenv("VP_WIN", "messages", 1);
	i = 7;
	rc = vp_run(&o, misuse, &i, &st);
	tap_ok(rc == VP_EINVAL &&
		       strstr(st.error, "rank 0: vp_win_lock: passive target "
					"needs ranks that share memory"),
	       "VP_WIN=messages: vp_win_lock refused, naming the call (%s)",
	       st.error);
	unsetenv("VP_WIN");
	return tap_done();
}
