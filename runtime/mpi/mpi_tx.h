/*
 * mpi_tx.h - the MPI transport: vp's ranks as the processes of an MPI job,
 * one rank per process (rank r is process r of a duplicate of
 * MPI_COMM_WORLD). Only files in mpi/ include this header.
 *
 * Files:
 *   transport.c    start (MPI_Init when the program did not), the run, the
 *                  exchange of every rank's records at its end, the table
 *                  of operations
 *   messages.c     sends, the progress engine, matching, probes
 *   combine.c      a reduction's receive: the message combined where it
 *                  lands
 *   termination.c  the wait loop, Safra's termination detection (deadlocks
 *                  and the run's end), failures across processes
 *   watchdog.c     vp_opts.watchdog: a rank stuck outside vp ends the job
 *   rma.c          one-sided access over the MPI library's own passive
 *                  target (transport.h, struct vp__rma)
 *
 * Messages. A vp message of at most MPT_WHOLE_MAX bytes is one MPI message
 * on the data communicator (tag MPT_TAG_WHOLE): a header (kind, context,
 * tag, length, vp's envelope) followed by the payload, packed into one
 * buffer and sent with MPI_Send, which returns once MPI has copied it
 * (it is under MPI's eager limit). A longer
 * one is its header alone, then its payload as a second MPI message (tag
 * MPT_TAG_PAYLOAD) sent straight from the sender's buffer, which stays
 * lent (a pending send) until MPI is done with it.
 *
 * Each process keeps MPT_SLOTS receives of MPT_SLOT_BYTES pre-posted for
 * whole messages from any source (arrivals.c) and takes them in the order
 * they were posted, which is the order MPI matched messages to them:
 * arrival order. It matches each itself: to the oldest posted receive
 * that matches, else into its queue of unexpected messages in arrival
 * order. MPI's non-overtaking rule per (sender, communicator) and the
 * arrival-ordered queue give vp's: messages of one (context, sender, tag)
 * are taken in send order. A payload is received once a receive takes
 * its header, straight into that receive's buffer (one copy, MPI's own);
 * one that nothing takes while its receiver idles goes into a buffer of
 * its own. Payloads of one sender are received in the order their headers
 * came, so MPI's order pairs each with its header. A synchronous send
 * (vp_ssend) carries an id; the receive that takes it answers with an
 * acknowledgement message, for which the sender waits.
 *
 * Control messages (the termination token, failures, the deadlock report,
 * the end of the run) go on a second duplicate, so they never match data.
 *
 * Names: mpt_ and MPT_ are the MPI transport's own (internal to mpi/),
 * as thr_ are the threads transport's; tx a transport (transport.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_MPI_TX_H
#define VP_MPI_TX_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../transport.h"

/* MPT_WAKE: rma.c's wake of a rank waiting for a lock (it carries
 * nothing; it counts) */
enum mpt_kind { MPT_DATA = 1, MPT_SYNC = 2, MPT_ACK = 3, MPT_WAKE = 4 };
enum { MPT_TAG_WHOLE = 0, MPT_TAG_PAYLOAD = 1 };

/* Pre-posted receives for whole messages, and their size: a header and
 * up to MPT_WHOLE_MAX bytes of payload fit one (4 KiB: Open MPI's eager
 * limit for shared memory, so a whole message costs one copy each way). */
#define MPT_SLOTS 16
#define MPT_SLOT_BYTES 4096

/* What precedes every payload on the data communicator. */
struct mpt_header {
	int32_t kind, ctx, tag;
	uint32_t sync_id; /* MPT_SYNC, MPT_ACK: the send's id */
	uint64_t len;
	struct vp__envelope env;
};

/* 48 bytes: vp-bench's probe of the ping-pong's limit sends MPI messages of
 * this header plus 8 bytes (WIRE_BYTES_OF_8) */
_Static_assert(sizeof(struct mpt_header) == 48, "the header is 48 bytes");

#define MPT_WHOLE_MAX (MPT_SLOT_BYTES - sizeof(struct mpt_header))

/* An arrived message no receive has taken yet, or one whose payload is
 * still coming. */
