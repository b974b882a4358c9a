/*
 * mpi_type.c - MPI datatypes on vp, which moves bytes: a datatype is its
 * typemap flattened into byte blocks (struct vpmpi_type). A message of a
 * datatype whose items lie in one run of bytes is sent from the user's
 * buffer as it is; any other is packed into a copy (and a receive unpacked
 * from one), which is what MPI implementations do for non-contiguous types
 * in shared memory too. Bounds and extents follow the MPI standard
 * (sec. 4.1): a struct's extent is rounded up to the alignment of its
 * widest element, as the C compiler lays out the struct it describes.
 * Derived datatypes belong to the rank that built them (handles from 64).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vpmpi.h"

/* ---- the predefined types ---- */

struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct two_int { int v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

#define BASIC(h, t)                                                            \
	[h] = { .name = #h, .size = sizeof(t), .extent = sizeof(t),            \
		.true_extent = sizeof(t), .align = _Alignof(t), .nblocks = 1,  \
		.elem = h, .nelems = 1, .committed = 1,                        \
		.one = { 0, sizeof(t), sizeof(t), h } }
/* a named type whose elements are those of basic type e (a Fortran type
 * named in C, MPI 4.0 sec. 19.1.17: MPI_INTEGER is an int) */
#define BASIC_AS(h, t, e)                                                      \
	[h] = { .name = #h, .size = sizeof(t), .extent = sizeof(t),            \
		.true_extent = sizeof(t), .align = _Alignof(t), .nblocks = 1,  \
		.elem = e, .nelems = 1, .committed = 1,                        \
		.one = { 0, sizeof(t), sizeof(t), e } }
/* two values of basic type e (MPI_2REAL ...): two elements */
#define TWO_AS(h, t, e)                                                        \
	[h] = { .name = #h, .size = 2 * sizeof(t), .extent = 2 * sizeof(t),    \
		.true_extent = 2 * sizeof(t), .align = _Alignof(t),            \
		.nblocks = 1, .elem = e, .nelems = 2, .committed = 1,          \
		.one = { 0, 2 * sizeof(t), sizeof(t), e } }
/* a pair: the value's bytes and the int's (blocks set at start-up) */
#define PAIR(h, t)                                                             \
	[h] = { .name = #h, .size = sizeof(((t *)0)->v) + sizeof(int),         \
		.extent = sizeof(t), .true_extent = sizeof(t),                 \
		.align = _Alignof(t), .nblocks = 2, .elem = h, .nelems = 1,    \
		.committed = 1 }

struct vpmpi_type vpmpi_basic[VPMPI_FIRST_TYPE] = {
    BASIC(MPI_CHAR, char),
    BASIC(MPI_SIGNED_CHAR, signed char),
    BASIC(MPI_UNSIGNED_CHAR, unsigned char),
    BASIC(MPI_BYTE, unsigned char),
    BASIC(MPI_SHORT, short),
    BASIC(MPI_UNSIGNED_SHORT, unsigned short),
    BASIC(MPI_INT, int),
    BASIC(MPI_UNSIGNED, unsigned),
    BASIC(MPI_LONG, long),
    BASIC(MPI_UNSIGNED_LONG, unsigned long),
    BASIC(MPI_LONG_LONG_INT, long long),
    BASIC(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    BASIC(MPI_FLOAT, float),
    BASIC(MPI_DOUBLE, double),
    BASIC(MPI_LONG_DOUBLE, long double),
    BASIC(MPI_INT8_T, signed char),
    BASIC(MPI_INT16_T, short),
    BASIC(MPI_INT32_T, int),
    BASIC(MPI_INT64_T, long long),
    BASIC(MPI_UINT8_T, unsigned char),
    BASIC(MPI_UINT16_T, unsigned short),
    BASIC(MPI_UINT32_T, unsigned),
    BASIC(MPI_UINT64_T, unsigned long long),
    BASIC(MPI_C_BOOL, _Bool),
    BASIC(MPI_PACKED, unsigned char),
    BASIC(MPI_WCHAR, int),
    PAIR(MPI_FLOAT_INT, struct float_int),
    PAIR(MPI_DOUBLE_INT, struct double_int),
    PAIR(MPI_LONG_INT, struct long_int),
    PAIR(MPI_2INT, struct two_int),
    PAIR(MPI_SHORT_INT, struct short_int),
    PAIR(MPI_LONG_DOUBLE_INT, struct long_double_int),
    BASIC(MPI_AINT, MPI_Aint),
    BASIC(MPI_OFFSET, MPI_Offset),
    BASIC(MPI_COUNT, MPI_Count),
    BASIC(MPI_C_FLOAT_COMPLEX, float _Complex),
    BASIC(MPI_C_DOUBLE_COMPLEX, double _Complex),
    BASIC(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    BASIC_AS(MPI_CXX_BOOL, _Bool, MPI_C_BOOL),
    BASIC_AS(MPI_CXX_FLOAT_COMPLEX, float _Complex, MPI_C_FLOAT_COMPLEX),
    BASIC_AS(MPI_CXX_DOUBLE_COMPLEX, double _Complex, MPI_C_DOUBLE_COMPLEX),
    BASIC_AS(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex,
	     MPI_C_LONG_DOUBLE_COMPLEX),
    BASIC_AS(MPI_INTEGER, int, MPI_INT),
    BASIC_AS(MPI_REAL, float, MPI_FLOAT),
    BASIC_AS(MPI_DOUBLE_PRECISION, double, MPI_DOUBLE),
    BASIC_AS(MPI_COMPLEX, float _Complex, MPI_C_FLOAT_COMPLEX),
    BASIC_AS(MPI_DOUBLE_COMPLEX, double _Complex, MPI_C_DOUBLE_COMPLEX),
    BASIC(MPI_LOGICAL, int),
    BASIC_AS(MPI_CHARACTER, char, MPI_CHAR),
    BASIC_AS(MPI_INTEGER1, signed char, MPI_INT8_T),
    BASIC_AS(MPI_INTEGER2, short, MPI_INT16_T),
    BASIC_AS(MPI_INTEGER4, int, MPI_INT32_T),
    BASIC_AS(MPI_INTEGER8, long long, MPI_INT64_T),
    BASIC_AS(MPI_REAL4, float, MPI_FLOAT),
    BASIC_AS(MPI_REAL8, double, MPI_DOUBLE),
    BASIC_AS(MPI_COMPLEX8, float _Complex, MPI_C_FLOAT_COMPLEX),
    BASIC_AS(MPI_COMPLEX16, double _Complex, MPI_C_DOUBLE_COMPLEX),
    TWO_AS(MPI_2INTEGER, int, MPI_INT),
    TWO_AS(MPI_2REAL, float, MPI_FLOAT),
    TWO_AS(MPI_2DOUBLE_PRECISION, double, MPI_DOUBLE),
    BASIC(MPI_INTEGER16, __int128),
    /* the bound markers: no data, no extent, no elements */
    [MPI_LB] = { .name = "MPI_LB", .align = 1, .committed = 1 },
    [MPI_UB] = { .name = "MPI_UB", .align = 1, .committed = 1 },
};

#define NBASIC VPMPI_FIRST_TYPE

/* the pairs' two blocks: value at 0, int at offsetof(.., i) */
static struct vpmpi_block pair_blocks[MPI_LONG_DOUBLE_INT + 1][2];

static const char *type_kind(MPI_Datatype type);

static __attribute__((constructor)) void basic_init(void)
{
	int h;

	for (h = 1; h < NBASIC; h++)
		vpmpi_basic[h].blocks = &vpmpi_basic[h].one;
	vpmpi_basic[MPI_C_FLOAT_COMPLEX].name = "MPI_C_COMPLEX";
#define PAIR_BLOCKS(h, t, vt)                                                    \
	pair_blocks[h][0] = (struct vpmpi_block){ 0, sizeof(((t *)0)->v),       \
						  sizeof(((t *)0)->v), vt };    \
	pair_blocks[h][1] = (struct vpmpi_block){                               \
	    (long)__builtin_offsetof(t, i), sizeof(int), sizeof(int), MPI_INT }; \
	vpmpi_basic[h].blocks = pair_blocks[h];                                      \
	vpmpi_basic[h].true_extent = pair_blocks[h][1].off + (long)sizeof(int);
	PAIR_BLOCKS(MPI_FLOAT_INT, struct float_int, MPI_FLOAT)
	PAIR_BLOCKS(MPI_DOUBLE_INT, struct double_int, MPI_DOUBLE)
	PAIR_BLOCKS(MPI_LONG_INT, struct long_int, MPI_LONG)
	PAIR_BLOCKS(MPI_2INT, struct two_int, MPI_INT)
	PAIR_BLOCKS(MPI_SHORT_INT, struct short_int, MPI_SHORT)
	PAIR_BLOCKS(MPI_LONG_DOUBLE_INT, struct long_double_int, MPI_LONG_DOUBLE)
	/* a pair whose int follows a value of its size is one block */
	for (h = MPI_FLOAT_INT; h <= MPI_LONG_DOUBLE_INT; h++)
		if (pair_blocks[h][1].off == pair_blocks[h][0].len &&
		    vpmpi_block_joins(&pair_blocks[h][0], sizeof(int),
				      MPI_INT)) {
			pair_blocks[h][0].len += (long)sizeof(int);
			vpmpi_basic[h].nblocks = 1;
		}
	for (h = 1; h < NBASIC; h++)
		vpmpi_basic[h].kind = type_kind(h);
}

const char *vpmpi_type_name(MPI_Datatype t)
{
	return t > 0 && t < NBASIC && vpmpi_basic[t].name ? vpmpi_basic[t].name
						     : "a derived datatype";
}

/* What vp_msg_types calls the elements of type (kept in its kind). */
static const char *type_kind(MPI_Datatype type)
{
	static const char *const ints[] = {
	    [2] = "2-byte integer", [4] = "4-byte integer",
	    [8] = "8-byte integer"};
	const struct vpmpi_type *t = vpmpi_lookup(type), *e;

	if (!t || !t->elem)
		return NULL;
	switch (t->elem) {
	case MPI_FLOAT:
		return "4-byte float";
	case MPI_DOUBLE:
		return "8-byte float";
	case MPI_LONG_DOUBLE:
		return "long double";
	case MPI_2INT:
		return ints[sizeof(int)];
	case MPI_SHORT: case MPI_UNSIGNED_SHORT: case MPI_INT:
	case MPI_UNSIGNED: case MPI_LONG: case MPI_UNSIGNED_LONG:
	case MPI_LONG_LONG_INT: case MPI_UNSIGNED_LONG_LONG:
	case MPI_INT16_T: case MPI_INT32_T: case MPI_INT64_T:
	case MPI_UINT16_T: case MPI_UINT32_T: case MPI_UINT64_T:
	case MPI_AINT: case MPI_OFFSET: case MPI_COUNT:
		e = vpmpi_lookup(t->elem);
		return e && e->size <= 8 ? ints[e->size] : NULL;
	default:
		return NULL; /* bytes, characters, pairs of mixed types */
	}
}

const struct vpmpi_type *vpmpi_type_any(MPI_Datatype t, const char *call)
{
	const struct vpmpi_type *ty = vpmpi_lookup(t);

	if (!ty)
		vpmpi_fail(MPI_ERR_TYPE, call,
			   t == MPI_DATATYPE_NULL
			       ? "datatype is MPI_DATATYPE_NULL"
			       : "datatype %d is not a datatype of this rank "
				 "(freed, or never made)",
			   t);
	return ty;
}

const struct vpmpi_type *vpmpi_type_failed(MPI_Comm h, MPI_Datatype t,
					   const char *call)
{
	const struct vpmpi_type *ty = vpmpi_lookup(t);

	if (!ty)
		vpmpi_err(h, MPI_ERR_TYPE, call,
			  t == MPI_DATATYPE_NULL
			      ? "datatype is MPI_DATATYPE_NULL"
			      : "datatype %d is not a datatype of this rank "
				"(freed, or never made)",
			  t);
	else if (!ty->committed) {
		vpmpi_err(h, MPI_ERR_TYPE, call,
			  "datatype %d is not committed (MPI_Type_commit)", t);
		return NULL;
	}
	return ty;
}

int vpmpi_absolute(const struct vpmpi_type *t)
{
	/* below the first page no object has an address */
	return t->true_lb >= 4096 && t->size;
}

long vpmpi_bytes(MPI_Comm h, int count, MPI_Datatype type, const char *call)
{
	const struct vpmpi_type *t = vpmpi_type(h, type, call);

	if (!t)
		return -1;
	if (count < 0)
		return vpmpi_err(h, MPI_ERR_COUNT, call, "count %d is negative",
				 count),
		       -1;
	return (long)count * t->size;
}

/* count blocks of len bytes, stride apart in the user's layout (at
 * user), packed one after another (at packed): gathered into packed
 * (in 1) or scattered out of it (in 0). A block of a basic type's size
 * is one move rather than a call: a type of one small block with gaps
 * (every second char, say) costs a move an item. */
#define STRIDED(n)                                                             \
	for (i = 0; i < count; i++)                                            \
		if (in)                                                        \
			memcpy(packed + i * (n), user + i * stride, (n));      \
		else                                                           \
			memcpy(user + i * stride, packed + i * (n), (n))
static void strided(char *user, char *packed, long count, long stride,
		    long len, int in)
{
	long i;

	switch (len) {
	case 1: STRIDED(1); break;
	case 2: STRIDED(2); break;
	case 4: STRIDED(4); break;
	case 8: STRIDED(8); break;
	case 16: STRIDED(16); break;
	default: STRIDED((size_t)len); break;
	}
}
#undef STRIDED

void vpmpi_strided(char *user, char *packed, long count, long stride,
		   long len, int in)
{
	strided(user, packed, count, stride, len, in);
}

void vpmpi_pack(const struct vpmpi_type *t, long count, const void *buf,
		void *packed)
{
	const char *in = buf;
	char *out = packed;
	long i;
	int b;

	if (t->tree) {
		vpmpi_tree_copy(t, count, (char *)in, out, count * t->size, 1);
		return;
	}
	if (vpmpi_dense(t)) {
		if (t->size && count)
			memcpy(out, in, (size_t)count * (size_t)t->size);
		return;
	}
	if (t->nblocks == 1) {
		strided((char *)in + t->blocks[0].off, out, count, t->extent,
			t->blocks[0].len, 1);
		return;
	}
	for (i = 0; i < count; i++, in += t->extent)
		for (b = 0; b < t->nblocks; b++) {
			memcpy(out, in + t->blocks[b].off,
			       (size_t)t->blocks[b].len);
			out += t->blocks[b].len;
		}
}

void vpmpi_unpack(const struct vpmpi_type *t, long count, const void *packed,
		  long bytes, void *buf)
{
	const char *in = packed;
	char *out = buf;
	long len;
	long i;
	int b;

	if (t->tree) {
		vpmpi_tree_copy(t, count, out, (char *)in, bytes, 0);
		return;
	}
	if (vpmpi_dense(t)) {
		len = (long)count * t->size;
		if (bytes < len)
			len = bytes;
		if (len > 0)
			memcpy(out, in, (size_t)len);
		return;
	}
	if (t->nblocks == 1 && bytes >= count * t->size) {
		strided(out + t->blocks[0].off, (char *)in, count, t->extent,
			t->blocks[0].len, 0);
		return;
	}
	for (i = 0; i < count && bytes > 0; i++, out += t->extent)
		for (b = 0; b < t->nblocks && bytes > 0; b++) {
			len = t->blocks[b].len < bytes ? t->blocks[b].len
						       : bytes;
			memcpy(out + t->blocks[b].off, in, (size_t)len);
			in += len;
			bytes -= len;
		}
}

/* 1 for no items of MPI_DATATYPE_NULL: a message of no bytes, whose
 * datatype nothing reads (MPICH takes it, as for a receive from
 * MPI_PROC_NULL with a NULL buffer); *n is then 0. */
static int no_items(long count, MPI_Datatype type, long *n)
{
	if (count || type != MPI_DATATYPE_NULL)
		return 0;
	*n = 0;
	return 1;
}

/* A packed copy of n bytes. A copy of HUGE_MIN or more is offered to the
 * kernel for 2 MiB pages (madvise MADV_HUGEPAGE over the part of it that
 * whole huge pages cover): on a virtual machine the first touch of each
 * 4 KiB page costs a fault and a hypervisor exit, and a huge page takes
 * one fault where 4 KiB pages take 512. Where the kernel declines it is an
 * ordinary allocation; free() releases it either way. */
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define HUGE_MIN ((long)32 << 20)
static void *packed_alloc(long n)
{
	char *p = malloc((size_t)n);
#ifdef MADV_HUGEPAGE
	uintptr_t lo, hi;

	if (p && n >= HUGE_MIN) {
		lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		hi = ((uintptr_t)p + (uintptr_t)n) & ~(HUGE_PAGE - 1);
		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
#endif
	return p;
}

const void *vpmpi_send_bytes(MPI_Comm h, const void *buf, long count,
			     MPI_Datatype type, long *n, void **tmp,
			     int *failed, const char *call)
{
	const struct vpmpi_type *t;

	*tmp = NULL;
	*failed = MPI_ERR_TYPE;
	if (no_items(count, type, n))
		return "";
	if (!(t = vpmpi_type(h, type, call)))
		return NULL;
	if (count < 0)
		return *failed = vpmpi_err(h, MPI_ERR_COUNT, call,
					   "count %ld is negative", count),
		       NULL;
	*n = (long)count * t->size;
	if (*n && !buf && !vpmpi_absolute(t))
		return *failed = vpmpi_err(h, MPI_ERR_BUFFER, call,
					   "buffer is NULL for %ld items",
					   count),
		       NULL;
	if (vpmpi_dense(t) || !*n)
		return *n ? buf : (const void *)"";
	if (!(*tmp = packed_alloc(*n)))
		return *failed = vpmpi_err(h, MPI_ERR_NO_MEM, call,
					   "no memory to pack %ld bytes", *n),
		       NULL;
	vpmpi_pack(t, count, buf, *tmp);
	return *tmp;
}

void *vpmpi_recv_bytes(MPI_Comm h, void *buf, long count, MPI_Datatype type,
		       long *n, void **tmp, int *failed, const char *call)
{
	const struct vpmpi_type *t;
	static char none[1];

	*tmp = NULL;
	*failed = 0;
	if (no_items(count, type, n))
		return none;
	if (!(t = vpmpi_type(h, type, call)))
		return *failed = MPI_ERR_TYPE, NULL;
	if (count < 0)
		return *failed = vpmpi_err(h, MPI_ERR_COUNT, call,
					   "count %ld is negative", count),
		       NULL;
	*n = (long)count * t->size;
	if (*n && !buf && !vpmpi_absolute(t))
		return *failed = vpmpi_err(h, MPI_ERR_BUFFER, call,
					   "buffer is NULL for %ld items",
					   count),
		       NULL;
	if (!*n)
		return none;
	if (vpmpi_dense(t))
		return buf;
	if (!(*tmp = packed_alloc(*n)))
		return *failed = vpmpi_err(h, MPI_ERR_NO_MEM, call,
					   "no memory for %ld bytes", *n),
		       NULL;
	return *tmp;
}

void vpmpi_recv_done(void *tmp, void *buf, long count,
		     const struct vpmpi_type *t, long got)
{
	if (tmp && t)
		vpmpi_unpack(t, count, tmp, got, buf);
	free(tmp);
}

/* ---- constructors ---- */

struct vpmpi_type *vpmpi_type_new(void)
{
	struct vpmpi_type *t = calloc(1, sizeof(*t));

	if (t) {
		t->lb = t->true_lb = 0;
		t->elem = -1; /* no element yet */
		t->align = 1;
	}
	return t;
}

static void type_destroy(struct vpmpi_type *t)
{
	if (t && t->blocks != &t->one)
		free(t->blocks);
	if (t) {
		vpmpi_tree_free(t->tree);
		vpmpi_type_args_free(t);
	}
	free(t);
}

void vpmpi_type_bounds(struct vpmpi_type *t, const struct vpmpi_type *old,
		       long disp, int *first)
{
	long lo = disp + old->lb, hi = lo + old->extent;
	long tlo = disp + old->true_lb, thi = tlo + old->true_extent;

	if (*first) {
		t->lb = lo;
		t->extent = hi - lo;
		*first = 0;
	} else {
		long ub = t->lb + t->extent;

		if (lo < t->lb)
			t->lb = lo;
		if (hi > ub)
			ub = hi;
		t->extent = ub - t->lb;
	}
	/* the true bounds cover the data only */
	if (old->size && !t->size) {
		t->true_lb = tlo;
		t->true_extent = thi - tlo;
	} else if (old->size) {
		long tub = t->true_lb + t->true_extent;

		if (tlo < t->true_lb)
			t->true_lb = tlo;
		if (thi > tub)
			tub = thi;
		t->true_extent = tub - t->true_lb;
	}
	if (old->align > t->align)
		t->align = old->align;
	if (old->size) {
		if (t->elem == -1)
			t->elem = old->elem;
		else if (t->elem != old->elem)
			t->elem = 0;
		t->nelems += old->nelems;
	}
	t->size += old->size;
}

/* Appends old's typemap displaced by disp; keeps bounds, size, elements.
 * Returns 0, or -1 without memory. */
static int append(struct vpmpi_type *t, const struct vpmpi_type *old,
		  long disp, int *cap, int *first)
{
	int b;

	vpmpi_type_bounds(t, old, disp, first);
	for (b = 0; b < old->nblocks; b++) {
		long off = disp + old->blocks[b].off, len = old->blocks[b].len;
		long esz = old->blocks[b].esz;
		MPI_Datatype bt = old->blocks[b].bt;
		struct vpmpi_block *last =
		    t->nblocks ? &t->blocks[t->nblocks - 1] : NULL;

		if (!len)
			continue;
		if (last && last->off + last->len == off &&
		    vpmpi_block_joins(last, esz, bt)) {
			last->len += len;
			continue;
		}
		if (t->nblocks == *cap) {
			int ncap = *cap ? *cap * 2 : 8;
			struct vpmpi_block *nb =
			    realloc(t->blocks, (size_t)ncap * sizeof(*nb));

			if (!nb)
				return -1;
			t->blocks = nb;
			*cap = ncap;
		}
		t->blocks[t->nblocks++] = (struct vpmpi_block){ off, len, esz,
								bt };
	}
	return 0;
}

int vpmpi_type_put(struct vpmpi_type *t, MPI_Datatype *out,
		    const char *call)
{
	struct vpmpi_type **nt;
	int i;

	if (t->elem == -1)
		t->elem = 0;
	for (i = 0; i < vpmpi_me.ntypes; i++)
		if (!vpmpi_me.types[i])
			break;
	if (i == vpmpi_me.ntypes) { /* the table doubles */
		int n = i ? 2 * i : 16;

		nt = realloc(vpmpi_me.types, (size_t)n * sizeof(*nt));
		if (!nt) {
			type_destroy(t);
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for a datatype");
		}
		memset(nt + i, 0, (size_t)(n - i) * sizeof(*nt));
		vpmpi_me.types = nt;
		vpmpi_me.ntypes = n;
	}
	vpmpi_me.types[i] = t;
	*out = VPMPI_FIRST_TYPE + i;
	return MPI_SUCCESS;
}

/* Appends n items of old from disp on: items of a dense type in one step
 * (one run of bytes, whatever n), others one by one. 0, or -1 without
 * memory. */
static int append_n(struct vpmpi_type *t, const struct vpmpi_type *old,
		    long disp, long n, int *cap, int *first)
{
	struct vpmpi_type run;
	struct vpmpi_block rb;
	long j;

	if (n > 1 && old->nblocks == 1 && vpmpi_dense(old)) {
		run = *old;
		rb = old->blocks[0];
		rb.len *= n;
		run.blocks = &rb;
		run.size = old->size * n;
		run.nelems = old->nelems * n;
		run.extent = old->extent * n;
		run.true_extent = old->extent * (n - 1) + old->true_extent;
		return append(t, &run, disp, cap, first);
	}
	for (j = 0; j < n; j++)
		if (append(t, old, disp + j * old->extent, cap, first))
			return -1;
	return 0;
}

/* MPI-1's MPI_LB and MPI_UB entries of a struct (MPI 1.1 sec. 3.12.3):
 * they carry no data; the new type's lower (upper) bound is the marker's
 * displacement, the last such entry's, as MPICH takes it; a bound no
 * marker sets is the one the other entries give. */
struct markers {
	int got_lb, got_ub;
	long lb, ub;
};

static void marker(struct markers *mk, MPI_Datatype which, long disp)
{
	if (which == MPI_LB) {
		mk->got_lb = 1;
		mk->lb = disp;
	} else {
		mk->got_ub = 1;
		mk->ub = disp;
	}
}

static void markers_apply(struct vpmpi_type *t, const struct markers *mk)
{
	long lb = mk->got_lb ? mk->lb : t->lb;
	long ub = mk->got_ub ? mk->ub : t->lb + t->extent;

	t->lb = lb;
	t->extent = ub - lb;
}

/* A flattened type of count blocks, block i bl[i] items of types[i] at
 * disp[i] (markers skipped); NULL without memory. */
static struct vpmpi_type *flat_build(int count, const long *bl,
				     const MPI_Aint *disp,
				     const MPI_Datatype *types)
{
	struct vpmpi_type *t = vpmpi_type_new();
	int i, cap = 0, first = 1;

	for (i = 0; t && i < count; i++)
		if (types[i] != MPI_LB && types[i] != MPI_UB &&
		    append_n(t, vpmpi_lookup(types[i]), disp[i], bl[i], &cap,
			     &first)) {
			type_destroy(t);
			return NULL;
		}
	return t;
}

/* The general constructor (MPI_Type_create_struct): count blocks, block i
 * being bl[i] items of types[i] at byte displacement disp[i]. A struct
 * rounds its extent up to its alignment (round != 0). */
static int build(int count, const long *bl, const MPI_Aint *disp,
		 const MPI_Datatype *types, int round, MPI_Datatype *out,
		 const char *call)
{
	struct vpmpi_type *t;
	struct markers mk = { 0, 0, 0, 0 };
	long pieces = 0;
	int i;

	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %d is negative",
				  count);
	if (!out)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the new datatype's pointer is NULL");
	for (i = 0; i < count; i++) {
		if (!vpmpi_type_any(types[i], call))
			return MPI_ERR_TYPE;
		if (bl[i] < 0)
			return vpmpi_fail(MPI_ERR_ARG, call,
					  "block length %ld (block %d) is "
					  "negative",
					  bl[i], i);
	}
	for (i = 0; i < count; i++)
		if (types[i] == MPI_LB || types[i] == MPI_UB)
			marker(&mk, types[i], disp[i]);
		else if (pieces <= VPMPI_FLAT_MAX)
			pieces += vpmpi_type_pieces(vpmpi_lookup(types[i]),
						    bl[i]) > VPMPI_FLAT_MAX
				      ? VPMPI_FLAT_MAX + 1
				      : vpmpi_type_pieces(
					    vpmpi_lookup(types[i]), bl[i]);
	t = pieces > VPMPI_FLAT_MAX
		? vpmpi_tree_build(1, 0, count, bl, disp, types)
		: flat_build(count, bl, disp, types);
	if (!t)
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	if (round && t->align > 1 && t->extent % t->align)
		t->extent += t->align - t->extent % t->align;
	markers_apply(t, &mk);
	return vpmpi_type_put(t, out, call);
}

static int build_same(int count, const int *bli, const long *bl, long bl_all,
		      const MPI_Aint *disp, MPI_Aint stride,
		      MPI_Datatype old, MPI_Datatype *out, const char *call);

/* A vector of count blocks of bl items of o, stride bytes apart, of more
 * pieces than a flattened type holds: one run when the blocks touch (a
 * contiguous type), else a tree of one node. */
static int vector_tree(int count, long bl, MPI_Aint stride, MPI_Datatype old,
		       const struct vpmpi_type *o, MPI_Datatype *out,
		       const char *call)
{
	struct vpmpi_type *t;
	MPI_Aint zero = 0;

	if (!o->tree && o->nblocks == 1 && vpmpi_dense(o) &&
	    stride == bl * o->extent)
		return build_same(1, NULL, NULL, (long)count * bl, NULL, 0, old,
				  out, call);
	if (!out)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the new datatype's pointer is NULL");
	if (!(t = vpmpi_tree_build(count, stride, 1, &bl, &zero, &old)))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	return vpmpi_type_put(t, out, call);
}

/* Arrays for count blocks of one type (the vector and indexed forms):
 * block i of bl[i] items (bl_all where bl and bli are NULL; bli: int
 * lengths) at disp[i] (i * stride where disp is NULL). */
static int build_same(int count, const int *bli, const long *bl, long bl_all,
		      const MPI_Aint *disp, MPI_Aint stride,
		      MPI_Datatype old, MPI_Datatype *out, const char *call)
{
	const struct vpmpi_type *o = vpmpi_lookup(old);
	long *b, pieces;
	int i, rc;
	MPI_Aint *d;
	MPI_Datatype *ty;

	if (!bli && !bl && !disp && count > 1 && o && bl_all > 0 &&
	    old != MPI_LB && old != MPI_UB &&
	    (pieces = vpmpi_type_pieces(o, bl_all)) > VPMPI_FLAT_MAX / count)
		return vector_tree(count, bl_all, stride, old, o, out, call);
	b = malloc(((size_t)count + 1) * sizeof(*b));
	d = malloc(((size_t)count + 1) * sizeof(*d));
	ty = malloc(((size_t)count + 1) * sizeof(*ty));
	if (count < 0 || !vpmpi_type_any(old, call))
		rc = count < 0 ? vpmpi_fail(MPI_ERR_COUNT, call,
					    "count %d is negative", count)
			       : MPI_ERR_TYPE;
	else if (!b || !d || !ty)
		rc = vpmpi_fail(MPI_ERR_NO_MEM, call,
				"no memory for a datatype");
	else {
		for (i = 0; i < count; i++) {
			b[i] = bli ? bli[i] : bl ? bl[i] : bl_all;
			d[i] = disp ? disp[i] : (MPI_Aint)i * stride;
			ty[i] = old;
		}
		rc = build(count, b, d, ty, 0, out, call);
	}
	free(b);
	free(d);
	free(ty);
	return rc;
}

int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
	const struct vpmpi_type *o = vpmpi_type_any(old, "MPI_Type_contiguous");
	int rc;

	if (!o)
		return MPI_ERR_TYPE;
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, "MPI_Type_contiguous",
				  "count %d is negative", count);
	rc = vpmpi_type_made(build_same(1, NULL, NULL, count, NULL, 0, old,
					newtype, "MPI_Type_contiguous"),
			     newtype, MPI_COMBINER_CONTIGUOUS, 1, 0, 1);
	return vpmpi_type_args(rc, newtype, &count, 1, NULL, NULL, 0, NULL,
			       &old);
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
			    MPI_Datatype old, MPI_Datatype *newtype)
{
	int ints[2] = { count, blocklength };
	int rc = vpmpi_type_made(build_same(count, NULL, NULL, blocklength,
					    NULL, stride, old, newtype,
					    "MPI_Type_create_hvector"),
				 newtype, MPI_COMBINER_HVECTOR, 2, 1, 1);

	return vpmpi_type_args(rc, newtype, ints, 2, NULL, NULL, 0, &stride,
			       &old);
}

int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
		     MPI_Datatype old, MPI_Datatype *newtype)
{
	return MPI_Type_create_hvector(count, blocklength, stride, old,
				       newtype);
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype old,
		    MPI_Datatype *newtype)
{
	const struct vpmpi_type *o = vpmpi_type_any(old, "MPI_Type_vector");
	int ints[3] = { count, blocklength, stride }, rc;

	if (!o)
		return MPI_ERR_TYPE;
	rc = vpmpi_type_made(build_same(count, NULL, NULL, blocklength,
					NULL, (MPI_Aint)stride * o->extent, old,
					newtype, "MPI_Type_vector"),
			     newtype, MPI_COMBINER_VECTOR, 3, 0, 1);
	return vpmpi_type_args(rc, newtype, ints, 3, NULL, NULL, 0, NULL,
			       &old);
}

