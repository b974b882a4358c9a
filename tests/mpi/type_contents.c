/* type_contents.c - what a datatype says of itself and its external form:
 * MPI_Type_get_contents gives a constructor's arguments back (MPI 4.0
 * sec. 5.1.13), a derived datatype among them as a new handle that still
 * describes the type after the program freed the original; MPI-1's
 * MPI_LB and MPI_UB entries set a struct's bounds (MPI 1.1 sec. 3.12.3,
 * kept by MPICH); MPI_Get_elements counts the basic elements of a partial
 * item of mixed elements and a pair type's two (sec. 5.1.11); external32
 * packs big-endian at the external sizes (sec. 14.5.2: MPI_LONG in 4
 * bytes, long double as binary128) and unpacks back. Each rank checks
 * itself; rank 0 prints one line.
 * no-ref: Open MPI 4.1 refuses MPI_LB and MPI_UB (removed by MPI 3.0)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bad;

static void check(int ok, const char *what)
{
	if (!ok) {
		bad++;
		printf("FAILED: %s\n", what);
	}
}

static void contents(void)
{
	MPI_Datatype vec, idx, got[2];
	int bl[2] = { 2, 1 }, dis[2] = { 0, 5 }, ints[8], n[4];
	MPI_Aint addrs[2];

	MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
	MPI_Type_indexed(2, bl, dis, vec, &idx);
	MPI_Type_free(&vec); /* idx still holds it */
	MPI_Type_get_envelope(idx, &n[0], &n[1], &n[2], &n[3]);
	check(n[0] == 5 && n[1] == 0 && n[2] == 1 &&
		  n[3] == MPI_COMBINER_INDEXED, "indexed envelope");
	MPI_Type_get_contents(idx, 8, 2, 2, ints, addrs, got);
	check(ints[0] == 2 && ints[1] == 2 && ints[2] == 1 && ints[3] == 0 &&
		  ints[4] == 5, "indexed integers");
	MPI_Type_get_envelope(got[0], &n[0], &n[1], &n[2], &n[3]);
	check(n[3] == MPI_COMBINER_VECTOR && n[0] == 3, "inner envelope");
	MPI_Type_get_contents(got[0], 3, 0, 1, ints, addrs, &got[1]);
	check(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 &&
		  got[1] == MPI_INT, "vector arguments");
	MPI_Type_free(&got[0]);
	MPI_Type_free(&idx);
}

static void markers(void)
{
	int bl[3] = { 1, 1, 1 };
	MPI_Aint d[3] = { -8, 0, 40 }, lb, ext;
	MPI_Datatype ty[3] = { MPI_LB, MPI_INT, MPI_UB }, t;
	int size;

	MPI_Type_create_struct(3, bl, d, ty, &t);
	MPI_Type_get_extent(t, &lb, &ext);
	MPI_Type_size(t, &size);
	check(lb == -8 && ext == 48 && size == 4, "MPI_LB/MPI_UB bounds");
	MPI_Type_free(&t);
}

static void elements(void)
{
	struct { double a; int b; } buf[2];
	int bl[2] = { 1, 1 }, n;
	MPI_Aint d[2] = { 0, 8 };
	MPI_Datatype ty[2] = { MPI_DOUBLE, MPI_INT }, t;
	MPI_Status st;
	char bytes[20] = { 0 };

	MPI_Type_create_struct(2, bl, d, ty, &t);
	MPI_Type_commit(&t);
	/* one item and the double of the next: 3 elements */
	MPI_Sendrecv(bytes, 20, MPI_BYTE, 0, 1, buf, 2, t, 0, 1, MPI_COMM_SELF,
		     &st);
	MPI_Get_elements(&st, t, &n);
	check(n == 3, "elements of a struct item and a half");
	MPI_Sendrecv(buf, 1, MPI_DOUBLE_INT, 0, 2, buf + 1, 1, MPI_DOUBLE_INT,
		     0, 2, MPI_COMM_SELF, &st);
	MPI_Get_elements(&st, MPI_DOUBLE_INT, &n);
	check(n == 2, "elements of a pair");
	MPI_Type_free(&t);
}

static void external32(void)
{
	long l[2] = { 1, -2 };
	long double x = 1.0L, y = 0;
	unsigned char p[32], want_l[8] = { 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe };
	long back[2];
	MPI_Aint pos = 0, size;

	MPI_Pack_external_size("external32", 2, MPI_LONG, &size);
	check(size == 8, "external size of 2 longs");
	MPI_Pack_external("external32", l, 2, MPI_LONG, p, 32, &pos);
	check(pos == 8 && !memcmp(p, want_l, 8), "longs packed");
	pos = 0;
	MPI_Unpack_external("external32", p, 32, &pos, back, 2, MPI_LONG);
	check(back[0] == 1 && back[1] == -2, "longs unpacked");
	pos = 0;
	MPI_Pack_external("external32", &x, 1, MPI_LONG_DOUBLE, p, 32, &pos);
	check(pos == 16 && p[0] == 0x3f && p[1] == 0xff && p[2] == 0,
	      "long double as binary128");
	pos = 0;
	MPI_Unpack_external("external32", p, 32, &pos, &y, 1,
			    MPI_LONG_DOUBLE);
	check(y == 1.0L, "long double back");
}

int main(int argc, char **argv)
{
	int rank, np, all;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	contents();
	markers();
	elements();
	external32();
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("type contents on %d ranks: %s (%d bad)\n", np,
		       all ? "FAILED" : "ok", all);
	MPI_Finalize();
	return bad != 0;
}
