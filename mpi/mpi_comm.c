/*
 * mpi_comm.c - communicator handles and datatypes of the MPI layer.
 *
 * A communicator handle indexes the rank's table (MPI_COMM_WORLD = 1,
 * MPI_COMM_SELF = 2, the program's own from 3); handles are per rank, as
 * in MPI, and every rank of a split gets the same number only if it made
 * the same calls (the program cannot tell). Datatypes are the basic C
 * types; reductions map them onto vp's element types where the result is
 * exactly MPI's, and fail the run naming type and op where it would not be.
 */
#include <stdint.h>

#include "vpmpi.h"

vp_comm *vpmpi_comm(MPI_Comm h, const char *call)
{
	if (h > 0 && h < VPMPI_MAX_COMMS && vpmpi_me.comm[h])
		return vpmpi_me.comm[h];
	vpmpi_fail(MPI_ERR_COMM, call,
		   h == MPI_COMM_NULL ? "communicator is MPI_COMM_NULL"
		   : vpmpi_me.initialized
		       ? "communicator handle %d is not a live communicator"
		       : "communicator handle %d used before MPI_Init",
		   h);
	return NULL;
}

/* A new handle for c (MPI_COMM_NULL for NULL), or -1 when full. */
static int comm_put(vp_comm *c)
{
	int h;

	if (!c)
		return MPI_COMM_NULL;
	for (h = MPI_COMM_SELF + 1; h < VPMPI_MAX_COMMS; h++)
		if (!vpmpi_me.comm[h]) {
			vpmpi_me.comm[h] = c;
			return h;
		}
	return -1;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Comm_rank");

	if (!c)
		return MPI_ERR_COMM;
	*rank = vp_rank(c);
	return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Comm_size");

	if (!c)
		return MPI_ERR_COMM;
	*size = vp_size(c);
	return MPI_SUCCESS;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Comm_split"), *sub;
	int rc, h;

	if (!c)
		return MPI_ERR_COMM;
	if (color < 0 && color != MPI_UNDEFINED)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Comm_split",
				  "color %d is negative and not MPI_UNDEFINED",
				  color);
	rc = vp_comm_split(c, color == MPI_UNDEFINED ? VP_UNDEFINED : color,
			   key, &sub);
	if (rc)
		return vpmpi_ret(rc);
	if ((h = comm_put(sub)) < 0) {
		vp_comm_free(sub);
		return vpmpi_fail(MPI_ERR_NO_MEM, "MPI_Comm_split",
				  "more than %d communicators",
				  VPMPI_MAX_COMMS - 3);
	}
	*newcomm = h;
	return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	vp_comm *c = vpmpi_comm(comm, "MPI_Comm_dup");

	if (!c)
		return MPI_ERR_COMM;
	return MPI_Comm_split(comm, 0, vp_rank(c), newcomm);
}

int MPI_Comm_free(MPI_Comm *comm)
{
	vp_comm *c;
	int rc;

	if (!comm || *comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
		return vpmpi_fail(MPI_ERR_COMM, "MPI_Comm_free",
				  "%s cannot be freed",
				  !comm ? "a NULL handle pointer"
				  : *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
							    : "MPI_COMM_SELF");
	if (!(c = vpmpi_comm(*comm, "MPI_Comm_free")))
		return MPI_ERR_COMM;
	rc = vp_comm_free(c);
	vpmpi_me.comm[*comm] = NULL;
	*comm = MPI_COMM_NULL;
	return vpmpi_ret(rc);
}

int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result)
{
	vp_comm *ca = vpmpi_comm(a, "MPI_Comm_compare"), *cb;
	int i, same = 1;

	if (!ca || !(cb = vpmpi_comm(b, "MPI_Comm_compare")))
		return MPI_ERR_COMM;
	if (ca == cb) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (vp_size(ca) != vp_size(cb)) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	for (i = 0; i < vp_size(ca); i++)
		same &= vp_world_rank(ca, i) == vp_world_rank(cb, i);
	/* same ranks in the same order: congruent; SIMILAR (same ranks,
	 * another order) is reported as UNEQUAL in this part */
	*result = same ? MPI_CONGRUENT : MPI_UNEQUAL;
	return MPI_SUCCESS;
}

/* ---- datatypes ---- */

struct type_info {
	const char *name;
	unsigned char size;
	signed char vp;	   /* exact vp element type, or -1 */
	unsigned char uns; /* unsigned: MIN and MAX would differ */
};

