/*
 * window_dynamic.c - the kinds of window beside vp_win_create's: memory the
 * window allocates (vp_win_allocate, vp_win_shared_query) and dynamic
 * windows whose memory each rank attaches and detaches while they live
 * (vp_win_create_dynamic, vp_win_attach, vp_win_detach; MPI 4.0,
 * sec. 12.2.2 - 12.2.4).
 *
 * vp_win_allocate: where the ranks share memory, rank 0 allocates every
 * rank's bytes as one block, rank i's right after rank i - 1's (MPI's
 * MPI_Win_allocate_shared default layout), so any rank may also load and
 * store another's memory directly (vp_win_shared_query gives its address);
 * the block goes at vp_win_free. Where they do not, each rank allocates
 * its own.
 *
 * A dynamic window starts with no memory: offsets of operations are the
 * target's addresses (MPI's MPI_Get_address), and the bytes an operation
 * touches must lie inside one region the target attached. Each rank's
 * regions are a list under a lock of its own: an origin reads it while its
 * owner may attach or detach other regions. Where operations travel as
 * messages the origin cannot see the target's list; the target checks
 * when it applies the operation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "window.h"

/* Noncontiguous blocks align each rank's memory to this. */
#define KIND_ALIGN 16

struct region {
	uintptr_t lo;
	size_t n;
};

/* One rank's attached memory; lock guards list and n. */
struct win_regions {
	pthread_mutex_t lock;
	struct region *list;
	int n, cap;
};

void vp__win_regions_free(struct win_shared *sh)
{
	int i;

	if (!sh->regions)
		return;
	for (i = 0; i < sh->p; i++) {
		pthread_mutex_destroy(&sh->regions[i].lock);
		free(sh->regions[i].list);
	}
	free(sh->regions);
	sh->regions = NULL;
}

static int regions_new(struct win_shared *sh)
{
	int i;

	if (!(sh->regions = calloc((size_t)sh->p, sizeof(*sh->regions))))
		return -1;
	for (i = 0; i < sh->p; i++)
		pthread_mutex_init(&sh->regions[i].lock, NULL);
	return 0;
}

/* What rank 0 makes of the gathered sizes: the block of vp_win_allocate
 * (bases set), or the regions of a dynamic window. */
enum kind { KIND_ALLOCATE, KIND_DYNAMIC };

static int prepare(struct win_shared *sh, enum kind kind)
{
	size_t total = 0, at = 0;
	int i;

	if (kind == KIND_DYNAMIC)
		return regions_new(sh);
	for (i = 0; i < sh->p; i++) {
		if (sh->bytes[i] > SIZE_MAX / 2 - total)
			return -1;
		total += sh->bytes[i];
	}
	if (!(sh->block = calloc(1, total ? total : 1)))
		return -1;
	for (i = 0; i < sh->p; i++) {
		sh->base[i] = (char *)sh->block + at;
		at += sh->bytes[i];
	}
	return 0;
}

/* Rank 0 gathers every rank's size, prepares the shared record and hands
 * it out (NULL when it had no memory). */
static int gather(vp_comm *c, size_t bytes, enum kind kind,
		  struct win_shared **out, const char *call)
{
	struct win_shared *sh = NULL;
	int i, rc = VP_OK, p = c->group->size;
	size_t got;

	if (c->rank != 0) {
		if ((rc = vp__rt_send(c, 0, &bytes, sizeof(bytes), call)) ||
		    (rc = vp__rt_recv(c, 0, &sh, sizeof(sh), call)))
			return rc;
		*out = sh;
		return sh ? VP_OK : VP_ENOMEM;
	}
	sh = vp__win_shared_new(p, p);
	if (sh)
		sh->bytes[0] = bytes;
	for (i = 1; i < p && !rc; i++) {
		rc = vp__rt_recv(c, i, &got, sizeof(got), call);
		if (!rc && sh)
			sh->bytes[i] = got;
	}
	if (!rc && sh && prepare(sh, kind)) {
		atomic_store(&sh->refs, 1);
		vp__win_shared_release(sh);
		sh = NULL;
	}
	for (i = 1; i < p && !rc; i++)
		rc = vp__rt_send(c, i, &sh, sizeof(sh), call);
	*out = sh;
	return rc ? rc : sh ? VP_OK : VP_ENOMEM;
}

