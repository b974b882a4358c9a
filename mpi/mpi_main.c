/*
 * mpi_main.c - the process's main for programs built with vpmpicc.
 *
 * vpmpicc builds the program (its main renamed vpmpi_user_main) as a
 * shared object and embeds it in the executable (vpmpi_image). Here each
 * rank gets its own copy: the image is written to an anonymous file per
 * rank (memfd_create) and loaded with dlopen, so the program's global and
 * static variables are per rank, as they are per process under a real MPI
 * (the approach of SimGrid SMPI's dlopen privatization and AMPI's
 * FSglobals; glibc's dlmopen stops at 16 namespaces, so not that). The
 * copies call the MPI layer and libc of this process; the functions of
 * libc that keep state of the process for the program (getopt, rand,
 * strtok, setlocale, ...) are linked into the program's object by vpmpicc
 * (mpi/rank/), so each copy has its own. VPMPI_SHARED_GLOBALS=1 (vpmpirun
 * --shared-globals) loads one copy for all ranks: faster to start, and the
 * ranks share the program's globals and that libc state.
 *
 * It reads the job's settings from the environment (vpmpirun sets them; a
 * program started directly runs as one rank, as an MPI singleton does),
 * runs one rank thread per rank, each calling its copy's main with its own
 * argv, and exits with the job's status: 0, the code given to MPI_Abort or
 * exit() (its low 8 bits, as a process's status; 1 where those are 0), or
 * 1 for any other failure (vp's report names it on stderr). A rank that
 * crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, abort()) or overflows its
 * stack ends the process with that signal, vp naming the rank first.
 *
 *   VPMPI_NP        ranks (default: the topology's, else 1)
 *   VPMPI_TOPOLOGY  vp topology (default full:NP); its rank count must
 *                   be VPMPI_NP's
 * Every numeric variable is read strictly (vp_setting_parse): a value
 * that is not a number in range stops the job naming it.
 *   VPMPI_TS, VPMPI_TW, VPMPI_TH   the model's parameters (default 0)
 *   VPMPI_STRICT    1: messages only between neighbours
 *   VPMPI_TRACE, VPMPI_SVG         trace and space-time diagram paths
 *   VPMPI_STATS     1: print the run's vp_stats to stderr at the end
 *   VPMPI_SHARED_GLOBALS  1: one copy of the program for all ranks
 *   VP_STACK_SIZE   each rank's stack (vpmpirun --stack-size; default the
 *                   process's, ulimit -s, as each MPI process has)
 *   VP_ALG_<COLLECTIVE>   the algorithm of every such call (VP_ALG_BCAST=
 *                   binomial, ...; vp's names, see vp-run --list)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <locale.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "vpmpi.h"

typedef int user_main_fn(int argc, char **argv);

/* the program: embedded by vpmpicc, or linked in (no privatization) */
extern const char vpmpi_image[] __attribute__((weak));
extern const char vpmpi_image_end[] __attribute__((weak));
int vpmpi_user_main(int argc, char **argv) __attribute__((weak));

extern vp_alg vpmpi_algs[VP_COLL_COUNT_];

struct job {
	int argc;
	char **argv;
	void **handles;       /* per rank (or one), dlopen's */
	user_main_fn **mains; /* per rank */
	int shared;
};

static FILE *devnull;

/* where exit() in a rank goes back to: the rank's start (rank_main) */
static __thread jmp_buf *exit_to;
static __thread int exit_status; /* what ranks other than 0 read as stdin */
static pid_t job_pid;            /* the process the ranks run in */

/* ---- a rank's standard output, in whole lines ---- */

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* A rank that forks: the child's copy of out_lock is free (no other
 * thread of the parent holds it in the child). */
static void out_lock_take(void)
{
	pthread_mutex_lock(&out_lock);
}

static void out_lock_give(void)
{
	pthread_mutex_unlock(&out_lock);
}

struct line_buf {
	char *buf;
	size_t len, cap;
};

