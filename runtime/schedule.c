/*
 * schedule.c - the generator and the policy of a deterministic schedule
 * (schedule.h): which ready rank runs next, and the other choices MPI's
 * semantics leave open, all drawn from one seed.
 *
 * Generator: xoshiro256** (Blackman and Vigna, "Scrambled linear
 * pseudorandom number generators", 2021), its state filled from the seed
 * by splitmix64 (Steele, Lea and Flood, OOPSLA 2014). Bounded draws by
 * Lemire's multiply-and-reject ("Fast random integer generation in an
 * interval", 2019), so that a draw depends only on the state.
 *
 * Policies:
 *   depth 0  every ready rank is equally likely to run next.
 *   depth d  PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte, "A
 *            randomized scheduler with probabilistic guarantees of
 *            finding bugs", ASPLOS 2010): the ranks get distinct random
 *            priorities d .. d + p - 1 and the highest ready one runs;
 *            at d - 1 steps drawn from 1 .. K the running rank's
 *            priority drops to d - i (below every initial one). K is an
 *            estimate of a run's scheduling points (STEPS_PER_RANK a
 *            rank, at least STEPS_MIN): a run with more has its changes
 *            among its first K points.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedule.h"

#define STEPS_PER_RANK 32
#define STEPS_MIN 256
/* A PCT change: its step above CHANGE_SHIFT bits, its number below. */
#define CHANGE_SHIFT 24
#define CHANGE_MASK ((UINT64_C(1) << CHANGE_SHIFT) - 1)

static int by_step(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t next(struct vp__sched *s)
{
	uint64_t *q = s->rng;
	uint64_t out = rotl(q[1] * 5, 7) * 9, t = q[1] << 17;

	q[2] ^= q[0];
	q[3] ^= q[1];
	q[1] ^= q[2];
	q[0] ^= q[3];
	q[2] ^= t;
	q[3] = rotl(q[3], 45);
	return out;
}

/* Uniform in [0, n), n >= 1. */
static uint64_t below(struct vp__sched *s, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)next(s) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t floor = -n % n;

		while (low < floor) {
			m = (unsigned __int128)next(s) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));

	return splitmix64(&x);
}

int vp__sched_init(struct vp__sched *s, uint64_t seed, int depth, int p)
{
	uint64_t x = seed, k;
	int i;

	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->depth = depth;
	s->p = p;
	s->running = -1;
	for (i = 0; i < 4; i++)
		s->rng[i] = splitmix64(&x);
	s->buffering = (int)vp__sched_draw(s, 3, VP__CHOICE_SETUP);
	if (!depth)
		return VP_OK;
	s->prio = malloc((size_t)p * sizeof(*s->prio));
	s->change = malloc((size_t)depth * sizeof(*s->change));
	if (!s->prio || !s->change) {
		vp__sched_free(s);
		return VP_ENOMEM;
	}
	/* a random permutation of d .. d + p - 1 (Fisher-Yates) */
	for (i = 0; i < p; i++)
		s->prio[i] = depth + i;
	for (i = p - 1; i > 0; i--) {
		int j = (int)vp__sched_draw(s, (uint64_t)i + 1,
					    VP__CHOICE_SETUP);
		int t = s->prio[i];

		s->prio[i] = s->prio[j];
		s->prio[j] = t;
	}
	k = (uint64_t)p * STEPS_PER_RANK;
	if (k < STEPS_MIN)
		k = STEPS_MIN;
	/* change i at a step in 1 .. k, in the order of their steps; the
	 * priority it sets (depth - 1 - i) rides in the low bits */
	s->nchange = depth - 1;
	for (i = 0; i < s->nchange; i++)
		s->change[i] = ((1 + vp__sched_draw(s, k, VP__CHOICE_SETUP))
				<< CHANGE_SHIFT) |
			       (uint64_t)i;
	qsort(s->change, (size_t)s->nchange, sizeof(*s->change), by_step);
	return VP_OK;
}

void vp__sched_free(struct vp__sched *s)
{
	free(s->prio);
	free(s->change);
	s->prio = NULL;
	s->change = NULL;
}

uint64_t vp__sched_draw(struct vp__sched *s, uint64_t n, unsigned what)
{
	uint64_t v;

	if (n < 2)
		return 0;
	v = below(s, n);
	s->choices++;
	s->schedule_hash = mix(s->schedule_hash, ((uint64_t)what << 56) ^ v);
	return v;
}

