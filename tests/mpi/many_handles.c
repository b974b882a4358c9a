/* many_handles.c - a program holds many objects of every kind at once and
 * uses each: 1030 communicators from MPI_Comm_dup (a message around a
 * ring on each, before and while 100 intercommunicators between the even
 * and the odd ranks are held: an all-reduce over each), 100 Cartesian
 * grids, 100 windows (a put on each), 1000 keyvals (an attribute of each
 * on MPI_COMM_WORLD), 1000 datatypes (a message of each), 1000 receives
 * pending at once and matched later by sends in reverse order, 1000
 * persistent requests, 100 nonblocking collectives, 1000 generalized
 * requests, 1000 matched messages (MPI_Mprobe) held before they are
 * received, 1000 info objects, groups and user ops (MPI_Reduce_local),
 * 4100 communicator error handlers (called on MPI_COMM_SELF) and a
 * window's. Every handle of a kind is distinct; comm and window error
 * handlers too. Then everything is freed. Rank 0 prints one line per kind
 * with a sum over every rank of what was computed. (The counts keep the
 * run short under the sanitizers.)
 *
 * ref-osc: sm,pt2pt
 * san-np: 2
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOMM 1030
#define NINTER 100
#define NCART 100
#define NWIN 100
#define NKEY 1000
#define NTYPE 1000
#define NREQ 1000
#define NPERS 1000
#define NNBC 100
#define NGREQ 1000
#define NMSG 1000
#define NINFO 1000
#define NGROUP 1000
#define NERRH 4100
#define NOP 1000

static int r, p, bad;

/* Prints the sum over every rank of mine (rank 0). */
static void report(const char *what, long mine)
{
	long all = 0;

	MPI_Reduce(&mine, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r == 0)
		printf("%s: %ld\n", what, all);
}

/* How many handles of the n in h (each size bytes) repeat another. */
static size_t hsize;

static int cmp(const void *a, const void *b)
{
	return memcmp(a, b, hsize);
}

static int repeats(const void *h, int n, size_t size)
{
	char *s = malloc((size_t)n * size);
	int i, k = 0;

	memcpy(s, h, (size_t)n * size);
	hsize = size;
	qsort(s, (size_t)n, size, cmp);
	for (i = 1; i < n; i++)
		k += !memcmp(s + i * size, s + (i - 1) * size, size);
	free(s);
	return k;
}

static MPI_Comm c[NCOMM];

/* A message around the ring on each of the communicators held. */
static long comms_use(void)
{
	long sum = 0;
	int i, got;

	for (i = 0; i < NCOMM; i++) {
		int v = r * NCOMM + i;

		MPI_Sendrecv(&v, 1, MPI_INT, (r + 1) % p, i, &got, 1, MPI_INT,
			     (r + p - 1) % p, i, c[i], MPI_STATUS_IGNORE);
		sum += got;
	}
	return sum;
}

static void comms(void)
{
	int i;

	for (i = 0; i < NCOMM; i++)
		MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
	bad += repeats(c, NCOMM, sizeof(c[0]));
	report("communicators (dup) held and used", comms_use());
}

/* The same communicators, used again beside the intercommunicators. */
static void comms_free(void)
{
	long sum = comms_use();
	int i;

	for (i = 0; i < NCOMM; i++)
		MPI_Comm_free(&c[i]);
	report("communicators used again and freed", sum);
}

static void inters(void)
{
	static MPI_Comm ic[NINTER];
	MPI_Comm half;
	long sum = 0;
	int i, got;

	if (p < 2) {
		report("intercommunicators held and used (none on one rank)", 0);
		return;
	}
	MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
	for (i = 0; i < NINTER; i++)
		MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - r % 2, i,
				     &ic[i]);
	bad += repeats(ic, NINTER, sizeof(ic[0]));
	for (i = 0; i < NINTER; i++) {
		int v = r + i;

		MPI_Allreduce(&v, &got, 1, MPI_INT, MPI_SUM, ic[i]);
		sum += got;
	}
	for (i = 0; i < NINTER; i++)
		MPI_Comm_free(&ic[i]);
	MPI_Comm_free(&half);
	report("intercommunicators held and used", sum);
}

