/*
 * dispatch.c - the public collective calls: argument checks, the
 * algorithm's descriptor (algorithms.c) and what it needs, the choice for
 * VP_ALG_AUTO, and the record of what ran.
 *
 * Arguments are checked here once. A bad argument aborts the run with a
 * message naming the rank, the call and the value (as every failed call
 * does). An algorithm that cannot run on this communicator returns VP_EALG
 * with the reason and does not abort: every rank reaches the same verdict
 * from the same arguments, so the caller may choose another.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

int vp_coll_algorithms(vp_coll op, vp_alg *algs, int max)
{
	const struct coll_algorithm *const *a;
	int n = 0;

	for (a = vp__algorithms; *a; a++)
		if ((*a)->op == op) {
			if (algs && n < max)
				algs[n] = (*a)->alg;
			n++;
		}
	return n;
}

/* Why alg cannot run op on c under the bsp model, or NULL if it can. */
static const char *not_bsp(vp_comm *c, const struct coll_algorithm *e)
{
	static __thread char why[256];
	const struct coll_algorithm *const *a;
	size_t n;

	if (e->bsp_cost || !vp__bsp(c))
		return NULL;
	n = (size_t)snprintf(why, sizeof(why),
			     "it is not a BSP algorithm (a message of one of "
			     "its rounds depends on one received in the same "
			     "round); under the bsp model %s has: auto",
			     vp_coll_name(e->op));
	for (a = vp__algorithms; *a && n < sizeof(why); a++)
		if ((*a)->op == e->op && (*a)->bsp_cost)
			n += (size_t)snprintf(why + n, sizeof(why) - n, ", %s",
					      vp_alg_name((*a)->alg));
	return why;
}

/* Why alg cannot run op on c, or NULL if it can. */
static const char *unusable(vp_comm *c, const struct coll_algorithm *e)
{
	const char *why = not_bsp(c, e);
	struct layout l;
	int rows, cols;

	if (why)
		return why;
	switch (e->needs) {
	case NEED_ANY:
		return NULL;
	case NEED_POW2:
		return vp__is_pow2(vp_size(c)) ? NULL
					       : "it needs p a power of two";
	case NEED_GRID:
		return vp__grid(c, &rows, &cols, &why) ? why : NULL;
	case NEED_LAYOUT:
	case NEED_LAYOUT_OR_CUBE:
		vp__layout(c, &l, &why);
		if (l.kind == LAYOUT_CHAIN || l.kind == LAYOUT_GRID ||
		    (l.kind == LAYOUT_CUBE && e->needs == NEED_LAYOUT_OR_CUBE))
			return NULL;
		return l.kind == LAYOUT_CUBE
			   ? "on a hypercube the book's hypercube algorithm "
			     "is the neighbour-only one"
			   : why;
	}
	return NULL;
}

int vp_coll_usable(vp_comm *c, vp_coll op, vp_alg alg, const char **why)
{
	const struct coll_algorithm *e = vp__algorithm(op, alg);
	const char *w;

	if (!c || !e) {
		if (why)
			*why = "no such algorithm for this operation";
		return 0;
	}
	w = unusable(c, e);
	if (why)
		*why = w;
	return w == NULL;
}

/* Lists op's algorithms into buf, "linear, binomial, ...". */
static void list_algs(vp_coll op, char *buf, size_t len)
{
	const struct coll_algorithm *const *a;
	size_t used = 0;

	buf[0] = 0;
	for (a = vp__algorithms; *a && used + 1 < len; a++)
		if ((*a)->op == op)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? ", " : "",
						 vp_alg_name((*a)->alg));
}

/* ---- argument checks ---- */

/* What a call needs from its buffers, in blocks of count elements. */
struct roles {
	int sblocks, rblocks;       /* 0: not used here, 1, or p */
	int s_in_place, r_in_place; /* VP_IN_PLACE accepted as sbuf / rbuf */
};

static struct roles roles_of(vp_coll op, int p, int is_root)
{
	struct roles ro = { 0, 0, 0, 0 };

