/*
 * test_strict.c - strict mode runs every collective between neighbours,
 * and each costs its formula exactly.
 *
 * For every topology of the table in the README (rings, lines, meshes and
 * tori of odd and even sides, hypercubes, the tree), every collective and
 * vp_barrier, from several roots and shift distances, with 1 and 250
 * elements: in strict mode (a message to a non-neighbour fails with
 * VP_ENOLINK) AUTO picks the algorithm the table names, the results are
 * right, and the model time (ts = 100, tw = 1, th = 0) equals
 * vp_coll_formula of that algorithm, which marks itself exact; under
 * alpha-beta:saf too (every message is one hop). Under the
 * sanitizers and valgrind (VP_TEST_QUICK) a sample of the topologies runs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define TS 100.0
#define TW 1.0
#define BARRIER VP_COLL_COUNT_ /* vp_barrier, in this table only */

struct job {
	int op; /* vp_coll, or BARRIER */
	int root;
	long q;
	size_t count;
	int wrong;     /* ranks whose result was wrong */
	vp_alg chosen; /* what AUTO picked (rank 0) */
};

/* Rank r's input element i (block j where the op has blocks). */
static int32_t value(int r, int j, size_t i)
{
	return (int32_t)(r * 1000000 + j * 1000 + (int)i + 1);
}

static int32_t *inputs(int op, int p, int r, size_t n, int root)
{
	int blocks = op == VP_COLL_REDUCE_SCATTER || op == VP_COLL_ALLTOALL ||
			     (op == VP_COLL_SCATTER && r == root)
			 ? p
			 : 1;
	int32_t *in = malloc((size_t)blocks * n * sizeof(*in));
	int j;
	size_t i;

	for (j = 0; j < blocks; j++)
		for (i = 0; i < n; i++)
			in[(size_t)j * n + i] = value(r, j, i);
	return in;
}

/* What rank r must hold after op, element i of block j. */
static int32_t expected(const struct job *k, int p, int r, int j, size_t i)
{
	int32_t s = 0;
	int x;

	switch (k->op) {
	case VP_COLL_BCAST:
		return value(k->root, 0, i);
	case VP_COLL_REDUCE:
	case VP_COLL_ALLREDUCE:
		for (x = 0; x < p; x++)
			s += value(x, 0, i);
		return s;
	case VP_COLL_SCAN:
		for (x = 0; x <= r; x++)
			s += value(x, 0, i);
		return s;
	case VP_COLL_REDUCE_SCATTER:
		for (x = 0; x < p; x++)
			s += value(x, r, i);
		return s;
	case VP_COLL_ALLGATHER:
	case VP_COLL_GATHER:
		return value(j, 0, i);
	case VP_COLL_SCATTER:
		return value(k->root, r, i);
	case VP_COLL_ALLTOALL:
		return value(j, r, i);
	case VP_COLL_SHIFT:
		return value((int)(((r - k->q) % p + p) % p), 0, i);
	}
	return 0;
}

static int call(vp_comm *c, const struct job *k, const int32_t *in,
		int32_t *out)
{
	size_t n = k->count;

	switch (k->op) {
	case VP_COLL_BCAST:
		if (vp_rank(c) == k->root)
			memcpy(out, in, n * sizeof(*in));
		return vp_bcast(c, out, n, VP_INT32, k->root, VP_ALG_AUTO);
	case VP_COLL_REDUCE:
		return vp_reduce(c, in, out, n, VP_INT32, VP_SUM, k->root,
				 VP_ALG_AUTO);
	case VP_COLL_ALLREDUCE:
		return vp_allreduce(c, in, out, n, VP_INT32, VP_SUM,
				    VP_ALG_AUTO);
	case VP_COLL_ALLGATHER:
		return vp_allgather(c, in, out, n, VP_INT32, VP_ALG_AUTO);
	case VP_COLL_REDUCE_SCATTER:
		return vp_reduce_scatter(c, in, out, n, VP_INT32, VP_SUM,
					 VP_ALG_AUTO);
	case VP_COLL_SCAN:
		return vp_scan(c, in, out, n, VP_INT32, VP_SUM, VP_ALG_AUTO);
	case VP_COLL_SCATTER:
		return vp_scatter(c, in, out, n, VP_INT32, k->root,
				  VP_ALG_AUTO);
	case VP_COLL_GATHER:
		return vp_gather(c, in, out, n, VP_INT32, k->root, VP_ALG_AUTO);
	case VP_COLL_ALLTOALL:
		return vp_alltoall(c, in, out, n, VP_INT32, VP_ALG_AUTO);
	case VP_COLL_SHIFT:
		return vp_shift(c, in, out, n, VP_INT32, k->q, VP_ALG_AUTO);
	}
	return vp_barrier(c);
}

