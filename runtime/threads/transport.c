/*
 * transport.c - the threads transport's operations (transport.h): one
 * thread per rank, messages handed over through mailboxes.
 *
 * Protocols:
 *   fastbox     n <= VP__FB_MEDIUM: the sender copies into a slot of the
 *               mailbox's fastbox when one is free (mailbox.h; past
 *               VP__FB_BYTES into the slot's share of an extension made
 *               on the mailbox's first such message), unless the message
 *               is past VP__FB_BYTES and a one-way receive waits for it
 *               with its buffer lent: then direct (receive.c, lendable).
 *   eager       n <= eager_max: the sender copies into a pooled header,
 *               queues it and returns at once (two copies, no waiting).
 *   direct      n <= eager_max, when the receiver waits for this message
 *               with its buffer lent (direct.c): the sender copies
 *               straight into it and returns (one copy, no waiting). The
 *               send half of an exchange polls briefly for that loan
 *               first.
 *   rendezvous  n > eager_max, or a synchronous send: the sender queues a
 *               header pointing at its own buffer and waits in
 *               complete_send; the receiver copies straight from that
 *               buffer (one copy), marks it DONE and wakes the sender.
 *               Even when the receiver waits with its buffer lent: a
 *               receiver pulling writes lines of its own, where a sender
 *               pushing writes lines the receiver's CPU may hold, so an
 *               exchange of long messages is faster pulled (one-way
 *               messages are alike either way). Open MPI's and
 *               MPICH's single-copy rendezvous (CMA) pull too. A sender
 *               that waits beside the copy takes a share of it, from the
 *               back (rdv_copy.c): two CPUs copy a long message.
 * Messages of one ordered pair in one context keep their order: one FIFO
 * mailbox per (context, source, destination), one consumer.
 *
 * Threads get small stacks (256 KiB by default, 1 MiB under sanitizers), so
 * p = 4096 reserves 1 GiB of address space and touches only what the rank
 * functions use.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../bulk.h"
#include "threads.h"

/* ---- messages ---- */

/*
 * The send half of an exchange (vp_sendrecv lent its receive from the same
 * partner first) that finds no loan: the partner lends its own receive as
 * soon as it enters its half, so the sender polls for that loan a little
 * (the wait policy's poll budget: only while the running ranks fit on the
 * CPUs, never with fibers, whose partner may need this carrier) before it
 * falls back to the eager path's two copies, which cost more than the
 * short wait for a partner already on its way. The message and its order
 * are the same either way: a loan is for the next message of its mailbox.
 */
static int exchange_direct(struct thr_rank *me, struct vp__mailbox *mb,
			   int ctx, int dst, int tag, const void *buf,
			   size_t n, const struct vp__envelope *env)
{
	unsigned polls, budget;

	if (n <= VP__FB_MEDIUM || n > me->tw->eager_max || me->tw->fibers ||
	    !thr_exchanging(me, ctx, dst))
		return 0;
	budget = thr_poll_budget(me->tw);
	for (polls = 0; polls < budget; polls++) {
		caa_cpu_relax();
		if (vp__direct_fill(mb, tag, buf, n, env))
			return 1;
	}
	return 0;
}