	switch (op) {
	case VP_COLL_BCAST:
		ro.rblocks = 1;
		break;
	case VP_COLL_REDUCE:
		ro.sblocks = 1;
		ro.rblocks = is_root;
		ro.s_in_place = is_root;
		break;
	case VP_COLL_ALLREDUCE:
	case VP_COLL_SCAN:
		ro.sblocks = ro.rblocks = 1;
		ro.s_in_place = 1;
		break;
	case VP_COLL_ALLGATHER:
		ro.sblocks = 1;
		ro.rblocks = p;
		ro.s_in_place = 1;
		break;
	case VP_COLL_REDUCE_SCATTER:
		ro.sblocks = p;
		ro.rblocks = 1;
		break;
	case VP_COLL_SCATTER:
		ro.sblocks = is_root ? p : 0;
		ro.rblocks = 1;
		ro.r_in_place = is_root;
		break;
	case VP_COLL_GATHER:
		ro.sblocks = 1;
		ro.rblocks = is_root ? p : 0;
		ro.s_in_place = is_root;
		break;
	case VP_COLL_ALLTOALL:
		ro.sblocks = ro.rblocks = p;
		ro.s_in_place = 1;
		break;
	case VP_COLL_SHIFT:
		ro.sblocks = ro.rblocks = 1;
		break;
	case VP_COLL_COUNT_:
		break;
	}
	return ro;
}

static int is_rooted(vp_coll op)
{
	return op == VP_COLL_BCAST || op == VP_COLL_REDUCE ||
	       op == VP_COLL_SCATTER || op == VP_COLL_GATHER;
}


static int check_buffer(vp_comm *c, const char *call, const char *what,
			const void *buf, int blocks, int in_place_ok,
			size_t block_bytes)
{
	if (buf == VP_IN_PLACE && !in_place_ok)
		return vp_abort(c, VP_EINVAL, call,
				"VP_IN_PLACE is not accepted as the %s here",
				what);
	if (blocks && !buf && block_bytes)
		return vp_abort(c, VP_EINVAL, call,
				"%s is NULL but must hold %d x %zu bytes", what,
				blocks, block_bytes);
	return VP_OK;
}

/* 1 if [a, a + na) and [b, b + nb) share a byte. */
static int overlap(const void *a, size_t na, const void *b, size_t nb)
{
	const char *x = a, *y = b;

	return na && nb && x < y + nb && y < x + na;
}

static int check_args(vp_comm *c, const char *call, vp_coll op,
		      const void *sbuf, void *rbuf, size_t count, vp_type type,
		      vp_op rop, int root, vp_alg alg, int inner)
{
	int p = vp_size(c), r = vp_rank(c), rc;
	size_t es = vp_type_size(type), block;
	struct roles ro;

	if ((unsigned)type > VP_DOUBLE && !(inner && VP__IS_TYPE_FIXED(type)))
		return vp_abort(c, VP_EINVAL, call,
				"type %d is not a vp_type (VP_BYTE .. "
				"VP_DOUBLE)",
				(int)type);
	if (vp__coll_is_reduction(op) && (unsigned)rop > VP_BXOR)
		return vp_abort(c, VP_EINVAL, call,
				"op %d is not a vp_op (VP_SUM .. VP_BXOR)",
				(int)rop);
	if (vp__coll_is_reduction(op) && rop >= VP_BAND &&
	    (type == VP_FLOAT || type == VP_DOUBLE))
		return vp_abort(c, VP_EINVAL, call,
				"bitwise op %d needs an integer type, not %s",
				(int)rop,
				type == VP_FLOAT ? "VP_FLOAT" : "VP_DOUBLE");
	if (is_rooted(op) && (root < 0 || root >= p))
		return vp_abort(c, VP_ERANK, call, "root %d is outside [0, %d)",
				root, p);
	if ((unsigned)alg >= VP_ALG_COUNT_)
		return vp_error(c, VP_EALG, call,
				"algorithm %d is not a vp_alg", (int)alg);
	/* count x es x p overflows: multiplications, where two divisions
	 * cost a tenth of a small collective */
	if (__builtin_mul_overflow(count, es, &block) ||
	    __builtin_mul_overflow(block, (size_t)p, &block))
		return vp_abort(c, VP_EINVAL, call,
				"count %zu x %zu bytes x %d ranks overflows",
				count, es, p);
	block = count * es;
	ro = roles_of(op, p, is_rooted(op) && r == root);
	if ((rc = check_buffer(
		 c, call, op == VP_COLL_BCAST ? "buffer" : "receive buffer",
		 rbuf, ro.rblocks, ro.r_in_place, block)) ||
	    (rc = check_buffer(c, call, "send buffer", sbuf, ro.sblocks,
			       ro.s_in_place, block)))
		return rc;
	if (ro.sblocks && ro.rblocks && sbuf != VP_IN_PLACE &&
	    rbuf != VP_IN_PLACE &&
	    overlap(sbuf, ro.sblocks * block, rbuf, ro.rblocks * block))
		return vp_abort(c, VP_EINVAL, call,
				"send and receive buffers overlap (%p, %p); "
				"pass VP_IN_PLACE for an in-place call",
				sbuf, rbuf);
	return VP_OK;
}

