/* type_large.c - datatypes of more pieces than are worth listing: a
 * vector of INT_MAX / 2 blocks (16 GiB of data, none allocated) answers
 * its size, extent, true extent and element counts at once (MPI 4.0 sec.
 * 5.1.5-5.1.11: Type_size is MPI_UNDEFINED above INT_MAX, the _x forms
 * the value), resized and inside a struct too; and a vector of 70000
 * pieces, alone, inside a struct that interleaves an int with it, and
 * received short, moves its data in typemap order through send and
 * receive, MPI_Pack, MPI_Pack_external and a one-sided put. Prints what
 * rank 0 found, and a count of wrong values on all ranks.
 * ref-osc: sm,pt2pt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 70000 /* pieces of the strided vector */

static void huge_queries(int r)
{
	MPI_Datatype four, imx, rsz, st, types[2];
	MPI_Count size, lb, extent, tlb, textent, elems;
	MPI_Aint disp[2] = { 0, 0 };
	MPI_Status status;
	int blens[2] = { 1, 1 }, isize, ielems, count;

	MPI_Type_contiguous(4, MPI_INT, &four);
	MPI_Type_vector(INT_MAX / 2, 1, 3, four, &imx);
	MPI_Type_create_resized(imx, INT_MAX, -1024, &rsz);
	MPI_Type_get_extent_x(imx, &lb, &extent);
	disp[1] = extent; /* an int after the vector */
	types[0] = imx;
	types[1] = MPI_INT;
	MPI_Type_create_struct(2, blens, disp, types, &st);
	MPI_Type_commit(&imx);
	MPI_Type_commit(&rsz);
	MPI_Type_commit(&st);
	MPI_Type_size(imx, &isize);
	MPI_Type_size_x(imx, &size);
	MPI_Type_get_true_extent_x(imx, &tlb, &textent);
	if (r == 0)
		printf("vector: size %lld (int: %s), extent %lld, true extent "
		       "%lld\n",
		       (long long)size,
		       isize == MPI_UNDEFINED ? "MPI_UNDEFINED" : "a value",
		       (long long)extent, (long long)textent);
	MPI_Type_get_extent_x(rsz, &lb, &extent);
	MPI_Type_get_true_extent_x(rsz, &tlb, &textent);
	if (r == 0)
		printf("resized: lb %lld, extent %lld, true extent %lld\n",
		       (long long)lb, (long long)extent, (long long)textent);
	MPI_Type_size_x(st, &size);
	MPI_Type_get_extent_x(st, &lb, &extent);
	MPI_Status_set_elements_x(&status, st, 4LL * (INT_MAX / 2) + 1);
	MPI_Get_elements_x(&status, st, &elems);
	MPI_Get_elements(&status, st, &ielems);
	MPI_Get_count(&status, st, &count);
	if (r == 0)
		printf("struct: size %lld, extent %lld, %lld elements (int: "
		       "%s), count %d\n",
		       (long long)size, (long long)extent, (long long)elems,
		       ielems == MPI_UNDEFINED ? "MPI_UNDEFINED" : "a value",
		       count);
	MPI_Type_free(&st);
	MPI_Type_free(&rsz);
	MPI_Type_free(&imx);
	MPI_Type_free(&four);
}

/* Wrong values in a: v's places (the even ones) hold from + i, the odd
 * ones hold odd, the first n places only when n >= 0. */
static int wrong(const int *a, int from, int odd, int n)
{
	int i, bad = 0;

	for (i = 0; i < 2 * N; i++)
		if (i % 2)
			bad += a[i] != odd;
		else if (n < 0 || i / 2 < n)
			bad += a[i] != from + i / 2;
		else
			bad += a[i] != -1;
	return bad;
}

static void fill(int *a, int from)
{
	int i;

	for (i = 0; i < 2 * N; i++)
		a[i] = i % 2 ? -1 : from + i / 2;
}

/* v alone and interleaved with an int (struct {v at 0, int at 4}): a
 * ring of sendrecvs, then a message of 100 ints into one v. */
