/*
 * suite.c - the mpi transport's specification, as one program run two ways:
 *
 *   mpirun -np P suite P        every case with VP_TRANSPORT=mpi (one rank
 *                               per process)
 *   VP_TRANSPORT=threads suite P  the same cases as P threads
 *
 * Each case prints one line from the process that ran rank 0: its result
 * code, its model figures (model time, congested time, messages, bytes,
 * most-loaded link, unreceived messages) and, for a failing case, its
 * report. Every rank checks the data it received and fails the case when it
 * is wrong. tests/test_transport_mpi.sh runs both and requires the outputs
 * to be identical: same results, same model times to the last digit, same
 * error reports.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vp.h"

static int P;
static const char *topo;
static const char *only; /* argv[2]: run only the cases of this name */

/* ---- point to point ---- */

/* Tags, a ring both ways through requests, probe, a cancelled receive, a
 * synchronous send. */
static int p2p(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), right = (me + 1) % p,
	    left = (me + p - 1) % p, got[2] = { -1, -1 }, out = me, big[64];
	vp_request r[4];
	vp_status st;
	int i;

	(void)arg;
	/* two tags, received in the other order */
	if (vp_send_tag(c, right, 1, &out, sizeof(out)) ||
	    vp_send_tag(c, right, 2, &me, sizeof(me)) ||
	    vp_recv_tag(c, left, 2, &got[1], sizeof(int), &st) ||
	    vp_recv_tag(c, left, 1, &got[0], sizeof(int), NULL))
		return 2;
	if (got[0] != left || got[1] != left || st.source != left ||
	    st.tag != 2)
		return 1;
	/* both directions at once, nonblocking */
	for (i = 0; i < 64; i++)
		big[i] = me * 64 + i;
	vp_irecv(c, left, 5, &got[0], sizeof(int), &r[0]);
	vp_irecv(c, right, 6, &got[1], sizeof(int), &r[1]);
	vp_isend(c, right, 5, &me, sizeof(me), &r[2]);
	vp_isend(c, left, 6, &me, sizeof(me), &r[3]);
	if (vp_waitall(4, r, NULL))
		return 2;
	if (got[0] != left || got[1] != right)
		return 1;
	/* probe for the length, then receive */
	if (vp_send_tag(c, right, 9, big, sizeof(big)) ||
	    vp_probe(c, left, 9, &st) || st.bytes != sizeof(big) ||
	    vp_recv_tag(c, left, 9, big, sizeof(big), NULL))
		return 2;
	for (i = 0; i < 64; i++)
		if (big[i] != left * 64 + i)
			return 1;
	/* a receive nothing matches, cancelled; then its tag's message */
	if (vp_irecv(c, left, 8, &got[0], sizeof(int), &r[0]) ||
	    vp_cancel(&r[0]) || vp_wait(&r[0], &st))
		return 2;
	if (!st.cancelled || got[0] != left)
		return 1;
	/* every rank has cancelled before any tag-8 message leaves */
	if (vp_barrier(c) || vp_send_tag(c, right, 8, &out, sizeof(out)) ||
	    vp_recv_tag(c, left, 8, &got[0], sizeof(int), &st))
		return 2;
	if (st.cancelled || got[0] != left)
		return 1;
	/* synchronous: even ranks send first, odd ones receive first */
	if (p > 1 && me % 2 == 0 && me + 1 < p)
		return vp_ssend_tag(c, me + 1, 3, &me, sizeof(me)) ? 2 : 0;
	if (p > 1 && me % 2 == 1) {
		if (vp_recv_tag(c, me - 1, 3, &got[0], sizeof(int), NULL))
			return 2;
		return got[0] != me - 1;
	}
	return 0;
}

/* Rank 0 takes one message from every other rank through VP_ANY_SOURCE
 * (which sender comes first follows the real interleaving: its model time
 * is not compared). */
static int wildcard(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), i, v, sum = 0;
	vp_status st;

	(void)arg;
	if (me != 0)
		return vp_send_tag(c, 0, me, &me, sizeof(me)) ? 2 : 0;
	for (i = 1; i < p; i++) {
		if (vp_recv_tag(c, VP_ANY_SOURCE, VP_ANY_TAG, &v, sizeof(v),
				&st))
			return 2;
		if (st.source != v || st.tag != v)
			return 1;
		sum += v;
	}
	return sum != p * (p - 1) / 2;
}

/* ---- collectives ---- */

struct coll_case {
	vp_coll op;
	size_t count; /* int32 elements per rank */
};

