/*
 * comm_idup_early.c - MPI_Comm_idup is nonblocking (MPI 4.0 sec. 7.4.2):
 * a rank that has called it goes on communicating on the parent while
 * the others have not called it yet, and a rank may start many duplicates
 * before the others start theirs.
 *   - rank 0 starts a duplicate of MPI_COMM_WORLD, then receives a
 *     synchronous send from every other rank on MPI_COMM_WORLD, which
 *     each makes before it starts its own duplicate;
 *   - rank 0 starts DUPS duplicates and only then tells the others to
 *     start theirs; each duplicate then carries its own number from rank
 *     0 to every rank, which checks it arrived on the duplicate of the
 *     same number.
 */
#include <mpi.h>
#include <stdio.h>

#define DUPS 300

/* rank 0 idups first; the others' synchronous sends must still complete */
static int early(int rank, int np)
{
	MPI_Comm dup;
	MPI_Request req;
	int bad = 0, i, x, sum = 0, want = np * (np - 1) / 2;

	if (rank == 0) {
		MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
		for (i = 1; i < np; i++) {
			MPI_Recv(&x, 1, MPI_INT, i, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			bad += x != i;
		}
	} else {
		MPI_Ssend(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
	}
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
	bad += sum != want;
	MPI_Comm_free(&dup);
	return bad;
}

/* rank 0 runs DUPS duplicates ahead of the others */
static int ahead(int rank, int np)
{
	static MPI_Comm dup[DUPS];
	static MPI_Request req[DUPS];
	int bad = 0, k, i, go = 1, x;

	if (rank != 0)
		MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	for (k = 0; k < DUPS; k++)
		MPI_Comm_idup(MPI_COMM_WORLD, &dup[k], &req[k]);
	if (rank == 0)
		for (i = 1; i < np; i++)
			MPI_Send(&go, 1, MPI_INT, i, 1, MPI_COMM_WORLD);
	MPI_Waitall(DUPS, req, MPI_STATUSES_IGNORE);
	for (k = 0; k < DUPS; k++) {
		if (rank == 0) {
			for (i = 1; i < np; i++)
				MPI_Send(&k, 1, MPI_INT, i, 2, dup[k]);
		} else {
			MPI_Recv(&x, 1, MPI_INT, 0, 2, dup[k],
				 MPI_STATUS_IGNORE);
			bad += x != k;
		}
	}
	for (k = 0; k < DUPS; k++)
		MPI_Comm_free(&dup[k]);
	return bad;
}

int main(int argc, char **argv)
{
	int rank, np, bad[2], all[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	bad[0] = early(rank, np);
	bad[1] = ahead(rank, np);
	MPI_Reduce(bad, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("idup while the others communicate, on %d ranks: %s "
		       "(%d bad)\nrank 0 %d duplicates ahead: %s (%d bad)\n",
		       np, all[0] ? "FAILED" : "ok", all[0], DUPS,
		       all[1] ? "FAILED" : "ok", all[1]);
	MPI_Finalize();
	return 0;
}