/* Passes the complete lines of what the rank wrote on to the process's
 * stdout at once (under one lock), and keeps a partial last line. */
static ssize_t lines_write(void *cookie, const char *data, size_t n)
{
	struct line_buf *lb = cookie;
	size_t whole;

	if (lb->len + n > lb->cap) {
		size_t cap = (lb->len + n) * 2;
		char *nb = realloc(lb->buf, cap);

		if (!nb)
			return -1;
		lb->buf = nb;
		lb->cap = cap;
	}
	memcpy(lb->buf + lb->len, data, n);
	lb->len += n;
	for (whole = lb->len; whole && lb->buf[whole - 1] != '\n'; whole--)
		;
	if (whole) {
		pthread_mutex_lock(&out_lock);
		fwrite(lb->buf, 1, whole, stdout);
		fflush(stdout);
		pthread_mutex_unlock(&out_lock);
		memmove(lb->buf, lb->buf + whole, lb->len - whole);
		lb->len -= whole;
	}
	return (ssize_t)n;
}

static int lines_close(void *cookie)
{
	struct line_buf *lb = cookie;

	if (lb->len) {
		pthread_mutex_lock(&out_lock);
		fwrite(lb->buf, 1, lb->len, stdout);
		fflush(stdout);
		pthread_mutex_unlock(&out_lock);
	}
	free(lb->buf);
	free(lb);
	return 0;
}