static void carts(void)
{
	static MPI_Comm g[NCART];
	int i, dims[1] = { p }, periods[1] = { 1 }, src, dst;
	long sum = 0;

	for (i = 0; i < NCART; i++)
		MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &g[i]);
	bad += repeats(g, NCART, sizeof(g[0]));
	for (i = 0; i < NCART; i++) {
		MPI_Cart_shift(g[i], 0, i % 3, &src, &dst);
		sum += src + dst;
	}
	for (i = 0; i < NCART; i++)
		MPI_Comm_free(&g[i]);
	report("Cartesian communicators held", sum);
}

static void windows(void)
{
	static MPI_Win w[NWIN];
	static int mem[NWIN];
	long sum = 0;
	int i;

	for (i = 0; i < NWIN; i++)
		MPI_Win_create(&mem[i], sizeof(int), sizeof(int),
			       MPI_INFO_NULL, MPI_COMM_WORLD, &w[i]);
	bad += repeats(w, NWIN, sizeof(w[0]));
	for (i = 0; i < NWIN; i++) {
		int v = r * NWIN + i;

		MPI_Win_fence(0, w[i]);
		MPI_Put(&v, 1, MPI_INT, (r + 1) % p, 0, 1, MPI_INT, w[i]);
	}
	for (i = 0; i < NWIN; i++) {
		MPI_Win_fence(0, w[i]);
		sum += mem[i];
	}
	for (i = 0; i < NWIN; i++)
		MPI_Win_free(&w[i]);
	report("windows held and put to", sum);
}

static void keyvals(void)
{
	static int k[NKEY];
	long sum = 0;
	int i, flag;
	void *v;

	for (i = 0; i < NKEY; i++) {
		MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
				       MPI_COMM_NULL_DELETE_FN, &k[i], NULL);
		MPI_Comm_set_attr(MPI_COMM_WORLD, k[i],
				  (void *)(MPI_Aint)(r + i));
	}
	bad += repeats(k, NKEY, sizeof(k[0]));
	for (i = 0; i < NKEY; i++) {
		MPI_Comm_get_attr(MPI_COMM_WORLD, k[i], &v, &flag);
		sum += flag ? (long)(MPI_Aint)v : -1000000;
	}
	for (i = 0; i < NKEY; i++) {
		MPI_Comm_delete_attr(MPI_COMM_WORLD, k[i]);
		MPI_Comm_free_keyval(&k[i]);
	}
	report("keyvals held, an attribute each", sum);
}

static void types(void)
{
	static MPI_Datatype t[NTYPE];
	int i, j, in[8], out[8];
	long sum = 0;

	for (i = 0; i < NTYPE; i++) {
		MPI_Type_contiguous(i % 8 + 1, MPI_INT, &t[i]);
		MPI_Type_commit(&t[i]);
	}
	bad += repeats(t, NTYPE, sizeof(t[0]));
	for (i = 0; i < NTYPE; i++) {
		for (j = 0; j < 8; j++) {
			in[j] = r + i + j;
			out[j] = 0;
		}
		MPI_Sendrecv(in, 1, t[i], 0, 0, out, 1, t[i], 0, 0,
			     MPI_COMM_SELF, MPI_STATUS_IGNORE);
		for (j = 0; j < 8; j++)
			sum += out[j];
	}
	for (i = 0; i < NTYPE; i++)
		MPI_Type_free(&t[i]);
	report("datatypes held, a message each", sum);
}

