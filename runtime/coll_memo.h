/*
 * coll_memo.h - what the collectives layer remembers between one rank's
 * calls, held by the runtime with the rank: one memo a rank and run, so
 * that nothing outlives the run it was made in (a communicator's address
 * can come back in the next run; within a run a freed handle is kept
 * until the end, so an address names one communicator).
 */
#ifndef VP_COLL_MEMO_H
#define VP_COLL_MEMO_H

#include <stddef.h>

#include "vp.h"

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

#endif /* VP_COLL_MEMO_H */
