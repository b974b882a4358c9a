/*
 * test_coll_matrix.c - every collective, with every algorithm it has and
 * with VP_ALG_AUTO, on every topology and many p, gives exactly the
 * sequential answer (coll_ref.h), element by element, and writes nothing
 * past its buffers; an algorithm that cannot take p refuses with VP_EALG
 * and says why.
 *
 * Per (topology, collective, algorithm) one run covers counts 0, 1, 7,
 * 1000 and a large one, rotating through every type, every operator (the
 * bitwise ones on integer types), roots 0, p-1, p/2 and shifts 1, p-1, -3,
 * p+2, 0, 5p+3. Every other run lowers eager_max to 512 bytes so that the
 * single-copy rendezvous path carries most messages, and the pipelined
 * trees cut messages into 96- or 1000-byte segments (k-ary: k = 4 or 3).
 * VP_TEST_QUICK=1 (set under the sanitizers and valgrind) samples: every
 * topology kind at a few p (quick_specs), one case per count (every type
 * still). So does make check's second pass, with the ranks as fibers
 * (VP_FIBERS=1), adding full:64, where every algorithm runs: the
 * collectives sit above the transport, fibers change only who runs when,
 * and the whole matrix has run as threads just before.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "apps/coll_ref.h"
#include "tap.h"
#include "vp.h"

#define GUARD 64
#define MAXP 64

static const char *const specs[] = {
	"full:1",	"ring:2",	"ring:3",      "ring:4",      "ring:5",
	"ring:7",	"ring:8",	"ring:9",      "ring:12",     "ring:16",
	"ring:17",	"ring:64",	"line:3",      "line:5",      "line:8",
	"line:17",	"line:32",	"mesh:2x2",    "mesh:3x3",    "mesh:2x3",
	"mesh:3x4",	"mesh:4x4",	"mesh:1x5",    "mesh:8x8",    "torus:3x3",
	"torus:4x4",	"torus:2x4",	"hypercube:0", "hypercube:1", "hypercube:2",
	"hypercube:3",	"hypercube:4",	"hypercube:5", "hypercube:6", "tree:2",
	"tree:4",	"tree:8",	"tree:16",     "tree:64",     "full:2",
	"full:3",	"full:5",	"full:7",      "full:9",      "full:12",
	"full:17",	"full:32",	"full:64",
};

/* The sample run under the sanitizers and valgrind (VP_TEST_QUICK): each
 * kind of topology, a power of two and not (ThreadSanitizer takes 4 ms to
 * start each of a run's threads). */
static const char *const quick_specs[] = {
	"full:1",      "ring:5",      "ring:8",	 "line:3",  "mesh:2x3",
	"torus:2x4",   "hypercube:2", "hypercube:3", "tree:4", "full:7",
};

struct job {
	vp_coll op;
	vp_alg alg;
	int p, cases, refused;
	char refusal[512];
	char fail[MAXP][256];
};

static int is_block_op(vp_coll op)
{
	return op == VP_COLL_ALLGATHER || op == VP_COLL_REDUCE_SCATTER ||
	       op == VP_COLL_SCATTER || op == VP_COLL_GATHER ||
	       op == VP_COLL_ALLTOALL;
}

/* The cases of one run, the same on every rank. */
static int quick;

static int make_cases(vp_coll op, int p, struct ref_case *k, int max)
{
	static const vp_type types[] = {VP_BYTE, VP_INT32, VP_INT64, VP_FLOAT,
					VP_DOUBLE};
	size_t large = is_block_op(op) ? 20000 / (size_t)p + 1 : 20000;
	size_t counts[] = {0, 1, 7, 1000, large};
	long qs[] = {1, p - 1, -3, p + 2, 0, 5L * p + 3};
	int roots[] = {0, p - 1, p / 2};
	int n = 0, i, j;

	for (i = 0; i < 5; i++)
		for (j = 0; j < (i >= 3 || quick ? 1 : 3) && n < max;
		     j++, n++) {
			k[n].op = op;
			k[n].p = p;
			k[n].count = counts[i];
			k[n].type = types[(i * 3 + j) % 5];
			k[n].rop = (vp_op)((i * 2 + j * 3) % 7);
			if (k[n].rop >= VP_BAND && ref_is_float(k[n].type))
				k[n].type = j % 2 ? VP_INT64 : VP_INT32;
			k[n].root = roots[(i + j) % 3];
			k[n].q = qs[(i + j) % 6];
		}
	return n;
}

