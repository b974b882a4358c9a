/* harness_calls.c - the calls MPICH's test suite's harness (util/mtest.c)
 * and its most common tests make, each checked against MPI 4.0:
 *   - info objects: keys kept in the order first set, a key set again
 *     replaced, MPI_Info_get truncating to valuelen, get_valuelen,
 *     get_nthkey, dup (same keys, same order), delete, free, and
 *     MPI_INFO_ENV's maxprocs (the job's size, when given);
 *   - MPI_Comm_split_type: MPI_COMM_TYPE_SHARED is every rank (one
 *     address space), ordered by key; _HW_UNGUIDED gives MPI_COMM_NULL;
 *   - MPI_Query_thread (MPI_THREAD_SINGLE, as MPI_Init gives), and
 *     MPI_Is_thread_main;
 *   - names: MPI_COMM_WORLD's own, a set name read back, a predefined
 *     datatype's ("MPI_INT"), a window's;
 *   - MPI_Group_range_incl and _excl with a negative stride;
 *   - MPI_Type_get_envelope: MPI_COMBINER_NAMED, a vector's (3, 0, 1);
 *   - window attributes: MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, a
 *     user keyval whose delete callback MPI_Win_free calls;
 *   - an intercommunicator of the two halves (2 ranks or more): its sizes,
 *     MPI_Comm_test_inter, MPI_Intercomm_merge with the low half's high
 *     true (the high half's ranks come first);
 *   - MPI_Buffer_attach and _detach around an MPI_Bsend, MPI_Testany and
 *     MPI_Testsome (all null: MPI_UNDEFINED), MPI_Alltoallw with a
 *     datatype per block.
 * Every rank checks; rank 0 prints the verdict.
 *
 * no-ref: Open MPI 4.1 here creates no window on one process, nor on
 *   any number with the single-copy mechanism off, as the reference runs
 *   need it (MPI_Win_create fails with MPI_ERR_WIN): the program checks
 *   its own results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;
static int deleted;

#define CHECK(cond, what)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			bad++;                                                 \
			printf("rank %d: %s\n", rank, what);                   \
		}                                                              \
	} while (0)

static int rank, size;

static int count_delete(MPI_Win win, int key, void *value, void *extra)
{
	(void)win, (void)key, (void)extra;
	deleted += *(int *)value;
	return MPI_SUCCESS;
}

static void info(void)
{
	MPI_Info in, dup;
	char v[MPI_MAX_INFO_VAL + 1], k[MPI_MAX_INFO_KEY + 1];
	int flag, n, len;

	MPI_Info_create(&in);
	MPI_Info_set(in, "file", "runfile.txt");
	MPI_Info_set(in, "soft", "2:1000:4");
	MPI_Info_set(in, "host", "here");
	MPI_Info_set(in, "file", "back.txt");
	MPI_Info_get_nkeys(in, &n);
	CHECK(n == 3, "info: three keys");
	MPI_Info_get_nthkey(in, 0, k);
	CHECK(!strcmp(k, "file"), "info: keys in the order first set");
	MPI_Info_get(in, "file", MPI_MAX_INFO_VAL, v, &flag);
	CHECK(flag && !strcmp(v, "back.txt"), "info: a key set again replaced");
	MPI_Info_get(in, "soft", 3, v, &flag);
	CHECK(flag && !strcmp(v, "2:1"), "info: get truncates to valuelen");
	MPI_Info_get_valuelen(in, "soft", &len, &flag);
	CHECK(flag && len == 8, "info: valuelen");
	MPI_Info_get(in, "none", MPI_MAX_INFO_VAL, v, &flag);
	CHECK(!flag, "info: an absent key");
	MPI_Info_dup(in, &dup);
	MPI_Info_delete(in, "soft");
	MPI_Info_get_nkeys(in, &n);
	CHECK(n == 2, "info: delete");
	MPI_Info_get_nthkey(in, 1, k);
	CHECK(!strcmp(k, "host"), "info: order kept after a delete");
	MPI_Info_get_nkeys(dup, &n);
	MPI_Info_get_nthkey(dup, 2, k);
	CHECK(n == 3 && !strcmp(k, "host"), "info: dup keeps keys and order");
	MPI_Info_free(&in);
	MPI_Info_free(&dup);
	CHECK(in == MPI_INFO_NULL, "info: free sets MPI_INFO_NULL");
	MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, v, &flag);
	CHECK(!flag || atoi(v) >= size, "info: MPI_INFO_ENV's maxprocs");
}

static void names_groups_types(void)
{
	char name[MPI_MAX_OBJECT_NAME];
	int len, ranges[1][3], n, ni, na, nt, comb, r;
	MPI_Comm dup;
	MPI_Group world, g;
	MPI_Datatype vec;

	MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
	CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14, "name: world");
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_name(dup, "my dup");
	MPI_Comm_get_name(dup, name, &len);
	CHECK(!strcmp(name, "my dup"), "name: set and read back");
	MPI_Comm_free(&dup);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank,
			    MPI_INFO_NULL, &dup);
	MPI_Comm_rank(dup, &r);
	CHECK(r == size - 1 - rank, "split_type: shared, by key");
	MPI_Comm_free(&dup);
#ifdef MPI_COMM_TYPE_HW_UNGUIDED /* MPI 4.0 */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0,
			    MPI_INFO_NULL, &dup);
	CHECK(dup == MPI_COMM_NULL, "split_type: no smaller hardware level");
