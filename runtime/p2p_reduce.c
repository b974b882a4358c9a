/*
 * p2p_reduce.c - receives that reduce: vp_recv_reduce and
 * vp_sendrecv_reduce (vp.h).
 *
 * A reduction's receive takes a vector from a partner and combines it with
 * its own: out = message op mine. Done as a vp_recv into scratch followed by
 * vp_reduce_local, that is three passes over the data when the message is
 * long (the sender's copy into the scratch, and the combine reading the
 * scratch and the accumulator, after the accumulator was filled from the
 * input by a copy of its own). Open MPI's and MPICH's shared-memory
 * reductions combine straight from the incoming fragments instead. Here the
 * transport hands the message to the combine where it lies (a fastbox slot,
 * a queued copy, or the sender's own buffer for a rendezvous): one pass,
 * reading the partner's data and ours and writing the result. The
 * receiver's result is never lent to the sender (only the receiver writes
 * it), so a long message goes by rendezvous and is read in place.
 *
 * The message, its model time and its trace record are those of the
 * vp_recv (or vp_sendrecv) it replaces; only where the bytes are combined
 * differs. A transport without recv_combine would get the vp_recv into
 * scratch and the combine after it (both transports have one: the mpi
 * transport's receives a long payload straight into the result).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "reduce_kernel.h"
#include "runtime.h"

static void combine(const struct vp__xcombine *x, const void *in)
{
	vp__reduce_into(in, x->mine, x->out, x->count, (vp_type)x->type,
			(vp_op)x->op);
}

/* The checks both calls make of the reduction's part; *n the bytes. */
static int check_reduction(vp_comm *c, const void *mine, void *out,
			   size_t count, vp_type type, vp_op op, size_t *n,
			   const char *call)
{
	size_t es = vp_type_size(type);
	int rc;

	if (!es)
		return vp__fail(c->me, VP_EINVAL, call,
				"type %d is not a vp_type (VP_BYTE .. "
				"VP_DOUBLE)",
				(int)type);
	if ((unsigned)op > VP_BXOR)
		return vp__fail(c->me, VP_EINVAL, call,
				"op %d is not a vp_op (VP_SUM .. VP_BXOR)",
				(int)op);
	if (vp__reduce_check(type, op))
		return vp__fail(c->me, VP_EINVAL, call,
				"bitwise op %d needs an integer type, not %s",
				(int)op,
				type == VP_FLOAT ? "VP_FLOAT" : "VP_DOUBLE");
	if (__builtin_mul_overflow(count, es, n))
		return vp__fail(c->me, VP_EINVAL, call,
				"count %zu x %zu bytes overflows", count, es);
	if ((rc = vp__check_buf(c, mine, *n, call, "input (mine)")) ||
	    (rc = vp__check_buf(c, out, *n, call, "result (out)")))
		return rc;
	if (mine != out && vp__overlap(mine, *n, out, *n))
		return vp__fail(c->me, VP_EINVAL, call,
				"input %p and result %p overlap without being "
				"the same buffer",
				mine, (void *)out);
	return VP_OK;
}

/* Scratch for a transport that cannot combine in place (NULL if it can,
 * or for no bytes): the rank's own, kept between calls (one reducing
 * receive runs at a time on a rank). */
static int scratch_for(vp_comm *c, size_t n, void **scratch, const char *call)
{
	struct vp__rank *me = c->me;

	*scratch = NULL;
	if (vp__tx(me)->recv_combine || !n)
		return VP_OK;
	if (n > me->combine_scratch_len) {
		void *bigger = realloc(me->combine_scratch, n);

		if (!bigger)
			return vp__fail(me, VP_ENOMEM, call,
					"no memory for %zu bytes of scratch",
					n);
		me->combine_scratch = bigger;
		me->combine_scratch_len = n;
	}
	*scratch = me->combine_scratch;
	return VP_OK;
}

/* Both calls: the exchange, or with dst VP_PROC_NULL the receive alone
 * (vp__sendrecv_checked then takes only the receive). */
static int reduce_exchange(vp_comm *c, int dst, const void *sbuf, size_t sn,
			   int src, const void *mine, void *out, size_t count,
			   vp_type type, vp_op op, const char *call)
{
	struct vp__xcombine x = { combine, mine, out, count, (int)type,
				  (int)op };
	void *scratch;
	size_t n = 0;
	int rc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, call)) ||
	    (rc = vp__check_peer(c, dst, call, "destination")) ||
	    (rc = vp__check_source(c, src, call)) ||
	    (rc = vp__check_buf(c, sbuf, sn, call, "send buffer")) ||
	    (rc = check_reduction(c, mine, out, count, type, op, &n, call)))
		return rc;
	/* the partner may read sbuf (a rendezvous) while out is written */
	if (vp__overlap(sbuf, sn, out, n))
		return vp__fail(c->me, VP_EINVAL, call,
				"send buffer %p overlaps the result %p",
				sbuf, (void *)out);
	if ((rc = scratch_for(c, src == VP_PROC_NULL ? 0 : n, &scratch, call)))
		return rc;
	rc = vp__sendrecv_checked(c, dst, sbuf, sn, src, scratch, n, &x, call);
	/* from VP_PROC_NULL nothing arrives: out becomes mine */
	if (!rc && src == VP_PROC_NULL && out != mine && n)
		memcpy(out, mine, n);
	return rc;
}

int vp_recv_reduce(vp_comm *c, int src, const void *mine, void *out,
		   size_t count, vp_type type, vp_op op)
{
	return reduce_exchange(c, VP_PROC_NULL, NULL, 0, src, mine, out,
			       count, type, op, "vp_recv_reduce");
}

int vp_sendrecv_reduce(vp_comm *c, int dst, const void *sbuf, size_t sn,
		       int src, const void *mine, void *out, size_t count,
		       vp_type type, vp_op op)
{
	return reduce_exchange(c, dst, sbuf, sn, src, mine, out, count, type,
			       op, "vp_sendrecv_reduce");
}