struct mpt_msg {
	struct mpt_msg *next;
	int src;
	struct mpt_header h;
	char *raw; /* whole: a pooled buffer, header and payload */
	/* sent apart (h.len > MPT_WHOLE_MAX): */
	char *payload;       /* its own buffer (NULL: into r's) */
	MPI_Request preq;    /* its receive; MPI_REQUEST_NULL once in */
	struct vp__xrecv *r; /* the posted receive it goes to, or NULL */
	int requested;       /* its receive was posted (else: unclaimed) */
};

/* A send that lends its buffer or waits for an acknowledgement (the
 * pending handle complete_send gets): a synchronous send until its
 * receiver acknowledges, a payload sent apart until MPI is done with it. */
struct mpt_pend {
	struct mpt_pend *next;
	uint32_t id; /* synchronous: the id its acknowledgement names */
	int dst, tag;
	size_t bytes;
	int sync, acked;
	MPI_Request preq; /* the payload's send, or MPI_REQUEST_NULL */
};

/* A control message in flight and its malloc'd copy. */
struct mpt_send {
	MPI_Request req;
	char *buf;
};

/* A pre-posted receive for a whole message. */
struct mpt_slot {
	MPI_Request req;
	char *buf; /* MPT_SLOT_BYTES, pooled */
};

/* The termination token (Safra): the sum of the counters it passed, and
 * whether it passed a black process or one not finished. */
struct mpt_token {
	long long q;
	int black;
	int all_finished;
};

/* What a waiting process waits for (reports), set by the wait loop. */
struct mpt_waiting {
	const char *kind; /* "recv", "send", "probe", "set", NULL: none */
	int peer, tag;    /* world rank or VP_ANY_SOURCE; tag or VP_ANY_TAG */
	size_t bytes;
	const struct vp__xwait *set; /* kind "set": n things */
	int n;
	const char *text; /* kind "lock": what the report says after ": " */
};

struct mpt {
	struct vp__world *w;
	struct vp__rank *rank;   /* the one this process runs */
	struct vp__rank **ranks; /* every rank's records (the run's end) */
	int me, p;
	MPI_Comm data, ctl;

	struct mpt_msg *unexp, **unexp_tail;     /* arrival order */
	struct vp__xrecv *posted, **posted_tail; /* post order */
	struct mpt_send *sends;                  /* control, in flight */
	int nsends, cap_sends;
	struct mpt_pend *pends; /* lent buffers, acknowledgements awaited */
	struct vp__xrecv lent;  /* vp_sendrecv's receive, posted early */
	int lent_on;
	void *scratch; /* combine.c: a reduction's payload, kept between calls */
	size_t scratch_len;
	uint32_t next_sync;

	/* arrivals.c */
	struct mpt_slot slots[MPT_SLOTS];
	int slot_head;          /* the oldest posted slot */
	int slots_taken;        /* taken, not yet reposted: just before it */
	struct mpt_msg **apart; /* payloads being received */
	int napart, cap_apart;
	int transfers; /* payloads in flight, sent or received: not passive */
	int unclaimed; /* unexpected payloads whose receive is not posted */
	unsigned idle_calls; /* nonblocking calls in a row that found nothing */
	char *bufs;          /* free pooled buffers (MPT_SLOT_BYTES) */
	char packing[MPT_SLOT_BYTES]; /* a whole message being sent */
	struct mpt_msg *free_msgs;

	/* Safra's termination detection (termination.c) */
	long long count; /* data messages sent minus received */
	int black;       /* received one since the token last left */
	int finished;    /* the rank function returned */
	int has_token;
	int round_back; /* process 0: the token it sent came back */
	struct mpt_token token;
	unsigned idle;  /* consecutive turns that pulled nothing */
	unsigned turns; /* turns taken (control: every CONTROL_EVERY-th) */
	int crowded;    /* more processes on this node than CPUs, and the
			 * library does not yield by itself: yield */
	int pulled_now; /* messages the wait loop's last turn pulled */
	int fresh;      /* messages pulled since the last progress (block) */
	int ended;      /* the end of the run was announced */
	int querying;   /* process 0: collecting a deadlock report */
	int answers;    /* ... and how many states it has */
	char **states;  /* process 0: each process's state for it */
	struct mpt_waiting waiting;