/* ---- the calls ---- */

/* Numbers the call and records the arguments every rank must pass alike
 * (vp_coll_begin): what the call does not use is left out. */
static int begin(vp_comm *c, const char *call, vp_coll op, vp_alg alg,
		 size_t count, vp_type type, vp_op rop, int root, long q)
{
	vp_coll_sig sig = { .call = call,
			    .alg = alg,
			    .count = count,
			    .type = (int)type,
			    .op = -1,
			    .root = -1 };
	size_t segment;
	int kary;

	vp_coll_params(c, &kary, &segment);
	if (vp__coll_is_reduction(op))
		sig.op = (int)rop;
	if (is_rooted(op))
		sig.root = root;
	if (op == VP_COLL_SHIFT)
		sig.q = ((q % vp_size(c)) + vp_size(c)) % vp_size(c);
	if (alg == VP_ALG_KARY)
		sig.kary = kary;
	if (alg == VP_ALG_PIPELINED_TREE || alg == VP_ALG_DOUBLE_TREE)
		sig.segment = segment;
	return vp_coll_begin(c, &sig);
}

/*
 * A call with the same arguments as the rank's last one on the same
 * communicator passes the same checks and gets the same algorithm (within
 * a run AUTO's facts depend only on the communicator and the size,
 * select.c), so it skips them: checking the arguments, AUTO, the table
 * and the topology's fitness were about 300 of the 700 instructions a
 * call does before its messages (callgrind, an all-gather of no bytes at
 * p = 2). AUTO's reason is the text of the thread's last choice,
 * rewritten by any other: the memo holds only while that text has not
 * changed, and only on the thread it was made on (a rank as a fiber may
 * move to another carrier thread, whose text is another).
 */
static int repeated(const struct vp__call_memo *m, const vp_comm *c,
		    vp_coll op, const void *sbuf, const void *rbuf,
		    size_t count, vp_type type, vp_op rop, int root, long q,
		    vp_alg alg)
{
	return m->c == c && m->op == op && m->sbuf == sbuf &&
	       m->rbuf == rbuf && m->count == count && m->type == type &&
	       m->rop == rop && m->root == root && m->q == q &&
	       m->asked == alg &&
	       (!m->why || (m->why == vp__coll_auto_why() &&
			    m->why_gen == vp__coll_auto_why_gen()));
}

/* The algorithm a call runs: AUTO's choice (*why its reason) or the one
 * asked for, found in the table and fit for the communicator's topology. */
static int choose(vp_comm *uc, const char *call, vp_coll op, size_t bytes,
		  vp_alg *alg, const struct coll_algorithm **e,
		  const char **why)
{
	char algs[256];
	const char *bad;

	if (*alg == VP_ALG_AUTO) {
		*alg = vp_coll_choose(uc, op, bytes, NULL);
		*why = vp__coll_auto_why();
	}
	*e = vp__algorithm(op, *alg);
	if (!*e) {
		list_algs(op, algs, sizeof(algs));
		return vp_error(uc, VP_EALG, call,
				"no algorithm '%s' for %s; it has: %s",
				vp_alg_name(*alg), vp_coll_name(op), algs);
	}
	if ((bad = unusable(uc, *e)))
		return vp_error(uc, VP_EALG, call,
				"algorithm '%s' cannot run on %d ranks of %s: "
				"%s",
				vp_alg_name(*alg), vp_size(uc), vp_topology(uc),
				bad);
	return VP_OK;
}

/* The call as the algorithms see it (struct coll), in place resolved:
 * the input pointed at the data already in rbuf, an in-place all-to-all's
 * input copied first (*copy, the caller's to free). */
