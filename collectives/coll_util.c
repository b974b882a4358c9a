/*
 * coll_util.c - views, chunk layouts and small helpers of the collectives
 * (see coll.h). Only the public API is used here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

/* k mod n (C's %, so the sign of k) without a division where k lies in
 * [0, 2n), as a member index plus a rotation does: an integer division
 * takes tens of cycles, and a collective at p = 2 made three of them
 * before its first message. */
static int wrap(int k, int n)
{
	if ((unsigned)k < (unsigned)n)
		return k;
	if (k >= n && k - n < n)
		return k - n;
	return k % n;
}

void vp__view_all(struct view *v, vp_comm *c, int rot)
{
	int p = vp_size(c);

	v->c = c;
	v->n = p;
	v->base = 0;
	v->stride = 1;
	v->rot = rot;
	v->xor_rot = 0;
	v->members = NULL;
	v->me = wrap(vp_rank(c) - rot + p, p);
}

void vp__view_tree(struct view *v, vp_comm *c, int root)
{
	vp__view_all(v, c, root);
	if (vp__is_pow2(v->n)) {
		v->xor_rot = 1;
		v->me = vp_rank(c) ^ root;
	}
}

void vp__view_strided(struct view *v, vp_comm *c, int base, int stride, int n,
		      int rot)
{
	int off = vp_rank(c) - base;

	v->c = c;
	v->n = n;
	v->base = base;
	v->stride = stride;
	v->rot = rot;
	v->xor_rot = 0;
	v->members = NULL;
	v->me = -1;
	if (off >= 0 && off % stride == 0 && off / stride < n)
		v->me = wrap(off / stride - rot + n, n);
}

void vp__blocks_by_member(const struct view *v, char *members,
			  const char *ranks, size_t bytes)
{
	int j;

	for (j = 0; j < v->n; j++)
		vp__copy(members + (size_t)j * bytes,
			 ranks + (size_t)vp__view_rank(v, j) * bytes, bytes);
}

void vp__blocks_by_rank(const struct view *v, char *ranks, const char *members,
			size_t bytes)
{
	int j;

	for (j = 0; j < v->n; j++)
		vp__copy(ranks + (size_t)vp__view_rank(v, j) * bytes,
			 members + (size_t)j * bytes, bytes);
}

int vp__view_rank(const struct view *v, int j)
{
	if (v->members)
		return v->members[j];
	if (v->xor_rot)
		return j ^ v->rot;
	return v->base + wrap(j + v->rot, v->n) * v->stride;
}

int vp__vsend(const struct view *v, int j, const void *buf, size_t n)
{
	return vp_send(v->c, vp__view_rank(v, j), buf, n);
}

int vp__vrecv(const struct view *v, int j, void *buf, size_t n)
{
	return vp_recv(v->c, vp__view_rank(v, j), buf, n);
}

int vp__vsendrecv(const struct view *v, int dst, const void *sbuf, size_t sn,
		  int src, void *rbuf, size_t rn)
{
	return vp_sendrecv(v->c, vp__view_rank(v, dst), sbuf, sn,
			   vp__view_rank(v, src), rbuf, rn);
}

