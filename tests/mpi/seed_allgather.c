/* seed_allgather.c - the ring and hypercube allgathers of Pacheco's
 * "Parallel Programming with MPI" (1997), ch. 13, as a course handout
 * gives them (seed/allgather_ring.c and seed/allgather_cube.c, unchanged:
 * blocking MPI_Send then MPI_Recv, and MPI_Type_vector for the cube's
 * strided blocks), checked against MPI_Allgather for three block sizes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "seed/allgather_ring.c"
#include "seed/allgather_cube.c"

int log_base2(int p)
{
	int d = 0;

	while ((1 << d) < p)
		d++;
	return d;
}

#define MAXB 100

int main(int argc, char **argv)
{
	static float x[MAXB], y[16 * MAXB], want[16 * MAXB];
	int p, r, i, b, sizes[] = { 1, 3, MAXB }, bad_ring = 0, bad_cube = 0;
	int cube;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	/* the cube needs p a power of two, and p > 1: at p = 1 the handout's
	 * code computes 1 << (d - 1) with d = 0, a shift by -1 (undefined) */
	cube = p > 1 && (p & (p - 1)) == 0;
	for (b = 0; b < 3 && p <= 16; b++) {
		for (i = 0; i < sizes[b]; i++)
			x[i] = (float)r + (float)i / 1000.0f;
		MPI_Allgather(x, sizes[b], MPI_FLOAT, want, sizes[b], MPI_FLOAT,
			      MPI_COMM_WORLD);
		memset(y, 0, sizeof(y));
		Allgather_ring(x, sizes[b], y, MPI_COMM_WORLD);
		bad_ring += memcmp(y, want, sizeof(float) * sizes[b] * p) != 0;
		if (cube) {
			memset(y, 0, sizeof(y));
			Allgather_cube(x, sizes[b], y, MPI_COMM_WORLD);
			bad_cube += memcmp(y, want,
					   sizeof(float) * sizes[b] * p) != 0;
		}
	}
	MPI_Allreduce(MPI_IN_PLACE, &bad_ring, 1, MPI_INT, MPI_SUM,
		      MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &bad_cube, 1, MPI_INT, MPI_SUM,
		      MPI_COMM_WORLD);
	if (r == 0)
		printf("seed allgathers on %d ranks: ring %s, cube %s\n", p,
		       bad_ring ? "WRONG" : "ok",
		       p == 1 ? "not run (p = 1)"
		       : !cube ? "not run (p is not a power of two)"
		       : bad_cube ? "WRONG" : "ok");
	MPI_Finalize();
	return 0;
}
