/*
 * mpi_op.c - MPI's reduction operations on vp. Where vp's own collectives
 * reduce a (datatype, op) pair exactly (vp_type and vp_op), the layer uses
 * them, with vp's algorithm choice and model. Every other pair MPI defines
 * (MIN and MAX on unsigned and short types, the logical ops, MAXLOC and
 * MINLOC on the pair types, long double, user ops from MPI_Op_create) is
 * reduced here, element by element on packed data, by the layer's own
 * reduction algorithms (mpi_reduce.c). The allowed pairs are the
 * standard's (MPI 3.1, sec. 5.9.2), and MPI_CHAR as a C integer as
 * MPICH and Open MPI take it: a pair left undefined fails the call naming
 * both.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

enum type_class { C_NONE, C_INT, C_FLOAT, C_BOOL, C_BYTE, C_PAIR, C_COMPLEX };

static enum type_class class_of(MPI_Datatype e)
{
	switch (e) {
	case MPI_CHAR: /* as MPICH and Open MPI: a C integer too */
	case MPI_SIGNED_CHAR: case MPI_UNSIGNED_CHAR: case MPI_SHORT:
	case MPI_UNSIGNED_SHORT: case MPI_INT: case MPI_UNSIGNED:
	case MPI_LONG: case MPI_UNSIGNED_LONG: case MPI_LONG_LONG_INT:
	case MPI_UNSIGNED_LONG_LONG: case MPI_INT8_T: case MPI_INT16_T:
	case MPI_INT32_T: case MPI_INT64_T: case MPI_UINT8_T:
	case MPI_UINT16_T: case MPI_UINT32_T: case MPI_UINT64_T:
	case MPI_AINT: case MPI_OFFSET: case MPI_COUNT:
		return C_INT;
	case MPI_FLOAT: case MPI_DOUBLE: case MPI_LONG_DOUBLE:
		return C_FLOAT;
	case MPI_C_BOOL: case MPI_LOGICAL:
		return C_BOOL;
	case MPI_C_FLOAT_COMPLEX: case MPI_C_DOUBLE_COMPLEX:
	case MPI_C_LONG_DOUBLE_COMPLEX:
		return C_COMPLEX;
	case MPI_BYTE:
		return C_BYTE;
	case MPI_FLOAT_INT: case MPI_DOUBLE_INT: case MPI_LONG_INT:
	case MPI_2INT: case MPI_SHORT_INT: case MPI_LONG_DOUBLE_INT:
		return C_PAIR;
	default:
		return C_NONE; /* MPI_WCHAR, MPI_PACKED: text, data */
	}
}

const char *vpmpi_op_name(MPI_Op op)
{
	static const char *names[] = {
	    "MPI_OP_NULL", "MPI_MAX",  "MPI_MIN",  "MPI_SUM",    "MPI_PROD",
	    "MPI_LAND",    "MPI_BAND", "MPI_LOR",  "MPI_BOR",    "MPI_LXOR",
	    "MPI_BXOR",    "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE",
	    "MPI_NO_OP"
	};

	if (op >= 0 && op <= MPI_NO_OP)
		return names[op];
	return op >= VPMPI_FIRST_OP ? "a user op" : "an unknown op";
}

static struct vpmpi_userop *user_op(MPI_Op op)
{
	int i = op - VPMPI_FIRST_OP;

	return i >= 0 && i < vpmpi_me.nops &&
		       (vpmpi_me.ops[i].fn || vpmpi_me.ops[i].fn_c)
		   ? &vpmpi_me.ops[i]
		   : NULL;
}

void vpmpi_op_hold(MPI_Op op)
{
	struct vpmpi_userop *u = user_op(op);

	if (u)
		u->refs++;
}

void vpmpi_op_release(MPI_Op op)
{
	struct vpmpi_userop *u = user_op(op);

	if (u && u->refs && !--u->refs && u->freed) {
		u->fn = NULL; /* the slot is free now */
		u->fn_c = NULL;
		u->freed = 0;
	}
}

int vpmpi_commutative(MPI_Op op)
{
	struct vpmpi_userop *u = user_op(op);

	return u ? u->commute : 1;
}

