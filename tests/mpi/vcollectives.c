/* vcollectives.c - the v-collectives and the reductions that are not
 * vp's own: Gatherv, Scatterv, Allgatherv and Alltoallv with blocks of
 * r + 1 items (in place too), Reduce_scatter and Reduce_scatter_block,
 * Exscan, a non-commutative user op (2x2 matrix product, whose result
 * depends on the ranks' order) in Reduce, Allreduce and Scan, logical
 * ops, MIN on unsigned, SUM on short, and Waitsome. Every rank checks
 * against what the formula says; rank 0 prints one line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* 2x2 integer matrices, row-major: inout = in x inout */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout, i, c[4];

	(void)t;
	for (i = 0; i < *len; i++, a += 4, b += 4) {
		c[0] = a[0] * b[0] + a[1] * b[2];
		c[1] = a[0] * b[1] + a[1] * b[3];
		c[2] = a[2] * b[0] + a[3] * b[2];
		c[3] = a[2] * b[1] + a[3] * b[3];
		b[0] = c[0]; b[1] = c[1]; b[2] = c[2]; b[3] = c[3];
	}
}

/* the same product done sequentially over ranks lo..hi */
static void expect(int lo, int hi, int *m)
{
	int k, x[4];

	m[0] = 1; m[1] = 0; m[2] = 0; m[3] = 1;
	for (k = lo; k <= hi; k++) {
		int one = 1;
		x[0] = 1; x[1] = k; x[2] = 0; x[3] = 1;
		if (k % 2) { x[1] = 0; x[2] = k; }
		matmul(m, x, &one, NULL);
		m[0] = x[0]; m[1] = x[1]; m[2] = x[2]; m[3] = x[3];
	}
}

