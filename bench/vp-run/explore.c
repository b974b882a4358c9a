/*
 * explore.c - vp-run --explore N: each collective case under N
 * deterministic schedules (vp_explore, seeds --schedule or 1 on), one row
 * a case: the runs made, the distinct wildcard match orders and schedules
 * they took, and the failing seed with its report's first line; then the
 * command that replays the first failure (vp-run --schedule SEED ...).
 * No collective receives from VP_ANY_SOURCE, so each case should take
 * one match order and pass every schedule: exploring the tour checks that
 * their results do not depend on the interleaving of the ranks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include "explore.h"
#include "vp.h"

static const char *type_word[] = { "byte", "int32", "int64", "float",
				   "double" };
static const char *op_word[] = { "sum", "prod", "min", "max",
				 "band", "bor", "bxor" };

void explore_header(const struct options *o)
{
	printf("vp-run --explore %d: each case under %d schedules (seeds "
	       "%llu on, %s)\n\n",
	       o->explore, o->explore,
	       (unsigned long long)(o->schedule ? o->schedule
						: VP_EXPLORE_BASE),
	       o->schedule_depth ? "PCT" : "uniform choices");
	printf("%-12s %-14s %-21s %6s %7s %9s  %s\n", "topology", "collective",
	       "algorithm", "runs", "orders", "schedules", "result");
}

/* Appends " --name value" to buf. */
static void arg(char *buf, size_t len, const char *name, const char *value)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, " --%s %s", name, value);
}

/* The command line that runs the case o names under seed. */
static void replay_command(const struct options *o, uint64_t seed, int depth,
			   char *buf, size_t len)
{
	char v[64];

	snprintf(buf, len, "vp-run --schedule %llu", (unsigned long long)seed);
	if (depth) {
		snprintf(v, sizeof(v), "%d", depth);
		arg(buf, len, "schedule-depth", v);
	}
	arg(buf, len, "topology", o->topology);
	arg(buf, len, "collective", vp_coll_name(o->coll));
	if (o->alg != VP_ALG_AUTO)
		arg(buf, len, "algorithm", vp_alg_name(o->alg));
	snprintf(v, sizeof(v), "%zu", o->bytes);
	arg(buf, len, "bytes", v);
	snprintf(v, sizeof(v), "%g", o->ts);
	arg(buf, len, "ts", v);
	snprintf(v, sizeof(v), "%g", o->tw);
	arg(buf, len, "tw", v);
	if (o->th) {
		snprintf(v, sizeof(v), "%g", o->th);
		arg(buf, len, "th", v);
	}
	if (o->model)
		arg(buf, len, "model", o->model);
	if (o->strict)
		snprintf(buf + strlen(buf), len - strlen(buf), " --strict");
	snprintf(v, sizeof(v), "%d", o->k.root);
	arg(buf, len, "root", v);
	snprintf(v, sizeof(v), "%ld", o->k.q);
	arg(buf, len, "q", v);
	arg(buf, len, "type", type_word[o->k.type]);
	arg(buf, len, "op", op_word[o->k.rop]);
}

int explore_case(const struct options *o, struct explore_tally *t)
{
	int (*fn)(vp_comm *, void *);
	vp_explore_result r;
	vp_opts vo;
	void *a;
	int rc;

	case_prepare(o, &vo, &fn, &a);
	rc = vp_explore(&vo, fn, a, o->explore, &r);
	t->cases++;
	printf("%-12s %-14s %-21s %6d %7llu %9llu  ", o->topology,
	       vp_coll_name(o->coll), vp_alg_name(o->alg), rc ? 0 : r.runs,
	       rc ? 0ULL : (unsigned long long)r.match_orders,
	       rc ? 0ULL : (unsigned long long)r.schedules);
	if (rc) {
		printf("FAILED: vp_explore: %s\n", vp_strerror(rc));
		t->failed++;
		return 1;
	}
	if (!r.failed) {
		printf("ok\n");
		return 0;
	}
	printf("FAILED at seed %llu: %s: %.*s\n",
	       (unsigned long long)r.first_seed, r.what,
	       (int)strcspn(r.report, "\n"), r.report);
	if (!t->failed++) {
		replay_command(o, r.first_seed, r.depth, t->replay,
			       sizeof(t->replay));
		snprintf(t->report, sizeof(t->report), "%.*s",
			 (int)strcspn(r.report, "\n"), r.report);
	}
	return 1;
}

int explore_summary(const struct options *o, const struct explore_tally *t)
{
	printf("\n%d case%s, each under %d schedules: %d failed\n", t->cases,
	       t->cases == 1 ? "" : "s", o->explore, t->failed);
	if (!t->failed)
		return 0;
	printf("first failure: %s\nreplay it: %s\n", t->report, t->replay);
	return 1;
}
