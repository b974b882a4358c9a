/*
 * coll_check.c - collective calls that do not match across ranks fail
 * loudly instead of giving wrong data.
 *
 * MPI leaves a mismatched collective (different roots, counts, types or
 * operations on different ranks, or a rank that skips a call) undefined,
 * and checkers such as MUST (Hilbrich et al. 2012) catch it from outside.
 * vp checks every collective itself, at the cost of two words per message:
 *   - vp_coll_begin numbers each collective call on a communicator (both
 *     twins share the count) and hashes its arguments (FNV-1a);
 *   - every message sent in the collective space carries (call, hash) in
 *     its envelope;
 *   - a receiver compares them with its own current call. A difference
 *     fails the run with VP_EMISMATCH, naming both ranks and the first
 *     argument that differs, read from the sender's record of its last
 *     VP__COLL_HISTORY calls. A message of another call is first
 *     compared with the record of that call (the receiver's own for an
 *     earlier call, the sender's for a later one): wrong roots let one
 *     rank finish a call the others are still in, and the report should
 *     name the root, not just "a different sequence of calls".
 * A mismatch where no message of the wrong call is ever received (every
 * rank waits) ends as a deadlock, whose report names each rank's call.
 *
 * The history is written by its rank and read by a receiver on the error
 * path only: its call field is set to 0 while the entry is rewritten and
 * to the call number + 1 with a release store after, and the reader checks
 * it before and after copying (a sequence lock).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static const char *const type_names[] = { "VP_BYTE", "VP_INT32", "VP_INT64",
					  "VP_FLOAT", "VP_DOUBLE" };
static const char *const op_names[] = { "VP_SUM", "VP_PROD", "VP_MIN",
					"VP_MAX", "VP_BAND", "VP_BOR",
					"VP_BXOR" };

/* One word into the hash (the multiply-xorshift of Steele, Lea and Flood
 * 2014, SplitMix64). */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9E3779B97F4A7C15ull;
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	return h ^ (h >> 29);
}

/* The name's part of the hash, eight bytes a word. A caller's name is
 * static text (the contract of vp_coll_begin), so one pointer always
 * hashes alike: the hashes of the last few names are kept, which halves
 * the cost of a call's check (a loop of two calls, a barrier and a
 * broadcast, rehashed both names at every call while only the last one
 * was kept). A name copied from another process (kept: 0) is not. */
#define NAMES_KEPT 4
static uint64_t hash_name(const char *name, int kept)
{
	static __thread const char *names[NAMES_KEPT];
	static __thread uint64_t hashes[NAMES_KEPT];
	static __thread unsigned next;
	uint64_t h = 0, w = 0;
	const char *c;
	int k = 0;

	for (k = 0; kept && k < NAMES_KEPT; k++)
		if (names[k] == name)
			return hashes[k];
	k = 0;
	for (c = name; *c; c++) {
		w = w << 8 | (unsigned char)*c;
		if (++k % 8 == 0)
			h = mix(h, w), w = 0;
	}
	h = mix(h, w);
	if (kept) {
		names[next % NAMES_KEPT] = name;
		hashes[next++ % NAMES_KEPT] = h;
	}
	return h;
}

static uint64_t rotl(uint64_t x, int k)
{
	return x << k | x >> (64 - k);
}

/* Every collective call hashes its signature, so the fields go in three
 * lanes that run side by side: each lane multiplies one field (a bijection)
 * and mixes the next into it with a second multiply; the lanes, rotated
 * apart, then get one full mix. Four multiplies deep instead of twelve,
 * with the same 64-bit mixing before the final fold to 32 bits. */
static uint32_t hash_sig(const vp_coll_sig *s, int name_kept)
{
	uint64_t a = hash_name(s->call, name_kept) ^
		     ((uint64_t)s->alg << 32 | (uint32_t)s->type) *
			 0xD6E8FEB86659FD93ull;
	uint64_t b = s->count * 0x9E3779B97F4A7C15ull ^
		     ((uint64_t)(uint32_t)s->op << 32 | (uint32_t)s->root);
	uint64_t c = (uint64_t)s->q * 0xC2B2AE3D27D4EB4Full ^
		     ((uint64_t)(uint32_t)s->kary << 32 ^ s->segment);
	uint64_t h;

	if (s->elem) /* typed by a layer above: rare enough to mix apart */
		a ^= rotl(hash_name(s->elem, 0), 7);
	h = mix(a * 0xFF51AFD7ED558CCDull ^
			     rotl(b * 0xC4CEB9FE1A85EC53ull, 21) ^
			     rotl(c * 0x94D049BB133111EBull, 42),
			 0);

	return (uint32_t)(h ^ h >> 32);
}

