/*
 * test_msg_types.c - typed point-to-point messages (vp_msg_types), the
 * check behind MPI's type matching:
 *   - a message received with the type it was sent with arrives; an
 *     untyped side (NULL) matches anything;
 *   - a message whose type is not its receive's fails the run with
 *     VP_ETYPE, naming the receiving rank, the call, the source, the tag
 *     and both types, whether the receive is blocking, posted before the
 *     message (vp_irecv) or after it, small or sent by rendezvous;
 *   - the type a receive expects is the one named when it was posted;
 *   - collectives are not typed: ranks naming different types still
 *     broadcast;
 *   - a NULL communicator is VP_EINVAL.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tap.h"
#include "vp.h"
#include "vp/vp_layer.h"

static const char *const INT4 = "4-byte integer", *const FLOAT4 = "4-byte float";

enum how { SAME, UNTYPED_RECV, BLOCKING, POSTED_FIRST, LARGE, POSTED_TYPE,
	   COLLECTIVE };

static int exchange(vp_comm *c, void *arg)
{
	enum how how = *(enum how *)arg;
	static char big[2][1 << 20];
	char *buf = big[vp_rank(c)];
	size_t n = how == LARGE ? sizeof(big[0]) : 16;
	vp_request req;
	int rc;

	if (how == COLLECTIVE) {
		vp_msg_types(c, vp_rank(c) ? INT4 : FLOAT4,
			     vp_rank(c) ? INT4 : FLOAT4);
		return vp_bcast(c, buf, 4, VP_INT32, 0, VP_ALG_AUTO);
	}
	if (vp_rank(c) == 0) {
		vp_msg_types(c, INT4, NULL);
		if (how == POSTED_FIRST && (rc = vp_barrier(c)))
			return rc;
		return vp_send_tag(c, 1, 9, buf, n);
	}
	vp_msg_types(c, NULL, how == SAME ? INT4 : how == UNTYPED_RECV
						       ? NULL
						       : FLOAT4);
	if (how == BLOCKING || how == SAME || how == UNTYPED_RECV)
		return vp_recv_tag(c, 0, 9, buf, n, NULL);
	if ((rc = vp_irecv(c, 0, 9, buf, n, &req)))
		return rc;
	if (how == POSTED_TYPE) /* too late for the posted receive */
		vp_msg_types(c, NULL, INT4);
	if (how == POSTED_FIRST && (rc = vp_barrier(c)))
		return rc;
	return vp_wait(&req, NULL);
}

static int run(enum how how, vp_stats *st)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };

	return vp_run(&o, exchange, &how, st);
}

static int names_both(const vp_stats *st, const char *call)
{
	return strstr(st->error, "rank 1: ") && strstr(st->error, call) &&
	       strstr(st->error, "the message from rank 0 (tag 9) holds "
				 "4-byte integer elements but the receive "
				 "expects 4-byte float elements");
}

int main(void)
{
	static const struct {
		enum how how;
		const char *what, *call;
	} mismatches[] = {
	    { BLOCKING, "blocking vp_recv_tag", "vp_recv_tag" },
	    { POSTED_FIRST, "vp_irecv posted before the message", "vp_wait" },
	    { LARGE, "a 1 MiB message (rendezvous)", "vp_wait" },
	    { POSTED_TYPE, "the type named when the receive was posted",
	      "vp_wait" },
	};
	vp_stats st;
	size_t i;
	int rc;

	rc = run(SAME, &st);
	tap_ok(rc == VP_OK, "sent and received as 4-byte integers: delivered "
			    "(%d %s)", rc, st.error);
	rc = run(UNTYPED_RECV, &st);
	tap_ok(rc == VP_OK, "an untyped receive takes a typed message (%d %s)",
	       rc, st.error);
	for (i = 0; i < sizeof(mismatches) / sizeof(*mismatches); i++) {
		rc = run(mismatches[i].how, &st);
		tap_ok(rc == VP_ETYPE && names_both(&st, mismatches[i].call),
		       "integers received as floats, %s: VP_ETYPE (%d): %s",
		       mismatches[i].what, rc, st.error);
	}
	rc = run(COLLECTIVE, &st);
	tap_ok(rc == VP_OK, "collectives are untyped: ranks naming different "
			    "types broadcast (%d %s)", rc, st.error);
	tap_ok(vp_msg_types(NULL, INT4, INT4) == VP_EINVAL,
	       "vp_msg_types(NULL, ...): VP_EINVAL");
	tap_ok(strcmp(vp_strerror(VP_ETYPE), "unknown error code") != 0,
	       "vp_strerror(VP_ETYPE): %s", vp_strerror(VP_ETYPE));
	return tap_done();
}
