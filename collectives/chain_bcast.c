/*
 * chain_bcast.c - one-to-all broadcast and all-to-one reduction between
 * neighbours only, on a chain (a line, or a ring when its ends are
 * joined), store-and-forward: the whole message one hop at a time.
 *
 * Source: Grama et al., sec. 4.1 (the naive broadcast on a ring or linear
 *         array, p - 1 hops; on a ring sending both ways halves it), with
 *         the single-port rule of sec. 4.1: a node sends one message at a
 *         time.
 * Cost:   the root's two sides have a >= b members (ring: a = ceil((n-1)/2),
 *         b = floor((n-1)/2); line: the distances to the two ends). The
 *         root sends to side a first, then to side b, and each member
 *         forwards to the next one out:
 *           T = (ts + tw*m) (b == 0 ? a : max(a, b + 1))
 *         ring: ceil(n/2) (ts + tw*m); line from an end: (n-1)(ts + tw*m).
 *         The reduction runs the broadcast backwards: the ends send, each
 *         member combines and passes on, the root takes side b first (it
 *         arrives first) and then side a: the same T (combines are not
 *         charged).
 *           ring of 8 from 0: 0 -> 1 -> 2 -> 3 -> 4 and 0 -> 7 -> 6 -> 5:
 *           4 (ts + tw*m).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "coll.h"

void vp__chain_sides(int n, int wrap, int root, struct chain_sides *s)
{
	int right = wrap ? n / 2 : n - 1 - root;
	int left = wrap ? (n - 1) / 2 : root;

	if (n <= 1)
		right = left = 0;
	/* the longer side first; a ring's right side is never shorter */
	if (right >= left) {
		*s = (struct chain_sides){ { 1, -1 }, { right, left } };
	} else {
		*s = (struct chain_sides){ { -1, 1 }, { left, right } };
	}
}

int vp__chain_member(int n, int root, int dir, int dist)
{
	return ((root + dir * dist) % n + n) % n;
}

void vp__chain_where(const struct chain_sides *s, int n, int root, int me,
		     int *side, int *dist)
{
	int k, d;

	*side = -1;
	*dist = 0;
	for (k = 0; k < 2; k++)
		for (d = 1; d <= s->len[k]; d++)
			if (vp__chain_member(n, root, s->dir[k], d) == me) {
				*side = k;
				*dist = d;
				return;
			}
}

double vp__chain_bcast_steps(int n, int wrap, int root)
{
	struct chain_sides s;

	vp__chain_sides(n, wrap, root, &s);
	if (s.len[1] == 0)
		return s.len[0];
	return s.len[0] > s.len[1] + 1 ? s.len[0] : s.len[1] + 1;
}

int vp__chain_bcast_view(const struct view *v, int wrap, int root, void *buf,
			 size_t bytes)
{
	struct chain_sides s;
	int side, d, k, dir, rc;

	vp__chain_sides(v->n, wrap, root, &s);
	vp__chain_where(&s, v->n, root, v->me, &side, &d);
	if (side < 0) {
		for (k = 0; k < 2; k++)
			if (s.len[k] &&
			    (rc = vp__vsend(
				 v, vp__chain_member(v->n, root, s.dir[k], 1),
				 buf, bytes)))
				return rc;
		return VP_OK;
	}
	dir = s.dir[side];
	rc = vp__vrecv(v, vp__chain_member(v->n, root, dir, d - 1), buf, bytes);
	if (!rc && d < s.len[side])
		rc = vp__vsend(v, vp__chain_member(v->n, root, dir, d + 1), buf,
			       bytes);
	return rc;
}

/* Takes a partial result from member j and folds it into acc. */
static int take(const struct view *v, int j, void *acc, void *tmp, size_t count,
		vp_type t, vp_op op)
{
	int rc = vp__vrecv(v, j, tmp, count * vp_type_size(t));

	if (!rc && count)
		rc = vp_reduce_local(tmp, acc, count, t, op);
	return rc;
}

int vp__chain_reduce_view(const struct view *v, int wrap, int root, void *acc,
			  void *tmp, size_t count, vp_type t, vp_op op)
{
	struct chain_sides s;
	int side, d, k, dir, rc = VP_OK;

	vp__chain_sides(v->n, wrap, root, &s);
	vp__chain_where(&s, v->n, root, v->me, &side, &d);
	if (side < 0) {
		for (k = 1; k >= 0 && !rc; k--) /* the shorter side first */
			if (s.len[k])
				rc = take(
				    v,
				    vp__chain_member(v->n, root, s.dir[k], 1),
				    acc, tmp, count, t, op);
		return rc;
	}
	dir = s.dir[side];
	if (d < s.len[side])
		rc = take(v, vp__chain_member(v->n, root, dir, d + 1), acc, tmp,
			  count, t, op);
	if (!rc)
		rc = vp__vsend(v, vp__chain_member(v->n, root, dir, d - 1), acc,
			       count * vp_type_size(t));
	return rc;
}
