/*
 * window_lock.c - passive target synchronization: vp_win_lock,
 * vp_win_unlock, vp_win_lock_all, vp_win_unlock_all, the flushes and
 * vp_win_sync (MPI 4.0, sec. 12.5.3 and 12.5.4).
 *
 * Ranks share one address space, so the origin takes the target's lock
 * itself and reaches the target's memory directly: the target calls
 * nothing. Each target of a window has one reader-writer lock word in
 * the window's shared record: 0 free, n > 0 held by n shared lockers, -1
 * held exclusive. A locker that finds it taken waits as every vp wait
 * does (thr_wait_flag through the transport: spin, yield, park; a fiber
 * yields its carrier), for the word's release count to change; every
 * release bumps that count and wakes the ranks that registered for the
 * target. The deadlock detection sees such a rank blocked like a
 * receiver; when every rank of the run is blocked and the lock is still
 * taken, the lock can never be granted, and the run fails with
 * VP_EDEADLOCK naming the lock's holder.
 *
 * Lost wake-ups: a waiter registers (waiting[rank], then waiters + 1),
 * reads the release count, tries the word, and sleeps only while the
 * count is unchanged; a releaser frees the word, bumps the count, then
 * reads waiters (all seq_cst). Either the waiter's read of the count
 * sees the bump, or the releaser's read of waiters sees the waiter.
 *
 * The model (LogGP's terms; docs/models.md, "One-sided communication"):
 * the target is passive, its ports and overhead are not used.
 *   lock     a request (0 bytes) leaves the origin's send port; the grant
 *            comes back from the target when the request arrives and the
 *            lock is free there (the last conflicting release arrived):
 *            alpha-beta 2 ts (+ 2 th hops), LogP/LogGP o + 2L
 *   put, accumulate of m bytes: the origin's send, o + (m-1)G of its time
 *            in LogGP, arriving L later; complete at that arrival
 *   get, get_accumulate, fetch_and_op, compare_and_swap: a round trip,
 *            the request (with the origin's data) there, the reply with
 *            the target's data back, sent without target overhead
 *   flush    T reaches the completion of every operation to the target
 *   unlock   a flush, then a release (0 bytes) from the origin's port
 * BSP counts the bytes in h at both ends, as under fences. Which of two
 * ranks contending for a lock gets it first follows the real
 * interleaving; with no contention the times are deterministic.
 *
 * Windows carried as messages (window_messages.c: the mpi transport)
 * take their locks with the transport's RMA instead (window_remote.c:
 * the MPI library's own passive target, lock words changed with its
 * atomics); the model above is the same. Without it (VP_WIN=messages on
 * threads) these calls fail naming the call (docs/known-limits.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "window.h"

/* One target's lock. Its own line: lockers of different targets do not
 * share one. */
struct win_lock {
	_Alignas(VP__CACHELINE) atomic_int state; /* 0, n shared, -1 excl. */
	atomic_int gen;     /* releases so far: what a waiter waits on */
	atomic_int waiters; /* ranks registered in waiting[] for it */
	atomic_int holder;  /* the rank that took it last */
	double excl_free;   /* model: the last exclusive release arrived */
	double any_free;    /* model: the last release of any kind arrived */
};

struct win_locks {
	int p;
	struct win_lock *at;   /* per target */
	atomic_int *waiting;   /* per rank: the target it waits for, or -1 */
	pthread_mutex_t model; /* excl_free, any_free */
};

static struct win_locks *locks_new(int p)
{
	struct win_locks *l = calloc(1, sizeof(*l));
	int i;

	if (!l)
		return NULL;
	l->p = p;
	l->at = aligned_alloc(VP__CACHELINE, (size_t)p * sizeof(*l->at));
	l->waiting = calloc((size_t)p, sizeof(*l->waiting));
	if (!l->at || !l->waiting) {
		free(l->at);
		free(l->waiting);
		free(l);
		return NULL;
	}
	memset(l->at, 0, (size_t)p * sizeof(*l->at));
	for (i = 0; i < p; i++) {
		atomic_init(&l->at[i].state, 0);
		atomic_init(&l->at[i].gen, 0);
		atomic_init(&l->at[i].waiters, 0);
		atomic_init(&l->at[i].holder, -1);
		atomic_init(&l->waiting[i], -1);
	}
	pthread_mutex_init(&l->model, NULL);
	return l;
}

