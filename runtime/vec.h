/*
 * vec.h - a growable log owned by one rank (model events, link holds, trace
 * calls), in chunks that never move (vec.c).
 */
#ifndef VP_RUNTIME_VEC_H
#define VP_RUNTIME_VEC_H

#include <stddef.h>

#define VP__VEC_CHUNK ((size_t)4096)
struct vp__vec {
	void **chunks;
	size_t nchunks, cap_chunks;
	size_t len, elem;
	size_t dropped; /* pushes that found no memory (reported in stats) */
};

static inline void *vp__vec_at(const struct vp__vec *v, size_t i)
{
	return (char *)v->chunks[i / VP__VEC_CHUNK] +
	       (i % VP__VEC_CHUNK) * v->elem;
}

/* Appends a copy of elem: 0, or VP_ENOMEM (counted in dropped). */
int vp__vec_push(struct vp__vec *v, const void *elem);
void vp__vec_free(struct vp__vec *v);

#endif /* VP_RUNTIME_VEC_H */
