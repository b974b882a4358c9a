/*
 * neighbor_init.c - the persistent neighbourhood collectives (MPI 4.0,
 * sec. 8.8: MPI_Neighbor_*_init, with an info object) and the large-count
 * nonblocking and persistent ones (sec. 19.2: MPI_Ineighbor_*_c,
 * MPI_Neighbor_*_init_c), on a line of the ranks (a 1-D grid, not
 * periodic: its ends have MPI_PROC_NULL for a neighbour, whose block is
 * left as it was) and on a distributed graph whose ranks have unequal in-
 * and out-degrees, the last rank no neighbour at all. Each call runs in
 * four forms, which must agree: nonblocking, nonblocking large-count,
 * persistent and persistent large-count; a persistent request is started
 * twice (MPI_Startall; on odd ranks MPI_Start one by one in the other
 * order), its send buffer rewritten between the starts, then freed.
 * Rank 0 prints every rank's blocks from each form (-1: nothing written).
 * no-ref: Open MPI 4.1 has none of the _init and _c calls. The expected
 *   output was worked out from the program and is what MPICH 4.0 prints
 *   (mpicc.mpich, mpirun.mpich on 1, 2, 3, 4 and 8 ranks).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define ROW 16 /* the values a form reports on a rank */

/* The graph on the first m = p - 1 ranks: s -> s + 1 and, for an even
 * s, s -> s + 2 (mod m) unless that is the same edge; the last rank
 * alone. Rank s's destinations in its order; their count returned. */
static int dests_of(int s, int p, int *d)
{
	int m = p - 1, n = 0;

	if (s == p - 1)
		return 0;
	d[n++] = (s + 1) % m;
	if (s % 2 == 0 && (s + 2) % m != d[0])
		d[n++] = (s + 2) % m;
	return n;
}

/* Where rank r is among s's destinations. */
static int place(int s, int r, int p)
{
	int d[2] = { -1, -1 }, n = dests_of(s, p, d), k = 0;

	while (k < n - 1 && d[k] != r)
		k++;
	return k;
}

struct args { /* one rank's buffers and arrays, for every form */
	int nin, nout, in[2], out[2], gn;
	int one, two[2], gv[2], tv[6], ti[2];
	double td;
	int ag[2], at[2], rgv[4], rtv[6];
	union {
		double d;
		int i;
	} rw[2];
	int gvc[2], gvd[2], sc[2], sd[2], rc[2], rd[2], wc[2];
	MPI_Count cgvc[2], csc[2], crc[2], cwc[2];
	MPI_Aint cgvd[2], csd[2], crd[2], wsd[2], wrd[2];
	MPI_Datatype wst[2], wrt[2];
};

/* The send data of round `base`, every receive block -1. */
static void fill(struct args *a, int r, int base)
{
	int i, j, k;

	a->one = base + 10 * r;
	a->two[0] = base + 100 * r;
	a->two[1] = base + 100 * r + 1;
	a->gv[0] = base + 10 * r;
	a->gv[1] = base + 10 * r + 1;
	for (j = 0, k = 0; j < a->nout; j++)
		for (i = 0; i <= j; i++)
			a->tv[k++] = base + 100 * r + 10 * j + i;
	a->td = base + 1000 * r + 0.5;
	a->ti[1] = base + 1000 * r + 1;
	for (i = 0; i < 2; i++)
		a->ag[i] = a->at[i] = -1;
	for (i = 0; i < 4; i++)
		a->rgv[i] = -1;
	for (i = 0; i < 6; i++)
		a->rtv[i] = -1;
	a->rw[0].d = a->rw[1].d = -1;
}

