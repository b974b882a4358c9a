/*
 * coll_sync.c - collective calls without their messages, where the ranks
 * share memory and outnumber the CPUs: the dissemination barrier
 * (vp_coll_dissemination) and, from recorded scripts (coll_script.c),
 * the other collectives (vp__coll_shared).
 *
 * The book's barrier (Hensgen, Finkel and Manber 1988; Grama et al., sec.
 * 4.2.3's pattern with empty messages) takes ceil(log2 p) rounds; in round k
 * rank i sends to i + 2^k and receives from i - 2^k. With more ranks than
 * CPUs each round needs every rank's thread to have run once, so the rounds
 * alone, even without messages, cost several times what one shared counter
 * does. So the ranks meet at one counter, and the last to arrive charges
 * every rank's model clock with the rounds' messages, calling the clock's own
 * send and receive rules in round order (vp__clock_send, vp__clock_recv, the
 * model log): the model times, counts and logs are those of the messages, bit
 * for bit.
 *
 * Only when the run's ranks outnumber the CPUs: where they all run at
 * once the messages are faster, since the last arrival's writes to every
 * rank's clock move those lines between CPUs.
 *
 * One instance a barrier: word holds the instance number (high half) and
 * the ranks arrived (low half); outcome[instance % 2] says how it ended.
 * A rank that cannot take part says MESSAGES, and then every rank sends
 * the messages (vp_barrier's loop): a traced run (the trace draws them),
 * a rank with requests open (its wait in the barrier must progress
 * them), ranks in different collective calls (the messages find the
 * mismatch and name it). When every rank of the run is blocked before
 * all have arrived, the deadlock check gives the waits up (thr_wait_flag)
 * and they too send the messages, which block where the messages of the
 * book's barrier would: a report, a missing rank or a mismatch reads as
 * it always did.
 *
 * The last arrival resets the word and the next instance's outcome before
 * it publishes this one's, so a rank that leaves and arrives at the next
 * barrier at once finds a fresh instance; a rank that waits in instance n
 * reads outcome[n % 2] before anyone can finish instance n + 1 (which
 * needs it to arrive), so the two slots suffice.
 *
 * The other collectives share the counter and its instances (a barrier
 * and a broadcast on one communicator are two calls in one sequence).
 * Unlike the barrier's messages theirs let a rank leave before the others
 * arrive (a broadcast's root), so no rank says MESSAGES early: every
 * member waits for the last arrival's verdict, which is MESSAGES when a
 * member cannot take part or the calls differ. Only the deadlock check's
 * give-up ends an instance before all have arrived; a rank could then
 * leave and count itself into this instance again from its next call,
 * so the group's calls send their messages from then on (off).
 *
 * Recording: when the last arrival finds no complete scripts for the
 * call's signature it gives the members a slot to record into while they
 * send the messages (record[]); a signature that cannot be recorded is
 * RECORD_NEVER, which every member of that call notes in its own list,
 * so none brings it to the counter again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime.h"

enum { SYNC_OPEN, SYNC_COMPUTING, SYNC_DONE, SYNC_MESSAGES };

/* record[]: beside a slot, no recording, or a signature never recorded */
enum { RECORD_NONE = -1, RECORD_NEVER = -2 };

#define NEVER_KEYS 8
#define SCRIPT_SLOTS 16
#define TRIAL_CALLS 8 /* struct script_slot: a trial's calls */
#define KEEP_MIN 32
#define KEEP_MAX 4096

struct sync_member {
	/* A line of its own, written by the member at each call and read by
	 * the last arrival: a line shared by members that run on different
	 * CPUs would move at every member's call. */
	_Alignas(VP__CACHELINE) vp_comm *comm; /* its collective comm */
	uint32_t call, hash;
	int ctx;
	int can; /* 0: this member's call must send its messages */
	int keyed; /* 0: a barrier */
	struct vp__shared_bufs bufs; /* its call's buffers */
	struct vp__shared_key key;   /* its call's (the next line) */
	/* signatures that cannot be recorded (the member's own: every
	 * member learns one in the same call, and then no member brings it
	 * to the counter again) */
	struct vp__shared_key never[NEVER_KEYS];
	int nnever;
	/* this member's calls of each slot's signature in its stretch (a
	 * call that lets ranks leave early, struct script_slot) */
	int stretch_calls[SCRIPT_SLOTS];
	/* the last arrival's scratch for the rounds */
	_Alignas(VP__CACHELINE) struct vp__envelope env;
	double send_end;
	int hops;
};