int main(int argc, char **argv)
{
	int r, p, i, j, bad = 0, *counts, *displs, *sc, *sd, *rc, *rd;
	int *send, *recv, total, mat[4], got[4], want[4];
	MPI_Datatype m2;
	MPI_Op mul;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	counts = malloc(sizeof(int) * p);
	displs = malloc(sizeof(int) * p);
	sc = malloc(sizeof(int) * p); sd = malloc(sizeof(int) * p);
	rc = malloc(sizeof(int) * p); rd = malloc(sizeof(int) * p);
	for (i = 0, total = 0; i < p; i++) {
		counts[i] = i + 1;
		displs[i] = total + i; /* a gap of i ints before block i */
		total += i + 1 + i;
	}
	send = malloc(sizeof(int) * (total + p * p + 8));
	recv = malloc(sizeof(int) * (total + p * p + 8));

	/* gatherv to the last rank, then scatterv back */
	for (i = 0; i <= r; i++)
		send[i] = 100 * r + i;
	for (i = 0; i < total; i++)
		recv[i] = -1;
	MPI_Gatherv(send, r + 1, MPI_INT, recv, counts, displs, MPI_INT, p - 1,
		    MPI_COMM_WORLD);
	if (r == p - 1)
		for (i = 0; i < p; i++)
			for (j = 0; j < i + 1; j++)
				bad += recv[displs[i] + j] != 100 * i + j;
	for (i = 0; i <= r; i++)
		send[i] = -1;
	MPI_Scatterv(recv, counts, displs, MPI_INT, send, r + 1, MPI_INT, p - 1,
		     MPI_COMM_WORLD);
	for (i = 0; i <= r; i++)
		bad += send[i] != 100 * r + i;
	/* allgatherv, in place */
	for (i = 0; i < total; i++)
		recv[i] = -1;
	for (j = 0; j <= r; j++)
		recv[displs[r] + j] = 100 * r + j;
	MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, counts, displs,
		       MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < p; i++)
		for (j = 0; j < i + 1; j++)
			bad += recv[displs[i] + j] != 100 * i + j;
	/* alltoallv: rank r sends j + 1 ints to rank j */
	for (j = 0, i = 0; j < p; j++) {
		sc[j] = j + 1; sd[j] = i; i += j + 1;
		rc[j] = r + 1; rd[j] = j * (r + 1);
	}
	for (j = 0; j < p; j++)
		for (i = 0; i < sc[j]; i++)
			send[sd[j] + i] = 1000 * r + 10 * j + i;
	MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT,
		      MPI_COMM_WORLD);
	for (j = 0; j < p; j++)
		for (i = 0; i <= r; i++)
			bad += recv[rd[j] + i] != 1000 * j + 10 * r + i;
	/* reduce_scatter: block i has i + 1 ints, each the sum of ranks */
	for (i = 0; i < p * (p + 1) / 2; i++)
		send[i] = r + i;
	MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	for (i = 0, j = r * (r + 1) / 2; i <= r; i++)
		bad += recv[i] != p * (p - 1) / 2 + p * (j + i);
	for (i = 0; i < 2 * p; i++)
		send[i] = r * i;
	MPI_Reduce_scatter_block(send, recv, 2, MPI_INT, MPI_MAX,
				 MPI_COMM_WORLD);
	bad += recv[0] != (p - 1) * 2 * r || recv[1] != (p - 1) * (2 * r + 1);
	/* exscan: the sum of the ranks before */
	i = r + 1;
	j = -7;
	MPI_Exscan(&i, &j, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r > 0)
		bad += j != r * (r + 1) / 2;
	/* a non-commutative op: the product in rank order */
	MPI_Type_contiguous(4, MPI_INT, &m2);
	MPI_Type_commit(&m2);
	MPI_Op_create(matmul, 0, &mul);
	mat[0] = 1; mat[1] = r; mat[2] = 0; mat[3] = 1;
	if (r % 2) { mat[1] = 0; mat[2] = r; }
	MPI_Reduce(mat, got, 1, m2, mul, p / 2, MPI_COMM_WORLD);
	expect(0, p - 1, want);
	if (r == p / 2)
		for (i = 0; i < 4; i++)
			bad += got[i] != want[i];
	MPI_Allreduce(mat, got, 1, m2, mul, MPI_COMM_WORLD);
	for (i = 0; i < 4; i++)
		bad += got[i] != want[i];
	MPI_Scan(mat, got, 1, m2, mul, MPI_COMM_WORLD);
	expect(0, r, want);
	for (i = 0; i < 4; i++)
		bad += got[i] != want[i];
	MPI_Op_free(&mul);
	MPI_Type_free(&m2);
	/* logical ops, unsigned MIN, short SUM */
	{
		int land, lor, lxor, t = r != 1;
		unsigned u = 4000000000u - (unsigned)r, umin;
		short s = (short)r, ssum;

		MPI_Allreduce(&t, &land, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
		MPI_Allreduce(&t, &lor, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
		MPI_Allreduce(&t, &lxor, 1, MPI_INT, MPI_LXOR, MPI_COMM_WORLD);
		MPI_Allreduce(&u, &umin, 1, MPI_UNSIGNED, MPI_MIN,
			      MPI_COMM_WORLD);
		MPI_Allreduce(&s, &ssum, 1, MPI_SHORT, MPI_SUM, MPI_COMM_WORLD);
		bad += land != (p < 2) || lor != (p != 1 || r != 1) ||
		       lxor != ((p - (p > 1)) % 2);
		bad += umin != 4000000000u - (unsigned)(p - 1);
		bad += ssum != p * (p - 1) / 2;
	}
	/* waitsome: receives from every rank, reported as they complete */
	{
		MPI_Request *rq = malloc(sizeof(*rq) * 2 * p);
		int *idx = malloc(sizeof(int) * p), n, left = p, v = r;

		for (i = 0; i < p; i++)
			MPI_Irecv(&recv[i], 1, MPI_INT, i, 9, MPI_COMM_WORLD,
				  &rq[i]);
		for (i = 0; i < p; i++)
			MPI_Isend(&v, 1, MPI_INT, i, 9, MPI_COMM_WORLD,
				  &rq[p + i]);
		while (left > 0) {
			MPI_Waitsome(p, rq, &n, idx, MPI_STATUSES_IGNORE);
			left -= n;
			for (i = 0; i < n; i++)
				bad += recv[idx[i]] != idx[i];
		}
		MPI_Waitsome(p, rq, &n, idx, MPI_STATUSES_IGNORE);
		bad += n != MPI_UNDEFINED;
		MPI_Waitall(p, rq + p, MPI_STATUSES_IGNORE);
		free(rq);
		free(idx);
	}
	/* a synchronous send that is received */
	if (p > 1 && r == 0)
		MPI_Ssend(&p, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
	if (p > 1 && r == 1) {
		MPI_Recv(&i, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		bad += i != p;
	}
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("v-collectives and ops on %d ranks: %s (%d bad)\n", p,
		       bad ? "WRONG" : "ok", bad);
	free(counts); free(displs); free(sc); free(sd); free(rc); free(rd);
	free(send); free(recv);
	MPI_Finalize();
	return 0;
}
