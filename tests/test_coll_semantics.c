/*
 * test_coll_semantics.c - what a user of the collectives relies on beyond
 * the right numbers: VP_IN_PLACE works as in MPI; collectives run on
 * sub-communicators (rows of a mesh, halves of a hypercube); bad arguments
 * abort with a message naming the rank, the call and the value; overlapping
 * buffers are refused; a run reports which algorithm each collective used
 * and why AUTO chose it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

static int in_place(vp_comm *c, void *arg)
{
	int *ok = arg, p = vp_size(c), r = vp_rank(c), i, good = 1;
	int32_t v[64], all[64 * 4], t[64];

	/* allreduce in place: the sum of the ranks */
	v[0] = r + 1;
	if (vp_allreduce(c, VP_IN_PLACE, v, 1, VP_INT32, VP_SUM,
			 VP_ALG_AUTO))
		return 1;
	good &= v[0] == p * (p + 1) / 2;
	/* allgather in place: my block already in place */
	for (i = 0; i < p; i++)
		all[i] = i == r ? 100 + r : -1;
	if (vp_allgather(c, VP_IN_PLACE, all, 1, VP_INT32, VP_ALG_RING))
		return 1;
	for (i = 0; i < p; i++)
		good &= all[i] == 100 + i;
	/* scan in place */
	t[0] = 1;
	if (vp_scan(c, VP_IN_PLACE, t, 1, VP_INT32, VP_SUM, VP_ALG_AUTO))
		return 1;
	good &= t[0] == r + 1;
	/* alltoall in place: block j of rank r is r*100+j */
	for (i = 0; i < p; i++)
		all[i] = r * 100 + i;
	if (vp_alltoall(c, VP_IN_PLACE, all, 1, VP_INT32, VP_ALG_BRUCK))
		return 1;
	for (i = 0; i < p; i++)
		good &= all[i] == i * 100 + r;
	/* gather and reduce in place at the root, scatter at the root */
	for (i = 0; i < p; i++)
		all[i] = r == 2 && i == 2 ? 7 : -1;
	v[0] = r == 2 ? 7 : r;
	if (vp_gather(c, r == 2 ? VP_IN_PLACE : v, all, 1, VP_INT32, 2,
		      VP_ALG_BINOMIAL))
		return 1;
	if (r == 2)
		for (i = 0; i < p; i++)
			good &= all[i] == (i == 2 ? 7 : i);
	v[0] = 1;
	if (vp_reduce(c, r == 0 ? VP_IN_PLACE : v, v, 1, VP_INT32, VP_SUM, 0,
		      VP_ALG_AUTO))
		return 1;
	if (r == 0)
		good &= v[0] == p;
	for (i = 0; i < p; i++)
		all[i] = 10 * i;
	if (vp_scatter(c, all, r == 1 ? VP_IN_PLACE : t, 1, VP_INT32, 1,
		       VP_ALG_BINOMIAL))
		return 1;
	if (r != 1)
		good &= t[0] == 10 * r;
	ok[r] = good;
	return 0;
}

/* Rows of a 3 x 4 mesh and halves of a hypercube as communicators. */
static int sub_comms(vp_comm *c, void *arg)
{
	int *ok = arg, r = vp_rank(c), good = 1, i;
	vp_comm *row;
	int32_t x = r, sum, all[4];

	if (vp_comm_split(c, r / 4, r, &row))
		return 1;
	/* a row of 4 is a grid only if 4 = 2 x 2 virtually: mesh works */
	if (vp_allreduce(row, &x, &sum, 1, VP_INT32, VP_SUM, VP_ALG_RING) ||
	    vp_allgather(row, &x, all, 1, VP_INT32, VP_ALG_HYPERCUBE) ||
	    vp_bcast(row, &x, 1, VP_INT32, 3, VP_ALG_MESH))
		return 1;
	good &= sum == 4 * (r / 4) * 4 + 6;
	for (i = 0; i < 4; i++)
		good &= all[i] == (r / 4) * 4 + i;
	good &= x == (r / 4) * 4 + 3;
	/* AUTO on a sub-communicator uses a general algorithm, and says so */
	good &= vp_allreduce(row, &x, &sum, 1, VP_INT32, VP_MAX,
			     VP_ALG_AUTO) == 0;
	good &= strstr(vp_coll_last(row), "sub-communicator") != NULL;
	vp_comm_free(row);
	ok[r] = good;
	return 0;
}

struct bad {
	int which;
	int rc;
	char msg[512];
};

