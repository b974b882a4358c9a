/* large_count_refused.c - the large-count calls that run their int
 * sibling refuse a count above INT_MAX under MPI_ERRORS_RETURN: each
 * returns MPI_ERR_COUNT, and MPI_Error_string names the rank, the call
 * and the count, before any memory is touched (the buffers are NULL).
 * Prints one line a call (rank 0).
 * no-ref: MPICH takes these counts; vp's refusal and its message are its own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define BIG 2147483648LL /* INT_MAX + 1 */

static int r;

static void said(const char *what, int rc)
{
	char msg[MPI_MAX_ERROR_STRING];
	int cls = -1, len;

	MPI_Error_class(rc, &cls);
	MPI_Error_string(rc, msg, &len);
	if (r == 0)
		printf("%s: %s: %s\n", what,
		       cls == MPI_ERR_COUNT ? "MPI_ERR_COUNT" : "another class",
		       msg);
}

int main(int argc, char **argv)
{
	MPI_Request q;
	MPI_Message m = MPI_MESSAGE_NULL;
	MPI_Datatype t;
	MPI_Count pos = 0, size, big[1] = { BIG }, small[2] = { 1, 1 };
	int one[2] = { 1, 1 };
	char c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	said("MPI_Send_init_c",
	     MPI_Send_init_c(NULL, BIG, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &q));
	said("MPI_Recv_init_c",
	     MPI_Recv_init_c(NULL, BIG, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &q));
	said("MPI_Ssend_init_c",
	     MPI_Ssend_init_c(NULL, BIG, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &q));
	said("MPI_Isendrecv_c",
	     MPI_Isendrecv_c(&c, 1, MPI_BYTE, 0, 0, NULL, BIG, MPI_BYTE, 0, 0,
			     MPI_COMM_WORLD, &q));
	said("MPI_Sendrecv_replace_c",
	     MPI_Sendrecv_replace_c(NULL, BIG, MPI_BYTE, 0, 0, 0, 0,
				    MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	said("MPI_Mrecv_c",
	     MPI_Mrecv_c(NULL, BIG, MPI_BYTE, &m, MPI_STATUS_IGNORE));
	said("MPI_Buffer_attach_c", MPI_Buffer_attach_c(&c, BIG));
	said("MPI_Pack_c", MPI_Pack_c(NULL, BIG, MPI_BYTE, NULL, BIG, &pos,
				      MPI_COMM_WORLD));
	said("MPI_Pack_size_c",
	     MPI_Pack_size_c(BIG, MPI_BYTE, MPI_COMM_WORLD, &size));
	said("MPI_Pack_external_size_c",
	     MPI_Pack_external_size_c("external32", BIG, MPI_INT, &size));
	said("MPI_Type_vector_c", MPI_Type_vector_c(2, BIG, BIG, MPI_INT, &t));
	said("MPI_Type_create_struct_c",
	     MPI_Type_create_struct_c(1, big, small, (MPI_Datatype[]){ MPI_INT },
				      &t));
	said("MPI_Type_create_subarray_c",
	     MPI_Type_create_subarray_c(1, big, small, small, MPI_ORDER_C,
					MPI_INT, &t));
	said("MPI_Type_create_darray_c",
	     MPI_Type_create_darray_c(1, 0, 1, big, one, one, one,
				      MPI_ORDER_C, MPI_INT, &t));
	MPI_Finalize();
	return 0;
}