static void locks_destroy(struct win_locks *l)
{
	if (!l)
		return;
	pthread_mutex_destroy(&l->model);
	free(l->at);
	free(l->waiting);
	free(l);
}

void vp__win_locks_free(struct win_shared *sh)
{
	locks_destroy(atomic_load(&sh->locks));
}

void vp__win_lock_free(vp_win *w)
{
	free(w->held);
	free(w->done_at);
	free(w->local_at);
	w->held = NULL;
	w->done_at = w->local_at = NULL;
}

/* The window's lock words, made by the first rank that locks. */
static struct win_locks *locks_of(vp_win *w)
{
	struct win_locks *l = atomic_load(&w->sh->locks), *mine;

	if (l)
		return l;
	if (!(mine = locks_new(w->sh->p)))
		return NULL;
	if (!atomic_compare_exchange_strong(&w->sh->locks, &l, mine)) {
		locks_destroy(mine);
		return l;
	}
	return mine;
}

/* The origin's per-target state, made at its first lock. */
static int origin_state(vp_win *w)
{
	size_t p = (size_t)w->comm->group->size;

	if (w->held)
		return 0;
	w->held = calloc(p, 1);
	w->done_at = calloc(p, sizeof(double));
	w->local_at = calloc(p, sizeof(double));
	if (!w->held || !w->done_at || !w->local_at) {
		vp__win_lock_free(w);
		return -1;
	}
	return 0;
}

int vp__win_locked(const vp_win *w, int target)
{
	return w->held && w->held[target];
}

int vp__win_access(vp_win *w, int target, const char *call)
{
	if (vp__win_locked(w, target) || w->fences ||
	    vp__win_pscw_access(w)) /* window_pscw.c checked the group */
		return VP_OK;
	return vp__fail(w->comm->me, VP_ESYNC, call,
			"target %d is outside every epoch: this rank holds no "
			"lock on it (vp_win_lock) and no fence opened one",
			target);
}

int vp_win_epochs(vp_win *w, int target)
{
	int rc, e = 0;

	if ((rc = vp__win_check(w, "vp_win_epochs")))
		return rc;
	if (w->fences)
		e |= VP_EPOCH_FENCE;
	if (w->ops)
		e |= VP_EPOCH_FENCE_OPS;
	if (w->nheld)
		e |= VP_EPOCH_LOCKED;
	if (w->all)
		e |= VP_EPOCH_LOCK_ALL;
	if (target >= 0 && target < w->comm->group->size &&
	    vp__win_locked(w, target))
		e |= VP_EPOCH_LOCK;
	return e | vp__win_pscw_epochs(w);
}

int vp__win_lock_none(vp_win *w, const char *call)
{
	int t;

	if (!w->nheld)
		return VP_OK;
	for (t = 0; !w->held[t]; t++)
		;
	return vp__fail(w->comm->me, VP_ESYNC, call,
			"a passive-target epoch is open: this rank holds %s "
			"(target %d); unlock first",
			w->all ? "vp_win_lock_all" : "a vp_win_lock", t);
}

/* ---- the model ---- */

/* T moves to t (if later); the replay sees the move as local work. */
static void reach(struct vp__rank *me, double t)
{
	struct vp__event e = { .kind = VP__EV_COMPUTE };

	if (t <= me->clock.t)
		return;
	e.work = t - me->clock.t;
	me->clock.t = t;
	if (me->clock.logs)
		vp__vec_push(&me->clock.events, &e);
}

/* A reply of n bytes from the target, sent without its overhead: the
 * message's latency less the sender's cpu. */
static double reply_time(const struct vp__model *m, size_t n, int hops)
{
	struct vp__cost c = vp__model_cost(m, n, hops);

	return c.latency - c.cpu;
}

/* The origin's send of n bytes to target: its arrival; *hops the route's
 * length. The trace draws it as an arrow into the target's line. */