int vpmpi_check_op(MPI_Comm h, MPI_Datatype type, MPI_Op op,
		   const char *call)
{
	const struct vpmpi_type *t = vpmpi_type(h, type, call);
	enum type_class k;
	int ok;

	if (!t)
		return MPI_ERR_TYPE;
	if (op >= VPMPI_FIRST_OP)
		return user_op(op) ? MPI_SUCCESS
				   : vpmpi_err(h, MPI_ERR_OP, call,
					       "op %d is not an op of this "
					       "rank (freed, or never made)",
					       op);
	if (op < MPI_MAX || op > MPI_MINLOC)
		return vpmpi_err(h, MPI_ERR_OP, call,
				 "op %d is not a reduction operation", op);
	k = t->elem ? class_of(t->elem) : C_NONE;
	switch (op) {
	case MPI_MAX: case MPI_MIN:
		ok = k == C_INT || k == C_FLOAT;
		break;
	case MPI_SUM: case MPI_PROD:
		ok = k == C_INT || k == C_FLOAT || k == C_COMPLEX;
		break;
	case MPI_LAND: case MPI_LOR: case MPI_LXOR:
		ok = k == C_INT || k == C_BOOL;
		break;
	case MPI_BAND: case MPI_BOR: case MPI_BXOR:
		ok = k == C_INT || k == C_BYTE;
		break;
	default: /* MAXLOC, MINLOC */
		ok = k == C_PAIR;
	}
	if (ok)
		return MPI_SUCCESS;
	return vpmpi_err(h, MPI_ERR_OP, call,
			 "%s is not defined on %s (MPI 3.1, sec. 5.9.2)",
			 vpmpi_op_name(op),
			 t->elem ? vpmpi_type_name(t->elem)
				 : "a datatype of mixed elements");
}

int vpmpi_native(const struct vpmpi_type *t, MPI_Datatype type, MPI_Op op,
		 int count, vp_type *vt, vp_op *vop, size_t *vcount)
{
	int order = op == MPI_MIN || op == MPI_MAX, uns = 0;
	int bitwise = op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR;

	(void)type;
	if (!vpmpi_dense(t))
		return 0;
	switch (op) {
	case MPI_MAX: *vop = VP_MAX; break;
	case MPI_MIN: *vop = VP_MIN; break;
	case MPI_SUM: *vop = VP_SUM; break;
	case MPI_PROD: *vop = VP_PROD; break;
	case MPI_BAND: *vop = VP_BAND; break;
	case MPI_BOR: *vop = VP_BOR; break;
	case MPI_BXOR: *vop = VP_BXOR; break;
	default: return 0;
	}
	switch (t->elem) {
	case MPI_UNSIGNED_CHAR: case MPI_UINT8_T: *vt = VP_BYTE; break;
	case MPI_BYTE: if (!bitwise) return 0; *vt = VP_BYTE; break;
	case MPI_UNSIGNED: case MPI_UINT32_T: uns = 1; /* fall through */
	case MPI_INT: case MPI_INT32_T: *vt = VP_INT32; break;
	case MPI_UNSIGNED_LONG: case MPI_UNSIGNED_LONG_LONG:
	case MPI_UINT64_T: uns = 1; /* fall through */
	case MPI_LONG: case MPI_LONG_LONG_INT: case MPI_INT64_T:
	case MPI_AINT: case MPI_OFFSET: case MPI_COUNT:
		*vt = VP_INT64; break;
	case MPI_FLOAT: if (bitwise) return 0; *vt = VP_FLOAT; break;
	case MPI_DOUBLE: if (bitwise) return 0; *vt = VP_DOUBLE; break;
	default: return 0;
	}
	/* vp's 32- and 64-bit integers are signed: sums, products and bit
	 * operations of unsigned ones are the same bits (they wrap), an
	 * order is not */
	if (order && uns)
		return 0;
	if (vp_type_size(*vt) * (size_t)t->nelems != (size_t)t->size)
		return 0;
	*vcount = (size_t)count * (size_t)t->nelems;
	return 1;
}

/* ---- the predefined ops, element by element ---- */