static const struct type_info types[] = {
    [MPI_CHAR] = { "MPI_CHAR", 1, -1, 0 },
    [MPI_SIGNED_CHAR] = { "MPI_SIGNED_CHAR", 1, -1, 0 },
    [MPI_UNSIGNED_CHAR] = { "MPI_UNSIGNED_CHAR", 1, VP_BYTE, 1 },
    [MPI_BYTE] = { "MPI_BYTE", 1, VP_BYTE, 1 },
    [MPI_SHORT] = { "MPI_SHORT", sizeof(short), -1, 0 },
    [MPI_UNSIGNED_SHORT] = { "MPI_UNSIGNED_SHORT", sizeof(short), -1, 1 },
    [MPI_INT] = { "MPI_INT", sizeof(int), VP_INT32, 0 },
    [MPI_UNSIGNED] = { "MPI_UNSIGNED", sizeof(int), VP_INT32, 1 },
    [MPI_LONG] = { "MPI_LONG", sizeof(long), VP_INT64, 0 },
    [MPI_UNSIGNED_LONG] = { "MPI_UNSIGNED_LONG", sizeof(long), VP_INT64, 1 },
    [MPI_LONG_LONG_INT] = { "MPI_LONG_LONG", sizeof(long long), VP_INT64,
			    0 },
    [MPI_UNSIGNED_LONG_LONG] = { "MPI_UNSIGNED_LONG_LONG",
				 sizeof(long long), VP_INT64, 1 },
    [MPI_FLOAT] = { "MPI_FLOAT", sizeof(float), VP_FLOAT, 0 },
    [MPI_DOUBLE] = { "MPI_DOUBLE", sizeof(double), VP_DOUBLE, 0 },
    [MPI_LONG_DOUBLE] = { "MPI_LONG_DOUBLE", sizeof(long double), -1, 0 },
    [MPI_INT8_T] = { "MPI_INT8_T", 1, -1, 0 },
    [MPI_INT16_T] = { "MPI_INT16_T", 2, -1, 0 },
    [MPI_INT32_T] = { "MPI_INT32_T", 4, VP_INT32, 0 },
    [MPI_INT64_T] = { "MPI_INT64_T", 8, VP_INT64, 0 },
    [MPI_UINT8_T] = { "MPI_UINT8_T", 1, VP_BYTE, 1 },
    [MPI_UINT16_T] = { "MPI_UINT16_T", 2, -1, 1 },
    [MPI_UINT32_T] = { "MPI_UINT32_T", 4, VP_INT32, 1 },
    [MPI_UINT64_T] = { "MPI_UINT64_T", 8, VP_INT64, 1 },
    [MPI_C_BOOL] = { "MPI_C_BOOL", sizeof(_Bool), -1, 1 },
    [MPI_PACKED] = { "MPI_PACKED", 1, -1, 1 },
    [MPI_WCHAR] = { "MPI_WCHAR", 4, -1, 1 },
};

#define NTYPES ((int)(sizeof(types) / sizeof(types[0])))

static const struct type_info *type_of(MPI_Datatype t)
{
	return t > 0 && t < NTYPES && types[t].size ? &types[t] : NULL;
}

/* type's entry, or NULL after failing the run naming it. */
static const struct type_info *type_checked(MPI_Datatype type,
					    const char *call)
{
	const struct type_info *ti = type_of(type);

	if (!ti)
		vpmpi_fail(MPI_ERR_TYPE, call,
			   "datatype %d is not a datatype of this MPI subset",
			   type);
	return ti;
}

long vpmpi_bytes(int count, MPI_Datatype type, const char *call)
{
	const struct type_info *ti = type_checked(type, call);

	if (!ti)
		return -1;
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %d is negative",
				  count),
		       -1;
	return (long)count * ti->size;
}

int MPI_Type_size(MPI_Datatype type, int *size)
{
	long n = vpmpi_bytes(1, type, "MPI_Type_size");

	if (n < 0)
		return MPI_ERR_TYPE;
	*size = (int)n;
	return MPI_SUCCESS;
}

static const char *op_name(MPI_Op op)
{
	static const char *names[] = { "MPI_OP_NULL", "MPI_MAX", "MPI_MIN",
				       "MPI_SUM",     "MPI_PROD", "MPI_LAND",
				       "MPI_BAND",    "MPI_LOR",  "MPI_BOR",
				       "MPI_LXOR",    "MPI_BXOR" };

	return op >= 0 && op <= MPI_BXOR ? names[op] : "an unknown op";
}

int vpmpi_reduction(MPI_Datatype type, MPI_Op op, vp_op *vop,
		    const char *call)
{
	const struct type_info *ti = type_checked(type, call);
	int bitwise = op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR;
	int order = op == MPI_MIN || op == MPI_MAX;

	if (!ti)
		return -1;
	switch (op) {
	case MPI_MAX: *vop = VP_MAX; break;
	case MPI_MIN: *vop = VP_MIN; break;
	case MPI_SUM: *vop = VP_SUM; break;
	case MPI_PROD: *vop = VP_PROD; break;
	case MPI_BAND: *vop = VP_BAND; break;
	case MPI_BOR: *vop = VP_BOR; break;
	case MPI_BXOR: *vop = VP_BXOR; break;
	default:
		return vpmpi_fail(MPI_ERR_OP, call,
				  "%s is not supported by this MPI subset",
				  op_name(op)),
		       -1;
	}
	/* vp's 32- and 64-bit integers are signed (its BYTE is unsigned):
	 * for an unsigned type of those widths sums, products and bit
	 * operations are exact (they wrap), MIN and MAX are not; floats take
	 * no bit operations */
	if (ti->vp < 0 || (order && ti->uns && ti->vp != VP_BYTE) ||
	    (bitwise && (ti->vp == VP_FLOAT || ti->vp == VP_DOUBLE)) ||
	    (type == MPI_BYTE && !bitwise)) /* MPI: bytes take bit ops only */
		return vpmpi_fail(MPI_ERR_TYPE, call,
				  "%s on %s is not supported by this MPI "
				  "subset",
				  op_name(op), ti->name),
		       -1;
	return ti->vp;
}
