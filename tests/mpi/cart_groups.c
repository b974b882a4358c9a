/* cart_groups.c - Cartesian topologies and groups as tutorials use them:
 * MPI_Dims_create for a 2-D periodic grid, MPI_Cart_create, coordinates
 * and ranks, MPI_Cart_shift with a sendrecv around each dimension, row
 * sums over MPI_Cart_sub; the even ranks' group with MPI_Group_incl,
 * MPI_Comm_create and MPI_Group_translate_ranks. Rank 0 prints a line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int r, p, dims[2] = { 0, 0 }, periods[2] = { 1, 1 }, co[2], c2[2];
	int src, dst, got, bad = 0, gr, rowsum, i, n, *even, *tr, cr, nd;
	MPI_Comm grid, row, evens;
	MPI_Group world, eg;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Dims_create(p, 2, dims);
	/* reorder when asked (an argument): vp may then place the grid */
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, argc > 1, &grid);
	MPI_Comm_rank(grid, &gr);
	MPI_Cart_coords(grid, gr, 2, co);
	MPI_Cart_rank(grid, co, &cr);
	bad += cr != gr || co[0] * dims[1] + co[1] != gr;
	MPI_Cartdim_get(grid, &nd);
	bad += nd != 2;
	/* pass the rank one step along each dimension */
	for (i = 0; i < 2; i++) {
		MPI_Cart_shift(grid, i, 1, &src, &dst);
		MPI_Sendrecv(&gr, 1, MPI_INT, dst, 0, &got, 1, MPI_INT, src, 0,
			     grid, MPI_STATUS_IGNORE);
		MPI_Cart_coords(grid, got, 2, c2);
		c2[i] = (c2[i] + 1) % dims[i];
		bad += c2[0] != co[0] || c2[1] != co[1];
	}
	/* row sums: keep the second dimension */
	MPI_Cart_sub(grid, (int[]){ 0, 1 }, &row);
	MPI_Allreduce(&gr, &rowsum, 1, MPI_INT, MPI_SUM, row);
	bad += rowsum != co[0] * dims[1] * dims[1] + dims[1] * (dims[1] - 1) / 2;
	MPI_Comm_size(row, &n);
	bad += n != dims[1];
	MPI_Comm_free(&row);
	MPI_Comm_free(&grid);
	/* the even ranks */
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	n = (p + 1) / 2;
	even = malloc(sizeof(int) * n);
	tr = malloc(sizeof(int) * n);
	for (i = 0; i < n; i++)
		even[i] = 2 * i;
	MPI_Group_incl(world, n, even, &eg);
	MPI_Group_size(eg, &i);
	bad += i != n;
	MPI_Group_rank(eg, &i);
	bad += i != (r % 2 ? MPI_UNDEFINED : r / 2);
	for (i = 0; i < n; i++)
		even[i] = i;
	MPI_Group_translate_ranks(eg, n, even, world, tr);
	for (i = 0; i < n; i++)
		bad += tr[i] != 2 * i;
	MPI_Comm_create(MPI_COMM_WORLD, eg, &evens);
	if (r % 2)
		bad += evens != MPI_COMM_NULL;
	else {
		MPI_Allreduce(&r, &got, 1, MPI_INT, MPI_SUM, evens);
		bad += got != n * (n - 1);
		MPI_Comm_free(&evens);
	}
	MPI_Group_free(&eg);
	MPI_Group_free(&world);
	free(even);
	free(tr);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("cartesian %dx%d and groups on %d ranks: %s (%d bad)\n",
		       dims[0], dims[1], p, bad ? "WRONG" : "ok", bad);
	MPI_Finalize();
	return 0;
}