static double origin_send(vp_win *w, int target, size_t n, const char *what,
			  int *hops, uint32_t *seq)
{
	struct vp__rank *me = w->comm->me;
	struct vp__world *world = me->world;
	struct vp__trace_op op;
	struct vp__envelope env = { 0 };
	int tw = vp__to_world(w->comm, target);

	vp__trace_begin(w->comm, &op, VP__EV_SEND);
	*hops = vp__clock_send(&me->clock, &world->model, &world->topo,
			       me->world_rank, tw, n, &env);
	me->clock.t = me->clock.send_cpu; /* LogP: the origin's o */
	vp__trace_stamp(&me->trace, &env);
	vp__trace_sent(w->comm, &op, tw, n, *hops, &env);
	op.rma = what;
	vp__trace_end(w->comm, &op);
	vp__clock_log(&me->clock, VP__EV_ISEND, tw, -1, (uint32_t)*hops, 0, n,
		      0);
	me->clock.messages++;
	me->clock.bytes += n;
	if (seq)
		*seq = env.seq;
	return env.arrival;
}

/* bsp: out bytes into the target, back bytes out of it, in h at both
 * ends (the origin's send of out was counted by its clock). */
static void bsp_count(vp_win *w, int target, size_t out, size_t back)
{
	struct vp__rank *me = w->comm->me;
	struct vp__rank *t = &me->world->ranks[vp__to_world(w->comm, target)];

	me->clock.h_recv += back;
	if (t == me) {
		me->clock.h_recv += out;
		me->clock.h_sent += back;
		return;
	}
	if (out)
		atomic_fetch_add(&t->bsp_in, (uint64_t)out);
	if (back)
		atomic_fetch_add(&t->bsp_out, (uint64_t)back);
}

void vp__win_lock_charge(vp_win *w, int target, size_t out, size_t back,
			 int round_trip, const char *what)
{
	struct vp__rank *me = w->comm->me;
	const struct vp__model *m = &me->world->model;
	double done;
	uint32_t seq;
	int hops;

	done = origin_send(w, target, out, what, &hops, &seq);
	if (round_trip) {
		done += reply_time(m, back, hops);
		me->clock.messages++;
		me->clock.bytes += back;
	}
	if (m->kind == VP_MODEL_BSP)
		bsp_count(w, target, out, back);
	if (vp__win_locked(w, target)) {
		double local = round_trip ? done : me->clock.send_done;

		if (done > w->done_at[target])
			w->done_at[target] = done;
		if (local > w->local_at[target])
			w->local_at[target] = local;
		return;
	}
	/* a fence epoch's round trip: the fence waits for it */
	w->last_target = target;
	if (!w->ops || done >= w->arrival) {
		w->arrival = done;
		w->last = seq;
	}
	w->ops++;
}

/* ---- the lock words ---- */

static int try_take(struct win_lock *k, int excl)
{
	int s = atomic_load(&k->state);

	if (excl)
		return s == 0 && atomic_compare_exchange_strong(&k->state, &s,
								 -1);
	while (s >= 0)
		if (atomic_compare_exchange_weak(&k->state, &s, s + 1))
			return 1;
	return 0;
}

/* Every rank is blocked and the lock is still taken: it can never be
 * granted. Fails the run with the holder named. */
static int never_granted(vp_win *w, struct win_lock *k, int target, int excl,
			 const char *call)
{
	struct vp__rank *me = w->comm->me;
	const char *layer = atomic_load(&me->layer_call);
	int s = atomic_load(&k->state), h = atomic_load(&k->holder);
	char msg[VP__ERRMSG_BYTES], held[64];

	if (s < 0)
		snprintf(held, sizeof(held), "held exclusive by rank %d", h);
	else
		snprintf(held, sizeof(held), "held shared by %d rank%s", s,
			 s == 1 ? "" : "s");
	snprintf(msg, sizeof(msg),
		 "rank %d: %s%s%s%s: deadlock: waits for %s lock on target "
		 "%d, %s, and every rank is blocked",
		 me->world_rank, layer ? layer : call, layer ? " (" : "",
		 layer ? call : "", layer ? ")" : "",
		 excl ? "an exclusive" : "a shared", target, held);
	vp__world_fail(me->world, me->world_rank, VP_EDEADLOCK, msg);
	return VP_EDEADLOCK;
}

