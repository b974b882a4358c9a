/*
 * chain_allgather.c - all-to-all broadcast and all-to-all reduction
 * between neighbours only, on a chain. A ring runs the ring algorithms
 * (allgather_ring.c, reduce_scatter_ring.c). A line has no link from its
 * last member back to its first, so each chunk travels both ways.
 *
 * Source: Grama et al., sec. 4.2.1 (all-to-all broadcast on a ring,
 *         Algorithm 4.4, and its dual); the line version sends each
 *         chunk both ways, a step to the right then a step to the left.
 * Cost:   chunks of c bytes; ring: (n - 1)(ts + tw*c). Line:
 *           T = (n - 1 + ceil(n/2))(ts + tw*c)
 *         A member sends two messages a step while it has chunks for both
 *         sides and one after that, and members near the ends, with
 *         little to send one way, run ahead: the sweeps overlap, and the
 *         last chunk lands ceil(n/2) - 1 steps after the n - 1 of one
 *         sweep (the schedule's recurrence, worked for n = 2 .. 29; the
 *         model clock gives the same, test_strict). The reduction is the
 *         same schedule backwards and costs the same.
 * Steps:  line, step k = 1 .. n-1: member i sends chunk i-k+1 to i+1 and
 *         takes chunk i-k from i-1, then sends chunk i+k-1 to i-1 and
 *         takes chunk i+k from i+1 (where those exist).
 *           line of 3, member 1: step 1 sends 1 right, gets 0; sends 1
 *           left, gets 2. Step 2 sends 0 right, 2 left.
 *         The reduction (line): the partial sums of chunk j from the left
 *         flow right, from member 0 to j, and those from the right flow
 *         left, from n-1 to j: at step s, i sends chunk n-1-s+i to the
 *         right (s >= i) and chunk s+i+1-n to the left (s >= n-1-i), so
 *         both sweeps end at step n-2 with chunk j at member j.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

/* Member j's rank, or VP_PROC_NULL outside [0, n). */
static int peer(const struct view *v, int j)
{
	return j < 0 || j >= v->n ? VP_PROC_NULL : vp__view_rank(v, j);
}

double vp__chain_allgather_time(int n, int wrap, double ts, double twc)
{
	double steps = n - 1 + (wrap ? 0 : (n + 1) / 2);

	return n > 1 ? steps * (ts + twc) : 0;
}

/* One exchange of chunks: sj (-1: none) to member dst, rj from src. */
static int swap_chunks(const struct view *v, char *buf, const struct chunks *ch,
		       int dst, int sj, int src, int rj, void *into)
{
	const void *sb = sj >= 0 ? buf + vp__chunk_off(ch, sj) : NULL;
	size_t sn = sj >= 0 ? vp__chunk_len(ch, sj) : 0;
	size_t rn = rj >= 0 ? vp__chunk_len(ch, rj) : 0;

	if (sj < 0 && rj < 0)
		return VP_OK;
	if (rj >= 0 && !into)
		into = buf + vp__chunk_off(ch, rj);
	return vp_sendrecv(v->c, sj >= 0 ? peer(v, dst) : VP_PROC_NULL, sb, sn,
			   rj >= 0 ? peer(v, src) : VP_PROC_NULL, into, rn);
}

int vp__chain_allgather_view(const struct view *v, int wrap, void *buf,
			     const struct chunks *ch)
{
	int n = v->n, i = v->me, k, rc;

	if (wrap)
		return vp__allgather_ring_view(v, buf, ch, NULL);
	for (k = 1; k < n; k++) {
		rc = swap_chunks(v, buf, ch, i + 1,
				 i + 1 < n && i - k + 1 >= 0 ? i - k + 1 : -1,
				 i - 1, i - k >= 0 ? i - k : -1, NULL);
		if (!rc)
			rc = swap_chunks(v, buf, ch, i - 1,
					 i >= 1 && i + k - 1 < n ? i + k - 1
								 : -1,
					 i + 1, i + k < n ? i + k : -1, NULL);
		if (rc)
			return rc;
	}
	return VP_OK;
}

size_t vp__chain_reduce_scatter_scratch(int wrap, const struct chunks *ch)
{
	size_t big = vp__chunk_len(ch, 0);

	return wrap ? big : ch->total * ch->esize + 2 * big;
}

/* Folds what arrived (tmp) into chunk j of acc. */
static int fold(char *acc, const struct chunks *ch, int j, const void *tmp,
		vp_type t, vp_op op)
{
	return vp_reduce_local(tmp, acc + vp__chunk_off(ch, j),
			       vp__chunk_len(ch, j) / ch->esize, t, op);
}

int vp__chain_reduce_scatter_view(const struct view *v, int wrap, void *buf,
				  const struct chunks *ch, void *tmp, vp_type t,
				  vp_op op)
{
	int n = v->n, i = v->me, s, sj, rj, rc = VP_OK;
	size_t big = vp__chunk_len(ch, 0);
	char *right = buf, *left = tmp, *in = left + ch->total * ch->esize;

	if (wrap)
		return vp__reduce_scatter_ring_view(v, buf, ch, t, op);
	/* right holds the sums from the left, left those from the right */
	memcpy(left, buf, ch->total * ch->esize);
	for (s = 0; s <= n - 2 && !rc; s++) {
		sj = i + 1 < n && s >= i ? n - 1 - s + i : -1;
		rj = i >= 1 && s >= i - 1 ? n - 2 - s + i : -1;
		rc = swap_chunks(v, right, ch, i + 1, sj, i - 1, rj, in);
		if (!rc && rj >= 0)
			rc = fold(right, ch, rj, in, t, op);
		sj = i >= 1 && s >= n - 1 - i ? s + i + 1 - n : -1;
		rj = i + 1 < n && s >= n - 2 - i ? s + i + 2 - n : -1;
		if (!rc)
			rc = swap_chunks(v, left, ch, i - 1, sj, i + 1, rj,
					 in + big);
		/* my own chunk: the sum from the right joins the result */
		if (!rc && rj >= 0)
			rc = fold(rj == i ? right : left, ch, rj, in + big, t,
				  op);
	}
	return rc;
}