int MPI_Type_create_hindexed(int count, const int blocklengths[],
			     const MPI_Aint displacements[], MPI_Datatype old,
			     MPI_Datatype *newtype)
{
	int rc = vpmpi_type_made(build_same(count, blocklengths, NULL, 0,
					    displacements, 0, old, newtype,
					    "MPI_Type_create_hindexed"),
				 newtype, MPI_COMBINER_HINDEXED, count + 1,
				 count, 1);

	return vpmpi_type_args(rc, newtype, &count, 1, blocklengths, NULL,
			       count, displacements, &old);
}

/* indexed forms: displacements in extents of old */
static int indexed(int count, const int *bl, int bl_all, const int *displs,
		   MPI_Datatype old, MPI_Datatype *newtype, const char *call)
{
	const struct vpmpi_type *o = vpmpi_type_any(old, call);
	MPI_Aint *d;
	int i, rc;

	if (!o)
		return MPI_ERR_TYPE;
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %d is negative",
				  count);
	if (!(d = malloc(((size_t)count + 1) * sizeof(*d))))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	for (i = 0; i < count; i++)
		d[i] = (MPI_Aint)displs[i] * o->extent;
	rc = build_same(count, bl, NULL, bl_all, d, 0, old, newtype, call);
	free(d);
	return rc;
}

