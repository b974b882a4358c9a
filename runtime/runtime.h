/*
 * runtime.h - the runtime above the transport seam: a run (world), its
 * ranks, communicators and groups, errors. Only runtime/ includes this file;
 * collectives/ sees vp's public headers and, of the runtime, the seam
 * coll_seam.h alone.
 *
 * A rank's state is split by concern, each part owned by one module:
 *   clock    the model clock (model/): private to the rank's thread
 *   trace    what the trace records (trace/): private to the rank's thread
 *   coll     collective tuning and the record of algorithms (coll_log.c)
 *   tx       the transport's own per-rank state (threads/, opaque here)
 * The world holds what the whole run shares: options, topology, the run's
 * status and first error, the group registry, the trace files, and the
 * transport. Nothing above the seam reaches into another rank's state while
 * the ranks run; after the join, vp_run reads every rank's records.
 *
 * Names: vp_ and VP_ are the public API's (include/vp.h); vp__ and VP__
 * the library's internal names shared between its files (never exported);
 * a file's own helpers are static and unprefixed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_H
#define VP_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../topology/topology.h"
#include "coll_seam.h"
#include "model/model.h"
#include "schedule.h"
#include "trace/trace_rank.h"
#include "transport.h"
#include "vp.h"
#include "vp/vp_layer.h"

#define VP__CACHELINE 64
/* Bytes kept of the run's first error message (vp_stats.error). */
#define VP__ERROR_BYTES 1024
/* Bytes of a rank's own last error message (vp_errmsg). */
#define VP__ERRMSG_BYTES 512

/* Message spaces of one communicator record: ctx = id * 4 + space. */
enum vp__space {
	VP__SPACE_USER = 0,
	VP__SPACE_COLL = 1,
	VP__SPACE_RUNTIME = 2, /* comm_split's own exchanges, not modelled */
	VP__SPACE_AUX = 3,     /* a library's own messages (vp_aux_comm) */
};
#define VP__SPACES 4

/* A communicator record shared by its members: who is in it. */
struct vp__group {
	atomic_int refs; /* members that have not freed it yet */
	int id;          /* ctx = id * VP__SPACES + space */
	int size;
	int *world_of;          /* group rank -> world rank; NULL = identity */
	/* world rank -> group rank, by binary search (vp__from_world, on
	 * every receive that reports its source): the members' group ranks
	 * in increasing world rank; NULL when world_of itself increases */
	int *by_world;
	int whole;              /* every world rank, in world order */
	struct vp__group *next, *prev; /* the world's list */
	/* its duplicates (vp_comm_dup) that some member has yet to make,
	 * under the world's group_lock (comm.c) */
	struct vp__dups *dups;
	/* the splits (vp_comm_split, vp_comm_create) some member is still
	 * in, met without messages, under the world's group_lock
	 * (split_slots.c) */
	struct vp__splits *splits;
	/* the barrier that sends no messages (coll_sync.c), made on first
	 * use */
	_Atomic(struct vp__sync *) sync;
};
void vp__sync_free(struct vp__group *g);
void vp__splits_free(struct vp__group *g);

struct vp__rank;
struct vp__script;
struct vp__plan;
struct vp__script *vp__scripts_new(int p);
void vp__scripts_free(struct vp__script *s, int p);
void vp__scripts_reset(struct vp__script *s, int p);
/* 1 when every member's script is complete; *spoiled when one is */
int vp__scripts_complete(const struct vp__script *s, int p, int *spoiled);
struct vp__script *vp__script_of(struct vp__script *s, int member);
void vp__script_begin(struct vp__rank *me, struct vp__script *s);
void vp__script_end(struct vp__rank *me, int rc);
/* a call that moves the clock without a message of its own */
void vp__script_spoil(struct vp__rank *me);
void vp__script_send(struct vp__rank *me, int dst_world, size_t n);
void vp__script_recv(struct vp__rank *me, int src_world, uint32_t seq,
		     size_t len);
void vp__script_sendrecv(struct vp__rank *me, int dst_world, size_t sn,
			 int src_world, uint32_t seq, size_t rlen);
/* NULL when the scripts do not fit together */
struct vp__plan *vp__plan_make(const vp_comm *c, struct vp__script *s, int p);
void vp__plan_free(struct vp__plan *pl);
void vp__plan_charge(struct vp__plan *pl, const struct vp__script *s,
		     vp_comm *const *members);

/* A communicator handle's state: live until vp_comm_free marks it freed
 * (its memory is kept until the run ends, so a freed handle is recognised
 * without touching freed memory). */
#define VP__COMM_LIVE 0x76702d63u  /* "vp-c" */
#define VP__COMM_FREED 0x66726565u /* "free" */