static int collective(vp_comm *c, void *arg)
{
	const struct coll_case *k = arg;
	int me = vp_rank(c), p = vp_size(c), rc = 0;
	size_t n = k->count, i, j;
	int *in = malloc(n * (size_t)p * sizeof(int));
	int *out = malloc(n * (size_t)p * sizeof(int));

	if (!in || !out) {
		free(in);
		free(out);
		return 3;
	}
	for (i = 0; i < n * (size_t)p; i++)
		in[i] = (int)(me * 1000 + i);
	memset(out, 0, n * (size_t)p * sizeof(int));
	switch (k->op) {
	case VP_COLL_BCAST:
		if (me == 1 % p)
			memcpy(out, in, n * sizeof(int));
		rc = vp_bcast(c, out, n, VP_INT32, 1 % p, VP_ALG_AUTO);
		for (i = 0; !rc && i < n; i++)
			rc = out[i] != (int)((1 % p) * 1000 + i);
		break;
	case VP_COLL_ALLREDUCE:
	case VP_COLL_REDUCE:
		rc = k->op == VP_COLL_REDUCE
			 ? vp_reduce(c, in, out, n, VP_INT32, VP_SUM, 0,
				     VP_ALG_AUTO)
			 : vp_allreduce(c, in, out, n, VP_INT32, VP_SUM,
					VP_ALG_AUTO);
		if (k->op == VP_COLL_REDUCE && me != 0)
			break;
		for (i = 0; !rc && i < n; i++)
			rc = out[i] !=
			     (int)(1000 * p * (p - 1) / 2 + (int)i * p);
		break;
	case VP_COLL_ALLGATHER:
		rc = vp_allgather(c, in, out, n, VP_INT32, VP_ALG_AUTO);
		for (j = 0; !rc && j < (size_t)p; j++)
			for (i = 0; !rc && i < n; i++)
				rc = out[j * n + i] != (int)(j * 1000 + i);
		break;
	case VP_COLL_SCAN:
		rc = vp_scan(c, in, out, n, VP_INT32, VP_SUM, VP_ALG_AUTO);
		for (i = 0; !rc && i < n; i++)
			rc = out[i] != (int)(1000 * me * (me + 1) / 2 +
					     (int)i * (me + 1));
		break;
	case VP_COLL_GATHER:
		rc = vp_gather(c, in, out, n, VP_INT32, 0, VP_ALG_AUTO);
		for (j = 0; !rc && me == 0 && j < (size_t)p; j++)
			for (i = 0; !rc && i < n; i++)
				rc = out[j * n + i] != (int)(j * 1000 + i);
		break;
	case VP_COLL_SCATTER:
		rc = vp_scatter(c, in, out, n, VP_INT32, 0, VP_ALG_AUTO);
		for (i = 0; !rc && i < n; i++)
			rc = out[i] != (int)(me * n + i);
		break;
	case VP_COLL_ALLTOALL:
		rc = vp_alltoall(c, in, out, n, VP_INT32, VP_ALG_AUTO);
		for (j = 0; !rc && j < (size_t)p; j++)
			for (i = 0; !rc && i < n; i++)
				rc = out[j * n + i] !=
				     (int)(j * 1000 + (size_t)me * n + i);
		break;
	default:
		rc = vp_barrier(c);
		break;
	}
	free(in);
	free(out);
	return rc;
}

/* Split into even and odd ranks, sum on each half, free. */
static int split(vp_comm *c, void *arg)
{
	int me = vp_rank(c), sum = 0, want = 0, i;
	vp_comm *half;

	(void)arg;
	if (vp_comm_split(c, me % 2, -me, &half))
		return 2;
	if (vp_allreduce(half, &me, &sum, 1, VP_INT32, VP_SUM, VP_ALG_AUTO))
		return 2;
	for (i = me % 2; i < vp_size(c); i += 2)
		want += i;
	if (sum != want || vp_rank(half) != (vp_size(half) - 1 - me / 2))
		return 1;
	return vp_comm_free(half) ? 2 : 0;
}

/* A communicator made by the listed ranks alone: the even ranks (in
 * reverse order) and the odd ones, at once under two tags. */
static int create_group(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), list[64], n = 0, i, sum = 0,
	    want = 0;
	vp_comm *g;

	(void)arg;
	for (i = p - 1; i >= 0; i--)
		if (i % 2 == me % 2) {
			list[n++] = i;
			want += i;
		}
	if (vp_comm_create_group(c, list, n, me % 2, &g) ||
	    vp_allreduce(g, &me, &sum, 1, VP_INT32, VP_SUM, VP_ALG_AUTO))
		return 2;
	if (sum != want || vp_size(g) != n || vp_world_rank(g, 0) != list[0])
		return 1;
	return vp_comm_free(g) ? 2 : 0;
}

/* Synchronous nonblocking sends around the ring. */
static int issend(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), got = -1;
	vp_request r;

	(void)arg;
	if (vp_issend(c, (me + 1) % p, 3, &me, sizeof(me), &r) ||
	    vp_recv_tag(c, (me + p - 1) % p, 3, &got, sizeof(got), NULL) ||
	    vp_wait(&r, NULL))
		return 2;
	return got != (me + p - 1) % p;
}