FILE *vpmpi_line_output(void)
{
	cookie_io_functions_t io = { NULL, lines_write, NULL, lines_close };
	struct line_buf *lb = calloc(1, sizeof(*lb));
	FILE *f;

	if (!lb || !(f = fopencookie(lb, "w", io))) {
		free(lb);
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

FILE *vpmpi_stdout(void)
{
	if (!vpmpi_me.comm[MPI_COMM_WORLD])
		return stdout;
	if (!vpmpi_me.out && !(vpmpi_me.out = vpmpi_line_output()))
		return stdout;
	return vpmpi_me.out;
}

int vpmpi_puts(const char *s)
{
	FILE *f = vpmpi_stdout();

	return fputs(s, f) < 0 || putc('\n', f) < 0 ? EOF : 1;
}

FILE *vpmpi_stdin(void)
{
	vp_comm *w = vpmpi_me.comm[MPI_COMM_WORLD];

	if (!w || vp_rank(w) == 0 || !devnull)
		return stdin;
	return devnull;
}

void vpmpi_exit(int status)
{
	vp_comm *w = vpmpi_me.comm[MPI_COMM_WORLD];

	/* a process forked by a rank is a process of its own: it ends */
	if (!w || !exit_to || getpid() != job_pid) {
		fflush(NULL);
		exit(status);
	}
	fflush(vpmpi_stdout());
	/* a rank is a process: exit(0) ends it as returning from main does;
	 * any other status ends the job with it, as under mpirun */
	if (status)
		vp_abort(w, status & 0xff ? status & 0xff : 1, "exit",
			 "rank %d called exit(%d)", vp_rank(w), status);
	vpmpi_leave(status ? (status & 0xff ? status & 0xff : 1) : 0);
}

void vpmpi_leave(int rc)
{
	if (!exit_to)
		pthread_exit(NULL); /* not a rank started here */
	exit_status = rc;
	longjmp(*exit_to, 1);
}

/* The rank's own argv: the array and the strings in one block, as a
 * process has its own (getopt permutes the array; strtok on an argument,
 * as the OSU benchmarks do on "-m 1:1024", writes into the string). */
static char **argv_copy(int argc, char *const *from)
{
	size_t bytes = ((size_t)argc + 1) * sizeof(char *), len;
	char **argv, *at;
	int i;

	for (i = 0; i < argc; i++)
		bytes += strlen(from[i]) + 1;
	if (!(argv = malloc(bytes)))
		return NULL;
	at = (char *)(argv + argc + 1);
	for (i = 0; i < argc; i++) {
		len = strlen(from[i]) + 1;
		argv[i] = memcpy(at, from[i], len);
		at += len;
	}
	argv[argc] = NULL;
	return argv;
}

static int rank_main(vp_comm *world, void *arg)
{
	struct job *j = arg;
	char **volatile argv = argv_copy(j->argc, j->argv);
	int r = vp_rank(world);
	volatile int rc;
	jmp_buf back;

	if (!argv)
		return VP_ENOMEM;
	if ((rc = vpmpi_bind(world))) {
		free(argv);
		vpmpi_unbind();
		return rc;
	}
	exit_to = &back;
	if (!setjmp(back))
		rc = j->mains[j->shared ? 0 : r](j->argc, argv);
	else
		rc = exit_status; /* the rank called exit() */
	exit_to = NULL;
	/* the rank's setlocale made its locale the thread's (rank_locale.c);
	 * the copy that owns it is unloaded at the end */
	uselocale(LC_GLOBAL_LOCALE);
	/* as mpirun does: a process that called MPI_Init must call
	 * MPI_Finalize before it ends well */
	if (rc == 0 && vpmpi_me.initialized && !vpmpi_me.finalized)
		rc = vp_abort(world, VP_EINVAL, "main",
			      "the rank ended without calling MPI_Finalize "
			      "(every rank that called MPI_Init must)");
	free(argv);
	vpmpi_unbind();
	return rc;
}

/* A number from a /proc file (a sysctl, or a field of /proc/meminfo when
 * key is given, in kB), or -1. */
static long proc_long(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!key ? sscanf(line, "%ld", &v) == 1
			 : !strncmp(line, key, strlen(key)) &&
			       sscanf(line + strlen(key), " %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* The process's memory mappings now (/proc/self/maps lines), or -1. */
static long mappings_now(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* "vm.max_map_count = 65530, the process holds 13120 mappings" and what
 * to do, for a copy that failed to load. */
static void copies_hint(char *buf, size_t len)
{
	snprintf(buf, len,
		 "the process holds %ld memory mappings and vm.max_map_count "
		 "is %ld (each copy of the program takes several, each rank's "
		 "stack two): raise vm.max_map_count, or run with vpmpirun "
		 "--shared-globals (one copy for all ranks)",
		 mappings_now(), proc_long("/proc/sys/vm/max_map_count", NULL));
}

/*
 * What stops `copies` copies of the program and np rank threads, known
 * from the first copy (per_copy mappings): vm.max_map_count (the copies'
 * mappings and two a rank stack), the memory for the copies (each is a
 * file of its own in memory, len bytes), kernel.threads-max. 0, or 1
 * after one line naming the limit.
 */
static int copies_fit(int copies, int np, long per_copy, size_t len)
{
	long max_maps = proc_long("/proc/sys/vm/max_map_count", NULL);
	long threads_max = proc_long("/proc/sys/kernel/threads-max", NULL);
	long avail_kb = proc_long("/proc/meminfo", "MemAvailable:");
	long now = mappings_now();
	long need = now + (copies - 1) * per_copy + 2L * np + 64;
	double copies_kb = (double)copies * (double)len / 1024;

	if (max_maps > 0 && now >= 0 && need > max_maps) {
		fprintf(stderr,
			"vpmpi: %d copies of the program and %d rank stacks "
			"need about %ld memory mappings (%ld a copy, 2 a "
			"stack) and vm.max_map_count is %ld: raise it "
			"(sysctl -w vm.max_map_count=%ld), or run with "
			"vpmpirun --shared-globals (one copy for all ranks)\n",
			copies, np, need, per_copy, max_maps, need + need / 4);
		return 1;
	}
	if (avail_kb > 0 && copies_kb > (double)avail_kb) {
		fprintf(stderr,
			"vpmpi: %d copies of the %zu-byte program need %.0f "
			"MiB of memory and %ld MiB is available: run with "
			"vpmpirun --shared-globals (one copy for all ranks), "
			"or fewer ranks\n",
			copies, len, copies_kb / 1024, avail_kb / 1024);
		return 1;
	}
	if (threads_max > 0 && np > threads_max) {
		fprintf(stderr,
			"vpmpi: %d ranks need %d threads and kernel.threads-max "
			"is %ld: raise it, or run fewer ranks\n",
			np, np, threads_max);
		return 1;
	}
	return 0;
}

/* One copy of the embedded program: its handle and main, or NULL with a
 * message on stderr. The file stays open in *fd until every copy is
 * loaded: glibc takes a path it has loaded before for the same object,
 * and a closed descriptor's number (hence path) would come back. */
static void *load_copy(int r, user_main_fn **main_fn, int *fd_out)
{
	size_t len = (size_t)(vpmpi_image_end - vpmpi_image);
	char name[64], path[64];
	void *h = NULL;
	int fd;

	snprintf(name, sizeof(name), "vpmpi-rank-%d", r);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0 || write(fd, vpmpi_image, len) != (ssize_t)len) {
		perror("vpmpi: a copy of the program for a rank");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	*fd_out = fd;
	if (!h) {
		char hint[320];
		const char *why = dlerror();

		copies_hint(hint, sizeof(hint));
		fprintf(stderr, "vpmpi: loading rank %d's copy: %s; %s\n", r,
			why, hint);
		return NULL;
	}
	*main_fn = (user_main_fn *)dlsym(h, "vpmpi_user_main");
	if (!*main_fn) {
		fprintf(stderr, "vpmpi: the program has no main\n");
		dlclose(h);
		return NULL;
	}
	return h;
}

/* VP_ALG_<COLLECTIVE> variables: 0, or 2 after naming a bad one. */
static int read_algorithms(void)
{
	char var[64];
	int op, i, a;

	for (op = 0; op < VP_COLL_COUNT_; op++) {
		const char *name = vp_coll_name((vp_coll)op), *s;

		snprintf(var, sizeof(var), "VP_ALG_%s", name);
		for (i = 7; var[i]; i++)
			var[i] = (char)toupper((unsigned char)var[i]);
		if (!(s = getenv(var)) || !*s)
			continue;
		if ((a = vp_alg_parse(s)) < 0) {
			fprintf(stderr,
				"vpmpi: %s=%s is not an algorithm of vp "
				"(vp-run --list names them)\n",
				var, s);
			return 2;
		}
		vpmpi_algs[op] = (vp_alg)a;
	}
	return 0;
}

/* The environment variable var read strictly (vp_setting_parse), named
 * as the user set it (shown: the vpmpirun option it came from); 0, or 2
 * after saying what is wrong. */
static int setting(const char *var, const char *shown, double lo, double hi,
		   int integer, double dflt, double *out)
{
	char err[256];
	const char *s = getenv(var);

	if (!s || !*s) {
		*out = dflt;
		return 0;
	}
	if (vp_setting_parse(shown, s, lo, hi, integer, out, err,
			     sizeof(err))) {
		fprintf(stderr, "vpmpi: %s\n", err);
		return 2;
	}
	return 0;
}

/* The launcher's settings, all refused when malformed before anything
 * runs; 0 or 2. */
static int read_settings(int *np, int *shared, vp_opts *o, int *stats)
{
	double v[8];

	if (setting("VPMPI_NP", "vpmpirun -np", 1, INT_MAX, 1, 1, &v[0]) ||
	    setting("VPMPI_SHARED_GLOBALS", "VPMPI_SHARED_GLOBALS", 0, 1, 1,
		    0, &v[1]) ||
	    setting("VPMPI_TS", "vpmpirun --model ts", 0, INFINITY, 0, 0,
		    &o->ts) ||
	    setting("VPMPI_TW", "vpmpirun --model tw", 0, INFINITY, 0, 0,
		    &o->tw) ||
	    setting("VPMPI_TH", "vpmpirun --model th", 0, INFINITY, 0, 0,
		    &o->th) ||
	    setting("VPMPI_STRICT", "VPMPI_STRICT", 0, 1, 1, 0, &v[2]) ||
	    setting("VPMPI_STATS", "VPMPI_STATS", 0, 1, 1, 0, &v[3]) ||
	    setting("VP_FIBERS", "VP_FIBERS", 0, 1, 1, 0, &v[4]))
		return 2;
	*np = (int)v[0];
	*shared = (int)v[1];
	o->strict = (int)v[2];
	*stats = (int)v[3];
	/* The layer keeps each rank's MPI state in thread-local variables,
	 * which the ranks of one carrier would share as fibers. */
	if (v[4] == 1) {
		fprintf(stderr, "vpmpi: VP_FIBERS=1 ignored: MPI programs run "
				"their ranks as threads\n");
		unsetenv("VP_FIBERS");
	}
	return 0;
}

/* The topology's rank count agrees with -np (the launcher loads one copy
 * of the program per rank of -np), or gives it when -np was not given;
 * 0 or 2 after one line. */
static int check_topology(const char *topo, int *np)
{
	char err[512];
	vp_topo t;

	if (!topo || !*topo)
		return 0;
	if (vp_topo_parse(topo, &t, err, sizeof(err))) {
		fprintf(stderr, "vpmpi: --topology %s: %s\n", topo, err);
		return 2;
	}
	if (!getenv("VPMPI_NP")) /* no -np: the topology says */
		*np = t.p;
	if (t.p != *np) {
		fprintf(stderr,
			"vpmpi: --topology %s has %d ranks but -np is %d: "
			"give -np %d, or a topology of %d ranks\n",
			topo, t.p, *np, t.p, *np);
		return 2;
	}
	return 0;
}

/* Every copy of the program (one a rank unless the globals are shared):
 * the first, then what the others need checked against the limits that
 * would stop them (copies_fit, the open files while loading), then the
 * others; 0, or 1 after saying why not. */
static int load_copies(struct job *j, int copies, int np)
{
	long before = mappings_now(), per_copy;
	int r, *fds = malloc((size_t)copies * sizeof(*fds));
	void *libs_before = copies > 1 ? vpmpi_solibs_before() : NULL;
	struct rlimit nf;

	if (!fds) {
		fprintf(stderr, "vpmpi: no memory for %d ranks\n", np);
		return 1;
	}
	if (!(j->handles[0] = load_copy(0, &j->mains[0], &fds[0])))
		return 1;
	/* the libraries the program needs come with its first copy: their
	 * globals would be shared by every rank (mpi_solibs.c) */
	if (copies > 1 && vpmpi_solibs_check(libs_before, np))
		return 1;
	per_copy = before >= 0 ? mappings_now() - before : 0;
	if (copies > 1 &&
	    copies_fit(copies, np, per_copy,
		       (size_t)(vpmpi_image_end - vpmpi_image)))
		return 1;
	/* one open file per copy while loading: raise the soft limit */
	if (copies > 1 && !getrlimit(RLIMIT_NOFILE, &nf) &&
	    nf.rlim_cur < (rlim_t)copies + 64) {
		nf.rlim_cur = nf.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nf);
		if (!getrlimit(RLIMIT_NOFILE, &nf) &&
		    nf.rlim_cur < (rlim_t)copies + 64) {
			fprintf(stderr,
				"vpmpi: %d copies of the program need %d open "
				"files while loading, and ulimit -n allows "
				"%llu: raise it, or run with vpmpirun "
				"--shared-globals\n",
				copies, copies + 64,
				(unsigned long long)nf.rlim_cur);
			return 1;
		}
	}
	for (r = 1; r < copies; r++)
		if (!(j->handles[r] = load_copy(r, &j->mains[r], &fds[r])))
			return 1;
	for (r = 0; r < copies; r++)
		close(fds[r]);
	free(fds);
	return 0;
}

/* Each rank's stack: the process's (ulimit -s), as each process of an MPI
 * job has; unlimited or below vp's least, 8 MiB. VP_STACK_SIZE, read by
 * vp_run, takes its place. */
static size_t process_stack(void)
{
	struct rlimit st;

	if (getrlimit(RLIMIT_STACK, &st) || st.rlim_cur == RLIM_INFINITY ||
	    st.rlim_cur < ((rlim_t)64 << 10))
		return (size_t)8 << 20;
	return (size_t)st.rlim_cur;
}

/* The process's exit status for vp_run's rc: 0, the code of MPI_Abort or
 * exit() (a status keeps its low 8 bits, as a process's does under
 * mpirun), or 1 for any other failure and for a code whose low 8 bits are
 * 0: an abort never ends in success. */
static int job_status(int rc)
{
	if (rc > 0 && !(rc & 0xff)) {
		fprintf(
		    stderr,
		    "vpmpi: exit status 1 for code %d (an exit status keeps "
		    "its low 8 bits, and 0 would say success)\n",
		    rc);
		return 1;
	}
	return rc > 0 ? rc & 0xff : rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *topo = getenv("VPMPI_TOPOLOGY");
	int np, shared, stats, rc, copies;
	char spec[64];
	struct job j = { argc, argv, NULL, NULL, 0 };
	vp_opts o = { 0 };
	vp_stats st;

	if (read_settings(&np, &shared, &o, &stats) ||
	    check_topology(topo, &np) || read_algorithms())
		return 2;
	/* lines from ranks are not interleaved mid-line */
	setvbuf(stdout, NULL, _IOLBF, 0);
	devnull = fopen("/dev/null", "r");
	j.shared = !vpmpi_image || shared;
	copies = j.shared ? 1 : np;
	j.handles = calloc((size_t)copies, sizeof(*j.handles));
	j.mains = calloc((size_t)copies, sizeof(*j.mains));
	if (!j.handles || !j.mains) {
		fprintf(stderr, "vpmpi: no memory for %d ranks\n", np);
		return 1;
	}
	if (!vpmpi_image) /* linked in: one copy, shared globals */
		j.mains[0] = vpmpi_user_main;
	if (vpmpi_image && load_copies(&j, copies, np))
		return 1;
	if (!j.mains[0]) {
		fprintf(stderr, "vpmpi: the program has no main\n");
		return 1;
	}
	if (!topo || !*topo) {
		snprintf(spec, sizeof(spec), "full:%d", np);
		topo = spec;
	}
	o.topology = topo;
	o.trace = getenv("VPMPI_TRACE");
	o.svg = getenv("VPMPI_SVG");
	o.stack_size = process_stack();
	job_pid = getpid();
	pthread_atfork(out_lock_take, out_lock_give, out_lock_give);
	rc = vp_run(&o, rank_main, &j, &st);
	if (rc < 0) { /* vp's report is printed; its MPI error class too */
		char text[MPI_MAX_ERROR_STRING];
		int len, cls = vpmpi_job_class(rc);

		MPI_Error_string(cls, text, &len);
		fprintf(stderr,
			"vpmpi: the job failed with MPI error class %d "
			"(%s); vp: %s\n",
			cls, text, vp_strerror(rc));
	}
	if (stats)
		fprintf(stderr,
			"vpmpi: %d ranks on %s: %llu messages, %llu bytes, "
			"model time %.17g, max link load %llu, %.3f s\n%s%s",
			st.p, topo, (unsigned long long)st.messages,
			(unsigned long long)st.bytes, st.model_time,
			(unsigned long long)st.max_link_load, st.wall_seconds,
			st.collectives[0] ? "vpmpi: collectives:\n" : "",
			st.collectives);
	fflush(stdout);
	/* the copies stay loaded until the process exits: what a rank gave
	 * atexit() runs then, as a process's handlers run at its exit
	 * (ThreadSanitizer keeps such handlers itself, and would call into a
	 * copy already unloaded) */
	free(j.handles);
	free(j.mains);
	if (devnull)
		fclose(devnull);
	return job_status(rc);
}