/* The arrays of rank r (int and large-count forms alike). */
static void arrays(struct args *a, int r, int p)
{
	int i, s;

	a->nin = 0;
	for (s = 0; s < p; s++) {
		int d[2], n = dests_of(s, p, d);

		for (i = 0; i < n; i++)
			if (d[i] == r)
				a->in[a->nin++] = s;
	}
	a->nout = dests_of(r, p, a->out);
	a->gn = r % 2 + 1;
	a->cwc[0] = a->cwc[1] = a->wc[0] = a->wc[1] = 1;
	for (i = 0; i < a->nin; i++) {
		int k = place(a->in[i], r, p);

		a->cgvc[i] = a->gvc[i] = a->in[i] % 2 + 1;
		a->cgvd[i] = a->gvd[i] = 2 * i;
		a->crc[i] = a->rc[i] = k + 1;
		a->crd[i] = a->rd[i] = 3 * i;
		a->wrt[i] = k == 0 ? MPI_DOUBLE : MPI_INT;
		a->wrd[i] = (char *)&a->rw[i] - (char *)a->rw;
	}
	for (i = 0; i < a->nout; i++) {
		a->csc[i] = a->sc[i] = i + 1;
		a->csd[i] = a->sd[i] = i == 0 ? 0 : 1;
		a->wst[i] = i == 0 ? MPI_DOUBLE : MPI_INT;
		a->wsd[i] = i == 0 ? 0 : (char *)&a->ti[1] - (char *)&a->td;
	}
}

/* The five calls in one form: 0 MPI_Ineighbor_*, 1 MPI_Ineighbor_*_c,
 * 2 MPI_Neighbor_*_init, 3 MPI_Neighbor_*_init_c; q[5]. */
static void post(struct args *a, int form, MPI_Comm line, MPI_Comm g,
		 MPI_Info info, MPI_Request *q)
{
	switch (form) {
	case 0:
		MPI_Ineighbor_allgather(&a->one, 1, MPI_INT, a->ag, 1, MPI_INT,
					line, &q[0]);
		MPI_Ineighbor_alltoall(a->two, 1, MPI_INT, a->at, 1, MPI_INT,
				       line, &q[1]);
		MPI_Ineighbor_allgatherv(a->gv, a->gn, MPI_INT, a->rgv, a->gvc,
					 a->gvd, MPI_INT, g, &q[2]);
		MPI_Ineighbor_alltoallv(a->tv, a->sc, a->sd, MPI_INT, a->rtv,
					a->rc, a->rd, MPI_INT, g, &q[3]);
		MPI_Ineighbor_alltoallw(&a->td, a->wc, a->wsd, a->wst, a->rw,
					a->wc, a->wrd, a->wrt, g, &q[4]);
		break;
	case 1:
		MPI_Ineighbor_allgather_c(&a->one, 1, MPI_INT, a->ag, 1,
					  MPI_INT, line, &q[0]);
		MPI_Ineighbor_alltoall_c(a->two, 1, MPI_INT, a->at, 1, MPI_INT,
					 line, &q[1]);
		MPI_Ineighbor_allgatherv_c(a->gv, a->gn, MPI_INT, a->rgv,
					   a->cgvc, a->cgvd, MPI_INT, g, &q[2]);
		MPI_Ineighbor_alltoallv_c(a->tv, a->csc, a->csd, MPI_INT,
					  a->rtv, a->crc, a->crd, MPI_INT, g,
					  &q[3]);
		MPI_Ineighbor_alltoallw_c(&a->td, a->cwc, a->wsd, a->wst, a->rw,
					  a->cwc, a->wrd, a->wrt, g, &q[4]);
		break;
	case 2:
		MPI_Neighbor_allgather_init(&a->one, 1, MPI_INT, a->ag, 1,
					    MPI_INT, line, info, &q[0]);
		MPI_Neighbor_alltoall_init(a->two, 1, MPI_INT, a->at, 1,
					   MPI_INT, line, info, &q[1]);
		MPI_Neighbor_allgatherv_init(a->gv, a->gn, MPI_INT, a->rgv,
					     a->gvc, a->gvd, MPI_INT, g, info,
					     &q[2]);
		MPI_Neighbor_alltoallv_init(a->tv, a->sc, a->sd, MPI_INT,
					    a->rtv, a->rc, a->rd, MPI_INT, g,
					    info, &q[3]);
		MPI_Neighbor_alltoallw_init(&a->td, a->wc, a->wsd, a->wst,
					    a->rw, a->wc, a->wrd, a->wrt, g,
					    info, &q[4]);
		break;
	default:
		MPI_Neighbor_allgather_init_c(&a->one, 1, MPI_INT, a->ag, 1,
					      MPI_INT, line, info, &q[0]);
		MPI_Neighbor_alltoall_init_c(a->two, 1, MPI_INT, a->at, 1,
					     MPI_INT, line, info, &q[1]);
		MPI_Neighbor_allgatherv_init_c(a->gv, a->gn, MPI_INT, a->rgv,
					       a->cgvc, a->cgvd, MPI_INT, g,
					       info, &q[2]);
		MPI_Neighbor_alltoallv_init_c(a->tv, a->csc, a->csd, MPI_INT,
					      a->rtv, a->crc, a->crd, MPI_INT,
					      g, info, &q[3]);
		MPI_Neighbor_alltoallw_init_c(&a->td, a->cwc, a->wsd, a->wst,
					      a->rw, a->cwc, a->wrd, a->wrt, g,
					      info, &q[4]);
	}
}

