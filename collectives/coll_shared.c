/*
 * coll_shared.c - what a collective call computes, written straight into
 * every rank's buffers, for the calls that run without their messages
 * (the runtime's vp__coll_shared: where the ranks share memory and
 * outnumber the CPUs, the ranks meet once and the last to arrive charges
 * the model clocks with the messages a recorded call of the same
 * signature sent, then calls coll_move here).
 *
 * Why: with more ranks than CPUs every message of a collective hands the
 * CPU from one thread to another, microseconds a message in wake-ups
 * alone, while one pass over every rank's buffers costs well under a
 * microsecond a rank.
 *
 * Which calls: those where every rank waits for every other anyway
 * (all-reduce, all-gather, reduce-scatter, all-to-all); the rooted ones,
 * the scan and the shift where a trial in the program's loop found
 * meeting faster than their messages, or always under
 * VP_SHARED_COLLECTIVES=all (the runtime's policy, runtime/coll_seam.h,
 * says why). Of those, the ones whose result the algorithm cannot change:
 * copies always; reductions only of integer types, whose sums and
 * products wrap and whose min, max and bitwise operations are exact, so
 * that every order of combining gives the same bits (a floating-point
 * sum's bits depend on the algorithm's order, so it is always sent). Not the bsp model (its
 * supersteps are charged at the call's end), not the inner calls of a
 * reproducible reduction, and only while one rank's pass over the data
 * stays short (MOVE_MAX bytes written in all).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coll.h"

#define MOVE_MAX ((size_t)1 << 20)

/* Whether every rank of op waits for every other's input anyway (then
 * meeting them costs no wait the messages would not). */
static int synchronizing(vp_coll op)
{
	return op == VP_COLL_ALLREDUCE || op == VP_COLL_ALLGATHER ||
	       op == VP_COLL_REDUCE_SCATTER || op == VP_COLL_ALLTOALL;
}

/* The bytes one pass writes into all ranks' buffers. */
static size_t moved(vp_coll op, int p, size_t bytes)
{
	switch (op) {
	case VP_COLL_ALLGATHER:
	case VP_COLL_ALLTOALL:
		return (size_t)p * p * bytes;
	case VP_COLL_REDUCE_SCATTER:
		return (size_t)p * p * bytes; /* every block read p times */
	default:
		return (size_t)p * bytes;
	}
}

/* Whether a's call may run without its messages. */
static int shareable(const struct coll *a)
{
	if (vp__coll_is_reduction(a->op) && a->type != VP_BYTE && a->type != VP_INT32 &&
	    a->type != VP_INT64)
		return 0;
	if (vp__bsp(a->c))
		return 0;
	if (a->bytes > MOVE_MAX / (size_t)a->p)
		return 0;
	return moved(a->op, a->p, a->bytes) <= MOVE_MAX;
}

static void copy(void *to, const void *from, size_t n)
{
	if (to != from)
		memmove(to, from, n);
}

/* into acc, the combination of every rank's block at offset off; acc
 * starts as rank 0's (exact operations: any order gives these bits) */
static void combine_all(const struct vp__shared_key *k, int p,
			const struct vp__shared_bufs *b, size_t off, int upto,
			char *acc, size_t bytes)
{
	int i;

	memcpy(acc, (const char *)b[0].sbuf + off, bytes);
	for (i = 1; i <= upto && i < p; i++)
		vp__reduce_into((const char *)b[i].sbuf + off, acc, acc,
				k->count, (vp_type)k->type, (vp_op)k->rop);
}

/* The result of the call k, from every member's buffers b (in place
 * already resolved by dispatch: sbuf is where the input lies). -1, with
 * nothing written, when there is no memory for a reduction's sum. */
static int coll_move(const struct vp__shared_key *k, int p,
		     const struct vp__shared_bufs *b)
{
	size_t bytes = k->count * vp_type_size((vp_type)k->type);
	_Alignas(16) char acc[256]; /* a fiber's stack is small */
	char *big = NULL, *sum = acc;
	int i, j;

	if (vp__coll_is_reduction((vp_coll)k->op) && bytes > sizeof(acc) &&
	    !(sum = big = malloc(bytes)))
		return -1;
	switch ((vp_coll)k->op) {
	case VP_COLL_BCAST:
		for (i = 0; i < p; i++)
			copy(b[i].rbuf, b[k->root].sbuf, bytes);
		break;
	case VP_COLL_SCATTER:
		for (i = 0; i < p; i++)
			copy(b[i].rbuf,
			     (const char *)b[k->root].sbuf + (size_t)i * bytes,
			     bytes);
		break;
	case VP_COLL_GATHER:
		for (i = 0; i < p; i++)
			copy((char *)b[k->root].rbuf + (size_t)i * bytes,
			     b[i].sbuf, bytes);
		break;
	case VP_COLL_ALLGATHER:
		for (j = 0; j < p; j++)
			for (i = 0; i < p; i++)
				copy((char *)b[j].rbuf + (size_t)i * bytes,
				     b[i].sbuf, bytes);
		break;
	case VP_COLL_ALLTOALL:
		for (j = 0; j < p; j++)
			for (i = 0; i < p; i++)
				copy((char *)b[j].rbuf + (size_t)i * bytes,
				     (const char *)b[i].sbuf +
					 (size_t)j * bytes,
				     bytes);
		break;
	case VP_COLL_SHIFT:
		for (i = 0; i < p; i++)
			copy(b[(i + k->q) % p].rbuf, b[i].sbuf, bytes);
		break;
	case VP_COLL_REDUCE:
		combine_all(k, p, b, 0, p - 1, sum, bytes);
		memcpy(b[k->root].rbuf, sum, bytes);
		break;
	case VP_COLL_ALLREDUCE:
		combine_all(k, p, b, 0, p - 1, sum, bytes);
		for (i = 0; i < p; i++)
			memcpy(b[i].rbuf, sum, bytes);
		break;
	case VP_COLL_REDUCE_SCATTER:
		for (j = 0; j < p; j++) {
			combine_all(k, p, b, (size_t)j * bytes, p - 1, sum,
				    bytes);
			memcpy(b[j].rbuf, sum, bytes);
		}
		break;
	case VP_COLL_SCAN:
		/* each rank's inclusive prefix: the last rank's first, so
		 * that an in-place input is read before it is written */
		for (j = p - 1; j >= 0; j--) {
			combine_all(k, p, b, 0, j, sum, bytes);
			memcpy(b[j].rbuf, sum, bytes);
		}
		break;
	case VP_COLL_COUNT_:
		break;
	}
	free(big);
	return 0;
}

int vp__coll_shared_try(const struct coll *a, vp_alg alg)
{
	struct vp__shared_key k;
	size_t segment;
	int kary;

	/* the cheap test first: most runs never meet (p = 2 on 2 CPUs) */
	if (!vp__coll_shared_may(a->c, !synchronizing(a->op)) || !shareable(a))
		return 0;
	vp_coll_params(a->c, &kary, &segment);
	k = (struct vp__shared_key){
		.op = (int)a->op,
		.alg = (int)alg,
		.type = (int)a->type,
		.rop = vp__coll_is_reduction(a->op) ? (int)a->rop : -1,
		.root = a->root,
		.kary = kary,
		.q = a->q,
		.count = a->count,
		.segment = segment,
	};
	return vp__coll_shared(a->c, &k, a->sbuf, a->rbuf, coll_move,
			       !synchronizing(a->op));
}
