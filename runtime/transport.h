/*
 * transport.h - the seam between vp's runtime and whatever moves the bytes.
 *
 * Above the seam (runtime/, model/, trace/): the public calls check their
 * arguments, the model clock stamps an envelope for each message, the trace
 * records the call. Below it, a transport moves the payload and the
 * envelope from one rank to another, blocks a rank that waits, wakes it,
 * and starts and joins the ranks. A transport never reads an envelope: it
 * carries it, so it knows nothing of cost models or traces.
 *
 * Two transports exist: threads/ (ranks as threads of one process,
 * lock-free mailboxes) and mpi/ (ranks as the processes of an MPI job,
 * built only by make MPI=1). Adding one means a new folder with its own
 * struct vp__transport and one line in run.c's table.
 *
 * Contract (who calls what, from which thread, what may run concurrently):
 *
 *   world_new    vp_run's thread, once, before any rank runs. Sets up the
 *                transport's state of the run and of each of its p ranks.
 *                Returns 0, or a VP_E* code with a message in err.
 *   run          vp_run's thread. Runs vp__rank_main(r) once for every
 *                rank r of this process and returns when all have returned.
 *                A rank that cannot be started is reported with
 *                vp__world_fail (the others then see VP_EABORT).
 *   post_send    the sending rank's thread. Queues n bytes of buf with env
 *                and tag (>= 0) for rank dst in context ctx and returns at
 *                once (0) or a VP_E* code. If the transport did not copy buf, it sets
 *                *pending and the sender must call complete_send before it
 *                reuses buf. sync (vp_ssend_tag): the transport must not
 *                copy buf aside; complete_send then returns only once a
 *                receive has taken the message (MPI's synchronous send). Messages of one (ctx, sender, receiver) arrive
 *                in post order.
 *   complete_send  the same thread: waits until the pending send's buffer
 *                is free again. On a failing run it withdraws the buffer and
 *                returns VP_EABORT or VP_EDEADLOCK.
 *   recv         the receiving rank's thread: waits for the first message
 *                of (ctx, src, me) (src may be VP_ANY_SOURCE: any sender,
 *                in the order the receiver saw them arrive; a receive
 *                never overtakes receives posted before it) whose tag is tag (any tag for
 *                VP_ANY_TAG; messages of one tag in send order, MPI's
 *                non-overtaking rule), copies at most n bytes into buf, and
 *                gives back its full length, its envelope, its sender
 *                and its tag. A message longer
 *                than n is consumed, nothing is written, and *len says how
 *                long it was (the caller reports VP_ETRUNC).
 *   recv_combine the same, for a reduction: the message is combined into
 *                a result where it lies (struct vp__xcombine).
 *   post_recv, progress, cancel_recv, send_done, block, probe
 *                the rank's own thread: nonblocking calls. A message goes
 *                to the oldest posted receive that matches it (MPI's
 *                rule); messages nothing matches wait aside in arrival
 *                order for a later receive or probe.
 *   forget       a rank's thread, from vp_comm_free: the rank drops what
 *                it keeps for the communicator's contexts.
 *   release      the thread of the last member to free a communicator:
 *                the contexts' mailboxes go (their unreceived messages
 *                are still counted).
 *   wake_all     any thread, after the runtime set the run's status to
 *                failed: every rank blocked in complete_send or recv
 *                returns VP_EABORT (or VP_EDEADLOCK) promptly.
 *   stats        vp_run's thread after run: the transport's own figures
 *                (mailboxes, memory).
 *   locals       any time after world_new: the ranks this process runs.
 *                A transport across processes runs some ranks here and
 *                the others elsewhere; before its run returns, it gives
 *                every process every rank's records
 *                (vp__records_pack/unpack) and the run's agreed first
 *                error (vp__world_error/adopt_error), so that what vp_run
 *                reports is the same in every process.
 *   unreceived   vp_run's thread after run: the messages left in flight.
 *   world_free   vp_run's thread, last.
 *
 * post_send, complete_send and recv of different ranks run concurrently
 * with one another and with wake_all; one rank's calls never overlap (a
 * rank is one thread). Deadlock detection belongs to the transport: when
 * every live rank is blocked and nothing can arrive, it calls
 * vp__world_fail with VP_EDEADLOCK and a report naming what each rank
 * waits for.
 *
 * Services the runtime gives a transport (defined in runtime/):
 *   vp__rank_main(r)              runs the user's function for rank r
 *   vp__world_status(w)           0 while running, else VP_EABORT or
 *                                 VP_EDEADLOCK (any thread, lock-free)
 *   vp__world_fail(w, rank, code, msg)  records the run's first error, sets
 *                                 the status and calls wake_all
 *   vp__rank_doing(r, buf, len)   the user's call rank r is blocked in
 *   vp__rank_in_collective(r)     whether that call is a collective
 *   vp__world_cycle_cause(w, p2p) what the deadlock's cycle is made of
 *   vp__deadlock_report(p, state, ctx, &p2p)  the report's text
 *
 * Names: tx is a transport (a rank's tx, the world's tx and tx_ops); the
 * x of struct vp__xrecv, vp__xwait (kinds VP__XW_*), vp__xprobe and
 * vp__xcombine marks a receive, a wait, a probe and a combining receive
 * as they cross the seam to the transport; ctx is a message space (a
 * communicator's context).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_TRANSPORT_H
#define VP_RUNTIME_TRANSPORT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "vp.h"

struct vp__world;
struct vp__rank;

/* What rides with every message, stamped above the seam and handed back
 * unread on receipt. */
