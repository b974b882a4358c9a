/*
 * schedule.h - the choices of a deterministic schedule (vp_opts.schedule).
 *
 * A seeded run lets exactly one rank run at a time (the transport hands
 * a baton over, threads/schedule.c), so everything its ranks do is a
 * function of the choices made here: which ready rank runs at each
 * scheduling point, which arrived message a wildcard takes first, whether
 * a standard send is buffered, whether a test sees a completion yet. The
 * choices come from one generator seeded with the run's seed; the state
 * is touched only by the rank that holds the baton (or vp_run's thread
 * before and after the ranks run), so it needs no lock: the hand-over is
 * a seq_cst store and load, which orders one holder's writes before the
 * next holder's reads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_SCHEDULE_H
#define VP_RUNTIME_SCHEDULE_H

#include <stdint.h>

#include "vp.h"

/* How the run's standard sends are buffered (drawn once from the seed). */
enum vp__sched_buffering {
	VP__SCHED_BUFFER_ALL,  /* every send that fits eager_max is buffered */
	VP__SCHED_BUFFER_NONE, /* none is: each waits for its receive */
	VP__SCHED_BUFFER_SOME, /* each send draws */
};

struct vp__sched {
	uint64_t seed;
	int depth; /* 0: uniform choices; d: PCT with d - 1 changes */
	int p;
	uint64_t rng[4]; /* xoshiro256** */
	uint64_t steps;  /* scheduling points passed */
	uint64_t choices, switches;
	uint64_t match_hash, schedule_hash;
	int buffering; /* enum vp__sched_buffering */
	int running;   /* the rank holding the baton, -1 none */
	/* PCT: prio[r] (higher runs first), and the steps at which the
	 * running rank's priority drops below every initial one */
	int *prio;
	uint64_t *change;
	int nchange, next_change;
};

/* A schedule for p ranks: VP_OK, or VP_ENOMEM. */
int vp__sched_init(struct vp__sched *s, uint64_t seed, int depth, int p);
void vp__sched_free(struct vp__sched *s);
/* A draw in [0, n); one choice point when n >= 2, hashed into the
 * schedule with what (a constant naming the kind of choice). */
uint64_t vp__sched_draw(struct vp__sched *s, uint64_t n, unsigned what);
/* The next rank to run of the n ready ones in ready[] (ascending world
 * ranks), at a scheduling point of rank running (-1: none runs). */
int vp__sched_pick(struct vp__sched *s, const int *ready, int n, int running);
/* PCT: rank polled in vain (a test or probe that found nothing), so it
 * drops below every rank's priority: ranks polling for each other take
 * turns, and none of them starves a lower-priority rank that the polls
 * wait for. Nothing under uniform choices. */
void vp__sched_yield(struct vp__sched *s, int rank);
/* Rank took its wildcard's message from world rank src. */
void vp__sched_note_match(struct vp__sched *s, int rank, int src);
/* Whether the standard send starting now is left unbuffered. */
int vp__sched_unbuffered(struct vp__sched *s);
/* Whether a test that found its operation complete says "not yet",
 * *count counting how often it did so for this operation (at most
 * VP__SCHED_NOT_YET times). */
#define VP__SCHED_NOT_YET 2
int vp__sched_not_yet(struct vp__sched *s, unsigned *count);
/* The run is over: what vp_schedule_last reports from now on, and the
 * line for VP_SCHEDULE_REPORT_FD. */
void vp__sched_finish(const struct vp__sched *s);
/* A run without a seed ended: vp_schedule_last says so. */
void vp__sched_unseeded(void);

/* Kinds of choices (hashed into schedule_hash with each draw). */
enum {
	VP__CHOICE_RANK = 1,
	VP__CHOICE_ARRIVAL,
	VP__CHOICE_BUFFER,
	VP__CHOICE_TEST,
	VP__CHOICE_ANY,
	VP__CHOICE_SETUP,
	VP__CHOICE_PUT,
};

#endif /* VP_RUNTIME_SCHEDULE_H */