#endif
	MPI_Query_thread(&n);
	MPI_Is_thread_main(&r);
	CHECK(n == MPI_THREAD_SINGLE && r, "threads: single, main");
	MPI_Type_get_name(MPI_INT, name, &len);
	CHECK(!strcmp(name, "MPI_INT"), "name: MPI_INT");

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	ranges[0][0] = size - 1; /* every rank, from the last down */
	ranges[0][1] = 0;
	ranges[0][2] = -1;
	MPI_Group_range_incl(world, 1, ranges, &g);
	MPI_Group_rank(g, &r);
	CHECK(r == size - 1 - rank, "group: range_incl, stride -1");
	MPI_Group_free(&g);
	MPI_Group_range_excl(world, 1, ranges, &g);
	MPI_Group_size(g, &n);
	CHECK(n == 0, "group: range_excl of every rank is empty");
	MPI_Group_free(&g);
	MPI_Group_free(&world);

	MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nt, &comb);
	CHECK(comb == MPI_COMBINER_NAMED && !ni && !na && !nt,
	      "envelope: MPI_DOUBLE is named");
	MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
	MPI_Type_get_envelope(vec, &ni, &na, &nt, &comb);
	CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && !na && nt == 1,
	      "envelope: a vector");
	MPI_Type_free(&vec);
}

static void windows(void)
{
	int mem[4], *unit, flag, key, one = 1;
	MPI_Aint *sz;
	void *base;
	char name[MPI_MAX_OBJECT_NAME];
	MPI_Win win;

	MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
	CHECK(flag && base == mem, "window: MPI_WIN_BASE");
	MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag);
	CHECK(flag && *sz == (MPI_Aint)sizeof(mem), "window: MPI_WIN_SIZE");
	MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
	CHECK(flag && *unit == (int)sizeof(int), "window: MPI_WIN_DISP_UNIT");
	MPI_Win_set_name(win, "halo");
	MPI_Win_get_name(win, name, &flag);
	CHECK(!strcmp(name, "halo"), "window: name");
	MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, NULL);
	MPI_Win_set_attr(win, key, &one);
	MPI_Win_free(&win);
	CHECK(deleted == 1, "window: MPI_Win_free calls the delete callback");
	MPI_Win_free_keyval(&key);
}