/* A window of this kind over bytes of the caller's (dynamic: none). */
static int make(vp_comm *c, size_t bytes, enum kind kind, void **base,
		vp_win **win, const char *call)
{
	struct vp__rank *me = c->me;
	struct win_shared *sh = NULL;
	struct win_messages *msg = NULL;
	void *own = NULL;
	int rc;

	if (!vp__win_uses_messages(me)) {
		rc = gather(c, bytes, kind, &sh, call);
		if (rc == VP_ENOMEM)
			rc = vp__fail(me, rc, call,
				      "no memory for a window of %d ranks "
				      "(this rank's %zu bytes)",
				      c->group->size, bytes);
	} else if (kind == KIND_ALLOCATE &&
		   !(own = calloc(1, bytes ? bytes : 1))) {
		rc = vp__fail(me, VP_ENOMEM, call, "no memory for %zu bytes",
			      bytes);
	} else if (!(rc = vp__win_messages_create(c, own, bytes, &sh, &msg)) &&
		   kind == KIND_DYNAMIC && regions_new(sh)) {
		vp__win_shared_release(sh);
		vp__win_messages_free(msg);
		rc = vp__fail(me, VP_ENOMEM, call, "no memory for a window");
	}
	if (!rc)
		rc = vp__win_made(c, sh, msg, win, call);
	if (rc) {
		free(own);
		return rc;
	}
	(*win)->own = own;
	(*win)->dynamic = kind == KIND_DYNAMIC;
	if (base)
		*base = sh->base[c->rank];
	return VP_OK;
}

int vp_win_allocate(vp_comm *c, size_t bytes, void **base, vp_win **win)
{
	static const char call[] = "vp_win_allocate";
	int rc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, call)))
		return rc;
	if (!win || !base)
		return vp__fail(c->me, VP_EINVAL, call, "the %s pointer is NULL",
				!win ? "window" : "base");
	*win = NULL;
	*base = NULL;
	return make(c, bytes, KIND_ALLOCATE, base, win, call);
}

int vp_win_create_dynamic(vp_comm *c, vp_win **win)
{
	static const char call[] = "vp_win_create_dynamic";
	int rc;

	if (!c)
		return VP_EINVAL;
	if ((rc = vp__enter(c, call)))
		return rc;
	if (!win)
		return vp__fail(c->me, VP_EINVAL, call,
				"the window pointer is NULL");
	*win = NULL;
	return make(c, 0, KIND_DYNAMIC, NULL, win, call);
}

void vp__win_kinds_free(vp_win *w, int freeing)
{
	free(w->own);
	w->own = NULL;
	/* after vp_win_free's barrier nobody touches the block again */
	if (freeing && !w->msg && w->comm->rank == 0 && w->sh->block) {
		free(w->sh->block);
		w->sh->block = NULL;
	}
}

int vp_win_shared_query(vp_win *w, int rank, void **base, size_t *bytes)
{
	static const char call[] = "vp_win_shared_query";
	int rc, p;

	if ((rc = vp__win_enter(w, call)))
		return rc;
	p = w->comm->group->size;
	if (!base || !bytes)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"the %s pointer is NULL",
				!base ? "base" : "bytes");
	if (rank < 0 || rank >= p)
		return vp__fail(w->comm->me, VP_ERANK, call,
				"rank %d is outside [0, %d)", rank, p);
	if (w->dynamic || (w->msg && rank != w->comm->rank))
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"rank %d's memory is not shared with this "
				"rank (%s)",
				rank,
				w->dynamic ? "a dynamic window"
					   : "the ranks do not share memory");
	*base = w->sh->base[rank];
	*bytes = w->sh->bytes[rank];
	return VP_OK;
}

/* The caller's own regions, after checking that w is dynamic. */
static struct win_regions *own_regions(vp_win *w, const char *call)
{
	if (!w->dynamic) {
		vp__fail(w->comm->me, VP_EINVAL, call,
			 "the window is not dynamic (vp_win_create_dynamic)");
		return NULL;
	}
	return &w->sh->regions[w->comm->rank];
}