/* Takes target's lock, waiting as a blocked rank while it is taken. */
static int acquire(vp_win *w, struct win_locks *l, int target, int excl,
		   const char *call)
{
	struct vp__rank *me = w->comm->me;
	struct win_lock *k = &l->at[target];
	int rank = w->comm->rank, rc = VP_OK, old;

	if (try_take(k, excl))
		goto taken;
	atomic_store(&l->waiting[rank], target);
	atomic_fetch_add(&k->waiters, 1);
	for (;;) {
		old = atomic_load(&k->gen);
		if (try_take(k, excl))
			break;
		rc = vp__tx(me)->wait_flag(me->tx, &k->gen, old);
		if (rc < 0)
			break;
		if (rc == 1) { /* given up: every rank of the run blocked */
			rc = try_take(k, excl)
				 ? VP_OK
				 : never_granted(w, k, target, excl, call);
			break;
		}
	}
	atomic_fetch_sub(&k->waiters, 1);
	atomic_store(&l->waiting[rank], -1);
	if (rc)
		return rc;
taken:
	atomic_store(&k->holder, rank);
	return VP_OK;
}

/* Frees target's lock; the release reached the target at t (model). */
static void release(vp_win *w, struct win_locks *l, int target, int excl,
		    double t)
{
	struct vp__rank *me = w->comm->me;
	const struct vp__transport *tx = vp__tx(me);
	struct win_lock *k = &l->at[target];
	int i;

	pthread_mutex_lock(&l->model);
	if (excl && t > k->excl_free)
		k->excl_free = t;
	if (t > k->any_free)
		k->any_free = t;
	pthread_mutex_unlock(&l->model);
	if (excl)
		atomic_store(&k->state, 0);
	else
		atomic_fetch_sub(&k->state, 1);
	atomic_fetch_add(&k->gen, 1);
	if (atomic_load(&k->waiters) <= 0)
		return;
	for (i = 0; i < l->p; i++)
		if (atomic_load(&l->waiting[i]) == target)
			tx->wake_rank(me->tx, vp__to_world(w->comm, i),
				      &k->gen);
	if (tx->wake_flag)
		tx->wake_flag(me->tx, &k->gen);
}

/* The lock is granted: when, in the model. The request left at once;
 * from: the conflicting releases arrived (the last exclusive one for a
 * shared lock, the last of any kind for an exclusive one). */
static double granted(vp_win *w, double from, double request, int hops)
{
	const struct vp__model *m = &w->comm->me->world->model;

	if (request > from)
		from = request;
	w->comm->me->clock.messages++; /* the grant */
	return from + reply_time(m, 0, hops);
}

/* Takes target's lock (unless nocheck) and says in *from when the
 * releases it waited for arrived (model): in this memory, or by the
 * transport's RMA (window_remote.c). */
static int take(vp_win *w, struct win_locks *l, int target, int excl,
		int nocheck, double *from, const char *call)
{
	struct win_lock *k = &l->at[target];
	double excl_free, any_free;
	int rc;

	if (w->msg) {
		rc = vp__win_remote_lock(w, target, excl, !nocheck, &excl_free,
					 &any_free, call);
		*from = excl ? any_free : excl_free;
		return rc;
	}
	if (!nocheck && (rc = acquire(w, l, target, excl, call)))
		return rc;
	pthread_mutex_lock(&l->model);
	*from = excl ? k->any_free : k->excl_free;
	pthread_mutex_unlock(&l->model);
	return VP_OK;
}

/* Frees target's lock, taken with take. */
static int give(vp_win *w, struct win_locks *l, int target, int excl,
		double t, const char *call)
{
	if (w->msg)
		return vp__win_remote_unlock(w, target, excl, t, call);
	release(w, l, target, excl, t);
	return VP_OK;
}

/* ---- the calls ---- */

/* Common checks: VP_OK, 1 for VP_PROC_NULL (nothing to do), or the
 * error. */
static int enter(vp_win *w, int target, int any_target, const char *call)
{
	vp_comm *c;
	int rc;

	if ((rc = vp__win_check(w, call)))
		return rc;
	c = w->comm;
	if (w->msg && !w->msg->rma)
		return vp__fail(c->me, VP_EINVAL, call,
				"passive target needs ranks that share memory "
				"or the transport's RMA; %s: fences only",
				vp__win_no_rma(w));
	if (any_target)
		return VP_OK;
	if (target == VP_PROC_NULL)
		return 1;
	if (target < 0 || target >= c->group->size)
		return vp__fail(c->me, VP_ERANK, call,
				"target %d is outside [0, %d)", target,
				c->group->size);
	return VP_OK;
}

