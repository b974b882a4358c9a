/* ivcollectives.c - the nonblocking v- and w-collectives (MPI 4.0,
 * sec. 6.12), blocks of different sizes (some empty) at scattered
 * displacements:
 *   - MPI_Igatherv, MPI_Iscatterv, MPI_Iallgatherv, MPI_Ialltoallv,
 *     MPI_Ialltoallw (a derived send type, a derived receive type freed
 *     before the wait) and MPI_Ireduce_scatter (a non-commutative user op:
 *     the result shows the ranks combined in rank order) started together
 *     with a point-to-point ring exchange and completed by one MPI_Waitall;
 *   - each of them with MPI_IN_PLACE, and MPI_Ireduce_scatter_block too,
 *     completed by MPI_Test in a loop;
 *   - the progress rule: rank 0 starts an MPI_Ialltoallv, sends to rank 1
 *     and only then waits, while rank 1 receives first and starts the
 *     call after (a blocking all-to-all there would hang).
 * Every rank checks; rank 0 prints the verdict.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define N(i) ((i) % 3 + 1)     /* items rank i gathers, scatters, ... */
#define C(a, b) (((a) + (b)) % 3) /* items rank a sends to rank b */

static int rank, size, bad;

static void expect(int got, int want, const char *what, int i)
{
	if (got != want && bad++ < 5)
		printf("rank %d: %s [%d] is %d, not %d\n", rank, what, i, got,
		       want);
}

/* (a, b) o (c, d) = (a, b + d): keeps the leftmost first element */
static void first_of(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout, i;

	(void)t;
	for (i = 0; i < *len; i++) {
		b[2 * i + 1] += a[2 * i + 1];
		b[2 * i] = a[2 * i];
	}
}

static int gv[64], sv[4], scv[4], agv[64], a2in[64], a2out[64], wout[64], win[64];
static int rsin[64], rsout[8];
static int cnt[8], dsp[8], gdsp[8], rcnt[8], sdsp[8], rdsp[8];
static int wsc[8], wsd[8], wrc[8], wrd[8];
static MPI_Datatype wst[8], wrt[8];

static void start_all(MPI_Request *req)
{
	static int scat[64];
	MPI_Datatype vec, two;
	int i, k, o = 0;

	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Type_contiguous(2, MPI_INT, &two);
	MPI_Type_commit(&two);
	for (i = 0; i < size; i++) {
		cnt[i] = N(i);
		gdsp[i] = 0;
		for (k = i + 1; k < size; k++) /* reversed, one gap each */
			gdsp[i] += N(k) + 1;
		dsp[i] = 4 * (size - 1 - i);
		for (k = 0; k < 4; k++)
			scat[dsp[i] + k] = 7 * i + k;
		rcnt[i] = C(i, rank);
		rdsp[i] = 5 * i;
		sdsp[i] = o;
		for (k = 0; k < C(rank, i); k++)
			a2out[o++] = 1000 * rank + 100 * i + k;
		for (k = 0; k < 4; k++)
			wout[4 * i + k] = 10000 * rank + 10 * i + k;
		wsc[i] = 1, wsd[i] = 4 * i * (int)sizeof(int);
		wst[i] = rank % 2 ? vec : MPI_INT;
		wrc[i] = 1, wrd[i] = 3 * i * (int)sizeof(int);
		wrt[i] = i % 2 ? two : MPI_INT;
	}
	for (i = 0; i < 64; i++)
		gv[i] = agv[i] = a2in[i] = win[i] = -1;
	for (i = 0, o = 0; i < size; i++)
		for (k = 0; k < N(i); k++, o += 2) {
			rsin[o] = rank;
			rsin[o + 1] = rank + i + k;
		}
	for (k = 0; k < N(rank); k++)
		sv[k] = 100 * rank + k;
	MPI_Igatherv(sv, N(rank), MPI_INT, gv, cnt, gdsp, MPI_INT, size - 1,
		     MPI_COMM_WORLD, &req[0]);
	MPI_Iscatterv(scat, cnt, dsp, MPI_INT, scv, N(rank), MPI_INT, 0,
		      MPI_COMM_WORLD, &req[1]);
	MPI_Iallgatherv(sv, N(rank), MPI_INT, agv, cnt, dsp, MPI_INT,
			MPI_COMM_WORLD, &req[2]);
	for (i = 0; i < size; i++)
		cnt[i] = C(rank, i);
	MPI_Ialltoallv(a2out, cnt, sdsp, MPI_INT, a2in, rcnt, rdsp, MPI_INT,
		       MPI_COMM_WORLD, &req[3]);
	MPI_Ialltoallw(wout, wsc, wsd, wst, win, wrc, wrd, wrt, MPI_COMM_WORLD,
		       &req[4]);
	MPI_Type_free(&vec);
	MPI_Type_free(&two);
}

