/*
 * chain_scatter.c - scatter and gather between neighbours only, on a chain
 * (a line, or a ring when its ends are joined): the root sends each side
 * one message holding the items of the whole side; each member keeps its
 * own item and passes the rest on (store-and-forward, messages shrinking
 * by one item a hop). The gather runs it backwards.
 *
 * Source: Grama et al., sec. 4.4 (scatter and gather; on a linear array
 *         the messages of a side travel together) with single-port nodes.
 * Cost:   items of m bytes; the root's sides have a >= b members (as in
 *         chain_bcast.c) and side a is served first. A side of x members
 *         takes S(x) = sum over hops h = 1..x of (ts + tw*m (x - h + 1))
 *         = x ts + tw*m x (x + 1)/2, so
 *           T = b == 0 ? S(a) : max(S(a), ts + tw*m a + S(b))
 *         The gather's root takes side b first: the same T.
 *           line of 4 from 0: 0 -> 1 carries 3 items, 1 -> 2 two, 2 -> 3
 *           one: 3 ts + 6 tw*m.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

double vp__chain_scatter_time(int n, int wrap, int root, double ts, double twm)
{
	struct chain_sides s;
	double a, b, Sa, Sb;

	vp__chain_sides(n, wrap, root, &s);
	a = s.len[0];
	b = s.len[1];
	Sa = a * ts + twm * a * (a + 1) / 2;
	Sb = b * ts + twm * b * (b + 1) / 2;
	if (b == 0)
		return Sa;
	return Sa > ts + twm * a + Sb ? Sa : ts + twm * a + Sb;
}

int vp__chain_scatter_view(const struct view *v, int wrap, int root,
			   const void *items, void *out, size_t isz,
			   void *scratch)
{
	struct chain_sides s;
	const char *in = items;
	char *buf = scratch, *at;
	int side, d, k, j, dir, left, rc;

	vp__chain_sides(v->n, wrap, root, &s);
	vp__chain_where(&s, v->n, root, v->me, &side, &d);
	if (side < 0) {
		vp__copy(out, in + (size_t)root * isz, isz);
		/* side k's items by distance, then send each side */
		at = buf;
		for (k = 0; k < 2; k++)
			for (j = 1; j <= s.len[k]; j++, at += isz)
				memcpy(at,
				       in + (size_t)vp__chain_member(
						v->n, root, s.dir[k], j) *
						isz,
				       isz);
		at = buf;
		for (k = 0; k < 2; k++) {
			if (s.len[k] &&
			    (rc = vp__vsend(
				 v, vp__chain_member(v->n, root, s.dir[k], 1),
				 at, (size_t)s.len[k] * isz)))
				return rc;
			at += (size_t)s.len[k] * isz;
		}
		return VP_OK;
	}
	dir = s.dir[side];
	left = s.len[side] - d; /* items that go on */
	rc = vp__vrecv(v, vp__chain_member(v->n, root, dir, d - 1), buf,
		       (size_t)(left + 1) * isz);
	if (rc)
		return rc;
	memcpy(out, buf, isz);
	if (left)
		rc = vp__vsend(v, vp__chain_member(v->n, root, dir, d + 1),
			       buf + isz, (size_t)left * isz);
	return rc;
}

int vp__chain_gather_view(const struct view *v, int wrap, int root,
			  const void *in, void *items, size_t isz,
			  void *scratch)
{
	struct chain_sides s;
	char *buf = scratch, *res = items;
	int side, d, k, j, dir, left, rc;

	vp__chain_sides(v->n, wrap, root, &s);
	vp__chain_where(&s, v->n, root, v->me, &side, &d);
	if (side < 0) {
		vp__copy(res + (size_t)root * isz, in, isz);
		for (k = 1; k >= 0; k--) { /* the shorter side arrives first */
			if (!s.len[k])
				continue;
			rc = vp__vrecv(
			    v, vp__chain_member(v->n, root, s.dir[k], 1), buf,
			    (size_t)s.len[k] * isz);
			if (rc)
				return rc;
			for (j = 1; j <= s.len[k]; j++)
				memcpy(res + (size_t)vp__chain_member(
						 v->n, root, s.dir[k], j) *
						 isz,
				       buf + (size_t)(j - 1) * isz, isz);
		}
		return VP_OK;
	}
	dir = s.dir[side];
	left = s.len[side] - d; /* items that come from further out */
	memcpy(buf, in, isz);
	if (left && (rc = vp__vrecv(v, vp__chain_member(v->n, root, dir, d + 1),
				    buf + isz, (size_t)left * isz)))
		return rc;
	return vp__vsend(v, vp__chain_member(v->n, root, dir, d - 1), buf,
			 (size_t)(left + 1) * isz);
}
