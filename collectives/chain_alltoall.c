/*
 * chain_alltoall.c - all-to-all personalized exchange between neighbours
 * only, on a chain. A ring runs the book's ring algorithm
 * (alltoall_ring.c). A line sweeps twice: first every block bound to the
 * right travels right, then every block bound to the left travels left;
 * each member keeps its own block of what arrives and passes the rest on
 * (store-and-forward, consolidated messages).
 *
 * Source: Grama et al., sec. 4.5.1 (all-to-all personalized on a ring,
 *         messages shrinking by one block a hop), here on a linear array.
 * Cost:   blocks of b bytes; ring: (n - 1)(ts + tw*b n/2). Line: in the
 *         right sweep member i sends n-1-i blocks at each of its steps and
 *         the sweep's last message leaves member n-2 after
 *         sum_{i=0}^{n-2} (ts + tw*b (n-1-i)) = (n-1) ts + tw*b n(n-1)/2;
 *         the left sweep mirrors it:
 *           T = 2 (n - 1) ts + tw*b n (n - 1).
 * Steps:  right sweep, step k = 1 .. n-1: member i sends to i+1 the blocks
 *         of origin i-k+1 for members i+1 .. n-1 and takes from i-1 those
 *         of origin i-k for members i .. n-1, keeping the first. The left
 *         sweep is the mirror image.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "coll.h"

double vp__chain_alltoall_time(int n, int wrap, double ts, double twb)
{
	double N = n;

	if (wrap)
		return (N - 1) * (ts + twb * N / 2);
	return 2 * (N - 1) * ts + twb * N * (N - 1);
}

/* Member j's rank, or VP_PROC_NULL where there is none. */
static int peer(const struct view *v, int j, int yes)
{
	return yes ? vp__view_rank(v, j) : VP_PROC_NULL;
}

int vp__chain_alltoall_view(const struct view *v, int wrap, const void *sbuf,
			    void *rbuf, size_t bs, void *tmp)
{
	const char *in = sbuf, *out;
	char *res = rbuf, *got[2];
	int n = v->n, i = v->me, k, w, snd, rcv, rc;

	if (wrap)
		return vp__alltoall_ring_view(v, sbuf, rbuf, bs, tmp);
	got[0] = tmp;
	got[1] = (char *)tmp + (size_t)n * bs;
	memcpy(res + (size_t)i * bs, in + (size_t)i * bs, bs);
	/* right sweep: messages hold the blocks for i+1 .. n-1 */
	out = in + (size_t)(i + 1) * bs;
	for (k = 1, w = 0; k < n; k++) {
		snd = i + 1 < n && i - k + 1 >= 0;
		rcv = i - k >= 0;
		if (!snd && !rcv)
			break;
		rc = vp_sendrecv(v->c, peer(v, i + 1, snd), out,
				 snd ? (size_t)(n - 1 - i) * bs : 0,
				 peer(v, i - 1, rcv), got[w],
				 rcv ? (size_t)(n - i) * bs : 0);
		if (rc)
			return rc;
		if (rcv) {
			memcpy(res + (size_t)(i - k) * bs, got[w], bs);
			out = got[w] + bs;
			w ^= 1;
		}
	}
	/* left sweep: messages hold the blocks for 0 .. i-1 */
	out = in;
	for (k = 1, w = 0; k < n; k++) {
		snd = i >= 1 && i + k - 1 < n;
		rcv = i + k < n;
		if (!snd && !rcv)
			break;
		rc = vp_sendrecv(v->c, peer(v, i - 1, snd), out,
				 snd ? (size_t)i * bs : 0, peer(v, i + 1, rcv),
				 got[w], rcv ? (size_t)(i + 1) * bs : 0);
		if (rc)
			return rc;
		if (rcv) {
			memcpy(res + (size_t)(i + k) * bs,
			       got[w] + (size_t)i * bs, bs);
			out = got[w];
			w ^= 1;
		}
	}
	return VP_OK;
}
