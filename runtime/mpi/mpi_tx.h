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
 *   termination.c  the wait loop, Safra's termination detection (deadlocks
 *                  and the run's end), failures across processes
 *
 * Messages. Every vp message is one MPI message on the data communicator:
 * a header (kind, context, tag, length, vp's envelope) followed by the
 * payload, sent with MPI_Isend from a packed copy, so a send never waits.
 * The receiving process pulls every arrived message off MPI at once
 * (MPI_Iprobe, MPI_Recv) and matches it itself: to the oldest posted
 * receive that matches, else into its queue of unexpected messages in
 * arrival order. MPI's non-overtaking rule per (sender, communicator) and
 * the arrival-ordered queue give vp's: messages of one (context, sender,
 * tag) are taken in send order. A synchronous send (vp_ssend) carries an
 * id; the receive that takes it answers with an acknowledgement message,
 * for which the sender waits.
 *
 * Control messages (the termination token, failures, the deadlock report,
 * the end of the run) go on a second duplicate, so they never match data.
 */
#ifndef VP_MPI_TX_H
#define VP_MPI_TX_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../transport.h"

enum mpt_kind { MPT_DATA = 1, MPT_SYNC = 2, MPT_ACK = 3 };

/* What precedes every payload on the data communicator. */
struct mpt_header {
	int32_t kind, ctx, tag;
	uint32_t sync_id; /* MPT_SYNC, MPT_ACK: the send's id */
	uint64_t len;
	struct vp__envelope env;
};

/* An arrived message no receive has taken yet. */
struct mpt_msg {
	struct mpt_msg *next;
	int src;
	struct mpt_header h;
	char *raw; /* header and payload as they arrived */
};

/* A synchronous send waiting for its receiver's acknowledgement (the
 * pending handle complete_send gets). */
struct mpt_sync {
	struct mpt_sync *next;
	uint32_t id;
	int dst, tag;
	size_t bytes;
	int acked;
};

/* An MPI send in flight and its packed copy. */
struct mpt_send {
	MPI_Request req;
	char *buf;
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
};

struct mpt {
	struct vp__world *w;
	struct vp__rank *rank;   /* the one this process runs */
	struct vp__rank **ranks; /* every rank's records (the run's end) */
	int me, p;
	MPI_Comm data, ctl;

	struct mpt_msg *unexp, **unexp_tail;   /* arrival order */
	struct vp__xrecv *posted, **posted_tail; /* post order */
	struct mpt_send *sends;                  /* in flight */
	int nsends, cap_sends;
	struct mpt_sync *syncs; /* waiting for acknowledgements */
	uint32_t next_sync;

	/* Safra's termination detection (termination.c) */
	long long count; /* data messages sent minus received */
	int black;       /* received one since the token last left */
	int finished;    /* the rank function returned */
	int has_token;
	int round_back; /* process 0: the token it sent came back */
	struct mpt_token token;
	unsigned idle;       /* consecutive turns that pulled nothing */
	unsigned turns;      /* turns taken (control is looked at every 16th) */
	int crowded; /* more processes on this node than CPUs: yield */
	int pulled_now;      /* messages the wait loop's last turn pulled */
	int fresh; /* messages pulled since the last progress (block) */
	int ended;           /* the end of the run was announced */
	int querying;        /* process 0: collecting a deadlock report */
	int answers;         /* ... and how many states it has */
	char **states;       /* process 0: each process's state for it */
	struct mpt_waiting waiting;

	/* failures across processes */
	int applying_remote; /* vp__world_fail called for a remote failure */
	atomic_int to_announce; /* a local failure to send to the others */

	/* the run's end: messages never received, every process's */
	struct vp__unreceived *unrecv;
	int nunrecv;
	uint64_t unrecv_total;
};

/* messages.c */
int mpt_post_send(void *me, int ctx, int dst, int tag, const void *buf,
		  size_t n, const struct vp__envelope *env, int sync,
		  void **pending);
int mpt_complete_send(void *me, void *pending, int dst);
int mpt_recv(void *me, int ctx, int src, int tag, void *buf, size_t n,
	     size_t *len, struct vp__envelope *env, int *got_src,
	     int *got_tag);
int mpt_post_recv(void *me, struct vp__xrecv *r);
int mpt_progress(void *me);
void mpt_cancel_recv(void *me, struct vp__xrecv *r);
int mpt_send_done(void *me, void *pending);
int mpt_block(void *me, const struct vp__xwait *w, int n);
int mpt_probe(void *me, int ctx, int src, int tag, int blocking, int *found,
	      struct vp__xprobe *out);
void mpt_idle(void *me);
/* Pulls every arrived data message; returns how many. */
int mpt_pull(struct mpt *t);
/* Tests the sends in flight, frees the finished ones; with wait set,
 * waits for all of them (the end of the run). */
void mpt_sends_reap(struct mpt *t, int wait);
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
void mpt_termination_free(struct mpt *t);

#endif /* VP_MPI_TX_H */