static int post_send(void *tx, int ctx, int dst, int tag, const void *buf,
		     size_t n, const struct vp__envelope *env, int sync,
		     void **pending)
{
	static char empty; /* a synchronous 0-byte send lends this */
	struct thr_rank *me = tx;
	struct thr_world *w = me->tw;
	struct vp__mailbox *mb;
	struct vp__fb_slot *slot;
	struct vp__msg *m;

	*pending = NULL;
	thr_sched_point(me);
	mb = vp__mailbox_get(me, ctx, me->world_rank, dst);
	if (!mb)
		return VP_ENOMEM;
	/* a medium message whose one-way receive waits with its buffer lent
	 * goes straight into it (receive.c, lendable); else the fastbox */
	if (!sync && n > VP__FB_BYTES && n <= VP__FB_MEDIUM &&
	    vp__direct_fill(mb, tag, buf, n, env)) {
		me->direct_sent++;
		goto posted;
	}
	if (!sync && n <= VP__FB_MEDIUM && vp__fastbox_fits(me, mb, n) &&
	    (slot = vp__fastbox_claim(mb))) {
		slot->env = *env;
		slot->tag = tag;
		slot->len = (uint32_t)n;
		if (n)
			memcpy(vp__fastbox_payload(mb, slot), buf, n);
		vp__fastbox_publish(mb, slot);
		goto posted;
	}
	/* the receiver waits with its buffer lent: one copy, no waiting
	 * (up to eager_max: see the protocols above) */
	if ((n <= w->eager_max && vp__direct_fill(mb, tag, buf, n, env)) ||
	    (!sync && exchange_direct(me, mb, ctx, dst, tag, buf, n, env))) {
		me->direct_sent++;
		goto posted;
	}
	m = vp__msg_alloc(me, !sync && n <= w->eager_max ? n : 0);
	if (!m)
		return VP_ENOMEM;
	m->len = n;
	m->src_world = me->world_rank;
	m->tag = tag;
	m->env = *env;
	m->unbuffered = sync == VP__SYNC_UNBUFFERED;
	if (!sync && n <= w->eager_max) {
		if (n)
			memcpy(m->payload, buf, n);
		m->rdv_buf = NULL;
	} else {
		m->rdv_buf = n ? buf : &empty;
		atomic_store_explicit(&m->rdv_state, VP__RDV_POSTED,
				      memory_order_relaxed);
		*pending = m;
	}
	vp__mailbox_enqueue(mb, m);
posted:
	thr_wake(w, dst, me->world_rank);
	thr_count_progress(me);
	return VP_OK;
}

static int complete_send(void *tx, void *pending, int dst)
{
	struct thr_rank *me = tx;
	struct vp__msg *rdv = pending;
	int rc, expected = VP__RDV_POSTED;

	if (!rdv)
		return VP_OK;
	rc = thr_block(me, THR_WAIT_RDV_DONE, dst, rdv->tag, NULL, rdv, rdv->len);
	if (rc == VP_OK)
		goto recycle;
	/* The run is failing. Withdraw the buffer unless the receiver is
	 * already copying from it; then let the copy finish first. */
	if (atomic_compare_exchange_strong(&rdv->rdv_state, &expected,
					   VP__RDV_CANCELLED))
		return rc; /* the header now belongs to whoever dequeues it */
	while (atomic_load(&rdv->rdv_state) != VP__RDV_DONE)
		sched_yield();
recycle:
	vp__msg_release(rdv);
	return rc;
}

static void wake_all(void *tx_world)
{
	thr_wake_all(tx_world);
}

static void forget(void *tx, int lo, int hi)
{
	struct thr_rank *me = tx;

	vp__peer_map_forget(&me->peers, lo, hi);
	me->last_mb[0] = me->last_mb[1] = NULL;
}

static void release(void *tx_world, int lo, int hi)
{
	vp__mailboxes_release(tx_world, lo, hi);
}

/* ---- the world ---- */

