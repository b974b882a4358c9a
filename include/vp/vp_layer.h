/*
 * vp/vp_layer.h - the hooks for libraries built on vp: code that implements
 * another interface over vp's calls (vp's own MPI layer, mpi/) or
 * collectives of its own (vp's collectives/). A program needs none of it.
 *
 * What it offers: the communicators such a library works in (the
 * collective and the auxiliary message spaces of a communicator, and the
 * check of a handle), the collective call's signature that every rank must
 * pass alike (vp_coll_begin, with element types from vp_coll_types), the
 * barrier made without its messages, typed point-to-point messages, and
 * error messages and deadlock reports that name the library's own call
 * (vp_call_as).
 *
 * vp.h includes this header at its end, so that vp.h declares all of vp's
 * API and every program built against it keeps building; a library
 * includes <vp/vp_layer.h> itself, to say what it uses. This header
 * includes vp.h for the types its calls take (the include guards make
 * either order work).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_LAYER_H
#define VP_LAYER_H

#include "../vp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Communicators for layers ----
 * A collective needs message spaces that never match the user's messages;
 * a library's own calls check the handles they are given.
 */

/*
 * The communicator collectives use: the same ranks as c with a message space
 * of its own, so a collective never matches a user's point-to-point message
 * (MPI's hidden collective context).
 */
VP_API vp_comm *vp_coll_comm(vp_comm *c);
/*
 * A third message space of the same ranks, for libraries built on vp (the
 * MPI layer's nonblocking collectives): point-to-point calls on it never
 * match those on c or on its collective twin. It lives and dies with c.
 */
VP_API vp_comm *vp_aux_comm(vp_comm *c);

/* VP_OK if c is a live communicator used from its rank's own thread in a
 * run that is not failing; else the error, and the run fails naming call
 * (for libraries built on vp, as the collectives are). */
VP_API int vp_comm_check(vp_comm *c, const char *call);

/* ---- Collectives built on vp ----
 * A collective call is numbered and signed on every rank, so that ranks
 * that make different calls fail naming both; what ran is recorded for
 * vp_stats.collectives and vp_coll_last.
 */

/*
 * The arguments of one collective call, which every rank of the
 * communicator must pass alike (fields a call does not use are 0, or -1
 * for type, op and root). vp_coll_begin numbers the call on c, and every
 * message of the call carries its number and a hash of the arguments; a
 * rank that receives a message of another call, or of the same call with
 * other arguments, fails the run naming both ranks and the first argument
 * that differs: "rank 3: vp_bcast: root 1 here but root 0 on rank 0 (call
 * 7 on this communicator)". The collectives call it; so may libraries that
 * build collectives of their own. vp_barrier counts as a call too.
 */
typedef struct vp_coll_sig {
	const char *call; /* "vp_bcast": static text */
	vp_alg alg;       /* the algorithm that runs (after AUTO) */
	size_t count;
	int type, op, root;
	long q;
	int kary;
	size_t segment;
	/* the element type of the data, when a layer above names it (set by
	 * vp_coll_begin from vp_coll_types, whatever the caller put here) */
	const char *elem;
} vp_coll_sig;

VP_API int vp_coll_begin(vp_comm *c, const vp_coll_sig *sig);

/*
 * Typed collectives, for layers whose data has types that vp's collectives
 * move as bytes (vp's MPI layer: MPI 4.0 sec. 6.1 requires the same type
 * signature on every rank). The next collective call this rank begins
 * carries elem (static text naming its element type, "4-byte integer";
 * NULL: bytes, or elements of mixed types) in its signature: ranks whose
 * elements differ fail with VP_EMISMATCH naming both, as for any other
 * argument ("elements 4-byte integer here but 8-byte integer on rank 1").
 * The call after it is untyped again. c is any live communicator of the
 * calling rank.
 */
VP_API int vp_coll_types(vp_comm *c, const char *elem);

/*
 * The dissemination barrier without its messages, for collectives built on
 * vp (vp_barrier uses it). Every rank of a collective communicator
 * (vp_coll_comm) calls it right after vp_coll_begin; it returns 1 once all
 * have arrived, with each rank's model clock, statistics and model log
 * charged exactly as the ceil(log2 p) rounds of empty messages would have
 * been (in round k rank i sends to i + 2^k and receives from i - 2^k, each
 * round a vp_sendrecv). It returns 0 when the caller must send those
 * messages itself: the ranks do not share memory (the mpi transport) or
 * do not outnumber the CPUs (the messages are faster then), the run is
 * traced, a rank has requests open or is in another collective
 * call, or every rank of the run was blocked before all had arrived (the
 * messages then show where, as they always did). Negative: an error, and
 * the run fails: VP_EINVAL for a communicator that is not a collective
 * one (a user's communicator, a freed one), or the run's error.
 */
VP_API int vp_coll_dissemination(vp_comm *c);

/* Records that op ran with alg (and why, for AUTO); reported in
 * vp_stats.collectives (counted once per call, at rank 0 of c) and by
 * vp_coll_last. Called by the collectives. */
VP_API void vp_coll_note(vp_comm *c, vp_coll op, vp_alg alg, const char *why);

/* ---- Another interface's calls ----
 * A library that implements another interface makes vp's messages carry
 * its types and vp's reports name its calls.
 */

/*
 * For libraries that implement another interface on vp (vp's MPI layer):
 * the vp calls this rank makes from now on are made for call (static text,
 * "MPI_Recv"), until the next vp_call_as; NULL ends it. vp's error messages
 * and deadlock reports then name the user's call first: "rank 1: MPI_Recv
 * (vp_recv_tag): ...", "rank 0 in MPI_Bcast (vp_bcast, its vp_send) waits
 * for rank 1". c is any live communicator of the calling rank.
 */
VP_API int vp_call_as(vp_comm *c, const char *call);

/*
 * Typed point-to-point messages, for layers whose messages have types (vp's
 * MPI layer checks MPI's type matching with it). From this call on, every
 * message this rank sends on a communicator's point-to-point space carries
 * send_type, and every receive it posts there expects recv_type: static
 * text naming the element type ("4-byte integer"), NULL for untyped bytes,
 * which match anything. A message whose type is not its receive's fails the
 * run with VP_ETYPE: "rank 1: vp_recv_tag: the message from rank 0 (tag 1)
 * holds 4-byte integer elements but the receive expects 4-byte float
 * elements". c is any live communicator of the calling rank.
 */
VP_API int vp_msg_types(vp_comm *c, const char *send_type,
			const char *recv_type);

#ifdef __cplusplus
}
#endif
#endif /* VP_LAYER_H */
