/*
 * run.c - vp_run: builds the world, runs one thread per rank, joins them,
 * fills vp_stats and frees everything.
 *
 * Threads get small stacks (256 KiB by default, 1 MiB under sanitizers), so
 * p = 4096 reserves 1 GiB of address space and touches only what the rank
 * functions use. The limit on p is VP_MAX_RANKS (65536); in practice it is
 * the process's thread limit (ulimit -u, /proc/sys/kernel/threads-max).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DEFAULT_STACK ((size_t)1 << 20)
#else
#define DEFAULT_STACK ((size_t)256 << 10)
#endif
#define MAX_EAGER ((size_t)16 << 20)

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A rank leaves: alive drops, and if that leaves only blocked ranks the
 * leaver checks for a deadlock on their behalf. */
static void rank_exit(struct vp__rank *r)
{
	struct vp__world *w = r->world;
	int alive;

	atomic_store(&r->exited, 1);
	alive = atomic_fetch_sub(&w->alive, 1) - 1;
	if (alive > 0 && atomic_load(&w->blocked) >= alive)
		vp__deadlock_check(r);
}

static void *rank_main(void *arg)
{
	struct vp__rank *r = arg;
	struct vp__world *w = r->world;
	int rc;

	rc = w->fn(&r->comm, w->arg);

	r->result = rc;
	if (rc != VP_OK && rc == r->raised && r->errmsg[0]) {
		/* The rank returns an error raised by vp_error: report that
		 * message rather than "rank function returned". */
		int running = 0;

		vp__record_error(w, r->world_rank, rc, r->errmsg);
		if (atomic_compare_exchange_strong(&w->status, &running,
						   VP_EABORT))
			vp__wake_all(w);
	} else if (rc != VP_OK)
		vp__fail(r, rc, "rank function", "returned %d (%s)", rc,
			 rc < 0 ? vp_strerror(rc) : "user error");
	rank_exit(r);
	return NULL;
}

/* Checks the options and fills defaults; returns 0 or VP_EINVAL. */
static int settle_opts(const vp_opts *in, vp_opts *o, struct vp__topo *t,
		       char *err, size_t errlen)
{
	int rc;

	if (in)
		*o = *in;
	else
		memset(o, 0, sizeof(*o));
	if (!o->topology)
		o->topology = "full:1";
	rc = vp__topo_parse(o->topology, t, err, errlen);
	if (rc)
		return rc;
	if (!o->eager_max)
		o->eager_max = VP_DEFAULT_EAGER_MAX;
	if (o->eager_max > MAX_EAGER) {
		snprintf(err, errlen,
			 "vp_run: eager_max %zu is above the limit %zu",
			 o->eager_max, MAX_EAGER);
		return VP_EINVAL;
	}
	if (!(o->ts >= 0) || !(o->tw >= 0) || !(o->th >= 0)) {
		snprintf(err, errlen,
			 "vp_run: model parameters must be >= 0 (ts %g, tw %g, "
			 "th %g)",
			 o->ts, o->tw, o->th);
		return VP_EINVAL;
	}
	if (!o->kary)
		o->kary = 4;
	if (o->kary < 2) {
		snprintf(err, errlen, "vp_run: kary %d is below 2", o->kary);
		return VP_EINVAL;
	}
	if (!o->stack_size)
		o->stack_size = DEFAULT_STACK;
	if (o->stack_size < 64 * 1024) {
		snprintf(err, errlen,
			 "vp_run: stack_size %zu is below 64 KiB", o->stack_size);
		return VP_EINVAL;
	}
	return 0;
}

/* Overrides of the waiting policy for tuning runs (see wait.c). */
static void read_wait_tuning(void)
{
	const char *s;

	if ((s = getenv("VP_SPIN_LONG")))
		vp__spin_long = (unsigned)atoi(s);
	if ((s = getenv("VP_SPIN_SHORT")))
		vp__spin_short = (unsigned)atoi(s);
	if ((s = getenv("VP_YIELDS")))
		vp__yields = (unsigned)atoi(s);
	if ((s = getenv("VP_SPIN_POLL")))
		vp__spin_poll = (unsigned)atoi(s);
}

static struct vp__world *world_new(const vp_opts *o, const struct vp__topo *t)
{
	struct vp__world *w = calloc(1, sizeof(*w));
	int i;

	if (!w)
		return NULL;
	w->topo = *t;
	w->opts = *o;
	w->p = t->p;
	w->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (w->ncpu < 1)
		w->ncpu = 1;
	w->world_group.size = t->p;
	w->world_group.id = 0;
	pthread_mutex_init(&w->error_lock, NULL);
	pthread_mutex_init(&w->verify_lock, NULL);
	pthread_mutex_init(&w->registry_lock, NULL);
	atomic_init(&w->status, 0);
	atomic_init(&w->blocked, 0);
	atomic_init(&w->alive, t->p);
	atomic_init(&w->epoch, 0);
	w->error_rank = -1;
	w->nbuckets = 4 * (size_t)t->p + 16;
	w->buckets = calloc(w->nbuckets, sizeof(*w->buckets));
	w->ranks = aligned_alloc(VP__CACHELINE,
				 (size_t)t->p * sizeof(*w->ranks));
	if (!w->buckets || !w->ranks)
		goto fail;
	memset(w->ranks, 0, (size_t)t->p * sizeof(*w->ranks));
	for (i = 0; i < t->p; i++) {
		struct vp__rank *r = &w->ranks[i];
		atomic_init(&r->bell, 0);
		atomic_init(&r->waiting_on, -1);
		atomic_init(&r->wait_kind, VP__WAIT_NONE);
		atomic_init(&r->exited, 0);
		atomic_init(&r->returned, NULL);
		r->world_rank = i;
		r->world = w;
		r->kary = o->kary;
		r->segment = o->segment;
		r->events.elem = sizeof(struct vp__event);
		r->transfers.elem = sizeof(struct vp__transfer);
		r->trace_ops.elem = sizeof(struct vp__trace_op);
		vp__comm_init_world(r);
	}
	return w;
fail:
	free(w->ranks);
	free(w->buckets);
	free(w);
	return NULL;
}

