/*
 * bulk.h - the world's per-rank arrays (one struct a rank, p of them),
 * zeroed, in pages of 2 MiB where they are that large (bulk.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUNTIME_BULK_H
#define VP_RUNTIME_BULK_H

#include <stddef.h>

/* bytes of zeroed memory aligned to a cache line; NULL when there is
 * none. */
void *vp__bulk_alloc(size_t bytes);
/* Frees what vp__bulk_alloc(bytes) returned (NULL: nothing). */
void vp__bulk_free(void *at, size_t bytes);

#endif /* VP_RUNTIME_BULK_H */