	/* a collective call's record asked of another process (naming a
	 * mismatch's argument): 1 + the process asked, 0 when not asking */
	int asking;
	int answered;
	struct mpt_coll_answer *answer;

	/* the watchdog (watchdog.c): messages moved, where the rank is */
	double watchdog;
	atomic_ulong progress;
	atomic_int in_vp_wait; /* inside mpt_wait */
	atomic_int returned;   /* the rank function returned */
	atomic_int watch_stop;
	pthread_t watch_thread;
	int watching;

	/* rma.c: the process's dynamic MPI window, in one MPI_Win_lock_all
	 * epoch; the memory this run attached to it; the wakes that came */
	MPI_Win win;
	int win_open;
	void **attached;
	int nattached, capattached;
	unsigned wakes;

	/* failures across processes */
	int applying_remote;    /* vp__world_fail called for a remote failure */
	atomic_int to_announce; /* a local failure to send to the others */

	/* the run's end: messages never received, every process's */
	struct vp__unreceived *unrecv;
	int nunrecv;
	uint64_t unrecv_total;
};

/* arrivals.c */
int mpt_slots_post(struct mpt *t);
void mpt_slots_cancel(struct mpt *t);
/* Pulls every arrived whole message, completes the payloads that came
 * and the sends that finished; returns how many of these happened. */
int mpt_pull(struct mpt *t);
/* Waits for the payload going to r (a receive given up). */
void mpt_apart_withdraw(struct mpt *t, struct vp__xrecv *r);
/* Waits for message m's payload to be in (the receive taking it). */
void mpt_apart_finish(struct mpt *t, struct mpt_msg *m);
/* Whether m is a payload sent apart whose receive is not posted yet. */
int mpt_unclaimed(const struct mpt_msg *m);
/* Before unclaimed m (still in the unexpected queue) is claimed: receives
 * the unclaimed payloads of m's sender ahead of it into buffers of their
 * own, so that payloads are received in the order of their headers. */
void mpt_drain_ahead(struct mpt *t, const struct mpt_msg *m);
/* Receive r takes the unclaimed message m (off the unexpected queue, after
 * mpt_drain_ahead): its payload is received straight into r's buffer; r is
 * done when it is in. */
void mpt_claim(struct mpt *t, struct vp__xrecv *r, struct mpt_msg *m);
/* Receives every unclaimed payload into buffers of their own. */
void mpt_drain(struct mpt *t);
/* Turns without anything arriving after which a waiting process drains. */
#define DRAIN_AFTER 64u
char *mpt_buf_get(struct mpt *t);
void mpt_buf_put(struct mpt *t, char *buf);
struct mpt_msg *mpt_msg_get(struct mpt *t);
void mpt_msg_put(struct mpt *t, struct mpt_msg *m);
void mpt_pools_free(struct mpt *t);

/* combine.c */
/* Where a reduction's payload sent apart is received (x, n bytes): its
 * result itself where the combine can then run in place, else scratch;
 * NULL for n a whole message holds (combined from its slot). */
void *mpt_landing(struct mpt *t, const struct vp__xcombine *x, size_t n);
/* Where the payload (len bytes) of a message receive r takes is received:
 * r's buffer, or NULL for a buffer of its own (it does not fit; for a
 * reduction, it is not exactly r->n bytes: nothing is written). */
void *mpt_payload_dest(const struct vp__xrecv *r, size_t len);
/* A payload (len bytes) that lies elsewhere goes to r: copied into r's
 * buffer if it fits, or combined into r's result if exactly as long. */
void mpt_deliver(const struct vp__xrecv *r, const void *payload, size_t len);
/* r's payload is in r's buffer (mpt_payload_dest): a reduction combines
 * it into its result. */
void mpt_landed(const struct vp__xrecv *r);
void mpt_scratch_free(struct mpt *t);

/* messages.c */
/* Queues an MPI send of buf (n bytes, with tag on comm), a malloc'd
 * buffer given up to the send (freed once it is done). */
int mpt_isend(struct mpt *t, MPI_Comm comm, int dst, int tag, char *buf,
	      size_t n);
