/*
 * explore_run.c - one run of an exploration, in a child process: whatever
 * the run does (crash, abort, exit, loop forever) ends the child, and the
 * explorer learns how from the child's wait status, the start of its
 * stderr (a pipe) and a page the two processes share, where the child puts
 * vp_run's result and vp_schedule_last's record before it exits.
 *
 * The parent reads the pipe until the child exits (draining everything, so
 * that a child writing much is never blocked on a full pipe) and kills the
 * child with SIGKILL once its time is up.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "explore.h"

/* What the child writes for the parent, in memory they share. */
struct shared_page {
	int done, rc, rank, have_info;
	vp_schedule_info info;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void child(const vp_opts *o, int (*fn)(vp_comm *, void *), void *arg,
		  int errfd, struct shared_page *sh) __attribute__((noreturn));
static void child(const vp_opts *o, int (*fn)(vp_comm *, void *), void *arg,
		  int errfd, struct shared_page *sh)
{
	vp_stats st;
	int nul = open("/dev/null", O_WRONLY);

	if (nul >= 0 && dup2(nul, 1) >= 0)
		close(nul);
	if (dup2(errfd, 2) < 0)
		_exit(127);
	close(errfd);
	sh->rc = vp_run(o, fn, arg, &st);
	sh->rank = st.error_rank;
	sh->have_info =
	    vp_schedule_last(&sh->info) == VP_OK && sh->info.seed != 0;
	sh->done = 1;
	/* not exit(): the parent's atexit handlers and stdio are its own */
	_exit(0);
}

/* Reads what the pipe holds now (its read end does not block): 0 at its
 * end, 1 while it is open. */
static int drain(int fd, struct vp__explore_outcome *out)
{
	char scratch[4096];
	ssize_t n;

	for (;;) {
		size_t room = sizeof(out->err) - 1 - out->err_len;
		char *to = room ? out->err + out->err_len : scratch;

		n = read(fd, to, room ? room : sizeof(scratch));
		if (n > 0) {
			if (room)
				out->err_len += (size_t)n;
			continue;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		return errno == EAGAIN ? 1 : 0;
	}
}

/* Waits for the child, reading its stderr, until it exits or its time is
 * up (then it is killed). */
static void collect(pid_t pid, int fd, double timeout,
		    struct vp__explore_outcome *out)
{
	const struct timespec nap = { 0, 200000 };
	double end = now() + timeout;
	int reading = 1;

	for (;;) {
		if (reading) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			double left = end - now();
			int ms = left <= 0 ? 0 : left >= 0.05 ? 50
							  : (int)(left * 1e3);

			if (poll(&p, 1, ms) > 0)
				reading = drain(fd, out);
		} else {
			nanosleep(&nap, NULL);
		}
		if (waitpid(pid, &out->status, WNOHANG) == pid)
			break;
		if (now() >= end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &out->status, 0) < 0 &&
			       errno == EINTR)
				;
			out->timed_out = 1;
			break;
		}
	}
	/* what the child wrote last (a process it started may hold the pipe
	 * open: the read end does not block) */
	if (reading)
		drain(fd, out);
	out->err[out->err_len] = 0;
}

int vp__explore_run(const vp_opts *o, int (*fn)(vp_comm *, void *),
		    void *arg, double timeout, struct vp__explore_outcome *out,
		    char *why, size_t whylen)
{
	struct shared_page *sh;
	int fds[2];
	pid_t pid;

	memset(out, 0, sizeof(*out));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(why, whylen, "vp_explore: mmap: %s", strerror(errno));
		return VP_ENOMEM;
	}
	memset(sh, 0, sizeof(*sh));
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(why, whylen, "vp_explore: pipe: %s", strerror(errno));
		munmap(sh, sizeof(*sh));
		return VP_ENOMEM;
	}
	/* the parent's end only: the child writes as to any stderr */
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	fflush(NULL); /* else the child would hold a copy of our buffers */
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(o, fn, arg, fds[1], sh);
	}
	close(fds[1]);
	if (pid < 0) {
		snprintf(why, whylen, "vp_explore: fork: %s", strerror(errno));
		close(fds[0]);
		munmap(sh, sizeof(*sh));
		return VP_ENOMEM;
	}
	collect(pid, fds[0], timeout, out);
	close(fds[0]);
	out->done = sh->done;
	out->rc = sh->rc;
	out->rank = sh->rank;
	out->have_info = sh->have_info;
	out->info = sh->info;
	munmap(sh, sizeof(*sh));
	return VP_OK;
}