#define INT_FN(NAME, T)                                                        \
	static void NAME(MPI_Op op, long n, const void *vin, void *vio)        \
	{                                                                      \
		const T *a = vin;                                              \
		T *b = vio;                                                    \
		long i;                                                        \
		for (i = 0; i < n; i++)                                        \
			switch (op) {                                          \
			case MPI_MAX: b[i] = a[i] > b[i] ? a[i] : b[i]; break; \
			case MPI_MIN: b[i] = a[i] < b[i] ? a[i] : b[i]; break; \
			case MPI_SUM: b[i] = (T)(a[i] + b[i]); break;          \
			case MPI_PROD: b[i] = (T)(a[i] * b[i]); break;         \
			case MPI_LAND: b[i] = (T)(a[i] && b[i]); break;        \
			case MPI_LOR: b[i] = (T)(a[i] || b[i]); break;         \
			case MPI_LXOR: b[i] = (T)(!a[i] != !b[i]); break;      \
			case MPI_BAND: b[i] = (T)(a[i] & b[i]); break;         \
			case MPI_BOR: b[i] = (T)(a[i] | b[i]); break;          \
			case MPI_BXOR: b[i] = (T)(a[i] ^ b[i]); break;         \
			}                                                      \
	}

#define FLOAT_FN(NAME, T)                                                      \
	static void NAME(MPI_Op op, long n, const void *vin, void *vio)        \
	{                                                                      \
		const T *a = vin;                                              \
		T *b = vio;                                                    \
		long i;                                                        \
		for (i = 0; i < n; i++)                                        \
			switch (op) {                                          \
			case MPI_MAX: b[i] = a[i] > b[i] ? a[i] : b[i]; break; \
			case MPI_MIN: b[i] = a[i] < b[i] ? a[i] : b[i]; break; \
			case MPI_SUM: b[i] = a[i] + b[i]; break;               \
			case MPI_PROD: b[i] = a[i] * b[i]; break;              \
			}                                                      \
	}

/* MAXLOC and MINLOC on packed (value, int) items: the better value, and
 * of equal values the lower index (the standard's definition). */
#define PAIR_FN(NAME, T)                                                       \
	static void NAME(MPI_Op op, long n, const void *vin, void *vio)        \
	{                                                                      \
		const char *a = vin;                                           \
		char *b = vio;                                                 \
		size_t item = sizeof(T) + sizeof(int);                         \
		long i;                                                        \
		for (i = 0; i < n; i++, a += item, b += item) {                \
			T va, vb;                                              \
			int ia, ib, take;                                      \
			memcpy(&va, a, sizeof(T));                             \
			memcpy(&vb, b, sizeof(T));                             \
			memcpy(&ia, a + sizeof(T), sizeof(int));               \
			memcpy(&ib, b + sizeof(T), sizeof(int));               \
			take = op == MPI_MAXLOC ? va > vb : va < vb;           \
			if (take || (va == vb && ia < ib))                     \
				memcpy(b, a, item);                            \
		}                                                              \
	}

INT_FN(op_char, char)
INT_FN(op_schar, signed char)
INT_FN(op_uchar, unsigned char)
INT_FN(op_short, short)
INT_FN(op_ushort, unsigned short)
INT_FN(op_int, int)
INT_FN(op_uint, unsigned)
INT_FN(op_long, long)
INT_FN(op_ulong, unsigned long)
INT_FN(op_llong, long long)
INT_FN(op_ullong, unsigned long long)
/* logical values: the logical ops only (class_of admits no other) */
static void op_bool(MPI_Op op, long n, const void *vin, void *vio)
{
	const _Bool *a = vin;
	_Bool *b = vio;
	long i;

	for (i = 0; i < n; i++)
		b[i] = op == MPI_LAND  ? a[i] && b[i]
		       : op == MPI_LOR ? a[i] || b[i]
				       : a[i] != b[i];
}
/* complex values: the sum and the product (class_of admits no other) */
#define COMPLEX_FN(NAME, T)                                                    \
	static void NAME(MPI_Op op, long n, const void *vin, void *vio)        \
	{                                                                      \
		const T *a = vin;                                              \
		T *b = vio;                                                    \
		long i;                                                        \
		for (i = 0; i < n; i++)                                        \
			b[i] = op == MPI_SUM ? a[i] + b[i] : a[i] * b[i];      \
	}
