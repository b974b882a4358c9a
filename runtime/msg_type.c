/*
 * msg_type.c - typed point-to-point messages: the check MPI calls type
 * matching (MPI 3.1, sec. 3.3.1), for layers whose messages have types.
 *
 * vp_msg_types(c, send, recv) names the element type of the messages the
 * rank sends from then on, and of the receives it posts. A name is static
 * text ("4-byte integer"); it is interned once into a small process-wide
 * table, and the table index + 1 (its code) rides in each message's
 * envelope. On receipt a nonzero code that differs from the receive's
 * nonzero code fails the run naming both. NULL (code 0) is untyped: bytes,
 * which match anything.
 *
 * Concurrency: the table only grows; a slot is written under the lock
 * before its count is published (release), and read after an acquire load
 * of the count, so names are read without the lock. The codes in a rank's
 * state are the rank's own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "runtime.h"

#define TYPE_NAMES 255 /* beyond: untyped (code 0), never a false error */

static const char *names[TYPE_NAMES];
static atomic_int nnames;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

/* The code of name (0 for NULL, or when the table is full). */
static uint32_t intern(const char *name)
{
	int i, n;

	if (!name)
		return 0;
	n = atomic_load_explicit(&nnames, memory_order_acquire);
	for (i = 0; i < n; i++)
		if (names[i] == name || !strcmp(names[i], name))
			return (uint32_t)i + 1;
	pthread_mutex_lock(&names_lock);
	n = atomic_load_explicit(&nnames, memory_order_relaxed);
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			break;
	if (i == n && n < TYPE_NAMES) {
		names[n] = name;
		atomic_store_explicit(&nnames, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&names_lock);
	return i < TYPE_NAMES ? (uint32_t)i + 1 : 0;
}

static const char *name_of(uint32_t code)
{
	return code && (int)code <= atomic_load(&nnames) ? names[code - 1]
							 : "?";
}

int vp_msg_types(vp_comm *c, const char *send_type, const char *recv_type)
{
	struct vp__rank *me;

	if (!c || c->magic != VP__COMM_LIVE)
		return VP_EINVAL;
	me = c->me;
	/* the layer names the same types call after call: no lookup then */
	if (send_type != me->send_type_name) {
		me->send_type = intern(send_type);
		me->send_type_name = send_type;
	}
	if (recv_type != me->recv_type_name) {
		me->recv_type = intern(recv_type);
		me->recv_type_name = recv_type;
	}
	return VP_OK;
}

int vp__type_check(vp_comm *c, int src_world, int tag, uint32_t expect,
		   const struct vp__envelope *env, const char *call)
{
	char peer[64];

	if (!expect || !env->type_code || env->type_code == expect)
		return VP_OK;
	return vp__fail(c->me, VP_ETYPE, call,
			"the message from %s (tag %d) holds %s elements but "
			"the receive expects %s elements (the types of a send "
			"and of its receive must match)",
			vp__peer_name(c, src_world, peer, sizeof(peer)), tag,
			name_of(env->type_code), name_of(expect));
}