static int arguments(struct coll *a, vp_comm *uc, const char *call,
		     vp_coll op, const void *sbuf, void *rbuf, size_t count,
		     vp_type type, vp_op rop, int root, long q, void **copy)
{
	a->c = vp_coll_comm(uc);
	a->op = op;
	a->p = vp_size(uc);
	a->r = vp_rank(uc);
	a->count = count;
	a->type = type;
	a->esize = vp_type_size(type);
	a->bytes = count * a->esize;
	a->rop = rop;
	a->root = root;
	a->q = op == VP_COLL_SHIFT ? ((q % a->p) + a->p) % a->p : 0;
	a->sbuf = sbuf;
	a->rbuf = rbuf;
	if (op == VP_COLL_BCAST)
		a->sbuf = rbuf;
	if (sbuf == VP_IN_PLACE) {
		a->sbuf = rbuf;
		if (op == VP_COLL_ALLGATHER)
			a->sbuf = (char *)rbuf + (size_t)a->r * a->bytes;
		if (op == VP_COLL_GATHER)
			a->sbuf = (char *)rbuf + (size_t)root * a->bytes;
		if (op == VP_COLL_ALLTOALL) {
			*copy = malloc((size_t)a->p * a->bytes);
			if (!*copy)
				return vp_abort(uc, VP_ENOMEM, call,
						"no memory for the in-place "
						"copy (%zu bytes)",
						(size_t)a->p * a->bytes);
			memcpy(*copy, rbuf, (size_t)a->p * a->bytes);
			a->sbuf = *copy;
		}
	}
	if (rbuf == VP_IN_PLACE) /* scatter at the root */
		a->rbuf = (char *)sbuf + (size_t)root * a->bytes;
	return VP_OK;
}

/* Runs algorithm e on the call a: its input placed where it starts from
 * it, its view of the ranks, its scratch; ends the call's superstep. */
static int run_algorithm(struct coll *a, const struct coll_algorithm *e)
{
	_Alignas(16) char small[256];
	size_t n;
	int rc;

	/* the input where the algorithm starts from it (no-op in place) */
	if (e->input == INPUT_IN_RBUF)
		vp__copy(a->rbuf, a->sbuf, a->bytes);
	else if (e->input == INPUT_OWN_BLOCK)
		vp__copy((char *)a->rbuf + (size_t)a->r * a->bytes, a->sbuf,
			 a->bytes);
	if (e->view == VIEW_ALL)
		vp__view_all(&a->v, a->c, 0);
	else if (e->view == VIEW_ROOTED)
		vp__view_all(&a->v, a->c, a->root);
	else if (e->view == VIEW_TREE)
		vp__view_tree(&a->v, a->c, a->root);
	/* a small call's scratch lives on the stack: a malloc and a free
	 * were a tenth of an 8-byte all-reduce at p = 2 */
	a->scratch = NULL;
	if (e->scratch && (n = e->scratch(a)) && n <= sizeof(small))
		a->scratch = small;
	else if (e->scratch && n && !(a->scratch = vp__alloc(a, n))) {
		vp__coll_shared_end(a->c, VP_ENOMEM);
		return VP_ENOMEM;
	}
	rc = e->run(a);
	vp__coll_shared_end(a->c, rc);
	if (!rc && vp__bsp(a->c)) /* the call's last superstep ends here */
		rc = vp_superstep(a->c);
	if (a->scratch != small)
		free(a->scratch);
	return rc;
}

