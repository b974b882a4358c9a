/*
 * test_comm_dup.c - vp_comm_dup: a copy of a communicator in a message
 * space of its own, agreed without messages where the ranks share one
 * process (MPI_Comm_dup):
 *   - the duplicate of a split whose order differs from the world's has
 *     the parent's ranks, size and world ranks;
 *   - rank 0 makes DUPS duplicates (and frees them) before any other rank
 *     starts its own, sending each duplicate's number on it; every rank's
 *     duplicate of the same number gets that number;
 *   - a duplicate counts as a collective call: rank 0 duplicating while
 *     the others call vp_barrier fails with VP_EMISMATCH naming both
 *     calls; a NULL result pointer fails by name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tap.h"
#include "vp.h"

#define DUPS 500

struct seen {
	int bad[8];
};

/* the duplicate's ranks are the parent's */
static int same_as(vp_comm *parent, vp_comm *d)
{
	int i, bad = vp_rank(d) != vp_rank(parent) ||
		     vp_size(d) != vp_size(parent);

	for (i = 0; i < vp_size(parent); i++)
		bad |= vp_world_rank(d, i) != vp_world_rank(parent, i);
	return bad;
}

static int ahead(vp_comm *c, void *arg)
{
	struct seen *s = arg;
	int r = vp_rank(c), go = 1, k, i, x, rc;
	vp_comm *rev = NULL, *d = NULL;

	/* the world in reverse order: its rank 0 is world rank 7 */
	if ((rc = vp_comm_split(c, 0, -r, &rev)))
		return rc;
	if (vp_rank(rev) != 0 && (rc = vp_recv(rev, 0, &go, sizeof(go))))
		return rc;
	for (k = 0; k < DUPS; k++) {
		if ((rc = vp_comm_dup(rev, &d)))
			return rc;
		s->bad[r] |= same_as(rev, d);
		for (i = 1; vp_rank(rev) == 0 && i < vp_size(rev); i++)
			if ((rc = vp_send(d, i, &k, sizeof(k))))
				return rc;
		if (vp_rank(rev) != 0) {
			if ((rc = vp_recv(d, 0, &x, sizeof(x))))
				return rc;
			s->bad[r] |= x != k;
		}
		if ((rc = vp_comm_free(d)))
			return rc;
		if (vp_rank(rev) == 0 && k == DUPS / 2) /* the others start */
			for (i = 1; i < vp_size(rev); i++)
				if ((rc = vp_send(rev, i, &go, sizeof(go))))
					return rc;
	}
	return vp_comm_free(rev);
}

static void works(void)
{
	vp_opts o = { .topology = "full:8", .quiet = 1 };
	struct seen s;
	int rc, r, bad = 0;

	memset(&s, 0, sizeof(s));
	rc = vp_run(&o, ahead, &s, NULL);
	for (r = 0; r < 8; r++)
		bad |= s.bad[r];
	tap_ok(rc == 0 && !bad,
	       "%d duplicates of a reversed world, rank 0 half of them ahead: "
	       "the parent's ranks, each duplicate's own messages (rc %d)",
	       DUPS, rc);
}

static int misuse(vp_comm *c, void *arg)
{
	vp_comm *d;

	if (*(int *)arg)
		return vp_comm_dup(c, NULL);
	if (vp_rank(c) == 0 && vp_comm_dup(c, &d))
		return VP_EINVAL;
	return vp_barrier(c);
}

static void refused(void)
{
	static const struct {
		int null_result, rc;
		const char *says, *what;
	} cases[] = {
		{ 0, VP_EMISMATCH, "vp_comm_dup", "a duplicate against a barrier" },
		{ 1, VP_EINVAL, "vp_comm_dup: result pointer is NULL",
		  "a NULL result pointer" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		vp_opts o = { .topology = "full:4", .quiet = 1 };
		int null_result = cases[k].null_result;
		vp_stats st;
		int rc = vp_run(&o, misuse, &null_result, &st);

		tap_ok(rc == cases[k].rc && strstr(st.error, cases[k].says) &&
			       (null_result || strstr(st.error, "vp_barrier")),
		       "%s fails with %d: %s", cases[k].what, rc, st.error);
	}
}

int main(void)
{
	works();
	refused();
	return tap_done();
}
