/*
 * machine_limits.c - probes of what this machine allows, run in the same
 * process as the measurements they bound (machine_limits.h says what each
 * probe is, and what it bounds).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_rows.h" /* now_us */

#include "machine_limits.h"

struct limits_flag {
	_Alignas(64) atomic_int epoch; /* the last barrier that set it */
};

struct limits_barrier {
	pthread_barrier_t futex;
	_Alignas(64) atomic_int arrived;
	_Alignas(64) atomic_int generation;
	struct limits_flag *flags; /* LIMITS_ROUNDS: rounds per thread */
	double *span; /* LIMITS_AFTER_BARRIER: [iteration][thread], us */
	int p, rounds, iters;
	enum limits_barrier_kind kind;
};

struct limits_thread {
	struct limits_barrier *b;
	int rank;
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

/* Barrier number epoch (from 1) of thread i, by dissemination (Hensgen,
 * Finkel and Manber 1988): in round k, flag k of thread i + 2^k is set and
 * flag k of thread i awaited. A flag holds the epoch that set it, so it
 * never needs a reset. */
static void limits_rounds_barrier(struct limits_barrier *b, int i, int epoch)
{
	int k, d;

	for (k = 0, d = 1; d < b->p; k++, d *= 2) {
		atomic_store(&b->flags[((i + d) % b->p) * b->rounds + k].epoch,
			     epoch);
		while (atomic_load(&b->flags[i * b->rounds + k].epoch) < epoch)
			sched_yield();
	}
}

/* Broadcast number epoch (from 1) down the binomial tree rooted at
 * thread 0: thread i waits for its flag, then sets the flags of i + d for
 * every power of two d > i, the largest first (the book's recursive
 * halving: the root's first message crosses half the threads). */
static void limits_tree_bcast(struct limits_barrier *b, int i, int epoch)
{
	int d;

	if (i > 0)
		while (atomic_load(&b->flags[i].epoch) < epoch)
			sched_yield();
	for (d = 1; d < b->p; d *= 2)
		;
	for (d /= 2; d > i; d /= 2)
		if (i + d < b->p)
			atomic_store(&b->flags[i + d].epoch, epoch);
}

static void *limits_barrier_thread(void *arg)
{
	struct limits_thread *t = arg;
	struct limits_barrier *b = t->b;
	int i;

	for (i = 0; i < b->iters; i++) {
		if (b->kind == LIMITS_ROUNDS)
			limits_rounds_barrier(
			    b, t->rank, atomic_load(&b->generation) + i + 1);
		else if (b->kind == LIMITS_YIELD)
			limits_yield_barrier(b);
		else if (b->kind == LIMITS_AFTER_BARRIER ||
			 b->kind == LIMITS_TREE_AFTER_BARRIER) {
			double t0;

			limits_yield_barrier(b);
			t0 = now_us();
			if (b->kind == LIMITS_TREE_AFTER_BARRIER)
				limits_tree_bcast(b, t->rank, i + 1);
			else
				limits_yield_barrier(b);
			b->span[(size_t)i * (size_t)b->p + (size_t)t->rank] =
			    now_us() - t0;
		} else
			pthread_barrier_wait(&b->futex);
	}
	return NULL;
}

/* Starts p threads that make b->iters barriers each and joins them:
 * 0, or -1 when not every thread could be made. */
static int limits_barrier_loop(struct limits_barrier *b, pthread_t *t,
			       struct limits_thread *arg)
{
	int i, made = 0, failed = 0;

