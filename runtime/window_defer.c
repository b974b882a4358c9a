/*
 * window_defer.c - a seeded run's puts that reach their target late.
 *
 * In a passive-target epoch MPI completes a put at the target only by the
 * origin's next vp_win_flush, vp_win_flush_all, vp_win_unlock or
 * vp_win_unlock_all (MPI 4.0, sec. 12.5.4; "MPI_Win_flush completes all
 * outstanding RMA operations initiated by the calling process to the
 * target rank"): until then the target's memory may or may not hold it.
 * Ranks sharing memory would always hold it at once, hiding a program
 * that reads the target's memory after a message instead of after the
 * origin's flush. A seeded run draws, for each put to another rank in a
 * lock epoch, whether it is kept back: the data is copied (the origin's
 * buffer may be reused) and written at the origin's next flush or unlock
 * of that target. Once one put to a target is kept back, the later ones
 * to it are too, so that they land in the order they were made. The
 * model's times are charged at the put, as for every other put.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "window.h"

struct win_deferred {
	struct win_deferred *next;
	int target;
	size_t offset, n;
	unsigned char data[];
};

/* Whether target has a put of w kept back. */
static int pending(const vp_win *w, int target)
{
	const struct win_deferred *d;

	for (d = w->deferred; d; d = d->next)
		if (d->target == target)
			return 1;
	return 0;
}

int vp__win_defer_put(vp_win *w, int target, size_t offset, const void *buf,
		      size_t n)
{
	struct vp__sched *s = vp__world_sched(w->comm->me->world);
	struct win_deferred *d, **tail;

	if (!s || !n || !w->nheld || !w->held || !w->held[target] ||
	    target == w->comm->rank)
		return 0;
	if (!pending(w, target) && !vp__sched_draw(s, 2, VP__CHOICE_PUT))
		return 0;
	if (!(d = malloc(sizeof(*d) + n)))
		return 0; /* no memory for the copy: written at once */
	d->next = NULL;
	d->target = target;
	d->offset = offset;
	d->n = n;
	memcpy(d->data, buf, n);
	for (tail = &w->deferred; *tail; tail = &(*tail)->next)
		;
	*tail = d;
	return 1;
}

void vp__win_defer_land(vp_win *w, int target)
{
	struct win_deferred *d, **at = &w->deferred;

	while ((d = *at)) {
		if (target >= 0 && d->target != target) {
			at = &d->next;
			continue;
		}
		memmove(vp__win_at(w, d->target, d->offset), d->data, d->n);
		*at = d->next;
		free(d);
	}
}

void vp__win_defer_free(vp_win *w)
{
	struct win_deferred *d;

	while ((d = w->deferred)) {
		w->deferred = d->next;
		free(d);
	}
}