/* PCT: at a change point the running rank drops below all the others. */
static void pct_changes(struct vp__sched *s, int running)
{
	while (s->next_change < s->nchange &&
	       s->change[s->next_change] >> CHANGE_SHIFT <= s->steps) {
		uint64_t i = s->change[s->next_change++] & CHANGE_MASK;

		if (running >= 0)
			s->prio[running] = s->depth - 1 - (int)i;
	}
}

int vp__sched_pick(struct vp__sched *s, const int *ready, int n, int running)
{
	int i, best;

	s->steps++;
	if (s->depth) {
		pct_changes(s, running);
		best = ready[0];
		for (i = 1; i < n; i++)
			if (s->prio[ready[i]] > s->prio[best])
				best = ready[i];
	} else {
		best = ready[vp__sched_draw(s, (uint64_t)n, VP__CHOICE_RANK)];
	}
	if (best != running) {
		s->switches++;
		s->schedule_hash = mix(s->schedule_hash,
				       ((uint64_t)VP__CHOICE_RANK << 56) ^
					   (uint64_t)(unsigned)best);
	}
	s->running = best;
	return best;
}

void vp__sched_yield(struct vp__sched *s, int rank)
{
	int i, low = s->prio ? s->prio[rank] : 0;

	if (!s->depth)
		return;
	for (i = 0; i < s->p; i++)
		if (s->prio[i] < low)
			low = s->prio[i];
	if (low > INT_MIN + 1 && s->prio[rank] != low)
		s->prio[rank] = low - 1;
}

void vp__sched_note_match(struct vp__sched *s, int rank, int src)
{
	uint64_t v = ((uint64_t)(uint32_t)rank << 32) | (uint32_t)src;

	s->match_hash = mix(s->match_hash, v);
	s->schedule_hash = mix(s->schedule_hash,
			       ((uint64_t)VP__CHOICE_ANY << 56) ^ v);
}

int vp__sched_unbuffered(struct vp__sched *s)
{
	switch (s->buffering) {
	case VP__SCHED_BUFFER_NONE:
		return 1;
	case VP__SCHED_BUFFER_SOME:
		return (int)vp__sched_draw(s, 2, VP__CHOICE_BUFFER);
	}
	return 0;
}

int vp__sched_not_yet(struct vp__sched *s, unsigned *count)
{
	if (*count >= VP__SCHED_NOT_YET ||
	    !vp__sched_draw(s, 2, VP__CHOICE_TEST))
		return 0;
	(*count)++;
	return 1;
}

/* ---- what the last run did ---- */

static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;
static vp_schedule_info last;

void vp__sched_finish(const struct vp__sched *s)
{
	vp_schedule_info i = { s->seed, s->depth, s->choices, s->match_hash,
			       s->schedule_hash };
	const char *fd = getenv("VP_SCHEDULE_REPORT_FD");
	double v;

	pthread_mutex_lock(&last_lock);
	last = i;
	pthread_mutex_unlock(&last_lock);
	if (fd && *fd &&
	    !vp_setting_parse("VP_SCHEDULE_REPORT_FD", fd, 0, 1 << 20, 1, &v,
			      NULL, 0)) {
		char line[160];
		int n = snprintf(line, sizeof(line),
				 "vp-schedule seed=%" PRIu64
				 " depth=%d choices=%" PRIu64
				 " matches=%016" PRIx64 " schedule=%016" PRIx64
				 "\n",
				 i.seed, i.depth, i.choices, i.match_hash,
				 i.schedule_hash);
		if (n > 0 && write((int)v, line, (size_t)n) < 0)
			perror("vp: VP_SCHEDULE_REPORT_FD");
	}
}

void vp__sched_unseeded(void)
{
	pthread_mutex_lock(&last_lock);
	memset(&last, 0, sizeof(last));
	pthread_mutex_unlock(&last_lock);
}

int vp_schedule_last(vp_schedule_info *out)
{
	if (!out)
		return VP_EINVAL;
	pthread_mutex_lock(&last_lock);
	*out = last;
	pthread_mutex_unlock(&last_lock);
	return VP_OK;
}