/* Messages longer than the mpi transport sends whole (a header, then the
 * payload as a second MPI message): into a receive posted first; sent
 * before their receive, followed by a short one of the same tag that must
 * not overtake them, probed; three taken out of order; synchronous. */
#define LARGE_INTS 6000 /* 24,000 bytes */
static int large(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), right = (me + 1) % p,
	    left = (me + p - 1) % p, small = -1, rc = 0, i;
	size_t bytes = LARGE_INTS * sizeof(int);
	int *out = malloc(bytes), *in = malloc(bytes);
	vp_request r[3];
	vp_status st;

	(void)arg;
	if (!out || !in) {
		free(out);
		free(in);
		return 2;
	}
	for (i = 0; i < LARGE_INTS; i++)
		out[i] = me * LARGE_INTS + i;
	/* the receive is posted before the message comes */
	if (vp_irecv(c, left, 1, in, bytes, &r[0]) ||
	    vp_isend(c, right, 1, out, bytes, &r[1]) ||
	    vp_waitall(2, r, NULL))
		rc = 2;
	for (i = 0; !rc && i < LARGE_INTS; i++)
		if (in[i] != left * LARGE_INTS + i)
			rc = 1;
	/* the message comes before its receive, a short one behind it */
	memset(in, 0, bytes);
	if (!rc && (vp_isend(c, right, 2, out, bytes, &r[0]) ||
		    vp_isend(c, right, 2, &me, sizeof(me), &r[1]) ||
		    vp_barrier(c) || vp_probe(c, left, 2, &st) ||
		    vp_recv_tag(c, left, 2, in, bytes, NULL) ||
		    vp_recv_tag(c, left, 2, &small, sizeof(small), NULL) ||
		    vp_waitall(2, r, NULL)))
		rc = 2;
	if (!rc && (st.bytes != bytes || small != left))
		rc = 1;
	for (i = 0; !rc && i < LARGE_INTS; i++)
		if (in[i] != left * LARGE_INTS + i)
			rc = 1;
	/* three long ones of different tags (and lengths), the middle one
	 * taken first, then the last, then the first */
	if (!rc && (vp_isend(c, right, 4, out, bytes, &r[0]) ||
		    vp_isend(c, right, 5, out + 1, bytes - sizeof(int),
			     &r[1]) ||
		    vp_isend(c, right, 6, out + 2, bytes - 2 * sizeof(int),
			     &r[2]) ||
		    vp_barrier(c) ||
		    vp_recv_tag(c, left, 5, in, bytes - sizeof(int), NULL)))
		rc = 2;
	if (!rc && in[0] != left * LARGE_INTS + 1)
		rc = 1;
	if (!rc && vp_recv_tag(c, left, 6, in, bytes - 2 * sizeof(int), NULL))
		rc = 2;
	if (!rc && in[0] != left * LARGE_INTS + 2)
		rc = 1;
	if (!rc && (vp_recv_tag(c, left, 4, in, bytes, NULL) ||
		    vp_waitall(3, r, NULL)))
		rc = 2;
	if (!rc && in[LARGE_INTS - 1] != left * LARGE_INTS + LARGE_INTS - 1)
		rc = 1;
	/* synchronous: even ranks send, odd ones receive */
	if (!rc && p > 1 && me % 2 == 0 && me + 1 < p)
		rc = vp_ssend_tag(c, me + 1, 3, out, bytes) ? 2 : 0;
	if (!rc && p > 1 && me % 2 == 1) {
		if (vp_recv_tag(c, me - 1, 3, in, bytes, NULL))
			rc = 2;
		else if (in[LARGE_INTS - 1] != me * LARGE_INTS - 1)
			rc = 1;
	}
	free(out);
	free(in);
	return rc;
}

/* vp_reproducible_sum of terms whose rounding depends on the order: 2^60
 * on rank 1, -2^60 on the last, 1 and 2^-60 elsewhere: the exact sum
 * correctly rounded, bit for bit. */
/* ---- receives that reduce ---- */

/* What rank `from` sends in reduce_pairs (element i, case k). */
static int64_t sent_value(int from, int k, size_t i)
{
	return (int64_t)(from + 1) * 100000 + k * 1000 + (int64_t)i;
}

/* A maximum's operands whose order shows: +0 against -0 (neither is
 * greater, so the result is the second operand, mine) and plain values. */
static double max_operand(int rank, size_t i)
{
	if (i % 3 == 0)
		return rank % 2 ? -(double)i : (double)i;
	return (i + (size_t)rank) % 2 ? 0.0 : -0.0;
}

/* VP_MAX's element: message op mine, the message first (its order shows
 * for +0 against -0). */
static double vp_max_of(double message, double mine)
{
	return message > mine ? message : mine;
}

/* One reduction of n elements from the partner, every way: into a
 * separate result and in place (from VP_ANY_SOURCE: the partner is the
 * only sender); received alone (the upper rank of the pair receives) and
 * exchanged (both). A 4-element vector comes whole; a
 * LARGE_INTS one is sent apart on the mpi transport, which receives it
 * into the result itself where the result is not the input. Every rank
 * checks every element against message op mine. */