struct vp_comm {
	unsigned magic;      /* VP__COMM_LIVE or VP__COMM_FREED */
	uint32_t coll_calls; /* collectives begun (user twin; both use it) */
	struct vp__world *world;
	struct vp__rank *me;
	struct vp__group *group;
	int space;     /* VP__SPACE_USER, _COLL or _AUX */
	int rank;      /* my rank in the group */
	int split_seq; /* splits done on this comm (same on all members) */
	unsigned long dups; /* vp_comm_dup calls on it (same on all members) */
	int windows;   /* windows made on this comm (same on all members) */
	struct vp_comm *coll; /* twin in the collective space */
	struct vp_comm *user; /* twin in the user space */
	struct vp_comm *aux;  /* twin in the library space (vp_aux_comm) */
	int is_world;
	struct vp_comm *next_freed; /* the rank's list of freed handles */
	/* the rank's live sub-communicators (user twins), freed at the
	 * run's end where the program forgot them (comm.c) */
	struct vp_comm *live_prev, *live_next;
	/* vp_comm_free came while requests on it were live: it goes when
	 * they have completed (user twin; comm.c) */
	int doomed;
};

/* A collective call as its rank began it (coll_check.c). */
struct vp__coll_call {
	_Atomic uint32_t call; /* its number on the communicator, + 1 */
	uint32_t hash;
	int ctx; /* the communicator's collective context */
	vp_coll_sig sig;
};
/* The last calls of a rank, for naming what differs. */
#define VP__COLL_HISTORY 8

/* Collective tuning of one rank (vp_set_coll_params) and its record of
 * which algorithm ran (coll_log.c). */
struct vp__coll_state {
	int kary;
	size_t segment;
	struct vp__coll_log *log; /* made on first use */
	uint32_t call, hash;      /* the current call's number and hash */
	int ctx;                  /* and its context (-1: none yet) */
	/* the last signature hashed and its hash (valid when its call is
	 * set): a repeated call does not hash again */
	vp_coll_sig hashed_sig;
	uint32_t hashed;
	const char *next_elem; /* vp_coll_types: the next call's elements */
	/* written by the rank, read by a receiver naming a mismatch */
	struct vp__coll_call history[VP__COLL_HISTORY];
	/* AUTO's last choice for each collective (coll_seam.h) */
	struct vp__auto_memo auto_memo[VP_COLL_COUNT_];
	/* the last collective call's checked arguments (coll_seam.h) */
	struct vp__call_memo call_memo;
};

/* A rank's requests (request.c): chunks that live until the run ends, the
 * live ones, and the freed ones queued before reuse. */
struct vp_req;
struct vp__req_chunk {
	struct vp__req_chunk *next;
};
struct vp__req_pool {
	struct vp__req_chunk *chunks;
	struct vp_req *fresh; /* the unused tail of the newest chunk */
	int room;
	struct vp_req *queue, *queue_tail; /* freed, oldest first */
	int nlive, nqueued;
	unsigned stamp; /* the last array call's mark (request.c) */
};

struct vp__rank {
	/* Private to the rank's thread while it runs. Each rank starts on a
	 * line of its own: neighbours in the array never share one. */
	_Alignas(VP__CACHELINE) int world_rank;
	struct vp__world *world;
	void *tx; /* the transport's state of this rank */
	struct vp__clock clock;
	struct vp__trace_rank trace;
	struct vp__coll_state coll_state;
	struct vp_comm comm, coll, aux;
	struct vp_comm *freed; /* freed sub-communicators (pairs), comm.c */
	struct vp_comm *spare; /* past the quarantine, to be reused (comm.c) */
	struct vp_comm *live;  /* live ones (comm.c) */
	struct vp__req_pool reqs;
	struct vp_win *wins; /* every window this rank made (window.c) */
	int nfreed;
	/* which of the group ids this rank hands out are in use, and the
	 * lowest that may be free (group_ids.c, under the world's id_lock) */
	uint64_t *ids_used;
	int ids_words, ids_low;
	/* The public call the rank is in (vp__enter), for error messages and
	 * deadlock reports; space VP__SPACE_COLL: inside the collective whose
	 * name is trace.label[1]. Written by the rank, read by a deadlock
	 * check only while the rank is blocked. */
	_Atomic(const char *) doing;
	atomic_int doing_space;
	/* The call of a layer above vp that the rank's vp calls are made
	 * for (vp_call_as: "MPI_Recv"), NULL when none. */
	_Atomic(const char *) layer_call;
	/* vp_msg_types: the codes (and names) of the element type of the
	 * messages the rank sends and of the receives it posts, 0 untyped */
	uint32_t send_type, recv_type;
	const char *send_type_name, *recv_type_name;
	int result;
	int raised; /* code of the last vp_error/vp_abort, 0 none */
	/* records.c: the strings of this rank's records when they were
	 * unpacked from another process (labels, call names), else NULL */
	char *strings;
	/* p2p_reduce.c: where a reducing receive's message lands on a
	 * transport that cannot combine in place (kept, grown as needed: a
	 * fresh 1 MiB malloc per call paid its page faults every time) */
	void *combine_scratch;
	size_t combine_scratch_len;
	/* coll_script.c: the script of the collective call being recorded,
	 * NULL when none (every send and receive checks it) */
	struct vp__script *script;
	char errmsg[VP__ERRMSG_BYTES];
	/* bsp: bytes other ranks put into (in) or got from (out) this rank's
	 * shared windows in the open superstep; added by them, taken by the
	 * rank at the superstep's end (superstep.c). */
	_Alignas(VP__CACHELINE) _Atomic uint64_t bsp_in, bsp_out;
};