COMPLEX_FN(op_fcomplex, float _Complex)
COMPLEX_FN(op_dcomplex, double _Complex)
COMPLEX_FN(op_ldcomplex, long double _Complex)
FLOAT_FN(op_float, float)
FLOAT_FN(op_double, double)
FLOAT_FN(op_ldouble, long double)
PAIR_FN(op_float_int, float)
PAIR_FN(op_double_int, double)
PAIR_FN(op_long_int, long)
PAIR_FN(op_2int, int)
PAIR_FN(op_short_int, short)
PAIR_FN(op_ldouble_int, long double)

typedef void elem_fn(MPI_Op op, long n, const void *in, void *inout);

static elem_fn *fn_of(MPI_Datatype e)
{
	switch (e) {
	case MPI_CHAR: return op_char;
	case MPI_SIGNED_CHAR: case MPI_INT8_T: return op_schar;
	case MPI_UNSIGNED_CHAR: case MPI_UINT8_T: case MPI_BYTE:
		return op_uchar;
	case MPI_SHORT: case MPI_INT16_T: return op_short;
	case MPI_UNSIGNED_SHORT: case MPI_UINT16_T: return op_ushort;
	case MPI_INT: case MPI_INT32_T: return op_int;
	case MPI_UNSIGNED: case MPI_UINT32_T: return op_uint;
	case MPI_LONG: case MPI_AINT: return op_long;
	case MPI_UNSIGNED_LONG: return op_ulong;
	case MPI_LONG_LONG_INT: case MPI_INT64_T: case MPI_OFFSET:
	case MPI_COUNT:
		return op_llong;
	case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T: return op_ullong;
	case MPI_C_BOOL: return op_bool;
	case MPI_LOGICAL: return op_int;
	case MPI_C_FLOAT_COMPLEX: return op_fcomplex;
	case MPI_C_DOUBLE_COMPLEX: return op_dcomplex;
	case MPI_C_LONG_DOUBLE_COMPLEX: return op_ldcomplex;
	case MPI_FLOAT: return op_float;
	case MPI_DOUBLE: return op_double;
	case MPI_LONG_DOUBLE: return op_ldouble;
	case MPI_FLOAT_INT: return op_float_int;
	case MPI_DOUBLE_INT: return op_double_int;
	case MPI_LONG_INT: return op_long_int;
	case MPI_2INT: return op_2int;
	case MPI_SHORT_INT: return op_short_int;
	case MPI_LONG_DOUBLE_INT: return op_ldouble_int;
	default: return NULL;
	}
}

/* The user's function on count items (its MPI_Count form for an op of
 * MPI_Op_create_c). */
static void call_user(struct vpmpi_userop *u, void *in, void *inout,
		      int count, MPI_Datatype type)
{
	MPI_Count n = count;

	if (u->fn_c)
		u->fn_c(in, inout, &n, &type);
	else
		u->fn(in, inout, &count, &type);
}

/* A user op sees the datatype's own layout: packed data is unpacked
 * into two copies of that layout first (when the type is not dense). */
static void combine_user(struct vpmpi_userop *u, MPI_Datatype type,
			 int count, const void *in, void *inout)
{
	const struct vpmpi_type *t = vpmpi_type_any(type, "a user op");
	long span;
	char *a, *b;

	if (!t || !count)
		return;
	if (vpmpi_dense(t)) {
		call_user(u, (void *)in, inout, count, type);
		return;
	}
	span = t->true_extent + (long)(count - 1) * t->extent;
	a = calloc(1, (size_t)span);
	b = calloc(1, (size_t)span);
	if (a && b) {
		vpmpi_unpack(t, count, in, (long)count * t->size,
			     a - t->true_lb);
		vpmpi_unpack(t, count, inout, (long)count * t->size,
			     b - t->true_lb);
		call_user(u, a - t->true_lb, b - t->true_lb, count, type);
		vpmpi_pack(t, count, b - t->true_lb, inout);
	} else
		vpmpi_fail(MPI_ERR_NO_MEM, "a user op",
			   "no memory for %ld bytes", span);
	free(a);
	free(b);
}

