/* type_arrays.c - array datatypes and named types (MPI 4.0 sec. 5.1.3,
 * 5.1.4, 5.1.2, 19.1.9, 3.2.2): a 2x3 block of a 4x6 array by
 * MPI_Type_create_subarray in C and Fortran order; the block- and
 * cyclic-distributed parts of an 8x6 array by MPI_Type_create_darray,
 * which together cover it once; MPI_Type_create_hindexed_block; the
 * MPI_Count queries; MPI_Type_match_size; MPI_SUM on MPI_C_DOUBLE_COMPLEX
 * and on Fortran's MPI_INTEGER named from C. Prints one line (rank 0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <complex.h>
#include <mpi.h>
#include <stdio.h>

static int subarrays(void)
{
	int sizes[2] = { 4, 6 }, sub[2] = { 2, 3 }, start[2] = { 1, 2 };
	int a[24], got[6], pos = 0, i, bad = 0;
	MPI_Datatype t;
	MPI_Aint lb, ext;

	for (i = 0; i < 24; i++)
		a[i] = i;
	MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT,
				 &t);
	MPI_Type_commit(&t);
	MPI_Pack(a, 1, t, got, sizeof(got), &pos, MPI_COMM_SELF);
	/* rows 1-2, columns 2-4 of a 4x6 row-major array */
	for (i = 0; i < 6; i++)
		bad += got[i] != (1 + i / 3) * 6 + 2 + i % 3;
	MPI_Type_get_extent(t, &lb, &ext);
	bad += lb != 0 || ext != 24 * (MPI_Aint)sizeof(int);
	MPI_Type_free(&t);
	/* Fortran order: the first index varies fastest (a 4x6 column-major
	 * array: element (i, j) at i + 4j) */
	MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_FORTRAN,
				 MPI_INT, &t);
	MPI_Type_commit(&t);
	pos = 0;
	MPI_Pack(a, 1, t, got, sizeof(got), &pos, MPI_COMM_SELF);
	for (i = 0; i < 6; i++)
		bad += got[i] != (1 + i % 2) + 4 * (2 + i / 2);
	MPI_Type_free(&t);
	return bad;
}

/* every rank's part of an 8x6 array: each element once over all ranks */
static int darrays(int r, int p)
{
	int g[2] = { 8, 6 }, dist[2] = { MPI_DISTRIBUTE_BLOCK,
					 MPI_DISTRIBUTE_CYCLIC };
	int darg[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 }, ps[2] = { 0, 0 };
	int a[48], seen[48] = { 0 }, i, q, size, bad = 0;
	MPI_Datatype t;

	MPI_Dims_create(p, 2, ps);
	for (q = 0; q < p; q++) {
		MPI_Type_create_darray(p, q, 2, g, dist, darg, ps, MPI_ORDER_C,
				       MPI_INT, &t);
		MPI_Type_commit(&t);
		MPI_Type_size(t, &size);
		for (i = 0; i < 48; i++)
			a[i] = 0;
		/* mark this rank's elements: unpack ones into them */
		{
			int ones[48], pos = 0;

			for (i = 0; i < 48; i++)
				ones[i] = 1;
			MPI_Unpack(ones, sizeof(ones), &pos, a, 1, t,
				   MPI_COMM_SELF);
		}
		for (i = 0; i < 48; i++)
			seen[i] += a[i];
		MPI_Type_free(&t);
	}
	for (i = 0; i < 48; i++)
		bad += seen[i] != 1;
	(void)r;
	return bad;
}

static int others(int r, int p)
{
	MPI_Aint disp[3] = { 0, 16, 40 };
	MPI_Datatype t, m;
	MPI_Count size, lb, ext;
	double complex z = r + 1.0 * I, zs;
	int bad = 0, n = r, ns, msize;

	MPI_Type_create_hindexed_block(3, 2, disp, MPI_INT, &t);
	MPI_Type_size_x(t, &size);
	MPI_Type_get_extent_x(t, &lb, &ext);
	bad += size != 6 * (MPI_Count)sizeof(int) || lb != 0 ||
	       ext != 40 + 2 * (MPI_Count)sizeof(int);
	MPI_Type_free(&t);
	MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &m);
	MPI_Type_size(m, &msize);
	bad += msize != (int)sizeof(double);
	MPI_Allreduce(&z, &zs, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM,
		      MPI_COMM_WORLD);
	bad += creal(zs) != p * (p - 1) / 2 || cimag(zs) != p;
	MPI_Allreduce(&n, &ns, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
	bad += ns != p * (p - 1) / 2;
	return bad;
}

int main(int argc, char **argv)
{
	int r, p, bad;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	bad = subarrays() + darrays(r, p) + others(r, p);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("array datatypes on %d ranks: ok (%d bad)\n", p, bad);
	MPI_Finalize();
	return 0;
}
