/*
 * transpose.c - matrix transpose as all-to-all personalized communication.
 *
 * Source: Grama et al., Introduction to Parallel Computing, 2nd ed.,
 *         sec. 4.5 (the transpose of a matrix with one row block per
 *         process is an all-to-all personalized exchange) and its
 *         algorithms on a mesh (sec. 4.5.2) and a hypercube (sec. 4.5.3).
 * Cost:   T = alltoall(p, m = 8 (n/p)^2 bytes per block), exactly the
 *         all-to-all's formula: on a hypercube (E-cube pairwise)
 *         (ts + tw m)(p-1); with the book's store-and-forward hypercube
 *         algorithm (ts + tw m p/2) log p; on a sqrt p x sqrt p mesh
 *         (2 ts + tw m p)(sqrt p - 1). No arithmetic: nothing is charged
 *         for the local transposes.
 * Steps:  1. rank r holds rows r n/p .. (r+1) n/p - 1 of A, cut into p
 *            blocks of (n/p)^2; block j goes to rank j;
 *         2. vp_alltoall; rank r now holds block (j, r) of A from every j;
 *         3. each block is transposed in place: rank r holds rows r of A^T.
 *         At p = 4: before, rank 0 has A00 A01 A02 A03; after, A00 A10 A20
 *         A30, each transposed.
 * Needs:  p divides n; any topology.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include "apps.h"

static void reference(const struct app_ctx *x, double *t)
{
	int n = x->prm.n;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			t[(size_t)i * n + j] = app_matrix_entry(1, j, i);
}

static int rank_main(vp_comm *c, void *arg)
{
	struct app_ctx *x = arg;
	int n = x->prm.n, p = x->p, b = n / p, me = vp_rank(c), rc;
	size_t blk = (size_t)b * b;
	double *send = malloc(sizeof(double) * 2 * blk * p),
	       *recv = send + blk * p;

	if (!send)
		return app_fail(c, x, "no memory for %d rows", b);
	/* 1. block j of my rows, contiguous, in send[j] */
	for (int j = 0; j < p; j++)
		for (int r = 0; r < b; r++)
			for (int s = 0; s < b; s++)
				send[blk * j + (size_t)r * b + s] =
				    app_matrix_entry(1, me * b + r, j * b + s);
	/* 2. block j to rank j */
	vp_trace_label(c, "alltoall blocks");
	rc = vp_alltoall(c, send, recv, b * b, VP_DOUBLE, x->prm.alg);
	app_note_alg(c, x, 0);
	/* 3. recv[j] is A's block (j, me): its transpose is A^T's (me, j) */
	for (int j = 0; !rc && j < p; j++)
		for (int r = 0; r < b; r++)
			for (int s = 0; s < b; s++)
				x->out[(size_t)(me * b + r) * n + j * b + s] =
				    recv[blk * j + (size_t)s * b + r];
	free(send);
	return rc;
}

static double formula(const struct app_ctx *x, double ts, double tw, int *exact)
{
	size_t b = (size_t)(x->prm.n / x->p);

	return app_coll_cost(VP_COLL_ALLTOALL, x->used[0], x->topo.spec, x->p,
			     8 * b * b, ts, tw, exact);
}

/* The book's algorithm for the topology (sec. 4.5.2-4.5.3), else none. */
static double book(const struct app_ctx *x, double ts, double tw)
{
	vp_alg alg = x->topo.kind == VP_TOPO_HYPERCUBE ? VP_ALG_HYPERCUBE
		     : x->topo.kind == VP_TOPO_MESH    ? VP_ALG_MESH
		     : x->topo.kind == VP_TOPO_RING    ? VP_ALG_RING
						       : VP_ALG_PAIRWISE;
	int exact = 1;
	size_t b = (size_t)(x->prm.n / x->p);

	return app_coll_cost(VP_COLL_ALLTOALL, alg, x->topo.spec, x->p,
			     8 * b * b, ts, tw, &exact);
}

const struct app app_transpose = {
	.name = "transpose",
	.title = "matrix transpose by all-to-all personalized",
	.source = "Grama et al. sec. 4.5",
	.book_text = "alltoall(p, 8(n/p)^2) of the topology's book algorithm",
	.topologies = "any; the book's are the mesh and the hypercube",
	.check_text = "A^T, every entry, against the sequential transpose",
	.tour = { "mesh:4x4", "hypercube:3" },
	.tour_n = 48,
	.shape = app_row_blocks,
	.out_len = app_n_squared,
	.reference = reference,
	.rank = rank_main,
	.formula = formula,
	.book = book,
};