static void requests(void)
{
	static MPI_Request q[NREQ];
	static int got[NREQ];
	long sum = 0;
	int i;

	for (i = 0; i < NREQ; i++)
		MPI_Irecv(&got[i], 1, MPI_INT, (r + p - 1) % p, i,
			  MPI_COMM_WORLD, &q[i]);
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = NREQ - 1; i >= 0; i--) {
		int v = r + 2 * i;

		MPI_Send(&v, 1, MPI_INT, (r + 1) % p, i, MPI_COMM_WORLD);
	}
	MPI_Waitall(NREQ, q, MPI_STATUSES_IGNORE);
	for (i = 0; i < NREQ; i++)
		sum += got[i];
	report("receives pending at once, matched in reverse", sum);
}

static void persistent(void)
{
	static MPI_Request q[2 * NPERS];
	static int in[NPERS], out[NPERS];
	long sum = 0;
	int i, round;

	for (i = 0; i < NPERS; i++) {
		MPI_Recv_init(&in[i], 1, MPI_INT, (r + p - 1) % p, i,
			      MPI_COMM_WORLD, &q[i]);
		MPI_Send_init(&out[i], 1, MPI_INT, (r + 1) % p, i,
			      MPI_COMM_WORLD, &q[NPERS + i]);
	}
	for (round = 0; round < 2; round++) {
		for (i = 0; i < NPERS; i++)
			out[i] = r + i + round;
		MPI_Startall(2 * NPERS, q);
		MPI_Waitall(2 * NPERS, q, MPI_STATUSES_IGNORE);
		for (i = 0; i < NPERS; i++)
			sum += in[i];
	}
	for (i = 0; i < 2 * NPERS; i++)
		MPI_Request_free(&q[i]);
	report("persistent requests held, started twice", sum);
}

static void nbcs(void)
{
	static MPI_Request q[NNBC];
	static int in[NNBC], out[NNBC];
	long sum = 0;
	int i;

	for (i = 0; i < NNBC; i++) {
		in[i] = r * i;
		MPI_Iallreduce(&in[i], &out[i], 1, MPI_INT, MPI_SUM,
			       MPI_COMM_WORLD, &q[i]);
	}
	MPI_Waitall(NNBC, q, MPI_STATUSES_IGNORE);
	for (i = 0; i < NNBC; i++)
		sum += out[i];
	report("nonblocking collectives pending at once", sum);
}

static int gquery(void *extra, MPI_Status *st)
{
	MPI_Status_set_elements(st, MPI_INT, *(int *)extra);
	MPI_Status_set_cancelled(st, 0);
	st->MPI_SOURCE = MPI_UNDEFINED;
	st->MPI_TAG = MPI_UNDEFINED;
	return MPI_SUCCESS;
}