int vp__coll_run(vp_comm *uc, vp_coll op, const void *sbuf, void *rbuf,
		 size_t count, vp_type type, vp_op rop, int root, long q,
		 vp_alg alg, int inner)
{
	static const char *const calls[VP_COLL_COUNT_] = {
		"vp_bcast",     "vp_reduce",         "vp_allreduce",
		"vp_allgather", "vp_reduce_scatter", "vp_scan",
		"vp_scatter",   "vp_gather",         "vp_alltoall",
		"vp_shift"
	};
	const char *call;
	const struct coll_algorithm *e;
	const char *why = NULL;
	struct vp__call_memo *memo;
	vp_alg asked = alg;
	struct coll a;
	void *copy = NULL;
	int rc;

	if ((unsigned)op >= VP_COLL_COUNT_)
		return VP_EINVAL;
	call = calls[op]; /* static text: vp_coll_begin keeps the pointer */
	if (!uc)
		return vp__null_comm(uc, call);
	if ((rc = vp_comm_check(uc, call)))
		return rc;
	memo = inner ? NULL : vp__call_memo(uc);
	if (memo && repeated(memo, uc, op, sbuf, rbuf, count, type, rop, root,
			     q, alg)) {
		alg = memo->alg;
		e = memo->entry;
		why = memo->why;
		goto checked;
	}
	rc = check_args(uc, call, op, sbuf, rbuf, count, type, rop, root, alg,
			inner);
	if (rc)
		return rc;
	if (!inner && vp__coll_is_reduction(op) && rop == VP_SUM &&
	    (type == VP_FLOAT || type == VP_DOUBLE) && vp_reproducible(uc)) {
		/* the user's call is checked against the other ranks' first,
		 * then its inner calls (reproducible.c) */
		if ((rc = begin(uc, call, op, alg, count, type, rop, root, q)))
			return rc;
		return vp__reproducible_reduction(uc, op, sbuf, rbuf, count,
						  type, root, alg);
	}
	if ((rc = choose(uc, call, op, count * vp_type_size(type), &alg, &e,
			 &why)))
		return rc;
	if (memo)
		*memo = (struct vp__call_memo){
			.c = uc, .sbuf = sbuf, .rbuf = rbuf, .count = count,
			.q = q, .op = op, .type = type, .rop = rop,
			.root = root, .asked = asked,
			.alg = alg, .entry = e, .why = why,
			.why_gen = vp__coll_auto_why_gen()
		};
checked:
	if ((rc = begin(uc, call, op, alg, count, type, rop, root, q)))
		return rc;
	if (count == 0)
		return VP_OK;
	if ((rc = arguments(&a, uc, call, op, sbuf, rbuf, count, type, rop,
			    root, q, &copy)))
		return rc;
	vp__coll_note_known(uc, op, alg, why,
			    why ? vp__coll_auto_why_gen() : 0);
	/* where the ranks share memory and outnumber the CPUs: without the
	 * messages (coll_shared.c), else they are sent, and may be recorded
	 * for the next call of this signature */
	if (!inner && (rc = vp__coll_shared_try(&a, alg)) != 0) {
		free(copy);
		return rc < 0 ? rc : VP_OK;
	}
	rc = run_algorithm(&a, e);
	free(copy);
	return rc;
}

int vp_bcast(vp_comm *c, void *buf, size_t count, vp_type type, int root,
	     vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_BCAST, NULL, buf, count, type, VP_SUM,
			    root, 0, alg, 0);
}

int vp_reduce(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
	      vp_type type, vp_op op, int root, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_REDUCE, sbuf, rbuf, count, type, op,
			    root, 0, alg, 0);
}

int vp_allreduce(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		 vp_type type, vp_op op, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_ALLREDUCE, sbuf, rbuf, count, type, op,
			    0, 0, alg, 0);
}

int vp_allgather(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		 vp_type type, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_ALLGATHER, sbuf, rbuf, count, type,
			    VP_SUM, 0, 0, alg, 0);
}

int vp_reduce_scatter(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		      vp_type type, vp_op op, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_REDUCE_SCATTER, sbuf, rbuf, count, type,
			    op, 0, 0, alg, 0);
}

int vp_scan(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
	    vp_type type, vp_op op, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_SCAN, sbuf, rbuf, count, type, op, 0, 0,
			    alg, 0);
}

int vp_scatter(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
	       vp_type type, int root, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_SCATTER, sbuf, rbuf, count, type, VP_SUM,
			    root, 0, alg, 0);
}

int vp_gather(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
	      vp_type type, int root, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_GATHER, sbuf, rbuf, count, type, VP_SUM,
			    root, 0, alg, 0);
}

int vp_alltoall(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		vp_type type, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_ALLTOALL, sbuf, rbuf, count, type,
			    VP_SUM, 0, 0, alg, 0);
}

int vp_shift(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
	     vp_type type, long q, vp_alg alg)
{
	return vp__coll_run(c, VP_COLL_SHIFT, sbuf, rbuf, count, type, VP_SUM,
			    0, q, alg, 0);
}