/*
 * A signature's scripts (coll_script.c), a slot of the group's state.
 *
 * And, for a call that lets ranks leave early (a rooted call, the scan,
 * the shift), how it goes by default. Its calls run in stretches: the
 * first call of each meets, the others go the stretch's way, met or by
 * their messages. The last arrival of a stretch's first call notes when
 * it came, so the stretch before took that long a call, its own way,
 * the program's loop with everything in it (the root of a broadcast by
 * messages runs ahead; the others catch up by the next stretch's start).
 * The stretches alternate: one of keep calls the way that won, then a
 * trial of TRIAL_CALLS the other way, then the way that won the
 * comparison (at first, TRIAL_CALLS met).
 * keep doubles, from KEEP_MIN to KEEP_MAX, while the same way wins; and
 * since a trial of a few calls can be spoilt by one late wake-up, the
 * way changes only when two trials in a row find the other faster.
 * Every member counts its own calls (stretch_calls) and reads the
 * stretch's length and way here, which only a last arrival writes while
 * all wait: no member decides alone, and every member goes the same way
 * in every call.
 */
struct script_slot {
	int used;
	struct vp__shared_key key;
	struct vp__script *scripts; /* a member's each */
	struct vp__plan *plan;      /* made on first use */
	/* the stretch's calls and way (1: met) */
	int len, meet;
	/* 1: the stretch is a trial of the other way */
	int trial;
	/* the way that won, the length of its next stretch */
	int won, keep;
	/* 1: the last trial found the other way faster */
	int doubt;
	/* the last arrival at the stretch's first call (ns) */
	unsigned long long start;
	/* ns a call in the winner's last stretch */
	double base;
};

struct vp__sync {
	_Alignas(VP__CACHELINE) atomic_ullong word;
	_Alignas(VP__CACHELINE) atomic_int outcome[2];
	/* the slot the members record into when outcome[i] is MESSAGES,
	 * RECORD_NONE or RECORD_NEVER: written by the last arrival before it
	 * publishes outcome[i] */
	int record[2];
	/* 1 once a deadlock check gave an instance's waits up: a member could
	 * then leave a call the others had not reached, and count itself
	 * into the wrong instance; every later call sends its messages */
	atomic_int off;
	int p, next_slot;
	struct script_slot slot[SCRIPT_SLOTS];
	/* the members' comms and buffers, gathered by the last arrival */
	vp_comm **comms;
	struct vp__shared_bufs *bufs;
	struct sync_member member[];  /* by rank of the group */
};

/*
 * The group's state, made by the first member to claim it (BUILDING) while
 * the others yield until it is published: one copy in all, not one a
 * member (at p = 32,000 a copy is about 20 MB to clear, and with many
 * more threads than CPUs most members would find the state missing
 * before the first copy was in).
 */
static char building_mark;
#define SYNC_BUILDING ((struct vp__sync *)&building_mark)

static struct vp__sync *sync_build(int p)
{
	size_t bytes = sizeof(struct vp__sync) +
		       (size_t)p * sizeof(struct sync_member);
	struct vp__sync *s = aligned_alloc(
	    VP__CACHELINE,
	    (bytes + VP__CACHELINE - 1) / VP__CACHELINE * VP__CACHELINE);

	if (!s)
		return NULL;
	memset(s, 0, bytes);
	s->p = p;
	s->record[0] = s->record[1] = RECORD_NONE;
	s->comms = calloc((size_t)p, sizeof(*s->comms));
	s->bufs = calloc((size_t)p, sizeof(*s->bufs));
	if (!s->comms || !s->bufs) {
		free(s->comms);
		free(s->bufs);
		free(s);
		return NULL;
	}
	return s;
}