static int run_cases(vp_comm *c, void *arg)
{
	struct job *jb = arg;
	struct ref_case k[16];
	int n = make_cases(jb->op, vp_size(c), k, 16), r = vp_rank(c), i;

	for (i = 0; i < n; i++) {
		size_t bs = k[i].count * vp_type_size(k[i].type);
		size_t in_len = (size_t)ref_in_blocks(&k[i], r) * bs;
		size_t out_len = (size_t)ref_out_blocks(&k[i], r) * bs;
		unsigned char *in = malloc(in_len + GUARD);
		unsigned char *out = malloc(out_len + GUARD);
		int rc, g, bad = 0;

		memset(in, 0xA5, in_len + GUARD);
		memset(out, 0x5A, out_len + GUARD);
		ref_input(&k[i], r, in);
		rc = ref_call(c, &k[i], in_len ? in : NULL,
			      out_len ? out : NULL, jb->alg);
		if (rc == VP_EALG) {
			if (r == 0) {
				jb->refused = 1;
				snprintf(jb->refusal, sizeof(jb->refusal), "%s",
					 vp_errmsg(c));
			}
			free(in);
			free(out);
			return 0;
		}
		if (rc)
			snprintf(jb->fail[r], sizeof(jb->fail[r]),
				 "case %d (count %zu type %d op %d root %d q "
				 "%ld): returned %d: %s",
				 i, k[i].count, k[i].type, k[i].rop, k[i].root,
				 k[i].q, rc, vp_errmsg(c));
		else if (ref_check(&k[i], r, out, jb->fail[r],
				   sizeof(jb->fail[r])))
			bad = 1;
		for (g = 0; g < GUARD && !rc && !bad; g++)
			if (out[out_len + g] != 0x5A ||
			    in[in_len + g] != 0xA5) {
				snprintf(jb->fail[r], sizeof(jb->fail[r]),
					 "case %d: wrote past a buffer "
					 "(guard byte %d)",
					 i, g);
				bad = 1;
			}
		free(in);
		free(out);
		if (rc || bad)
			return rc ? rc : 1;
		if (r == 0)
			jb->cases++;
	}
	return 0;
}

static int spec_size(const char *spec, int *grid)
{
	const char *c = strchr(spec, ':') + 1;
	int a = atoi(c), b = 1;

	*grid = !strncmp(spec, "mesh", 4) || !strncmp(spec, "torus", 5);
	if (strchr(c, 'x'))
		b = atoi(strchr(c, 'x') + 1);
	if (!strncmp(spec, "hypercube", 9))
		return 1 << a;
	return a * b;
}

/* Independent of the library: can alg take p ranks of this topology? */
static int expect_usable(vp_alg alg, vp_coll op, const char *spec, int p,
			 int grid)
{
	int s = 1;

	while (s * s < p)
		s++;
	if (alg == VP_ALG_HYPERCUBE)
		return (p & (p - 1)) == 0;
	if (alg == VP_ALG_MESH)
		return grid || s * s == p;
	if (alg == VP_ALG_NEIGHBOUR) /* chains and grids; shift on cubes */
		return strncmp(spec, "tree:", 5) &&
		       (strncmp(spec, "hypercube:", 10) || op == VP_COLL_SHIFT);
	return 1;
}

int main(void)
{
	int nrun = 0, fibers;
	size_t si;
	struct job *jb = malloc(sizeof(*jb));

	fibers = getenv("VP_FIBERS") && atoi(getenv("VP_FIBERS")) == 1;
	quick = getenv("VP_TEST_QUICK") != NULL || fibers;

	for (si = 0; si < sizeof(specs) / sizeof(specs[0]); si++) {
		int grid, p = spec_size(specs[si], &grid), op;

		if (quick) {
			size_t qi;
			int found = 0;

			for (qi = 0; qi < sizeof(quick_specs) / sizeof(char *);
			     qi++)
				found |= !strcmp(quick_specs[qi], specs[si]);
			/* as fibers, p = 64 too (32 fibers a carrier) */
			found |= fibers && !getenv("VP_TEST_QUICK") &&
				 !strcmp(specs[si], "full:64");
			if (!found)
				continue;
		}
		for (op = 0; op < VP_COLL_COUNT_; op++) {
			vp_alg algs[VP_ALG_COUNT_];
			int na = vp_coll_algorithms(op, algs + 1,
						    VP_ALG_COUNT_ - 1) + 1, ai;

			algs[0] = VP_ALG_AUTO;
			for (ai = 0; ai < na; ai++) {
				/* odd runs: rendezvous for most messages,
				 * 1000-byte pipeline segments, k = 3 */
				int odd = nrun++ % 2;
				vp_opts o = {.topology = specs[si],
					     .quiet = 1,
					     .eager_max = odd ? 512 : 0,
					     .segment = odd ? 1000 : 96,
					     .kary = odd ? 3 : 0};
				vp_stats st;
				int rc, r, ok = 1, want;

				memset(jb, 0, sizeof(*jb));
				jb->op = op;
				jb->alg = algs[ai];
				rc = vp_run(&o, run_cases, jb, &st);
				want = expect_usable(algs[ai], (vp_coll)op, specs[si],
						     p, grid);
				for (r = 0; r < p && r < MAXP; r++)
					if (jb->fail[r][0]) {
						if (ok)
							tap_diag("%s",
								 jb->fail[r]);
						ok = 0;
					}
				if (rc)
					tap_diag("vp_run: %d %s", rc, st.error);
				if (!want || jb->refused) {
					tap_ok(!rc && jb->refused == !want &&
						       strstr(jb->refusal,
							      "cannot run"),
					       "%s %s on %s: %s with VP_EALG "
					       "(%s)",
					       vp_coll_name(op),
					       vp_alg_name(algs[ai]),
					       specs[si],
					       want ? "wrongly refused"
						    : "refused",
					       jb->refusal);
					continue;
				}
				tap_ok(!rc && ok, "%s %s on %s: %d cases match "
						  "the sequential reference",
				       vp_coll_name(op), vp_alg_name(algs[ai]),
				       specs[si], jb->cases);
			}
		}
	}
	free(jb);
	return tap_done();
}
