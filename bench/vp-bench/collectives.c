/*
 * collectives.c - vp-bench --collectives: each collective x algorithm x p
 * x size on one kind of topology, a row each.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "bench.h"
#include "bench_buffer.h"
#include "bench_rows.h"
#include "measure_op.h"
#include "modes.h"
#include "vp.h"

/* The spec of kind with p ranks, or 0 when the kind cannot take p. */
int spec_for(const char *kind, int p, char *out, size_t len)
{
	return vp_topo_spec(kind, p, out, len) == VP_OK;
}

int mode_collectives(const struct bench_args *args)
{
	const struct coll_set *cs = &args->cs;
	int o, a, pi, si, total = 0, done = 0;

	total = cs->nops * cs->nps * cs->nsizes;
	for (o = 0; o < cs->nops; o++) {
		vp_alg algs[VP_ALG_COUNT_ + 1] = { VP_ALG_AUTO };
		int na = 1, c = vp_coll_parse(cs->ops[o]);

		if (cs->all_algs && c >= 0)
			na = vp_coll_algorithms(c, algs, VP_ALG_COUNT_);
		for (a = 0; a < na; a++)
			for (pi = 0; pi < cs->nps; pi++)
				for (si = 0; si < cs->nsizes; si++) {
					int p = cs->ps[pi], rc;
					size_t b = cs->sizes[si];
					char spec[48];
					struct row r;

					if (a == 0)
						done++;
					if (!spec_for(cs->topology, p, spec,
						      sizeof(spec)))
						continue;
					if (bench_is_block_op(cs->ops[o]) &&
					    (double)p * b > 32.0 * 1048576)
						continue; /* > 32 MiB a rank */
					progress("[%d/%d] %s %s p=%d %zu B",
						 done, total, cs->ops[o],
						 vp_alg_name(algs[a]), p, b);
					rc = measure_op(cs->ops[o], algs[a],
							spec, b,
							iterations(b, p), &r);
					if (rc == VP_EALG)
						continue;
					if (rc)
						return 1;
					row_print(&r);
				}
	}
	progress("%s", "");
	note("block collectives (allgather, reduce_scatter, scatter, gather, "
	     "alltoall) are left out where p x bytes > 32 MiB per rank");
	return 0;
}