int MPI_Type_indexed(int count, const int blocklengths[],
		     const int displacements[], MPI_Datatype old,
		     MPI_Datatype *newtype)
{
	int rc = vpmpi_type_made(indexed(count, blocklengths, 0,
					 displacements, old, newtype,
					 "MPI_Type_indexed"),
				 newtype, MPI_COMBINER_INDEXED, 2 * count + 1,
				 0, 1);

	return vpmpi_type_args(rc, newtype, &count, 1, blocklengths,
			       displacements, count, NULL, &old);
}

int MPI_Type_create_indexed_block(int count, int blocklength,
				  const int displacements[], MPI_Datatype old,
				  MPI_Datatype *newtype)
{
	int ints[2] = { count, blocklength };
	int rc = vpmpi_type_made(indexed(count, NULL, blocklength,
					 displacements, old, newtype,
					 "MPI_Type_create_indexed_block"),
				 newtype, MPI_COMBINER_INDEXED_BLOCK,
				 count + 2, 0, 1);

	return vpmpi_type_args(rc, newtype, ints, 2, displacements, NULL,
			       count, NULL, &old);
}

/* A struct of int block lengths. */
static int build_struct(int count, const int *bl, const MPI_Aint *disp,
			const MPI_Datatype *types, MPI_Datatype *out)
{
	static const char call[] = "MPI_Type_create_struct";
	long *b = malloc(((size_t)(count > 0 ? count : 0) + 1) * sizeof(*b));
	int i, rc;

	if (!b)
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for a datatype");
	for (i = 0; i < count; i++)
		b[i] = bl[i];
	rc = build(count, b, disp, types, 1, out, call);
	free(b);
	return rc;
}