/* NULL when no memory: the caller's call then sends its messages. */
static struct vp__sync *sync_of(struct vp__group *g)
{
	struct vp__sync *s = atomic_load(&g->sync), *none = NULL;

	if (s && s != SYNC_BUILDING)
		return s;
	if (!s && atomic_compare_exchange_strong(&g->sync, &none,
						 SYNC_BUILDING)) {
		s = sync_build(g->size);
		atomic_store(&g->sync, s); /* publishes it (seq_cst) */
		return s;
	}
	/* a builder allocates and clears, it never waits: this ends */
	while ((s = atomic_load(&g->sync)) == SYNC_BUILDING)
		sched_yield();
	return s;
}

static void slot_clear(struct script_slot *sl, int p)
{
	vp__scripts_free(sl->scripts, p);
	vp__plan_free(sl->plan);
	memset(sl, 0, sizeof(*sl));
}

void vp__sync_free(struct vp__group *g)
{
	struct vp__sync *s = atomic_load(&g->sync);
	int i;

	if (s && s != SYNC_BUILDING) {
		for (i = 0; i < SCRIPT_SLOTS; i++)
			slot_clear(&s->slot[i], s->p);
		free(s->comms);
		free(s->bufs);
		free(s);
	}
	atomic_store(&g->sync, NULL);
}

/* Wakes every member waiting at outcome (a waker's store of the outcome
 * came first). */
void vp__wake_members(const vp_comm *c, atomic_int *outcome)
{
	const struct vp__transport *tx = vp__tx(c->me);
	int i;

	if (tx->none_parked && tx->none_parked(c->me->tx))
		return;
	for (i = 0; i < c->group->size; i++)
		if (vp__to_world(c, i) != c->me->world_rank)
			tx->wake_rank(c->me->tx, vp__to_world(c, i), outcome);
	if (tx->wake_flag)
		tx->wake_flag(c->me->tx, outcome);
}

/* The instance ends in messages, unless its last arrival already took it. */
static void say_messages(const vp_comm *c, atomic_int *outcome)
{
	int open = SYNC_OPEN;

	if (atomic_compare_exchange_strong(outcome, &open, SYNC_MESSAGES))
		vp__wake_members(c, outcome);
}

/*
 * The last arrival closes instance n: the next instance's verdict and
 * record slot are reset and the counter moved on before n's verdict o is
 * published (so a member that leaves and arrives at once finds a fresh
 * instance), then every member is woken.
 */
static void close_instance(struct vp__sync *s, const vp_comm *c,
			   unsigned long long instance, int o)
{
	s->record[(instance + 1) & 1] = RECORD_NONE;
	atomic_store(&s->outcome[(instance + 1) & 1], SYNC_OPEN);
	atomic_store(&s->word, (instance + 1) << 32);
	atomic_store(&s->outcome[instance & 1], o); /* releases its work */
	vp__wake_members(c, &s->outcome[instance & 1]);
}

/* Waits for the verdict: SYNC_DONE, SYNC_MESSAGES, or a VP_E* code. When
 * every rank of the run is blocked first, the deadlock check gives the
 * wait up: the messages then show where the program stands, and this
 * group sends its messages from now on (off). */
static int await_outcome(struct vp__sync *s, vp_comm *c, atomic_int *outcome,
			 const char *call)
{
	struct vp__rank *me = c->me;
	int o, rc;

	for (;;) {
		o = atomic_load(outcome);
		if (o == SYNC_DONE || o == SYNC_MESSAGES)
			return o;
		rc = vp__tx(me)->wait_flag(me->tx, outcome, o);
		if (rc == 1) {
			atomic_store(&s->off, 1);
			say_messages(c, outcome);
		} else if (rc)
			return vp__fail(me, rc, call,
					"waiting for the other ranks: %s",
					vp_strerror(rc));
	}
}

/* Every member is in the same collective call on this communicator. */
static int all_alike(const struct vp__sync *s, int p)
{
	int i;

	for (i = 1; i < p; i++)
		if (s->member[i].call != s->member[0].call ||
		    s->member[i].hash != s->member[0].hash ||
		    s->member[i].ctx != s->member[0].ctx)
			return 0;
	return 1;
}

