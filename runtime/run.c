/*
 * run.c - vp_run: checks the options, builds the world, has the transport
 * run every rank, fills vp_stats from every rank's records and frees
 * everything.
 *
 * The limit on p is VP_MAX_RANKS; with the threads transport, in practice,
 * it is the process's thread limit (ulimit -u, kernel.threads-max) and its
 * number of memory mappings (vm.max_map_count).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bulk.h"
#include "runtime.h"
#include "schedule.h"
#include "trace/trace.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DEFAULT_STACK ((size_t)1 << 20)
#else
#define DEFAULT_STACK ((size_t)256 << 10)
#endif
#define MAX_EAGER ((size_t)16 << 20)
#define MIN_STACK ((size_t)64 << 10)
#define DEFAULT_KARY 4

/* A size in bytes: decimal digits and an optional K, M or G (powers of
 * 1024), nothing else; 0 and *out, or -1. */
static int parse_bytes(const char *s, size_t *out)
{
	size_t v = 0, unit = 1;
	const char *c = s;

	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > (SIZE_MAX - 9) / 10)
			return -1;
		v = v * 10 + (size_t)(*c - '0');
	}
	if (c == s)
		return -1;
	if (*c == 'K' || *c == 'k')
		unit = (size_t)1 << 10;
	else if (*c == 'M' || *c == 'm')
		unit = (size_t)1 << 20;
	else if (*c == 'G' || *c == 'g')
		unit = (size_t)1 << 30;
	if (unit > 1)
		c++;
	if (*c || v > SIZE_MAX / unit)
		return -1;
	*out = v * unit;
	return 0;
}