struct vp__envelope {
	double arrival;     /* model: when the last byte arrives */
	uint32_t seq;       /* model: the sender's modelled send number */
	uint32_t step;      /* trace: the sender's Lamport step */
	uint32_t coll_call; /* check: the collective call it belongs to */
	union {
		uint32_t coll_hash; /* check: the hash of that call's arguments */
		uint32_t type_code; /* point-to-point: its element type, 0 none
				       (msg_type.c) */
	};
};

/*
 * A receive that combines its message into a result instead of copying it
 * (the reductions): fn computes out = message op mine, element by element,
 * reading the message where the transport holds it (a fastbox slot, a
 * queued copy, or, for a rendezvous, the sender's own buffer). One pass over
 * the data instead of a copy into scratch and a pass over the scratch. fn
 * runs on the receiving rank's thread and only for a message of exactly n
 * bytes (any other length is left unread for the caller to report); mine
 * may be out. A transport never lends out to a sender.
 */
struct vp__xcombine {
	void (*fn)(const struct vp__xcombine *x, const void *in);
	const void *mine;
	void *out;
	size_t count;
	int type, op; /* vp_type, vp_op */
};

/*
 * A receive posted before its message is taken: vp_irecv's, and a blocking
 * receive that must queue behind posted ones or names VP_ANY_SOURCE. The
 * runtime owns the memory; post_recv links it into the rank's queue of
 * posted receives (in post order) and the transport fills the results when
 * a message matches it. Only the owning rank's thread touches it.
 */
struct vp__xrecv {
	int ctx, src, tag; /* src: a world rank or VP_ANY_SOURCE */
	void *buf;
	size_t n;
	const struct vp__xcombine *combine; /* NULL: copy into buf */
	/* results, valid once done */
	int done;
	int rc;               /* VP_OK, or VP_EABORT: the sender withdrew */
	size_t len;           /* the message's full length (> n: truncated) */
	int got_src, got_tag; /* world rank, tag */
	struct vp__envelope env;
	struct vp__xrecv *next; /* the transport's queue */
};

/* One thing a rank blocks for (block): a message that may match a receive
 * or a probe (ctx, peer, tag; peer may be VP_ANY_SOURCE), or a lent send
 * buffer (pending from post_send) to be taken. */
enum vp__xwait_kind { VP__XW_RECV, VP__XW_PROBE, VP__XW_SEND };
struct vp__xwait {
	int kind;
	int ctx, peer, tag; /* peer: world rank */
	size_t bytes;       /* for reports */
	void *pending;      /* VP__XW_SEND */
};

/* What a probe found: the first matching message, left where it is. */
struct vp__xprobe {
	int src, tag; /* world rank */
	size_t len;
	struct vp__envelope env;
};

