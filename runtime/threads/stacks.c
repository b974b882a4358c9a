/*
 * stacks.c - the rank threads' stacks: one mapping for all of them, a
 * guard region below each stack, a small alternate signal stack below each
 * guard, and a handler for the signals of a crash (SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGABRT) that names the rank.
 *
 * Layout of rank i's slot (addresses grow to the right):
 *     [ alternate stack | guard (no access) | stack ... ]
 * Per-thread stacks from glibc are mapped and unmapped one by one, and
 * every unmap flushes the other CPUs' TLBs, which with thousands of ranks
 * can take most of a run's time; one mapping avoids it.
 *
 * The guard is THR_GUARD bytes (64 KiB). A stack grows down into it one
 * frame at a time, so a frame (or alloca, or variable-length array) of
 * up to THR_GUARD bytes always lands in the guard, never in the next
 * rank's stack below. Larger frames land in it too when the code was
 * compiled with -fstack-clash-protection, which touches every page of a
 * frame from the top down as it grows it (GCC 8, Clang 11): the library,
 * its tests and every program built by vpmpicc are. A larger frame in
 * code compiled without it can still jump the guard.
 *
 * A rank that overflows its stack faults in its guard. The handler runs
 * on the alternate stack of the thread (the faulting stack is full),
 * finds the run and the rank from the address, writes
 *   "vp: rank 3 overflowed its 256 KiB stack; set vp_opts.stack_size
 *    or VP_STACK_SIZE (vpmpirun --stack-size) to raise it"
 * restores the default action and raises the signal again, so the process
 * dies of it with the cause named. Any other crash on a rank's stack (the
 * interrupted stack pointer in a rank's slot: a thread or a fiber) is
 * named the same way, "vp: rank 2 died of signal 11 (Segmentation
 * fault)". Signals of other threads go to the handler that was there
 * before (or the default action).
 *
 * A guard is a guard marker where the kernel has them (Linux 6.13,
 * madvise MADV_GUARD_INSTALL): a mark in the page table, with no mapping
 * of its own. Elsewhere it is a range made PROT_NONE, which splits the
 * mapping, two mappings a rank whatever the guard's size, and
 * vm.max_map_count (65530 by default) bounds them: a run whose guards
 * would not fit goes without (no overflow detection) and says so in
 * vp_stats.incomplete; the kernel's thread limits then bound p. Guard
 * markers are also cheaper: tens of thousands of PROT_NONE mappings slow
 * every later clone, fault and unmap of the process.
 *
 * The handler is not installed under AddressSanitizer or ThreadSanitizer,
 * which handle these signals themselves.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* REG_RSP */
#endif
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "threads.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OVERFLOW_HANDLER 0
#else
#define OVERFLOW_HANDLER 1
#endif

/* Bytes of each rank's alternate signal stack (what the handler needs). */
#define ALT_STACK THR_ALT_STACK
/* Runs whose stacks the handler knows at once (more run unwatched). */
#define WATCHED_RUNS 64
/* Mappings kept free for the rest of the process. */
#define MAP_MARGIN 1024
/* madvise's guard markers (Linux 6.13; glibc 2.36's headers lack it) */
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* Linux 5.3 */
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440 /* Linux 5.10 */
#endif
/* Guards set by one process_madvise (mark_all) */
#define MARK_BATCH 256

static _Atomic(struct thr_stacks *) watched[WATCHED_RUNS];
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

/* The signals of a crash the handler names a rank for, and what each
 * handler was before. */
static const int crash_signal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
static const char *const crash_name[] = { "Segmentation fault", "Bus error",
					  "Illegal instruction",
					  "Floating point exception",
					  "Aborted" };
#define CRASH_SIGNALS (sizeof(crash_signal) / sizeof(crash_signal[0]))
static struct sigaction previous[CRASH_SIGNALS];