int MPI_Type_create_struct(int count, const int blocklengths[],
			   const MPI_Aint displacements[],
			   const MPI_Datatype types[], MPI_Datatype *newtype)
{
	int rc = vpmpi_type_made(build_struct(count, blocklengths,
					      displacements, types, newtype),
				 newtype, MPI_COMBINER_STRUCT, count + 1,
				 count, count);

	return vpmpi_type_args(rc, newtype, &count, 1, blocklengths, NULL,
			       count, displacements, types);
}

int MPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[],
		    MPI_Datatype types[], MPI_Datatype *newtype)
{
	return MPI_Type_create_struct(count, blocklengths, displacements,
				      types, newtype);
}

int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
			    MPI_Datatype *newtype)
{
	MPI_Datatype nt;
	long one = 1;
	int rc;
	MPI_Aint zero = 0, addrs[2] = { lb, extent };

	rc = build(1, &one, &zero, &old, 0, &nt, "MPI_Type_create_resized");
	if (rc)
		return rc;
	vpmpi_lookup(nt)->lb = lb;
	vpmpi_lookup(nt)->extent = extent;
	*newtype = nt;
	rc = vpmpi_type_made(MPI_SUCCESS, newtype, MPI_COMBINER_RESIZED, 0, 2,
			     1);
	return vpmpi_type_args(rc, newtype, NULL, 0, NULL, NULL, 0, addrs,
			       &old);
}