static int bad_call(vp_comm *c, void *arg)
{
	struct bad *b = arg;
	int32_t x[16] = {0}, y[16];
	float f[4] = {0};
	int rc = 0;

	if (vp_rank(c) != 1) /* the others wait in a collective */
		return vp_barrier(c) == VP_EABORT ? 0 : 1;
	switch (b->which) {
	case 0:
		rc = vp_bcast(c, x, 1, VP_INT32, 9, VP_ALG_AUTO);
		break;
	case 1:
		rc = vp_allreduce(c, f, f + 1, 1, VP_FLOAT, VP_BXOR,
				  VP_ALG_AUTO);
		break;
	case 2:
		rc = vp_allgather(c, x + 1, x, 1, VP_INT32, VP_ALG_RING);
		break;
	case 3:
		rc = vp_reduce(c, x, y, 1, (vp_type)42, VP_SUM, 0,
			       VP_ALG_AUTO);
		break;
	case 4:
		rc = vp_alltoall(c, NULL, y, 2, VP_INT32, VP_ALG_AUTO);
		break;
	}
	b->rc = rc;
	snprintf(b->msg, sizeof(b->msg), "%s", vp_errmsg(c));
	return rc;
}

static int report(vp_comm *c, void *arg)
{
	int32_t x = 1, y;
	int i;

	(void)arg;
	for (i = 0; i < 3; i++)
		if (vp_allreduce(c, &x, &y, 1, VP_INT32, VP_SUM, VP_ALG_AUTO))
			return 1;
	return vp_allreduce(c, &x, &y, 1, VP_INT32, VP_SUM,
			    VP_ALG_RABENSEIFNER);
}

/*
 * AUTO's choice depends on the communicator, the size and the run's
 * topology, and a rank keeps its last one: asked again, each of those
 * changes must change the answer, and the kept one must come back alike
 * (the algorithm and the reason, word for word). Rank 0 writes what it saw.
 */
struct choices {
	vp_alg small, big, small_again, sub, small_last;
	int same_reason, sub_says_sub;
};

static int choose(vp_comm *c, void *arg)
{
	struct choices *ch = arg;
	char first[256];
	const char *why = NULL;
	vp_comm *sub = NULL;
	vp_alg a;
	int rc;

	a = vp_coll_choose(c, VP_COLL_ALLTOALL, 8, &why);
	snprintf(first, sizeof(first), "%s", why);
	if (vp_rank(c) == 0)
		ch->small = a;
	a = vp_coll_choose(c, VP_COLL_ALLTOALL, 8, &why);
	if (vp_rank(c) == 0) {
		ch->small_again = a;
		ch->same_reason = !strcmp(first, why);
	}
	a = vp_coll_choose(c, VP_COLL_ALLTOALL, 1 << 20, &why);
	if (vp_rank(c) == 0)
		ch->big = a;
	if ((rc = vp_comm_split(c, vp_rank(c) % 2, 0, &sub)))
		return rc;
	a = vp_coll_choose(sub, VP_COLL_ALLTOALL, 8, &why);
	if (vp_rank(c) == 0) {
		ch->sub = a;
		ch->sub_says_sub = strstr(why, "sub-communicator") != NULL;
	}
	a = vp_coll_choose(c, VP_COLL_ALLTOALL, 8, &why);
	if (vp_rank(c) == 0)
		ch->small_last = a;
	return vp_comm_free(sub);
}

/*
 * Strict mode on a hypercube: every collective but shift runs with AUTO,
 * and the binomial trees run, from any root: their edges are hypercube
 * links (the ranks are relabelled by XOR with the root).
 */
struct strict_case {
	int root;
};

static int strict_hypercube(vp_comm *c, void *arg)
{
	struct strict_case *sc = arg;
	int p = vp_size(c), k, rc = 0, n = 0;
	vp_coll op;
	char *in = calloc((size_t)p, 8), *out = calloc((size_t)p, 8);

	for (op = 0; op < VP_COLL_COUNT_ && !rc; op++) {
		vp_alg algs[2] = {VP_ALG_AUTO, VP_ALG_BINOMIAL};

		if (op == VP_COLL_SHIFT)
			continue;
		for (k = 0; k < 2 && !rc; k++) {
			if (k == 1 && op != VP_COLL_BCAST &&
			    op != VP_COLL_REDUCE && op != VP_COLL_SCATTER &&
			    op != VP_COLL_GATHER)
				continue;
			switch (op) {
			case VP_COLL_BCAST:
				rc = vp_bcast(c, out, 8, VP_BYTE, sc->root,
					      algs[k]);
				break;
			case VP_COLL_REDUCE:
				rc = vp_reduce(c, in, out, 8, VP_BYTE, VP_SUM,
					       sc->root, algs[k]);
				break;
			case VP_COLL_SCATTER:
				rc = vp_scatter(c, in, out, 8, VP_BYTE,
						sc->root, algs[k]);
				break;
			case VP_COLL_GATHER:
				rc = vp_gather(c, in, out, 8, VP_BYTE, sc->root,
					       algs[k]);
				break;
			case VP_COLL_ALLREDUCE:
				rc = vp_allreduce(c, in, out, 8, VP_BYTE,
						  VP_SUM, algs[k]);
				break;
			case VP_COLL_ALLGATHER:
				rc = vp_allgather(c, in, out, 8, VP_BYTE,
						  algs[k]);
				break;
			case VP_COLL_REDUCE_SCATTER:
				rc = vp_reduce_scatter(c, in, out, 8, VP_BYTE,
						       VP_SUM, algs[k]);
				break;
			case VP_COLL_SCAN:
				rc = vp_scan(c, in, out, 8, VP_BYTE, VP_SUM,
					     algs[k]);
				break;
			case VP_COLL_ALLTOALL:
				rc = vp_alltoall(c, in, out, 8, VP_BYTE,
						 algs[k]);
				break;
			default:
				break;
			}
			n++;
		}
	}
	free(in);
	free(out);
	return rc ? rc : (n == 13 ? 0 : 1);
}