/* Appends s, then the decimal n when n >= 0, to buf (async-signal-safe). */
static size_t put(char *buf, size_t at, const char *s, long n)
{
	char digits[24];
	int k = 0;

	while (*s && at < 200)
		buf[at++] = *s++;
	if (n < 0)
		return at;
	do
		digits[k++] = (char)('0' + n % 10);
	while ((n /= 10) && k < 23);
	while (k && at < 200)
		buf[at++] = digits[--k];
	return at;
}

/* Appends the address a in hexadecimal (async-signal-safe). */
static size_t put_hex(char *buf, size_t at, const void *a)
{
	uintptr_t v = (uintptr_t)a;
	int shift = (int)sizeof(v) * 8 - 4;

	at = put(buf, at, "0x", -1);
	while (shift > 0 && !((v >> shift) & 15))
		shift -= 4;
	for (; shift >= 0 && at < 200; shift -= 4)
		buf[at++] = "0123456789abcdef"[(v >> shift) & 15];
	return at;
}

/* The watched run whose slots hold addr, and the slot's rank and offset;
 * NULL when none does. */
static struct thr_stacks *slot_of(const char *addr, size_t *rank, size_t *off)
{
	int i;

	for (i = 0; addr && i < WATCHED_RUNS; i++) {
		struct thr_stacks *s = atomic_load(&watched[i]);

		if (!s || addr < s->base || addr >= s->base + s->slot * s->p)
			continue;
		*off = (size_t)(addr - s->base) % s->slot;
		*rank = (size_t)(addr - s->base) / s->slot;
		return s;
	}
	return NULL;
}

/* The stack pointer of the interrupted code, NULL where unknown. */
static const char *interrupted_sp(const void *uctx)
{
	const ucontext_t *uc = uctx;

#if defined(__x86_64__)
	return (const char *)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__i386__)
	return (const char *)uc->uc_mcontext.gregs[REG_ESP];
#elif defined(__aarch64__)
	return (const char *)uc->uc_mcontext.sp;
#else
	(void)uc;
	return NULL;
#endif
}

/* Writes why rank k dies (into the guard: an overflow) and makes the
 * signal kill the process once the handler returns. */
static void die_naming(int sig, unsigned which, const siginfo_t *si,
		       const struct thr_stacks *s, size_t rank, int guard)
{
	struct sigaction dfl;
	char msg[220];
	size_t n = put(msg, 0, "vp: rank ", (long)rank);

	if (guard) {
		n = put(msg, n, " overflowed its ", (long)(s->size >> 10));
		n = put(msg, n,
			" KiB stack; set vp_opts.stack_size or VP_STACK_SIZE "
			"(vpmpirun --stack-size) to raise it\n",
			-1);
	} else {
		n = put(msg, n, " died of signal ", sig);
		n = put(msg, n, " (", -1);
		n = put(msg, n, crash_name[which], -1);
		if (sig != SIGABRT && si->si_code > 0) {
			n = put(msg, n, " at address ", -1);
			n = put_hex(msg, n, si->si_addr);
		}
		n = put(msg, n, ")\n", -1);
	}
	if (write(2, msg, n) < 0) {
		/* nothing more can be done from here */
	}
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig); /* blocked in here: delivered on return, and fatal */
}

static void on_crash(int sig, siginfo_t *si, void *uctx)
{
	const struct sigaction *was = NULL;
	struct thr_stacks *s;
	size_t rank, off;
	unsigned w;

	for (w = 0; w < CRASH_SIGNALS; w++)
		if (crash_signal[w] == sig)
			was = &previous[w];
	if (!was)
		return;
	w = (unsigned)(was - previous);
	if ((sig == SIGSEGV || sig == SIGBUS) &&
	    (s = slot_of(si->si_addr, &rank, &off)) && s->guarded &&
	    off >= ALT_STACK && off < ALT_STACK + s->guard) {
		die_naming(sig, w, si, s, rank, 1);
		return;
	}
	if ((s = slot_of(interrupted_sp(uctx), &rank, &off))) {
		die_naming(sig, w, si, s, rank, 0);
		return;
	}
	if (was->sa_flags & SA_SIGINFO && was->sa_sigaction)
		was->sa_sigaction(sig, si, uctx);
	else if (was->sa_handler == SIG_IGN && si->si_code <= 0)
		return; /* sent, and ignored before vp */
	else if (was->sa_handler != SIG_DFL && was->sa_handler != SIG_IGN &&
		 was->sa_handler)
		was->sa_handler(sig);
	else {
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		sigaction(sig, &dfl, NULL);
		raise(sig);
	}
}

