/* p2p_large_count.c - point-to-point counts above INT_MAX (MPI 4.0 sec.
 * 3.2.5 and 19.2): MPI_Isend_c, MPI_Irecv_c and MPI_Ssend_c take more
 * than INT_MAX items (here of a type of no bytes, around a ring, and of
 * MPI_CHAR to MPI_PROC_NULL); a status of 3e9 chars answers MPI_Get_count
 * with MPI_UNDEFINED and MPI_Get_count_c, MPI_Get_elements_c and
 * MPI_Get_elements_x with the count. Prints one line (rank 0).
 * no-ref: the _c calls are MPI 4.0 (not in Open MPI 4.1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Datatype empty;
	MPI_Request req[2];
	MPI_Status st;
	MPI_Count big = (MPI_Count)INT_MAX + 10, n, e, x;
	int r, p, bad = 0, rc, count;
	char c = 'x';

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Type_contiguous(0, MPI_INT, &empty);
	MPI_Type_commit(&empty);
	rc = MPI_Irecv_c(&c, big, empty, (r + p - 1) % p, 0, MPI_COMM_WORLD,
			 &req[0]);
	rc |= MPI_Isend_c(&c, big, empty, (r + 1) % p, 0, MPI_COMM_WORLD,
			  &req[1]);
	rc |= MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	rc |= MPI_Ssend_c(&c, big, MPI_CHAR, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
	rc |= MPI_Isend_c(&c, big, MPI_CHAR, MPI_PROC_NULL, 2, MPI_COMM_WORLD,
			  &req[0]);
	rc |= MPI_Irecv_c(&c, big, MPI_CHAR, MPI_PROC_NULL, 2, MPI_COMM_WORLD,
			  &req[1]);
	rc |= MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	bad += rc != MPI_SUCCESS;
	MPI_Status_set_elements_x(&st, MPI_CHAR, 3000000000LL);
	MPI_Get_count(&st, MPI_CHAR, &count);
	MPI_Get_count_c(&st, MPI_CHAR, &n);
	MPI_Get_elements_c(&st, MPI_CHAR, &e);
	MPI_Get_elements_x(&st, MPI_CHAR, &x);
	bad += count != MPI_UNDEFINED || n != 3000000000LL ||
	       e != 3000000000LL || x != 3000000000LL;
	MPI_Type_free(&empty);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("counts above INT_MAX on %d ranks: %d bad\n", p, bad);
	MPI_Finalize();
	return 0;
}
