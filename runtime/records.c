/*
 * records.c - what vp_run reads of a rank after the run, as bytes: for a
 * transport whose ranks live in several processes, which hands every
 * process every rank's records before its run returns (transport.h,
 * locals).
 *
 * The records: the model clock (times, counts, the event and transfer logs
 * of the congested replay and the link-load sweep), the collective calls
 * (their count on the world, the last VP__COLL_HISTORY calls, the log of
 * which algorithm ran), and the trace's operations. Strings (call names,
 * labels) travel by value in a section of their own; the unpacked rank
 * keeps them in r->strings until the run is freed.
 *
 * Layout: u64 length of the fixed part, the fixed part (numbers in this
 * machine's byte order: every process of one job runs the same binary on
 * the same kind of machine), then the strings, each ending in a zero byte.
 * A string field is a u32: 0 for NULL, else 1 + its offset in the section.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "trace/trace.h"

#define MAGIC 0x76707263u /* "vprc" */

struct out {
	char *main, *strs;
	size_t len, cap, slen, scap;
	int failed;
};

static void grow(char **buf, size_t *cap, size_t need, int *failed)
{
	size_t cap2 = *cap ? *cap : 256;
	char *b;

	while (cap2 < need)
		cap2 *= 2;
	if (cap2 == *cap)
		return;
	if (!(b = realloc(*buf, cap2))) {
		*failed = 1;
		return;
	}
	*buf = b;
	*cap = cap2;
}

static void put(struct out *o, const void *p, size_t n)
{
	grow(&o->main, &o->cap, o->len + n, &o->failed);
	if (o->failed)
		return;
	memcpy(o->main + o->len, p, n);
	o->len += n;
}

#define PUT(o, v) put(o, &(v), sizeof(v))

static void put_str(struct out *o, const char *s)
{
	uint32_t ref = 0;
	size_t n;

	if (s) {
		n = strlen(s) + 1;
		grow(&o->strs, &o->scap, o->slen + n, &o->failed);
		if (o->failed)
			return;
		ref = (uint32_t)o->slen + 1;
		memcpy(o->strs + o->slen, s, n);
		o->slen += n;
	}
	PUT(o, ref);
}

static void put_vec(struct out *o, const struct vp__vec *v)
{
	uint64_t n = v->len, dropped = v->dropped;
	size_t i;

	PUT(o, n);
	PUT(o, dropped);
	for (i = 0; i < v->len; i++)
		put(o, vp__vec_at(v, i), v->elem);
}

void *vp__records_pack(const struct vp__rank *r, size_t *len)
{
	struct out o = { 0 };
	const struct vp__clock *c = &r->clock;
	const struct vp__coll_state *cs = &r->coll_state;
	uint32_t magic = MAGIC, calls = r->comm.coll_calls;
	uint64_t fixed, has_log = cs->log != NULL, log_bytes;
	size_t i;
	char *all;

	PUT(&o, magic);
	PUT(&o, calls);
	for (i = 0; i < VP__COLL_HISTORY; i++) {
		const struct vp__coll_call *h = &cs->history[i];
		uint32_t call = atomic_load(&h->call);

		PUT(&o, call);
		PUT(&o, h->hash);
		PUT(&o, h->ctx);
		PUT(&o, h->sig);
		put_str(&o, call ? h->sig.call : NULL);
	}
	log_bytes = has_log ? vp__coll_log_bytes() : 0;
	PUT(&o, log_bytes);
	if (has_log)
		put(&o, cs->log, log_bytes);
	PUT(&o, c->t);
	PUT(&o, c->supersteps);
	PUT(&o, c->w);
	PUT(&o, c->h_sent);
	PUT(&o, c->h_recv);
	PUT(&o, c->last_start);
	PUT(&o, c->send_seq);
	PUT(&o, c->messages);
	PUT(&o, c->bytes);
	PUT(&o, c->link_msgs);
	put_vec(&o, &c->events);
	put_vec(&o, &c->transfers);
	put_vec(&o, &r->trace.ops); /* its pointers are rewritten below */
	for (i = 0; i < r->trace.ops.len; i++) {
		const struct vp__trace_op *op = vp__vec_at(&r->trace.ops, i);

		put_str(&o, op->label);
		put_str(&o, op->alg);
		put_str(&o, op->rma);
	}
	fixed = o.len;
	if (o.failed) {
		free(o.main);
		free(o.strs);
		return NULL;
	}
	*len = sizeof(fixed) + o.len + o.slen;
	if ((all = malloc(*len))) {
		memcpy(all, &fixed, sizeof(fixed));
		memcpy(all + sizeof(fixed), o.main, o.len);
		if (o.slen)
			memcpy(all + sizeof(fixed) + o.len, o.strs, o.slen);
	}
	free(o.main);
	free(o.strs);
	return all;
}