static void intercomm(void)
{
	MPI_Comm half, inter, merged;
	int low = rank < size / 2, flag, n, r;

	if (size < 2)
		return;
	MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7,
			     &inter);
	MPI_Comm_test_inter(inter, &flag);
	CHECK(flag, "intercomm: test_inter");
	MPI_Comm_size(inter, &n);
	CHECK(n == (low ? size / 2 : size - size / 2), "intercomm: local size");
	MPI_Comm_remote_size(inter, &n);
	CHECK(n == (low ? size - size / 2 : size / 2), "intercomm: remote size");
	MPI_Intercomm_merge(inter, low, &merged); /* the high half first */
	MPI_Comm_rank(merged, &r);
	CHECK(r == (low ? size - size / 2 + rank : rank - size / 2),
	      "intercomm: merge puts the group with high false first");
	MPI_Comm_free(&merged);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
}

static void requests_alltoallw(void)
{
	MPI_Request reqs[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	int idx, flag, out, *sc, *sd, *rc, *rd, i, x = rank, y = -1;
	char *buf = malloc(100 + MPI_BSEND_OVERHEAD);
	void *back;
	MPI_Datatype *st, *rt;
	double *dsend, *drecv;

	MPI_Buffer_attach(buf, 100 + MPI_BSEND_OVERHEAD);
	MPI_Bsend(&x, 1, MPI_INT, rank, 3, MPI_COMM_WORLD);
	MPI_Recv(&y, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Buffer_detach(&back, &out);
	CHECK(y == rank && back == buf && out == 100 + MPI_BSEND_OVERHEAD,
	      "buffer: attach, bsend, detach");
	free(buf);

	MPI_Testany(2, reqs, &idx, &flag, MPI_STATUS_IGNORE);
	CHECK(flag && idx == MPI_UNDEFINED, "testany: all null");
	MPI_Testsome(2, reqs, &out, &idx, MPI_STATUSES_IGNORE);
	CHECK(out == MPI_UNDEFINED, "testsome: all null");
	MPI_Irecv(&y, 1, MPI_INT, rank, 4, MPI_COMM_WORLD, &reqs[1]);
	MPI_Send(&x, 1, MPI_INT, rank, 4, MPI_COMM_WORLD);
	do
		MPI_Testany(2, reqs, &idx, &flag, MPI_STATUS_IGNORE);
	while (!flag);
	CHECK(idx == 1 && reqs[1] == MPI_REQUEST_NULL, "testany: index");

	/* rank r sends i + 1 doubles to rank i, as doubles, and receives
	 * r + 1 of them from each as ints laid out by byte displacement */
	sc = malloc(4 * size * sizeof(int));
	sd = sc + size, rc = sd + size, rd = rc + size;
	st = malloc(2 * size * sizeof(MPI_Datatype));
	rt = st + size;
	dsend = malloc(size * size * sizeof(double));
	drecv = malloc(size * size * sizeof(double));
	for (i = 0; i < size; i++) {
		sc[i] = i + 1;
		sd[i] = i * size * (int)sizeof(double);
		rc[i] = rank + 1;
		rd[i] = i * size * (int)sizeof(double);
		st[i] = rt[i] = MPI_DOUBLE;
		for (idx = 0; idx < size; idx++)
			dsend[i * size + idx] = 1000 * rank + i;
	}
	MPI_Alltoallw(dsend, sc, sd, st, drecv, rc, rd, rt, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		CHECK(drecv[i * size] == 1000 * i + rank &&
			  drecv[i * size + rank] == 1000 * i + rank,
		      "alltoallw: blocks");
	free(sc);
	free(st);
	free(dsend);
	free(drecv);
}

int main(int argc, char **argv)
{
	int all_bad;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	info();
	names_groups_types();
	windows();
	intercomm();
	requests_alltoallw();
	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("harness calls on %d ranks: %s (%d bad)\n", size,
		       all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