/*
 * Round k's exchange, as vp_sendrecv charges it (p2p.c): every member's
 * send half first (its clock's send rule, the collective's stamp; T to
 * send_cpu), then every member's receive half (the receive rule on the
 * partner's envelope; T to the later of the receive and the send's end;
 * the model log's SENDRECV event).
 */
static void charge_round(struct vp__sync *s, int p, int k)
{
	int i;

	for (i = 0; i < p; i++) {
		struct sync_member *m = &s->member[i];
		vp_comm *c = m->comm;
		struct vp__rank *r = c->me;
		struct vp__world *w = r->world;

		m->hops = vp__clock_send(&r->clock, &w->model, &w->topo,
					 r->world_rank,
					 vp__to_world(c, (i + k) % p), 0,
					 &m->env);
		vp__coll_stamp(c, &m->env);
		m->send_end = r->clock.send_done;
		r->clock.t = r->clock.send_cpu;
	}
	for (i = 0; i < p; i++) {
		struct sync_member *m = &s->member[i];
		const struct sync_member *from = &s->member[(i - k + p) % p];
		vp_comm *c = m->comm;
		struct vp__rank *r = c->me;
		double done = vp__clock_recv(&r->clock, &r->world->model,
					     &from->env, 0);

		if (done > r->clock.t)
			r->clock.t = done;
		if (m->send_end > r->clock.t)
			r->clock.t = m->send_end;
		vp__clock_log(&r->clock, VP__EV_SENDRECV,
			      vp__to_world(c, (i + k) % p),
			      from->comm->me->world_rank, (uint32_t)m->hops,
			      from->env.seq, 0, 0);
	}
}

int vp_coll_dissemination(vp_comm *c)
{
	const struct vp__transport *tx;
	struct vp__rank *me;
	struct vp__sync *s;
	struct sync_member *m;
	unsigned long long was, instance;
	atomic_int *outcome;
	int p, rc, o, can;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, "vp_coll_dissemination")))
		return rc;
	me = c->me;
	if (c->space != VP__SPACE_COLL)
		return vp__fail(me, VP_EINVAL, "vp_coll_dissemination",
				"the communicator is not a collective one "
				"(pass vp_coll_comm(c), after vp_coll_begin)");
	tx = vp__tx(me);
	if (me->world->shared_colls == VP__SHARED_NONE || !tx->wait_flag ||
	    !tx->crowded(me->tx) || !(s = sync_of(c->group)))
		return 0;
	if (atomic_load(&s->off))
		return 0;
	p = c->group->size;
	m = &s->member[vp_rank(c)];
	m->comm = c;
	m->call = me->coll_state.call;
	m->hash = me->coll_state.hash;
	m->ctx = me->coll_state.ctx;
	m->keyed = 0;
	can = !me->world->trace.on && !me->reqs.nlive;
	m->can = can;
	/* publishes m (release); the last arrival's add acquires them all */
	was = atomic_fetch_add(&s->word, 1);
	instance = was >> 32;
	outcome = &s->outcome[instance & 1];
	if (!can) /* no rank leaves the barrier's messages before all came */
		say_messages(c, outcome);
	if ((int)(was & 0xffffffffu) + 1 == p) {
		o = SYNC_OPEN;
		if (atomic_compare_exchange_strong(outcome, &o,
						   SYNC_COMPUTING)) {
			s->record[instance & 1] = RECORD_NONE;
			o = all_alike(s, p) ? SYNC_DONE : SYNC_MESSAGES;
			for (rc = 1; o == SYNC_DONE && rc < p; rc <<= 1)
				charge_round(s, p, rc);
		}
		if (o == SYNC_DONE)
			atomic_fetch_add(&me->world->shared_calls, 1);
		close_instance(s, c, instance, o);
		return o == SYNC_DONE;
	}
	o = await_outcome(s, c, outcome, "vp_barrier");
	return o < 0 ? o : o == SYNC_DONE;
}

/* ---- the other collectives ---- */

static int same_key(const struct vp__shared_key *a,
		    const struct vp__shared_key *b)
{
	return a->op == b->op && a->alg == b->alg && a->type == b->type &&
	       a->rop == b->rop && a->root == b->root && a->kary == b->kary &&
	       a->q == b->q && a->count == b->count &&
	       a->segment == b->segment;
}