static int reduce_pair(vp_comm *c, int partner, size_t n, int k)
{
	int me = vp_rank(c), rc = 0;
	size_t i, bytes = n * sizeof(int64_t);
	int64_t *mine = malloc(bytes), *out = malloc(bytes),
		*send = malloc(bytes);
	double *dmine = malloc(n * sizeof(double)),
	       *dout = malloc(n * sizeof(double)),
	       *dsend = malloc(n * sizeof(double)), want;

	if (!mine || !out || !send || !dmine || !dout || !dsend) {
		rc = 3;
		goto done;
	}
	for (i = 0; i < n; i++) {
		mine[i] = -(int64_t)i * 7 - me;
		send[i] = sent_value(me, k, i);
		dmine[i] = max_operand(me, i);
		dsend[i] = max_operand(me, i);
	}
	/* one way, into a separate result, then in place */
	if (me < partner) {
		if (vp_send(c, partner, send, bytes) ||
		    vp_send(c, partner, send, bytes) ||
		    vp_send(c, partner, dsend, n * sizeof(double)))
			rc = 2;
	} else {
		if (vp_recv_reduce(c, partner, mine, out, n, VP_INT64,
				   VP_SUM) ||
		    vp_recv_reduce(c, VP_ANY_SOURCE, mine, mine, n,
				   VP_INT64, VP_SUM) ||
		    vp_recv_reduce(c, partner, dmine, dout, n, VP_DOUBLE,
				   VP_MAX))
			rc = 2;
		for (i = 0; !rc && i < n; i++) {
			int64_t x = sent_value(partner, k, i);

			want = vp_max_of(max_operand(partner, i), dmine[i]);
			if (out[i] != x + (-(int64_t)i * 7 - me) ||
			    mine[i] != out[i] ||
			    memcmp(&dout[i], &want, sizeof(want)))
				rc = 1;
		}
	}
	/* exchanged: both send and combine, into a separate result and in
	 * place (the send buffer is another one) */
	for (i = 0; i < n; i++)
		mine[i] = -(int64_t)i * 7 - me;
	if (!rc && (vp_sendrecv_reduce(c, partner, send, bytes, partner, mine,
				       out, n, VP_INT64, VP_SUM) ||
		    vp_sendrecv_reduce(c, partner, send, bytes, partner, mine,
				       mine, n, VP_INT64, VP_SUM) ||
		    vp_sendrecv_reduce(c, partner, dsend, n * sizeof(double),
				       partner, dmine, dout, n, VP_DOUBLE,
				       VP_MAX)))
		rc = 2;
	for (i = 0; !rc && i < n; i++) {
		want = vp_max_of(max_operand(partner, i), dmine[i]);
		if (out[i] != sent_value(partner, k, i) +
				  (-(int64_t)i * 7 - me) ||
		    mine[i] != out[i] || memcmp(&dout[i], &want, sizeof(want)))
			rc = 1;
	}
done:
	free(mine);
	free(out);
	free(send);
	free(dmine);
	free(dout);
	free(dsend);
	return rc;
}

/* Ranks 0-1, 2-3, ... reduce pairwise; a rank without a partner waits. */
static int reduce_pairs(vp_comm *c, void *arg)
{
	int me = vp_rank(c), partner = me ^ 1, rc;

	(void)arg;
	if (partner >= vp_size(c))
		return 0;
	if ((rc = reduce_pair(c, partner, 4, 0)))
		return rc;
	return reduce_pair(c, partner, LARGE_INTS, 1);
}

/* A reduction of LARGE_INTS elements sent one element short: the
 * receiver gets VP_ETRUNC and its result stays as it was, even where the
 * mpi transport would have received the payload straight into it. Rank 0
 * says so. */
static int reduce_short(vp_comm *c, void *arg)
{
	size_t n = LARGE_INTS, i;
	int64_t *mine = calloc(n, sizeof(int64_t)),
		*out = malloc(n * sizeof(int64_t));
	int rc = 0, untouched = 1;

	(void)arg;
	if (!mine || !out) {
		free(mine);
		free(out);
		return 3;
	}
	for (i = 0; i < n; i++)
		out[i] = -5;
	if (vp_rank(c) == 1) {
		rc = vp_send(c, 0, mine, (n - 1) * sizeof(int64_t));
	} else if (vp_rank(c) == 0) {
		rc = vp_recv_reduce(c, 1, mine, out, n, VP_INT64, VP_SUM);
		for (i = 0; i < n; i++)
			untouched &= out[i] == -5;
		printf("  reduce-short: rc=%d, the result %s\n", rc,
		       untouched ? "untouched" : "WRITTEN");
	}
	free(mine);
	free(out);
	return rc;
}