/* What a transport is given to set up a run. */
struct vp__transport_init {
	struct vp__world *w;     /* handed back to the runtime's services */
	int p;                   /* ranks of the run */
	const vp_opts *opts;     /* defaults filled */
	struct vp__rank **ranks; /* ranks[r]: what vp__rank_main(r) runs */
};

/* Messages sent on one (context, sender, receiver) and never received. */
struct vp__unreceived {
	int ctx, src, dst;
	uint64_t messages;
};

/*
 * The operations. A transport's state is opaque above the seam: world_new
 * returns the run's (tx_world) and fills tx_rank[r] for each rank; the
 * per-message operations take the calling rank's.
 */
struct vp__transport {
	const char *name;
	/* 1: every rank of the run is in this process's memory, so the
	 * runtime may read another rank's records while the ranks run (to
	 * name a collective's differing argument) and one-sided windows may
	 * load and store directly. */
	int shares_memory;
	int (*world_new)(const struct vp__transport_init *in, void **tx_world,
			 void **tx_rank, char *err, size_t errlen);
	int (*run)(void *tx_world);
	int (*post_send)(void *me, int ctx, int dst, int tag, const void *buf,
			 size_t n, const struct vp__envelope *env, int sync,
			 void **pending);
	int (*complete_send)(void *me, void *pending, int dst);
	int (*recv)(void *me, int ctx, int src, int tag, void *buf, size_t n,
		    size_t *len, struct vp__envelope *env, int *got_src,
		    int *got_tag);
	/* recv of n bytes that hands the message to x->fn where it lies
	 * instead of copying it (struct vp__xcombine). May be NULL: the
	 * runtime then receives into scratch and combines from there. */
	int (*recv_combine)(void *me, int ctx, int src, int tag,
			    const struct vp__xcombine *x, size_t n,
			    size_t *len, struct vp__envelope *env,
			    int *got_src, int *got_tag);
	/* Nonblocking receives. post_recv queues r (and may complete it at
	 * once); progress matches whatever has arrived to the posted
	 * receives, oldest first; cancel_recv unlinks a receive not done.
	 * send_done says whether a pending send's buffer was taken (then
	 * complete_send returns at once). block waits until one of n things
	 * may have happened (the caller then calls progress and looks);
	 * VP_EABORT or VP_EDEADLOCK when the run fails. probe finds the first
	 * message matching (ctx, src, tag) without taking it, waiting for one
	 * if blocking; *found 0 when not blocking and there is none. */
	int (*post_recv)(void *me, struct vp__xrecv *r);
	int (*progress)(void *me);
	void (*cancel_recv)(void *me, struct vp__xrecv *r);
	int (*send_done)(void *me, void *pending);
	int (*block)(void *me, const struct vp__xwait *w, int n);
	int (*probe)(void *me, int ctx, int src, int tag, int blocking,
		     int *found, struct vp__xprobe *out);
	/* A hint before a send whose receive follows at once (sendrecv):
	 * the next recv will be (ctx, src, tag, buf, n), or recv_combine
	 * with x when x is not NULL, so the transport may let the sender
	 * fill buf (or combine into x->out) meanwhile. Either that receive
	 * follows, with the same arguments, or unlend_recv(ctx, src). Both
	 * may be NULL (no such hint). */
	/* A nonblocking call (vp_test, vp_testall, vp_iprobe) found nothing
	 * done: the transport may give the CPU to ranks that can make
	 * progress (a test loop must not starve the sender it waits for).
	 * May be NULL. */
	void (*idle)(void *me);
	void (*lend_recv)(void *me, int ctx, int src, int tag, void *buf,
			  size_t n, const struct vp__xcombine *x);
	void (*unlend_recv)(void *me, int ctx, int src);
	void (*wake_all)(void *tx_world);
	/* The calling rank will not use contexts lo..hi again (it freed the
	 * communicator), and, once every member has said so, nobody will. */
	void (*forget)(void *me, int lo, int hi);
	void (*release)(void *tx_world, int lo, int hi);
	void (*stats)(void *tx_world, vp_stats *st);
	/* After run: how many messages were never received, with the first
	 * max pairs (*npairs set to how many pairs there are in all). */
	uint64_t (*unreceived)(void *tx_world, struct vp__unreceived *first,
			       int max, int *npairs);
	void (*world_free)(void *tx_world);
	/* The ranks this process runs: first .. first + count - 1. */
	void (*locals)(void *tx_world, int *first, int *count);
	/* Where ranks do not share memory: rank src's record of its
	 * collective call want (its number + 1) on context ctx, asked of
	 * src's process to name a mismatch's differing argument. 1 with *out
	 * filled (out->call pointing into name), 0 when src no longer has
	 * the record or does not answer soon. May be NULL. */
	int (*coll_record)(void *me, int src, int ctx, uint32_t want,
			   vp_coll_sig *out, char *name, size_t len);
	/* Where ranks share memory, the barrier that sends no messages
	 * (coll_sync.c). wait_flag blocks until *flag != old: 0 then, 1 when
	 * the wait was given up because every rank of the run is blocked
	 * (the caller then sends the barrier's messages, which show where
	 * the run is stuck), or VP_EABORT / VP_EDEADLOCK when the run fails.
	 * wake_rank wakes a rank blocked in wait_flag after its flag
	 * changed, or leaves it to wake_flag, called once after the
	 * members' wake_rank, which wakes every rank still asleep at flag.
	 * The three NULL elsewhere. */
	int (*wait_flag)(void *me, atomic_int *flag, int old);
	void (*wake_rank)(void *me, int world_rank, atomic_int *flag);
	void (*wake_flag)(void *me, atomic_int *flag);
	/* 1 when no rank of the run can be asleep, read after the flag's
	 * store (seq_cst): then no wake_rank is needed. May be NULL. */
	int (*none_parked)(void *me);
	/* 1 when the run's ranks outnumber the CPUs, so a waiting rank
	 * usually gives its CPU away and the barrier without messages pays;
	 * 0 when they all run at once, where the messages are faster (each
	 * rank writes only its own clock). */
	int (*crowded)(void *me);
	/* One-sided access to other processes' memory (struct vp__rma), or
	 * NULL: windows are then carried as messages with fences only. */
	const struct vp__rma *rma;
};

