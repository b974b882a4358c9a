/*
 * mpi_type_tree.c - datatypes of too many pieces to flatten, kept as the
 * tree of their constructors (struct vpmpi_tree): a vector of 2^31
 * pieces is one node, (count, stride) over one part, n items of its old
 * type. Its size, bounds and element count are computed at construction
 * from the extreme items alone (every bound is linear in the item's
 * indices, so the first and last item of each run reach it: MPI 4.0
 * sec. 4.1.7's lb and ub as min and max over the typemap); the data are
 * walked depth first in typemap order, and a node whose part is one run
 * of bytes is copied as a strided loop. Describing a type costs its
 * nesting; moving its data costs its bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

long vpmpi_type_pieces(const struct vpmpi_type *old, long n)
{
	if (old->tree)
		return LONG_MAX;
	if (n > 1 && old->nblocks == 1 && vpmpi_dense(old))
		return 1; /* n items of a dense type: one run */
	if (old->nblocks && n > VPMPI_FLAT_MAX)
		return LONG_MAX;
	return n * old->nblocks;
}

void vpmpi_tree_free(struct vpmpi_tree *tr)
{
	int i;

	if (!tr)
		return;
	for (i = 0; i < tr->nparts; i++)
		vpmpi_type_release(tr->parts[i].t);
	free(tr->parts);
	free(tr);
}

/* Merges the bounds of n items of old at disp into t: the first and the
 * last item. */
static void bounds_run(struct vpmpi_type *t, const struct vpmpi_type *old,
		       long disp, long n, int *first)
{
	vpmpi_type_bounds(t, old, disp, first);
	if (n > 1)
		vpmpi_type_bounds(t, old, disp + (n - 1) * old->extent, first);
}

struct vpmpi_type *vpmpi_tree_build(long count, long stride, int nparts,
				    const long *n, const MPI_Aint *disp,
				    const MPI_Datatype *types)
{
	struct vpmpi_type *t = vpmpi_type_new();
	struct vpmpi_tree *tr = calloc(1, sizeof(*tr));
	long size = 0, rep;
	long long nbasic = 0;
	int i, first = 1;

	if (!t || !tr || !(tr->parts = calloc((size_t)nparts + 1,
					      sizeof(*tr->parts)))) {
		free(t);
		free(tr);
		return NULL;
	}
	t->tree = tr;
	tr->count = count;
	tr->stride = stride;
	for (i = 0; i < nparts; i++) {
		struct vpmpi_type *old = vpmpi_lookup(types[i]);

		if (types[i] == MPI_LB || types[i] == MPI_UB || !n[i])
			continue;
		for (rep = 0; rep < (count > 1 ? 2 : count); rep++)
			bounds_run(t, old, disp[i] + rep * (count - 1) * stride,
				   n[i], &first);
		size += n[i] * old->size;
		nbasic += n[i] * vpmpi_type_nbasic(old);
		vpmpi_type_hold(old);
		tr->parts[tr->nparts++] =
		    (struct vpmpi_part){ disp[i], n[i], old };
	}
	t->size = size * count;
	t->nbasic = nbasic * count;
	/* nelems: the elements of elem, for reductions (one per item of
	 * a basic type, pairs counting one) */
	t->nelems = 0;
	for (i = 0; i < tr->nparts; i++)
		t->nelems += tr->parts[i].n * tr->parts[i].t->nelems;
	t->nelems *= count;
	return t;
}

/* The one run of bytes of n items of t (its offset and length), when
 * they are one: 1, else 0. */
static int one_run(const struct vpmpi_type *t, long n, long *off, long *len)
{
	if (t->tree || t->nblocks != 1)
		return 0;
	if (n == 1 || vpmpi_dense(t)) {
		*off = t->blocks[0].off;
		*len = n * t->blocks[0].len;
		return 1;
	}
	return 0;
}

/* One item of tree t at user: its parts, count times. */
static long tree_item(const struct vpmpi_tree *tr, char *user, char *packed,
		      long rest, int in)
{
	long moved = 0, i, off, len;
	int p;

	if (tr->nparts == 1 &&
	    one_run(tr->parts[0].t, tr->parts[0].n, &off, &len) &&
	    rest >= tr->count * len) {
		vpmpi_strided(user + tr->parts[0].disp + off, packed,
			      tr->count, tr->stride, len, in);
		return tr->count * len;
	}
	for (i = 0; i < tr->count && moved < rest; i++)
		for (p = 0; p < tr->nparts && moved < rest; p++)
			moved += vpmpi_tree_copy(
			    tr->parts[p].t, tr->parts[p].n,
			    user + i * tr->stride + tr->parts[p].disp,
			    packed + moved, rest - moved, in);
	return moved;
}

/* Copies count items of t (at most rest bytes of them) between user's
 * layout and packed bytes: into packed when in. Returns the bytes moved. */
long vpmpi_tree_copy(const struct vpmpi_type *t, long count, char *user,
		     char *packed, long rest, int in)
{
	long moved = 0, k, len;
	int b;

	if (!t->tree) {
		if (rest >= count * t->size) {
			if (in)
				vpmpi_pack(t, count, user, packed);
			else
				vpmpi_unpack(t, count, packed, rest, user);
			return count * t->size;
		}
		for (k = 0; k < count && moved < rest; k++)
			for (b = 0; b < t->nblocks && moved < rest; b++) {
				char *at = user + k * t->extent +
					   t->blocks[b].off;

				len = t->blocks[b].len < rest - moved
					  ? t->blocks[b].len
					  : rest - moved;
				memcpy(in ? packed + moved : at,
				       in ? at : packed + moved, (size_t)len);
				moved += len;
			}
		return moved;
	}
	for (k = 0; k < count && moved < rest; k++)
		moved += tree_item(t->tree, user + k * t->extent,
				   packed + moved, rest - moved, in);
	return moved;
}

int vpmpi_type_each(const struct vpmpi_type *t, long count, long base,
		    vpmpi_block_fn *fn, void *arg)
{
	const struct vpmpi_tree *tr = t->tree;
	struct vpmpi_block b;
	long k, i;
	int j, rc;

	for (k = 0; k < count; k++, base += t->extent) {
		for (j = 0; !tr && j < t->nblocks; j++) {
			b = t->blocks[j];
			b.off += base;
			if (b.len && (rc = fn(&b, arg)))
				return rc;
		}
		for (i = 0; tr && i < tr->count; i++)
			for (j = 0; j < tr->nparts; j++)
				if ((rc = vpmpi_type_each(
					 tr->parts[j].t, tr->parts[j].n,
					 base + i * tr->stride +
					     tr->parts[j].disp,
					 fn, arg)))
					return rc;
	}
	return 0;
}