struct vp__world {
	struct vp__topo topo;
	vp_topo topo_info; /* its public description (vp_topo_info) */
	vp_opts opts;
	struct vp__model model;
	int p;
	int check_buffers; /* VP_CHECK=buffers (request.c) */
	/* the first error's message when strdup could not copy it */
	char error_kept[256];
	int (*fn)(vp_comm *, void *);
	void *arg;
	struct vp__rank *ranks;
	/* where each rank's model logs start (vp__clock_lend), or NULL */
	char *clock_logs;
	size_t clock_lent, clock_lent_bytes; /* events a log, bytes a rank */
	struct vp__group world_group;
	const struct vp__transport *tx_ops;
	void *tx; /* the transport's state of the run */
	/* The ranks this process runs (all of them with threads); the
	 * process running rank 0 writes the trace and prints the report. */
	int local_first, local_count;

	/* Run state: 0 running, else VP_EABORT or VP_EDEADLOCK. Read on every
	 * call, written once: alone on its line. */
	_Alignas(VP__CACHELINE) atomic_int status;

	/* The first error of the run. */
	_Alignas(VP__CACHELINE) pthread_mutex_t error_lock;
	int error_code, error_rank;
	char *error; /* its whole message (a deadlock report may be long) */
	/* A deadlock caused by point-to-point waits: a wait-for cycle that
	 * joins only ranks blocked outside collectives, or a receive from any
	 * rank that nothing can match (vp__world_cycle_cause). */
	int p2p_cycle;

	/* Groups made by vp_comm_split (comm.c). */
	pthread_mutex_t group_lock;
	struct vp__group *groups;
	pthread_mutex_t id_lock; /* the ranks' group ids (group_ids.c) */

	struct vp__trace_world trace;

	/* Which collectives may run without their messages
	 * (VP_SHARED_COLLECTIVES, run.c), and how many did (coll_sync.c):
	 * one add per call, by its last arrival. */
	int shared_colls; /* VP__SHARED_* */
	_Alignas(VP__CACHELINE) atomic_ullong shared_calls;

	/* A seeded run's schedule (vp_opts.schedule; schedule.h). */
	int scheduled;
	struct vp__sched sched;
};

/* The transport's operations, from a rank. */
static inline const struct vp__transport *vp__tx(const struct vp__rank *me)
{
	return me->world->tx_ops;
}

/* errors.c. The error paths are marked cold, so that the compiler moves
 * the branches that reach them out of the hot functions' bodies: where
 * ranks outnumber the CPUs every turn starts with a cold instruction cache,
 * and each line of code a message runs costs (docs/performance.md, "The
 * mpi transport"). */
int vp__fail(struct vp__rank *me, int code, const char *call, const char *fmt,
	     ...) __attribute__((format(printf, 4, 5), cold));
void vp__record_error(struct vp__world *w, int rank, int code, const char *msg)
    __attribute__((cold));
int vp__check_running(struct vp__rank *me);
/* vp__enter's every other case: a freed or bad handle, another thread. */
int vp__enter_slow(vp_comm *c, const char *call) __attribute__((cold));
/* request.c: the rank whose thread (or fiber) is calling; NULL on any
 * other thread. */
struct vp__rank *vp__self(void);

/* Every public call on a communicator starts here: c is a live handle, the
 * caller is c's rank's own thread, and the run is not failing. VP_OK, or
 * the error (the run fails, naming the call). Inline: every message pays
 * it at least twice (a nonblocking one four times). */
static inline int vp__enter_mine(vp_comm *c, const char *call);