/* Whether a and b are the same signature (call names compared as
 * pointers: equal text elsewhere only costs a hash). */
static int same_sig(const vp_coll_sig *a, const vp_coll_sig *b)
{
	return a->call == b->call && a->elem == b->elem && a->alg == b->alg &&
	       a->count == b->count && a->type == b->type &&
	       a->op == b->op && a->root == b->root && a->q == b->q &&
	       a->kary == b->kary && a->segment == b->segment;
}

int vp_coll_begin(vp_comm *c, const vp_coll_sig *sig)
{
	struct vp__coll_state *cs;
	struct vp__coll_call *h;
	vp_coll_sig s;
	int rc;

	if (!c || !sig)
		return VP_EINVAL;
	if ((rc = vp__enter(c, sig->call ? sig->call : "vp_coll_begin")))
		return rc;
	s = *sig;
	if (!s.call)
		s.call = "?";
	cs = &c->me->coll_state;
	s.elem = cs->next_elem;
	cs->next_elem = NULL;
	cs->call = c->user->coll_calls++;
	if (!cs->hashed_sig.call || !same_sig(&s, &cs->hashed_sig)) {
		cs->hashed = hash_sig(&s, 1);
		cs->hashed_sig = s;
	}
	cs->hash = cs->hashed;
	cs->ctx = vp__ctx(c->coll);
	h = &cs->history[cs->call % VP__COLL_HISTORY];
	atomic_store_explicit(&h->call, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	h->hash = cs->hash;
	h->ctx = cs->ctx;
	h->sig = s; /* s.call is static text (the contract) */
	atomic_store_explicit(&h->call, cs->call + 1, memory_order_release);
	return VP_OK;
}

int vp_coll_types(vp_comm *c, const char *elem)
{
	int rc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, "vp_coll_types")))
		return rc;
	c->me->coll_state.next_elem = elem;
	return VP_OK;
}

/* Two element types' names compared as text (NULL: untyped). */
static int same_elem(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

void vp__coll_stamp(const vp_comm *c, struct vp__envelope *env)
{
	const struct vp__coll_state *cs = &c->me->coll_state;

	if (c->space == VP__SPACE_COLL && cs->ctx == vp__ctx(c)) {
		env->coll_call = cs->call + 1;
		env->coll_hash = cs->hash;
	} else {
		env->coll_call = env->coll_hash = 0;
	}
}

int vp__rank_coll_record(const struct vp__rank *r, int ctx, uint32_t want,
			 vp_coll_sig *out)
{
	const struct vp__coll_call *h =
	    &r->coll_state.history[(want - 1) % VP__COLL_HISTORY];

	if (atomic_load_explicit(&h->call, memory_order_acquire) != want ||
	    h->ctx != ctx)
		return 0;
	*out = h->sig;
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&h->call, memory_order_relaxed) == want;
}

/* The sender's record of its call number want (+ 1), or 0 if it is gone:
 * read from its memory where the ranks share it, else asked of its
 * process (the answer's name is kept in name). */
static int sender_call(struct vp__rank *me, int src_world, int ctx,
		       uint32_t want, vp_coll_sig *out, char *name, size_t len)
{
	const struct vp__transport *tx = vp__tx(me);

	if (tx->shares_memory)
		return vp__rank_coll_record(&me->world->ranks[src_world], ctx,
					    want, out);
	return tx->coll_record &&
	       tx->coll_record(me->tx, src_world, ctx, want, out, name, len);
}