static int reproducible(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), ones = 0, i;
	double x[2] = { 1.0, 0x1p-60 }, sum, want;

	(void)arg;
	if (p > 2 && me == 1)
		x[0] = 0x1p60;
	if (p > 2 && me == p - 1)
		x[0] = -0x1p60;
	for (i = 0; i < p; i++)
		ones += p <= 2 || (i != 1 && i != p - 1);
	want = ones + p * 0x1p-60; /* exact: ones < 2^8 */
	if (vp_reproducible_sum(c, x, 2, VP_DOUBLE, &sum, VP_ALG_AUTO))
		return 2;
	return memcmp(&sum, &want, sizeof(sum)) != 0;
}

/* ---- one-sided windows ---- */

#define WIN_BIG 4096 /* bytes of the big put: past the eager limit */

/* Window: [0] a counter every rank adds its rank + 1 to, [1] the left
 * neighbour's rank (put), then WIN_BIG bytes the left neighbour fills.
 * Each rank also gets the right neighbour's [1], after a second epoch. */
static int window(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), right = (me + 1) % p;
	int64_t *mem = calloc(2 + WIN_BIG / 8, 8), one = me + 1, mine = me;
	int64_t got = -1, *big = malloc(WIN_BIG);
	int bad = 0, i;
	vp_win *w;

	(void)arg;
	if (!mem || !big)
		return 2;
	for (i = 0; i < WIN_BIG / 8; i++)
		big[i] = 1000 * me + i;
	if (vp_win_create(c, mem, 16 + WIN_BIG, &w) || vp_win_fence(w) ||
	    vp_accumulate(w, 0, 0, &one, 1, VP_INT64, VP_SUM) ||
	    vp_put(w, right, 8, &mine, 8) ||
	    vp_put(w, right, 16, big, WIN_BIG) || vp_win_fence(w) ||
	    vp_get(w, right, 8, &got, 8) || vp_win_fence(w))
		return 2;
	bad = mem[1] != (me + p - 1) % p || got != me ||
	      (me == 0 && mem[0] != (int64_t)p * (p + 1) / 2);
	for (i = 0; i < WIN_BIG / 8; i++)
		bad |= mem[2 + i] != 1000 * ((me + p - 1) % p) + i;
	free(big);
	if (vp_win_free(w))
		return 2;
	free(mem);
	return bad;
}

/* Passive target, without contention (so its model times are those of
 * the threads transport): each rank locks its right neighbour
 * exclusively, puts its rank into [1], adds rank + 1 into [2], reads
 * [1] back after a flush; then, under vp_win_lock_all, adds 1 to rank
 * 0's [0] (vp_fetch_and_op), swaps rank + 1 into the right neighbour's
 * [3] if it is 0 (vp_compare_and_swap) and replaces its [4] with rank +
 * 1, fetching the 0 it held (vp_get_accumulate). */
static int passive(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), right = (me + 1) % p;
	int left = (me + p - 1) % p, bad;
	int64_t mem[5] = { 0 }, mine = me, one = me + 1, got = -1, inc = 1;
	int64_t zero = 0, old = -1, was = -1, fetched = -1;
	vp_win *w;

	(void)arg;
	if (vp_win_create(c, mem, sizeof(mem), &w) ||
	    vp_win_lock(w, VP_LOCK_EXCLUSIVE, right) ||
	    vp_put(w, right, 8, &mine, 8) ||
	    vp_accumulate(w, right, 16, &one, 1, VP_INT64, VP_SUM) ||
	    vp_win_flush(w, right) || vp_get(w, right, 8, &got, 8) ||
	    vp_win_unlock(w, right) || vp_barrier(c) ||
	    vp_win_lock_all(w, 0) ||
	    vp_fetch_and_op(w, 0, 0, &inc, &old, VP_INT64, VP_SUM) ||
	    vp_compare_and_swap(w, right, 24, &one, &zero, &was, VP_INT64) ||
	    vp_get_accumulate(w, right, 32, &one, &fetched, 1, VP_INT64,
			      VP_REPLACE) ||
	    vp_win_flush_all(w) || vp_win_unlock_all(w) || vp_barrier(c) ||
	    vp_win_free(w))
		return 2;
	bad = got != me || mem[1] != left || mem[2] != left + 1 ||
	      mem[3] != left + 1 || mem[4] != left + 1 || was != 0 ||
	      fetched != 0 || old < 0 || old >= p || (me == 0 && mem[0] != p);
	return bad;
}

/* The atomics in a fence epoch and in post-start-complete-wait: each
 * rank adds rank + 1 to rank 0's [0] and swaps its rank + 1 into its
 * right neighbour's [1] (fences), then into its [2] (an access epoch to
 * the right neighbour, exposed to the left one). */