static inline int vp__enter(vp_comm *c, const char *call)
{
	if (__builtin_expect(c->magic != VP__COMM_LIVE || vp__self() != c->me,
			     0))
		return vp__enter_slow(c, call);
	return vp__enter_mine(c, call);
}

/* vp__enter where the caller has checked that c is live and that the
 * calling thread is its rank's. */
static inline int vp__enter_mine(vp_comm *c, const char *call)
{
	struct vp__rank *me = c->me;

	/* relaxed: read by a deadlock check only while this rank is blocked,
	 * after the blocking's own synchronisation */
	atomic_store_explicit(&me->doing, call, memory_order_relaxed);
	atomic_store_explicit(&me->doing_space, c->space, memory_order_relaxed);
	if (__builtin_expect(atomic_load_explicit(&c->world->status,
						  memory_order_acquire) != 0, 0))
		return vp__check_running(me);
	return VP_OK;
}

/* errors.c: what rank r is doing, "vp_recv" or "vp_barrier (its
 * vp_sendrecv)", into buf. */
const char *vp__rank_doing(const struct vp__rank *r, char *buf, size_t len);
/* The public call rank r made last, for a watchdog that looks at a rank
 * that may be running. */
const char *vp__rank_last_call(const struct vp__rank *r);
/* p2p.c: names rank w (a world rank) as c numbers it: "rank 3", or
 * "sub-rank 0 (world rank 3)" on a sub-communicator. */
const char *vp__peer_name(const vp_comm *c, int w, char *buf, size_t len);

/* p2p.c: the argument checks of every point-to-point call (a failure
 * names the rank, the call and the value; vp__check_source also admits
 * VP_ANY_SOURCE), and the modelled post of a send (returns the hops or a
 * VP_E* code). */
int vp__check_peer_named(vp_comm *c, int peer, const char *call,
			 const char *role);
int vp__check_buf_named(vp_comm *c, const void *buf, size_t n,
			const char *call, const char *what);
int vp__check_tag_named(vp_comm *c, int tag, int any_ok, const char *call);
/* Inline, every message passes them: the usual case in a compare or two,
 * the rest (strict mode's links, every failure) in the _named functions. */
static inline int vp__check_peer(vp_comm *c, int peer, const char *call,
				 const char *role)
{
	if (__builtin_expect((unsigned)peer < (unsigned)c->group->size &&
				 !c->world->opts.strict,
			     1))
		return VP_OK;
	return vp__check_peer_named(c, peer, call, role);
}
static inline int vp__check_source(vp_comm *c, int src, const char *call)
{
	return src == VP_ANY_SOURCE ? VP_OK
				    : vp__check_peer(c, src, call, "source");
}
static inline int vp__check_buf(vp_comm *c, const void *buf, size_t n,
				const char *call, const char *what)
{
	if (__builtin_expect(buf && buf != VP_IN_PLACE, 1))
		return VP_OK;
	return vp__check_buf_named(c, buf, n, call, what);
}
static inline int vp__check_tag(vp_comm *c, int tag, int any_ok,
				const char *call)
{
	if (__builtin_expect(tag >= 0 && tag <= VP_TAG_MAX, 1))
		return VP_OK;
	return vp__check_tag_named(c, tag, any_ok, call);
}
/* The sync a user's send posts with: a seeded run may make a standard
 * send VP__SYNC_UNBUFFERED (p2p.c). */
int vp__p2p_sync_of(vp_comm *c, int sync);
int vp__p2p_post(vp_comm *c, int dst_world, int tag, const void *buf,
		 size_t n, struct vp__envelope *env, int sync, void **pending);
/* 1 if [a, a + na) and [b, b + nb) share a byte. */
static inline int vp__overlap(const void *a, size_t na, const void *b,
			      size_t nb)
{
	const char *x = a, *y = b;

	return na && nb && x < y + nb && y < x + na;
}
/* p2p.c: a receive and an exchange whose arguments are checked, modelled
 * and traced under the name call; x (may be NULL) makes the receive a
 * reduction's (struct vp__xcombine), buf then being scratch for a
 * transport that cannot combine in place (unused otherwise). */
int vp__recv_checked(vp_comm *c, int src, int tag, void *buf, size_t n,
		     const struct vp__xcombine *x, vp_status *st,
		     const char *call);
int vp__sendrecv_checked(vp_comm *c, int dst, const void *sbuf, size_t sn,
			 int src, void *rbuf, size_t rn,
			 const struct vp__xcombine *x, const char *call);

/* p2p.c: the messages of the runtime itself (comm_split), in context ctx and
 * outside the model clock. */
