/*
 * window.c - one-sided communication with fences: vp_win_create, vp_put,
 * vp_get, vp_accumulate, vp_win_fence, vp_win_free (MPI standard, ch. 11,
 * active target with MPI_Win_fence; Valiant's BSP supersteps, 1990).
 *
 * Ranks share one address space, so an operation reads or writes the
 * target's window directly when it is called; an accumulate holds the
 * target's lock, so accumulates to one target are atomic with respect to
 * each other. The model charges each operation as one message of its bytes
 * between origin and target, leaving from the origin's send port (the
 * target is passive: its ports are not used) over the route's links. The
 * fence closes the epoch: T reaches the arrival of the rank's last
 * operation, and a vp_barrier makes every rank wait for all the others, so
 * every operation of the epoch is complete when any rank leaves the fence:
 * one superstep, costing the slowest rank's work plus a barrier.
 *
 * Handles: a freed window keeps its memory until the run ends (so using it
 * is reported, not undefined); the bases and sizes of all ranks live in one
 * record shared by the window's ranks, freed at the run's end.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

#define VP__WIN_LIVE 0x76702d77u  /* "vp-w" */
#define VP__WIN_FREED 0x66726565u /* "free" */

/* What every rank of the window shares. */
struct win_shared {
	int p;
	atomic_int refs; /* rank records that still point here */
	void **base;
	size_t *bytes;
	pthread_mutex_t *lock; /* per target: accumulates */
};

struct vp_win {
	unsigned magic;
	vp_comm *comm;
	struct win_shared *sh;
	int fences;      /* fences called: > 0 means an epoch is open */
	double arrival;  /* the latest arrival of this epoch's operations */
	uint32_t last;   /* the model's number of that operation */
	int any;         /* an operation was made this epoch */
	struct vp_win *next; /* the rank's list of windows */
};

static struct win_shared *shared_new(int p)
{
	struct win_shared *sh = calloc(1, sizeof(*sh));
	int i;

	if (!sh)
		return NULL;
	sh->p = p;
	sh->base = calloc((size_t)p, sizeof(*sh->base));
	sh->bytes = calloc((size_t)p, sizeof(*sh->bytes));
	sh->lock = calloc((size_t)p, sizeof(*sh->lock));
	if (!sh->base || !sh->bytes || !sh->lock) {
		free(sh->base);
		free(sh->bytes);
		free(sh->lock);
		free(sh);
		return NULL;
	}
	for (i = 0; i < p; i++)
		pthread_mutex_init(&sh->lock[i], NULL);
	atomic_init(&sh->refs, p);
	return sh;
}

static void shared_release(struct win_shared *sh)
{
	int i;

	if (!sh || atomic_fetch_sub(&sh->refs, 1) != 1)
		return;
	for (i = 0; i < sh->p; i++)
		pthread_mutex_destroy(&sh->lock[i]);
	free(sh->base);
	free(sh->bytes);
	free(sh->lock);
	free(sh);
}

void vp__windows_free(struct vp__rank *r)
{
	struct vp_win *w, *next;

	for (w = r->wins; w; w = next) {
		next = w->next;
		shared_release(w->sh);
		free(w);
	}
	r->wins = NULL;
}

/* Rank 0 gathers every (base, bytes) and hands out the shared record. */
static int exchange(vp_comm *c, void *base, size_t bytes,
		    struct win_shared **out)
{
	struct { void *base; size_t bytes; } mine = { base, bytes }, got;
	struct win_shared *sh = NULL;
	int i, rc = VP_OK, p = c->group->size;

