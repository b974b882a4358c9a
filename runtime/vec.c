/*
 * vec.c - a growable array owned by one rank (model event and link logs).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int vp__vec_push(struct vp__vec *v, const void *elem)
{
	if (v->len == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 64;
		void *d = realloc(v->data, cap * v->elem);
		if (!d)
			return VP_ENOMEM;
		v->data = d;
		v->cap = cap;
	}
	memcpy((char *)v->data + v->len * v->elem, elem, v->elem);
	v->len++;
	return 0;
}

void vp__vec_free(struct vp__vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}
