/*
 * cliffs.c - vp-bench --cliffs: the slow cliffs of misuse, timed against
 * their goals: an all-to-all at p = 1024 (p^2 mailboxes in one call), as
 * threads and as fibers, and 10^5 x split+barrier+free, whose tenths must
 * take the same time and whose mailboxes must be returned.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>

#include "bench.h"
#include "bench_rows.h"
#include "modes.h"
#include "vp.h"

/* All-to-all of 4-byte blocks, pairwise: every rank talks to every other
 * once, so p^2 mailboxes are made during one call. */
static int alltoall4_fn(vp_comm *c, void *arg)
{
	int p = vp_size(c), rc;
	int32_t *s = calloc((size_t)p, 4), *r = calloc((size_t)p, 4);

	(void)arg;
	rc = s && r ? vp_alltoall(c, s, r, 1, VP_INT32, VP_ALG_PAIRWISE)
		    : VP_ENOMEM;
	free(s);
	free(r);
	return rc;
}

struct split_loop {
	int iters, chunks;
	double chunk_ms[10];
};

/* split + barrier + free, the time of each tenth of the iterations. */
static int split_fn(vp_comm *c, void *arg)
{
	struct split_loop *sl = arg;
	int i, rc = VP_OK, per = sl->iters / sl->chunks;
	double t0 = now_us();
	vp_comm *sub;

	for (i = 0; i < sl->iters && !rc; i++) {
		rc = vp_comm_split(c, vp_rank(c) % 2, 0, &sub);
		if (!rc)
			rc = vp_barrier(sub);
		if (!rc)
			rc = vp_comm_free(sub);
		if (vp_rank(c) == 0 && (i + 1) % per == 0) {
			sl->chunk_ms[(i + 1) / per - 1] =
			    (now_us() - t0) / 1e3 / per;
			t0 = now_us();
		}
	}
	return rc;
}

int mode_cliffs(const struct bench_args *a)
{
	struct split_loop sl = { bench_quick ? 10000 : 100000, 10, { 0 } };
	vp_opts o = { .topology = "full:1024" };
	vp_stats st;
	double lo, hi;
	int k, rc;

	(void)a;
	o.fibers = bench_fibers;
	for (k = 0; k < 2; k++) {
		o.fibers = k;
		rc = vp_run(&o, alltoall4_fn, NULL, &st);
		note("alltoall pairwise 4 B, full:1024, ranks as %s: %.3f s "
		     "start to finish, %zu mailboxes   goal < 2 s: %s",
		     k ? "fibers (vp_opts.fibers)" : "threads", st.wall_seconds,
		     st.mailboxes,
		     rc                    ? "FAILED"
		     : st.wall_seconds < 2 ? "met"
					   : "NOT met");
		if (rc)
			return 1;
	}
	o.fibers = bench_fibers;
	o.topology = "full:4";
	rc |= vp_run(&o, split_fn, &sl, &st);
	lo = hi = sl.chunk_ms[0];
	for (k = 0; k < sl.chunks; k++) {
		note("split+barrier+free full:4, iterations %6d-%6d: %.4f "
		     "ms each",
		     k * sl.iters / sl.chunks + 1,
		     (k + 1) * sl.iters / sl.chunks, sl.chunk_ms[k]);
		lo = sl.chunk_ms[k] < lo ? sl.chunk_ms[k] : lo;
		hi = sl.chunk_ms[k] > hi ? sl.chunk_ms[k] : hi;
	}
	note("split loop: slowest tenth / fastest tenth = %.2f   goal flat "
	     "(< 2): %s; %zu mailboxes and %zu KiB runtime memory at the "
	     "end   goal: memory returned: %s",
	     hi / lo, hi / lo < 2 ? "met" : "NOT met", st.mailboxes,
	     st.peak_bytes / 1024, st.mailboxes < 16 ? "met" : "NOT met");
	return rc ? 1 : 0;
}