	for (i = 0; i < b->p; i++) {
		arg[i] = (struct limits_thread){ b, i };
		if (!pthread_create(&t[made], NULL, limits_barrier_thread,
				    &arg[i]))
			made++;
		else
			failed = 1;
	}
	for (i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	return failed ? -1 : 0;
}

/* Microseconds per barrier of p threads, iters barriers after a tenth as
 * many to warm up; the whole loop of every thread counts. */
double limits_barrier_us(int p, int iters, enum limits_barrier_kind kind)
{
	struct limits_barrier b = { .p = p, .kind = kind };
	pthread_t *t = calloc((size_t)p, sizeof(*t));
	struct limits_thread *arg = calloc((size_t)p, sizeof(*arg));
	double t0, us = -1;

	for (b.rounds = 0; (1 << b.rounds) < p; b.rounds++)
		;
	b.flags = aligned_alloc(64, sizeof(struct limits_flag) * (size_t)p *
					(size_t)(b.rounds + 1));
	if (!t || !arg || !b.flags)
		goto out;
	memset(b.flags, 0,
	       sizeof(struct limits_flag) * (size_t)p * (size_t)(b.rounds + 1));
	pthread_barrier_init(&b.futex, NULL, (unsigned)p);
	atomic_init(&b.arrived, 0);
	atomic_init(&b.generation, 0);
	b.iters = iters / 10 + 1;
	if (limits_barrier_loop(&b, t, arg) == 0) {
		/* the rounds' epochs go on from the warm-up's */
		atomic_store(&b.generation, b.iters);
		b.iters = iters;
		t0 = now_us();
		if (limits_barrier_loop(&b, t, arg) == 0)
			us = (now_us() - t0) / iters;
	}
	pthread_barrier_destroy(&b.futex);
out:
	free(b.flags);
	free(arg);
	free(t);
	return us;
}

/* Microseconds of the call after a barrier (above: kind is
 * LIMITS_AFTER_BARRIER, a meeting, or LIMITS_TREE_AFTER_BARRIER, a tree
 * broadcast): the median over iters calls of the slowest thread's time,
 * after a tenth as many to warm up. */
double limits_after_barrier_us(int p, int iters, enum limits_barrier_kind kind)
{
	struct limits_barrier b = { .p = p, .kind = kind };
	pthread_t *t = calloc((size_t)p, sizeof(*t));
	struct limits_thread *arg = calloc((size_t)p, sizeof(*arg));
	double *slowest = calloc((size_t)iters, sizeof(double)), us = -1;
	size_t flags = sizeof(struct limits_flag) * (size_t)p;
	int i, j;

	b.span = calloc((size_t)p * (size_t)iters, sizeof(double));
	b.flags = aligned_alloc(64, flags);
	if (!t || !arg || !slowest || !b.span || !b.flags)
		goto out;
	memset(b.flags, 0, flags);
	atomic_init(&b.arrived, 0);
	atomic_init(&b.generation, 0);
	b.iters = iters / 10 + 1;
	if (limits_barrier_loop(&b, t, arg) == 0) {
		/* the broadcasts' epochs start again from 1 */
		memset(b.flags, 0, flags);
		b.iters = iters;
		if (limits_barrier_loop(&b, t, arg) == 0) {
			for (i = 0; i < iters; i++)
				for (j = 0; j < p; j++)
					if (b.span[(size_t)i * p + j] >
					    slowest[i])
						slowest[i] =
						    b.span[(size_t)i * p + j];
			qsort(slowest, (size_t)iters, sizeof(double),
			      cmp_double);
			us = slowest[iters / 2];
		}
	}
out:
	free(b.flags);
	free(b.span);
	free(slowest);
	free(arg);
	free(t);
	return us;
}

struct limits_exchange {
	_Alignas(64) atomic_uint flag0; /* thread 0's: the round it got */
	_Alignas(64) atomic_uint flag1;
	/* in[i][k % 2]: what thread i gets in round k. Two, so that a thread
	 * writes round k + 1 while the other may still read round k. */
	unsigned char *in[2][2], *own[2], *out[2];
	size_t bytes;
	unsigned iters;
	int one_way; /* a ping-pong: thread 1 answers thread 0 */
	double us;   /* thread 0's time a round */
};

struct limits_exchanger {
	struct limits_exchange *x;
	int i;
};

static void limits_exchange_send(struct limits_exchange *x, atomic_uint *theirs,
				 unsigned char *to, const unsigned char *from,
				 unsigned k)
{
	if (x->bytes)
		memcpy(to, from, x->bytes);
	atomic_store_explicit(theirs, k, memory_order_release);
}

static void *limits_exchange_thread(void *arg)
{
	struct limits_exchanger *e = arg;
	struct limits_exchange *x = e->x;
	int i = e->i, o = 1 - i;
	atomic_uint *mine = i ? &x->flag1 : &x->flag0;
	atomic_uint *theirs = i ? &x->flag0 : &x->flag1;
	double t0 = now_us();
	unsigned k;

	for (k = 1; k <= x->iters; k++) {
		int answer = x->one_way && i == 1;

		if (!answer)
			limits_exchange_send(x, theirs, x->in[o][k % 2],
					     x->own[i], k);
		while (atomic_load_explicit(mine, memory_order_acquire) < k)
			; /* two threads, two CPUs: spin, as the line probe does
			   */
		if (x->bytes)
			memcpy(x->out[i], x->in[i][k % 2], x->bytes);
		if (answer)
			limits_exchange_send(x, theirs, x->in[o][k % 2],
					     x->own[i], k);
	}
	if (!i)
		x->us = (now_us() - t0) / x->iters;
	return NULL;
}

/* Microseconds per exchange of bytes between two threads (iters rounds
 * after a tenth as many to warm up), or with one_way per one-way message
 * of a ping-pong; -1 when no thread could be made. */
double limits_exchange_us(size_t bytes, unsigned iters, int one_way)
{
	struct limits_exchange *x = aligned_alloc(64, sizeof(*x));
	size_t each = bytes ? (bytes + 63) / 64 * 64 : 64;
	unsigned char *pool = aligned_alloc(64, 8 * each);
	struct limits_exchanger e[2];
	double us = -1;
	pthread_t t;
	int i, round;

	if (!x || !pool)
		goto out;
	memset(x, 0, sizeof(*x));
	memset(pool, 1, 8 * each);
	for (i = 0; i < 2; i++) {
		x->in[i][0] = pool + (size_t)(4 * i) * each;
		x->in[i][1] = pool + (size_t)(4 * i + 1) * each;
		x->own[i] = pool + (size_t)(4 * i + 2) * each;
		x->out[i] = pool + (size_t)(4 * i + 3) * each;
		e[i] = (struct limits_exchanger){ x, i };
	}
	x->bytes = bytes;
	x->one_way = one_way;
	for (round = 0; round < 2; round++) { /* a warm-up, then the count */
		atomic_store(&x->flag0, 0);
		atomic_store(&x->flag1, 0);
		x->iters = round ? iters : iters / 10 + 1;
		if (pthread_create(&t, NULL, limits_exchange_thread, &e[1]))
			goto out;
		limits_exchange_thread(&e[0]);
		pthread_join(t, NULL);
	}
	us = one_way ? x->us / 2 : x->us;
out:
	free(pool);
	free(x);
	return us;
}

static void *limits_return(void *arg)
{
	return arg;
}

/* Threads held until the last has started, then let go together. */
struct limits_gate {
	pthread_mutex_t lock;
	pthread_cond_t open;
	int opened;
};

static void *limits_meet(void *arg)
{
	struct limits_gate *g = arg;

	pthread_mutex_lock(&g->lock);
	while (!g->opened)
		pthread_cond_wait(&g->open, &g->lock);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* One creator's share of the threads: [lo, hi), made counts them. */
struct limits_creator {
	pthread_t *t;
	char *base;
	size_t stack;
	struct limits_gate *gate;
	int lo, hi, meet, made;
	char *ok; /* ok[i]: thread i was made */
};

static void *limits_create(void *arg)
{
	struct limits_creator *cr = arg;
	pthread_attr_t attr;
	int i;

	for (i = cr->lo; i < cr->hi; i++) {
		pthread_attr_init(&attr);
		pthread_attr_setstack(&attr, cr->base + cr->stack * (size_t)i,
				      cr->stack);
		cr->ok[i] = !pthread_create(
		    &cr->t[i], &attr, cr->meet ? limits_meet : limits_return,
		    cr->gate);
		cr->made += cr->ok[i];
		pthread_attr_destroy(&attr);
	}
	return NULL;
}

/* Microseconds to start and join p threads whose stacks (stack bytes
 * each) are slices of one mapping. meet = 0: each returns at once, so the
 * kernel reuses what the last one freed; meet = 1: each waits until the
 * last has started, as a run's ranks are all alive at once (their first
 * barrier or a ring's exchange needs them so). Made as vp_run makes its
 * ranks' threads (runtime/threads/transport.c): from p = 256 on a machine
 * of two CPUs or more by two creators, each half of them. */
double limits_thread_start_us(int p, size_t stack, int meet)
{
	char *base = mmap(NULL, stack * (size_t)p, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pthread_t *t = calloc((size_t)p, sizeof(*t)), helper;
	char *ok = calloc((size_t)p, 1);
	struct limits_gate gate = { PTHREAD_MUTEX_INITIALIZER,
				    PTHREAD_COND_INITIALIZER, 0 };
	struct limits_creator cr[2];
	double t0, us;
	int i, two;

	if (base == MAP_FAILED || !t || !ok) {
		free(t);
		free(ok);
		if (base != MAP_FAILED)
			munmap(base, stack * (size_t)p);
		return -1;
	}
	cr[0] =
	    (struct limits_creator){ t, base, stack, &gate, 0, p, meet, 0, ok };
	cr[1] = cr[0];
	two = p >= 256 && sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	t0 = now_us();
	if (two) {
		cr[0].hi = cr[1].lo = p / 2;
		if (pthread_create(&helper, NULL, limits_create, &cr[1])) {
			two = 0;
			cr[0].hi = p;
		}
	}
	limits_create(&cr[0]);
	if (two)
		pthread_join(helper, NULL);
	pthread_mutex_lock(&gate.lock);
	gate.opened = 1;
	pthread_cond_broadcast(&gate.open);
	pthread_mutex_unlock(&gate.lock);
	for (i = 0; i < p; i++)
		if (ok[i])
			pthread_join(t[i], NULL);
	us = now_us() - t0;
	munmap(base, stack * (size_t)p);
	free(t);
	free(ok);
	return cr[0].made + (two ? cr[1].made : 0) == p ? us : -1;
}
