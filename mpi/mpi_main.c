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
 * exit(), or 1 for any other failure (vp's report names it on stderr).
 *
 *   VPMPI_NP        ranks (default 1)
 *   VPMPI_TOPOLOGY  vp topology (default full:NP)
 *   VPMPI_TS, VPMPI_TW, VPMPI_TH   the model's parameters (default 0)
 *   VPMPI_STRICT    1: messages only between neighbours
 *   VPMPI_TRACE, VPMPI_SVG         trace and space-time diagram paths
 *   VPMPI_STATS     1: print the run's vp_stats to stderr at the end
 *   VPMPI_SHARED_GLOBALS  1: one copy of the program for all ranks
 *   VP_ALG_<COLLECTIVE>   the algorithm of every such call (VP_ALG_BCAST=
 *                   binomial, ...; vp's names, see vp-run --list)
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
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

/* ---- a rank's standard output, in whole lines ---- */

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

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

	if (!w || !exit_to) {
		fflush(NULL);
		exit(status);
	}
	fflush(vpmpi_stdout());
	/* a rank is a process: exit(0) ends it as returning from main does;
	 * any other status ends the job with it, as under mpirun */
	if (status)
		vp_abort(w, status > 0 ? status : 1, "exit",
			 "rank %d called exit(%d)", vp_rank(w), status);
	vpmpi_leave(status ? (status > 0 ? status : 1) : 0);
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
	vpmpi_bind(world);
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
		fprintf(stderr, "vpmpi: loading rank %d's copy: %s\n", r,
			dlerror());
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

static double env_double(const char *name)
{
	const char *s = getenv(name);

	return s ? atof(s) : 0;
}

int main(int argc, char **argv)
{
	const char *np_s = getenv("VPMPI_NP"), *topo = getenv("VPMPI_TOPOLOGY");
	const char *sg = getenv("VPMPI_SHARED_GLOBALS");
	int np = np_s ? atoi(np_s) : 1, rc, r, copies, *fds;
	void *before;
	char spec[64];
	struct job j = { argc, argv, NULL, NULL, 0 };
	vp_opts o = { 0 };
	vp_stats st;

	if (np < 1) {
		fprintf(stderr, "vpmpi: VPMPI_NP=%s is not a rank count\n",
			np_s);
		return 2;
	}
	if (read_algorithms())
		return 2;
	/* lines from ranks are not interleaved mid-line */
	setvbuf(stdout, NULL, _IOLBF, 0);
	devnull = fopen("/dev/null", "r");
	j.shared = !vpmpi_image || (sg && atoi(sg));
	copies = j.shared ? 1 : np;
	j.handles = calloc((size_t)copies, sizeof(*j.handles));
	j.mains = calloc((size_t)copies, sizeof(*j.mains));
	if (!j.handles || !j.mains) {
		fprintf(stderr, "vpmpi: no memory for %d ranks\n", np);
		return 1;
	}
	if (!vpmpi_image) /* linked in: one copy, shared globals */
		j.mains[0] = vpmpi_user_main;
	/* one open file per copy while loading: raise the soft limit */
	if (copies > 1) {
		struct rlimit nf;

		if (!getrlimit(RLIMIT_NOFILE, &nf) &&
		    nf.rlim_cur < (rlim_t)copies + 64) {
			nf.rlim_cur = nf.rlim_max;
			setrlimit(RLIMIT_NOFILE, &nf);
			if (!getrlimit(RLIMIT_NOFILE, &nf) &&
			    nf.rlim_cur < (rlim_t)copies + 64) {
				fprintf(
				    stderr,
				    "vpmpi: %d copies of the program need "
				    "%d open files while loading, and "
				    "ulimit -n allows %llu: raise it, or run "
				    "with vpmpirun --shared-globals\n",
				    copies, copies + 64,
				    (unsigned long long)nf.rlim_cur);
				return 1;
			}
		}
	}
	if (!(fds = malloc((size_t)copies * sizeof(*fds)))) {
		fprintf(stderr, "vpmpi: no memory for %d ranks\n", np);
		return 1;
	}
	before = vpmpi_image && copies > 1 ? vpmpi_solibs_before() : NULL;
	for (r = 0; vpmpi_image && r < copies; r++) {
		if (!(j.handles[r] = load_copy(r, &j.mains[r], &fds[r])))
			return 1;
		/* libraries the program needs: loaded with its first copy */
		if (r == 0 && copies > 1 && vpmpi_solibs_check(before, np)) {
			close(fds[0]);
			dlclose(j.handles[0]);
			free(fds);
			free(j.handles);
			free(j.mains);
			return 1;
		}
	}
	for (r = 0; vpmpi_image && r < copies; r++)
		close(fds[r]);
	free(fds);
	if (!j.mains[0]) {
		fprintf(stderr, "vpmpi: the program has no main\n");
		return 1;
	}
	if (!topo || !*topo) {
		snprintf(spec, sizeof(spec), "full:%d", np);
		topo = spec;
	}
	o.topology = topo;
	o.ts = env_double("VPMPI_TS");
	o.tw = env_double("VPMPI_TW");
	o.th = env_double("VPMPI_TH");
	o.strict = getenv("VPMPI_STRICT") && atoi(getenv("VPMPI_STRICT"));
	o.trace = getenv("VPMPI_TRACE");
	o.svg = getenv("VPMPI_SVG");
	/* The layer keeps each rank's MPI state in thread-local variables,
	 * which the ranks of one carrier would share as fibers. */
	if (getenv("VP_FIBERS") && atoi(getenv("VP_FIBERS")) == 1) {
		fprintf(stderr, "vpmpi: VP_FIBERS=1 ignored: MPI programs run "
				"their ranks as threads\n");
		unsetenv("VP_FIBERS");
	}
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
	if (getenv("VPMPI_STATS") && atoi(getenv("VPMPI_STATS")))
		fprintf(stderr,
			"vpmpi: %d ranks on %s: %llu messages, %llu bytes, "
			"model time %g, max link load %llu, %.3f s\n%s%s",
			st.p, topo, (unsigned long long)st.messages,
			(unsigned long long)st.bytes, st.model_time,
			(unsigned long long)st.max_link_load, st.wall_seconds,
			st.collectives[0] ? "vpmpi: collectives:\n" : "",
			st.collectives);
	fflush(stdout);
	for (r = 0; r < copies; r++)
		if (j.handles[r])
			dlclose(j.handles[r]);
	free(j.handles);
	free(j.mains);
	if (devnull)
		fclose(devnull);
	return rc > 0 ? rc : rc ? 1 : 0;
}