/* Blocks of the result on rank r (0: none). */
static int out_blocks(int op, int p, int r, int root)
{
	if (op == BARRIER || (op == VP_COLL_REDUCE && r != root))
		return 0;
	if (op == VP_COLL_ALLGATHER || op == VP_COLL_ALLTOALL)
		return p;
	if (op == VP_COLL_GATHER)
		return r == root ? p : 0;
	return 1;
}

static int rank_fn(vp_comm *c, void *arg)
{
	struct job *k = arg;
	int p = vp_size(c), r = vp_rank(c), j, rc, bad = 0, blocks;
	size_t i, n = k->count;
	int32_t *in = inputs(k->op, p, r, n, k->root);
	int32_t *out = calloc((size_t)p * n, sizeof(*out));

	if (r == 0 && k->op != BARRIER)
		k->chosen = vp_coll_choose(c, (vp_coll)k->op,
					   n * sizeof(int32_t), NULL);
	rc = call(c, k, in, out);
	blocks = out_blocks(k->op, p, r, k->root);
	for (j = 0; !rc && j < blocks; j++)
		for (i = 0; i < n; i++)
			if (out[(size_t)j * n + i] != expected(k, p, r, j, i))
				bad = 1;
	if (bad)
		__atomic_fetch_add(&k->wrong, 1, __ATOMIC_RELAXED);
	free(in);
	free(out);
	return rc;
}

/* What the README's table says AUTO runs in strict mode. */
static vp_alg table_alg(const vp_topo *t, int op)
{
	if (t->kind == VP_TOPO_HYPERCUBE) {
		if (op == VP_COLL_SHIFT)
			return VP_ALG_NEIGHBOUR;
		if (op == VP_COLL_SCATTER || op == VP_COLL_GATHER)
			return VP_ALG_BINOMIAL;
		return VP_ALG_HYPERCUBE;
	}
	if (t->kind == VP_TOPO_TREE) {
		if (op == VP_COLL_BCAST || op == VP_COLL_REDUCE)
			return VP_ALG_TREE;
		return VP_ALG_AUTO; /* the general choice: not fixed here */
	}
	return VP_ALG_NEIGHBOUR;
}

/* The barrier's cost: an all-reduce of nothing between neighbours. */
static double barrier_formula(const vp_topo *t, int *exact)
{
	int d = 0;

	while ((1 << d) < t->p)
		d++;
	if (t->kind == VP_TOPO_HYPERCUBE || t->kind == VP_TOPO_TREE) {
		*exact = 1;
		return d * TS; /* dimension exchange; dissemination */
	}
	return vp_coll_formula(VP_COLL_ALLREDUCE, VP_ALG_NEIGHBOUR, t->spec,
			       t->p, 0, 0, TS, TW, exact);
}

static const char *op_name(int op)
{
	return op == BARRIER ? "barrier" : vp_coll_name((vp_coll)op);
}

static int cells, cells_ok;
static const char *model_spec; /* NULL: alpha-beta (cut-through) */

