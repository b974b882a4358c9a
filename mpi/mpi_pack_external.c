/*
 * mpi_pack_external.c - MPI_Pack_external, MPI_Unpack_external and
 * MPI_Pack_external_size in the "external32" representation (MPI 4.0,
 * sec. 5.2.3 and 14.5.2, Table 14.2): every basic element big-endian, at
 * its external size (MPI_LONG and MPI_UNSIGNED_LONG 4 bytes, MPI_WCHAR 2,
 * MPI_LONG_DOUBLE a 16-byte IEEE 754 binary128), integers converted with
 * their sign, a complex number as its two parts. A datatype's blocks know
 * their elements' predefined type, which says each element's conversion.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>
#include <string.h>

#include "vpmpi.h"

enum ext_kind { EXT_BYTES, EXT_SIGNED, EXT_UNSIGNED, EXT_FLOAT, EXT_LDBL };

/* The conversion of elements of type bt and their external size. */
static enum ext_kind ext_of(MPI_Datatype bt, long *xsize)
{
	long n = vpmpi_basic[bt].size;

	*xsize = n;
	switch (bt) {
	case MPI_LONG:
		*xsize = 4;
		return EXT_SIGNED;
	case MPI_UNSIGNED_LONG:
		*xsize = 4;
		return EXT_UNSIGNED;
	case MPI_WCHAR:
		*xsize = 2;
		return EXT_UNSIGNED;
	case MPI_SHORT: case MPI_INT: case MPI_LONG_LONG_INT:
	case MPI_INT16_T: case MPI_INT32_T: case MPI_INT64_T:
	case MPI_AINT: case MPI_OFFSET: case MPI_COUNT: case MPI_LOGICAL:
	case MPI_INTEGER16:
		return EXT_SIGNED;
	case MPI_UNSIGNED_SHORT: case MPI_UNSIGNED: case MPI_UNSIGNED_LONG_LONG:
	case MPI_UINT16_T: case MPI_UINT32_T: case MPI_UINT64_T:
		return EXT_UNSIGNED;
	case MPI_FLOAT: case MPI_DOUBLE:
		return EXT_FLOAT;
	case MPI_LONG_DOUBLE:
		*xsize = 16;
		return EXT_LDBL;
	default: /* bytes, characters, booleans */
		return EXT_BYTES;
	}
}

/* A complex type's part, or bt itself. */
static MPI_Datatype part_of(MPI_Datatype bt, int *parts)
{
	*parts = 2;
	switch (bt) {
	case MPI_C_FLOAT_COMPLEX:
		return MPI_FLOAT;
	case MPI_C_DOUBLE_COMPLEX:
		return MPI_DOUBLE;
	case MPI_C_LONG_DOUBLE_COMPLEX:
		return MPI_LONG_DOUBLE;
	default:
		*parts = 1;
		return bt;
	}
}

int vpmpi_block_joins(const struct vpmpi_block *b, long esz,
		      MPI_Datatype bt)
{
	long x1, x2;
	int p1, p2;
	enum ext_kind k1, k2;

	if (b->esz != esz)
		return 0;
	if (b->bt == bt)
		return 1;
	k1 = ext_of(part_of(b->bt, &p1), &x1);
	k2 = ext_of(part_of(bt, &p2), &x2);
	return p1 == 1 && p2 == 1 && x1 == esz && x2 == esz &&
	       k1 != EXT_LDBL && k2 != EXT_LDBL;
}

/* The external size of one element of type bt. */
static long ext_size(MPI_Datatype bt)
{
	long x;
	int parts;

	ext_of(part_of(bt, &parts), &x);
	return parts * x;
}

/* Reverses n bytes on a little-endian machine (copies on a big one). */
static void to_big(const unsigned char *in, unsigned char *out, long n)
{
	long i;

	for (i = 0; i < n; i++)
		out[i] = in[__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? n - 1 - i
								       : i];
}

/* An integer of n native bytes to x big-endian bytes (sign or zero
 * extended, or its low bytes), and back with to == 0. */
static void int_conv(const unsigned char *in, long n, unsigned char *out,
		     long x, int is_signed, int to)
{
	unsigned char be[16], r[16], ext;
	long from = to ? n : x, dst = to ? x : n, i;

	if (to)
		to_big(in, be, n);
	else
		memcpy(be, in, (size_t)x);
	ext = is_signed && (be[0] & 0x80) ? 0xff : 0;
	/* be holds `from` big-endian bytes; r the last `dst` of them */
	for (i = 0; i < dst; i++) {
		long k = from - dst + i;

		r[i] = k < 0 ? ext : be[k];
	}
	if (to)
		memcpy(out, r, (size_t)x);
	else
		to_big(r, out, n);
}

/* long double (x87's 80 bits when LDBL_MANT_DIG is 64) and binary128. */
static void ldbl_conv(const unsigned char *in, unsigned char *out, int to)
{
	unsigned char q[16];
	unsigned __int128 f = 0;
	unsigned long long mant;
	unsigned se;

	if (LDBL_MANT_DIG != 64) { /* binary128 already */
		to_big(in, out, 16);
		return;
	}
	if (to) { /* sign and exponent, then the 63 fraction bits */
		memcpy(&mant, in, 8);
		se = (unsigned)in[8] | (unsigned)in[9] << 8;
		f = (unsigned __int128)se << 112 |
		    (unsigned __int128)(mant & ~(1ULL << 63)) << 49;
		memcpy(q, &f, 16);
		to_big(q, out, 16);
		return;
	}
	to_big(in, q, 16);
	memcpy(&f, q, 16);
	se = (unsigned)(f >> 112) & 0xffff;
	mant = (unsigned long long)(f >> 49) & ~(1ULL << 63);
	if (se & 0x7fff) /* normal, infinite or NaN: the integer bit */
		mant |= 1ULL << 63;
	memset(out, 0, (size_t)vpmpi_basic[MPI_LONG_DOUBLE].size);
	memcpy(out, &mant, 8);
	out[8] = (unsigned char)se;
	out[9] = (unsigned char)(se >> 8);
}