/* MPI 4.0 sec. 5.1.10: the duplicate has the same committed state as
 * old (a committed type's duplicate may be used at once). */
int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
	const struct vpmpi_type *t;
	long one = 1;
	int rc;
	MPI_Aint zero = 0;

	rc = vpmpi_type_made(build(1, &one, &zero, &old, 0, newtype,
				   "MPI_Type_dup"),
			     newtype, MPI_COMBINER_DUP, 0, 0, 1);
	rc = vpmpi_type_args(rc, newtype, NULL, 0, NULL, NULL, 0, NULL, &old);
	if (rc == MPI_SUCCESS && (t = vpmpi_type_any(old, "MPI_Type_dup")) &&
	    t->committed)
		rc = MPI_Type_commit(newtype);
	/* sec. 7.7.4: old's attributes through their copy callbacks; a
	 * failed copy fails the call, with no new type */
	if (rc == MPI_SUCCESS &&
	    (rc = vpmpi_attr_copy_all(VPMPI_ATTR_TYPE, old, *newtype,
				      "MPI_Type_dup"))) {
		vpmpi_attr_forget(VPMPI_ATTR_TYPE, *newtype);
		type_destroy(vpmpi_me.types[*newtype - VPMPI_FIRST_TYPE]);
		vpmpi_me.types[*newtype - VPMPI_FIRST_TYPE] = NULL;
		*newtype = MPI_DATATYPE_NULL;
	}
	return rc;
}