/* ---- reading ---- */

struct in {
	const char *p, *end;
	const char *strs; /* the unpacked rank's copy of the section */
	size_t slen;
	int bad;
};

static void get(struct in *i, void *dst, size_t n)
{
	if (i->bad || (size_t)(i->end - i->p) < n) {
		i->bad = 1;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, i->p, n);
	i->p += n;
}

#define GET(i, v) get(i, &(v), sizeof(v))

static const char *get_str(struct in *i)
{
	uint32_t ref;

	GET(i, ref);
	if (!ref)
		return NULL;
	if (ref > i->slen) {
		i->bad = 1;
		return NULL;
	}
	return i->strs + ref - 1;
}

static int get_vec(struct in *i, struct vp__vec *v)
{
	uint64_t n, dropped, k;
	char elem[256];

	GET(i, n);
	GET(i, dropped);
	if (v->elem > sizeof(elem) || n > (uint64_t)(i->end - i->p) / v->elem)
		i->bad = 1;
	for (k = 0; k < n && !i->bad; k++) {
		get(i, elem, v->elem);
		if (vp__vec_push(v, elem))
			return VP_ENOMEM;
	}
	v->dropped += dropped;
	return VP_OK;
}

int vp__records_unpack(struct vp__rank *r, const void *buf, size_t len)
{
	struct in in = { buf, (const char *)buf + len, NULL, 0, 0 };
	struct vp__clock *c = &r->clock;
	struct vp__coll_state *cs = &r->coll_state;
	uint64_t fixed, log_bytes;
	uint32_t magic;
	size_t k, first_op;
	int rc;

	GET(&in, fixed);
	if (in.bad || fixed > (uint64_t)(in.end - in.p))
		return VP_EINVAL;
	in.slen = (size_t)(in.end - in.p) - fixed;
	free(r->strings);
	if (!(r->strings = malloc(in.slen + 1)))
		return VP_ENOMEM;
	memcpy(r->strings, in.p + fixed, in.slen);
	r->strings[in.slen] = '\0';
	in.strs = r->strings;
	in.end = in.p + fixed;
	GET(&in, magic);
	if (magic != MAGIC)
		return VP_EINVAL;
	GET(&in, r->comm.coll_calls);
	for (k = 0; k < VP__COLL_HISTORY; k++) {
		struct vp__coll_call *h = &cs->history[k];
		uint32_t call;

		GET(&in, call);
		GET(&in, h->hash);
		GET(&in, h->ctx);
		GET(&in, h->sig);
		h->sig.call = get_str(&in);
		h->sig.elem = NULL; /* another process's text */
		atomic_store(&h->call, h->sig.call ? call : 0);
	}
	GET(&in, log_bytes);
	if (log_bytes) {
		if (log_bytes != vp__coll_log_bytes())
			return VP_EINVAL;
		if (!cs->log && !(cs->log = malloc(log_bytes)))
			return VP_ENOMEM;
		get(&in, cs->log, log_bytes);
	}
	GET(&in, c->t);
	GET(&in, c->supersteps);
	GET(&in, c->w);
	GET(&in, c->h_sent);
	GET(&in, c->h_recv);
	GET(&in, c->last_start);
	GET(&in, c->send_seq);
	GET(&in, c->messages);
	GET(&in, c->bytes);
	GET(&in, c->link_msgs);
	first_op = r->trace.ops.len;
	if ((rc = get_vec(&in, &c->events)) ||
	    (rc = get_vec(&in, &c->transfers)) ||
	    (rc = get_vec(&in, &r->trace.ops)))
		return rc;
	for (k = first_op; k < r->trace.ops.len && !in.bad; k++) {
		struct vp__trace_op *op = vp__vec_at(&r->trace.ops, k);

		op->label = get_str(&in);
		op->alg = get_str(&in);
		op->rma = get_str(&in);
	}
	return in.bad || in.p != in.end ? VP_EINVAL : VP_OK;
}
