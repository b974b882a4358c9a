/*
 * split_slots.c - vp_comm_split and vp_comm_create without messages, where
 * every rank of the run shares this process: the members meet at a slot
 * of the parent group instead of gathering their (color, key) entries at
 * rank 0 and receiving the table back.
 *
 * A member's n-th split of a communicator (c->split_seq, the same on every
 * member, as MPI requires collectives on one communicator to be called in
 * one order) meets at slot n of the group's table (g->splits, under the
 * world's group_lock). It writes its entry there; the last to arrive
 * works out the verdict (the new groups' ids, taken from its own ids, and
 * vp_comm_create's check), marks the slot done and wakes the others, each
 * of which copies the table out and takes its leave; the last to leave
 * frees the slot. A split blocks until every member has arrived, so a
 * member is at most one split ahead: the table holds the slots numbered
 * lo .. lo + n - 1, taken and freed from the front.
 *
 * When every rank of the run is blocked before all members have arrived
 * (a member is in another call), the deadlock check gives the waits up:
 * the slot then says MESSAGES, and each of its members, those waiting and
 * those still to come, exchanges the entries by messages instead, which
 * block where a split's messages block: the deadlock report names each
 * rank's call, as with the messages alone.
 *
 * Like the exchange by messages, the meeting is outside the model clock
 * (a split is set-up, not part of an algorithm's cost). A traced run and
 * a seeded run (vp_opts.schedule) exchange by messages: the trace shows
 * them, and the schedule chooses among them as among any others.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

enum { SLOT_OPEN, SLOT_DONE, SLOT_MESSAGES };

/* An invariant of the table broke: a bug of vp's, not of the program. */
#define BROKEN(what)                                                        \
	do {                                                                \
		fprintf(stderr, "vp: %s:%d: %s\n", __FILE__, __LINE__, what); \
		abort();                                                    \
	} while (0)

struct split_slot {
	atomic_int state; /* SLOT_*: the wait's flag */
	int arrived, left, check;
	int table[]; /* the members' entries, then the verdict */
};

struct vp__splits {
	unsigned long lo;
	int head, n, cap;
	struct split_slot **slot; /* slot[(head + i) % cap]: number lo + i */
};

void vp__splits_free(struct vp__group *g)
{
	struct vp__splits *t = g->splits;
	int i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->slot[(t->head + i) % t->cap]);
	free(t->slot);
	free(t);
	g->splits = NULL;
}

int vp__split_slots_may(const vp_comm *c)
{
	const struct vp__world *w = c->world;

	/* not in a seeded run: its schedule chooses among the messages of
	 * the gather and broadcast as among any others, and the exploration
	 * budgets assume those choices */
	return w->local_count == w->p && vp__tx(c->me)->wait_flag &&
	       !w->trace.on && !w->scheduled && c->group->size > 1;
}

/* Slot seq of g's table, added when it is the next one (the caller holds
 * group_lock): NULL when out of memory. */
static struct split_slot *slot_at(struct vp__group *g, unsigned long seq,
				  size_t ints)
{
	struct vp__splits *t = g->splits;
	struct split_slot **s, *sl;
	int i, cap;

	if (!t && !(t = g->splits = calloc(1, sizeof(*t))))
		return NULL;
	if (!t->n)
		t->lo = seq;
	if (seq < t->lo + (unsigned long)t->n)
		return t->slot[(t->head + (seq - t->lo)) % t->cap];
	if (seq != t->lo + (unsigned long)t->n)
		BROKEN("a split met past the group's next slot");
	if (t->n == t->cap) {
		cap = t->cap ? 2 * t->cap : 4;
		if (!(s = malloc((size_t)cap * sizeof(*s))))
			return NULL;
		for (i = 0; i < t->n; i++)
			s[i] = t->slot[(t->head + i) % t->cap];
		free(t->slot);
		t->slot = s;
		t->head = 0;
		t->cap = cap;
	}
	if (!(sl = calloc(1, sizeof(*sl) + ints * sizeof(int))))
		return NULL;
	atomic_init(&sl->state, SLOT_OPEN);
	t->slot[(t->head + t->n++) % t->cap] = sl;
	return sl;
}

/* This member is done with slot seq; the last to leave frees it (the
 * caller holds group_lock). */
static void slot_leave(struct vp__group *g, struct split_slot *sl)
{
	struct vp__splits *t = g->splits;

	if (++sl->left < g->size)
		return;
	if (t->slot[t->head] != sl)
		BROKEN("a split's slot left out of order");
	t->head = (t->head + 1) % t->cap;
	t->lo++;
	t->n--;
	free(sl);
}

/* Waits for the slot's verdict: SLOT_DONE or SLOT_MESSAGES (the deadlock
 * check gave the wait up), or a VP_E* code. */
static int await(vp_comm *c, struct split_slot *sl, const char *call)
{
	struct vp__rank *me = c->me;
	int s, rc, open;

	for (;;) {
		s = atomic_load(&sl->state);
		if (s != SLOT_OPEN)
			return s;
		rc = vp__tx(me)->wait_flag(me->tx, &sl->state, s);
		if (rc == 1) {
			open = SLOT_OPEN;
			if (atomic_compare_exchange_strong(
				&sl->state, &open, SLOT_MESSAGES))
				vp__wake_members(c, &sl->state);
		} else if (rc) {
			return vp__fail(me, rc, call,
					"waiting for the other ranks: %s",
					vp_strerror(rc));
		}
	}
}

/*
 * The members' table at every member of c, as vp_comm_split's exchange by
 * messages leaves it: `ints` ints a member from mine, then `len` ints in
 * all with the verdict the last arrival's verdict() writes (check: one
 * member asked for vp_comm_create's check; scratch: room for one int a
 * member). VP_OK, 1 when the members must exchange by messages, or the
 * error.
 */
int vp__split_meet(vp_comm *c, unsigned long seq, const int *mine,
		   size_t ints, size_t len, int check, int *table,
		   vp__split_verdict *verdict, int *scratch, const char *call)
{
	struct vp__world *w = c->world;
	struct vp__group *g = c->group;
	struct split_slot *sl;
	int rc = VP_OK, s, open = SLOT_OPEN;

	pthread_mutex_lock(&w->group_lock);
	if (!(sl = slot_at(g, seq, len))) {
		pthread_mutex_unlock(&w->group_lock);
		return vp__fail(c->me, VP_ENOMEM, call, "no memory");
	}
	if (atomic_load(&sl->state) == SLOT_MESSAGES) {
		slot_leave(g, sl);
		pthread_mutex_unlock(&w->group_lock);
		return 1;
	}
	memcpy(sl->table + ints * (size_t)c->rank, mine, ints * sizeof(int));
	sl->check |= check;
	if (++sl->arrived == g->size) {
		rc = verdict(c, sl->table, sl->check, scratch, call);
		if (!atomic_compare_exchange_strong(&sl->state, &open,
						    SLOT_DONE))
			rc = VP_OK; /* given up meanwhile: messages */
		else
			vp__wake_members(c, &sl->state);
	}
	pthread_mutex_unlock(&w->group_lock);
	s = rc ? rc : await(c, sl, call);
	if (s < 0)
		return s; /* the run is failing: the group's end frees it */
	pthread_mutex_lock(&w->group_lock);
	if (s == SLOT_DONE)
		memcpy(table, sl->table, len * sizeof(int));
	slot_leave(g, sl);
	pthread_mutex_unlock(&w->group_lock);
	return s == SLOT_DONE ? VP_OK : 1;
}
