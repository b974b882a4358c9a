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
	/* passive target (window_lock.c): the targets' lock words, made at
	 * the first lock of any rank */
	_Atomic(struct win_locks *) locks;
	/* window kinds (window_dynamic.c) */
	void *block;                 /* vp_win_allocate's memory (rank 0's) */
	struct win_regions *regions; /* dynamic: per rank, attached memory */
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
	/* window_remote.c: reached with the transport's RMA (struct vp__rma)
	 * as well, for passive target and the atomics */
	int rma;
	uint64_t *addr;     /* per rank: its base's address for the RMA */
	uint64_t *lock_at;  /* per rank: its lock block's address */
	int64_t *lock_mine; /* this rank's lock block, attached */
	void *attached;     /* this rank's base, attached (or NULL) */
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
	/* passive target (window_lock.c): this rank's lock epochs as origin,
	 * the arrays made at its first lock */
	unsigned char *held; /* per target: VP_LOCK_* it holds, 0: none */
	double *done_at;     /* per target: its operations complete */
	double *local_at;    /* per target: ... at the origin */
	int nheld;           /* targets it holds a lock on */
	int all;             /* in vp_win_lock_all: 1 + its flags */
	/* generalized active target and window kinds (window_pscw.c,
	 * window_dynamic.c) */
	struct win_pscw *pscw; /* NULL until the first vp_win_post/start */
	int dynamic;           /* vp_win_create_dynamic: offsets are addresses */
	void *own;             /* vp_win_allocate's memory of this rank alone
				* (no shared memory), freed with the window */
	struct win_deferred *deferred; /* a seeded run's puts kept back
					* until a flush (window_defer.c) */
};

/* A seeded run's put in a lock epoch: 1 when the schedule keeps it back
 * until the origin's flush or unlock of target (a copy taken), 0 when it
 * is to be written now. */
int vp__win_defer_put(vp_win *w, int target, size_t offset, const void *buf,
		      size_t n);
/* Writes the puts kept back for target (-1: every target), in order. */
void vp__win_defer_land(vp_win *w, int target);
void vp__win_defer_free(vp_win *w);

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

/* window_remote.c: passive target and the atomics of windows carried as
 * messages, over the transport's RMA. setup attaches this rank's base and
 * lock block (mine: bytes, base address, lock block address; 0 for the
 * last when the transport has no RMA); adopt keeps every rank's. */
void vp__win_remote_setup(vp_comm *c, struct win_messages *msg, void *base,
			  size_t bytes, uint64_t mine[3]);
int vp__win_remote_adopt(vp_comm *c, struct win_messages *msg,
			 const uint64_t *table);
void vp__win_remote_free(vp_win *w, struct win_messages *msg);
/* vp_win_attach's and vp_win_detach's memory, reached by the RMA. */
int vp__win_remote_attach(vp_win *w, void *base, size_t bytes,
			  const char *call);
void vp__win_remote_detach(vp_win *w, void *base);
/* Why a window carried as messages has no RMA (for error messages). */
const char *vp__win_no_rma(const vp_win *w);
/* Whether an operation to target goes by RMA: a lock epoch's, or an
 * atomic (atomic set). */
int vp__win_rma(const vp_win *w, int target, int atomic);
int vp__win_remote_put(vp_win *w, int target, size_t offset,
		       const void *buf, size_t n, const char *call);
int vp__win_remote_get(vp_win *w, int target, size_t offset, void *buf,
		       size_t n, const char *call);
int vp__win_remote_acc(vp_win *w, int target, size_t offset, const void *in,
		       void *result, size_t count, vp_type type, vp_op op,
		       const char *call);
int vp__win_remote_cas(vp_win *w, int target, size_t offset,
		       const void *origin, const void *compare, void *result,
		       vp_type type, const char *call);
/* The lock of target (its lock block): taken (unless take is 0),
 * waiting as a blocked rank; *excl_free, *any_free the model's times of
 * its last releases. */
int vp__win_remote_lock(vp_win *w, int target, int excl, int take,
			double *excl_free, double *any_free, const char *call);
/* Released at model time t (reached the target then). */
int vp__win_remote_unlock(vp_win *w, int target, int excl, double t,
			  const char *call);
/* Completes the operations to target (-1: every target) there. */
void vp__win_remote_flush(vp_win *w, int target);

