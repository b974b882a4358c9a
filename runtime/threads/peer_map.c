/*
 * peer_map.c - a rank's private map from (context, direction, peer) to
 * mailbox: open addressing with linear probing, grown at half full. Only the
 * owning thread touches it, so it needs no synchronization; it keeps the
 * inboxes' mutexes off the per-message path.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "threads.h"

#define EMPTY_KEY UINT64_MAX

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

struct vp__mailbox *vp__peer_map_find(const struct vp__peer_map *pm,
				      uint64_t key)
{
	size_t i;

	if (!pm->cap)
		return NULL;
	for (i = slot_of(key, pm->cap);; i = (i + 1) & (pm->cap - 1)) {
		if (pm->keys[i] == key)
			return pm->vals[i];
		if (pm->keys[i] == EMPTY_KEY)
			return NULL;
	}
}

static void insert(struct vp__peer_map *pm, uint64_t key,
		   struct vp__mailbox *mb)
{
	size_t i = slot_of(key, pm->cap);

	while (pm->keys[i] != EMPTY_KEY)
		i = (i + 1) & (pm->cap - 1);
	pm->keys[i] = key;
	pm->vals[i] = mb;
	pm->len++;
}

int vp__peer_map_put(struct vp__peer_map *pm, uint64_t key,
		     struct vp__mailbox *mb)
{
	if (2 * (pm->len + 1) > pm->cap) {
		struct vp__peer_map old = *pm;
		size_t i, cap = old.cap ? 2 * old.cap : 16;

		pm->keys = malloc(cap * sizeof(*pm->keys));
		pm->vals = malloc(cap * sizeof(*pm->vals));
		if (!pm->keys || !pm->vals) {
			free(pm->keys);
			free(pm->vals);
			*pm = old;
			return VP_ENOMEM;
		}
		pm->cap = cap;
		pm->len = 0;
		for (i = 0; i < cap; i++)
			pm->keys[i] = EMPTY_KEY;
		for (i = 0; i < old.cap; i++)
			if (old.keys[i] != EMPTY_KEY)
				insert(pm, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
	}
	insert(pm, key, mb);
	return 0;
}

void vp__peer_map_forget(struct vp__peer_map *pm, int ctx_lo, int ctx_hi)
{
	struct vp__peer_map old = *pm;
	size_t i;

	if (!old.cap)
		return;
	pm->keys = malloc(old.cap * sizeof(*pm->keys));
	pm->vals = malloc(old.cap * sizeof(*pm->vals));
	if (!pm->keys || !pm->vals) { /* keep the stale entries: harmless */
		free(pm->keys);
		free(pm->vals);
		*pm = old;
		return;
	}
	pm->len = 0;
	for (i = 0; i < old.cap; i++)
		pm->keys[i] = EMPTY_KEY;
	for (i = 0; i < old.cap; i++) {
		int ctx = (int)(old.keys[i] >> 32);

		if (old.keys[i] != EMPTY_KEY && (ctx < ctx_lo || ctx > ctx_hi))
			insert(pm, old.keys[i], old.vals[i]);
	}
	free(old.keys);
	free(old.vals);
}

void vp__peer_map_free(struct vp__peer_map *pm)
{
	free(pm->keys);
	free(pm->vals);
	pm->keys = NULL;
	pm->vals = NULL;
	pm->cap = pm->len = 0;
}
