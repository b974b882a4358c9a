/*
 * test_comm_create.c - vp_comm_create: a communicator of a listed group,
 * made by every rank of the parent (MPI_Comm_create), where the groups
 * passed may differ between ranks when they are disjoint (MPI 4.0
 * sec. 7.4.2):
 *   - on full:8 ranks 0-3 pass (0, 1, 2, 3) and ranks 4-7 pass
 *     (7, 6, 5, 4): two communicators of 4, rank i the listed rank i, and
 *     an all-reduce on each sums its own members only;
 *   - one group on every rank: its members get it, the others NULL; a rank
 *     passing an empty list, or a group without itself, gets NULL;
 *   - groups that overlap but differ, and a group some of whose members
 *     pass another or none, fail every rank with VP_EMISMATCH naming the
 *     ranks; bad lists fail by name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tap.h"
#include "vp.h"

struct made {
	int size[8], rank[8], sum[8];
};

static int halves(vp_comm *c, void *arg)
{
	static const int lo[] = { 0, 1, 2, 3 }, hi[] = { 7, 6, 5, 4 };
	struct made *m = arg;
	int r = vp_rank(c), x = r, rc, it;
	vp_comm *g = NULL;

	for (it = 0; it < 20; it++) { /* made, used and freed, many times */
		if ((rc = vp_comm_create(c, r < 4 ? lo : hi, 4, &g)))
			return rc;
		if ((rc = vp_allreduce(g, &x, &m->sum[r], 1, VP_INT32, VP_SUM,
				       VP_ALG_AUTO)))
			return rc;
		m->size[r] = vp_size(g);
		m->rank[r] = vp_rank(g);
		if ((rc = vp_comm_free(g)))
			return rc;
	}
	return VP_OK;
}

static void disjoint(void)
{
	vp_opts o = { .topology = "full:8", .quiet = 1 };
	struct made m;
	int ok = 1, r, rc;

	memset(&m, 0, sizeof(m));
	rc = vp_run(&o, halves, &m, NULL);
	for (r = 0; r < 8; r++)
		ok &= m.size[r] == 4 && m.rank[r] == (r < 4 ? r : 7 - r) &&
		      m.sum[r] == (r < 4 ? 6 : 22);
	tap_ok(rc == 0 && ok,
	       "ranks 0-3 pass (0, 1, 2, 3), ranks 4-7 pass (7, 6, 5, 4): two "
	       "communicators of 4, rank i the listed rank i, sums 6 and 22 "
	       "(rc %d; rank 4: size %d rank %d sum %d)",
	       rc, m.size[4], m.rank[4], m.sum[4]);
}

/* The even ranks' group (2, 0), passed by every rank but rank 1, which
 * passes an empty list. */
static int evens(vp_comm *c, void *arg)
{
	static const int ev[] = { 2, 0 };
	int r = vp_rank(c), rc, *null_ok = arg;
	vp_comm *g = (vp_comm *)1;

	rc = r == 1 ? vp_comm_create(c, NULL, 0, &g)
		    : vp_comm_create(c, ev, 2, &g);
	if (rc)
		return rc;
	if (r % 2) {
		null_ok[r] = g == NULL;
		return VP_OK;
	}
	null_ok[r] = g && vp_size(g) == 2 && vp_rank(g) == (r == 2 ? 0 : 1);
	return g ? vp_comm_free(g) : VP_EINVAL;
}

static void one_group(void)
{
	vp_opts o = { .topology = "full:4", .quiet = 1 };
	int got[4] = { 0 }, rc = vp_run(&o, evens, got, NULL);

	tap_ok(rc == 0 && got[0] && got[1] && got[2] && got[3],
	       "the group (2, 0) on ranks 0, 2, 3 and an empty list on rank "
	       "1: ranks 2 and 0 get its ranks 0 and 1, ranks 1 and 3 NULL "
	       "(rc %d; %d %d %d %d)",
	       rc, got[0], got[1], got[2], got[3]);
}

enum misuse { OVERLAP, MISSING, TWICE, OUT_OF_RANGE };

static int misuse(vp_comm *c, void *arg)
{
	static const int two[] = { 0, 1 }, three[] = { 0, 2, 3 },
			 twice[] = { 1, 1 }, far[] = { 0, 9 };
	enum misuse how = *(enum misuse *)arg;
	int r = vp_rank(c);
	vp_comm *g = NULL;

	switch (how) {
	case OVERLAP: /* (0, 1) on ranks 0 and 1, (0, 2, 3) on 2 and 3 */
		return vp_comm_create(c, r < 2 ? two : three, r < 2 ? 2 : 3,
				      &g);
	case MISSING: /* rank 1 is in (0, 1) but passes none */
		return vp_comm_create(c, two, r == 1 ? 0 : 2, &g);
	case TWICE:
		return vp_comm_create(c, twice, 2, &g);
	default:
		return vp_comm_create(c, far, 2, &g);
	}
}

static void refused(void)
{
	static const struct {
		enum misuse how;
		int rc;
		const char *says, *what;
	} cases[] = {
		{ OVERLAP, VP_EMISMATCH,
		  "ranks 0 and 2 passed groups that overlap but differ (2 and "
		  "3 ranks, both with lowest rank 0)",
		  "groups that overlap but differ" },
		{ MISSING, VP_EMISMATCH,
		  "rank 0 passed a group of 2 ranks (lowest rank 0) that not "
		  "all of its members passed",
		  "a member passing no group" },
		{ TWICE, VP_EINVAL,
		  "rank 1 is listed twice (ranks[0] and ranks[1])",
		  "a rank listed twice" },
		{ OUT_OF_RANGE, VP_ERANK, "ranks[1] = 9 is outside [0, 4)",
		  "a rank out of range" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		vp_opts o = { .topology = "full:4", .quiet = 1 };
		enum misuse how = cases[k].how;
		vp_stats st;
		int rc = vp_run(&o, misuse, &how, &st);

		tap_ok(rc == cases[k].rc && strstr(st.error, cases[k].says),
		       "%s fails with %d: %s", cases[k].what, rc, st.error);
	}
}

int main(void)
{
	disjoint();
	one_group();
	refused();
	return tap_done();
}