/* A persistent request's own copy of a derived datatype (its handle
 * known to the layer only, without attributes): the program may free
 * its handle while the request lives, and MPI 4.0 sec. 5.1.9 keeps the
 * datatype usable for the communication that uses it. A predefined type
 * is its own copy. */
int vpmpi_type_private(MPI_Datatype type, MPI_Datatype *out,
		       const char *call)
{
	const struct vpmpi_type *t = vpmpi_lookup(type);
	struct vpmpi_type *c;
	long one = 1;
	int rc;
	MPI_Aint zero = 0;

	*out = type;
	if (type < VPMPI_FIRST_TYPE || !t)
		return MPI_SUCCESS;
	if ((rc = build(1, &one, &zero, &type, 0, out, call)))
		return rc;
	c = vpmpi_lookup(*out);
	c->committed = t->committed;
	c->kind = t->kind;
	return MPI_SUCCESS;
}

void vpmpi_type_private_free(MPI_Datatype type)
{
	if (type >= VPMPI_FIRST_TYPE && vpmpi_lookup(type))
		MPI_Type_free(&type);
}

int MPI_Type_commit(MPI_Datatype *type)
{
	struct vpmpi_type *t;

	if (!type || !(t = (struct vpmpi_type *)vpmpi_type_any(
			   *type, "MPI_Type_commit")))
		return type ? MPI_ERR_TYPE
			    : vpmpi_fail(MPI_ERR_ARG, "MPI_Type_commit",
					 "the datatype pointer is NULL");
	t->committed = 1;
	t->kind = type_kind(*type);
	return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *type)
{
	int i;

	if (!type || !vpmpi_type_any(*type, "MPI_Type_free"))
		return type ? MPI_ERR_TYPE
			    : vpmpi_fail(MPI_ERR_ARG, "MPI_Type_free",
					 "the datatype pointer is NULL");
	if (*type < VPMPI_FIRST_TYPE)
		return vpmpi_fail(MPI_ERR_TYPE, "MPI_Type_free",
				  "%s is predefined and cannot be freed",
				  vpmpi_type_name(*type));
	/* sec. 7.7.4: its attributes go first, through their callbacks */
	if ((i = vpmpi_attr_drop_all(VPMPI_ATTR_TYPE, *type, "MPI_Type_free")))
		return i;
	/* MPI lets a message in flight finish with a freed type: a pending
	 * receive holds its type, and the last one frees it */
	i = *type - VPMPI_FIRST_TYPE;
	if (vpmpi_me.types[i]->refs)
		vpmpi_me.types[i]->freed = 1; /* the last request frees it */
	else
		type_destroy(vpmpi_me.types[i]);
	vpmpi_me.types[i] = NULL;
	vpmpi_name_drop(VPMPI_NAME_TYPE, *type);
	*type = MPI_DATATYPE_NULL;
	return MPI_SUCCESS;
}