static int gfree(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int gcancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

static void grequests(void)
{
	static MPI_Request q[NGREQ];
	static MPI_Status st[NGREQ];
	static int n[NGREQ];
	long sum = 0;
	int i, c;

	for (i = 0; i < NGREQ; i++) {
		n[i] = i % 5;
		MPI_Grequest_start(gquery, gfree, gcancel, &n[i], &q[i]);
	}
	for (i = NGREQ - 1; i >= 0; i--)
		MPI_Grequest_complete(q[i]);
	MPI_Waitall(NGREQ, q, st);
	for (i = 0; i < NGREQ; i++) {
		MPI_Get_count(&st[i], MPI_INT, &c);
		sum += c;
	}
	report("generalized requests held", sum);
}

static void messages(void)
{
	static MPI_Request q[NMSG];
	static MPI_Message m[NMSG];
	static int v[NMSG];
	long sum = 0;
	int i, got;

	for (i = 0; i < NMSG; i++) {
		v[i] = r + 3 * i;
		MPI_Isend(&v[i], 1, MPI_INT, (r + 1) % p, i, MPI_COMM_WORLD,
			  &q[i]);
	}
	for (i = 0; i < NMSG; i++)
		MPI_Mprobe((r + p - 1) % p, i, MPI_COMM_WORLD, &m[i],
			   MPI_STATUS_IGNORE);
	for (i = NMSG - 1; i >= 0; i--) {
		MPI_Mrecv(&got, 1, MPI_INT, &m[i], MPI_STATUS_IGNORE);
		sum += got;
	}
	MPI_Waitall(NMSG, q, MPI_STATUSES_IGNORE);
	report("matched messages held", sum);
}

static void infos(void)
{
	static MPI_Info in[NINFO];
	char key[16], val[16];
	long sum = 0;
	int i, flag;

	for (i = 0; i < NINFO; i++) {
		MPI_Info_create(&in[i]);
		snprintf(val, sizeof(val), "%d", r + i);
		MPI_Info_set(in[i], "n", val);
	}
	bad += repeats(in, NINFO, sizeof(in[0]));
	for (i = 0; i < NINFO; i++) {
		snprintf(key, sizeof(key), "n");
		MPI_Info_get(in[i], key, sizeof(val) - 1, val, &flag);
		sum += flag ? atoi(val) : -1000000;
	}
	for (i = 0; i < NINFO; i++)
		MPI_Info_free(&in[i]);
	report("info objects held", sum);
}

static void groups(void)
{
	static MPI_Group g[NGROUP];
	MPI_Group world;
	long sum = 0;
	int i, one, rank;

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	for (i = 0; i < NGROUP; i++) {
		one = i % p;
		MPI_Group_incl(world, 1, &one, &g[i]);
	}
	bad += repeats(g, NGROUP, sizeof(g[0]));
	for (i = 0; i < NGROUP; i++) {
		MPI_Group_rank(g[i], &rank);
		sum += rank == 0 ? 1 : 0;
	}
	for (i = 0; i < NGROUP; i++)
		MPI_Group_free(&g[i]);
	MPI_Group_free(&world);
	report("groups held (a member of)", sum);
}

static long called;

static void on_error(MPI_Comm *comm, int *code, ...)
{
	(void)comm;
	called += *code;
}

static void on_win_error(MPI_Win *win, int *code, ...)
{
	(void)win;
	(void)code;
}

static void errhandlers(void)
{
	static MPI_Errhandler e[NERRH + 1];
	int i;

	for (i = 0; i < NERRH; i++)
		MPI_Comm_create_errhandler(on_error, &e[i]);
	MPI_Win_create_errhandler(on_win_error, &e[NERRH]);
	bad += repeats(e, NERRH + 1, sizeof(e[0]));
	called = 0;
	for (i = 0; i < NERRH; i++) {
		MPI_Comm_set_errhandler(MPI_COMM_SELF, e[i]);
		MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER);
	}
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
	for (i = 0; i <= NERRH; i++)
		MPI_Errhandler_free(&e[i]);
	report("error handlers held and called (codes summed)",
	       called / MPI_ERR_OTHER);
}

static void add_fn(void *in, void *inout, int *len, MPI_Datatype *t)
{
	(void)t;
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] += ((int *)in)[i];
}

static void ops(void)
{
	static MPI_Op o[NOP];
	long sum = 0;
	int i, in, acc;

	for (i = 0; i < NOP; i++)
		MPI_Op_create(add_fn, 1, &o[i]);
	bad += repeats(o, NOP, sizeof(o[0]));
	for (i = 0; i < NOP; i++) {
		in = r + i;
		acc = 1;
		MPI_Reduce_local(&in, &acc, 1, MPI_INT, o[i]);
		sum += acc;
	}
	in = r;
	MPI_Allreduce(&in, &acc, 1, MPI_INT, o[NOP - 1], MPI_COMM_WORLD);
	sum += acc;
	for (i = 0; i < NOP; i++)
		MPI_Op_free(&o[i]);
	report("user ops held and applied", sum);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	comms();
	inters();
	comms_free();
	carts();
	windows();
	keyvals();
	types();
	requests();
	persistent();
	nbcs();
	grequests();
	messages();
	infos();
	groups();
	errhandlers();
	ops();
	report("handles of one kind repeated while held", bad);
	MPI_Finalize();
	return 0;
}