static int active_atomics(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), right = (me + 1) % p;
	int left = (me + p - 1) % p, bad;
	int64_t mem[3] = { 0 }, one = me + 1, zero = 0, old = -1, was = -1;
	int64_t was2 = -1;
	vp_win *w;

	(void)arg;
	if (vp_win_create(c, mem, sizeof(mem), &w) || vp_win_fence(w) ||
	    vp_fetch_and_op(w, 0, 0, &one, &old, VP_INT64, VP_SUM) ||
	    vp_compare_and_swap(w, right, 8, &one, &zero, &was, VP_INT64) ||
	    vp_win_fence(w) || vp_win_post(w, &left, 1) ||
	    vp_win_start(w, &right, 1) ||
	    vp_compare_and_swap(w, right, 16, &one, &zero, &was2, VP_INT64) ||
	    vp_win_complete(w) || vp_win_wait(w))
		return 2;
	bad = was != 0 || was2 != 0 || mem[1] != left + 1 ||
	      mem[2] != left + 1 ||
	      (me == 0 && mem[0] != (int64_t)p * (p + 1) / 2);
	return vp_win_free(w) ? 2 : bad;
}

/* A dynamic window: each rank attaches two int64 and tells the others
 * their address; each puts its rank into its right neighbour's first
 * and adds rank + 1 to its second under an exclusive lock. */
static int dynamic(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), right = (me + 1) % p;
	int left = (me + p - 1) % p, bad;
	int64_t mem[2] = { 0, 0 }, mine = me, one = me + 1;
	uint64_t at = (uint64_t)(uintptr_t)mem, *all = calloc((size_t)p, 8);
	vp_win *w;

	(void)arg;
	if (!all || vp_win_create_dynamic(c, &w) ||
	    vp_win_attach(w, mem, sizeof(mem)) ||
	    vp_allgather(c, &at, all, 1, VP_INT64, VP_ALG_AUTO) ||
	    vp_win_lock(w, VP_LOCK_EXCLUSIVE, right) ||
	    vp_put(w, right, (size_t)all[right], &mine, 8) ||
	    vp_accumulate(w, right, (size_t)all[right] + 8, &one, 1, VP_INT64,
			  VP_SUM) ||
	    vp_win_unlock(w, right) || vp_barrier(c) ||
	    vp_win_detach(w, mem) || vp_win_free(w))
		return 2;
	bad = mem[0] != left || mem[1] != left + 1;
	free(all);
	return bad;
}

#define FETCHES 10

/* Atomics from every process at once under vp_win_lock_all (shared, so
 * the model times are deterministic): each rank but 0 fetches-and-adds
 * 1 to rank 0's counter FETCHES times and every fetched value is
 * different; each tries to swap its rank into every one of rank 0's p
 * slots that is still 0 and each slot is claimed exactly once; rank 0
 * calls nothing meanwhile (it waits in vp_recv for rank 1). */
static int atomics(vp_comm *c, void *arg)
{
	int me = vp_rank(c), p = vp_size(c), i, bad = 0, won = 0, all = 0;
	int64_t *mem = calloc((size_t)p + 1, 8), inc = 1, zero = 0, mine = me;
	int64_t got[FETCHES], *every = calloc((size_t)p * FETCHES, 8), was;
	vp_win *w;

	(void)arg;
	if (!mem || !every || vp_win_create(c, mem, (size_t)(p + 1) * 8, &w))
		return 2;
	for (i = 0; i < FETCHES; i++)
		got[i] = -1;
	if (me == 0 && p > 1 && vp_recv(c, 1, &i, sizeof(i)))
		return 2;
	if (me > 0 && vp_win_lock_all(w, 0))
		return 2;
	for (i = 0; me > 0 && i < FETCHES; i++)
		if (vp_fetch_and_op(w, 0, 0, &inc, &got[i], VP_INT64, VP_SUM))
			return 2;
	for (i = 0; me > 0 && i < p; i++) {
		if (vp_compare_and_swap(w, 0, 8 * (size_t)(i + 1), &mine,
					&zero, &was, VP_INT64))
			return 2;
		won += was == 0;
	}
	if (me > 0 && (vp_win_unlock_all(w) ||
		       (me == 1 && vp_send(c, 0, &i, sizeof(i)))))
		return 2;
	if (vp_gather(c, got, every, FETCHES, VP_INT64, 0, VP_ALG_AUTO) ||
	    vp_allreduce(c, &won, &all, 1, VP_INT32, VP_SUM, VP_ALG_AUTO) ||
	    vp_win_free(w))
		return 2;
	if (me == 0) { /* every fetched value once: 0 .. (p-1) FETCHES - 1 */
		char *seen = calloc((size_t)p * FETCHES, 1);

		for (i = 0; seen && i < (p - 1) * FETCHES; i++) {
			int64_t v = every[FETCHES + i];

			bad |= v < 0 || v >= (p - 1) * FETCHES || seen[v];
			if (!bad)
				seen[v] = 1;
		}
		free(seen);
		bad |= !seen || mem[0] != (int64_t)(p - 1) * FETCHES;
		for (i = 1; p > 1 && i <= p; i++) /* claimed, by a rank > 0 */
			bad |= mem[i] < 1 || mem[i] >= p;
	}
	bad |= all != (p > 1 ? p : 0);
	free(mem);
	free(every);
	return bad;
}