/* window.c's checks: a live window of the caller; target, range and
 * buffer (1 for VP_PROC_NULL). */
int vp__win_check(vp_win *w, const char *call);
int vp__win_check_target(vp_win *w, int target, size_t offset, size_t n,
			 const void *buf, const char *call);

/* Passive target (window_lock.c). */
/* The operation to target belongs to a lock epoch. */
int vp__win_locked(const vp_win *w, int target);
/* The caller may access target: a lock on it, or a fence epoch; else
 * VP_ESYNC naming call and target. */
int vp__win_access(vp_win *w, int target, const char *call);
/* No lock is held (a fence or vp_win_free may close the epoch). */
int vp__win_lock_none(vp_win *w, const char *call);
/* Charges an operation of a lock epoch, or a round trip (gets and
 * atomics) of either epoch: out bytes to the target, back bytes from it. */
void vp__win_lock_charge(vp_win *w, int target, size_t out, size_t back,
			 int round_trip, const char *what);
void vp__win_locks_free(struct win_shared *sh);
void vp__win_lock_free(vp_win *w);
/* Applies op at the target's count elements (the accumulate lock held);
 * result, if not NULL, gets the elements before (window_atomic.c). */
int vp__win_apply(vp_win *w, int target, size_t offset, const void *in,
		  void *result, size_t count, vp_type type, vp_op op);
/* What window_pscw.c and window_dynamic.c need of window.c. */
/* The window is live and its rank calls: VP_OK or the error. */
int vp__win_enter(vp_win *w, const char *call);
/* Closes the caller's epoch: T reaches its operations' last arrival. */
void vp__win_arrived(vp_win *w);
/* A new window record for the caller (vp_win_create's second half). */
int vp__win_made(vp_comm *c, struct win_shared *sh, struct win_messages *msg,
		 vp_win **win, const char *call);
/* Rank 0 gathers every (base, bytes) into one shared record. */
int vp__win_exchange(vp_comm *c, void *base, size_t bytes,
		     struct win_shared **out, const char *call);

/* window_pscw.c: the tags of a window's post and complete messages in the
 * runtime space, above those of comm_split (0) and of window_messages.c
 * (1 + 2k, 2 + 2k); an access epoch of vp_win_start admits only its group's
 * targets (VP_OK, or the error); whether an epoch of post-start-complete-
 * wait is open (vp_win_fence and vp_win_free refuse then). */
#define VP__WIN_PSCW_TAG(id, kind) (0x40000000 | ((id) << 2) | (kind))
int vp__win_pscw_access(const vp_win *w);
/* VP_EPOCH_START and VP_EPOCH_POST, of those open (vp_win_epochs). */
int vp__win_pscw_epochs(const vp_win *w);
int vp__win_pscw_target(vp_win *w, int target, const char *call);
int vp__win_pscw_idle(vp_win *w, const char *call);
void vp__win_pscw_free(vp_win *w);

/* window_dynamic.c: where target's bytes [offset, offset + n) lie, after
 * checking that they are inside its window (a dynamic window: inside one
 * attached region; offset is then an address): VP_OK or the error. */
int vp__win_range(vp_win *w, int target, size_t offset, size_t n,
		  const char *call);
static inline char *vp__win_at(const vp_win *w, int target, size_t offset)
{
	return (char *)((uintptr_t)w->sh->base[target] + offset);
}
/* The memory vp_win_allocate made: at vp_win_free, after its barrier
 * (freeing: 1), or at the run's end (0). */
void vp__win_kinds_free(vp_win *w, int freeing);
void vp__win_regions_free(struct win_shared *sh);

/* window_messages.c: the pieces of its fence for one pair, for
 * post-start-complete-wait: the END of the caller's operations to target;
 * origin's operations up to its END (blocking), or those that have arrived
 * (not blocking), applied: how many were taken, *ended set at the END, or
 * the error; the replies to the caller's gets, taken while applying the
 * operations of origins[0 .. n) (its exposure epoch's, ended[k] set at
 * each one's END), and its sends completed. */
int vp__win_messages_end(vp_win *w, int target, const char *call);
int vp__win_messages_take(vp_win *w, int origin, int blocking, int *ended,
			  const char *call);
int vp__win_messages_settle(vp_win *w, const int *origins, int *ended,
			    int n, const char *call);

#endif