/* One element of type bt between native (nat) and external (ext). */
static void elem_conv(MPI_Datatype bt, unsigned char *nat,
		      unsigned char *ext, int to)
{
	int parts, p;
	MPI_Datatype part = part_of(bt, &parts);
	long x, n = vpmpi_basic[part].size;
	enum ext_kind k = ext_of(part, &x);

	for (p = 0; p < parts; p++, nat += n, ext += x)
		switch (k) {
		case EXT_BYTES:
			memcpy(to ? ext : nat, to ? nat : ext, (size_t)n);
			break;
		case EXT_FLOAT:
			to_big(to ? nat : ext, to ? ext : nat, n);
			break;
		case EXT_LDBL:
			ldbl_conv(to ? nat : ext, to ? ext : nat, to);
			break;
		default:
			int_conv(to ? nat : ext, n, to ? ext : nat, x,
				 k == EXT_SIGNED, to);
		}
}

/* Walks the blocks of a type: their external32 bytes summed (ext NULL),
 * or each element converted between buf and ext (to external32: to). */
struct ext_walk {
	char *buf;
	unsigned char *ext;
	long bytes;
	int to;
};

static int ext_block(const struct vpmpi_block *k, void *arg)
{
	struct ext_walk *w = arg;
	long e, xs = ext_size(k->bt);

	if (!w->ext) {
		w->bytes += k->len / k->esz * xs;
		return 0;
	}
	for (e = 0; e < k->len / k->esz; e++, w->ext += xs)
		elem_conv(k->bt, (unsigned char *)w->buf + k->off + e * k->esz,
			  w->ext, w->to);
	return 0;
}

/* The external32 bytes of count items of t. */
static long ext_bytes(const struct vpmpi_type *t, long count)
{
	struct ext_walk w = { NULL, NULL, 0, 0 };

	vpmpi_type_each(t, 1, 0, ext_block, &w);
	return w.bytes * count;
}

/* Converts count items of t between buf and packed external32 bytes. */
static void ext_walk(const struct vpmpi_type *t, long count, char *buf,
		     unsigned char *ext, int to)
{
	struct ext_walk w = { buf, ext, 0, to };

	vpmpi_type_each(t, count, 0, ext_block, &w);
}

/* The type of a call, after checking datarep and count; NULL after the
 * error. */
static const struct vpmpi_type *ext_check(const char *datarep, long count,
					  MPI_Datatype type, const char *call)
{
	const struct vpmpi_type *t;

	if (vpmpi_started(call))
		return NULL;
	if (!datarep || strcmp(datarep, "external32"))
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "data representation '%s' is not "
				  "\"external32\"",
				  datarep ? datarep : "(NULL)"),
		       NULL;
	if (count < 0)
		return vpmpi_fail(MPI_ERR_COUNT, call, "count %ld is negative",
				  count),
		       NULL;
	if (!(t = vpmpi_type_any(type, call)))
		return NULL;
	if (!t->committed)
		return vpmpi_fail(MPI_ERR_TYPE, call,
				  "datatype %d is not committed "
				  "(MPI_Type_commit)",
				  type),
		       NULL;
	return t;
}

int MPI_Pack_external_size(const char datarep[], int incount,
			   MPI_Datatype type, MPI_Aint *size)
{
	const struct vpmpi_type *t =
	    ext_check(datarep, incount, type, "MPI_Pack_external_size");

	if (!t)
		return vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_ARG;
	if (!size)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Pack_external_size",
				  "size is NULL");
	*size = ext_bytes(t, incount);
	return MPI_SUCCESS;
}

/* Whether n bytes at *position fit a size-byte buffer (else the error). */
static int ext_fits(long n, MPI_Aint size, const MPI_Aint *position,
		    const char *call)
{
	if (!position || *position < 0 || *position + n > size)
		return vpmpi_fail(MPI_ERR_TRUNCATE, call,
				  "%ld bytes at position %ld are outside the "
				  "%ld-byte buffer",
				  n, position ? (long)*position : -1L,
				  (long)size);
	return MPI_SUCCESS;
}

int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
		      MPI_Datatype type, void *outbuf, MPI_Aint outsize,
		      MPI_Aint *position)
{
	static const char call[] = "MPI_Pack_external";
	const struct vpmpi_type *t = ext_check(datarep, incount, type, call);
	long n;
	int rc;

	if (!t)
		return vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_ARG;
	n = ext_bytes(t, incount);
	if ((rc = ext_fits(n, outsize, position, call)))
		return rc;
	ext_walk(t, incount, (char *)inbuf,
		 (unsigned char *)outbuf + *position, 1);
	*position += n;
	return MPI_SUCCESS;
}

int MPI_Unpack_external(const char datarep[], const void *inbuf,
			MPI_Aint insize, MPI_Aint *position, void *outbuf,
			int outcount, MPI_Datatype type)
{
	static const char call[] = "MPI_Unpack_external";
	const struct vpmpi_type *t = ext_check(datarep, outcount, type, call);
	long n;
	int rc;

	if (!t)
		return vpmpi_me.last_class ? vpmpi_me.last_class : MPI_ERR_ARG;
	n = ext_bytes(t, outcount);
	if ((rc = ext_fits(n, insize, position, call)))
		return rc;
	ext_walk(t, outcount, outbuf,
		 (unsigned char *)inbuf + *position, 0);
	*position += n;
	return MPI_SUCCESS;
}
