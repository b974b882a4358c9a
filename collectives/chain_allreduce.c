/*
 * chain_allreduce.c - all-reduce and prefix sums between neighbours only,
 * on a chain (a line, or a ring when its ends are joined).
 *
 * Source: Grama et al., sec. 4.3: all-reduce is the all-to-all broadcast
 *         pattern with messages that stay m bytes (on a ring: every member
 *         passes on what it received and folds it in), and the prefix sum
 *         along a linear array.
 * Cost:   ring: (n - 1)(ts + tw*m); line: the reduction to the middle
 *         member and the broadcast back (chain_bcast.c), each
 *         vp__chain_bcast_steps(n, line, (n-1)/2) = ceil(n/2) steps:
 *         2 ceil(n/2) (ts + tw*m). With m = 0 it is a
 *         barrier: every member has heard from every other.
 *         Prefix sums: member j takes the prefix of j - 1 and passes its
 *         own on: (n - 1)(ts + tw*m).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

double vp__chain_allreduce_steps(int n, int wrap)
{
	if (n <= 1)
		return 0;
	return wrap ? n - 1 : 2 * vp__chain_bcast_steps(n, 0, (n - 1) / 2);
}

int vp__chain_allreduce_view(const struct view *v, int wrap, void *buf,
			     void *tmp, size_t count, vp_type t, vp_op op)
{
	size_t bytes = count * vp_type_size(t);
	char *cur = tmp, *next = cur + bytes, *x;
	int n = v->n, me = v->me, k, rc;

	if (!wrap) {
		rc = vp__chain_reduce_view(v, 0, (n - 1) / 2, buf, tmp, count,
					   t, op);
		return rc ? rc
			  : vp__chain_bcast_view(v, 0, (n - 1) / 2, buf, bytes);
	}
	if (bytes)
		memcpy(cur, buf, bytes);
	for (k = 1; k < n; k++) {
		rc = vp__vsendrecv(v, (me + 1) % n, cur, bytes,
				   (me - 1 + n) % n, next, bytes);
		if (!rc && count)
			rc = vp_reduce_local(next, buf, count, t, op);
		if (rc)
			return rc;
		x = cur;
		cur = next;
		next = x;
	}
	return VP_OK;
}

int vp__chain_scan_view(const struct view *v, void *acc, void *tmp,
			size_t count, vp_type t, vp_op op)
{
	size_t bytes = count * vp_type_size(t);
	int rc = VP_OK;

	if (v->me > 0) {
		rc = vp__vrecv(v, v->me - 1, tmp, bytes);
		if (!rc)
			rc = vp_reduce_local(tmp, acc, count, t, op);
	}
	if (!rc && v->me + 1 < v->n)
		rc = vp__vsend(v, v->me + 1, acc, bytes);
	return rc;
}
