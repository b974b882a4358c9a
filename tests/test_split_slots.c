/*
 * test_split_slots.c - vp_comm_split and vp_comm_create where every rank
 * shares one process: the members meet at a slot of the parent group, no
 * message between them, and the model clock is not charged:
 *   - SPLITS splits at p = 1, 2, 3, 4, 8 (color r % 3, key -r; every
 *     third rank stays out with VP_UNDEFINED; a vp_comm_create of the
 *     even ranks in between) give the groups MPI_Comm_split gives: size,
 *     rank by (key, parent rank), world ranks; the run delivers no
 *     message and its model time stays 0 with ts = 1;
 *   - rank 0 splitting while the others call vp_barrier fails the run
 *     with the deadlock report naming both calls, as the split's
 *     messages did;
 *   - vp_comm_create of groups neither the same nor disjoint fails with
 *     VP_EMISMATCH.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tap.h"
#include "vp.h"

#define SPLITS 300

/* The group MPI_Comm_split makes of color (key -r): the ranks of color
 * in decreasing order. */
static int check_split(vp_comm *c, vp_comm *s, int color)
{
	int p = vp_size(c), r = vp_rank(c), i, n = 0, bad = 0, me = -1;
	int members[64];

	for (i = p - 1; i >= 0; i--)
		if (i % 3 == color) {
			if (i == r)
				me = n;
			members[n++] = i;
		}
	bad |= vp_size(s) != n || vp_rank(s) != me;
	for (i = 0; i < n && !bad; i++)
		bad |= vp_world_rank(s, i) != vp_world_rank(c, members[i]);
	return bad;
}

static int create_evens(vp_comm *c, int *bad)
{
	int p = vp_size(c), r = vp_rank(c), ranks[64], n = 0, i, rc;
	vp_comm *s = NULL;

	for (i = 0; i < p; i += 2)
		ranks[n++] = i;
	if ((rc = vp_comm_create(c, ranks, r % 2 ? 0 : n, &s)))
		return rc;
	*bad |= r % 2 ? s != NULL : !s || vp_size(s) != n ||
					  vp_rank(s) != r / 2;
	return s ? vp_comm_free(s) : VP_OK;
}

static int splits(vp_comm *c, void *arg)
{
	int *bad = arg, r = vp_rank(c), k, rc, color;
	vp_comm *s;

	for (k = 0; k < SPLITS; k++) {
		if (k % 50 == 0 && (rc = create_evens(c, &bad[r])))
			return rc;
		color = (r + k) % 3 == 2 ? VP_UNDEFINED : r % 3;
		if ((rc = vp_comm_split(c, color, -r, &s)))
			return rc;
		if (color == VP_UNDEFINED) {
			bad[r] |= s != NULL;
			continue;
		}
		bad[r] |= check_split(c, s, color);
		if ((rc = vp_comm_free(s)))
			return rc;
	}
	return VP_OK;
}

static void agree(void)
{
	static const int ps[] = { 1, 2, 3, 4, 8 };
	char topo[16];

	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		int bad[8] = { 0 }, any = 0, rc;
		vp_opts o = { .topology = topo, .ts = 1, .quiet = 1 };
		vp_stats st;

		snprintf(topo, sizeof(topo), "full:%d", ps[i]);
		rc = vp_run(&o, splits, bad, &st);
		for (int r = 0; r < ps[i]; r++)
			any |= bad[r];
		if (rc)
			tap_diag("%s", st.error);
		tap_ok(rc == 0 && !any && st.messages == 0 &&
			       st.mailboxes == 0 && st.model_time == 0,
		       "p=%d: %d splits and %d creates make MPI's groups, "
		       "with %llu messages and %zu mailboxes, model time %g "
		       "(rc %d)",
		       ps[i], SPLITS, SPLITS / 50, (unsigned long long)st.messages,
		       st.mailboxes, st.model_time, rc);
	}
}

static int against_barrier(vp_comm *c, void *arg)
{
	vp_comm *s;

	(void)arg;
	if (vp_rank(c) == 0)
		return vp_comm_split(c, 0, 0, &s);
	return vp_barrier(c);
}

static int overlapping(vp_comm *c, void *arg)
{
	int lists[2][2] = { { 0, 1 }, { 1, 2 } }, r = vp_rank(c);
	vp_comm *s;

	(void)arg;
	return vp_comm_create(c, lists[r == 2], r == 3 ? 0 : 2, &s);
}

static void refused(void)
{
	vp_opts o = { .topology = "full:4", .quiet = 1 };
	vp_stats st;
	int rc = vp_run(&o, against_barrier, NULL, &st);

	tap_ok((rc == VP_EDEADLOCK || rc == VP_EMISMATCH) &&
		       strstr(st.error, "vp_comm_split") &&
		       strstr(st.error, "vp_barrier"),
	       "a split against a barrier: a deadlock report naming both "
	       "(rc %d: %s)",
	       rc, st.error);
	rc = vp_run(&o, overlapping, NULL, &st);
	tap_ok(rc == VP_EMISMATCH && strstr(st.error, "same or disjoint"),
	       "vp_comm_create of overlapping groups fails with VP_EMISMATCH "
	       "(rc %d: %s)",
	       rc, st.error);
}

int main(void)
{
	agree();
	refused();
	return tap_done();
}