/* Starts the five persistent requests: all at once, or (odd ranks) one
 * by one from the last. */
static void start(MPI_Request *q, int r)
{
	int i;

	if (r % 2 == 0)
		MPI_Startall(5, q);
	for (i = 4; r % 2 && i >= 0; i--)
		MPI_Start(&q[i]);
}

/* What the form gave: row[0..1] allgather, [2..3] alltoall, [4..7]
 * allgatherv, [8..13] alltoallv, [14..15] alltoallw (times 10). */
static void report(const struct args *a, int *row)
{
	int i;

	for (i = 0; i < 2; i++) {
		row[i] = a->ag[i];
		row[2 + i] = a->at[i];
		row[14 + i] = -1;
	}
	for (i = 0; i < 4; i++)
		row[4 + i] = a->rgv[i];
	for (i = 0; i < 6; i++)
		row[8 + i] = a->rtv[i];
	for (i = 0; i < a->nin; i++)
		row[14 + i] = a->wrt[i] == MPI_DOUBLE ? (int)(a->rw[i].d * 10)
						      : 10 * a->rw[i].i;
}

static void run(int form, MPI_Comm line, MPI_Comm g, MPI_Info info, int r,
		int p, int *row)
{
	struct args a;
	MPI_Request q[5];
	int i;

	arrays(&a, r, p);
	fill(&a, r, 0);
	post(&a, form, line, g, info, q);
	if (form >= 2) { /* two starts, the data rewritten between */
		start(q, r);
		MPI_Waitall(5, q, MPI_STATUSES_IGNORE);
		fill(&a, r, 5000);
		start(q, r);
	}
	MPI_Waitall(5, q, MPI_STATUSES_IGNORE);
	for (i = 0; form >= 2 && i < 5; i++)
		MPI_Request_free(&q[i]);
	report(&a, row);
}

int main(int argc, char **argv)
{
	static const char *const forms[] = { "Ineighbor", "Ineighbor_c", "init",
					     "init_c" };
	int rank, size, f, i, j, periodic = 0, row[ROW], rows[8 * ROW];
	int src[2], dst[2], nin = 0, nout, s;
	MPI_Comm line, g;
	MPI_Info info;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &line);
	for (s = 0; s < size; s++) {
		int d[2], n = dests_of(s, size, d);

		for (i = 0; i < n; i++)
			if (d[i] == rank)
				src[nin++] = s;
	}
	nout = dests_of(rank, size, dst);
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, src, MPI_UNWEIGHTED,
				       nout, dst, MPI_UNWEIGHTED, MPI_INFO_NULL,
				       0, &g);
	MPI_Info_create(&info);
	MPI_Info_set(info, "no_such_hint", "ignored");
	for (f = 0; f < 4; f++) {
		run(f, line, g, info, rank, size, row);
		MPI_Gather(row, ROW, MPI_INT, rows, ROW, MPI_INT, 0,
			   MPI_COMM_WORLD);
		for (i = 0; rank == 0 && i < size; i++) {
			printf("%s rank %d: line", forms[f], i);
			for (j = 0; j < ROW; j++)
				printf("%s %d",
				       j == 4    ? "; graph allgatherv"
				       : j == 8  ? "; alltoallv"
				       : j == 14 ? "; alltoallw"
						 : "",
				       rows[ROW * i + j]);
			printf("\n");
		}
	}
	MPI_Info_free(&info);
	MPI_Comm_free(&g);
	MPI_Comm_free(&line);
	MPI_Finalize();
	return 0;
}
