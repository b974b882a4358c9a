/* intercomm.c - communication on an intercommunicator (MPI 4.0 sec.
 * 7.6.1 and 6.2.2): the world split into its lower half (group A) and
 * upper half (group B). Point to point names remote ranks (statuses too,
 * with MPI_ANY_SOURCE and on a nonblocking receive); a duplicate and a
 * split of the intercommunicator communicate; the rooted collectives take
 * MPI_ROOT at the root and MPI_PROC_NULL at the rest of its group; the
 * all-to-all ones move each group's data to the other; Allreduce gives
 * each group the other group's sum. Needs 2 ranks (on 1 it prints the
 * line and checks nothing). Prints one line (rank 0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int p2p(MPI_Comm ic, int lr, int rsize)
{
	int bad = 0, x = 100 + lr, y = -1, dest = lr % rsize;
	int i, rrank, lsize;
	MPI_Request q;
	MPI_Status st;

	MPI_Comm_size(ic, &lsize);
	/* local rank lr sends to remote rank lr % rsize */
	MPI_Isend(&x, 1, MPI_INT, dest, 4, ic, &q);
	for (i = 0; i < rsize; i++) /* remote rank i sends to i % lsize */
		if (i % lsize == lr) {
			MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 4, ic, &st);
			rrank = st.MPI_SOURCE;
			bad += y != 100 + rrank || rrank % lsize != lr;
		}
	MPI_Wait(&q, MPI_STATUS_IGNORE);
	/* a nonblocking receive's status names the remote rank */
	if (lr < rsize)
		MPI_Irecv(&y, 1, MPI_INT, lr, 5, ic, &q);
	if (lr < rsize)
		MPI_Send(&x, 1, MPI_INT, lr, 5, ic);
	if (lr < rsize) {
		MPI_Wait(&q, &st);
		bad += st.MPI_SOURCE != lr || y != 100 + lr;
	}
	return bad;
}

static int colls(MPI_Comm ic, int a, int lr, int lsize, int rsize)
{
	int bad = 0, v = a ? 7 : -1, i, sum = -1, *all, *mine;
	int root = a ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;

	/* A's rank 0 broadcasts to B */
	MPI_Bcast(&v, 1, MPI_INT, root, ic);
	bad += v != 7;
	/* B's ranks reduce into A's rank 0: sum of (10 + rank) over B */
	v = 10 + lr;
	MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, root, ic);
	if (a && lr == 0)
		bad += sum != 10 * rsize + rsize * (rsize - 1) / 2;
	/* each group gets the sum of the other's */
	MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic);
	bad += sum != 10 * rsize + rsize * (rsize - 1) / 2;
	all = malloc(sizeof(int) * (size_t)(rsize + lsize));
	mine = malloc(sizeof(int) * (size_t)(rsize + lsize));
	v = 1000 * a + lr;
	MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, ic);
	for (i = 0; i < rsize; i++)
		bad += all[i] != 1000 * !a + i;
	for (i = 0; i < rsize; i++)
		mine[i] = 100 * lr + i; /* to remote rank i */
	MPI_Alltoall(mine, 1, MPI_INT, all, 1, MPI_INT, ic);
	for (i = 0; i < rsize; i++)
		bad += all[i] != 100 * i + lr;
	/* B's ranks gather into A's rank 0 */
	MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, root, ic);
	for (i = 0; a && lr == 0 && i < rsize; i++)
		bad += all[i] != i;
	MPI_Barrier(ic);
	free(all);
	free(mine);
	return bad;
}

int main(int argc, char **argv)
{
	int r, p, bad = 0, a, lr, lsize, rsize, flag;
	MPI_Comm local, ic, dup, split;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	if (p >= 2) {
		a = r < p / 2;
		MPI_Comm_split(MPI_COMM_WORLD, a, r, &local);
		MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, a ? p / 2 : 0,
				     9, &ic);
		MPI_Comm_test_inter(ic, &flag);
		MPI_Comm_rank(ic, &lr);
		MPI_Comm_size(ic, &lsize);
		MPI_Comm_remote_size(ic, &rsize);
		bad += !flag || lsize + rsize != p;
		bad += p2p(ic, lr, rsize);
		MPI_Comm_dup(ic, &dup);
		bad += colls(dup, a, lr, lsize, rsize);
		/* a split keeping every rank: the same groups */
		MPI_Comm_split(ic, 0, lr, &split);
		bad += p2p(split, lr, rsize);
		MPI_Comm_free(&split);
		MPI_Comm_free(&dup);
		MPI_Comm_free(&ic);
		MPI_Comm_free(&local);
	}
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("intercommunicators on %d ranks: ok (%d bad)\n", p, bad);
	MPI_Finalize();
	return 0;
}