int vp__is_pow2(long x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

int vp__log2_ceil(long x)
{
	int d = 0;

	while ((1L << d) < x)
		d++;
	return d;
}

int vp__popcount(unsigned long x)
{
	return __builtin_popcountl(x);
}

int vp__is_world(vp_comm *c)
{
	return vp_comm_is_world(c);
}

int vp__grid(vp_comm *c, int *rows, int *cols, const char **why)
{
	int k, p = vp_size(c);
	vp_topo t;

	if (!vp_topo_info(c, &t) && t.ndims == 2 && vp__is_world(c)) {
		*rows = t.dims[0];
		*cols = t.dims[1];
		return 0;
	}
	for (k = 1; k * k < p; k++)
		;
	if (k * k == p) {
		*rows = *cols = k;
		return 0;
	}
	*why = "mesh algorithms need a 2-D grid: the whole mesh or torus "
	       "world in rank order, or p a perfect square";
	return -1;
}

void *vp__alloc(const struct coll *a, size_t n)
{
	void *m = malloc(n ? n : 1);

	if (!m)
		vp_abort(a->c, VP_ENOMEM, vp_coll_name(a->op),
			 "no memory for %zu bytes of scratch", n);
	return m;
}

int vp__binomial_subtree(int me, int n)
{
	int low = me ? (me & -me) : n;

	return low < n - me ? low : n - me;
}

void vp__copy(void *dst, const void *src, size_t n)
{
	if (dst != src && n)
		memcpy(dst, src, n);
}

void *vp__reduce_acc(const struct coll *a, int has_rbuf)
{
	void *acc = has_rbuf ? a->rbuf : vp__alloc(a, a->bytes);

	if (acc)
		vp__copy(acc, a->sbuf, a->bytes);
	return acc;
}

void vp__reduce_acc_free(const struct coll *a, void *acc)
{
	if (acc != a->rbuf)
		free(acc);
}

int vp__reduce_bufs(const struct coll *a, size_t tmp_bytes, char **acc,
		    char **tmp)
{
	*tmp = NULL;
	if (!(*acc = vp__reduce_acc(a, a->r == a->root)))
		return VP_ENOMEM;
	if (!(*tmp = vp__alloc(a, tmp_bytes))) {
		vp__reduce_acc_free(a, *acc);
		return VP_ENOMEM;
	}
	return VP_OK;
}

void vp__reduce_bufs_free(const struct coll *a, char *acc, char *tmp)
{
	free(tmp);
	vp__reduce_acc_free(a, acc);
}

int vp__ceil_log(long p, long k)
{
	int n = 0;
	long s = 1;

	while (s < p) {
		s *= k;
		n++;
	}
	return n;
}

int vp__is_power_of(long p, long k)
{
	long s = 1;

	while (s < p)
		s *= k;
	return s == p;
}

double vp__shift_steps(long q, long n)
{
	return (double)(q < n - q ? q : n - q);
}

/*
 * Folding p ranks onto p' = 2^floor(log2 p) (Thakur, Rabenseifner, Gropp
 * 2005): with rem = p - p', among the first 2 rem ranks each even rank
 * hands its vector to the odd one above and sits out; member j of the p'
 * is rank 2j + 1 for j < rem, else j + rem.
 */
void vp__fold_plan(int p, int r, struct fold *f)
{
	for (f->pof2 = 1; f->pof2 * 2 <= p; f->pof2 *= 2)
		;
	f->rem = p - f->pof2;
	f->r = r;
	f->me = r < 2 * f->rem ? (r % 2 ? r / 2 : -1) : r - f->rem;
}

int vp__fold_rank(const struct fold *f, int j)
{
	return j < f->rem ? 2 * j + 1 : j + f->rem;
}

int vp__fold_in(const struct coll *a, const struct fold *f, void *tmp)
{
	int rc = VP_OK;

	if (f->r >= 2 * f->rem)
		return VP_OK;
	if (f->r % 2 == 0)
		return vp_send(a->c, f->r + 1, a->rbuf, a->bytes);
	rc = vp_recv(a->c, f->r - 1, tmp, a->bytes);
	if (!rc)
		vp_reduce_local(tmp, a->rbuf, a->count, a->type, a->rop);
	return rc;
}

int vp__fold_out(const struct coll *a, const struct fold *f)
{
	if (f->r >= 2 * f->rem)
		return VP_OK;
	if (f->r % 2)
		return vp_send(a->c, f->r - 1, a->rbuf, a->bytes);
	return vp_recv(a->c, f->r + 1, a->rbuf, a->bytes);
}

int vp__bsp(vp_comm *c)
{
	return vp_model_kind_of(c) == VP_MODEL_BSP;
}