/* Names the first argument in which a (here) and b (there) differ. */
static void first_difference(const vp_coll_sig *a, const vp_coll_sig *b,
			     const char *there, char *out, size_t len)
{
#define NAME(t, i) ((unsigned)(i) < sizeof(t) / sizeof(t[0]) ? t[i] : "none")
	if (strcmp(a->call, b->call))
		snprintf(out, len, "%s here but %s on %s", a->call, b->call,
			 there);
	else if (a->count != b->count && !strncmp(a->call, "vp_win_", 7))
		snprintf(out, len,
			 "window %zu here but window %zu on %s (windows "
			 "numbered in the order made on the communicator)",
			 a->count, b->count, there);
	else if (!same_elem(a->elem, b->elem))
		snprintf(out, len,
			 "the type signatures differ: %s elements here but %s "
			 "elements on %s (count %zu here, %zu there)",
			 a->elem ? a->elem : "untyped (bytes)",
			 b->elem ? b->elem : "untyped (bytes)", there, a->count,
			 b->count);
	else if (a->count != b->count)
		snprintf(out, len, "count %zu here but %zu on %s", a->count,
			 b->count, there);
	else if (a->type != b->type)
		snprintf(out, len, "type %s here but %s on %s",
			 NAME(type_names, a->type), NAME(type_names, b->type),
			 there);
	else if (a->op != b->op)
		snprintf(out, len, "op %s here but %s on %s",
			 NAME(op_names, a->op), NAME(op_names, b->op), there);
	else if (a->root != b->root)
		snprintf(out, len, "root %d here but root %d on %s", a->root,
			 b->root, there);
	else if (a->q != b->q)
		snprintf(out, len, "shift %ld here but %ld on %s", a->q, b->q,
			 there);
	else if (a->alg != b->alg)
		snprintf(out, len, "algorithm %s here but %s on %s",
			 vp_alg_name(a->alg), vp_alg_name(b->alg), there);
	else if (a->segment != b->segment)
		snprintf(out, len,
			 "pipeline segment %zu bytes here but %zu on %s",
			 a->segment, b->segment, there);
	else
		snprintf(out, len, "k-ary degree %d here but %d on %s", a->kary,
			 b->kary, there);
#undef NAME
}

int vp__coll_check(vp_comm *c, int src_world, const struct vp__envelope *env,
		   const char *call)
{
	struct vp__rank *me = c->me;
	const struct vp__coll_state *cs = &me->coll_state;
	const struct vp__coll_call *mine;
	uint32_t here = cs->ctx == vp__ctx(c) ? cs->call + 1 : 0;
	char there[64], what[320], name[VP__COLL_NAME_MAX],
	    ours_name[VP__COLL_NAME_MAX];
	vp_coll_sig theirs, at_ours;
	int known;

	if (c->space != VP__SPACE_COLL || !env->coll_call || !here ||
	    (env->coll_call == here && env->coll_hash == cs->hash))
		return VP_OK;
	mine = &cs->history[cs->call % VP__COLL_HISTORY];
	vp__peer_name(c, src_world, there, sizeof(there));
	/* the sender's record of its call */
	known = sender_call(me, src_world, cs->ctx, env->coll_call, &theirs,
			    name, sizeof(name));
	/* A late message of an earlier call whose arguments differ from ours
	 * for that call: the arguments are the mistake, not the sequence
	 * (wrong roots let one rank finish a call the others have not). */
	if (env->coll_call < here && here - env->coll_call < VP__COLL_HISTORY) {
		const struct vp__coll_call *then =
		    &cs->history[(env->coll_call - 1) % VP__COLL_HISTORY];

		if (atomic_load_explicit(&then->call, memory_order_relaxed) ==
			env->coll_call &&
		    then->ctx == cs->ctx && then->hash != env->coll_hash) {
			if (known)
				first_difference(&then->sig, &theirs, there,
						 what, sizeof(what));
			else
				snprintf(what, sizeof(what),
					 "the arguments differ from %s's "
					 "(hash %08x here, %08x there)",
					 there, then->hash, env->coll_hash);
			return vp__fail(me, VP_EMISMATCH, mine->sig.call,
					"call %u on this communicator (%s): %s "
					"(found during call %u)",
					env->coll_call - 1, then->sig.call,
					what, here - 1);
		}
	}
	/* A message of a later call from a sender whose record of our call
	 * has other arguments: again the arguments. */
	if (env->coll_call > here &&
	    sender_call(me, src_world, cs->ctx, here, &at_ours, ours_name,
			sizeof(ours_name)) &&
	    hash_sig(&at_ours, vp__tx(me)->shares_memory) != cs->hash) {
		first_difference(&mine->sig, &at_ours, there, what,
				 sizeof(what));
		return vp__fail(me, VP_EMISMATCH, mine->sig.call,
				"%s (call %u on this communicator)", what,
				here - 1);
	}
	if (env->coll_call != here)
		return vp__fail(me, VP_EMISMATCH, mine->sig.call,
				"a message of %s's collective call %u (%s) "
				"arrived during call %u on this communicator: "
				"the ranks do not make the same sequence of "
				"collective calls (one skipped or added one?)",
				there, env->coll_call - 1,
				known ? theirs.call : "?", here - 1);
	if (known)
		first_difference(&mine->sig, &theirs, there, what,
				 sizeof(what));
	else
		snprintf(what, sizeof(what),
			 "the arguments differ from %s's (hash %08x here, "
			 "%08x there)",
			 there, cs->hash, env->coll_hash);
	(void)call;
	return vp__fail(me, VP_EMISMATCH, mine->sig.call,
			"%s (call %u on this communicator)", what, here - 1);
}

