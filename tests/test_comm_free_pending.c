/*
 * test_comm_free_pending.c - vp_comm_free with requests pending on the
 * communicator (MPI_Comm_free's semantics, MPI 4.0 sec. 7.4.3: it is
 * marked for release, and what was started on it completes):
 *   - rank 1 posts a receive on a split, frees it, makes and frees 300
 *     more, then waits: rank 0's message (sent on the split after all
 *     that) arrives whole;
 *   - freeing it a second time fails by name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tap.h"
#include "vp.h"

static int pending(vp_comm *c, void *arg)
{
	int r = vp_rank(c), buf[16], i, rc, *bad = arg;
	vp_comm *sub, *more;
	vp_request req = VP_REQUEST_NULL;

	if ((rc = vp_comm_split(c, 0, r, &sub)))
		return rc;
	if (r == 1) {
		memset(buf, 0xff, sizeof(buf));
		if ((rc = vp_irecv(sub, 0, 3, buf, sizeof(buf), &req)) ||
		    (rc = vp_comm_free(sub)))
			return rc;
	}
	for (i = 0; i < 300; i++)
		if ((rc = vp_comm_split(c, 0, r, &more)) ||
		    (rc = vp_comm_free(more)))
			return rc;
	if (r == 0) {
		for (i = 0; i < 16; i++)
			buf[i] = 100 + i;
		if ((rc = vp_send_tag(sub, 1, 3, buf, sizeof(buf))) ||
		    (rc = vp_comm_free(sub)))
			return rc;
	}
	if (r == 1) {
		if ((rc = vp_wait(&req, NULL)))
			return rc;
		for (i = 0; i < 16; i++)
			*bad += buf[i] != 100 + i;
	}
	if (r >= 2)
		return vp_comm_free(sub);
	return VP_OK;
}

static int twice(vp_comm *c, void *arg)
{
	int r = vp_rank(c), rc, x;
	vp_comm *sub;
	vp_request req = VP_REQUEST_NULL;

	(void)arg;
	if ((rc = vp_comm_split(c, 0, r, &sub)))
		return rc;
	if (r == 0) {
		if ((rc = vp_irecv(sub, 1, 0, &x, sizeof(x), &req)) ||
		    (rc = vp_comm_free(sub)))
			return rc;
		return vp_comm_free(sub); /* the mistake */
	}
	return vp_comm_free(sub);
}

int main(void)
{
	vp_opts o = { .topology = "full:4", .quiet = 1 };
	vp_stats st;
	int bad = 0, rc = vp_run(&o, pending, &bad, NULL);

	tap_ok(rc == 0 && bad == 0,
	       "a receive posted on a communicator freed before its message "
	       "came completes whole, across 300 more splits and frees "
	       "(rc %d, %d wrong ints)",
	       rc, bad);
	rc = vp_run(&o, twice, NULL, &st);
	tap_ok(rc == VP_EINVAL &&
		   strstr(st.error, "the communicator was already freed"),
	       "freeing it a second time, its receive still pending, fails "
	       "(rc %d): %s",
	       rc, st.error);
	return tap_done();
}
