/*
 * internal.h - the runtime's shared structures: the world (one run), its
 * ranks (one thread each), communicators and messages. Only runtime/ includes
 * this file; collectives/ sees nothing but include/vp.h.
 *
 * Ownership in one line each:
 *   world     created and freed by vp_run; shared by all ranks.
 *   rank      private to its thread, except the fields marked "shared".
 *   mailbox   one per (context, source, destination), created lazily by
 *             whichever end meets it first; see mailbox.h.
 *   message   allocated from and recycled to its sender's pool (pool.c).
 */
#ifndef VP_RUNTIME_INTERNAL_H
#define VP_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../topology/topology.h"
#include "mailbox.h"
#include "vp.h"

#define VP__CACHELINE 64
#define VP__NCLASS 24 /* payload size classes: inline, 512 B .. 2 GiB */

/* Message spaces of one communicator record: ctx = id * 4 + space. */
enum vp__space {
	VP__SPACE_USER = 0,
	VP__SPACE_COLL = 1,
	VP__SPACE_RUNTIME = 2, /* comm_split's own exchanges, not modelled */
};

/* What a blocked rank waits for (deadlock report and verification). */
enum vp__wait_kind {
	VP__WAIT_NONE = 0,
	VP__WAIT_RECV,	   /* a message in mailbox */
	VP__WAIT_RDV_DONE, /* its receiver to copy a rendezvous message */
};

/* One model-clock event in a rank's log, replayed for the congested time. */
enum vp__event_kind { VP__EV_SEND, VP__EV_RECV, VP__EV_SENDRECV };
struct vp__event {
	uint8_t kind;
	int32_t peer_send; /* destination world rank (SEND, SENDRECV) */
	int32_t peer_recv; /* source world rank (RECV, SENDRECV) */
	uint32_t hops;
	uint32_t recv_seq; /* sender's sequence number of the received msg */
	size_t bytes_send;
	size_t bytes_recv; /* length of the received message (RECV, SENDRECV) */
};

/* One modelled message: it holds every link of its route during
 * [start, end); link loads are computed from these after the run. */
struct vp__transfer {
	int32_t src, dst;
	double start, end;
};

/* A growable log owned by one rank, in chunks that never move (vec.c). */
#define VP__VEC_CHUNK ((size_t)4096)
struct vp__vec {
	void **chunks;
	size_t nchunks, cap_chunks;
	size_t len, elem;
};

static inline void *vp__vec_at(const struct vp__vec *v, size_t i)
{
	return (char *)v->chunks[i / VP__VEC_CHUNK] +
	       (i % VP__VEC_CHUNK) * v->elem;
}

/* A communicator record shared by its members: who is in it. */
struct vp__group {
	int id;		   /* ctx = id * 4 + space */
	int size;
	int *world_of;	   /* group rank -> world rank; NULL = identity */
	int parent, seq, color; /* made by split number seq of group parent */
	struct vp__group *next;
};

struct vp_comm {
	struct vp__world *world;
	struct vp__rank *me;
	struct vp__group *group;
	int space;	 /* VP__SPACE_USER or VP__SPACE_COLL */
	int rank;	 /* my rank in the group */
	int split_seq;	 /* splits done on this comm (same on all members) */
	struct vp_comm *coll; /* twin in the collective space */
	struct vp_comm *user; /* twin in the user space */
	int is_world;
};

/* Open-addressing map (context, direction, peer) -> mailbox, rank private. */
struct vp__peer_map {
	uint64_t *keys;
	struct vp__mailbox **vals;
	size_t cap, len;
};

struct vp__rank {
	/* shared: the doorbell. 1 = parked or about to park (counted blocked).
	 * Alone on its line: every sender to this rank reads it. */
	_Alignas(VP__CACHELINE) atomic_int bell;
	atomic_int waiting_on;	/* world rank awaited, -1 none */
	atomic_int wait_kind;	/* enum vp__wait_kind */
	atomic_int wait_ctx;
	_Atomic(struct vp__mailbox *) wait_mb;
	_Atomic(struct vp__msg *) wait_msg;
	atomic_size_t wait_bytes;
	atomic_int exited;	/* set once fn returned */

	/* shared: messages receivers hand back to this rank's pool.
	 * Own line: pushed by every receiver, popped by the owner. */
	_Alignas(VP__CACHELINE) _Atomic(struct vp__msg *) returned;

