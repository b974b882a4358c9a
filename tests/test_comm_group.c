/*
 * test_comm_group.c - vp_comm_create_group: a communicator made by the
 * ranks it lists, the others not calling (MPI_Comm_create_group):
 *   - the even ranks of full:8 listed in reverse order make a communicator
 *     of 4 whose rank i is the listed rank i, while the odd ranks make
 *     theirs at the same time under another tag; both all-reduce on it;
 *   - it can be split and freed like any other, many times over;
 *   - a list that differs between its ranks fails with VP_EMISMATCH naming
 *     the rank; a rank not in its own list, a rank listed twice or out of
 *     range, a bad tag fail by name; a listed rank that never calls is a
 *     deadlock reported with the waiting rank;
 *   - communicators the program never frees (as MPI_Finalize allows) are
 *     freed by the run's end: the run succeeds, and the valgrind pass
 *     (make valgrind) finds no leak.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tap.h"
#include "vp.h"

struct made {
	int size[8], rank[8], sum[8], world_of_0[8];
};

static int evens_and_odds(vp_comm *c, void *arg)
{
	static const int evens[] = { 6, 4, 2, 0 }, odds[] = { 1, 3, 5, 7 };
	struct made *m = arg;
	int r = vp_rank(c), x = r, rc, it;
	vp_comm *g = NULL, *half = NULL;

	for (it = 0; it < 20; it++) { /* made, used and freed, many times */
		rc = vp_comm_create_group(c, r % 2 ? odds : evens, 4,
					  r % 2 ? 2 : 1, &g);
		if (rc)
			return rc;
		if ((rc = vp_allreduce(g, &x, &m->sum[r], 1, VP_INT32, VP_SUM,
				       VP_ALG_AUTO)) ||
		    (rc = vp_comm_split(g, vp_rank(g) / 2, 0, &half)))
			return rc;
		m->size[r] = vp_size(g);
		m->rank[r] = vp_rank(g);
		m->world_of_0[r] = vp_world_rank(g, 0);
		if ((rc = vp_comm_free(half)) || (rc = vp_comm_free(g)))
			return rc;
	}
	return VP_OK;
}

static void works(void)
{
	vp_opts o = { .topology = "full:8", .quiet = 1 };
	struct made m;
	int ok = 1, r, rc;

	memset(&m, 0, sizeof(m));
	rc = vp_run(&o, evens_and_odds, &m, NULL);
	for (r = 0; r < 8; r++) {
		int want_rank = r % 2 ? r / 2 : 3 - r / 2;

		ok &= m.size[r] == 4 && m.rank[r] == want_rank &&
		      m.sum[r] == (r % 2 ? 16 : 12) &&
		      m.world_of_0[r] == (r % 2 ? 1 : 6);
	}
	tap_ok(rc == 0 && ok,
	       "even ranks listed 6, 4, 2, 0 and odd ranks 1, 3, 5, 7 make "
	       "their communicators at once (tags 1 and 2), 20 times: rank i "
	       "is the listed rank i, all-reduce and split work (rc %d)",
	       rc);
}

/* Five communicators made, the middle one freed, the others left live
 * (still usable: an all-reduce on each). */
static int forgets(vp_comm *c, void *arg)
{
	static const int evens[] = { 0, 2 }, odds[] = { 1, 3 };
	int r = vp_rank(c), x = 1, sum, total = 0, rc, k;
	vp_comm *sub[5];

	(void)arg;
	for (k = 0; k < 5; k++) {
		rc = k == 4 ? vp_comm_create_group(c, r % 2 ? odds : evens, 2,
						   7, &sub[k])
			    : vp_comm_split(c, (r + k) % 2, r, &sub[k]);
		if (rc)
			return rc;
	}
	if ((rc = vp_comm_free(sub[2])))
		return rc;
	for (k = 0; k < 5; k++) {
		if (k == 2)
			continue;
		if ((rc = vp_allreduce(sub[k], &x, &sum, 1, VP_INT32, VP_SUM,
				       VP_ALG_AUTO)))
			return rc;
		total += sum;
	}
	return total == 8 ? VP_OK : VP_EINVAL; /* four of two members */
}

static void forgotten(void)
{
	vp_opts o = { .topology = "full:4", .quiet = 1 };
	int rc = vp_run(&o, forgets, NULL, NULL);

	tap_ok(rc == 0,
	       "four communicators left unfreed at the run's end are usable "
	       "to the end and freed with the run (rc %d; make valgrind "
	       "checks no leak)",
	       rc);
}

enum misuse { OTHER_LIST, NOT_LISTED, TWICE, OUT_OF_RANGE, BAD_TAG, ABSENT };

static int misuse(vp_comm *c, void *arg)
{
	static const int two[] = { 0, 1 }, three[] = { 0, 1, 2 },
			 twice[] = { 0, 0 }, far[] = { 0, 9 };
	enum misuse how = *(enum misuse *)arg;
	int r = vp_rank(c);
	vp_comm *g = NULL;

	switch (how) {
	case OTHER_LIST: /* rank 1 thinks rank 2 is in it too */
		if (r == 0)
			return vp_comm_create_group(c, two, 2, 0, &g);
		if (r == 1)
			return vp_comm_create_group(c, three, 3, 0, &g);
		return VP_OK;
	case NOT_LISTED:
		return r == 3 ? vp_comm_create_group(c, two, 2, 0, &g) : VP_OK;
	case TWICE:
		return r == 0 ? vp_comm_create_group(c, twice, 2, 0, &g)
			      : VP_OK;
	case OUT_OF_RANGE:
		return r == 0 ? vp_comm_create_group(c, far, 2, 0, &g) : VP_OK;
	case BAD_TAG:
		return r < 2 ? vp_comm_create_group(c, two, 2, -3, &g) : VP_OK;
	default: /* rank 1 is listed and never calls */
		return r == 0 ? vp_comm_create_group(c, two, 2, 0, &g) : VP_OK;
	}
}

static void refused(void)
{
	static const struct {
		enum misuse how;
		int rc;
		const char *says, *what;
	} cases[] = {
		{ OTHER_LIST, VP_EMISMATCH,
		  "rank 1 passed another list of ranks (3 ranks) than rank 0 "
		  "(2 ranks)",
		  "a list that differs between its ranks" },
		{ NOT_LISTED, VP_EINVAL,
		  "rank 3: vp_comm_create_group: rank 3 is not in the list",
		  "a rank not in its own list" },
		{ TWICE, VP_EINVAL,
		  "rank 0 is listed twice (ranks[0] and ranks[1])",
		  "a rank listed twice" },
		{ OUT_OF_RANGE, VP_ERANK, "ranks[1] = 9 is outside [0, 4)",
		  "a rank out of range" },
		{ BAD_TAG, VP_EINVAL, "tag -3 is outside [0, ",
		  "a negative tag" },
		{ ABSENT, VP_EDEADLOCK, "rank 0 in vp_comm_create_group",
		  "a listed rank that never calls: a deadlock" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		vp_opts o = { .topology = "full:4", .quiet = 1 };
		enum misuse how = cases[k].how;
		vp_stats st;
		int rc = vp_run(&o, misuse, &how, &st);
		const char *text = st.report ? st.report : st.error;

		tap_ok(rc == cases[k].rc && strstr(text, cases[k].says),
		       "%s fails with %d: %s", cases[k].what, rc, st.error);
	}
}

int main(void)
{
	works();
	forgotten();
	refused();
	return tap_done();
}
