/*
 * direct.c - the mailbox's direct channel: a waiting receiver lends its
 * buffer, and the sender copies its message straight into it (one copy, as
 * MPICH's and Open MPI's shared-memory transports do with single-copy
 * mechanisms such as CMA or XPMEM; here the ranks share an address space,
 * so the copy is a plain memcpy). The protocol and its proof of order are
 * in mailbox.h.
 *
 * Cost: a loan is one store of its terms and one release store by the
 * receiver; a direct message is a load, a CAS and the copy by the sender,
 * and the receiver reads the result from the sender's line. Messages up
 * to eager_max go this way when a loan is out (a longer one is pulled by
 * the receiver from the sender's buffer: transport.c says why). A
 * reduction's receive lends its result with the combine to apply (struct
 * vp__xcombine): the sender then computes result = its message op the
 * receiver's operand, one pass instead of a copy and a pass; the ops are
 * pure functions of their operands, so which thread runs them does not
 * matter. The combine's terms sit on a line of the mailbox that the
 * receiver rewrites only when they change (terms_of), so the sender reads
 * them from a line that stays in its cache, not from the receiver's
 * stack frame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "threads.h"

#define PHASE(s) ((s) & 3u)
#define LOAN(s) ((s) & ~3u)

/* Copies x into the mailbox's terms line unless they are already there
 * (struct vp__mailbox, dc_terms: a line left unwritten stays in both
 * CPUs' caches); the receiver's, while no loan is out. */
static const struct vp__xcombine *terms_of(struct vp__mailbox *mb,
					   const struct vp__xcombine *x)
{
	struct vp__xcombine *t = &mb->dc_terms;

	if (!x)
		return NULL;
	if (t->fn != x->fn || t->mine != x->mine || t->out != x->out ||
	    t->count != x->count || t->type != x->type || t->op != x->op)
		*t = *x;
	return t;
}

void vp__direct_lend(struct vp__mailbox *mb, void *buf, size_t n, int tag,
		     const struct vp__xcombine *combine)
{
	unsigned s = atomic_load_explicit(&mb->dc_state, memory_order_relaxed);

	combine = terms_of(mb, combine);
	atomic_store_explicit(&mb->dc_want, mb->expect, memory_order_relaxed);
	atomic_store_explicit(&mb->dc_tag, tag, memory_order_relaxed);
	atomic_store_explicit(&mb->dc_cap,
			      n < UINT32_MAX ? (uint32_t)n : UINT32_MAX,
			      memory_order_relaxed);
	atomic_store_explicit(&mb->dc_buf, buf, memory_order_relaxed);
	atomic_store_explicit(&mb->dc_combine, combine, memory_order_relaxed);
	/* a new loan number, so terms read for an older loan cannot claim it;
	 * the full barrier orders the publication before the receiver looks
	 * at the other channels again */
	atomic_store_explicit(&mb->dc_state, (LOAN(s) + 4u) | VP__DC_POSTED,
			      memory_order_seq_cst);
}

int vp__direct_withdraw(struct vp__mailbox *mb)
{
	unsigned s = atomic_load_explicit(&mb->dc_state, memory_order_relaxed);

	if (PHASE(s) != VP__DC_POSTED)
		return PHASE(s) == VP__DC_NONE;
	return atomic_compare_exchange_strong_explicit(
	    &mb->dc_state, &s, LOAN(s) | VP__DC_NONE, memory_order_acq_rel,
	    memory_order_acquire);
}

void vp__direct_release(struct vp__mailbox *mb)
{
	unsigned s = atomic_load_explicit(&mb->dc_state, memory_order_relaxed);

	atomic_store_explicit(&mb->dc_state, LOAN(s) | VP__DC_NONE,
			      memory_order_relaxed);
}

int vp__direct_fill(struct vp__mailbox *mb, int tag, const void *buf,
		    size_t n, const struct vp__envelope *env)
{
	unsigned s = atomic_load_explicit(&mb->dc_state, memory_order_acquire);
	const struct vp__xcombine *combine;
	size_t cap;
	int want_tag;

	if (PHASE(s) != VP__DC_POSTED)
		return 0;
	/* the loan's terms, as published with s (a later loan would change
	 * s, and the CAS below would fail) */
	want_tag = atomic_load_explicit(&mb->dc_tag, memory_order_relaxed);
	cap = atomic_load_explicit(&mb->dc_cap, memory_order_relaxed);
	combine = atomic_load_explicit(&mb->dc_combine, memory_order_relaxed);
	if (atomic_load_explicit(&mb->dc_want, memory_order_relaxed) !=
		mb->gseq ||
	    (want_tag != VP_ANY_TAG && want_tag != tag) || n > cap ||
	    (combine && n != cap))
		return 0;
	if (!atomic_compare_exchange_strong_explicit(
		&mb->dc_state, &s, LOAN(s) | VP__DC_FILLING,
		memory_order_acquire, memory_order_relaxed))
		return 0; /* withdrawn meanwhile */
	/* a reduction's loan: combine into the result where our message
	 * lies (the receiver's operands stay put while it waits) */
	if (combine && n)
		combine->fn(combine, buf);
	else if (n)
		memcpy(atomic_load_explicit(&mb->dc_buf, memory_order_relaxed),
		       buf, n);
	mb->dc_len = (uint32_t)n; /* n <= cap <= UINT32_MAX */
	mb->dc_got_tag = tag;
	mb->dc_env = *env;
	mb->gseq++; /* the loan was for this number (dc_want) */
	/* seq_cst: the wake-up that follows loads the receiver's bell, and
	 * that load must not pass this store (wait.c) */
	atomic_store_explicit(&mb->dc_state, LOAN(s) | VP__DC_FILLED,
			      memory_order_seq_cst);
	return 1;
}