	/* private to the rank's thread from here on */
	_Alignas(VP__CACHELINE) int world_rank;
	struct vp__world *world;
	double clock;	   /* model time T */
	double port_free;  /* when the send port is free again */
	double rport_free; /* when the receive port is free again */
	uint32_t send_seq; /* modelled messages sent so far */
	uint64_t messages, bytes;
	struct vp__msg *free_list[VP__NCLASS];
	struct vp__msg *all_msgs; /* every message this pool ever made */
	size_t pool_bytes;
	struct vp__peer_map peers;
	struct vp__vec events;	  /* struct vp__event */
	struct vp__vec transfers;  /* struct vp__transfer */
	unsigned spin_budget; /* adaptive spin length, see wait.c */
	int kary;	      /* collective tuning, see vp_set_coll_params */
	size_t segment;
	struct vp__coll_log *coll_log; /* lazily made, coll_log.c */
	uint32_t step;		  /* Lamport step of the trace (trace.c) */
	/* what names the messages sent from now on, per message space
	 * (user, collective): vp_trace_label, vp_coll_note */
	const char *trace_label[2], *trace_alg[2];
	struct vp__vec trace_ops; /* struct vp__trace_op, when tracing */
	struct vp_comm comm, coll;
	pthread_t thread;
	int result;
	int raised; /* code of the last vp_error/vp_abort, 0 none */
	char errmsg[512];
};

struct vp__world {
	struct vp__topo topo;
	vp_opts opts;
	int p;
	int ncpu;
	int (*fn)(vp_comm *, void *);
	void *arg;
	struct vp__rank *ranks;
	struct vp__group world_group;

	/* Run state: 0 running, else VP_EABORT or VP_EDEADLOCK. */
	_Alignas(VP__CACHELINE) atomic_int status;
	/* Deadlock detection counters (wait.c, deadlock.c). */
	_Alignas(VP__CACHELINE) atomic_int blocked;
	atomic_int alive;
	atomic_ulong epoch; /* bumped by every unblock */

	/* The first error of the run. */
	pthread_mutex_t error_lock;
	int error_code, error_rank;
	char error[1024];
	pthread_mutex_t verify_lock;

	/* Mailbox registry (mailbox.c) and groups (comm.c). */
	pthread_mutex_t registry_lock;
	struct vp__mailbox **buckets;
	size_t nbuckets, nmailboxes;
	struct vp__group *groups;
	int next_group_id;

	/* Trace and SVG output (trace.c): on when either path is set. */
	int tracing;
	double wall0_us; /* the run's start, for wall-clock traces */
	FILE *trace_file, *svg_file;
};

/* errors.c */
int vp__fail(struct vp__rank *me, int code, const char *call, const char *fmt,
	     ...) __attribute__((format(printf, 4, 5)));
void vp__record_error(struct vp__world *w, int rank, int code,
		      const char *msg);
int vp__check_running(struct vp__rank *me);

/* wait.c: blocking with spin, yield and park; lost-wake-up free. */
int vp__block(struct vp__rank *me, enum vp__wait_kind kind, int peer,
	      struct vp__mailbox *mb, struct vp__msg *msg, size_t bytes);
void vp__wake(struct vp__world *w, int target, int waker);
void vp__wake_all(struct vp__world *w);
int vp__wait_ready(struct vp__rank *r);

/* wait.c: the waiting policy's limits (VP_SPIN_LONG, VP_SPIN_SHORT,
 * VP_YIELDS in the environment override them for tuning runs). */
extern unsigned vp__spin_long, vp__spin_short, vp__yields, vp__spin_poll;
/* Polls to try before blocking: vp__spin_poll while the running ranks fit
 * on the CPUs, else 0. */
unsigned vp__poll_budget(struct vp__world *w);

/* deadlock.c */
void vp__deadlock_check(struct vp__rank *me);

/* p2p.c: the transport under the public calls and comm_split. */
int vp__post_send(struct vp__rank *me, int ctx, int dst_world,
		  const void *buf, size_t n, int modelled,
		  struct vp__msg **rdv_out);
int vp__complete_send(struct vp__rank *me, struct vp__msg *rdv, int dst_world);
int vp__do_recv(struct vp__rank *me, int ctx, int src_world, void *buf,
		size_t n, size_t *got, double *arrival, uint32_t *seq,
		const char *call);

/* model.c */
double vp__model_send(struct vp__rank *me, int dst_world, size_t n,
		      int *hops);
void vp__model_log(struct vp__rank *me, int kind, int dst, int src,
		   uint32_t hops, uint32_t recv_seq, size_t bytes,
		   size_t rbytes);
double vp__model_recv(struct vp__rank *me, double arrival, size_t n);
void vp__model_finish(struct vp__world *w, vp_stats *st);

/* vec.c */
int vp__vec_push(struct vp__vec *v, const void *elem);
void vp__vec_free(struct vp__vec *v);

/* comm.c */
void vp__comm_init_world(struct vp__rank *r);

/* coll_log.c: which algorithm each collective used. */
void vp__coll_log_report(struct vp__world *w, vp_stats *st);
void vp__coll_log_free(struct vp__rank *r);
void vp__groups_free(struct vp__world *w);
int vp__ctx(const vp_comm *c);
int vp__to_world(const vp_comm *c, int r);

#endif /* VP_RUNTIME_INTERNAL_H */
