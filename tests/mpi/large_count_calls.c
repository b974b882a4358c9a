/* large_count_calls.c - every large-count point-to-point, packing and
 * datatype-constructor call of MPI 4.0 (sec. 19.2) beyond MPI_Send_c and
 * MPI_Recv_c, with small counts, around a ring: the ready, buffered and
 * synchronous sends (blocking, nonblocking, persistent), MPI_Sendrecv_c
 * and the _replace and nonblocking forms, matched receives, the attached
 * buffer, MPI_Pack_c / MPI_Unpack_c and their external32 and size forms;
 * each datatype built by a _c constructor packs the same bytes, of the
 * same size and extent, as the one its int form builds. Prints one line
 * (rank 0).
 * no-ref: Open MPI 4.1 has no _c calls (MPICH 4.0 prints the same)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 6

static int r, p, next, prev, bad;

static void fill(int *x, int base)
{
	int i;

	for (i = 0; i < N; i++)
		x[i] = base + i;
}

/* x holds what fill(prev's base) put there */
static void expect(const int *x, int base)
{
	int i;

	for (i = 0; i < N; i++)
		bad += x[i] != base + i;
}

static void sends(void)
{
	int out[N], in[N], sz, *buf;
	MPI_Count size;
	MPI_Request q[2];
	void *got;

	fill(out, 100 * r);
	MPI_Irecv_c(in, N, MPI_INT, prev, 1, MPI_COMM_WORLD, &q[0]);
	MPI_Barrier(MPI_COMM_WORLD); /* every ready send's receive is there */
	MPI_Rsend_c(out, N, MPI_INT, next, 1, MPI_COMM_WORLD);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	expect(in, 100 * prev);
	MPI_Irecv_c(in, N, MPI_INT, prev, 2, MPI_COMM_WORLD, &q[0]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Irsend_c(out, N, MPI_INT, next, 2, MPI_COMM_WORLD, &q[1]);
	MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
	expect(in, 100 * prev);
	MPI_Pack_size(2 * N, MPI_INT, MPI_COMM_WORLD, &sz);
	sz += 2 * MPI_BSEND_OVERHEAD;
	buf = malloc((size_t)sz);
	MPI_Buffer_attach_c(buf, sz);
	MPI_Bsend_c(out, N, MPI_INT, next, 3, MPI_COMM_WORLD);
	MPI_Ibsend_c(out, N, MPI_INT, next, 4, MPI_COMM_WORLD, &q[0]);
	MPI_Recv_c(in, N, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	expect(in, 100 * prev);
	MPI_Recv_c(in, N, MPI_INT, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	expect(in, 100 * prev);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	MPI_Buffer_detach_c(&got, &size);
	bad += got != buf || size != sz;
	free(buf);
	MPI_Issend_c(out, N, MPI_INT, next, 5, MPI_COMM_WORLD, &q[0]);
	MPI_Recv_c(in, N, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	expect(in, 100 * prev);
}

static void sendrecvs(void)
{
	int out[N], in[N];
	MPI_Request q;
	MPI_Status st;

	fill(out, 10 * r);
	MPI_Sendrecv_c(out, N, MPI_INT, next, 6, in, N, MPI_INT, prev, 6,
		       MPI_COMM_WORLD, &st);
	expect(in, 10 * prev);
	bad += st.MPI_SOURCE != prev;
	MPI_Sendrecv_replace_c(out, N, MPI_INT, next, 7, prev, 7,
			       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	expect(out, 10 * prev);
	fill(out, 10 * r);
	MPI_Isendrecv_c(out, N, MPI_INT, next, 8, in, N, MPI_INT, prev, 8,
			MPI_COMM_WORLD, &q);
	MPI_Wait(&q, MPI_STATUS_IGNORE);
	expect(in, 10 * prev);
	MPI_Isendrecv_replace_c(out, N, MPI_INT, next, 9, prev, 9,
				MPI_COMM_WORLD, &q);
	MPI_Wait(&q, MPI_STATUS_IGNORE);
	expect(out, 10 * prev);
}

/* the persistent sends, each to a receive made by MPI_Recv_init_c */
static void persistent(void)
{
	int out[N], in[N], k;
	MPI_Request q[2];
	int (*init[])(const void *, MPI_Count, MPI_Datatype, int, int,
		      MPI_Comm, MPI_Request *) = {
		MPI_Send_init_c, MPI_Bsend_init_c, MPI_Rsend_init_c,
		MPI_Ssend_init_c
	};
	char room[N * sizeof(int) + MPI_BSEND_OVERHEAD];
	void *got;
	MPI_Count size;

	MPI_Buffer_attach(room, sizeof(room));
	for (k = 0; k < 4; k++) {
		fill(out, 1000 * k + r);
		MPI_Recv_init_c(in, N, MPI_INT, prev, 10 + k, MPI_COMM_WORLD,
				&q[1]);
		init[k](out, N, MPI_INT, next, 10 + k, MPI_COMM_WORLD, &q[0]);
		MPI_Start(&q[1]);
		MPI_Barrier(MPI_COMM_WORLD); /* for the ready send */
		MPI_Start(&q[0]);
		MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
		expect(in, 1000 * k + prev);
		MPI_Request_free(&q[0]);
		MPI_Request_free(&q[1]);
	}
	MPI_Buffer_detach_c(&got, &size);
}

static void matched(void)
{
	int out[N], in[N];
	MPI_Message m;
	MPI_Request q, s;

	fill(out, 7 * r);
	MPI_Isend_c(out, N, MPI_INT, next, 20, MPI_COMM_WORLD, &s);
	MPI_Mprobe(prev, 20, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
	MPI_Mrecv_c(in, N, MPI_INT, &m, MPI_STATUS_IGNORE);
	MPI_Wait(&s, MPI_STATUS_IGNORE);
	expect(in, 7 * prev);
	MPI_Isend_c(out, N, MPI_INT, next, 21, MPI_COMM_WORLD, &s);
	MPI_Mprobe(prev, 21, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
	MPI_Imrecv_c(in, N, MPI_INT, &m, &q);
	MPI_Wait(&q, MPI_STATUS_IGNORE);
	MPI_Wait(&s, MPI_STATUS_IGNORE);
	expect(in, 7 * prev);
}

static void packing(void)
{
	int out[N], in[N];
	char packed[64];
	MPI_Count pos = 0, size = 0;

	fill(out, 3 * r);
	MPI_Pack_size_c(N, MPI_INT, MPI_COMM_WORLD, &size);
	bad += size < (MPI_Count)sizeof(out) || size > 64;
	MPI_Pack_c(out, N, MPI_INT, packed, sizeof(packed), &pos,
		   MPI_COMM_WORLD);
	bad += pos != (MPI_Count)sizeof(out);
	pos = 0;
	MPI_Unpack_c(packed, sizeof(packed), &pos, in, N, MPI_INT,
		     MPI_COMM_WORLD);
	expect(in, 3 * r);
	MPI_Pack_external_size_c("external32", N, MPI_INT, &size);
	bad += size != 4 * N;
	pos = 0;
	MPI_Pack_external_c("external32", out, N, MPI_INT, packed,
			    sizeof(packed), &pos);
	bad += pos != 4 * N || packed[3] != (char)(3 * r); /* big-endian */
	pos = 0;
	memset(in, 0, sizeof(in));
	MPI_Unpack_external_c("external32", packed, sizeof(packed), &pos, in,
			      N, MPI_INT);
	expect(in, 3 * r);
}

/* a and b: the same size and extent, and the same bytes packed from one
 * buffer; both freed */
static void same(MPI_Datatype a, MPI_Datatype b)
{
	static int src[256];
	char pa[1024], pb[1024];
	int i, sa, sb, qa = 0, qb = 0;
	MPI_Aint la, ea, lb, eb;

	for (i = 0; i < 256; i++)
		src[i] = i * 7 + 1;
	MPI_Type_commit(&a);
	MPI_Type_commit(&b);
	MPI_Type_size(a, &sa);
	MPI_Type_size(b, &sb);
	MPI_Type_get_extent(a, &la, &ea);
	MPI_Type_get_extent(b, &lb, &eb);
	bad += sa != sb || la != lb || ea != eb || sa > 1024;
	if (sa == sb && sa <= 1024) {
		MPI_Pack(src, 1, a, pa, sizeof(pa), &qa, MPI_COMM_WORLD);
		MPI_Pack(src, 1, b, pb, sizeof(pb), &qb, MPI_COMM_WORLD);
		bad += qa != qb || memcmp(pa, pb, (size_t)qa) != 0;
	}
	MPI_Type_free(&a);
	MPI_Type_free(&b);
}

static void constructors(void)
{
	MPI_Datatype a, b, ts[2] = { MPI_INT, MPI_SHORT };
	int bl[3] = { 2, 1, 3 }, d[3] = { 0, 5, 9 }, sz[2] = { 6, 8 };
	int sub[2] = { 2, 3 }, st[2] = { 1, 2 }, dis[2] = { MPI_DISTRIBUTE_BLOCK,
		MPI_DISTRIBUTE_CYCLIC }, darg[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 };
	int ps[2] = { 1, 1 };
	MPI_Count cbl[3] = { 2, 1, 3 }, cd[3] = { 0, 5, 9 };
	MPI_Count cbd[3] = { 0, 20, 36 }, csz[2] = { 6, 8 }, csub[2] = { 2, 3 };
	MPI_Count cst[2] = { 1, 2 }, sd[2] = { 0, 16 };
	MPI_Aint ad[3] = { 0, 20, 36 }, sad[2] = { 0, 16 };

	MPI_Type_vector(3, 2, 5, MPI_INT, &a);
	MPI_Type_vector_c(3, 2, 5, MPI_INT, &b);
	same(a, b);
	MPI_Type_create_hvector(3, 2, 28, MPI_INT, &a);
	MPI_Type_create_hvector_c(3, 2, 28, MPI_INT, &b);
	same(a, b);
	MPI_Type_indexed(3, bl, d, MPI_INT, &a);
	MPI_Type_indexed_c(3, cbl, cd, MPI_INT, &b);
	same(a, b);
	MPI_Type_create_hindexed_block(3, 2, ad, MPI_INT, &a);
	MPI_Type_create_hindexed_block_c(3, 2, cbd, MPI_INT, &b);
	same(a, b);
	MPI_Type_create_struct(2, bl, sad, ts, &a);
	MPI_Type_create_struct_c(2, cbl, sd, ts, &b);
	same(a, b);
	MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &a);
	MPI_Type_create_subarray_c(2, csz, csub, cst, MPI_ORDER_C, MPI_INT,
				   &b);
	same(a, b);
	MPI_Type_create_darray(1, 0, 2, sz, dis, darg, ps, MPI_ORDER_FORTRAN,
			       MPI_INT, &a);
	MPI_Type_create_darray_c(1, 0, 2, csz, dis, darg, ps,
				 MPI_ORDER_FORTRAN, MPI_INT, &b);
	same(a, b);
	MPI_Type_create_resized(MPI_INT, -4, 12, &a);
	MPI_Type_create_resized_c(MPI_INT, -4, 12, &b);
	same(a, b);
}

int main(int argc, char **argv)
{
	int all;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	next = (r + 1) % p;
	prev = (r + p - 1) % p;
	sends();
	sendrecvs();
	persistent();
	matched();
	packing();
	constructors();
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("large-count calls on %d ranks: %s (%d bad)\n", p,
		       all ? "FAILED" : "ok", all);
	MPI_Finalize();
	return 0;
}