static void install_handler(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_crash;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < CRASH_SIGNALS; i++)
		sigaction(crash_signal[i], &sa, &previous[i]);
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Memory mappings the process has now. */
static long mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int ch;

	if (!f)
		return -1;
	while ((ch = getc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

/*
 * Every slot's guard marker at once, before any rank starts: a
 * process_madvise of MARK_BATCH ranges at a time on this process (Linux
 * 5.10; any advice on the caller itself since 6.13), instead of a madvise
 * a rank from the threads that make the ranks, while they clone. Rank 0's
 * is set already (the probe). 1 when all are set; else the rest are set
 * one by one (thr_stacks_region; setting one twice changes nothing). A
 * batch costs a few system calls where a madvise a rank costs one each,
 * made among the clones that start the ranks. Not under valgrind 3.19,
 * which does not know the call and would warn.
 */
static int mark_all(struct thr_stacks *s)
{
	struct iovec iov[MARK_BATCH];
	int fd, i = 1, k, n;
	long want;

	if (thr_under_valgrind())
		return 0;
	fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (fd < 0)
		return 0;
	while (i < s->p) {
		n = s->p - i < MARK_BATCH ? s->p - i : MARK_BATCH;
		for (k = 0; k < n; k++) {
			iov[k].iov_base = s->base + s->slot * (size_t)(i + k) +
					  ALT_STACK;
			iov[k].iov_len = s->guard;
		}
		want = (long)((size_t)n * s->guard);
		if (syscall(SYS_process_madvise, fd, iov, (size_t)n,
			    MADV_GUARD_INSTALL, 0U) != want)
			break;
		i += n;
	}
	close(fd);
	return i >= s->p;
}

int thr_stacks_map(struct thr_stacks *s, int p, size_t stack_size)
{
	long max_maps = read_long("/proc/sys/vm/max_map_count");
	long maps = mappings();
	size_t page;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->size = stack_size;
	s->guard = (size_t)sysconf(_SC_PAGESIZE);
	if (s->guard < THR_GUARD)
		s->guard = (THR_GUARD + s->guard - 1) / s->guard * s->guard;
	page = (size_t)sysconf(_SC_PAGESIZE);
	s->slot = (stack_size + page - 1) / page * page + ALT_STACK + s->guard;
	s->base = mmap(NULL, s->slot * (size_t)p, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->base == MAP_FAILED) {
		s->base = NULL;
		return -1;
	}
	/* guard markers, if the kernel has them; else PROT_NONE pages, two
	 * mappings a rank, with a margin kept for the process */
	s->markers =
	    !madvise(s->base + ALT_STACK, s->guard, MADV_GUARD_INSTALL);
	s->guarded = s->markers || max_maps < 0 || maps < 0 ||
		     maps + 2L * p + MAP_MARGIN < max_maps;
	s->marked = s->markers && mark_all(s);
	if (OVERFLOW_HANDLER) { /* crashes named, guarded or not */
		int i;

		pthread_once(&handler_once, install_handler);
		for (i = 0; i < WATCHED_RUNS; i++) {
			struct thr_stacks *none = NULL;

			if (atomic_compare_exchange_strong(&watched[i], &none,
							   s)) {
				s->watch_slot = i;
				break;
			}
		}
		if (i == WATCHED_RUNS)
			s->watch_slot = -1;
	} else {
		s->watch_slot = -1;
	}
	return 0;
}

int thr_stacks_region(struct thr_stacks *s, int rank, char **lo, size_t *size)
{
	char *slot = s->base + s->slot * (size_t)rank;

	*lo = slot;
	*size = s->slot;
	if (!s->guarded)
		return 0;
	if (s->markers ? rank && !s->marked &&
			     madvise(slot + ALT_STACK, s->guard,
				     MADV_GUARD_INSTALL)
		       : mprotect(slot + ALT_STACK, s->guard, PROT_NONE))
		return -1;
	*lo = slot + ALT_STACK + s->guard;
	*size = s->slot - ALT_STACK - s->guard;
	return 0;
}

int thr_stacks_attr(struct thr_stacks *s, int rank, pthread_attr_t *attr)
{
	char *lo;
	size_t size;

	if (thr_stacks_region(s, rank, &lo, &size))
		return -1;
	return pthread_attr_setstack(attr, lo, size);
}

void thr_stacks_enter(const struct thr_stacks *s, int rank)
{
	stack_t alt;

	if (!OVERFLOW_HANDLER || !s->base || !s->guarded)
		return;
	alt.ss_sp = s->base + s->slot * (size_t)rank;
	alt.ss_size = ALT_STACK;
	alt.ss_flags = 0;
	sigaltstack(&alt, NULL);
}

void thr_stacks_enter_alt(const struct thr_stacks *s, void *mem)
{
	stack_t alt;

	if (!OVERFLOW_HANDLER || !s->base || !s->guarded || !mem)
		return;
	alt.ss_sp = mem;
	alt.ss_size = ALT_STACK;
	alt.ss_flags = 0;
	sigaltstack(&alt, NULL);
}

void thr_stacks_leave(const struct thr_stacks *s)
{
	stack_t off = { .ss_flags = SS_DISABLE };

	if (OVERFLOW_HANDLER && s->base && s->guarded)
		sigaltstack(&off, NULL);
}

void thr_stacks_unmap(struct thr_stacks *s)
{
	if (s->watch_slot >= 0)
		atomic_store(&watched[s->watch_slot], NULL);
	if (s->base)
		munmap(s->base, s->slot * (size_t)s->p);
	s->base = NULL;
}

void thr_stacks_why(const struct thr_stacks *s, int started, int err, char *buf,
		    size_t len)
{
	long pid_max = read_long("/proc/sys/kernel/pid_max");
	long threads_max = read_long("/proc/sys/kernel/threads-max");
	long max_maps = read_long("/proc/sys/vm/max_map_count");
	long maps = mappings(), tasks = -1;
	struct rlimit nproc, as;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%*s %*s %*s %*d/%ld", &tasks) != 1)
			tasks = -1;
		fclose(f);
	}
	if (max_maps > 0 && maps >= max_maps - 8)
		snprintf(buf, len,
			 "the process has %ld of vm.max_map_count = %ld memory "
			 "mappings (each rank with a guard page takes two)",
			 maps, max_maps);
	else if (pid_max > 0 && tasks >= pid_max - 64)
		snprintf(buf, len,
			 "the system has %ld tasks, near kernel.pid_max = %ld "
			 "(every thread needs an id)",
			 tasks, pid_max);
	else if (!getrlimit(RLIMIT_NPROC, &nproc) &&
		 nproc.rlim_cur != RLIM_INFINITY &&
		 (long)nproc.rlim_cur <= tasks + 64)
		snprintf(buf, len, "ulimit -u (RLIMIT_NPROC) is %ld",
			 (long)nproc.rlim_cur);
	else if (threads_max > 0 && tasks >= threads_max - 64)
		snprintf(buf, len, "kernel.threads-max is %ld", threads_max);
	else if (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY)
		snprintf(buf, len,
			 "ulimit -v (RLIMIT_AS) is %ld KiB, too little for "
			 "the threads' stacks (pthread_create: %s)",
			 (long)(as.rlim_cur / 1024), strerror(err));
	else
		snprintf(buf, len,
			 "pthread_create: %s, with no task limit near (%ld "
			 "tasks in the system, kernel.pid_max %ld, "
			 "kernel.threads-max %ld): memory for the threads "
			 "(vm.overcommit_memory, free memory)",
			 strerror(err), tasks, pid_max, threads_max);
	(void)s;
	(void)started;
}
