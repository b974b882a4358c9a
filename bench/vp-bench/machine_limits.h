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
 *                   until the last arrival bumps the generation.
 *   rounds_yield    the fastest the book's dissemination barrier can be
 *                   with waiters that never park: log2 p rounds in which
 *                   thread i sets a flag of thread i + 2^k and yields
 *                   until its own flag of the round is set. With more
 *                   threads than CPUs each round needs every thread to
 *                   have run once, so it costs about log2 p central
 *                   barriers. None of the three sends a message or
 *                   computes a model time.
 *   meeting_after_barrier  what vp-bench's loop times for a collective,
 *                   with the fastest meeting in place of the call: p
 *                   threads pass a yielding barrier, then meet at a
 *                   second one; a call's time is from a thread's leaving
 *                   the first to its leaving the second, the slowest
 *                   thread's, the median over the calls. With more threads
 *                   than CPUs the first to leave waits while the others
 *                   are run once to arrive and once more to leave: the
 *                   least a collective can take in that loop when all its
 *                   ranks wait for all (as vp's do when they meet).
 *   tree_after_barrier  the same loop with a broadcast whose threads
 *                   leave once their data is in, as Open MPI's do: after
 *                   the barrier, thread i > 0 yields until its parent in
 *                   the book's binomial tree (Grama et al., sec. 4.1)
 *                   has set i's flag, then sets its own children's flags,
 *                   the farthest first, and leaves. Nothing waits for
 *                   all, but each level waits for its parent's thread
 *                   to run again: the least a broadcast that forwards
 *                   its data down the tree can take in this loop. With
 *                   more threads than CPUs it is slower than the
 *                   meeting above (vp's ranks meet).
 *   exchange        the fastest two threads can exchange n bytes through
 *                   shared memory, as a sendrecv at p = 2 does: each
 *                   copies its n bytes into a buffer of the other's, sets
 *                   the other's flag, waits for its own and copies what
 *                   it got out (the receiver uses its data). One copy in
 *                   and one out: a single-copy transport writes the
 *                   receiver's buffer instead, but then the receiver's
 *                   first use of it moves the same lines. No matching, no
 *                   model, no checks. n = 0: the flags alone. As a
 *                   ping-pong (one_way): thread 1 sends only once it got
 *                   thread 0's round; half a round is a one-way message.
 *   thread_start    the fastest p rank threads can be started and joined
 *                   as vp starts them: every stack a slice of one mapping
 *                   (no guard pages, no signal stacks), a thread function
 *                   that returns at once.
 * Each answers microseconds (per barrier, or for the whole start), or a
 * negative number when threads could not be made.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_MACHINE_LIMITS_H
#define VP_BENCH_MACHINE_LIMITS_H

#include <stddef.h>

enum limits_barrier_kind {
	LIMITS_FUTEX,
	LIMITS_YIELD,
	LIMITS_ROUNDS,
	LIMITS_AFTER_BARRIER,      /* two yielding barriers, the second timed */
	LIMITS_TREE_AFTER_BARRIER, /* a barrier, then a timed tree broadcast */
};

/* Microseconds per barrier of p threads, iters barriers after a tenth as
 * many to warm up; the whole loop of every thread counts. */
double limits_barrier_us(int p, int iters, enum limits_barrier_kind kind);

/* Microseconds of the call after a barrier (above: kind is
 * LIMITS_AFTER_BARRIER, a meeting, or LIMITS_TREE_AFTER_BARRIER, a tree
 * broadcast): the median over iters calls of the slowest thread's time,
 * after a tenth as many to warm up. */
double limits_after_barrier_us(int p, int iters, enum limits_barrier_kind kind);

/* Microseconds per exchange of bytes between two threads (iters rounds
 * after a tenth as many to warm up), or with one_way per one-way message
 * of a ping-pong; -1 when no thread could be made. */
double limits_exchange_us(size_t bytes, unsigned iters, int one_way);

/* Microseconds to start and join p threads whose stacks (stack bytes
 * each) are slices of one mapping. meet = 0: each returns at once, so the
 * kernel reuses what the last one freed; meet = 1: each waits until the
 * last has started, as a run's ranks are all alive at once (their first
 * barrier or a ring's exchange needs them so). Made as vp_run makes its
 * ranks' threads (runtime/threads/transport.c): from p = 256 on a machine
 * of two CPUs or more by two creators, each half of them. */
double limits_thread_start_us(int p, size_t stack, int meet);

#endif