int mpt_send_ack(struct mpt *t, int dst, uint32_t id);
/* A wake (rma.c): a message that counts and carries nothing. */
int mpt_send_wake(struct mpt *t, int dst);
void mpt_acknowledged(struct mpt *t, uint32_t id);
/* Tests the payloads sent apart; returns how many finished. */
int mpt_pends_reap(struct mpt *t);
/* Receive r takes message m: r's results, and the acknowledgement of a
 * synchronous send. The payload is the caller's to move. */
void mpt_matched(struct mpt *t, struct vp__xrecv *r, const struct mpt_msg *m);
int mpt_matches(int ctx, int src, int tag, const struct mpt_msg *m);
int mpt_post_send(void *me, int ctx, int dst, int tag, const void *buf,
		  size_t n, const struct vp__envelope *env, int sync,
		  void **pending);
int mpt_complete_send(void *me, void *pending, int dst);
int mpt_recv(void *me, int ctx, int src, int tag, void *buf, size_t n,
	     size_t *len, struct vp__envelope *env, int *got_src, int *got_tag);
int mpt_recv_combine(void *me, int ctx, int src, int tag,
		     const struct vp__xcombine *x, size_t n, size_t *len,
		     struct vp__envelope *env, int *got_src, int *got_tag);
int mpt_post_recv(void *me, struct vp__xrecv *r);
int mpt_progress(void *me);
void mpt_cancel_recv(void *me, struct vp__xrecv *r);
void mpt_lend_recv(void *me, int ctx, int src, int tag, void *buf, size_t n,
		   const struct vp__xcombine *x);
void mpt_unlend_recv(void *me, int ctx, int src);
int mpt_send_done(void *me, void *pending);
int mpt_block(void *me, const struct vp__xwait *w, int n);
int mpt_probe(void *me, int ctx, int src, int tag, int blocking, int *found,
	      struct vp__xprobe *out);
void mpt_idle(void *me);
/* Tests the sends in flight, frees the finished ones; with wait set,
 * waits for all of them (the end of the run). */
void mpt_sends_reap(struct mpt *t, int wait);
/* No memory for what MPI holds for us: nothing sensible is left. */
void mpt_out_of_memory(const char *what, size_t bytes) __attribute__((cold));
void mpt_messages_free(struct mpt *t);

/* termination.c */
/* One turn of waiting: pulls messages, handles control messages, passes
 * the token when passive (nothing pulled). Returns what mpt_pull did. */
int mpt_turn(struct mpt *t);
/* Turns until ready(t, arg) holds (VP_OK) or the run fails (its status). */
int mpt_wait(struct mpt *t, int (*ready)(struct mpt *, void *), void *arg,
	     const struct mpt_waiting *what);
/* After the rank function: turns until the end of the run is announced. */
void mpt_wait_end(struct mpt *t);
void mpt_wake_all(void *tx_world);
/* The transport's coll_record: asks process src for its rank's record of
 * a collective call and turns until it answers (or fails to soon). */
int mpt_coll_record(void *me, int src, int ctx, uint32_t want,
		    vp_coll_sig *out, char *name, size_t len);
void mpt_termination_free(struct mpt *t);

/* One more message moved by this process's rank. Its thread is the only
 * writer, so a plain store does (no locked add on every message); the
 * watchdog's thread only reads. */
static inline void mpt_moved(struct mpt *t)
{
	atomic_store_explicit(
	    &t->progress,
	    atomic_load_explicit(&t->progress, memory_order_relaxed) + 1,
	    memory_order_relaxed);
}

/* rma.c: the process's MPI window for this run (made at the first run,
 * freed by MPI_Finalize; the run's memory detached at its end); 0 when
 * the library made none (then windows have fences only). */
int mpt_rma_start(struct mpt *t);
void mpt_rma_end(struct mpt *t);
extern const struct vp__rma mpt_rma;

/* watchdog.c: with secs > 0, a thread that ends the process (exit 124)
 * when the rank moves no message for secs seconds outside vp. */
void mpt_watchdog_start(struct mpt *t, double secs);
void mpt_watchdog_stop(struct mpt *t);

#endif /* VP_MPI_TX_H */