/* ---- after the run ---- */

/* The first rank seen with one (context, call), in a table keyed by both. */
struct seen {
	int ctx;
	uint32_t call; /* + 1; 0: empty slot */
	int rank;
	const struct vp__coll_call *rec;
};

static uint32_t slot_of(int ctx, uint32_t call, uint32_t mask)
{
	uint32_t k = (uint32_t)ctx * 2654435761u ^ call * 40503u;

	return (k ^ k >> 15) & mask;
}

/* Two ranks that recorded the same call with different arguments. */
static int differing_records(const struct vp__world *w, char *out, size_t len)
{
	uint32_t cap = 16, mask, i;
	struct seen *t;
	int r, k, found = 0;

	while (cap < 2u * VP__COLL_HISTORY * (uint32_t)w->p)
		cap *= 2;
	mask = cap - 1;
	t = calloc(cap, sizeof(*t));
	if (!t)
		return 0;
	for (r = 0; r < w->p && !found; r++) {
		for (k = 0; k < VP__COLL_HISTORY && !found; k++) {
			const struct vp__coll_call *h =
			    &w->ranks[r].coll_state.history[k];
			uint32_t call = atomic_load(&h->call);

			if (!call)
				continue;
			for (i = slot_of(h->ctx, call, mask);
			     t[i].call &&
			     (t[i].call != call || t[i].ctx != h->ctx);
			     i = (i + 1) & mask)
				;
			if (!t[i].call) {
				t[i] = (struct seen){ h->ctx, call, r, h };
			} else if (t[i].rec->hash != h->hash) {
				char there[32], what[320];

				snprintf(there, sizeof(there), "rank %d",
					 t[i].rank);
				first_difference(&h->sig, &t[i].rec->sig, there,
						 what, sizeof(what));
				snprintf(out, len,
					 "rank %d: %s: %s (call %u on %s)", r,
					 h->sig.call, what, call - 1,
					 h->ctx == vp__ctx(&w->ranks[r].coll)
					     ? "the world communicator"
					     : "a sub-communicator");
				found = 1;
			}
		}
	}
	free(t);
	return found;
}

/* Ranks that made different numbers of collective calls on the world. */
static int differing_counts(const struct vp__world *w, char *out, size_t len)
{
	int r, lo = 0, hi = 0;

	for (r = 1; r < w->p; r++) {
		if (w->ranks[r].comm.coll_calls < w->ranks[lo].comm.coll_calls)
			lo = r;
		if (w->ranks[r].comm.coll_calls > w->ranks[hi].comm.coll_calls)
			hi = r;
	}
	if (w->ranks[lo].comm.coll_calls == w->ranks[hi].comm.coll_calls)
		return 0;
	snprintf(out, len,
		 "rank %d made %u collective calls on the world communicator "
		 "but rank %d made %u (one skipped or added a collective?)",
		 lo, w->ranks[lo].comm.coll_calls, hi,
		 w->ranks[hi].comm.coll_calls);
	return 1;
}

int vp__coll_postmortem(const struct vp__world *w, char *out, size_t len)
{
	if (differing_records(w, out, len))
		return 2;
	return differing_counts(w, out, len);
}