static void world_free(struct vp__world *w)
{
	int i;

	for (i = 0; i < w->p; i++) {
		struct vp__rank *r = &w->ranks[i];
		vp__pool_free(r);
		vp__peer_map_free(&r->peers);
		vp__vec_free(&r->events);
		vp__vec_free(&r->transfers);
		vp__vec_free(&r->trace_ops);
		vp__coll_log_free(r);
	}
	vp__mailboxes_free(w);
	vp__groups_free(w);
	pthread_mutex_destroy(&w->error_lock);
	pthread_mutex_destroy(&w->verify_lock);
	pthread_mutex_destroy(&w->registry_lock);
	free(w->ranks);
	free(w);
}

static void fail_early(vp_stats *st, const vp_opts *o, int code,
		       const char *msg)
{
	if (st) {
		memset(st, 0, sizeof(*st));
		st->error_code = code;
		st->error_rank = -1;
		snprintf(st->error, sizeof(st->error), "%s", msg);
	}
	if (!o || !o->quiet)
		fprintf(stderr, "vp: %s\n", msg);
}

int vp_run(const vp_opts *opts, int (*fn)(vp_comm *, void *), void *arg,
	   vp_stats *stats)
{
	struct vp__world *w;
	struct vp__topo topo;
	pthread_attr_t attr;
	vp_stats local, *st = stats ? stats : &local;
	char err[512];
	size_t guard, slot;
	void *stacks;
	double t0;
	int i, started, rc;
	vp_opts o;

	rc = settle_opts(opts, &o, &topo, err, sizeof(err));
	if (rc) {
		fail_early(stats, opts, rc, err);
		return rc;
	}
	if (!fn) {
		fail_early(stats, opts, VP_EINVAL, "vp_run: rank function is NULL");
		return VP_EINVAL;
	}
	w = world_new(&o, &topo);
	if (!w) {
		fail_early(stats, opts, VP_ENOMEM,
			   "vp_run: no memory for the world");
		return VP_ENOMEM;
	}
	w->fn = fn;
	w->arg = arg;
	rc = vp__trace_open(w, err, sizeof(err));
	if (rc) {
		world_free(w);
		fail_early(stats, opts, rc, err);
		return rc;
	}
	read_wait_tuning();

	/*
	 * All rank stacks come from one mapping, each with a PROT_NONE guard
	 * page below it. Per-thread stacks from glibc are mapped and unmapped
	 * one by one, and every unmap flushes the other CPU's TLB: at
	 * p = 4096 that was most of vp_run's time on this VM.
	 */
	guard = (size_t)sysconf(_SC_PAGESIZE);
	slot = (o.stack_size + guard - 1) / guard * guard + guard;
	stacks = mmap(NULL, slot * (size_t)w->p, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (stacks == MAP_FAILED)
		stacks = NULL;
	t0 = now_seconds();
	for (started = 0; started < w->p; started++) {
		char *base = stacks ? (char *)stacks + slot * (size_t)started
				    : NULL;
		pthread_attr_init(&attr);
		if (base && !mprotect(base, guard, PROT_NONE))
			pthread_attr_setstack(&attr, base + guard, slot - guard);
		else
			pthread_attr_setstacksize(&attr, o.stack_size);
		rc = pthread_create(&w->ranks[started].thread, &attr, rank_main,
				    &w->ranks[started]);
		pthread_attr_destroy(&attr);
		if (rc)
			break;
	}
	if (started < w->p) {
		/* Ranks that never started count as exited; the run aborts. */
		snprintf(err, sizeof(err),
			 "vp_run: could only start %d of %d rank threads "
			 "(thread limit? see ulimit -u)",
			 started, w->p);
		vp__record_error(w, started, VP_ENOMEM, err);
		for (i = started; i < w->p; i++)
			atomic_store(&w->ranks[i].exited, 1);
		atomic_fetch_sub(&w->alive, w->p - started);
		i = 0;
		atomic_compare_exchange_strong(&w->status, &i, VP_EABORT);
		vp__wake_all(w);
	}
	for (i = 0; i < started; i++)
		pthread_join(w->ranks[i].thread, NULL);
	if (stacks)
		munmap(stacks, slot * (size_t)w->p);

	memset(st, 0, sizeof(*st));
	st->wall_seconds = now_seconds() - t0;
	st->p = w->p;
	vp__model_finish(w, st);
	vp__coll_log_report(w, st);
	vp__trace_finish(w, st);
	st->mailboxes = w->nmailboxes;
	st->stack_size = o.stack_size;
	st->peak_bytes = w->nmailboxes * sizeof(struct vp__mailbox) +
			 (size_t)w->p * sizeof(struct vp__rank);
	for (i = 0; i < w->p; i++)
		st->peak_bytes += w->ranks[i].pool_bytes +
				  w->ranks[i].peers.cap *
					  (sizeof(uint64_t) + sizeof(void *));
	st->error_code = w->error_code;
	st->error_rank = w->error_rank;
	snprintf(st->error, sizeof(st->error), "%s", w->error);
	rc = w->error_code;
	if (rc && !o.quiet)
		fprintf(stderr, "vp: %s\n", w->error);
	world_free(w);
	return rc;
}
