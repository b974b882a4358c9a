/*
 * params.c - the run's parameters as seen by code above the runtime: the
 * model clock's ts, tw, th and the collectives' tuning (k-ary degree,
 * pipeline segment), which each rank may change for itself.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "runtime.h"

void vp_model_params(const vp_comm *c, double *ts, double *tw, double *th)
{
	const struct vp__model *o = &c->world->model;

	if (ts)
		*ts = o->ts;
	if (tw)
		*tw = o->tw;
	if (th)
		*th = o->th;
}

int vp_reproducible(const vp_comm *c)
{
	return c && c->world->opts.reproducible;
}

size_t vp_eager_max(const vp_comm *c)
{
	return c->world->opts.eager_max;
}

int vp_set_coll_params(vp_comm *c, int kary, size_t segment)
{
	if (!c)
		return VP_EINVAL;
	if (kary < 0 || kary == 1)
		return vp__fail(c->me, VP_EINVAL, "vp_set_coll_params",
				"kary %d: the degree must be >= 2 (0 keeps %d)",
				kary, c->me->coll_state.kary);
	if (kary)
		c->me->coll_state.kary = kary;
	if (segment)
		c->me->coll_state.segment = segment;
	return VP_OK;
}

void vp_coll_params(const vp_comm *c, int *kary, size_t *segment)
{
	if (kary)
		*kary = c->me->coll_state.kary;
	if (segment)
		*segment = c->me->coll_state.segment;
}

struct vp__auto_memo *vp__auto_memo(vp_comm *c, vp_coll op)
{
	if (!c || c->magic != VP__COMM_LIVE || (unsigned)op >= VP_COLL_COUNT_)
		return NULL;
	return &c->me->coll_state.auto_memo[op];
}

struct vp__call_memo *vp__call_memo(vp_comm *c)
{
	if (!c || c->magic != VP__COMM_LIVE)
		return NULL;
	return &c->me->coll_state.call_memo;
}
