/*
 * coll_sync.c - the dissemination barrier without its messages
 * (vp_coll_dissemination), where the ranks share memory.
 *
 * The book's barrier (Hensgen, Finkel and Manber 1988; Grama et al.,
 * sec. 4.2.3's pattern with empty messages) takes ceil(log2 p) rounds; in
 * round k rank i sends to i + 2^k and receives from i - 2^k. With more
 * ranks than CPUs each round needs every rank's thread to have run once:
 * measured on 2 vCPUs at p = 64, the rounds alone (a flag per rank and
 * round, threads that only yield) take 84-93 us, the messages about
 * 160-180 us, a single shared counter 32-47 us. So the ranks meet at one
 * counter, and the last to arrive charges every rank's model clock with
 * the rounds' messages, calling the clock's own send and receive rules
 * in round order (vp__clock_send, vp__clock_recv, the model log): the
 * model times, counts and logs are those of the messages, bit for bit.
 *
 * Only when the run's ranks outnumber the CPUs: where they all run at
 * once the messages are faster, since the last arrival's writes to every
 * rank's clock move those lines between CPUs (p = 2 on 2 vCPUs: 0.30 us a
 * barrier with the messages, 0.96 us without).
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
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

enum { SYNC_OPEN, SYNC_COMPUTING, SYNC_DONE, SYNC_MESSAGES };

struct sync_member {
	vp_comm *comm; /* the member's collective communicator */
	uint32_t call, hash;
	int ctx;
	/* the last arrival's scratch for the rounds */
	struct vp__envelope env;
	double send_end;
	int hops;
};

struct vp__sync {
	_Alignas(VP__CACHELINE) atomic_ullong word;
	_Alignas(VP__CACHELINE) atomic_int outcome[2];
	struct sync_member member[]; /* by rank of the group */
};

/* The group's state, made by whichever member comes first. */
static struct vp__sync *sync_of(struct vp__group *g)
{
	struct vp__sync *s = atomic_load(&g->sync), *mine = NULL;
	size_t bytes;

	if (s)
		return s;
	bytes = sizeof(*s) + (size_t)g->size * sizeof(struct sync_member);
	mine = aligned_alloc(VP__CACHELINE,
			     (bytes + VP__CACHELINE - 1) / VP__CACHELINE *
				 VP__CACHELINE);
	if (!mine)
		return NULL;
	memset(mine, 0, bytes);
	if (atomic_compare_exchange_strong(&g->sync, &s, mine))
		return mine;
	free(mine);
	return s;
}

void vp__sync_free(struct vp__group *g)
{
	free(atomic_load(&g->sync));
	atomic_store(&g->sync, NULL);
}

/* Wakes every member (a waker's store of the outcome came first). */
static void wake_members(const vp_comm *c)
{
	const struct vp__transport *tx = vp__tx(c->me);
	int i;

	for (i = 0; i < c->group->size; i++)
		if (vp__to_world(c, i) != c->me->world_rank)
			tx->wake_rank(c->me->tx, vp__to_world(c, i));
}

/* The instance ends in messages, unless its last arrival already took it. */
static void say_messages(const vp_comm *c, atomic_int *outcome)
{
	int open = SYNC_OPEN;

	if (atomic_compare_exchange_strong(outcome, &open, SYNC_MESSAGES))
		wake_members(c);
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
	if (!tx->wait_flag || !tx->crowded(me->tx) || !(s = sync_of(c->group)))
		return 0;
	p = c->group->size;
	m = &s->member[vp_rank(c)];
	m->comm = c;
	m->call = me->coll_state.call;
	m->hash = me->coll_state.hash;
	m->ctx = me->coll_state.ctx;
	can = !me->world->trace.on && !me->reqs.nlive;
	/* publishes m (release); the last arrival's add acquires them all */
	was = atomic_fetch_add(&s->word, 1);
	instance = was >> 32;
	outcome = &s->outcome[instance & 1];
	if (!can)
		say_messages(c, outcome);
	if ((int)(was & 0xffffffffu) + 1 == p) {
		o = SYNC_OPEN;
		if (atomic_compare_exchange_strong(outcome, &o,
						   SYNC_COMPUTING)) {
			o = all_alike(s, p) ? SYNC_DONE : SYNC_MESSAGES;
			for (rc = 1; o == SYNC_DONE && rc < p; rc <<= 1)
				charge_round(s, p, rc);
		}
		atomic_store(&s->outcome[(instance + 1) & 1], SYNC_OPEN);
		atomic_store(&s->word, (instance + 1) << 32);
		atomic_store(outcome, o); /* releases the clocks charged */
		wake_members(c);
		return o == SYNC_DONE;
	}
	for (;;) {
		o = atomic_load(outcome);
		if (o == SYNC_DONE || o == SYNC_MESSAGES)
			return o == SYNC_DONE;
		rc = tx->wait_flag(me->tx, outcome, o);
		if (rc == 1) /* every rank was blocked: show where, by messages */
			say_messages(c, outcome);
		else if (rc)
			return vp__fail(me, rc, "vp_barrier",
					"waiting for the other ranks: %s",
					vp_strerror(rc));
	}
}
