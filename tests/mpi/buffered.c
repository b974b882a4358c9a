/* buffered.c - buffered sends take room in the attached buffer (MPI 4.1
 * sec. 3.6): a message that does not fit fails with MPI_ERR_BUFFER, and
 * fits again once MPI_Buffer_iflush's request says the earlier ones are
 * delivered; with no buffer attached a buffered send fails; MPI_Ibsend's
 * request is complete at once, before any receive; MPI_Buffer_flush and
 * MPI_Buffer_detach wait for the messages around a ring. Persistent
 * sends and receives whose derived datatypes were freed right after
 * MPI_Send_init / MPI_Bsend_init / MPI_Recv_init (sec. 5.1.9: the
 * communication keeps its datatype). No items of MPI_DATATYPE_NULL from
 * MPI_PROC_NULL, and MPI_Send_c / MPI_Recv_c of more than INT_MAX items
 * of no bytes. Prints one line per part (rank 0).
 * no-ref: MPI_Buffer_iflush and _flush are MPI 4.1 (not in Open MPI 4.1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

static int error_class(int rc)
{
	int c;

	MPI_Error_class(rc, &c);
	return c;
}

/* one message fills the buffer; the next fails until the first is taken */
static int room(int r)
{
	static char out[N], in[N];
	int size = N + MPI_BSEND_OVERHEAD, bad = 0, rc, got;
	char *buf = malloc((size_t)size);
	void *back;
	MPI_Request q;

	MPI_Buffer_attach(buf, size);
	memset(out, r + 1, N);
	bad += MPI_Bsend(out, N, MPI_CHAR, r, 1, MPI_COMM_WORLD) != 0;
	rc = MPI_Bsend(out, N, MPI_CHAR, r, 1, MPI_COMM_WORLD);
	bad += error_class(rc) != MPI_ERR_BUFFER;
	bad += MPI_Buffer_iflush(&q) != 0;
	MPI_Recv(in, N, MPI_CHAR, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	bad += in[0] != r + 1 || in[N - 1] != r + 1;
	MPI_Wait(&q, MPI_STATUS_IGNORE);
	bad += q != MPI_REQUEST_NULL;
	bad += MPI_Bsend(out, N, MPI_CHAR, r, 2, MPI_COMM_WORLD) != 0;
	MPI_Recv(in, N, MPI_CHAR, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Buffer_detach(&back, &got);
	bad += back != buf || got != size;
	free(buf);
	/* none attached now */
	rc = MPI_Bsend(out, 1, MPI_CHAR, r, 3, MPI_COMM_WORLD);
	bad += error_class(rc) != MPI_ERR_BUFFER;
	return bad;
}

/* MPI_Ibsend of 1 MiB to itself completes before its receive is posted;
 * then a ring of buffered sends, flushed and detached */
static int ibsend_ring(int r, int p)
{
	int n = 1 << 18, size = 2 * (n * 4 + MPI_BSEND_OVERHEAD), bad = 0;
	int flag = 0, got, *out = malloc(sizeof(int) * (size_t)n),
	    *in = malloc(sizeof(int) * (size_t)n), i;
	char *buf = malloc((size_t)size);
	void *back;
	MPI_Request q;

	MPI_Buffer_attach(buf, size);
	for (i = 0; i < n; i++)
		out[i] = r * n + i;
	MPI_Ibsend(out, n, MPI_INT, r, 4, MPI_COMM_WORLD, &q);
	MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
	bad += !flag;
	out[0] = -1; /* the message was copied at the call */
	MPI_Recv(in, n, MPI_INT, r, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	bad += in[0] != r * n || in[n - 1] != r * n + n - 1;
	out[0] = r * n;
	MPI_Bsend(out, n, MPI_INT, (r + 1) % p, 5, MPI_COMM_WORLD);
	MPI_Recv(in, n, MPI_INT, (r + p - 1) % p, 5, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	bad += in[n - 1] != ((r + p - 1) % p) * n + n - 1;
	bad += MPI_Buffer_flush() != 0;
	MPI_Buffer_detach(&back, &got);
	free(buf);
	free(in);
	free(out);
	return bad;
}

/* every second int, sent and received persistently with the datatypes
 * freed at once */
static int persistent_freed(int r, int p)
{
	int out[8], in[8], i, k, bad = 0, size = 4 * (8 * 4 + MPI_BSEND_OVERHEAD);
	char *buf = malloc((size_t)size);
	void *back;
	MPI_Datatype every2, every2r, dup;
	MPI_Request q[3];

	MPI_Buffer_attach(buf, size);
	MPI_Type_vector(4, 1, 2, MPI_INT, &every2);
	MPI_Type_commit(&every2);
	MPI_Type_dup(every2, &every2r);
	MPI_Type_dup(MPI_INT, &dup);
	MPI_Send_init(out, 1, every2, (r + 1) % p, 6, MPI_COMM_WORLD, &q[0]);
	MPI_Bsend_init(out, 4, dup, (r + 1) % p, 7, MPI_COMM_WORLD, &q[1]);
	MPI_Recv_init(in, 1, every2r, (r + p - 1) % p, 6, MPI_COMM_WORLD,
		      &q[2]);
	MPI_Type_free(&every2);
	MPI_Type_free(&every2r);
	MPI_Type_free(&dup);
	for (k = 0; k < 3; k++) {
		for (i = 0; i < 8; i++) {
			out[i] = 100 * k + 10 * r + i;
			in[i] = -1;
		}
		MPI_Startall(3, q);
		MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
		for (i = 0; i < 8; i++)
			bad += in[i] != (i % 2 ? -1
					       : 100 * k +
						     10 * ((r + p - 1) % p) + i);
		MPI_Recv(in, 4, MPI_INT, (r + p - 1) % p, 7, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		bad += in[3] != 100 * k + 10 * ((r + p - 1) % p) + 3;
	}
	for (k = 0; k < 3; k++)
		MPI_Request_free(&q[k]);
	MPI_Buffer_detach(&back, &i);
	free(buf);
	return bad;
}

/* MPI_DATATYPE_NULL with no items; counts past INT_MAX of an empty type */
static int nulls_and_counts(int r, int p)
{
	MPI_Status st;
	MPI_Request q;
	MPI_Datatype none;
	int bad = 0;

	bad += MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 8,
			MPI_COMM_WORLD, &st) != 0;
	bad += st.MPI_SOURCE != MPI_PROC_NULL;
	bad += MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 8,
			 MPI_COMM_WORLD, &q) != 0;
	MPI_Wait(&q, &st);
	bad += st.MPI_SOURCE != MPI_PROC_NULL;
	bad += MPI_Send(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 8,
			MPI_COMM_WORLD) != 0;
	MPI_Type_contiguous(0, MPI_INT, &none);
	MPI_Type_commit(&none);
	bad += MPI_Send_c(NULL, (MPI_Count)INT_MAX + 10, none, (r + 1) % p, 9,
			  MPI_COMM_WORLD) != 0;
	bad += MPI_Recv_c(NULL, (MPI_Count)INT_MAX + 10, none,
			  (r + p - 1) % p, 9, MPI_COMM_WORLD, &st) != 0;
	bad += st.MPI_SOURCE != (r + p - 1) % p;
	MPI_Type_free(&none);
	return bad;
}

int main(int argc, char **argv)
{
	int r, p, bad[4], all[4], i;
	static const char *const what[4] = {
	    "buffer room, iflush, detach, none attached",
	    "ibsend complete at once, ring, flush",
	    "persistent with freed datatypes",
	    "null datatype, counts past INT_MAX"};

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	bad[0] = room(r);
	bad[1] = ibsend_ring(r, p);
	bad[2] = persistent_freed(r, p);
	bad[3] = nulls_and_counts(r, p);
	MPI_Reduce(bad, all, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	for (i = 0; i < 4 && r == 0; i++)
		printf("%s on %d ranks: %s (%d bad)\n", what[i], p,
		       all[i] ? "FAILED" : "ok", all[i]);
	MPI_Finalize();
	return 0;
}
