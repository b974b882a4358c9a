/* matched_probe.c - matched probes (MPI 4.0 sec. 3.8.2), request
 * statuses and generalized requests (sec. 3.7.3, 13.2): every rank sends
 * two tagged messages to its right neighbour; the receiver takes the
 * first with MPI_Mprobe + MPI_Mrecv and the second with MPI_Improbe
 * (polled) + MPI_Imrecv; a probe between finds nothing matched already.
 * MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC. MPI_Request_get_status peeks
 * at a receive without completing it; a generalized request completed by
 * the program reports the status its query callback sets. A 256 KiB
 * MPI_Bsend around the ring returns before its receive is posted (sec.
 * 3.6: the standard send there would wait for it). Prints one line
 * (rank 0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int freed;

static int query(void *extra, MPI_Status *st)
{
	MPI_Status_set_elements(st, MPI_INT, *(int *)extra);
	MPI_Status_set_cancelled(st, 0);
	st->MPI_SOURCE = 5;
	st->MPI_TAG = 6;
	return MPI_SUCCESS;
}

static int release(void *extra)
{
	(void)extra;
	freed++;
	return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

static int probes(int r, int p)
{
	int right = (r + 1) % p, left = (r + p - 1) % p, bad = 0, flag = 0;
	int a[3] = { r, r + 1, r + 2 }, b[2] = { 10 * r, 10 * r + 1 };
	int got[3] = { 0 }, got2[2] = { 0 }, n;
	MPI_Message m = MPI_MESSAGE_NULL;
	MPI_Request s[2], q;
	MPI_Status st;

	MPI_Isend(a, 3, MPI_INT, right, 7, MPI_COMM_WORLD, &s[0]);
	MPI_Isend(b, 2, MPI_INT, right, 8, MPI_COMM_WORLD, &s[1]);
	MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &m, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	bad += st.MPI_SOURCE != left || st.MPI_TAG != 7 || n != 3;
	/* matched: no probe sees it any more */
	MPI_Iprobe(left, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
	bad += flag != 0;
	MPI_Mrecv(got, 3, MPI_INT, &m, &st);
	bad += m != MPI_MESSAGE_NULL || got[0] != left || got[2] != left + 2;
	for (flag = 0; !flag;)
		MPI_Improbe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st);
	bad += st.MPI_TAG != 8;
	MPI_Imrecv(got2, 2, MPI_INT, &m, &q);
	MPI_Wait(&q, &st);
	bad += got2[1] != 10 * left + 1 || st.MPI_SOURCE != left;
	MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
	MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st);
	bad += m != MPI_MESSAGE_NO_PROC;
	MPI_Mrecv(got, 3, MPI_INT, &m, &st);
	bad += st.MPI_SOURCE != MPI_PROC_NULL || m != MPI_MESSAGE_NULL;
	return bad;
}

static int statuses(int r, int p)
{
	int right = (r + 1) % p, left = (r + p - 1) % p, bad = 0, flag = 0;
	int x = r, y = -1, five = 5, n;
	MPI_Request q, s, g;
	MPI_Status st;
	MPI_Count c;

	MPI_Irecv(&y, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &q);
	MPI_Isend(&x, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &s);
	while (!flag)
		MPI_Request_get_status(q, &flag, &st);
	bad += q == MPI_REQUEST_NULL || st.MPI_SOURCE != left;
	MPI_Wait(&q, &st); /* still to be completed, with its status */
	bad += q != MPI_REQUEST_NULL || y != left || st.MPI_TAG != 3;
	MPI_Wait(&s, MPI_STATUS_IGNORE);
	MPI_Grequest_start(query, release, cancel, &five, &g);
	MPI_Test(&g, &flag, &st);
	bad += flag != 0;
	MPI_Grequest_complete(g);
	MPI_Wait(&g, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	MPI_Get_elements_x(&st, MPI_INT, &c);
	bad += g != MPI_REQUEST_NULL || n != 5 || c != 5 || freed != 1 ||
	       st.MPI_SOURCE != 5 || st.MPI_TAG != 6;
	return bad;
}

static int bsend_ring(int r, int p)
{
	int n = 64 * 1024, size, i, bad = 0;
	int *out = malloc(sizeof(int) * (size_t)n);
	int *in = malloc(sizeof(int) * (size_t)n);
	char *buf;

	MPI_Pack_size(n, MPI_INT, MPI_COMM_WORLD, &size);
	size += MPI_BSEND_OVERHEAD;
	buf = malloc((size_t)size);
	MPI_Buffer_attach(buf, size);
	for (i = 0; i < n; i++)
		out[i] = r * n + i;
	MPI_Bsend(out, n, MPI_INT, (r + 1) % p, 9, MPI_COMM_WORLD);
	MPI_Recv(in, n, MPI_INT, (r + p - 1) % p, 9, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	for (i = 0; i < n; i++)
		bad += in[i] != ((r + p - 1) % p) * n + i;
	MPI_Buffer_detach(&buf, &size);
	free(buf);
	free(in);
	free(out);
	return bad != 0;
}

int main(int argc, char **argv)
{
	int r, p, bad;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	bad = probes(r, p) + statuses(r, p) + bsend_ring(r, p);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (r == 0)
		printf("matched probes and request statuses on %d ranks: ok "
		       "(%d bad)\n",
		       p, bad);
	MPI_Finalize();
	return 0;
}