static int no_memory(vp_win *w, const char *call)
{
	return vp__fail(w->comm->me, VP_ENOMEM, call,
			"no memory for the lock state of %d targets",
			w->comm->group->size);
}

int vp_win_lock(vp_win *w, int lock_type, int target)
{
	static const char call[] = "vp_win_lock";
	int kind = lock_type & ~VP_LOCK_NOCHECK, rc, hops;
	struct win_locks *l;
	double request, from = 0;

	if ((rc = enter(w, target, 0, call)))
		return rc < 0 ? rc : VP_OK;
	if (kind != VP_LOCK_SHARED && kind != VP_LOCK_EXCLUSIVE)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"lock type %d is not VP_LOCK_SHARED or "
				"VP_LOCK_EXCLUSIVE (with VP_LOCK_NOCHECK or'd "
				"in, or not)",
				lock_type);
	if (origin_state(w) || !(l = locks_of(w)))
		return no_memory(w, call);
	if (w->all || w->held[target])
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"this rank already holds %s on target %d",
				w->all ? "vp_win_lock_all" : "a lock", target);
	if (w->ops)
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"%d operation%s of the fence epoch (the last to "
				"target %d) await their vp_win_fence",
				w->ops, w->ops == 1 ? "" : "s", w->last_target);
	request = origin_send(w, target, 0, "lock", &hops, NULL);
	if ((rc = take(w, l, target, kind == VP_LOCK_EXCLUSIVE,
		       lock_type & VP_LOCK_NOCHECK, &from, call)))
		return rc;
	reach(w->comm->me, granted(w, from, request, hops));
	w->held[target] = (unsigned char)lock_type;
	w->nheld++;
	return VP_OK;
}

static int not_held(vp_win *w, int target, const char *call)
{
	return vp__fail(w->comm->me, VP_ESYNC, call,
			"this rank holds no lock on target %d%s", target,
			w->all ? " of its own (it holds vp_win_lock_all: end "
				 "that with vp_win_unlock_all)"
			       : " (vp_win_lock it first)");
}

/* T reaches the completion of the operations to target (by RMA: they
 * are complete at the origin when made, at the target when flushed). */
static void flush_one(vp_win *w, int target, int local)
{
	if (!local)
		vp__win_defer_land(w, target);
	if (!local && w->msg)
		vp__win_remote_flush(w, target);
	reach(w->comm->me, local ? w->local_at[target] : w->done_at[target]);
}

/* Flushes, sends the release and frees the lock of target. */
static int unlock_one(vp_win *w, struct win_locks *l, int target,
		      const char *call)
{
	int hops, type = w->held[target], rc = VP_OK;
	double t;

	flush_one(w, target, 0);
	t = origin_send(w, target, 0, "unlock", &hops, NULL);
	if (!(type & VP_LOCK_NOCHECK))
		rc = give(w, l, target,
			  (type & ~VP_LOCK_NOCHECK) == VP_LOCK_EXCLUSIVE, t,
			  call);
	w->held[target] = 0;
	w->nheld--;
	return rc;
}

int vp_win_unlock(vp_win *w, int target)
{
	static const char call[] = "vp_win_unlock";
	int rc;

	if ((rc = enter(w, target, 0, call)))
		return rc < 0 ? rc : VP_OK;
	if (w->all || !vp__win_locked(w, target))
		return not_held(w, target, call);
	return unlock_one(w, atomic_load(&w->sh->locks), target, call);
}