/*
 * The last arrival's verdict on an instance of a collective call: DONE
 * (the clocks charged from the signature's scripts, the data moved) or
 * MESSAGES, with s->record[instance] the slot whose scripts the members
 * write while they send them (-1 none).
 */
static int decide(struct vp__sync *s, vp_comm *c, unsigned long long instance,
		  vp__shared_move move)
{
	const struct vp__shared_key *k = &s->member[0].key;
	struct script_slot *sl = NULL;
	int p = s->p, i, spoiled = 0;

	s->record[instance & 1] = RECORD_NONE;
	if (!all_alike(s, p))
		return SYNC_MESSAGES;
	for (i = 0; i < p; i++)
		if (!s->member[i].can || !s->member[i].keyed ||
		    !same_key(&s->member[i].key, k))
			return SYNC_MESSAGES;
	for (i = 0; i < SCRIPT_SLOTS && !sl; i++)
		if (s->slot[i].used && same_key(&s->slot[i].key, k))
			sl = &s->slot[i];
	/* a plan is made once its scripts are complete, which then stay
	 * as they are until the slot records again (below) */
	if (sl && !sl->plan && vp__scripts_complete(sl->scripts, p, &spoiled) &&
	    !(sl->plan = vp__plan_make(c, sl->scripts, p)))
		spoiled = 1;
	if (sl && spoiled) { /* its members will not bring it here again */
		slot_clear(sl, p);
		s->record[instance & 1] = RECORD_NEVER;
		return SYNC_MESSAGES;
	}
	if (sl && sl->plan) {
		for (i = 0; i < p; i++) {
			s->comms[i] = s->member[i].comm;
			s->bufs[i] = s->member[i].bufs;
		}
		if (move(k, p, s->bufs))
			return SYNC_MESSAGES;
		vp__plan_charge(sl->plan, sl->scripts, s->comms);
		return SYNC_DONE;
	}
	if (!sl) { /* a new signature: the oldest slot's goes */
		sl = &s->slot[s->next_slot];
		s->next_slot = (s->next_slot + 1) % SCRIPT_SLOTS;
		slot_clear(sl, p);
		if (!(sl->scripts = vp__scripts_new(p)))
			return SYNC_MESSAGES;
		sl->used = 1;
		sl->key = *k;
	}
	vp__scripts_reset(sl->scripts, p);
	vp__plan_free(sl->plan);
	sl->plan = NULL;
	/* the first stretches: TRIAL_CALLS met, then a trial by messages */
	sl->len = TRIAL_CALLS;
	sl->meet = sl->won = 1;
	sl->trial = sl->keep = sl->doubt = 0;
	sl->start = 0;
	for (i = 0; i < p; i++)
		s->member[i].stretch_calls[sl - s->slot] = 0;
	s->record[instance & 1] = (int)(sl - s->slot);
	return SYNC_MESSAGES;
}

int vp__coll_shared_may(vp_comm *c, int leaves_early)
{
	struct vp__rank *me = c->me;
	const struct vp__transport *tx = vp__tx(me);
	int policy = me->world->shared_colls;

	if (policy == VP__SHARED_NONE ||
	    (policy == VP__SHARED_SYNCHRONIZING && leaves_early))
		return 0;
	return tx->wait_flag && !me->world->trace.on && tx->crowded(me->tx);
}

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ull +
	       (unsigned long long)t.tv_nsec;
}

/* Whether member m brings this call of k to the counter (see struct
 * script_slot); *slot the signature's slot when this call is the first
 * of a stretch, else -1 (and when k has no scripts yet: it meets, to be
 * recorded). */
static int way_meets(struct vp__sync *s, struct sync_member *m,
		     const struct vp__shared_key *k, int *slot)
{
	const struct script_slot *sl;
	int i, *calls;

	*slot = -1;
	for (i = 0; i < SCRIPT_SLOTS; i++)
		if (s->slot[i].used && same_key(&s->slot[i].key, k))
			break;
	if (i == SCRIPT_SLOTS)
		return 1;
	sl = &s->slot[i];
	calls = &m->stretch_calls[i];
	if (*calls >= sl->len)
		*calls = 0;
	if ((*calls)++ == 0) {
		*slot = i;
		return 1;
	}
	return sl->meet;
}