/* Mutual exclusion across processes: every rank increments rank 0's
 * counter 5 times by a get and a put under an exclusive lock; the run's
 * model times depend on who got the lock first (not compared). */
static int lock_count(vp_comm *c, void *arg)
{
	int64_t mem[1] = { 0 }, x;
	vp_win *w;
	int i;

	(void)arg;
	if (vp_win_create(c, mem, sizeof(mem), &w))
		return 2;
	for (i = 0; i < 5; i++)
		if (vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0) ||
		    vp_get(w, 0, 0, &x, 8) || vp_win_flush(w, 0) ||
		    (x++, vp_put(w, 0, 0, &x, 8)) || vp_win_unlock(w, 0))
			return 2;
	if (vp_win_free(w))
		return 2;
	return vp_rank(c) == 0 && mem[0] != 5 * vp_size(c);
}

/* ---- wrong programs: each fails, the same way on both transports ---- */

/* A lock never granted (asked for alone: the report's wording is the
 * transport's): rank 0 holds its own lock and waits for rank 1, which
 * waits for that lock. */
static int lock_deadlock(vp_comm *c, void *arg)
{
	int64_t mem = 0;
	int x = 0, rc;
	vp_win *w;

	(void)arg;
	if ((rc = vp_win_create(c, &mem, sizeof(mem), &w)))
		return rc;
	if (vp_rank(c) == 0) {
		if ((rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0)) ||
		    (rc = vp_send(c, 1, &x, sizeof(x))))
			return rc;
		return vp_recv(c, 1, &x, sizeof(x));
	}
	if (vp_rank(c) > 1)
		return VP_OK;
	if ((rc = vp_recv(c, 0, &x, sizeof(x))) ||
	    (rc = vp_win_lock(w, VP_LOCK_EXCLUSIVE, 0)))
		return rc;
	return vp_send(c, 0, &x, sizeof(x));
}

static int window_outside(vp_comm *c, void *arg)
{
	int64_t mem[2] = { 0, 0 }, x = 1;
	vp_win *w;
	int rc;

	(void)arg;
	if ((rc = vp_win_create(c, mem, vp_rank(c) == 1 ? 8 : 16, &w)) ||
	    (rc = vp_win_fence(w)))
		return rc;
	if (vp_rank(c) == 0 && (rc = vp_put(w, 1, 8, &x, 8)))
		return rc;
	return vp_win_free(w);
}

static int wrong_root(vp_comm *c, void *arg)
{
	int x = 7;

	(void)arg;
	return vp_bcast(c, &x, 1, VP_INT32, vp_rank(c) == 1 ? 1 : 0,
			VP_ALG_AUTO);
}

/* Rank 1 broadcasts two ints where the others broadcast one: rank 1 gets
 * root 0's message first (full:P, binomial) and must name the count,
 * which it can know only from root 0's record of the call. */
static int wrong_count(vp_comm *c, void *arg)
{
	int x[2] = { 7, 7 };

	(void)arg;
	return vp_bcast(c, x, vp_rank(c) == 1 ? 2 : 1, VP_INT32, 0,
			VP_ALG_BINOMIAL);
}

/* Rank 1 sends one message, then blocks in its own code for good (only
 * run when named, with a watchdog: it ends the job). */
static int stuck(vp_comm *c, void *arg)
{
	int x = 1;

	(void)arg;
	if (vp_rank(c) != 1)
		return vp_recv(c, 1, &x, sizeof(x)) ||
		       vp_recv(c, 1, &x, sizeof(x));
	if (vp_send(c, 0, &x, sizeof(x)))
		return 1;
	for (;;)
		pause();
}

static int recv_recv(vp_comm *c, void *arg)
{
	int me = vp_rank(c), x;

	(void)arg;
	if (me > 1)
		return vp_barrier(c);
	return vp_recv_tag(c, 1 - me, 4, &x, sizeof(x), NULL);
}

static int unreceived(vp_comm *c, void *arg)
{
	int x = 1;

	(void)arg;
	return vp_rank(c) == 1 ? vp_send(c, 0, &x, sizeof(x)) : 0;
}

static int aborts(vp_comm *c, void *arg)
{
	int x;

	(void)arg;
	if (vp_rank(c) == 1)
		return vp_abort(c, 3, "solver", "residual %g too large", 2.5);
	return vp_recv(c, 1, &x, sizeof(x)); /* woken by the abort */
}

/* ---- the driver ---- */

