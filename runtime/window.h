/*
 * window.h - what window.c (the public calls, shared-memory windows) and
 * window_messages.c (windows over a transport without shared memory)
 * both see of a window.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_WINDOW_H
#define VP_RUNTIME_WINDOW_H

#include <pthread.h>
#include <stdint.h>

#include "runtime.h"

/* The window's ranks' bases and sizes: one record shared by all ranks
 * when they share memory; one per process otherwise (then only the
 * caller's base is known, every size is). */
struct win_shared {
	int p;
	atomic_int refs; /* rank records that still point here */
	void **base;
	size_t *bytes;
	pthread_mutex_t *lock; /* per target: accumulates */
};

/* A one-sided operation carried as a message (window_messages.c). */
enum win_op_kind { WIN_PUT = 1, WIN_GET, WIN_ACCUMULATE, WIN_END };

struct win_get; /* a get waiting for its reply */
struct win_sent; /* a message whose send is still to complete */

struct win_messages {
	int tag; /* operations travel with tag, replies with tag + 1 */
	struct win_get *gets;
	int ngets, capgets;
	struct win_sent *sent;
	int nsent, capsent;
};

struct vp_win {
	unsigned magic;
	vp_comm *comm;
	struct win_shared *sh;
	struct win_messages *msg; /* NULL: the ranks share memory */
	int fences;      /* fences called: > 0 means an epoch is open */
	double arrival;  /* the latest arrival of this epoch's operations */
	uint32_t last;   /* the model's number of that operation */
	int ops;         /* operations made this epoch */
	int last_target; /* the target of the last one */
	int id; /* 1 + the windows made before it on its communicator: the
		 * same on every rank, it tells fences of two windows apart */
	struct vp_win *next; /* the rank's list of windows */
};

/* A record for p ranks, of which refs hold it. */
struct win_shared *vp__win_shared_new(int p, int refs);
void vp__win_shared_release(struct win_shared *sh);

/* Whether windows are carried as messages: on a transport without shared
 * memory, or when VP_WIN=messages asks for it (to test that path on
 * threads). */
int vp__win_uses_messages(const struct vp__rank *me);
int vp__win_messages_create(vp_comm *c, void *base, size_t bytes,
			    struct win_shared **sh, struct win_messages **msg);
/* Sends the operation (the window checked target, range, type and op). */
int vp__win_messages_op(vp_win *w, enum win_op_kind kind, int target,
			size_t offset, const void *buf, size_t count,
			vp_type type, vp_op op);
/* Every operation of the epoch to or from the caller is done. */
int vp__win_messages_fence(vp_win *w);
/* The rank returned with sends of the window in flight (the run fails):
 * the transport withdraws them. */
void vp__win_messages_withdraw(vp_win *w);
void vp__win_messages_free(struct win_messages *msg);

#endif