	if (c->rank != 0) {
		if ((rc = vp__rt_send(c, 0, &mine, sizeof(mine),
				      "vp_win_create")) ||
		    (rc = vp__rt_recv(c, 0, &sh, sizeof(sh), "vp_win_create")))
			return rc;
		*out = sh;
		return sh ? VP_OK : VP_ENOMEM;
	}
	sh = shared_new(p);
	if (sh) {
		sh->base[0] = base;
		sh->bytes[0] = bytes;
	}
	for (i = 1; i < p && !rc; i++) {
		rc = vp__rt_recv(c, i, &got, sizeof(got), "vp_win_create");
		if (!rc && sh) {
			sh->base[i] = got.base;
			sh->bytes[i] = got.bytes;
		}
	}
	/* everyone learns the record, or NULL when there was no memory */
	for (i = 1; i < p && !rc; i++)
		rc = vp__rt_send(c, i, &sh, sizeof(sh), "vp_win_create");
	*out = sh;
	return rc ? rc : sh ? VP_OK : VP_ENOMEM;
}

int vp_win_create(vp_comm *c, void *base, size_t bytes, vp_win **win)
{
	struct vp__rank *me;
	struct win_shared *sh = NULL;
	struct vp_win *w;
	int rc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, "vp_win_create")))
		return rc;
	me = c->me;
	if (!win)
		return vp__fail(me, VP_EINVAL, "vp_win_create",
				"the window pointer is NULL");
	*win = NULL;
	if ((rc = vp__check_buf(c, base, bytes, "vp_win_create", "base")))
		return rc;
	if (!vp__tx(me)->shares_memory)
		return vp__fail(me, VP_EINVAL, "vp_win_create",
				"one-sided windows need the ranks in one "
				"address space; the %s transport does not "
				"have them yet",
				vp__tx(me)->name);
	if ((rc = exchange(c, base, bytes, &sh)))
		return rc == VP_ENOMEM
			   ? vp__fail(me, rc, "vp_win_create",
				      "no memory for a window of %d ranks",
				      c->group->size)
			   : rc;
	if (!(w = calloc(1, sizeof(*w)))) {
		shared_release(sh);
		return vp__fail(me, VP_ENOMEM, "vp_win_create",
				"no memory for a window");
	}
	w->magic = VP__WIN_LIVE;
	w->comm = c;
	w->sh = sh;
	w->next = me->wins;
	me->wins = w;
	*win = w;
	return VP_OK;
}

/* The window is live, the caller is its rank, and an epoch is open (if
 * in_epoch). */
static int win_enter(vp_win *w, const char *call, int in_epoch)
{
	int rc;

	if (!w || (w->magic != VP__WIN_LIVE && w->magic != VP__WIN_FREED))
		return VP_EINVAL; /* not a window: no rank to name */
	if ((rc = vp__enter(w->comm, call)))
		return rc;
	if (w->magic == VP__WIN_FREED)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"the window was freed by vp_win_free");
	if (in_epoch && !w->fences)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"outside an epoch: call vp_win_fence (on every "
				"rank) before the first operation");
	return VP_OK;
}

/* Target and byte range are inside the target's window: VP_OK, 1 for
 * VP_PROC_NULL (nothing to do), or the error. */
static int check_target(vp_win *w, int target, size_t offset, size_t n,
			const void *buf, const char *call)
{
	vp_comm *c = w->comm;
	size_t have;
	int rc;

	if (target == VP_PROC_NULL)
		return 1;
	if (target < 0 || target >= c->group->size)
		return vp__fail(c->me, VP_ERANK, call,
				"target %d is outside [0, %d)", target,
				c->group->size);
	if ((rc = vp__check_buf(c, buf, n, call, "buffer")))
		return rc;
	have = w->sh->bytes[target];
	if (offset > have || n > have - offset)
		return vp__fail(c->me, VP_EINVAL, call,
				"bytes [%zu, %zu + %zu) are outside target "
				"%d's window of %zu bytes",
				offset, offset, n, target, have);
	return VP_OK;
}

/* The model: one message of n bytes between origin and target; the trace
 * draws it as an arrow into the target's line. */
