/* datatypes.c - derived datatypes as MPI test suites use them: a matrix
 * column (MPI_Type_vector), a lower triangle (MPI_Type_indexed), blocks
 * of equal length (MPI_Type_create_indexed_block), a C struct
 * (MPI_Type_create_struct, with its extent), a resized type, a contiguous
 * one, MPI_Pack/MPI_Unpack, MPI_Get_count and MPI_Get_elements, an irecv
 * of a derived type freed before its wait, and MPI_MAXLOC on
 * MPI_DOUBLE_INT. Each rank checks what it got; rank 0 prints a line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define N 6

struct particle {
	double x[3];
	int id;
	char tag;
};

int main(int argc, char **argv)
{
	double a[N][N], col[N], tri[N][N];
	int r, p, i, j, bad = 0, count, elems, pos, one[3];
	MPI_Datatype column, lower, blocks, ptype, wide, four;
	MPI_Status st;
	MPI_Request req;
	MPI_Aint lb, extent;
	struct particle pt[2];
	char packed[256];
	struct { double v; int i; } mine, best;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			a[i][j] = 10 * i + j;

	/* a column: N doubles N apart */
	MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
	MPI_Type_commit(&column);
	MPI_Type_get_extent(column, &lb, &extent);
	bad += extent != (MPI_Aint)((N - 1) * N + 1) * 8;
	/* the lower triangle: row i has i + 1 elements */
	{
		int len[N], dsp[N];

		for (i = 0; i < N; i++) {
			len[i] = i + 1;
			dsp[i] = i * N;
		}
		MPI_Type_indexed(N, len, dsp, MPI_DOUBLE, &lower);
		MPI_Type_commit(&lower);
	}
	MPI_Type_create_indexed_block(3, 2, (int[]){ 0, 7, 20 }, MPI_DOUBLE,
				      &blocks);
	MPI_Type_commit(&blocks);
	/* a struct: 3 doubles, an int and a char, extent as the compiler's */
	{
		int bl[3] = { 3, 1, 1 };
		MPI_Aint d[3] = { offsetof(struct particle, x),
				  offsetof(struct particle, id),
				  offsetof(struct particle, tag) };
		MPI_Datatype t[3] = { MPI_DOUBLE, MPI_INT, MPI_CHAR };

		MPI_Type_create_struct(3, bl, d, t, &ptype);
		MPI_Type_commit(&ptype);
		MPI_Type_get_extent(ptype, &lb, &extent);
		bad += extent != sizeof(struct particle);
	}
	MPI_Type_create_resized(MPI_INT, 0, 16, &wide);
	MPI_Type_commit(&wide);
	MPI_Type_contiguous(4, MPI_INT, &four);
	MPI_Type_commit(&four);

	if (p >= 2 && r == 0) {
		MPI_Send(&a[0][2], 1, column, 1, 1, MPI_COMM_WORLD);
		MPI_Send(a, 1, lower, 1, 2, MPI_COMM_WORLD);
		MPI_Send(a, 1, blocks, 1, 3, MPI_COMM_WORLD);
		for (i = 0; i < 2; i++) {
			pt[i].x[0] = i; pt[i].x[1] = i + .5; pt[i].x[2] = -i;
			pt[i].id = 100 + i;
			pt[i].tag = (char)('a' + i);
		}
		MPI_Send(pt, 2, ptype, 1, 4, MPI_COMM_WORLD);
		MPI_Send(one, 0, four, 1, 5, MPI_COMM_WORLD);
		pos = 0;
		MPI_Pack(&a[0][1], 1, column, packed, sizeof(packed), &pos,
			 MPI_COMM_WORLD);
		i = 42;
		MPI_Pack(&i, 1, MPI_INT, packed, sizeof(packed), &pos,
			 MPI_COMM_WORLD);
		MPI_Send(packed, pos, MPI_PACKED, 1, 6, MPI_COMM_WORLD);
	} else if (p >= 2 && r == 1) {
		/* a column arrives as N contiguous doubles */
		MPI_Recv(col, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_DOUBLE, &count);
		bad += count != N;
		for (i = 0; i < N; i++)
			bad += col[i] != 10 * i + 2;
		memset(tri, 0, sizeof(tri));
		/* an irecv whose type is freed before the wait */
		MPI_Irecv(tri, 1, lower, 0, 2, MPI_COMM_WORLD, &req);
		MPI_Type_free(&lower);
		MPI_Wait(&req, &st);
		MPI_Get_count(&st, MPI_DOUBLE, &count);
		bad += count != N * (N + 1) / 2;
		for (i = 0; i < N; i++)
			for (j = 0; j < N; j++)
				bad += tri[i][j] != (j <= i ? a[i][j] : 0);
		MPI_Recv(col, N, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &st);
		bad += col[0] != 0 || col[1] != 1 || col[2] != 11 ||
		       col[3] != 12 || col[4] != 32 || col[5] != 33;
		memset(pt, 0, sizeof(pt));
		MPI_Recv(pt, 2, ptype, 0, 4, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, ptype, &count);
		MPI_Get_elements(&st, ptype, &elems);
		bad += count != 2 || elems != 10; /* 2 x (3 + 1 + 1) */
		bad += pt[1].x[1] != 1.5 || pt[1].id != 101 || pt[1].tag != 'b';
		MPI_Recv(one, 3, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, four, &count);
		bad += count != 0;
		MPI_Recv(packed, sizeof(packed), MPI_PACKED, 0, 6,
			 MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_PACKED, &count);
		pos = 0;
		MPI_Unpack(packed, count, &pos, col, N, MPI_DOUBLE,
			   MPI_COMM_WORLD);
		MPI_Unpack(packed, count, &pos, &i, 1, MPI_INT, MPI_COMM_WORLD);
		bad += col[5] != 51 || i != 42 || pos != N * 8 + 4;
	}
	if (r != 1)
		MPI_Type_free(&lower);
	/* every 4th int of a strided array, broadcast with a resized type */
	{
		int s[16] = { 0 };

		if (r == 0)
			for (i = 0; i < 4; i++)
				s[4 * i] = 7 + i;
		MPI_Bcast(s, 4, wide, 0, MPI_COMM_WORLD);
		for (i = 0; i < 16; i++)
			bad += s[i] != (i % 4 ? 0 : 7 + i / 4);
	}
	/* MAXLOC: the largest value and the rank that has it */
	mine.v = (r * 7) % 5;
	mine.i = r;
	MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC,
		      MPI_COMM_WORLD);
	MPI_Type_free(&column);
	MPI_Type_free(&blocks);
	MPI_Type_free(&ptype);
	MPI_Type_free(&wide);
	MPI_Type_free(&four);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("datatypes on %d ranks: maxloc %g at %d; %s (%d bad)\n",
		       p, best.v, best.i, bad ? "WRONG" : "ok", bad);
	MPI_Finalize();
	return 0;
}
