/* type_dup.c - MPI_Type_dup gives a type with the same committed state as
 * the old one (MPI 4.0 sec. 5.1.10): a committed vector's duplicate, and
 * a predefined type's, are used at once without MPI_Type_commit. Prints
 * one line (rank 0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Datatype vec, dup_vec, dup_int;
	int r, p, i, bad = 0, strided[8], plain[8];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Type_dup(vec, &dup_vec);
	MPI_Type_dup(MPI_INT, &dup_int);
	for (i = 0; i < 8; i++) {
		strided[i] = r == 0 ? i + 1 : -1;
		plain[i] = r == 0 ? 10 * i : -1;
	}
	MPI_Bcast(strided, 1, dup_vec, 0, MPI_COMM_WORLD);
	MPI_Bcast(plain, 8, dup_int, 0, MPI_COMM_WORLD);
	for (i = 0; i < 8; i++) {
		/* the vector moves the even places; the odd keep their -1 */
		bad += strided[i] != (r == 0 || i % 2 == 0 ? i + 1 : -1);
		bad += plain[i] != 10 * i;
	}
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Type_free(&dup_vec);
	MPI_Type_free(&dup_int);
	MPI_Type_free(&vec);
	if (r == 0)
		printf("type_dup on %d ranks: ok (%d bad)\n", p, bad);
	MPI_Finalize();
	return 0;
}