void vpmpi_type_hold(struct vpmpi_type *t)
{
	if (t && !t->name) /* derived (basic types have names) */
		t->refs++;
}

void vpmpi_type_release(struct vpmpi_type *t)
{
	if (t && t->refs && !--t->refs && t->freed)
		type_destroy(t);
}

void vpmpi_types_free(void)
{
	int i;

	/* the arguments first: a freed type they hold goes with them */
	for (i = 0; i < vpmpi_me.ntypes; i++)
		if (vpmpi_me.types[i])
			vpmpi_type_args_free(vpmpi_me.types[i]);
	for (i = 0; i < vpmpi_me.ntypes; i++)
		if (vpmpi_me.types[i] && vpmpi_me.types[i]->refs)
			vpmpi_me.types[i]->freed = 1; /* a request's */
		else
			type_destroy(vpmpi_me.types[i]);
	free(vpmpi_me.types);
	vpmpi_me.types = NULL;
	vpmpi_me.ntypes = 0;
}

/* ---- queries ---- */

int MPI_Type_size(MPI_Datatype type, int *size)
{
	const struct vpmpi_type *t = vpmpi_type_any(type, "MPI_Type_size");

	if (!t)
		return MPI_ERR_TYPE;
	*size = t->size > 2147483647 ? MPI_UNDEFINED : (int)t->size;
	return MPI_SUCCESS;
}