static void check_all(void)
{
	int i, k, o;

	if (rank == size - 1) {
		for (i = 0; i < size; i++) {
			for (k = 0; k < N(i); k++)
				expect(gv[gdsp[i] + k], 100 * i + k, "igatherv",
				       i);
			if (i > 0)
				expect(gv[gdsp[i] + N(i)], -1, "igatherv gap",
				       i);
		}
	}
	for (k = 0; k < N(rank); k++)
		expect(scv[k], 7 * rank + k, "iscatterv", k);
	for (i = 0; i < size; i++)
		for (k = 0; k < 4; k++)
			expect(agv[4 * (size - 1 - i) + k],
			       k < N(i) ? 100 * i + k : -1, "iallgatherv", i);
	for (i = 0; i < size; i++)
		for (k = 0; k < 5; k++)
			expect(a2in[5 * i + k],
			       k < C(i, rank) ? 1000 * i + 100 * rank + k : -1,
			       "ialltoallv", i);
	for (i = 0; i < size; i++) {
		expect(win[3 * i], 10000 * i + 10 * rank, "ialltoallw", i);
		expect(win[3 * i + 1], i % 2 ? 10000 * i + 10 * rank + 2 : -1,
		       "ialltoallw (vector)", i);
	}
	for (k = 0, o = 0; k < N(rank); k++, o += 2) {
		expect(rsout[o], 0, "ireduce_scatter leftmost", k);
		expect(rsout[o + 1], size * (size - 1) / 2 + size * (rank + k),
		       "ireduce_scatter sum", k);
	}
}

#define TEST_LOOP                                                           \
	do {                                                                \
		flag = 0;                                                   \
		while (!flag)                                               \
			MPI_Test(&r, &flag, MPI_STATUS_IGNORE);             \
	} while (0)

/* Igatherv and Iscatterv in place at the root 0 (blocks at d). */
static void rooted_in_place(int *buf, const int *c, const int *d)
{
	MPI_Request r;
	int i, k, flag;

	for (i = 0; i < 64; i++) /* the root has its own block only */
		buf[i] = i < 4 * size && i % 4 < N(i / 4) && (rank || i < 4)
			     ? i
			     : -1;
	if (rank == 0)
		MPI_Igatherv(MPI_IN_PLACE, 0, MPI_INT, buf, c, d, MPI_INT, 0,
			     MPI_COMM_WORLD, &r);
	else
		MPI_Igatherv(buf + d[rank], N(rank), MPI_INT, NULL, NULL, NULL,
			     MPI_INT, 0, MPI_COMM_WORLD, &r);
	TEST_LOOP;
	for (i = 0; rank == 0 && i < 4 * size; i++)
		expect(buf[i], i % 4 < N(i / 4) ? i : -1, "igatherv in place", i);
	for (i = 0; rank > 0 && i < 64; i++)
		buf[i] = -1;
	if (rank == 0)
		MPI_Iscatterv(buf, c, d, MPI_INT, MPI_IN_PLACE, 0, MPI_INT, 0,
			      MPI_COMM_WORLD, &r);
	else
		MPI_Iscatterv(NULL, NULL, NULL, MPI_INT, buf + d[rank], N(rank),
			      MPI_INT, 0, MPI_COMM_WORLD, &r);
	TEST_LOOP;
	for (k = 0; k < N(rank); k++)
		expect(buf[d[rank] + k], d[rank] + k, "iscatterv in place", k);
}

