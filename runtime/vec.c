/*
 * vec.c - a growable log owned by one rank (model events, link holds, trace
 * calls), stored in fixed chunks: appending never moves what is logged, so
 * a long run pays neither realloc's copies nor its page faults twice, and
 * element pointers stay valid. Chunks after the first are mapped with
 * MAP_POPULATE: one system call faults in their pages at once, where
 * touching them one by one cost ~5 us a page on this VM (measured: a
 * quarter of a p = 2 broadcast loop).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vec.h"
#include "vp.h"

void *vp__vec_append_grow(struct vp__vec *v)
{
	size_t c = v->len / VP__VEC_CHUNK;

	if (c == v->nchunks) {
		if (v->nchunks == v->cap_chunks) {
			size_t cap = v->cap_chunks ? 2 * v->cap_chunks : 8;
			void **d = realloc(v->chunks, cap * sizeof(*d));
			if (!d)
				goto dropped;
			v->chunks = d;
			v->cap_chunks = cap;
		}
		/* the first chunk starts small: most logs are short */
		if (c == 0) {
			v->chunks[0] = malloc(64 * v->elem);
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
	} else if (c == 0 && v->len == 64) {
		void *d = realloc(v->chunks[0], VP__VEC_CHUNK * v->elem);
		if (!d)
			goto dropped;
		v->chunks[0] = d;
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
		if (c == 0)
			free(v->chunks[c]);
		else
			munmap(v->chunks[c], VP__VEC_CHUNK * v->elem);
	free(v->chunks);
	v->chunks = NULL;
	v->len = v->nchunks = v->cap_chunks = 0;
}