static int world_new(const struct vp__transport_init *in, void **tx_world,
		     void **tx_rank, char *err, size_t errlen)
{
	/* aligned_alloc, not calloc: the counters and the read-mostly
	 * fields are meant to start lines of their own (_Alignas) */
	struct thr_world *w = aligned_alloc(_Alignof(struct thr_world),
					    sizeof(*w));
	int i;

	if (!w)
		goto nomem;
	memset(w, 0, sizeof(*w));
	w->w = in->w;
	w->p = in->p;
	w->eager_max = in->opts->eager_max;
	w->stack_size = in->opts->stack_size;
	w->watchdog = in->opts->watchdog;
	w->fibers = in->opts->fibers;
	w->sched = vp__world_sched(in->w);
	w->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (w->ncpu < 1)
		w->ncpu = 1;
	thr_wait_policy_init(&w->wait, w->fibers);
	if (w->sched)
		w->wait.flag_futex = 0; /* flags are not waited at (wait.c) */
	pthread_mutex_init(&w->verify_lock, NULL);
	pthread_mutex_init(&w->released.lock, NULL);
	atomic_init(&w->blocked, 0);
	atomic_init(&w->alive, w->p);
	atomic_init(&w->unstarted, w->p);
	atomic_init(&w->epoch, 0);
	w->ranks = vp__bulk_alloc((size_t)w->p * sizeof(*w->ranks));
	if (!w->ranks)
		goto nomem;
	if (w->sched && thr_sched_init(w))
		goto nomem;
	for (i = 0; i < w->p; i++) {
		struct thr_rank *r = &w->ranks[i];
		atomic_init(&r->bell, 0);
		atomic_init(&r->waiting_on, -1);
		atomic_init(&r->wait_kind, THR_WAIT_NONE);
		atomic_init(&r->exited, 0);
		atomic_init(&r->returned, NULL);
		atomic_init(&r->watch, NULL);
		atomic_init(&r->nwatch, 0);
		atomic_init(&r->inbox.gen, 0);
		r->world_rank = i;
		r->tw = w;
		r->rank = in->ranks[i];
		pthread_mutex_init(&r->inbox.lock, NULL);
		tx_rank[i] = r;
	}
	*tx_world = w;
	return VP_OK;
nomem:
	if (w) {
		thr_sched_free(w);
		pthread_mutex_destroy(&w->verify_lock);
		pthread_mutex_destroy(&w->released.lock);
	}
	free(w);
	snprintf(err, errlen, "vp_run: no memory for %d ranks", in->p);
	return VP_ENOMEM;
}

/* A rank leaves: alive drops, and if that leaves only blocked ranks the
 * leaver checks for a deadlock on their behalf. */
void thr_rank_exit(struct thr_rank *r)
{
	struct thr_world *w = r->tw;
	int alive;

	atomic_store(&r->exited, 1);
	if (w->sched)
		thr_sched_gone(r);
	alive = atomic_fetch_sub(&w->alive, 1) - 1;
	if (alive > 0 && atomic_load(&w->blocked) >= alive)
		thr_deadlock_check(r);
}

static void rank_thread_exit(void *arg)
{
	struct thr_rank *r = arg;

	thr_rank_exit(r);
	if (r->tw->sched)
		thr_sched_leave(r);
}

/* A rank's thread. rank_exit also runs when the rank function ends the
 * thread with pthread_exit(): the run then goes on without it. */
static void *rank_thread(void *arg)
{
	struct thr_rank *r = arg;

	/* the last rank to run ends the start: the threads that made it
	 * may wait a while for a CPU (run) */
	if (atomic_fetch_sub(&r->tw->unstarted, 1) == 1)
		atomic_store(&r->tw->starting, 0);
	thr_stacks_enter(&r->tw->stacks, r->world_rank);
	if (r->tw->sched) /* a seeded run: one rank at a time (schedule.c) */
		thr_sched_take(r);
	pthread_cleanup_push(rank_thread_exit, r);
	vp__rank_main(r->rank);
	pthread_cleanup_pop(1);
	/* the alternate stack stays on: it ends with the thread, and its
	 * memory is unmapped only after the join (one system call a rank
	 * less) */
	return NULL;
}

/*
 * A start that has lasted LONG_START_NS sets the world's starting,
 * and from then on a rank that waits parks at once (wait.c): in a long
 * start its spins and yields took the CPU of this thread, which makes the
 * ranks it waits for. Not from the first rank: where the ranks parked at
 * once in a short start too, the last rank's wake-up of them all would put
 * most of them on its own CPU, and the loop right after the start would
 * run slower until the kernel had spread them again.
 */
#define LONG_START_NS 100000000UL /* 0.1 s */

/*
 * Two threads make the ranks' threads at p >= TWO_CREATORS_P where there
 * are two CPUs or more: the main thread the first half, a helper the
 * second. The kernel's clone is most of a rank's start (tens of
 * microseconds on a virtual machine) and two run side by side; where they
 * do not, two creators cost one thread and gain nothing.
 */
