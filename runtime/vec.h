/*
 * vec.h - a growable log owned by one rank (model events, link holds, trace
 * calls), in chunks that never move (vec.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_VEC_H
#define VP_RUNTIME_VEC_H

#include <stddef.h>

#define VP__VEC_CHUNK ((size_t)4096)
/* The first chunk starts small, most logs being short: a few elements
 * in memory lent by the owner (vp__vec_lend; the model's clock says how
 * many), then VP__VEC_SMALL malloc'd, then a whole chunk. */
#define VP__VEC_SMALL ((size_t)64)
#define VP__VEC_LENT_PTRS ((size_t)8) /* chunk pointers in lent memory */
struct vp__vec {
	void **chunks;
	size_t nchunks, cap_chunks;
	size_t len, elem;
	size_t small; /* the first chunk's room while small; 0: 64 */
	void *lent;   /* the owner's memory (vp__vec_lend), not freed here */
	size_t dropped; /* pushes that found no memory (reported in stats) */
};

/* Bytes of memory vp__vec_lend takes for n elements of elem bytes. */
static inline size_t vp__vec_lent_bytes(size_t elem, size_t n)
{
	return VP__VEC_LENT_PTRS * sizeof(void *) + n * elem;
}
/* An empty v (zeroed, elem set) starts in mem, vp__vec_lent_bytes long,
 * aligned to 8 and owned by the caller, who frees it after
 * vp__vec_free(v): no allocation until n elements (1 <= n <
 * VP__VEC_SMALL). */
void vp__vec_lend(struct vp__vec *v, void *mem, size_t n);

static inline void *vp__vec_at(const struct vp__vec *v, size_t i)
{
	return (char *)v->chunks[i / VP__VEC_CHUNK] +
	       (i % VP__VEC_CHUNK) * v->elem;
}

/* Appends a copy of elem: 0, or VP_ENOMEM (counted in dropped). */
int vp__vec_push(struct vp__vec *v, const void *elem);
/* The slow half of vp__vec_append: a new chunk, or the first one grown. */
void *vp__vec_append_grow(struct vp__vec *v);

/* Appends an element and returns it for the caller to fill (not zeroed),
 * or NULL when no memory (counted in dropped). Inside a chunk this is an
 * increment: a message logs two or three events, and a call to memcpy of
 * a size known only at run time cost more than filling them in place. */
static inline void *vp__vec_append(struct vp__vec *v)
{
	size_t i = v->len;

	/* i % VP__VEC_CHUNK == 0 needs a new chunk; at small the first
	 * chunk grows to a whole one */
	if (__builtin_expect(i % VP__VEC_CHUNK == 0 || i == v->small, 0))
		return vp__vec_append_grow(v);
	v->len++;
	return vp__vec_at(v, i);
}
void vp__vec_free(struct vp__vec *v);

#endif /* VP_RUNTIME_VEC_H */
