/*
 * machine_limits.h - probes of what this machine allows, run in the same
 * process as the measurements they bound (vp-bench --basic), so that a
 * goal not met can be set against a measured limit, not an estimate.
 *
 *   barrier_futex   the fastest a barrier can be that parks its waiters
 *                   and wakes each once: p threads in glibc's
 *                   pthread_barrier_wait (one futex wake for all).
 *   barrier_yield   the fastest a barrier can be whose waiters never
 *                   park: one shared counter, waiters call sched_yield
 *                   until the last arrival bumps the generation. Neither
 *                   barrier sends a message or computes a model time.
 *   thread_start    the fastest p rank threads can be started and joined
 *                   as vp starts them: every stack a slice of one mapping
 *                   (no guard pages, no signal stacks), a thread function
 *                   that returns at once.
 * Each answers microseconds (per barrier, or for the whole start), or a
 * negative number when threads could not be made.
 */
#ifndef VP_BENCH_MACHINE_LIMITS_H
#define VP_BENCH_MACHINE_LIMITS_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "bench_rows.h" /* now_us */

struct limits_barrier {
	pthread_barrier_t futex;
	_Alignas(64) atomic_int arrived;
	_Alignas(64) atomic_int generation;
	int p, iters, yielding;
};

static void limits_yield_barrier(struct limits_barrier *b)
{
	int g = atomic_load(&b->generation);

	if (atomic_fetch_add(&b->arrived, 1) == b->p - 1) {
		atomic_store(&b->arrived, 0);
		atomic_fetch_add(&b->generation, 1);
		return;
	}
	while (atomic_load(&b->generation) == g)
		sched_yield();
}

static void *limits_barrier_thread(void *arg)
{
	struct limits_barrier *b = arg;
	int i;

	for (i = 0; i < b->iters; i++) {
		if (b->yielding)
			limits_yield_barrier(b);
		else
			pthread_barrier_wait(&b->futex);
	}
	return NULL;
}

/* Microseconds per barrier of p threads, iters barriers after a tenth as
 * many to warm up; the whole loop of every thread counts. */
static double limits_barrier_us(int p, int iters, int yielding)
{
	struct limits_barrier b = { .p = p, .yielding = yielding };
	pthread_t *t = calloc((size_t)p, sizeof(*t));
	double t0, us;
	int i, made = 0, warm = iters / 10 + 1;

	if (!t)
		return -1;
	pthread_barrier_init(&b.futex, NULL, (unsigned)p);
	atomic_init(&b.arrived, 0);
	atomic_init(&b.generation, 0);
	b.iters = warm;
	for (i = 0; i < p; i++)
		made += !pthread_create(&t[i], NULL, limits_barrier_thread, &b);
	for (i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	if (made < p) {
		free(t);
		pthread_barrier_destroy(&b.futex);
		return -1;
	}
	b.iters = iters;
	t0 = now_us();
	for (i = 0; i < p; i++)
		pthread_create(&t[i], NULL, limits_barrier_thread, &b);
	for (i = 0; i < p; i++)
		pthread_join(t[i], NULL);
	us = (now_us() - t0) / iters;
	pthread_barrier_destroy(&b.futex);
	free(t);
	return us;
}

static void *limits_return(void *arg)
{
	return arg;
}

/* Microseconds to start and join p threads whose stacks (stack bytes
 * each) are slices of one mapping. */
static double limits_thread_start_us(int p, size_t stack)
{
	char *base = mmap(NULL, stack * (size_t)p, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pthread_t *t = calloc((size_t)p, sizeof(*t));
	pthread_attr_t attr;
	double t0, us;
	int i, made = 0;

	if (base == MAP_FAILED || !t) {
		free(t);
		if (base != MAP_FAILED)
			munmap(base, stack * (size_t)p);
		return -1;
	}
	t0 = now_us();
	for (i = 0; i < p; i++) {
		pthread_attr_init(&attr);
		pthread_attr_setstack(&attr, base + stack * (size_t)i, stack);
		if (!pthread_create(&t[made], &attr, limits_return, NULL))
			made++;
		pthread_attr_destroy(&attr);
	}
	for (i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	us = now_us() - t0;
	munmap(base, stack * (size_t)p);
	free(t);
	return made == p ? us : -1;
}

#endif /* VP_BENCH_MACHINE_LIMITS_H */