static void check(const vp_topo *t, int op, int root, long q, size_t count)
{
	struct job k = { op, root,
			 q,  count,
			 0,  op == BARRIER ? VP_ALG_NEIGHBOUR : VP_ALG_AUTO };
	vp_opts o = { .topology = t->spec,
		      .strict = 1,
		      .ts = TS,
		      .tw = TW,
		      .quiet = 1,
		      .model = model_spec };
	vp_model saf = {
		.kind = VP_MODEL_ALPHA_BETA_SAF, .ts = TS, .tw = TW, .ports = 1
	};
	vp_stats st;
	vp_alg want = op == BARRIER ? VP_ALG_AUTO : table_alg(t, op);
	double f;
	int rc, exact = 0, ok;

	rc = vp_run(&o, rank_fn, &k, &st);
	if (model_spec)
		f = vp_coll_formula_model(
		    op == BARRIER ? VP_COLL_ALLREDUCE : (vp_coll)op, k.chosen,
		    t->spec, t->p, op == BARRIER ? 0 : count * sizeof(int32_t),
		    op == VP_COLL_SHIFT ? q : root, &saf, &exact);
	else if (op == BARRIER)
		f = barrier_formula(t, &exact);
	else
		f = vp_coll_formula((vp_coll)op, k.chosen, t->spec, t->p,
				    count * sizeof(int32_t),
				    op == VP_COLL_SHIFT ? q : root, TS, TW,
				    &exact);
	ok = rc == 0 && !k.wrong && (want == VP_ALG_AUTO || k.chosen == want) &&
	     exact && st.model_time == f;
	cells++;
	cells_ok += ok;
	if (!ok)
		tap_ok(0,
		       "strict %s: %s root %d q %ld, %zu x 4 B: rc %d (%s), "
		       "%d wrong, AUTO %s (table: %s), model %.0f, formula "
		       "%.0f (exact %d)",
		       t->spec, op_name(op), root, q, count, rc,
		       rc ? st.error : "-", k.wrong, vp_alg_name(k.chosen),
		       vp_alg_name(want), st.model_time, f, exact);
}

/* Every collective on one topology: returns cells tried. */
static void topology(const char *spec)
{
	static const size_t counts[] = { 1, 250 };
	vp_topo t;
	int op, ri, qi, ci, before = cells, good = cells_ok;

	if (vp_topo_parse(spec, &t, NULL, 0)) {
		tap_ok(0, "topology %s parses", spec);
		return;
	}
	int roots[3] = { 0, t.p / 2, t.p - 1 };
	long qs[4] = { 1, t.p / 2, t.p - 1, 3 * t.p + 2 };

	for (ci = 0; ci < 2; ci++)
		for (op = 0; op <= BARRIER; op++) {
			int rooted =
			    op == VP_COLL_BCAST || op == VP_COLL_REDUCE ||
			    op == VP_COLL_SCATTER || op == VP_COLL_GATHER;

			if (rooted)
				for (ri = 0; ri < 3; ri++)
					check(&t, op, roots[ri], 0, counts[ci]);
			else if (op == VP_COLL_SHIFT)
				for (qi = 0; qi < 4; qi++)
					check(&t, op, 0, qs[qi], counts[ci]);
			else
				check(&t, op, 0, 0, counts[ci]);
		}
	tap_ok(cells_ok - good == cells - before,
	       "strict %s%s%s: every collective and the barrier run between "
	       "neighbours, right, at their formula's exact cost (%d of %d "
	       "cases)",
	       spec, model_spec ? ", " : "", model_spec ? model_spec : "",
	       cells_ok - good, cells - before);
}

/* A collective that is not neighbour-only fails in strict mode, naming
 * the pair: strict mode is enforced, not assumed. */
static int forced_binomial(vp_comm *c, void *arg)
{
	int x = vp_rank(c);

	(void)arg;
	return vp_bcast(c, &x, 1, VP_INT32, 0, VP_ALG_BINOMIAL);
}

int main(void)
{
	static const char *const all[] = {
		"ring:8",      "ring:7",    "line:8",    "line:5",
		"line:2",      "mesh:4x4",  "mesh:3x4",  "mesh:2x3",
		"torus:4x4",   "torus:3x4", "torus:3x3", "hypercube:3",
		"hypercube:4", "tree:8",    "ring:16",   "line:16",
	};
	static const char *const quick[] = { "ring:7",      "line:5",
					     "mesh:3x4",    "torus:3x3",
					     "hypercube:3", "tree:4" };
	int i, n, rc;
	const char *const *list = all;
	vp_opts o = { .topology = "line:8", .strict = 1, .quiet = 1 };
	vp_stats st;

	n = (int)(sizeof(all) / sizeof(all[0]));
	if (getenv("VP_TEST_QUICK")) {
		list = quick;
		n = (int)(sizeof(quick) / sizeof(quick[0]));
	}
	for (i = 0; i < n; i++)
		topology(list[i]);
	/* store-and-forward changes nothing where every message is one hop */
	model_spec = "alpha-beta:saf";
	topology("line:5");
	topology("torus:3x4");
	model_spec = NULL;
	rc = vp_run(&o, forced_binomial, NULL, &st);
	tap_ok(rc == VP_ENOLINK && strstr(st.error, "strict mode"),
	       "strict line:8: a binomial broadcast fails with VP_ENOLINK "
	       "(%s)",
	       st.error);
	return tap_done();
}