/* vp_opts.stack_size, VP_STACK_SIZE in its place when set. */
static int stack_size_of(vp_opts *o, char *err, size_t errlen)
{
	const char *e = getenv("VP_STACK_SIZE");

	if (e && parse_bytes(e, &o->stack_size)) {
		snprintf(err, errlen,
			 "vp_run: VP_STACK_SIZE=%s is not a size in bytes "
			 "(digits, then K, M or G if you like: 8M)",
			 e);
		return VP_EINVAL;
	}
	if (!o->stack_size)
		o->stack_size = DEFAULT_STACK;
	if (o->stack_size < MIN_STACK) {
		snprintf(err, errlen,
			 "vp_run: stack_size %zu%s is below 64 KiB",
			 o->stack_size, e ? " (VP_STACK_SIZE)" : "");
		return VP_EINVAL;
	}
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The rank's thread ended with pthread_exit() inside the rank function:
 * the rank is over, and the run fails saying how. */
void vp__rank_exited_early(struct vp__rank *r)
{
	char msg[VP__ERRMSG_BYTES];

	snprintf(msg, sizeof(msg),
		 "rank %d: its thread called pthread_exit() instead of "
		 "returning from the rank function",
		 r->world_rank);
	vp__world_fail(r->world, r->world_rank, VP_EINVAL, msg);
}

static void exited_early(void *arg)
{
	vp__rank_exited_early(arg);
}

/* What a rank function's result means for the run. */
static void settle_result(struct vp__rank *r, int rc)
{
	struct vp__world *w = r->world;
	char msg[VP__ERRMSG_BYTES];

	r->result = rc;
	if (rc == VP_OK)
		return;
	if (rc == r->raised && r->errmsg[0]) {
		/* an error raised by vp_error or vp_abort: report that
		 * message rather than "rank function returned" */
		vp__world_fail(w, r->world_rank, rc, r->errmsg);
		return;
	}
	if ((rc == VP_EABORT || rc == VP_EDEADLOCK) && vp__world_status(w))
		return; /* the run is failing already: the first error stays */
	snprintf(msg, sizeof(msg), "rank %d: rank function: returned %d (%s)",
		 r->world_rank, rc, rc < 0 ? vp_strerror(rc) : "user error");
	vp__world_fail(w, r->world_rank, rc, msg);
}

void vp__rank_main(struct vp__rank *r)
{
	struct vp__world *w = r->world;
	int rc = VP_OK;

	vp__requests_enter(r);
	if (w->opts.fibers) {
		/* a fiber: cleanup handlers are its carrier thread's, and
		 * other fibers would interleave with it there; the carrier
		 * reports a pthread_exit (threads/fibers.c) */
		rc = w->fn(&r->comm, w->arg);
	} else {
		pthread_cleanup_push(exited_early, r);
		rc = w->fn(&r->comm, w->arg);
		pthread_cleanup_pop(0);
	}
	settle_result(r, rc);
	vp__requests_settle(r);
	vp__windows_settle(r);
	vp__requests_enter(NULL);
}

/* The cost model of the options: their model spec over ts, tw, th. */
static int model_of(const vp_opts *o, struct vp__model *m, char *err,
		    size_t errlen)
{
	struct vp__model base = { .ts = o->ts, .tw = o->tw, .th = o->th };

	return vp__model_parse(o->model, &base, m, err, errlen);
}

/* The threads transport's tuning variables (threads/wait.c): unsigned
 * integers, 0 or 1 for VP_FLAG_FUTEX. */
static const struct {
	const char *name;
	double hi;
} tuning[] = {
	{ "VP_FLAG_FUTEX", 1 },         { "VP_SPIN_LONG", UINT_MAX },
	{ "VP_SPIN_SHORT", UINT_MAX },  { "VP_YIELDS", UINT_MAX },
	{ "VP_YIELD_NS", UINT_MAX },    { "VP_FLAG_YIELD_NS", UINT_MAX },
	{ "VP_SPIN_POLL", UINT_MAX },   { "VP_SPIN_NS", UINT_MAX },
};

/* One of the words a variable may hold (unset and empty: the default). */
static int env_word(const char *name, const char *const *words, char *err,
		    size_t errlen)
{
	const char *v = getenv(name);
	int i;

	if (!v || !*v)
		return VP_OK;
	for (i = 0; words[i]; i++)
		if (!strcmp(v, words[i]))
			return VP_OK;
	snprintf(err, errlen, "vp_run: %s=%s: it must be %s%s%s", name, v,
		 words[0], words[1] ? " or " : "", words[1] ? words[1] : "");
	return VP_EINVAL;
}

/* The deepest PCT schedule (vp_opts.schedule_depth): d - 1 change points. */
#define SCHEDULE_DEPTH_MAX (1 << 20)

/* The environment's settings, each read strictly (settings.c): those
 * that override an option's field, and the runtime's own. */
static int env_settings(vp_opts *o, char *err, size_t errlen)
{
	static const char *const win[] = { "messages", "shared", NULL };
	static const char *const check[] = { "buffers", "none", NULL };
	char msg[VP__ERRMSG_BYTES / 2];
	double v;
	size_t i;
	int rc;

	if ((rc = vp_setting_env("VP_WATCHDOG", 0, INFINITY, 0, o->watchdog,
				 &v, msg, sizeof(msg))))
		goto bad;
	o->watchdog = v;
	if ((rc = vp_setting_env("VP_FIBERS", 0, 1, 1, o->fibers, &v, msg,
				 sizeof(msg))))
		goto bad;
	o->fibers = (int)v;
	if (!o->schedule && getenv("VP_SCHEDULE") && *getenv("VP_SCHEDULE") &&
	    (rc = vp_setting_parse_u64("VP_SCHEDULE", getenv("VP_SCHEDULE"),
				       &o->schedule, msg, sizeof(msg))))
		goto bad;
	if (!o->schedule_depth) {
		if ((rc = vp_setting_env("VP_SCHEDULE_DEPTH", 0, SCHEDULE_DEPTH_MAX,
					 1, 0, &v, msg, sizeof(msg))))
			goto bad;
		o->schedule_depth = (int)v;
	}
	if ((rc = vp_setting_env("VP_REPRODUCIBLE", 0, 1, 1, o->reproducible,
				 &v, msg, sizeof(msg))))
		goto bad;
	o->reproducible = (int)v;
	for (i = 0; i < sizeof(tuning) / sizeof(tuning[0]); i++)
		if ((rc = vp_setting_env(tuning[i].name, 0, tuning[i].hi, 1, 0,
					 &v, msg, sizeof(msg))))
			goto bad;
	if ((rc = env_word("VP_WIN", win, err, errlen)))
		return rc;
	return env_word("VP_CHECK", check, err, errlen);
bad:
	snprintf(err, errlen, "vp_run: %s", msg);
	return rc;
}

/* Checks the options and fills defaults; returns 0 or VP_EINVAL. */
static int settle_opts(const vp_opts *in, vp_opts *o, struct vp__topo *t,
		       char *err, size_t errlen)
{
	struct vp__model model;
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
	if (getenv("VP_MODEL"))
		o->model = getenv("VP_MODEL");
	if ((rc = model_of(o, &model, err, errlen)))
		return rc;
	if (!o->kary)
		o->kary = DEFAULT_KARY;
	if (getenv("VP_TRANSPORT"))
		o->transport = getenv("VP_TRANSPORT");
	if ((rc = env_settings(o, err, errlen)))
		return rc;
	if (o->fibers != 0 && o->fibers != 1) {
		snprintf(
		    err, errlen,
		    "vp_run: fibers %d: it must be 0 or 1 (also VP_FIBERS)",
		    o->fibers);
		return VP_EINVAL;
	}
	if (o->reproducible != 0 && o->reproducible != 1) {
		snprintf(err, errlen,
			 "vp_run: reproducible %d: it must be 0 or 1 (also "
			 "VP_REPRODUCIBLE)",
			 o->reproducible);
		return VP_EINVAL;
	}
	if (!(o->watchdog >= 0)) {
		snprintf(err, errlen,
			 "vp_run: watchdog %g s: it must be >= 0 (0: off)",
			 o->watchdog);
		return VP_EINVAL;
	}
	if (o->schedule_depth < 0 || o->schedule_depth > SCHEDULE_DEPTH_MAX) {
		snprintf(err, errlen,
			 "vp_run: schedule_depth %d: it must be from 0 to %d "
			 "(also VP_SCHEDULE_DEPTH)",
			 o->schedule_depth, SCHEDULE_DEPTH_MAX);
		return VP_EINVAL;
	}
	if (o->kary < 2) {
		snprintf(err, errlen, "vp_run: kary %d is below 2", o->kary);
		return VP_EINVAL;
	}
	return stack_size_of(o, err, errlen);
}

/* The transports vp was built with, by name (vp_opts.transport). */
static const struct vp__transport *const transports[] = {
	&vp__threads_transport,
#ifdef VP_HAVE_MPI
	&vp__mpi_transport,
#endif
};

static const struct vp__transport *transport_named(const char *name, char *err,
						   size_t errlen)
{
	size_t i;

	if (!name || !*name)
		return transports[0];
	for (i = 0; i < sizeof(transports) / sizeof(transports[0]); i++)
		if (!strcmp(name, transports[i]->name))
			return transports[i];
	if (!strcmp(name, "mpi"))
		snprintf(err, errlen,
			 "vp_run: transport 'mpi': this libvp was built "
			 "without MPI (build libvp-mpi with make MPI=1 and "
			 "link it instead)");
	else
		snprintf(err, errlen,
			 "vp_run: transport '%s' is unknown (threads%s)", name,
#ifdef VP_HAVE_MPI
			 " or mpi"
#else
			 ""
#endif
		);
	return NULL;
}

static void world_free(struct vp__world *w)
{
	int i;

	if (w->tx)
		w->tx_ops->world_free(w->tx);
	if (w->scheduled)
		vp__sched_free(&w->sched);
	for (i = 0; i < w->p; i++) {
		struct vp__rank *r = &w->ranks[i];
		vp__clock_free(&r->clock);
		vp__vec_free(&r->trace.ops);
		vp__coll_log_free(r);
		vp__comms_free(r);
		vp__requests_free(r);
		vp__windows_free(r);
		free(r->strings);
		free(r->combine_scratch);
	}
	vp__groups_free(w);
	vp__sync_free(&w->world_group);
	pthread_mutex_destroy(&w->error_lock);
	free(w->error);
	pthread_mutex_destroy(&w->group_lock);
	pthread_mutex_destroy(&w->id_lock);
	vp__bulk_free(w->ranks, (size_t)w->p * sizeof(*w->ranks));
	vp__bulk_free(w->clock_logs, (size_t)w->p * w->clock_lent_bytes);
	free(w);
}

/* Which collectives may run without their messages (coll_sync.c):
 * VP_SHARED_COLLECTIVES unset or 1 those that wait for every rank anyway,
 * and the rooted ones, the scan and the shift where a trial in the
 * program's loop found meeting faster; sync only the former; all every
 * one always; 0 none; -1 (err written) for another value. */
static int shared_policy(char *err, size_t errlen)
{
	const char *e = getenv("VP_SHARED_COLLECTIVES");

	if (!e || !strcmp(e, "1"))
		return VP__SHARED_DEFAULT;
	if (!strcmp(e, "0"))
		return VP__SHARED_NONE;
	if (!strcmp(e, "sync"))
		return VP__SHARED_SYNCHRONIZING;
	if (!strcmp(e, "all"))
		return VP__SHARED_ALL;
	snprintf(err, errlen,
		 "vp_run: VP_SHARED_COLLECTIVES=%s: it must be 0, 1, sync "
		 "or all",
		 e);
	return -1;
}

/* The transport the options name, where it can take them (ranks as
 * fibers only in the threads transport), and the shared collectives'
 * policy (w->shared_colls); NULL, err written, otherwise. */
static const struct vp__transport *
world_transport(struct vp__world *w, const vp_opts *o, char *err,
		size_t errlen)
{
	const struct vp__transport *ops;

	ops = transport_named(o->transport, err, errlen);
	if (ops && o->fibers && ops != &vp__threads_transport) {
		snprintf(err, errlen,
			 "vp_run: fibers 1 with transport '%s': ranks are "
			 "fibers in the threads transport only",
			 ops->name);
		return NULL;
	}
	if (ops && o->schedule && ops != &vp__threads_transport) {
		snprintf(err, errlen,
			 "vp_run: schedule %llu with transport '%s': seeded "
			 "schedules run in the threads transport only",
			 (unsigned long long)o->schedule, ops->name);
		return NULL;
	}
	if (ops && (w->shared_colls = shared_policy(err, errlen)) < 0)
		return NULL;
	return ops;
}

/* World rank i's own state (zeroed before): its clock, with its share of
 * the lent logs, its trace and its world communicator; the transport's part
 * comes after. */
static struct vp__rank *rank_init(struct vp__world *w, int i)
{
	struct vp__rank *r = &w->ranks[i];

	r->world_rank = i;
	r->world = w;
	r->coll_state.kary = w->opts.kary;
	r->coll_state.segment = w->opts.segment;
	vp__clock_init(&r->clock, &w->model, &w->topo);
	if (w->clock_logs)
		vp__clock_lend(&r->clock,
			       w->clock_logs + (size_t)i * w->clock_lent_bytes,
			       w->clock_lent);
	r->trace.ops.elem = sizeof(struct vp__trace_op);
	vp__comm_init_world(r);
	return r;
}

/* The logs' first elements, for every rank in one array: without it they
 * are malloc'd by each rank's thread (vec.c); how many, model/clock.c. */
static void lend_clock_logs(struct vp__world *w)
{
	if (!vp__model_may_congest(&w->model, &w->topo))
		return;
	w->clock_lent = vp__clock_lent_events(w->p);
	w->clock_lent_bytes = vp__clock_lent_bytes(w->clock_lent);
	w->clock_logs = vp__bulk_alloc((size_t)w->p * w->clock_lent_bytes);
}

static struct vp__world *world_new(const vp_opts *o, const struct vp__topo *t,
				   char *err, size_t errlen, int *rc)
{
	/* aligned_alloc, not calloc: the world's status and counters are
	 * each meant to sit alone on a cache line (_Alignas), which calloc's
	 * 16-byte alignment does not give (sizeof is a multiple of the
	 * struct's alignment, as aligned_alloc wants) */
	struct vp__world *w = aligned_alloc(_Alignof(struct vp__world),
					    sizeof(*w));
	struct vp__transport_init in;
	struct vp__rank **ranks = NULL;
	void **tx_rank = NULL;
	int i;

	*rc = VP_ENOMEM;
	snprintf(err, errlen, "vp_run: no memory for the world");
	if (!w)
		return NULL;
	memset(w, 0, sizeof(*w));
	w->topo = *t;
	/* described once: AUTO asks on every collective call */
	vp__topo_describe(&w->topo, &w->topo_info);
	w->opts = *o;
	w->check_buffers = getenv("VP_CHECK") && /* settle_opts checked it */
			   !strcmp(getenv("VP_CHECK"), "buffers");
	model_of(o, &w->model, err, errlen); /* settle_opts checked it */
	w->p = t->p;
	w->tx_ops = world_transport(w, o, err, errlen);
	if (!w->tx_ops) {
		*rc = VP_EINVAL;
		free(w);
		return NULL;
	}
	w->world_group.size = t->p;
	w->world_group.whole = 1;
	w->world_group.id = 0;
	w->error_rank = -1;
	pthread_mutex_init(&w->error_lock, NULL);
	pthread_mutex_init(&w->group_lock, NULL);
	pthread_mutex_init(&w->id_lock, NULL);
	atomic_init(&w->status, 0);
	/* zeroed, in huge pages where large (bulk.c: 0.37 s at p = 32,000
	 * in small pages) */
	w->ranks = vp__bulk_alloc((size_t)t->p * sizeof(*w->ranks));
	ranks = malloc((size_t)t->p * sizeof(*ranks));
	tx_rank = calloc((size_t)t->p, sizeof(*tx_rank));
	if (!w->ranks || !ranks || !tx_rank)
		goto fail;
	if (o->schedule) {
		if (vp__sched_init(&w->sched, o->schedule, o->schedule_depth,
				   t->p))
			goto fail;
		w->scheduled = 1;
	}
	lend_clock_logs(w);
	for (i = 0; i < t->p; i++)
		ranks[i] = rank_init(w, i);
	in = (struct vp__transport_init){ w, t->p, &w->opts, ranks };
	*rc = w->tx_ops->world_new(&in, &w->tx, tx_rank, err, errlen);
	if (*rc)
		goto fail;
	for (i = 0; i < t->p; i++)
		w->ranks[i].tx = tx_rank[i];
	w->tx_ops->locals(w->tx, &w->local_first, &w->local_count);
	free(ranks);
	free(tx_rank);
	return w;
fail:
	free(ranks);
	free(tx_rank);
	if (!w->ranks) {
		free(w);
		return NULL;
	}
	world_free(w);
	return NULL;
}

/* The last report of each thread that called vp_run (vp_stats.report),
 * freed by its next run or when the thread ends. */
static pthread_key_t report_key;
static pthread_once_t report_once = PTHREAD_ONCE_INIT;

static void report_key_make(void)
{
	pthread_key_create(&report_key, free);
}

static const char *keep_report(const char *msg)
{
	char *copy = msg && *msg ? strdup(msg) : NULL;

	pthread_once(&report_once, report_key_make);
	free(pthread_getspecific(report_key));
	pthread_setspecific(report_key, copy);
	return copy ? copy : "";
}

/* msg into out (cap bytes): whole if it fits, else its start up to a line
 * end, a note, and its last line. */
static void summarize(const char *msg, char *out, size_t cap)
{
	const char *last;
	size_t len = strlen(msg), tail, head;

	if (len < cap) {
		memcpy(out, msg, len + 1);
		return;
	}
	last = msg + len;
	while (last > msg && last[-1] == '\n')
		last--;
	while (last > msg && last[-1] != '\n')
		last--;
	tail = strlen(last);
	if (tail > cap / 2)
		tail = cap / 2;
	head = cap - tail - 64;
	while (head > 0 && msg[head - 1] != '\n')
		head--;
	snprintf(out, cap, "%.*s  ... (%zu bytes more: vp_stats.report)\n%.*s",
		 (int)head, msg, len - head - strlen(last), (int)tail, last);
}

/*
 * A run that ends well or deadlocked may still hide mismatched collectives
 * (a rank that reduced while the others broadcast leaves its messages
 * unreceived; different roots deadlock): that cause, when found, becomes
 * the run's error, followed by the deadlock report if there was one. But
 * where point-to-point waits caused the deadlock (two ranks receiving
 * from each other while the rest wait in a barrier; a receive from any
 * rank while the rest wait in MPI_Finalize's barrier), they are the cause:
 * the count of collective calls follows the report as a note, and the run
 * stays deadlocked.
 */
static void settle_mismatch(struct vp__world *w)
{
	char why[512], *full;
	int found, note;
	size_t n;

	if (w->error_code != VP_OK && w->error_code != VP_EDEADLOCK)
		return;
	if (!(found = vp__coll_postmortem(w, why, sizeof(why))))
		return;
	note = found == 1 && w->error_code == VP_EDEADLOCK && w->error &&
	       w->p2p_cycle;
	n = strlen(why) + (w->error ? strlen(w->error) : 0) + 32;
	full = malloc(n);
	if (!full)
		return;
	if (note) { /* the report without its last line break, the note */
		size_t keep = strlen(w->error);

		keep -= keep && w->error[keep - 1] == '\n';
		snprintf(full, n, "%.*s\nnote, at the deadlock: %s", (int)keep,
			 w->error, why);
	} else {
		snprintf(full, n, "%s%s%s", why, w->error ? "\n" : "",
			 w->error ? w->error : "");
	}
	free(w->error);
	w->error = full;
	if (note)
		return;
	w->error_code = VP_EMISMATCH;
	w->error_rank = atoi(why + 5); /* "rank R: ..." or "rank R made ..." */
}

/* Messages nobody received: counted, named, and the run's error unless
 * the options allow them or the run failed already. */
#define UNRECEIVED_NAMED 4
static void settle_unreceived(struct vp__world *w, vp_stats *st)
{
	static const char *const space[] = { "point-to-point", "collective",
					     "runtime", "library" };
	struct vp__unreceived first[UNRECEIVED_NAMED];
	size_t used = 0, cap = sizeof(st->unreceived_pairs);
	char msg[sizeof(st->unreceived_pairs) + 160];
	int n, i;

	st->unreceived =
	    w->tx_ops->unreceived(w->tx, first, UNRECEIVED_NAMED, &n);
	if (!st->unreceived)
		return;
	for (i = 0; i < n && i < UNRECEIVED_NAMED && used < cap; i++)
		used += (size_t)snprintf(
		    st->unreceived_pairs + used, cap - used,
		    "%srank %d -> rank %d: %llu %s (%s)", i ? "; " : "",
		    first[i].src, first[i].dst,
		    (unsigned long long)first[i].messages,
		    first[i].messages == 1 ? "message" : "messages",
		    space[first[i].ctx % VP__SPACES]);
	if (n > UNRECEIVED_NAMED && used < cap)
		snprintf(st->unreceived_pairs + used, cap - used,
			 "; and %d more pairs", n - UNRECEIVED_NAMED);
	snprintf(msg, sizeof(msg), "%llu message%s sent but never received: %s",
		 (unsigned long long)st->unreceived,
		 st->unreceived == 1 ? " was" : "s were", st->unreceived_pairs);
	if (w->error_code != VP_OK)
		return;
	if (w->opts.allow_unreceived) {
		if (!w->opts.quiet)
			fprintf(stderr, "vp: warning: %s\n", msg);
		return;
	}
	w->error_code = VP_EUNRECEIVED;
	w->error_rank = first[0].src;
	free(w->error);
	w->error = strdup(msg);
}

/* The run's error message: the one recorded, its copy in the world's own
 * room when there was no memory for it, or at least the code's text. */
static const char *error_text(const struct vp__world *w, char *buf,
			      size_t len)
{
	static const char *const no_memory =
	    "(no memory to keep the error's message)";

	if (w->error)
		return w->error;
	if (w->error_kept[0])
		return w->error_kept;
	if (w->error_code == VP_OK)
		return "";
	snprintf(buf, len, "rank %d: %s %s", w->error_rank,
		 vp_strerror(w->error_code), no_memory);
	return buf;
}

/* The run's figures, from every rank's records (after the join). */
static void collect_stats(struct vp__world *w, vp_stats *st)
{
	char fallback[160];
	const struct vp__clock **clocks;
	int i;

	clocks = malloc((size_t)w->p * sizeof(*clocks));
	if (clocks) {
		for (i = 0; i < w->p; i++)
			clocks[i] = &w->ranks[i].clock;
		vp__model_finish(&w->model, &w->topo, clocks, w->p, st);
		free(clocks);
	} else {
		st->incomplete |=
		    VP_STATS_LOAD_UNKNOWN | VP_STATS_REPLAY_FAILED;
	}
	vp__coll_log_report(w, st);
	vp__trace_finish(w, st);
	for (i = 0; i < w->p; i++)
		if (w->ranks[i].trace.ops.dropped)
			st->incomplete |= VP_STATS_TRACE_DROPPED;
	st->peak_bytes = (size_t)w->p * sizeof(struct vp__rank);
	if (w->clock_logs) /* the logs' first events, lent (vec.c) */
		st->peak_bytes += (size_t)w->p * w->clock_lent_bytes;
	w->tx_ops->stats(w->tx, st);
	settle_unreceived(w, st);
	st->error_code = w->error_code;
	st->error_rank = w->error_rank;
	st->leader = vp__is_local(w, 0);
	summarize(error_text(w, fallback, sizeof(fallback)), st->error,
		  sizeof(st->error));
	st->report = keep_report(w->error);
}

static void fail_early(vp_stats *st, const vp_opts *o, int code,
		       const char *msg)
{
	if (st) {
		memset(st, 0, sizeof(*st));
		st->leader = 1;
		st->error_code = code;
		st->error_rank = -1;
		snprintf(st->error, sizeof(st->error), "%s", msg);
		st->report = keep_report(msg);
	}
	if (!o || !o->quiet)
		fprintf(stderr, "vp: %s\n", msg);
}

int vp_run(const vp_opts *opts, int (*fn)(vp_comm *, void *), void *arg,
	   vp_stats *stats)
{
	struct vp__world *w;
	struct vp__topo topo;
	vp_stats local, *st = stats ? stats : &local;
	char err[512];
	double t0, wall;
	int rc;
	vp_opts o;

	rc = settle_opts(opts, &o, &topo, err, sizeof(err));
	if (rc) {
		fail_early(stats, opts, rc, err);
		return rc;
	}
	if (!fn) {
		fail_early(stats, opts, VP_EINVAL,
			   "vp_run: rank function is NULL");
		return VP_EINVAL;
	}
	w = world_new(&o, &topo, err, sizeof(err), &rc);
	if (!w) {
		fail_early(stats, opts, rc, err);
		return rc;
	}
	w->fn = fn;
	w->arg = arg;
	rc = vp__trace_open(w, err, sizeof(err));
	if (rc) {
		world_free(w);
		fail_early(stats, opts, rc, err);
		return rc;
	}
	t0 = now_seconds();
	w->tx_ops->run(w->tx);
	settle_mismatch(w);
	wall = now_seconds() - t0;

	memset(st, 0, sizeof(*st));
	st->wall_seconds = wall;
	st->p = w->p;
	st->shared_calls = atomic_load(&w->shared_calls);
	collect_stats(w, st);
	if (w->scheduled)
		vp__sched_finish(&w->sched);
	else
		vp__sched_unseeded();
	rc = w->error_code;
	if (rc && !o.quiet && vp__is_local(w, 0))
		fprintf(stderr, "vp: %s\n", st->error);
	world_free(w);
	return rc;
}

struct vp__sched *vp__world_sched(struct vp__world *w)
{
	return w->scheduled ? &w->sched : NULL;
}