int vp__runtime_send(struct vp__rank *me, int ctx, int dst_world,
		     const void *buf, size_t n, const char *call);
int vp__runtime_send_tag(struct vp__rank *me, int ctx, int dst_world,
			 int tag, const void *buf, size_t n, const char *call);
int vp__runtime_recv(struct vp__rank *me, int ctx, int src_world, int tag,
		     void *buf, size_t n, const char *call);

/* request.c: the calling thread is rank r's; after its function returned,
 * its requests not completed fail the run and are withdrawn; at the end,
 * the pool goes. */
void vp__requests_enter(struct vp__rank *r);
void vp__requests_settle(struct vp__rank *r);
void vp__requests_free(struct vp__rank *r);
/* How many of the rank's requests are live (not yet completed) on the
 * communicator whose user twin is user (vp_comm_free). */
int vp__comm_requests(struct vp__rank *r, const vp_comm *user);

/* 1 when world rank r runs in this process (its records may be read
 * while the ranks run when the transport shares memory). */
static inline int vp__is_local(const struct vp__world *w, int r)
{
	return r >= w->local_first && r < w->local_first + w->local_count;
}

/* window.c: the windows' memory, after the run */
void vp__windows_free(struct vp__rank *r);
void vp__windows_settle(struct vp__rank *r); /* a rank returned */

/* comm.c */
void vp__comm_init_world(struct vp__rank *r);
int vp__rt_send(vp_comm *c, int dst, const void *buf, size_t n,
		const char *call);
int vp__rt_recv(vp_comm *c, int src, void *buf, size_t n, const char *call);
void vp__groups_free(struct vp__world *w);

/* split_slots.c: a split's entries exchanged without messages. The
 * verdict: the last member to arrive adds it to the table (check: a
 * member asked for vp_comm_create's check; scratch: an int a member). */
typedef int vp__split_verdict(vp_comm *c, int *table, int check,
			      int *scratch, const char *call);
int vp__split_slots_may(const vp_comm *c);
int vp__split_meet(vp_comm *c, unsigned long seq, const int *mine,
		   size_t ints, size_t len, int check, int *table,
		   vp__split_verdict *verdict, int *scratch, const char *call);

/* coll_sync.c: wakes every member of c waiting at flag, after the
 * waker's store to it */
void vp__wake_members(const vp_comm *c, atomic_int *flag);
void vp__comms_free(struct vp__rank *r); /* the freed handles, at the end */
/* n consecutive group ids of me's own (group_ids.c): the first's k (its id
 * is 1 + world rank + p k), or -1 when out of ids or memory. */
int vp__ids_take(struct vp__rank *me, int n);
/* Group id id has no member left: its number may be taken again
 * (where every rank shares this process; else nothing). */
void vp__ids_give(struct vp__world *w, int id);
void vp__ids_free(struct vp__rank *r); /* at the end */
/* c's message context of its space, and world rank of its rank r:
 * inline, read on every message */
static inline int vp__ctx(const vp_comm *c)
{
	return c->group->id * VP__SPACES + c->space;
}
static inline int vp__to_world(const vp_comm *c, int r)
{
	return c->group->world_of ? c->group->world_of[r] : r;
}
int vp__from_world(const vp_comm *c, int w); /* c's rank of world rank w */

/* coll_check.c: the envelope of a collective's message, and the check of
 * one received. */
void vp__coll_stamp(const vp_comm *c, struct vp__envelope *env);
int vp__coll_check(vp_comm *c, int src_world, const struct vp__envelope *env,
		   const char *call);
/* msg_type.c: the type code a receive posted on c expects (0 outside the
 * user space; a send stamps me->send_type there), and the check on
 * receipt. */
static inline uint32_t vp__recv_type(const vp_comm *c)
{
	return c->space == VP__SPACE_USER ? c->me->recv_type : 0;
}
int vp__type_check(vp_comm *c, int src_world, int tag, uint32_t expect,
		   const struct vp__envelope *env, const char *call);
/* After the join, with a message in out: 2 when two ranks recorded the
 * same collective call with different arguments (the cause of a silent run
 * or of a deadlock), 1 when they made different numbers of collective
 * calls on the world (the cause of a run that ended well; a mere symptom
 * where ranks deadlocked midway), 0 neither. */
int vp__coll_postmortem(const struct vp__world *w, char *out, size_t len);

/* coll_log.c: which algorithm each collective used. */
void vp__coll_log_report(struct vp__world *w, vp_stats *st);
void vp__coll_log_free(struct vp__rank *r);
size_t vp__coll_log_bytes(void); /* the size of a rank's log (records.c) */

#endif /* VP_RUNTIME_H */