#define TWO_CREATORS_P 256

/* One creator's share of the ranks: [lo, hi), of which started were
 * made; err the pthread_create error that stopped it. */
struct creator {
	struct thr_world *w;
	struct timespec t0;
	int lo, hi, started, err;
};

static void *create_ranks(void *arg)
{
	struct creator *cr = arg;
	struct thr_world *w = cr->w;
	pthread_attr_t attr;
	int i, rc = 0;

	for (i = cr->lo; i < cr->hi; i++) {
		/* a start that lasts (wait.c: waiting ranks park at once) */
		if (i % 256 == 255 && !atomic_load(&w->starting) &&
		    thr_since_ns(&cr->t0) > LONG_START_NS)
			atomic_store(&w->starting, 1);
		pthread_attr_init(&attr);
		if (!w->stacks.base || thr_stacks_attr(&w->stacks, i, &attr))
			pthread_attr_setstacksize(&attr, w->stack_size);
		rc = pthread_create(&w->ranks[i].thread, &attr, rank_thread,
				    &w->ranks[i]);
		pthread_attr_destroy(&attr);
		if (rc)
			break;
	}
	cr->started = i - cr->lo;
	cr->err = rc;
	return NULL;
}

/* Ranks that could not be started count as exited; the run aborts. */
static void start_failed(struct thr_world *w, const struct creator *cr,
			 int n)
{
	char msg[400], why[300];
	int k, i, started = 0, first = -1, err = 0;

	for (k = 0; k < n; k++) {
		started += cr[k].started;
		for (i = cr[k].lo + cr[k].started; i < cr[k].hi; i++)
			atomic_store(&w->ranks[i].exited, 1);
		if (cr[k].started < cr[k].hi - cr[k].lo && first < 0) {
			first = cr[k].lo + cr[k].started;
			err = cr[k].err;
		}
	}
	thr_stacks_why(&w->stacks, started, err, why, sizeof(why));
	snprintf(msg, sizeof(msg),
		 "vp_run: could only start %d of %d rank threads: %s", started,
		 w->p, why);
	atomic_fetch_sub(&w->alive, w->p - started);
	vp__world_fail(w->w, first, VP_ENOMEM, msg);
}

static int run(void *tx_world)
{
	struct thr_world *w = tx_world;
	struct creator cr[2];
	pthread_t helper;
	int i, k, n = 1, started = 0;

	int watching = thr_watchdog_start(w);

	if (w->fibers) {
		int rc = thr_fibers_run(w);

		thr_watchdog_stop(w, watching);
		return rc;
	}
	thr_futex_table_fit(w->p);
	thr_stacks_map(&w->stacks, w->p, w->stack_size);
	cr[0] = (struct creator){ .w = w, .lo = 0, .hi = w->p };
	clock_gettime(CLOCK_MONOTONIC, &cr[0].t0);
	if (w->p >= TWO_CREATORS_P && w->ncpu >= 2) {
		cr[1] = cr[0];
		cr[0].hi = cr[1].lo = w->p / 2;
		n = pthread_create(&helper, NULL, create_ranks, &cr[1]) ? 1 : 2;
		if (n == 1)
			cr[0].hi = w->p;
	}
	create_ranks(&cr[0]);
	if (n == 2)
		pthread_join(helper, NULL);
	atomic_store(&w->starting, 0); /* also when a start failed */
	for (k = 0; k < n; k++)
		started += cr[k].started;
	if (started < w->p)
		start_failed(w, cr, n);
	if (w->sched) { /* the first rank gets the baton */
		struct thr_rank *first = thr_sched_pick(w, NULL);

		if (first)
			thr_sched_give(first);
	}
	for (k = 0; k < n; k++)
		for (i = cr[k].lo; i < cr[k].lo + cr[k].started; i++)
			pthread_join(w->ranks[i].thread, NULL);
	thr_watchdog_stop(w, watching);
	thr_stacks_unmap(&w->stacks);
	return started < w->p ? VP_ENOMEM : VP_OK;
}

