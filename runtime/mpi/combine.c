/*
 * combine.c - a reduction's receive on the MPI transport (recv_combine,
 * mpi_tx.h): the message is combined into the result where it lands,
 * instead of being received into the runtime's scratch first.
 *
 * A whole message (at most MPT_WHOLE_MAX bytes) is combined straight from
 * the pre-posted buffer it arrived in: out = message op mine, no copy.
 *
 * A payload sent apart has to be received somewhere before it can be
 * combined. Received into scratch and then combined into a third buffer
 * (out = scratch op mine), a 1 MiB reduction streams three 1 MiB buffers
 * through the cache, more than a core's L2 holds on common machines (2 MiB
 * or less), and such a combine is several times slower than the same one
 * in place. So where the result is not the input (mine != out), the
 * payload is received straight into out and mine is combined into it
 * there, which is how the binomial reduce of Open MPI and of MPICH treats
 * a child's data (received into the result buffer, the local input
 * combined into it). Only for a message exactly as long as the
 * reduction: vp_recv_reduce leaves the result untouched when the length is
 * wrong. The header arrives before the payload is received and says how
 * long it is, so a wrong-length payload goes to a buffer of its own (the
 * runtime then reports VP_ETRUNC).
 *
 * In place, the operands come in the other order: out = mine op message
 * (vp__reduce_into's first operand may not overlap the result). Every vp
 * operator gives the same bits either way except a floating-point minimum
 * or maximum (-0 against +0, NaNs), so those, like a result that is the
 * input itself, receive into scratch and combine from there: the results
 * stay bit-identical to the threads transport's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "../reduce_kernel.h"
#include "mpi_tx.h"

/* Whether mine op message and message op mine are the same bits. */
static int swaps_exactly(const struct vp__xcombine *x)
{
	return !((x->op == VP_MIN || x->op == VP_MAX) &&
		 (x->type == VP_FLOAT || x->type == VP_DOUBLE));
}

void *mpt_landing(struct mpt *t, const struct vp__xcombine *x, size_t n)
{
	if (n <= MPT_WHOLE_MAX) /* such a message comes whole */
		return NULL;
	if (x->out != x->mine && swaps_exactly(x))
		return x->out;
	if (n > t->scratch_len) {
		void *bigger = realloc(t->scratch, n);

		if (!bigger)
			mpt_out_of_memory("a reduction's scratch", n);
		t->scratch = bigger;
		t->scratch_len = n;
	}
	return t->scratch;
}

void *mpt_payload_dest(const struct vp__xrecv *r, size_t len)
{
	if (r->combine)
		return len == r->n ? r->buf : NULL;
	return len <= r->n ? r->buf : NULL;
}

void mpt_deliver(const struct vp__xrecv *r, const void *payload, size_t len)
{
	if (!len)
		return;
	if (!r->combine) {
		if (len <= r->n)
			memcpy(r->buf, payload, len);
	} else if (len == r->n) {
		r->combine->fn(r->combine, payload);
	}
}

void mpt_landed(const struct vp__xrecv *r)
{
	const struct vp__xcombine *x = r->combine;

	if (!x || r->len != r->n || !r->n)
		return;
	if (r->buf == x->out) /* in place: out = mine op message */
		vp__reduce_into(x->mine, x->out, x->out, x->count,
				(vp_type)x->type, (vp_op)x->op);
	else
		x->fn(x, r->buf);
}

void mpt_scratch_free(struct mpt *t)
{
	free(t->scratch);
	t->scratch = NULL;
	t->scratch_len = 0;
}