static void run(const char *name, int (*fn)(vp_comm *, void *), void *arg,
		int model_compared)
{
	vp_opts o = { 0 };
	vp_stats st;
	int rc;

	if (only && strcmp(only, name))
		return;
	o.topology = topo;
	o.ts = 100;
	o.tw = 1;
	o.th = 2;
	o.quiet = 1;
	rc = vp_run(&o, fn, arg, &st);
	if (!st.leader)
		return;
	printf("%-14s %-14s rc=%d", topo, name, rc);
	if (model_compared)
		printf(" model=%.3f congested=%.3f msgs=%llu bytes=%llu "
		       "load=%llu",
		       st.model_time, st.model_time_congested,
		       (unsigned long long)st.messages,
		       (unsigned long long)st.bytes,
		       (unsigned long long)st.max_link_load);
	/* after a failure, what is left in flight depends on how far each
	 * rank got: compared only where the run succeeded, or must not */
	if (rc == 0 || !strcmp(name, "unreceived"))
		printf(" unreceived=%llu", (unsigned long long)st.unreceived);
	printf("\n");
	if (rc)
		printf("  | %s\n", st.report);
	fflush(stdout);
}

static int is_pow2(int p)
{
	return p > 0 && !(p & (p - 1));
}

static void topology_cases(void)
{
	static const struct coll_case colls[] = {
		{ VP_COLL_BCAST, 1 },     { VP_COLL_BCAST, 2048 },
		{ VP_COLL_REDUCE, 1 },    { VP_COLL_REDUCE, 2048 },
		{ VP_COLL_ALLREDUCE, 1 }, { VP_COLL_ALLREDUCE, 2048 },
		{ VP_COLL_ALLGATHER, 1 }, { VP_COLL_ALLGATHER, 512 },
		{ VP_COLL_SCAN, 1 },      { VP_COLL_SCAN, 512 },
		{ VP_COLL_GATHER, 1 },    { VP_COLL_GATHER, 512 },
		{ VP_COLL_SCATTER, 1 },   { VP_COLL_SCATTER, 512 },
		{ VP_COLL_ALLTOALL, 1 },  { VP_COLL_ALLTOALL, 256 },
		{ VP_COLL_COUNT_, 0 }, /* a barrier */
	};
	size_t i;
	char name[64];

	run("p2p", p2p, NULL, 1);
	run("large", large, NULL, 1);
	run("wildcard", wildcard, NULL, 0);
	for (i = 0; i < sizeof(colls) / sizeof(colls[0]); i++) {
		snprintf(name, sizeof(name), "%s/%zu",
			 colls[i].op == VP_COLL_COUNT_
			     ? "barrier"
			     : vp_coll_name(colls[i].op),
			 colls[i].count);
		run(name, collective, (void *)&colls[i], 1);
	}
	run("split", split, NULL, 1);
	run("create-group", create_group, NULL, 1);
	run("issend", issend, NULL, 1);
	run("reproducible", reproducible, NULL, 1);
	run("recv-reduce", reduce_pairs, NULL, 1);
	run("window", window, NULL, 1);
	run("passive", passive, NULL, 1);
	run("atomics", atomics, NULL, 1);
	run("active-atomics", active_atomics, NULL, 1);
	run("dynamic", dynamic, NULL, 1);
	run("lock-count", lock_count, NULL, 0);
}

int main(int argc, char **argv)
{
	char spec[64];
	int d;

	setvbuf(stdout, NULL, _IOLBF, 0);
	P = argc > 1 ? atoi(argv[1]) : 0;
	only = argc > 2 ? argv[2] : NULL;
	if (P < 1) {
		fprintf(stderr, "usage: suite P [case]\n");
		return 2;
	}
	snprintf(spec, sizeof(spec), "ring:%d", P);
	topo = spec;
	topology_cases();
	snprintf(spec, sizeof(spec), "full:%d", P);
	topology_cases();
	if (is_pow2(P) && P > 1) {
		for (d = 0; (1 << d) < P; d++)
			;
		snprintf(spec, sizeof(spec), "hypercube:%d", d);
		topology_cases();
	}
	if (P == 9 || P == 4) {
		snprintf(spec, sizeof(spec), P == 9 ? "mesh:3x3" : "torus:2x2");
		topology_cases();
	}
	if (P >= 2) {
		snprintf(spec, sizeof(spec), "full:%d", P);
		run("wrong-root", wrong_root, NULL, 0);
		run("wrong-count", wrong_count, NULL, 0);
		run("recv-recv", recv_recv, NULL, 0);
		run("unreceived", unreceived, NULL, 0);
		run("abort", aborts, NULL, 0);
		run("window-outside", window_outside, NULL, 0);
		run("reduce-short", reduce_short, NULL, 0);
	}
	if (only && !strcmp(only, "stuck") && P >= 2) {
		snprintf(spec, sizeof(spec), "full:%d", P);
		run("stuck", stuck, NULL, 0);
	}
	if (only && !strcmp(only, "lock-deadlock") && P >= 2) {
		snprintf(spec, sizeof(spec), "full:%d", P);
		run("lock-deadlock", lock_deadlock, NULL, 0);
	}
	return 0;
}