static int strict_scan(vp_comm *c, void *arg)
{
	int32_t x = vp_rank(c) + 1, y = 0;
	int rc = vp_scan(c, &x, &y, 1, VP_INT32, VP_SUM, VP_ALG_AUTO);

	(void)arg;
	if (rc)
		return rc;
	return y == (vp_rank(c) + 1) * (vp_rank(c) + 2) / 2 ? 0 : 1;
}

/*
 * Recursive doubling combines into rbuf and, from the second combine on
 * (or the first, in place), into a scratch vector: at p = 2 out of place
 * it needs none. Each rank holds n elements i * 1000 + r + 1; the sum is
 * exact in doubles. Sizes below and above the 256 bytes kept on the
 * stack, in place and not.
 */
struct doubling {
	vp_alg alg;
	int n, in_place, ok[16];
};

static int doubling_sums(vp_comm *c, void *arg)
{
	struct doubling *d = arg;
	int p = vp_size(c), r = vp_rank(c), i, good = 1;
	double *in = malloc((size_t)d->n * sizeof(double));
	double *out = malloc((size_t)d->n * sizeof(double));

	if (!in || !out) {
		free(in);
		free(out);
		return VP_ENOMEM;
	}
	for (i = 0; i < d->n; i++)
		in[i] = out[i] = i * 1000.0 + r + 1;
	if (vp_allreduce(c, d->in_place ? VP_IN_PLACE : in, out,
			 (size_t)d->n, VP_DOUBLE, VP_SUM, d->alg)) {
		free(in);
		free(out);
		return 1;
	}
	for (i = 0; i < d->n; i++)
		good &= out[i] == (double)p * i * 1000.0 + p * (p + 1) / 2.0;
	for (i = 0; i < d->n && !d->in_place; i++)
		good &= in[i] == i * 1000.0 + r + 1; /* the input untouched */
	d->ok[r] = good;
	free(in);
	free(out);
	return 0;
}

/* One run of doubling_sums: 1 when every rank got the exact sums. */
static int doubling_case(int p, int n, int in_place, vp_alg alg)
{
	struct doubling d = {alg, n, in_place, {0}};
	char topo[16];
	vp_opts o = {.topology = topo};
	int i, good;

	snprintf(topo, sizeof(topo), "full:%d", p);
	good = vp_run(&o, doubling_sums, &d, NULL) == 0;
	for (i = 0; i < p; i++)
		good &= d.ok[i];
	if (!good)
		tap_diag("p %d, %d doubles, %s, %s", p, n,
			 in_place ? "in place" : "out of place",
			 alg == VP_ALG_HYPERCUBE ? "hypercube"
						 : "recursive doubling");
	return good;
}

static void test_doubling_buffers(void)
{
	static const int sizes[] = {1, 32, 33, 1000};
	int p, k, in_place, all = 1;

	for (p = 1; p <= 9; p++)
		for (k = 0; k < 4; k++)
			for (in_place = 0; in_place < 2; in_place++) {
				all &= doubling_case(p, sizes[k], in_place,
						     VP_ALG_RECURSIVE_DOUBLING);
				if (!(p & (p - 1))) /* hypercube: 2^d */
					all &= doubling_case(p, sizes[k],
							     in_place,
							     VP_ALG_HYPERCUBE);
			}
	tap_ok(all, "all-reduce by recursive doubling and on the hypercube, "
		    "p = 1..9, 8 B to 8000 B, in place and not: exact sums, "
		    "inputs untouched");
}