int vp_win_lock_all(vp_win *w, int flags)
{
	static const char call[] = "vp_win_lock_all";
	int p, t, rc, hops;
	struct win_locks *l;
	double *request, grant = 0, g, from = 0;

	if ((rc = enter(w, 0, 1, call)))
		return rc;
	if (flags & ~VP_LOCK_NOCHECK)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"flags %d are not 0 or VP_LOCK_NOCHECK", flags);
	if (origin_state(w) || !(l = locks_of(w)))
		return no_memory(w, call);
	if (w->nheld)
		return vp__win_lock_none(w, call);
	if (w->ops)
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"%d operation%s of the fence epoch await their "
				"vp_win_fence",
				w->ops, w->ops == 1 ? "" : "s");
	p = w->comm->group->size;
	/* the requests leave one after the other; each target's grant comes
	 * back when its lock is free: the model's times kept in done_at
	 * until every lock is held (in target order: lockers never wait in
	 * a cycle) */
	request = w->done_at;
	for (t = 0; t < p; t++)
		request[t] = origin_send(w, t, 0, "lock", &hops, NULL);
	for (t = 0; t < p; t++) {
		if ((rc = take(w, l, t, 0, flags & VP_LOCK_NOCHECK, &from,
			       call))) {
			while (t-- > 0) /* leave the ones taken */
				if (!(flags & VP_LOCK_NOCHECK))
					give(w, l, t, 0, 0, call);
			return rc;
		}
		hops = vp__topo_distance(&w->comm->me->world->topo,
					 w->comm->me->world_rank,
					 vp__to_world(w->comm, t));
		g = granted(w, from, request[t], hops);
		if (g > grant)
			grant = g;
	}
	for (t = 0; t < p; t++) {
		w->held[t] = (unsigned char)(VP_LOCK_SHARED | flags);
		w->done_at[t] = w->local_at[t] = 0;
	}
	w->nheld = p;
	w->all = 1 + flags;
	reach(w->comm->me, grant);
	return VP_OK;
}

int vp_win_unlock_all(vp_win *w)
{
	static const char call[] = "vp_win_unlock_all";
	struct win_locks *l;
	int t, rc, first = VP_OK;

	if ((rc = enter(w, 0, 1, call)))
		return rc;
	if (!w->all)
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"this rank holds no vp_win_lock_all%s",
				w->nheld ? " (it holds vp_win_lock: end that "
					   "with vp_win_unlock)"
					 : "");
	l = atomic_load(&w->sh->locks);
	for (t = 0; t < w->comm->group->size; t++)
		flush_one(w, t, 0);
	for (t = 0; t < w->comm->group->size; t++)
		if ((rc = unlock_one(w, l, t, call)) && !first)
			first = rc;
	w->all = 0;
	return first;
}

static int flush(vp_win *w, int target, int local, const char *call)
{
	int rc;

	if ((rc = enter(w, target, 0, call)))
		return rc < 0 ? rc : VP_OK;
	if (!vp__win_locked(w, target))
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"this rank holds no lock on target %d "
				"(vp_win_lock or vp_win_lock_all it first)",
				target);
	flush_one(w, target, local);
	return VP_OK;
}

static int flush_all(vp_win *w, int local, const char *call)
{
	int rc, t;

	if ((rc = enter(w, 0, 1, call)))
		return rc;
	if (!w->nheld)
		return vp__fail(w->comm->me, VP_ESYNC, call,
				"this rank holds no lock (vp_win_lock or "
				"vp_win_lock_all first)");
	for (t = 0; t < w->comm->group->size; t++)
		if (w->held[t])
			flush_one(w, t, local);
	return VP_OK;
}

int vp_win_flush(vp_win *w, int target)
{
	return flush(w, target, 0, "vp_win_flush");
}

int vp_win_flush_local(vp_win *w, int target)
{
	return flush(w, target, 1, "vp_win_flush_local");
}

int vp_win_flush_all(vp_win *w)
{
	return flush_all(w, 0, "vp_win_flush_all");
}

int vp_win_flush_local_all(vp_win *w)
{
	return flush_all(w, 1, "vp_win_flush_local_all");
}

int vp_win_sync(vp_win *w)
{
	int rc;

	if ((rc = vp__win_check(w, "vp_win_sync")))
		return rc;
	/* the window's one copy is the memory itself: only the order of
	 * this rank's own accesses around the call (and the RMA's view of
	 * it, MPI_Win_sync) */
	atomic_thread_fence(memory_order_seq_cst);
	if (w->msg && w->msg->rma)
		vp__tx(w->comm->me)->rma->sync(w->comm->me->tx);
	return VP_OK;
}
