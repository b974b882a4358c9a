/*
 * coll_log.c - which algorithm each collective used, and why.
 *
 * Users of MPI and NCCL ask "which algorithm did my allreduce run?". Every
 * collective calls vp_coll_note once per rank. Each rank keeps its last
 * choice as text (vp_coll_last); rank 0 of the communicator also counts the
 * call in a small table of distinct (op, algorithm, reason), so a call is
 * counted once. After the run the tables of all ranks are merged into
 * vp_stats.collectives. Everything here is private to the rank's thread
 * until vp_run has joined the threads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "trace/trace.h"

#define LOG_ENTRIES 48
#define REASON_LEN 200

struct coll_entry {
	vp_coll op;
	vp_alg alg;
	unsigned long calls;
	char reason[REASON_LEN];
};

struct vp__coll_log {
	char last[REASON_LEN + 64]; /* formatted when asked (vp_coll_last) */
	vp_coll last_op;
	vp_alg last_alg;
	char last_why[REASON_LEN];
	/* where last_why was copied from, and its generation (0: none) */
	const char *last_at;
	unsigned last_gen;
	int last_fresh; /* last matches last_op, last_alg, last_why */
	int hit; /* the entry the previous call counted (rank 0), -1 none */
	int n;
	unsigned long dropped; /* calls whose choice did not fit the table */
	struct coll_entry e[LOG_ENTRIES];
};

size_t vp__coll_log_bytes(void)
{
	return sizeof(struct vp__coll_log);
}

static struct vp__coll_log *log_of(struct vp__rank *r)
{
	if (!r->coll_state.log)
		r->coll_state.log = calloc(1, sizeof(*r->coll_state.log));
	return r->coll_state.log;
}

void vp_coll_note(vp_comm *c, vp_coll op, vp_alg alg, const char *why)
{
	vp__coll_note_known(c, op, alg, why, 0);
}

void vp__coll_note_known(vp_comm *c, vp_coll op, vp_alg alg,
			 const char *why, unsigned gen)
{
	struct vp__coll_log *l;
	int i, same;

	if (!c)
		return;
	vp__trace_coll(c, vp_coll_name(op), vp_alg_name(alg));
	if (!(l = log_of(c->me)))
		return;
	why = why ? why : "";
	/* Formatting costs more than a small collective: only remember.
	 * The same text at the same address in the same generation needs
	 * no comparing (a third of this call's instructions). */
	same = op == l->last_op && alg == l->last_alg &&
	       ((gen && gen == l->last_gen && why == l->last_at) ||
		!strcmp(why, l->last_why));
	l->last_at = why;
	l->last_gen = gen;
	if (!same) {
		l->last_op = op;
		l->last_alg = alg;
		snprintf(l->last_why, sizeof(l->last_why), "%s", why);
		l->last_fresh = 0;
		l->hit = -1; /* another choice than the previous call's */
	}
	if (vp_rank(c) != 0)
		return;
	/* the previous call made the same choice and counted it at hit */
	if (l->hit >= 0 && l->hit < l->n) {
		l->e[l->hit].calls++;
		return;
	}
	for (i = 0; i < l->n; i++) {
		struct coll_entry *e = &l->e[i];

		if (e->op == op && e->alg == alg && !strcmp(e->reason, why)) {
			e->calls++;
			l->hit = i;
			return;
		}
	}
	if (l->n == LOG_ENTRIES) {
		l->dropped++;
		l->hit = -1;
		return;
	}
	l->e[l->n].op = op;
	l->e[l->n].alg = alg;
	l->e[l->n].calls = 1;
	snprintf(l->e[l->n].reason, REASON_LEN, "%s", why);
	l->hit = l->n++;
}

const char *vp_coll_last(const vp_comm *c)
{
	struct vp__coll_log *l;

	if (!c || !(l = c->me->coll_state.log))
		return "";
	if (!l->last_fresh) {
		const char *why = l->last_why;

		snprintf(l->last, sizeof(l->last), "%s %s%s%s%s",
			 vp_coll_name(l->last_op), vp_alg_name(l->last_alg),
			 *why ? " (" : "", why, *why ? ")" : "");
		l->last_fresh = 1;
	}
	return l->last;
}

int vp_coll_last_info(const vp_comm *c, vp_coll *op, vp_alg *alg,
		      const char **why)
{
	struct vp__coll_log *l;

	if (!c)
		return VP_EINVAL;
	if (!(l = c->me->coll_state.log))
		return 0;
	if (op)
		*op = l->last_op;
	if (alg)
		*alg = l->last_alg;
	if (why)
		*why = l->last_why;
	return 1;
}

/* Appends the merged table, one line per distinct choice, to st. */
void vp__coll_log_report(struct vp__world *w, vp_stats *st)
{
	size_t len = 0, cap = sizeof(st->collectives);
	unsigned long dropped = 0;
	int r, i, j;

	st->collectives[0] = 0;
	for (r = 0; r < w->p; r++) {
		struct vp__coll_log *l = w->ranks[r].coll_state.log;

		if (!l)
			continue;
		dropped += l->dropped;
		for (i = 0; i < l->n; i++) {
			struct coll_entry *e = &l->e[i];
			unsigned long calls = e->calls;

			if (!calls)
				continue;
			/* Fold equal entries of later ranks into this one. */
			for (j = r + 1; j < w->p; j++) {
				struct vp__coll_log *o =
				    w->ranks[j].coll_state.log;
				int k;

				for (k = 0; o && k < o->n; k++)
					if (o->e[k].op == e->op &&
					    o->e[k].alg == e->alg &&
					    !strcmp(o->e[k].reason,
						    e->reason)) {
						calls += o->e[k].calls;
						o->e[k].calls = 0;
					}
			}
			if (len + 1 < cap)
				len += (size_t)snprintf(
				    st->collectives + len, cap - len,
				    "%s %s x%lu%s%s%s\n", vp_coll_name(e->op),
				    vp_alg_name(e->alg), calls,
				    *e->reason ? " (" : "", e->reason,
				    *e->reason ? ")" : "");
			if (len >= cap)
				len = cap - 1;
		}
	}
	if (dropped && len + 1 < cap)
		snprintf(st->collectives + len, cap - len,
			 "(%lu calls with other choices not listed)\n",
			 dropped);
}

void vp__coll_log_free(struct vp__rank *r)
{
	free(r->coll_state.log);
	r->coll_state.log = NULL;
}