/*
 * The transport's remote memory access, where ranks do not share memory
 * (mpi/rma.c: the MPI library's own passive target). Memory is made
 * reachable with attach, which gives the address by which the others
 * name it; targets are world ranks. Every operation is complete at the
 * origin when it returns (the origin's buffers may be reused, a result
 * may be read); flush(target, -1: every target) completes them at the
 * target. accumulate: result NULL for an accumulate, else a get
 * accumulate (its elements before). All return VP_OK or VP_EINVAL with
 * the library's message in err (errlen bytes).
 *
 * Waking: wake sends rank world_rank a message that carries nothing but
 * counts (so a run's termination detection sees it); wakes says how many
 * came to the caller so far; wait blocks until that count passes seen,
 * as a rank waits for a message, reporting what it waits for as
 * lock_text (a deadlock report names peer, the world rank it waits for,
 * or -1): VP_OK, or VP_EABORT / VP_EDEADLOCK when the run fails.
 */
struct vp__rma {
	int (*attach)(void *me, void *base, size_t n, uint64_t *addr);
	void (*detach)(void *me, void *base);
	int (*put)(void *me, int target, uint64_t addr, const void *buf,
		   size_t n, char *err, size_t errlen);
	int (*get)(void *me, int target, uint64_t addr, void *buf, size_t n,
		   char *err, size_t errlen);
	int (*accumulate)(void *me, int target, uint64_t addr, const void *in,
			  void *result, size_t count, vp_type type, vp_op op,
			  char *err, size_t errlen);
	int (*compare_swap)(void *me, int target, uint64_t addr,
			    const void *origin, const void *compare,
			    void *result, vp_type type, char *err,
			    size_t errlen);
	int (*flush)(void *me, int target);
	/* the caller's own loads and stores and the library's copy of its
	 * memory agree (MPI_Win_sync) */
	void (*sync)(void *me);
	int (*wake)(void *me, int world_rank);
	unsigned (*wakes)(void *me);
	int (*wait)(void *me, unsigned seen, int peer, const char *lock_text);
};

