/*
 * bulk.c - the world's per-rank arrays, in pages of 2 MiB.
 *
 * A run of p ranks makes arrays of one struct a rank (the runtime's and
 * the transport's: 2.6 KiB and 0.9 KiB a rank; the first events of the
 * model's logs, 1.4 KiB), zeroes them and writes each rank's fields, so
 * most of their pages are touched before the first rank starts. On a
 * virtual machine the first touch of a 4 KiB page can cost tens of
 * microseconds (the kernel's fault and a hypervisor's exit on each), and
 * a huge page takes one fault where 4 KiB pages take 512. So an array of
 * 2 MiB or more is mapped on its own and offered to the kernel for huge
 * pages (madvise MADV_HUGEPAGE; where the kernel declines, as with
 * transparent huge pages off, it is an ordinary mapping). The mapping
 * comes zeroed, so nothing is cleared by hand. Smaller arrays come from
 * aligned_alloc: a mapping of their own would cost system calls for
 * nothing.
 *
 * Memory the kernel has not handed out lately can cost far more: a
 * virtual machine may give the pages a process frees back to its host
 * after a few seconds (virtio_balloon's free page reporting), and the
 * kernel's zeroing of them again is then an order of magnitude slower
 * than for pages freed a moment before; the host serves two CPUs at
 * once, so two threads fault them in about twice as fast as one. So an
 * array of POPULATE_MIN or more is populated before it is returned, its
 * second half by a helper thread (madvise MADV_POPULATE_WRITE, Linux
 * 5.14; where it fails, pages come at first touch): at p = 32,000 the
 * run's arrays are 166 MB.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bulk.h"

#define HUGE_PAGE ((size_t)2 << 20)
#define CACHELINE ((size_t)64)
#define POPULATE_MIN ((size_t)32 << 20)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; glibc 2.36's headers lack it */
#endif

struct stretch {
	char *at;
	size_t bytes;
};

static void *populate(void *arg)
{
	struct stretch *s = arg;

	(void)madvise(s->at, s->bytes, MADV_POPULATE_WRITE);
	return NULL;
}

/* The pages of [at, at + whole) made present, half by a helper thread
 * where there are two CPUs. */
static void populate_both_halves(char *at, size_t whole)
{
	size_t half = whole / 2 / HUGE_PAGE * HUGE_PAGE;
	struct stretch low = { at, half }, high = { at + half, whole - half };
	pthread_t helper;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    pthread_create(&helper, NULL, populate, &high)) {
		populate(&low);
		populate(&high);
		return;
	}
	populate(&low);
	pthread_join(helper, NULL);
}

void *vp__bulk_alloc(size_t bytes)
{
	size_t whole = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	char *map, *at;

	if (bytes < HUGE_PAGE) {
		/* a cache line each, as the arrays' structs ask (_Alignas) */
		bytes = (bytes + CACHELINE - 1) / CACHELINE * CACHELINE;
		at = aligned_alloc(CACHELINE, bytes ? bytes : CACHELINE);
		if (at)
			memset(at, 0, bytes);
		return at;
	}
	/* a huge page longer, then cut to start on a 2 MiB boundary:
	 * the kernel backs only aligned stretches with huge pages */
	map = mmap(NULL, whole + HUGE_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	at = (char *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
	if (at > map)
		munmap(map, (size_t)(at - map));
	if (at + whole < map + whole + HUGE_PAGE)
		munmap(at + whole, (size_t)(map + whole + HUGE_PAGE -
					    (at + whole)));
#ifdef MADV_HUGEPAGE
	/* a hint: with transparent huge pages off, or none free, the
	 * mapping stays in small pages and works the same */
	(void)madvise(at, whole, MADV_HUGEPAGE);
#endif
	if (whole >= POPULATE_MIN)
		populate_both_halves(at, whole);
	return at;
}

void vp__bulk_free(void *at, size_t bytes)
{
	if (!at)
		return;
	if (bytes < HUGE_PAGE) {
		free(at);
		return;
	}
	munmap(at, (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
}