static int moves(int r, int p, MPI_Datatype v, MPI_Datatype mix, int *a,
		 int *b)
{
	MPI_Status status;
	int bad = 0, i, got, count, next = (r + 1) % p, prev = (r + p - 1) % p;

	fill(a, 1000 * r);
	for (i = 0; i < 2 * N; i++)
		b[i] = -1;
	MPI_Sendrecv(a, 1, v, next, 0, b, 1, v, prev, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	bad += wrong(b, 1000 * prev, -1, -1);
	a[1] = 7 + r; /* the struct's int */
	MPI_Sendrecv(a, 1, mix, next, 1, b, 1, mix, prev, 1, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	bad += b[1] != 7 + prev;
	b[1] = -1;
	bad += wrong(b, 1000 * prev, -1, -1);
	for (i = 0; i < 2 * N; i++)
		b[i] = -1;
	MPI_Sendrecv(a, 100, MPI_INT, next, 2, b, 1, v, prev, 2,
		     MPI_COMM_WORLD, &status);
	MPI_Get_elements(&status, v, &got);
	MPI_Get_count(&status, v, &count);
	/* a's first 100 ints, alternating values and -1 (a[1]: 7 + prev) */
	for (i = 0; i < 100; i++)
		bad += b[2 * i] != (i % 2 ? (i == 1 ? 7 + prev : -1)
					  : 1000 * prev + i / 2);
	bad += got != 100 || count != MPI_UNDEFINED;
	return bad;
}

/* MPI_Pack and MPI_Pack_external of the struct, unpacked elsewhere. */
static int packs(MPI_Datatype mix, int *a, int *b)
{
	int size, pos = 0, bad = 0, i;
	MPI_Aint xsize, xpos = 0;
	char *buf;

	fill(a, 5);
	a[1] = 3;
	MPI_Pack_size(1, mix, MPI_COMM_WORLD, &size);
	MPI_Pack_external_size("external32", 1, mix, &xsize);
	buf = malloc((size_t)(xsize > size ? xsize : size));
	MPI_Pack(a, 1, mix, buf, size, &pos, MPI_COMM_WORLD);
	bad += pos != size || size != (N + 1) * 4;
	/* packed: the vector's values, then the int */
	bad += ((int *)buf)[N - 1] != 5 + N - 1 || ((int *)buf)[N] != 3;
	for (i = 0; i < 2 * N; i++)
		b[i] = -1;
	pos = 0;
	MPI_Unpack(buf, size, &pos, b, 1, mix, MPI_COMM_WORLD);
	bad += b[1] != 3;
	b[1] = -1;
	bad += wrong(b, 5, -1, -1);
	MPI_Pack_external("external32", a, 1, mix, buf, xsize, &xpos);
	bad += xpos != xsize || xsize != (N + 1) * 4;
	for (i = 0; i < 2 * N; i++)
		b[i] = -1;
	xpos = 0;
	MPI_Unpack_external("external32", buf, xsize, &xpos, b, 1, mix);
	bad += b[1] != 3;
	b[1] = -1;
	bad += wrong(b, 5, -1, -1);
	free(buf);
	return bad;
}

/* A put of N ints into the next rank's window through v. */
static int put(int r, int p, MPI_Datatype v, int *a, int *b)
{
	MPI_Win win;
	int i;

	for (i = 0; i < 2 * N; i++)
		b[i] = -1;
	for (i = 0; i < N; i++)
		a[i] = 1000 * r + i;
	MPI_Win_create(b, 2 * N * (MPI_Aint)sizeof(int), sizeof(int),
		       MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_fence(0, win);
	MPI_Put(a, N, MPI_INT, (r + 1) % p, 0, 1, v, win);
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);
	return wrong(b, 1000 * ((r + p - 1) % p), -1, -1);
}

int main(int argc, char **argv)
{
	MPI_Datatype v, mix, types[2];
	MPI_Aint disp[2] = { 0, sizeof(int) };
	int blens[2] = { 1, 1 }, r, p, bad;
	int *a = malloc(2 * N * sizeof(int)), *b = malloc(2 * N * sizeof(int));

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	huge_queries(r);
	MPI_Type_vector(N, 1, 2, MPI_INT, &v);
	types[0] = v;
	types[1] = MPI_INT;
	MPI_Type_create_struct(2, blens, disp, types, &mix);
	MPI_Type_commit(&v);
	MPI_Type_commit(&mix);
	bad = moves(r, p, v, mix, a, b);
	bad += packs(mix, a, b);
	bad += put(r, p, v, a, b);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("a vector of %d pieces on %d ranks: %d wrong values\n",
		       N, p, bad);
	MPI_Type_free(&mix);
	MPI_Type_free(&v);
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
