/*
 * coll_memo.h - what the collectives layer remembers between one rank's
 * calls, held by the runtime with the rank: one memo a rank and run, so
 * that nothing outlives the run it was made in (a communicator's address
 * can come back in the next run; within a run a freed handle is kept
 * until the end, so an address names one communicator).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
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

#endif /* VP_COLL_MEMO_H */