static void stats(void *tx_world, vp_stats *st)
{
	struct thr_world *w = tx_world;
	int i;

	st->stack_size = w->stack_size;
	if (!w->stacks.guarded)
		st->incomplete |= VP_STATS_NO_GUARD;
	st->peak_bytes += (size_t)w->p * sizeof(struct thr_rank);
	for (i = 0; i < w->p; i++) {
		const struct thr_rank *r = &w->ranks[i];

		st->mailboxes += r->inbox.count;
		st->direct_messages += r->direct_sent;
		st->peak_bytes +=
		    r->pool_bytes +
		    r->inbox.count * sizeof(struct vp__mailbox) +
		    r->fb_exts * VP__FB_SLOTS * VP__FB_MEDIUM +
		    r->inbox.nbuckets * sizeof(void *) +
		    r->peers.cap * (sizeof(uint64_t) + sizeof(void *));
	}
}

static uint64_t unreceived(void *tx_world, struct vp__unreceived *first,
			   int max, int *npairs)
{
	struct thr_world *w = tx_world;
	uint64_t total = w->released.messages;
	size_t b;
	int r;

	*npairs = w->released.npairs;
	for (r = 0; r < w->released.npairs && r < max && r < THR_RELEASED_NAMED;
	     r++)
		first[r] = w->released.first[r];
	for (r = 0; r < w->p; r++)
		for (b = 0; b < w->ranks[r].inbox.nbuckets; b++) {
			struct vp__mailbox *mb;

			for (mb = w->ranks[r].inbox.buckets[b]; mb;
			     mb = mb->next) {
				/* sent (the sender's count) less taken, and
				 * those taken but set aside for a tag no
				 * receive named */
				uint32_t left =
				    mb->gseq - mb->expect + mb->unx_count;

				if (!left)
					continue;
				if (*npairs < max)
					first[*npairs] =
					    (struct vp__unreceived){ mb->ctx,
								     mb->src,
								     mb->dst,
								     left };
				++*npairs;
				total += left;
			}
		}
	return total;
}

static void world_free(void *tx_world)
{
	struct thr_world *w = tx_world;
	int i;

	for (i = 0; i < w->p; i++) {
		vp__pool_free(&w->ranks[i]);
		vp__peer_map_free(&w->ranks[i].peers);
		thr_receive_free(&w->ranks[i]);
	}
	vp__mailboxes_free(w);
	pthread_mutex_destroy(&w->verify_lock);
	pthread_mutex_destroy(&w->released.lock);
	vp__bulk_free(w->ranks, (size_t)w->p * sizeof(*w->ranks));
	thr_sched_free(w);
	free(w);
}

/* Every rank is a thread of this process. */
static void locals(void *tx_world, int *first, int *count)
{
	struct thr_world *w = tx_world;

	*first = 0;
	*count = w->p;
}

const struct vp__transport vp__threads_transport = {
	.name = "threads",
	.shares_memory = 1,
	.world_new = world_new,
	.run = run,
	.post_send = post_send,
	.complete_send = complete_send,
	.recv = thr_recv,
	.recv_combine = thr_recv_combine,
	.post_recv = thr_post_recv,
	.progress = thr_progress_point,
	.cancel_recv = thr_cancel_recv,
	.send_done = thr_send_done,
	.block = thr_block_set,
	.probe = thr_probe,
	.idle = thr_idle,
	.lend_recv = thr_lend_recv,
	.unlend_recv = thr_unlend_recv,
	.wake_all = wake_all,
	.forget = forget,
	.release = release,
	.stats = stats,
	.unreceived = unreceived,
	.world_free = world_free,
	.locals = locals,
	.wait_flag = thr_wait_flag,
	.wake_rank = thr_wake_rank,
	.wake_flag = thr_wake_flag,
	.none_parked = thr_none_parked,
	.crowded = thr_crowded,
};