static void charge(vp_win *w, int target, size_t n, const char *what)
{
	struct vp__rank *me = w->comm->me;
	struct vp__world *world = me->world;
	struct vp__trace_op op;
	struct vp__envelope env = { 0 };
	int tw = vp__to_world(w->comm, target), hops;

	vp__trace_begin(w->comm, &op, VP__EV_SEND);
	hops = vp__clock_send(&me->clock, &world->model, &world->topo,
			      me->world_rank, tw, n, &env);
	vp__trace_stamp(me, &env);
	vp__trace_sent(w->comm, &op, tw, n, hops, &env);
	op.rma = what;
	vp__trace_end(w->comm, &op);

	vp__clock_log(&me->clock, VP__EV_ISEND, tw, -1, (uint32_t)hops, 0, n,
		      0);
	me->clock.messages++;
	me->clock.bytes += n;
	if (!w->any || env.arrival >= w->arrival) {
		w->arrival = env.arrival;
		w->last = env.seq;
	}
	w->any = 1;
}

int vp_put(vp_win *w, int target, size_t offset, const void *buf, size_t n)
{
	int rc;

	if ((rc = win_enter(w, "vp_put", 1)) ||
	    (rc = check_target(w, target, offset, n, buf, "vp_put")))
		return rc < 0 ? rc : VP_OK;
	if (n)
		memmove((char *)w->sh->base[target] + offset, buf, n);
	charge(w, target, n, "put");
	return VP_OK;
}

int vp_get(vp_win *w, int target, size_t offset, void *buf, size_t n)
{
	int rc;

	if ((rc = win_enter(w, "vp_get", 1)) ||
	    (rc = check_target(w, target, offset, n, buf, "vp_get")))
		return rc < 0 ? rc : VP_OK;
	if (n)
		memmove(buf, (char *)w->sh->base[target] + offset, n);
	charge(w, target, n, "get");
	return VP_OK;
}

int vp_accumulate(vp_win *w, int target, size_t offset, const void *buf,
		  size_t count, vp_type type, vp_op op)
{
	size_t es = vp_type_size(type), n;
	int rc;

	if ((rc = win_enter(w, "vp_accumulate", 1)))
		return rc;
	if (!es)
		return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
				"type %d is not a vp_type", (int)type);
	if (count > SIZE_MAX / es)
		return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
				"count %zu overflows", count);
	n = count * es;
	if ((rc = check_target(w, target, offset, n, buf, "vp_accumulate")))
		return rc < 0 ? rc : VP_OK;
	if (offset % es)
		return vp__fail(w->comm->me, VP_EINVAL, "vp_accumulate",
				"offset %zu is not a multiple of the type's "
				"%zu bytes",
				offset, es);
	pthread_mutex_lock(&w->sh->lock[target]);
	rc = vp_reduce_local(buf, (char *)w->sh->base[target] + offset, count,
			     type, op);
	pthread_mutex_unlock(&w->sh->lock[target]);
	if (rc)
		return vp__fail(w->comm->me, rc, "vp_accumulate",
				"op %d does not apply to type %d", (int)op,
				(int)type);
	charge(w, target, n, "accumulate");
	return VP_OK;
}

/* The epoch's operations are complete here: T reaches the last arrival,
 * then every rank waits for the others. */
static int close_epoch(vp_win *w)
{
	struct vp__rank *me = w->comm->me;

	if (w->any) {
		if (w->arrival > me->clock.t)
			me->clock.t = w->arrival;
		vp__clock_log(&me->clock, VP__EV_ARRIVED, -1, -1, 0, w->last, 0,
			      0);
	}
	w->any = 0;
	return vp_barrier(w->comm);
}

int vp_win_fence(vp_win *w)
{
	int rc;

	if ((rc = win_enter(w, "vp_win_fence", 0)))
		return rc;
	w->fences++;
	return close_epoch(w);
}

int vp_win_free(vp_win *w)
{
	int rc;

	if ((rc = win_enter(w, "vp_win_free", 0)))
		return rc;
	/* nobody may still be reading or writing any window */
	if ((rc = close_epoch(w)))
		return rc;
	w->magic = VP__WIN_FREED;
	return VP_OK;
}