int main(void)
{
	static const char *const bad_what[] = {
		"root 9 is outside [0, 4)", "bitwise op", "overlap",
		"type 42 is not a vp_type", "send buffer is NULL"};
	static const int bad_code[] = {VP_ERANK, VP_EINVAL, VP_EINVAL,
				       VP_EINVAL, VP_EINVAL};
	int ok[64], i, all;
	vp_opts o = {.topology = "ring:5", .eager_max = 16};
	vp_stats st;

	memset(ok, 0, sizeof(ok));
	all = vp_run(&o, in_place, ok, NULL) == 0;
	for (i = 0; i < 5; i++)
		all &= ok[i];
	tap_ok(all, "VP_IN_PLACE: allreduce, allgather, scan, alltoall, "
		    "gather, reduce and scatter give the MPI results on ring:5");
	test_doubling_buffers();

	memset(ok, 0, sizeof(ok));
	o = (vp_opts){.topology = "mesh:3x4"};
	all = vp_run(&o, sub_comms, ok, NULL) == 0;
	for (i = 0; i < 12; i++)
		all &= ok[i];
	tap_ok(all, "collectives on the rows of mesh:3x4 (sub-communicators): "
		    "ring allreduce, hypercube allgather, mesh bcast, AUTO "
		    "names the sub-communicator");

	for (i = 0; i < 5; i++) {
		struct bad b = {.which = i};
		vp_opts q = {.topology = "full:4", .quiet = 1};
		int rc = vp_run(&q, bad_call, &b, &st);

		tap_ok(rc == bad_code[i] && b.rc == bad_code[i] &&
			       strstr(st.error, "rank 1: vp_") &&
			       strstr(st.error, bad_what[i]),
		       "bad argument aborts the run with %s: \"%s\"",
		       vp_strerror(bad_code[i]), st.error);
	}

	for (i = 0; i < 2; i++) {
		static const char *const cubes[] = {"hypercube:3",
						    "hypercube:4"};
		static const int roots[] = {0, 3, 5, 7, 13};
		int r, good = 0, tried = 0;
		char why[512] = "";

		for (r = 0; r < 5; r++) {
			struct strict_case sc = {.root = roots[r]};
			vp_opts q = {.topology = cubes[i], .strict = 1,
				     .quiet = 1};

			if (roots[r] >= (i ? 16 : 8))
				continue;
			tried++;
			if (vp_run(&q, strict_hypercube, &sc, &st) == 0)
				good++;
			else if (!why[0])
				snprintf(why, sizeof(why), "root %d: %.480s",
					 roots[r], st.error);
		}
		tap_ok(good == tried,
		       "strict %s: every collective but shift with AUTO, and "
		       "the binomial trees, run neighbour-only from %d roots "
		       "(%d ran) %s",
		       cubes[i], tried, good, why);
	}

	for (i = 0; i < 2; i++) {
		vp_opts q = {.topology = i ? "line:5" : "ring:8", .strict = 1,
			     .quiet = 1};
		int rc = vp_run(&q, strict_scan, NULL, &st);

		tap_ok(rc == 0 && strstr(st.collectives, "scan neighbour"),
		       "strict %s: AUTO scans along the chain (%d%s)",
		       q.topology, rc, st.error);
	}

	for (i = 0; i < 2; i++) {
		struct choices ch = {0};
		vp_opts q = {.topology = i ? "ring:8" : "hypercube:3",
			     .quiet = 1};
		vp_alg want = i ? VP_ALG_RING : VP_ALG_HYPERCUBE;
		vp_alg want_big = i ? VP_ALG_RING : VP_ALG_PAIRWISE;
		int rc = vp_run(&q, choose, &ch, NULL);

		tap_ok(rc == 0 && ch.small == want && ch.small_again == want &&
			       ch.same_reason && ch.small_last == want &&
			       ch.big == want_big && ch.sub == VP_ALG_BRUCK &&
			       ch.sub_says_sub,
		       "%s, all-to-all: AUTO takes %s for 8 bytes, asked "
		       "twice with one reason, %s for 1 MiB (%s), bruck on a "
		       "sub-communicator of 4 (%s), %s again after them "
		       "(rc %d)",
		       q.topology, vp_alg_name(want), vp_alg_name(want_big),
		       vp_alg_name(ch.big), vp_alg_name(ch.sub),
		       vp_alg_name(ch.small_last), rc);
	}

	o = (vp_opts){.topology = "hypercube:3"};
	vp_run(&o, report, NULL, &st);
	tap_diag("%s", st.collectives);
	tap_ok(strstr(st.collectives, "allreduce hypercube x3 (auto: "
				      "hypercube: the book's algorithm") &&
		       strstr(st.collectives, "allreduce rabenseifner x1\n"),
	       "vp_stats.collectives reports the algorithm of each call and "
	       "why AUTO chose it");
	return tap_done();
}
