/* type_sigs.c - collectives whose ranks name the same type signature with
 * different datatypes (MPI 4.0 sec. 6.1: the signatures must match, not
 * the datatypes): even ranks pass 2 MPI_INT, odd ranks 1 item of a
 * contiguous type of 2 MPI_INT, to MPI_Bcast, MPI_Gather, MPI_Scatter,
 * MPI_Allgather and MPI_Alltoall. Every value is checked; rank 0 prints.
 *
 * no-ref: it checks itself (each mpirun costs seconds)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int r, p, i, bad = 0, all, x[2], *in, *out;
	MPI_Datatype pair, t;
	int n;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Type_contiguous(2, MPI_INT, &pair);
	MPI_Type_commit(&pair);
	t = r % 2 ? pair : MPI_INT;
	n = r % 2 ? 1 : 2;
	in = malloc(sizeof(int) * 2 * p);
	out = malloc(sizeof(int) * 2 * p);

	x[0] = r ? -1 : 7, x[1] = r ? -1 : 8;
	MPI_Bcast(x, n, t, 0, MPI_COMM_WORLD);
	bad += x[0] != 7 || x[1] != 8;

	x[0] = 10 * r, x[1] = 10 * r + 1;
	MPI_Gather(x, n, t, out, n, t, 0, MPI_COMM_WORLD);
	for (i = 0; r == 0 && i < 2 * p; i++)
		bad += out[i] != 10 * (i / 2) + i % 2;

	for (i = 0; i < 2 * p; i++)
		in[i] = 100 + i;
	MPI_Scatter(in, n, t, x, n, t, 0, MPI_COMM_WORLD);
	bad += x[0] != 100 + 2 * r || x[1] != 101 + 2 * r;

	x[0] = r, x[1] = -r;
	MPI_Allgather(x, n, t, out, n, t, MPI_COMM_WORLD);
	for (i = 0; i < p; i++)
		bad += out[2 * i] != i || out[2 * i + 1] != -i;

	for (i = 0; i < 2 * p; i++)
		in[i] = 1000 * r + i;
	MPI_Alltoall(in, n, t, out, n, t, MPI_COMM_WORLD);
	for (i = 0; i < p; i++)
		bad += out[2 * i] != 1000 * i + 2 * r ||
		       out[2 * i + 1] != 1000 * i + 2 * r + 1;

	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("type signatures on %d ranks: %s (%d bad)\n", p,
		       all ? "WRONG" : "ok", all);
	MPI_Type_free(&pair);
	free(in);
	free(out);
	MPI_Finalize();
	return 0;
}