int vp_win_attach(vp_win *w, void *base, size_t bytes)
{
	static const char call[] = "vp_win_attach";
	struct win_regions *r;
	uintptr_t lo = (uintptr_t)base;
	int rc = VP_OK, i;

	if ((rc = vp__win_enter(w, call)))
		return rc;
	if (!(r = own_regions(w, call)))
		return VP_EINVAL;
	if (!base && bytes)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"base is NULL (%zu bytes)", bytes);
	pthread_mutex_lock(&r->lock);
	for (i = 0; i < r->n; i++)
		if (lo < r->list[i].lo + r->list[i].n &&
		    r->list[i].lo < lo + bytes)
			break;
	if (i < r->n) {
		rc = 1;
	} else if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 4;
		struct region *bigger =
		    realloc(r->list, (size_t)cap * sizeof(*bigger));

		if (bigger) {
			r->list = bigger;
			r->cap = cap;
		} else {
			rc = 2;
		}
	}
	if (!rc)
		r->list[r->n++] = (struct region){ lo, bytes };
	pthread_mutex_unlock(&r->lock);
	if (rc == 1)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"bytes [%p, %p + %zu) overlap memory attached "
				"already",
				base, base, bytes);
	if (rc == 2)
		return vp__fail(w->comm->me, VP_ENOMEM, call, "no memory");
	return vp__win_remote_attach(w, base, bytes, call);
}

int vp_win_detach(vp_win *w, const void *base)
{
	static const char call[] = "vp_win_detach";
	struct win_regions *r;
	int rc, i, found;

	if ((rc = vp__win_enter(w, call)))
		return rc;
	if (!(r = own_regions(w, call)))
		return VP_EINVAL;
	pthread_mutex_lock(&r->lock);
	for (i = 0; i < r->n && r->list[i].lo != (uintptr_t)base; i++)
		;
	found = i < r->n;
	if (found)
		r->list[i] = r->list[--r->n];
	pthread_mutex_unlock(&r->lock);
	if (!found)
		return vp__fail(w->comm->me, VP_EINVAL, call,
				"no memory is attached at %p", base);
	vp__win_remote_detach(w, (void *)(uintptr_t)base);
	return VP_OK;
}

/* Bytes [lo, hi) lie in r's regions: in one, or across regions attached
 * end to end (MPI 4.0, sec. 12.2.4 lets an access span attached regions
 * that touch). The caller holds r's lock. */
static int covered(const struct win_regions *r, uintptr_t lo, uintptr_t hi)
{
	int i, k, moved = 1;

	for (k = 0; k <= r->n && moved && lo < hi; k++)
		for (i = 0, moved = 0; i < r->n && !moved; i++)
			if (lo >= r->list[i].lo &&
			    lo - r->list[i].lo < r->list[i].n) {
				lo = r->list[i].lo + r->list[i].n;
				moved = 1;
			}
	return lo >= hi;
}

int vp__win_range(vp_win *w, int target, size_t offset, size_t n,
		  const char *call)
{
	struct win_regions *r;
	size_t have;
	int inside;

	if (!w->dynamic) {
		have = w->sh->bytes[target];
		if (offset > have || n > have - offset)
			return vp__fail(w->comm->me, VP_EINVAL, call,
					"bytes [%zu, %zu + %zu) are outside "
					"target %d's window of %zu bytes",
					offset, offset, n, target, have);
		return VP_OK;
	}
	if (!n || (w->msg && target != w->comm->rank))
		return VP_OK; /* nothing touched; or the target checks */
	r = &w->sh->regions[target];
	pthread_mutex_lock(&r->lock);
	inside = offset + n > offset && covered(r, offset, offset + n);
	pthread_mutex_unlock(&r->lock);
	if (inside)
		return VP_OK;
	return vp__fail(w->comm->me, VP_EINVAL, call,
			"bytes [%#zx, %#zx + %zu) are not inside memory that "
			"target %d attached to its dynamic window",
			offset, offset, n, target);
}