/* post_send's sync: 1 for a synchronous send (vp_ssend_tag); 2 for a
 * standard send that a seeded schedule chose not to buffer (MPI 4.0, sec.
 * 3.4, lets a standard send wait for its receive): as 1, and a deadlock
 * it is part of names the program unsafe. */
#define VP__SYNC_UNBUFFERED 2

/* The transports (one file each defines one). */
extern const struct vp__transport vp__threads_transport;
#ifdef VP_HAVE_MPI
extern const struct vp__transport vp__mpi_transport;
#endif

/* Services of the runtime to its transport (see the contract above). */
void vp__rank_main(struct vp__rank *r);
/* A transport that switches ranks on one thread (threads/fibers.c) says
 * which rank runs now (NULL: none), and reports a rank whose fiber ended
 * its carrier thread with pthread_exit(). */
void vp__requests_enter(struct vp__rank *r);
void vp__rank_exited_early(struct vp__rank *r);
int vp__world_status(const struct vp__world *w);
/* A seeded run's schedule (schedule.h), NULL when the ranks run freely. */
struct vp__sched *vp__world_sched(struct vp__world *w);
/* The call a rank's user made: the layer's (vp_call_as) or vp's own. */
const char *vp__rank_user_call(const struct vp__rank *r);
void vp__world_fail(struct vp__world *w, int rank, int code, const char *msg);
/* The public call a blocked rank is in, for reports (written into buf). */
const char *vp__rank_doing(const struct vp__rank *r, char *buf, size_t len);
/* The public call rank r made last (any time, even while it runs). */
const char *vp__rank_last_call(const struct vp__rank *r);
/* 1 while rank r is inside a collective (its messages' tags are the
 * collective's, not the user's). */
int vp__rank_in_collective(const struct vp__rank *r);
/* Before failing the run as deadlocked: whether its wait-for cycle joins
 * only ranks blocked in point-to-point calls (then ranks that made fewer
 * collective calls than others are a symptom, not the cause). */
void vp__world_cycle_cause(struct vp__world *w, int p2p_only);
/* The run's first error: its code (VP_OK: none), rank, message and
 * whether its deadlock cycle was point-to-point only; and the replacement
 * of it by the error every process of a run agreed on. */
int vp__world_error(struct vp__world *w, int *rank, char **msg,
		    int *p2p_cycle);
void vp__world_adopt_error(struct vp__world *w, int rank, int code,
			   const char *msg, int p2p_cycle);
/* coll_check.c: rank r's record of its collective call want (its number
 * + 1) on context ctx, read by another thread or the transport answering
 * another process: 1 with *out filled, 0 when r no longer has it. */
int vp__rank_coll_record(const struct vp__rank *r, int ctx, uint32_t want,
			 vp_coll_sig *out);
/* The longest call name such a record carries between processes. */
#define VP__COLL_NAME_MAX 64
/* records.c: what vp_run reads of a rank after the run (model clock,
 * collective calls and log, trace), as bytes (malloc'd, *len set; NULL
 * without memory), and those bytes made rank r's records again
 * (VP_OK, VP_ENOMEM or VP_EINVAL for bytes that do not parse). */
void *vp__records_pack(const struct vp__rank *r, size_t *len);
int vp__records_unpack(struct vp__rank *r, const void *buf, size_t len);

/* deadlock_report.c: what a deadlock report needs of one rank. The
 * callback fills it for rank i and, when line is not NULL, writes the
 * rank's line ("rank 2 in vp_recv waits for rank 1: recv into ...").
 * The report (malloc'd; NULL without memory) lists every live rank and
 * walks the wait-for graph to its cycle; *p2p_cycle is 1 when a
 * point-to-point wait is the cause: a cycle none of whose ranks is inside a
 * collective, or a walk that ends at a receive from any rank made outside
 * one. */
struct vp__waiter {
	int exited;  /* the rank function returned */
	int peer;    /* the one rank it waits for, else -1 */
	int in_coll; /* blocked inside a collective */
};
typedef void (*vp__waiter_fn)(void *ctx, int i, struct vp__waiter *out,
			      char *line, size_t len);
char *vp__deadlock_report(int p, vp__waiter_fn state, void *ctx,
			  int *p2p_cycle);

#endif /* VP_RUNTIME_TRANSPORT_H */
