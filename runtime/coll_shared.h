/*
 * coll_shared.h - the seam between the collectives and the runtime for a
 * collective call made without its messages (coll_sync.c, coll_script.c;
 * the collectives' side: collectives/coll_shared.c).
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
/* 1 when c's calls may run without their messages at all (the ranks
 * share memory and outnumber the CPUs, the run is not traced): the
 * cheap test a collective makes first. Not a one-to-all call (bcast,
 * scatter) of fibers: their messages wake a fiber for about 0.3 us, and
 * the non-roots leave as soon as their data is in, where the meeting
 * waits for every rank (p = 64, 8 bytes: 40-44 us by messages, 59-64
 * us met; threads the other way round, 48-59 against 71-96). VP_SHARED_
 * COLLECTIVES=0 in the environment: never (to compare). */
int vp__coll_shared_may(vp_comm *c, int one_to_all);
int vp__coll_shared(vp_comm *c, const struct vp__shared_key *k,
		    const void *sbuf, void *rbuf, vp__shared_move move);
void vp__coll_shared_end(vp_comm *c, int rc);

#endif /* VP_COLL_SHARED_H */
