/*
 * coll_shared.h - the seam between the collectives and the runtime for a
 * collective call made without its messages (coll_sync.c, coll_script.c;
 * the collectives' side: collectives/coll_shared.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_COLL_SHARED_H
#define VP_COLL_SHARED_H

#include <stddef.h>

#include "vp.h"

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

/* A call given a NULL communicator: on a rank's thread the run fails
 * naming the rank and the call; VP_EINVAL. (errors.c) */
int vp__null_comm(const vp_comm *c, const char *call);

/* vp_barrier checked as the collective call sig names: vp_win_fence and
 * vp_win_free are barriers that match no other call
 * (collectives/barrier_dissemination.c). */
int vp__barrier_as(vp_comm *c, const vp_coll_sig *sig);

#endif /* VP_COLL_SHARED_H */
