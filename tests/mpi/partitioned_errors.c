/* partitioned_errors.c - wrong partitioned calls (MPI 4.0, chapter 4)
 * refused under MPI_ERRORS_RETURN: MPI_Pready on a request not started,
 * MPI_Pready and MPI_Parrived of a partition out of range, a partition
 * marked twice, a range upside down, MPI_Parrived on a send request, no
 * partitions at all. Rank 0 sends to the last rank; prints one line a
 * check (the last rank, then rank 0).
 * no-ref: Open MPI 4.1 has no partitioned calls; MPICH 4.0 prints the
 * same but accepts a partition marked twice (erroneous, MPI 4.0 sec.
 * 4.2.2), which vp refuses
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

static void said(const char *what, int rc)
{
	printf("%s: %s\n", what, rc == MPI_SUCCESS ? "accepted" : "refused");
}

int main(int argc, char **argv)
{
	int r, p, buf[8] = { 0 }, flag;
	MPI_Request q, s, z;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (r == p - 1) {
		MPI_Precv_init(buf, 2, 4, MPI_INT, 0, 0, MPI_COMM_WORLD,
			       MPI_INFO_NULL, &q);
		said("Parrived before Start", MPI_Parrived(q, 0, &flag));
		MPI_Start(&q);
		said("Parrived of partition -1", MPI_Parrived(q, -1, &flag));
	}
	MPI_Barrier(MPI_COMM_WORLD); /* one rank prints at a time */
	if (r == 0) {
		said("no partitions",
		     MPI_Psend_init(buf, 0, 4, MPI_INT, p - 1, 0,
				    MPI_COMM_WORLD, MPI_INFO_NULL, &z));
		MPI_Psend_init(buf, 2, 4, MPI_INT, p - 1, 0, MPI_COMM_WORLD,
			       MPI_INFO_NULL, &s);
		said("Pready before Start", MPI_Pready(0, s));
		MPI_Start(&s);
		said("Pready of partition 2 of 2", MPI_Pready(2, s));
		said("Pready_range(1, 0)", MPI_Pready_range(1, 0, s));
		said("Parrived on a send", MPI_Parrived(s, 0, &flag));
		said("Pready of partition 0", MPI_Pready(0, s));
		said("Pready of partition 0 again", MPI_Pready(0, s));
		said("Pready of partition 1", MPI_Pready(1, s));
		MPI_Wait(&s, MPI_STATUS_IGNORE);
		MPI_Request_free(&s);
	}
	if (r == p - 1) {
		MPI_Wait(&q, MPI_STATUS_IGNORE);
		MPI_Request_free(&q);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
