/*
 * coll_seam.h - the seam between the collectives and the runtime: the one
 * header of runtime/ that collectives/ includes (through coll.h), and so
 * everything the collectives take from the runtime besides vp's public
 * API (vp.h, vp/vp_layer.h). What it offers, and why the public API does
 * not serve:
 *   - the reductions' kernel and element types (reduce_kernel.h): the
 *     runtime's receive that combines and the collectives add alike, and
 *     the reproducible sums' internal fixed-point type is no public type;
 *   - the memos of a rank's last collective call and of AUTO's last choice
 *     (collectives/dispatch.c, select.c), held with the rank by the
 *     runtime so that nothing outlives the run it was made in;
 *   - a collective call made without its messages where the ranks share
 *     memory (coll_sync.c, coll_script.c; the collectives' side is
 *     collectives/coll_shared.c): it needs every rank's buffers and clock;
 *   - the error of a call given a NULL communicator (errors.c), which
 *     names the rank where vp_comm_check cannot.
 * One call goes the other way, declared here so that both sides see one
 * declaration: vp__barrier_as, the collectives' barrier, which the
 * runtime's window fence and free make (window.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_COLL_SEAM_H
#define VP_COLL_SEAM_H

#include <stddef.h>

#include "reduce_kernel.h"
#include "vp.h"
#include "vp/vp_layer.h"

/* ---- the memos ----
 * What the collectives layer remembers between one rank's calls, held by
 * the runtime with the rank: one memo a rank and run, so that nothing
 * outlives the run it was made in (a communicator's address can come back
 * in the next run; within a run a freed handle is kept until the end, so
 * an address names one communicator).
 */

/* AUTO's last choice for one collective (collectives/select.c): on c
 * with bytes a rank, the rule that chose it (its reason says why) and the
 * topology's name in that reason. c NULL: empty. */
struct vp__auto_memo {
	const vp_comm *c;
	size_t bytes;
	int rule;
	const char *kind;
};

/* c's rank's memo of AUTO's choice for op, or NULL when c is not a live
 * communicator or op is not a collective. */
struct vp__auto_memo *vp__auto_memo(vp_comm *c, vp_coll op);

/* The arguments of the last collective call a rank made (collectives/
 * dispatch.c) whose checks passed, and what they settled: the algorithm,
 * its table entry, AUTO's reason and that reason's generation (the text
 * is rewritten in place by later choices). c NULL: empty. */
struct vp__call_memo {
	const vp_comm *c;
	const void *sbuf;
	const void *rbuf;
	size_t count;
	long q;
	vp_coll op;
	vp_type type;
	vp_op rop;
	int root;
	vp_alg asked;
	vp_alg alg;
	const void *entry;
	const char *why;
	unsigned why_gen;
};

/* c's rank's memo of its last collective call, or NULL when c is not a
 * live communicator. */
struct vp__call_memo *vp__call_memo(vp_comm *c);

/* vp_coll_note for a why whose text stays the same while gen does (AUTO's
 * reason and its generation, collectives/select.c: both the calling
 * thread's): a repeated note with the same why and gen does not compare
 * the text. gen 0: unknown, compared (vp_coll_note). */
void vp__coll_note_known(vp_comm *c, vp_coll op, vp_alg alg,
			 const char *why, unsigned gen);

/* ---- a collective call without its messages ---- */

/*
 * coll_sync.c and coll_script.c: a collective call without its messages,
 * where the ranks share memory and outnumber the CPUs. The ranks meet at
 * one counter; the last to arrive charges every rank's model clock with
 * the messages a recorded call of the same signature sent, and moves the
 * data (move, given every member's buffers; -1 when it cannot, before it
 * writes anything). vp__coll_shared returns 1
 * when it did so, 0 when the caller must send the messages (then, between
 * it and vp__coll_shared_end, the call may be recorded), or a VP_E* code.
 */
struct vp__shared_key {
	int op, alg, type, rop, root, kary;
	long q;
	size_t count, segment;
};
struct vp__shared_bufs {
	const void *sbuf;
	void *rbuf;
};
typedef int (*vp__shared_move)(const struct vp__shared_key *k, int p,
			       const struct vp__shared_bufs *b);
/* Which collectives a run makes without their messages
 * (VP_SHARED_COLLECTIVES: 0, 1 the default, sync, all). By default the calls
 * that wait for every rank anyway (all-reduce, all-gather, reduce-scatter,
 * all-to-all, and the barrier) always meet. A rooted call (bcast, scatter,
 * reduce, gather), the scan and the shift let a rank leave before the
 * others arrive, and whether meeting them pays depends on the program's
 * loop: where the ranks arrive together meeting is faster, where they
 * arrive apart or the root runs ahead the messages are (figures in
 * docs/performance.md, "Measurements behind the code"). So by default
 * such a call goes the way that a trial of both in the program's own loop
 * found faster, tried again now and then (coll_sync.c, struct
 * script_slot). Under sync they always send
 * their messages, under all they always meet. */
enum {
	VP__SHARED_NONE,
	VP__SHARED_DEFAULT,
	VP__SHARED_SYNCHRONIZING,
	VP__SHARED_ALL,
};

/* 1 when c's calls may run without their messages at all (the ranks
 * share memory and outnumber the CPUs, the run is not traced, and the
 * run's policy takes such calls; leaves_early: the call lets a rank leave
 * before the others arrive): the cheap test a collective makes first.
 * Then vp__coll_shared, where by default such a call meets only where
 * meeting was found faster. */
int vp__coll_shared_may(vp_comm *c, int leaves_early);
int vp__coll_shared(vp_comm *c, const struct vp__shared_key *k,
		    const void *sbuf, void *rbuf, vp__shared_move move,
		    int leaves_early);
void vp__coll_shared_end(vp_comm *c, int rc);

/* ---- errors ---- */

/* A call given a NULL communicator: on a rank's thread the run fails
 * naming the rank and the call; VP_EINVAL. (errors.c) */
int vp__null_comm(const vp_comm *c, const char *call);

/* ---- the other way: the collectives' barrier, for the runtime ---- */

/* vp_barrier checked as the collective call sig names: vp_win_fence and
 * vp_win_free are barriers that match no other call
 * (collectives/barrier_dissemination.c). */
int vp__barrier_as(vp_comm *c, const vp_coll_sig *sig);

#endif /* VP_COLL_SEAM_H */