void vpmpi_combine(MPI_Op op, MPI_Datatype type, int count, const void *in,
		   void *inout)
{
	const struct vpmpi_type *t;
	struct vpmpi_userop *u = user_op(op);
	elem_fn *fn;

	if (u) {
		combine_user(u, type, count, in, inout);
		return;
	}
	t = vpmpi_type_any(type, vpmpi_op_name(op));
	if (t && (fn = fn_of(t->elem)))
		fn(op, (long)count * t->nelems, in, inout);
}

/* A new user op of fn or fn_c (one NULL) in *op: MPI_SUCCESS or the
 * error raised naming call. */
static int op_create(MPI_User_function *fn, MPI_User_function_c *fn_c,
		     int commute, MPI_Op *op, const char *call)
{
	struct vpmpi_userop *n;
	int i;

	if ((!fn && !fn_c) || !op)
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s is NULL",
				  !op ? "op pointer" : "function");
	for (i = 0; i < vpmpi_me.nops; i++)
		if (!vpmpi_me.ops[i].fn && !vpmpi_me.ops[i].fn_c)
			break;
	if (i == vpmpi_me.nops) { /* the table doubles */
		int cap = i ? 2 * i : 8;

		n = realloc(vpmpi_me.ops, (size_t)cap * sizeof(*n));
		if (!n)
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for an op");
		memset(n + i, 0, (size_t)(cap - i) * sizeof(*n));
		vpmpi_me.ops = n;
		vpmpi_me.nops = cap;
	}
	vpmpi_me.ops[i] =
	    (struct vpmpi_userop){ fn, fn_c, commute != 0, 0, 0 };
	*op = VPMPI_FIRST_OP + i;
	return MPI_SUCCESS;
}

int MPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op)
{
	return op_create(function, NULL, commute, op, "MPI_Op_create");
}

/* MPI 4.0 sec. 6.9.5: the function takes its count as an MPI_Count. */
int MPI_Op_create_c(MPI_User_function_c *function, int commute, MPI_Op *op)
{
	return op_create(NULL, function, commute, op, "MPI_Op_create_c");
}

int MPI_Op_free(MPI_Op *op)
{
	struct vpmpi_userop *u = op ? user_op(*op) : NULL;

	if (!u)
		return vpmpi_fail(MPI_ERR_OP, "MPI_Op_free",
				  "%s is not an op made by MPI_Op_create",
				  op ? vpmpi_op_name(*op) : "NULL");
	if (u->refs)
		u->freed = 1; /* the last pending collective frees it */
	else
		u->fn = NULL, u->fn_c = NULL;
	*op = MPI_OP_NULL;
	return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int *commute)
{
	if (op < MPI_MAX || (op > MPI_REPLACE && !user_op(op)))
		return vpmpi_fail(MPI_ERR_OP, "MPI_Op_commutative",
				  "op %d is not an op", op);
	*commute = vpmpi_commutative(op);
	return MPI_SUCCESS;
}

int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
		     MPI_Datatype type, MPI_Op op)
{
	const struct vpmpi_type *t;
	long n;
	void *a = NULL, *b = NULL;
	int rc;

	if ((rc = vpmpi_check_op(MPI_COMM_WORLD, type, op, "MPI_Reduce_local")))
		return rc;
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, "MPI_Reduce_local",
				  "count %d is negative", count);
	t = vpmpi_type_any(type, "MPI_Reduce_local");
	if (vpmpi_dense(t)) {
		vpmpi_combine(op, type, count, inbuf, inoutbuf);
		return MPI_SUCCESS;
	}
	n = (long)count * t->size;
	if (!(a = malloc((size_t)n + 1)) || !(b = malloc((size_t)n + 1))) {
		free(a);
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Reduce_local",
				  "no memory for %ld bytes", n);
	}
	vpmpi_pack(t, count, inbuf, a);
	vpmpi_pack(t, count, inoutbuf, b);
	vpmpi_combine(op, type, count, a, b);
	vpmpi_unpack(t, count, b, n, inoutbuf);
	free(a);
	free(b);
	return MPI_SUCCESS;
}

void vpmpi_ops_free(void);
void vpmpi_ops_free(void)
{
	free(vpmpi_me.ops);
	vpmpi_me.ops = NULL;
	vpmpi_me.nops = 0;
}
