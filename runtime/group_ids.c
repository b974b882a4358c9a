/*
 * group_ids.c - the numbers of communicators' groups.
 *
 * A group's message contexts are id * VP__SPACES + space, ints, so ids stay
 * below (INT_MAX - VP__SPACES) / VP__SPACES. World rank w hands out the
 * ids 1 + w + p k (k = 0, 1, ...; the world's group is 0), so that the
 * members of a split in other processes derive a group's id from (w, k)
 * without a shared counter. Each rank keeps which of its k are in use
 * (a bitmap that doubles as it fills) and takes the lowest run of free
 * ones a split needs. Where every rank of the run shares this process, a
 * group's id is given back once its last member has left it and its
 * mailboxes are released (comm.c), so a run makes and frees communicators
 * without bound, and as many are live at once as memory holds. Across
 * processes (the mpi transport) no process sees every member leave: ids
 * are not given back there, and a rank hands out about 2^29 / p of them.
 *
 * Concurrency: a rank's bitmap is taken from by the rank itself and given
 * back to by whichever thread releases a group: both under the world's
 * id_lock, a lock under which no other is taken.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static int used(const struct vp__rank *r, long long k)
{
	return k / 64 < r->ids_words && (r->ids_used[k / 64] >> (k % 64)) & 1;
}

/* Marks k0 .. k0 + n - 1 used, the bitmap grown to hold them: 0 or -1. */
static int mark(struct vp__rank *r, int k0, int n)
{
	int need = (int)(((long long)k0 + n + 63) / 64), words, k;
	uint64_t *more;

	if (need > r->ids_words) {
		words = r->ids_words ? 2 * r->ids_words : 4;
		while (words < need)
			words *= 2;
		more = realloc(r->ids_used, (size_t)words * sizeof(*more));
		if (!more)
			return -1;
		memset(more + r->ids_words, 0,
		       (size_t)(words - r->ids_words) * sizeof(*more));
		r->ids_used = more;
		r->ids_words = words;
	}
	for (k = k0; k < k0 + n; k++)
		r->ids_used[k / 64] |= (uint64_t)1 << (k % 64);
	return 0;
}

int vp__ids_take(struct vp__rank *me, int n)
{
	struct vp__world *w = me->world;
	long long k, k0, run = 0;
	int got = -1;

	pthread_mutex_lock(&w->id_lock);
	for (k0 = k = me->ids_low; run < n; k++) {
		if (used(me, k)) {
			run = 0;
			k0 = k + 1;
		} else {
			run++;
		}
	}
	/* the last id's contexts must be ints */
	if (1 + me->world_rank + (long long)w->p * (k0 + n) <=
		(INT_MAX - VP__SPACES) / VP__SPACES &&
	    !mark(me, (int)k0, n)) {
		got = (int)k0;
		if (k0 == me->ids_low)
			me->ids_low = (int)k0 + n;
	}
	pthread_mutex_unlock(&w->id_lock);
	return got;
}

void vp__ids_give(struct vp__world *w, int id)
{
	struct vp__rank *r;
	int k;

	if (id <= 0 || w->local_count != w->p)
		return; /* the world's group, or members elsewhere */
	r = &w->ranks[(id - 1) % w->p];
	k = (id - 1) / w->p;
	pthread_mutex_lock(&w->id_lock);
	if (used(r, k)) {
		r->ids_used[k / 64] &= ~((uint64_t)1 << (k % 64));
		if (k < r->ids_low)
			r->ids_low = k;
	}
	pthread_mutex_unlock(&w->id_lock);
}

void vp__ids_free(struct vp__rank *r)
{
	free(r->ids_used);
	r->ids_used = NULL;
	r->ids_words = r->ids_low = 0;
}
