/*
 * chain_shift.c - circular q-shift between neighbours only, on a chain. A
 * ring shifts the shorter way round (shift_ring.c). A line has no link
 * from its end back to its start: the blocks of members 0 .. n-1-q move q
 * hops right, then those of members n-q .. n-1, which wrap, move n-q hops
 * left.
 *
 * Source: Grama et al., sec. 4.6 (circular shift on a ring); the line
 *         version is the same routing without the wraparound link.
 * Cost:   ring: (ts + tw*m) min(q, n - q); line: q steps of the right
 *         sweep, then n - q of the left one: n (ts + tw*m) for 0 < q < n.
 * Steps:  right sweep, step s = 1 .. q: member x sends the block of origin
 *         x-s+1 to x+1 and takes that of origin x-s from x-1 (origins
 *         0 .. n-1-q only). Left sweep, step s = 1 .. n-q: x sends origin
 *         x+s-1 to x-1 and takes origin x+s (origins n-q .. n-1 only).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

double vp__chain_shift_steps(int n, int wrap, long q)
{
	if (wrap)
		return vp__shift_steps(q, n);
	return q ? n : 0;
}

/* One sweep: blocks of origins [lo, hi] move dir hops a step for steps
 * steps; returns in *held what this member holds at the end. */
static int sweep(const struct view *v, int dir, long steps, long lo, long hi,
		 const char *own, char *a, char *b, size_t bs,
		 const char **held)
{
	const char *cur = own;
	char *next = a;
	long s, o, x = v->me;
	int rc, snd, rcv;

	for (s = 1; s <= steps; s++) {
		o = x - dir * (s - 1); /* the origin I hold */
		snd = o >= lo && o <= hi;
		rcv = o - dir >= lo && o - dir <= hi;
		if (!snd && !rcv)
			continue;
		rc = vp_sendrecv(
		    v->c, snd ? vp__view_rank(v, (int)(x + dir)) : VP_PROC_NULL,
		    cur, snd ? bs : 0,
		    rcv ? vp__view_rank(v, (int)(x - dir)) : VP_PROC_NULL, next,
		    rcv ? bs : 0);
		if (rc)
			return rc;
		if (rcv) {
			cur = next;
			next = next == a ? b : a;
		} else {
			cur = NULL; /* sent on; nothing held */
		}
	}
	*held = cur;
	return VP_OK;
}

int vp__chain_shift_view(const struct view *v, int wrap, void *buf, size_t bs,
			 long q, void *tmp)
{
	char *a = tmp, *b = a + bs, *keep = b + bs;
	const char *held;
	int n = v->n, x = v->me, rc;

	if (wrap)
		return vp__shift_ring_view(v, buf, bs, q, tmp);
	if (q == 0)
		return VP_OK;
	rc = sweep(v, 1, q, 0, n - 1 - q, buf, a, b, bs, &held);
	if (rc)
		return rc;
	if (x >= q) /* origin x - q arrived from the left */
		memcpy(keep, held, bs);
	rc = sweep(v, -1, n - q, n - q, n - 1, buf, a, b, bs, &held);
	if (rc)
		return rc;
	memcpy(buf, x >= q ? keep : held, bs);
	return VP_OK;
}
