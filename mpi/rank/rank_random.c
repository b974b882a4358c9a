/*
 * rank_random.c - rand, random and the drand48 family for one rank (see
 * rank_libc.h): libc keeps their seeds in variables of the process, so
 * srand(rank) on every rank would leave one seed for all, and the ranks
 * would draw from one sequence in turn.
 *
 * Each rank's generators are glibc's own, run on the rank's state through
 * the reentrant forms (random_r, drand48_r, ...; glibc manual sec. 19.8):
 * a rank draws exactly the numbers a process would, from the same start.
 *   - rand() is random() and srand() is srandom(), as in glibc; the
 *     state starts as srandom(1) leaves it, in a 128-byte table;
 *   - initstate and setstate switch the rank's state to the caller's
 *     array and back, returning the previous one as glibc does;
 *   - drand48, lrand48, mrand48 and the forms with an xsubi argument use
 *     the rank's multiplier and addend (lcong48), starting from glibc's
 *     (a = 0x5DEECE66D, c = 0xB, x = 0).
 * A lock per rank keeps the rank's own threads apart, as glibc's does.
 * rand_r, random_r and the other _r forms have no hidden state and stay
 * libc's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "rank_libc.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct random_data rnd;
static int32_t table[32]; /* the default state's 128 bytes */
static struct drand48_data d48;
static char *current; /* the state array as initstate/setstate name it */

/* Called with the lock held. */
static void ready(void)
{
	if (!current) {
		initstate_r(1, (char *)table, sizeof(table), &rnd);
		current = (char *)table;
	}
}

VPMPI_RANK_API long random(void)
{
	int32_t r;

	pthread_mutex_lock(&lock);
	ready();
	random_r(&rnd, &r);
	pthread_mutex_unlock(&lock);
	return r;
}

VPMPI_RANK_API void srandom(unsigned seed)
{
	pthread_mutex_lock(&lock);
	ready();
	srandom_r(seed, &rnd);
	pthread_mutex_unlock(&lock);
}

VPMPI_RANK_API int rand(void)
{
	return (int)random();
}

VPMPI_RANK_API void srand(unsigned seed)
{
	srandom(seed);
}

VPMPI_RANK_API char *initstate(unsigned seed, char *state, size_t n)
{
	char *old;

	pthread_mutex_lock(&lock);
	ready();
	old = current;
	if (initstate_r(seed, state, n, &rnd))
		old = NULL; /* errno is EINVAL: n < 8 */
	else
		current = state;
	pthread_mutex_unlock(&lock);
	return old;
}

VPMPI_RANK_API char *setstate(char *state)
{
	char *old;

	pthread_mutex_lock(&lock);
	ready();
	old = current;
	if (setstate_r(state, &rnd))
		old = NULL; /* errno is EINVAL */
	else
		current = state;
	pthread_mutex_unlock(&lock);
	return old;
}

VPMPI_RANK_API double erand48(unsigned short xsubi[3])
{
	double r;

	pthread_mutex_lock(&lock);
	erand48_r(xsubi, &d48, &r);
	pthread_mutex_unlock(&lock);
	return r;
}

VPMPI_RANK_API long nrand48(unsigned short xsubi[3])
{
	long r;

	pthread_mutex_lock(&lock);
	nrand48_r(xsubi, &d48, &r);
	pthread_mutex_unlock(&lock);
	return r;
}

VPMPI_RANK_API long jrand48(unsigned short xsubi[3])
{
	long r;

	pthread_mutex_lock(&lock);
	jrand48_r(xsubi, &d48, &r);
	pthread_mutex_unlock(&lock);
	return r;
}

VPMPI_RANK_API double drand48(void)
{
	return erand48(d48.__x);
}

VPMPI_RANK_API long lrand48(void)
{
	return nrand48(d48.__x);
}

VPMPI_RANK_API long mrand48(void)
{
	return jrand48(d48.__x);
}

VPMPI_RANK_API void srand48(long seed)
{
	pthread_mutex_lock(&lock);
	srand48_r(seed, &d48);
	pthread_mutex_unlock(&lock);
}

VPMPI_RANK_API unsigned short *seed48(unsigned short seed16v[3])
{
	pthread_mutex_lock(&lock);
	seed48_r(seed16v, &d48);
	pthread_mutex_unlock(&lock);
	return d48.__old_x; /* the state before, as glibc returns */
}

VPMPI_RANK_API void lcong48(unsigned short param[7])
{
	pthread_mutex_lock(&lock);
	lcong48_r(param, &d48);
	pthread_mutex_unlock(&lock);
}