/* The last arrival of a stretch's first call (met): the stretch before
 * is over; the next one's length and way. */
static void way_next(struct script_slot *sl)
{
	unsigned long long now = now_ns(), start = sl->start;
	double took = (double)(now - start) / sl->len; /* ns a call */

	sl->start = now;
	if (!start) /* the first stretch starts */
		return;
	if (!sl->trial) { /* the winner's stretch: try the other way */
		sl->base = took;
		sl->trial = 1;
		sl->len = TRIAL_CALLS;
		sl->meet = !sl->won;
		return;
	}
	if (took < sl->base && sl->doubt) {
		sl->won = sl->meet; /* faster twice in a row */
		sl->keep = KEEP_MIN;
		sl->doubt = 0;
	} else if (took < sl->base) {
		sl->doubt = 1; /* once: the winner keeps its stretch */
		sl->keep = sl->keep ? sl->keep : KEEP_MIN;
	} else { /* the winner again: a longer stretch */
		sl->doubt = 0;
		sl->keep = sl->keep ? 2 * sl->keep : KEEP_MIN;
		if (sl->keep > KEEP_MAX)
			sl->keep = KEEP_MAX;
	}
	sl->trial = 0;
	sl->len = sl->keep;
	sl->meet = sl->won;
}

int vp__coll_shared(vp_comm *c, const struct vp__shared_key *k,
		    const void *sbuf, void *rbuf, vp__shared_move move,
		    int leaves_early)
{
	struct vp__rank *me = c->me;
	struct vp__sync *s;
	struct sync_member *m;
	unsigned long long was, instance;
	atomic_int *outcome;
	int p, o, r = vp_rank(c), slot, way = -1;

	if (!(s = sync_of(c->group)) || atomic_load(&s->off))
		return 0;
	p = c->group->size;
	m = &s->member[r];
	for (o = 0; o < m->nnever && o < NEVER_KEYS; o++)
		if (same_key(&m->never[o], k))
			return 0;
	if (leaves_early && me->world->shared_colls == VP__SHARED_DEFAULT &&
	    !way_meets(s, m, k, &way))
		return 0;
	m->comm = c;
	m->call = me->coll_state.call;
	m->hash = me->coll_state.hash;
	m->ctx = me->coll_state.ctx;
	m->keyed = 1;
	m->key = *k;
	m->can = !me->reqs.nlive;
	m->bufs = (struct vp__shared_bufs){ sbuf, rbuf };
	/* publishes the member (release); the last arrival's add acquires
	 * them all. Every member waits for the verdict: one that left early
	 * (sending its messages) could count itself into this instance
	 * again from its next call. */
	was = atomic_fetch_add(&s->word, 1);
	instance = was >> 32;
	outcome = &s->outcome[instance & 1];
	if ((int)(was & 0xffffffffu) + 1 == p) {
		o = SYNC_OPEN;
		if (atomic_compare_exchange_strong(outcome, &o,
						   SYNC_COMPUTING))
			o = decide(s, c, instance, move);
		if (way >= 0 && o == SYNC_DONE)
			way_next(&s->slot[way]);
		slot = s->record[instance & 1];
		if (o == SYNC_DONE)
			atomic_fetch_add(&me->world->shared_calls, 1);
		close_instance(s, c, instance, o);
	} else {
		o = await_outcome(s, c, outcome, atomic_load(&me->doing));
		if (o < 0)
			return o;
		slot = s->record[instance & 1];
	}
	if (o == SYNC_DONE)
		return 1;
	if (slot >= 0)
		vp__script_begin(me, vp__script_of(s->slot[slot].scripts, r));
	else if (slot == RECORD_NEVER)
		m->never[m->nnever++ % NEVER_KEYS] = *k;
	return 0;
}

void vp__coll_shared_end(vp_comm *c, int rc)
{
	if (c->me->script)
		vp__script_end(c->me, rc);
}