/* Every call once more with MPI_IN_PLACE, completed by MPI_Test loops. */
static void in_place(void)
{
	int buf[64], c[8], d[8], bd[8], i, k, o, flag;
	MPI_Datatype t[8];
	MPI_Request r;

	for (i = 0; i < size; i++) {
		c[i] = N(i), d[i] = 4 * i, t[i] = MPI_INT;
		bd[i] = d[i] * (int)sizeof(int);
	}
	rooted_in_place(buf, c, d);
	for (i = 0; i < 64; i++) /* only this rank's block is there */
		buf[i] = i >= d[rank] && i < d[rank] + N(rank) ? i : -1;
	MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_INT, buf, c, d, MPI_INT,
			MPI_COMM_WORLD, &r);
	TEST_LOOP;
	for (i = 0; i < 4 * size; i++)
		expect(buf[i], i % 4 < N(i / 4) ? i : -1, "iallgatherv in place",
		       i);
	for (i = 0; i < size; i++) { /* C is symmetric, as in place needs */
		c[i] = C(rank, i);
		for (k = 0; k < 4; k++)
			buf[4 * i + k] = k < c[i] ? 100 * rank + 10 * i + k : -1;
	}
	MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, buf, c, d, MPI_INT,
		       MPI_COMM_WORLD, &r);
	TEST_LOOP;
	for (i = 0; i < size; i++)
		for (k = 0; k < 4; k++)
			expect(buf[4 * i + k],
			       k < c[i] ? 100 * i + 10 * rank + k : -1,
			       "ialltoallv in place", i);
	for (i = 0; i < size; i++)
		for (k = 0; k < 4; k++) /* the exchange back, by Ialltoallw */
			buf[4 * i + k] = k < c[i] ? 100 * i + 10 * rank + k : -1;
	MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, c, bd, t,
		       MPI_COMM_WORLD, &r);
	TEST_LOOP;
	for (i = 0; i < size; i++)
		for (k = 0; k < 4; k++)
			expect(buf[4 * i + k],
			       k < c[i] ? 100 * rank + 10 * i + k : -1,
			       "ialltoallw in place", i);
	for (i = 0, o = 0; i < size; i++)
		for (k = 0; k < N(i); k++)
			buf[o++] = rank * i + k + 1;
	for (i = 0; i < size; i++)
		c[i] = N(i);
	MPI_Ireduce_scatter(MPI_IN_PLACE, buf, c, MPI_INT, MPI_SUM,
			    MPI_COMM_WORLD, &r);
	TEST_LOOP;
	for (k = 0; k < N(rank); k++)
		expect(buf[k], rank * size * (size - 1) / 2 + size * (k + 1),
		       "ireduce_scatter in place", k);
	for (i = 0; i < size; i++) /* and its equal-block form */
		for (k = 0; k < 2; k++)
			buf[2 * i + k] = rank + i + k;
	MPI_Ireduce_scatter_block(MPI_IN_PLACE, buf, 2, MPI_INT, MPI_SUM,
				  MPI_COMM_WORLD, &r);
	TEST_LOOP;
	for (k = 0; k < 2; k++)
		expect(buf[k], size * (size - 1) / 2 + size * (rank + k),
		       "ireduce_scatter_block in place", k);
}

/* Rank 0 starts, sends, waits; rank 1 receives before it starts. */
static void progress(void)
{
	int c[8], d[8], out[8], in[8], i, token = 0;
	MPI_Request r;

	for (i = 0; i < size; i++)
		c[i] = 1, d[i] = i, out[i] = 10 * rank + i, in[i] = -1;
	if (rank == 1)
		MPI_Recv(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	MPI_Ialltoallv(out, c, d, MPI_INT, in, c, d, MPI_INT, MPI_COMM_WORLD,
		       &r);
	if (rank == 0 && size > 1)
		MPI_Send(&rank, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
	for (i = 0; i < size; i++)
		expect(in[i], 10 * i + rank, "ialltoallv after a send", i);
}

int main(int argc, char **argv)
{
	int all_bad, ring_in = -1, i, rs_counts[8];
	MPI_Request req[8];
	MPI_Op op;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Op_create(first_of, 0, &op);
	start_all(req);
	for (i = 0; i < size; i++)
		rs_counts[i] = N(i);
	MPI_Ireduce_scatter(rsin, rsout, rs_counts, MPI_2INT, op,
			    MPI_COMM_WORLD, &req[5]);
	MPI_Irecv(&ring_in, 1, MPI_INT, (rank + size - 1) % size, 3,
		  MPI_COMM_WORLD, &req[6]);
	MPI_Isend(&rank, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD,
		  &req[7]);
	MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
	expect(ring_in, (rank + size - 1) % size, "the ring", 0);
	check_all();
	in_place();
	progress();
	MPI_Op_free(&op);
	MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("nonblocking v-collectives on %d ranks: %s (%d bad)\n",
		       size, all_bad ? "FAILED" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