int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
	const struct vpmpi_type *t =
	    vpmpi_type_any(type, "MPI_Type_get_extent");

	if (!t)
		return MPI_ERR_TYPE;
	*lb = t->lb;
	*extent = t->extent;
	return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *true_lb,
			     MPI_Aint *true_extent)
{
	const struct vpmpi_type *t =
	    vpmpi_type_any(type, "MPI_Type_get_true_extent");

	if (!t)
		return MPI_ERR_TYPE;
	*true_lb = t->true_lb;
	*true_extent = t->true_extent;
	return MPI_SUCCESS;
}

int MPI_Type_extent(MPI_Datatype type, MPI_Aint *extent)
{
	MPI_Aint lb;

	return MPI_Type_get_extent(type, &lb, extent);
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
	*address = (MPI_Aint)location;
	return MPI_SUCCESS;
}

int MPI_Address(void *location, MPI_Aint *address)
{
	return MPI_Get_address(location, address);
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
	return base + disp;
}

MPI_Aint MPI_Aint_diff(MPI_Aint a, MPI_Aint b)
{
	return a - b;
}

long long vpmpi_type_nbasic(const struct vpmpi_type *t)
{
	long long n = 0;
	int b;

	if (t->tree)
		return t->nbasic;
	for (b = 0; b < t->nblocks; b++)
		n += t->blocks[b].len /
		     (t->blocks[b].esz > 0 ? t->blocks[b].esz : 1);
	return n;
}

/* Walks the blocks of one item, counting elements (partial: the
 * elements in the first rest bytes, or -1 when they end inside one) or
 * bytes (whole: the bytes of the first left elements). */
struct tally {
	long long rest, n;
	int bytes_of; /* count bytes of left = rest elements */
};

static int tally_block(const struct vpmpi_block *b, void *arg)
{
	struct tally *c = arg;
	long long esz = b->esz > 0 ? b->esz : 1, len = b->len, k;

	if (c->bytes_of) {
		k = len / esz < c->rest ? len / esz : c->rest;
		c->n += k * esz;
		c->rest -= k;
		return !c->rest;
	}
	if (len > c->rest)
		len = c->rest;
	if (len % esz) {
		c->n = -1; /* ends inside an element */
		return 1;
	}
	c->n += len / esz;
	c->rest -= len;
	return !c->rest;
}

long long vpmpi_elements(const struct vpmpi_type *t, size_t bytes)
{
	struct tally c = { 0, 0, 0 };
	long long n;

	if (!t->size)
		return 0;
	n = (long long)(bytes / (size_t)t->size) * vpmpi_type_nbasic(t);
	c.rest = (long long)(bytes % (size_t)t->size);
	if (c.rest)
		vpmpi_type_each(t, 1, 0, tally_block, &c);
	return c.n < 0 ? -1 : n + c.n;
}

size_t vpmpi_elements_bytes(const struct vpmpi_type *t, long long count)
{
	long long per = t->size ? vpmpi_type_nbasic(t) : 0;
	struct tally c = { 0, 0, 1 };

	if (!per)
		return 0;
	c.rest = count % per;
	if (c.rest)
		vpmpi_type_each(t, 1, 0, tally_block, &c);
	return (size_t)(count / per) * (size_t)t->size + (size_t)c.n;
}

int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count)
{
	const struct vpmpi_type *t = vpmpi_type_any(type, "MPI_Get_elements");
	long long n;

	if (!t)
		return MPI_ERR_TYPE;
	n = vpmpi_elements(t, status->vpmpi_bytes);
	*count = n < 0 || n > 2147483647 ? MPI_UNDEFINED : (int)n;
	return MPI_SUCCESS;
}

/* ---- packing ---- */

int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
	long n = vpmpi_bytes(comm, incount, type, "MPI_Pack_size");

	if (n < 0)
		return MPI_ERR_TYPE;
	*size = (int)n;
	return MPI_SUCCESS;
}

/* The bytes of count items of type at *position of a size-byte packed
 * buffer: their length, or -1 after the error. */
static long packed_span(MPI_Comm comm, int count, MPI_Datatype type,
			int size, const int *position, const char *call)
{
	long n = vpmpi_bytes(comm, count, type, call);

	if (n >= 0 && (*position < 0 || *position + n > size))
		return vpmpi_err(comm, MPI_ERR_TRUNCATE, call,
				 "%ld bytes at position %d are outside the "
				 "%d-byte packed buffer",
				 n, *position, size),
		       -1;
	return n;
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf,
	     int outsize, int *position, MPI_Comm comm)
{
	long n = packed_span(comm, incount, type, outsize, position,
			     "MPI_Pack");

	if (n < 0)
		return vpmpi_me.last_class ? vpmpi_me.last_class
					   : MPI_ERR_ARG;
	vpmpi_pack(vpmpi_lookup(type), incount, inbuf, (char *)outbuf + *position);
	*position += (int)n;
	return MPI_SUCCESS;
}

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
	       int outcount, MPI_Datatype type, MPI_Comm comm)
{
	long n = packed_span(comm, outcount, type, insize, position,
			     "MPI_Unpack");

	if (n < 0)
		return vpmpi_me.last_class ? vpmpi_me.last_class
					   : MPI_ERR_ARG;
	vpmpi_unpack(vpmpi_lookup(type), outcount, (const char *)inbuf + *position,
		     n, outbuf);
	*position += (int)n;
	return MPI_SUCCESS;
}

int vpmpi_type_blocks(int count, const long *bl, long bl_all,
		      const MPI_Aint *disp, MPI_Aint stride, MPI_Datatype old,
		      MPI_Datatype *out, const char *call)
{
	return build_same(count, NULL, bl, bl_all, disp, stride, old, out,
			  call);
}
