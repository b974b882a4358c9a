/*
 * vec.c - a growable log owned by one rank (model events, link holds, trace
 * calls), stored in fixed chunks: appending never moves what is logged, so
 * a long run pays neither realloc's copies nor its page faults twice, and
 * element pointers stay valid. The first chunk starts small, malloc'd
 * or lent by the vec's owner: a run lends each rank's model logs a slice
 * of one array in huge pages (run.c), since malloc in many new threads
 * grows glibc's arenas a page at a time, about one page fault a rank,
 * and on a virtual machine a first touch can cost tens of microseconds.
 * Chunks after the first are mapped with MAP_POPULATE: one system call
 * faults in their pages at once, cheaper than a fault a page.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vec.h"
#include "vp.h"

void vp__vec_lend(struct vp__vec *v, void *mem, size_t n)
{
	v->lent = mem;
	v->chunks = mem;
	v->cap_chunks = VP__VEC_LENT_PTRS;
	v->chunks[0] = (char *)mem + VP__VEC_LENT_PTRS * sizeof(void *);
	v->nchunks = 1;
	/* the first growth goes to VP__VEC_SMALL, which must be more */
	v->small = n < VP__VEC_SMALL ? n : VP__VEC_SMALL - 1;
}

/* Whether the first chunk is still the lent one. */
static int first_lent(const struct vp__vec *v)
{
	return v->lent && v->nchunks &&
	       v->chunks[0] ==
		   (char *)v->lent + VP__VEC_LENT_PTRS * sizeof(void *);
}

/* The chunk pointers, room for twice as many (the lent ones copied out). */
static int more_chunk_pointers(struct vp__vec *v)
{
	size_t cap = v->cap_chunks ? 2 * v->cap_chunks : 8;
	void **d;

	if (v->lent && v->chunks == v->lent) {
		if ((d = malloc(cap * sizeof(*d))))
			memcpy(d, v->chunks, v->nchunks * sizeof(*d));
	} else {
		d = realloc(v->chunks, cap * sizeof(*d));
	}
	if (!d)
		return -1;
	v->chunks = d;
	v->cap_chunks = cap;
	return 0;
}

/* The first chunk, full at small elements, grows: from lent memory to
 * VP__VEC_SMALL malloc'd, from those to a whole chunk. */
static int first_chunk_grow(struct vp__vec *v)
{
	int lent = first_lent(v);
	void *d;

	if (lent) {
		if ((d = malloc(VP__VEC_SMALL * v->elem)))
			memcpy(d, v->chunks[0], v->len * v->elem);
	} else {
		d = realloc(v->chunks[0], VP__VEC_CHUNK * v->elem);
	}
	if (!d)
		return -1;
	v->chunks[0] = d;
	if (lent)
		v->small = VP__VEC_SMALL;
	return 0;
}

void *vp__vec_append_grow(struct vp__vec *v)
{
	size_t c = v->len / VP__VEC_CHUNK;

	if (!v->small) /* zeroed, never lent */
		v->small = VP__VEC_SMALL;
	if (c == v->nchunks) {
		if (v->nchunks == v->cap_chunks && more_chunk_pointers(v))
			goto dropped;
		if (c == 0) {
			v->chunks[0] = malloc(v->small * v->elem);
		} else {
			v->chunks[c] = mmap(
			    NULL, VP__VEC_CHUNK * v->elem,
			    PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
			if (v->chunks[c] == MAP_FAILED)
				v->chunks[c] = NULL;
		}
		if (!v->chunks[c])
			goto dropped;
		v->nchunks++;
	} else if (c == 0 && v->len == v->small && first_chunk_grow(v)) {
		goto dropped;
	}
	return vp__vec_at(v, v->len++);
dropped:
	v->dropped++;
	return NULL;
}

int vp__vec_push(struct vp__vec *v, const void *elem)
{
	void *at = vp__vec_append(v);

	if (!at)
		return VP_ENOMEM;
	memcpy(at, elem, v->elem);
	return 0;
}

void vp__vec_free(struct vp__vec *v)
{
	size_t c;

	for (c = 0; c < v->nchunks; c++)
		if (c > 0)
			munmap(v->chunks[c], VP__VEC_CHUNK * v->elem);
		else if (!first_lent(v))
			free(v->chunks[c]);
	if (v->chunks != v->lent)
		free(v->chunks);
	v->chunks = NULL;
	v->lent = NULL;
	v->small = 0;
	v->len = v->nchunks = v->cap_chunks = 0;
}
