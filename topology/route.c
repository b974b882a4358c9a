/*
 * route.c - neighbours and routes of every topology.
 *
 * Routing rules:
 *   ring       the shorter direction; a tie (p even, distance p/2) goes
 *              clockwise, i.e. towards increasing rank.
 *   line       the only path.
 *   mesh       dimension ordered: along the row (X, columns) first, then
 *              along the column (Y, rows).
 *   torus      as mesh, each dimension the shorter way round, ties towards
 *              increasing index.
 *   hypercube  E-cube: fix differing bits lowest first.
 *   tree       up to the lowest common switch, then down.
 *   full       one direct link.
 */
#include "topology.h"

#include <stdlib.h>

static int iabs(int x)
{
	return x < 0 ? -x : x;
}

/* Signed steps along a cycle of n from a to b: shorter way, ties forward. */
static int cyclic_steps(int a, int b, int n)
{
	int fwd = ((b - a) % n + n) % n;

	return fwd <= n - fwd ? fwd : fwd - n;
}

int vp__gray_inverse(int g)
{
	int i = 0;

	for (; g; g >>= 1)
		i ^= g;
	return i;
}

int vp__topo_is_neighbor(const struct vp__topo *t, int a, int b)
{
	int ra, ca, rb, cb, x;

	if (a == b || a < 0 || b < 0 || a >= t->p || b >= t->p)
		return 0;
	switch (t->kind) {
	case VP__TOPO_RING:
		return iabs(cyclic_steps(a, b, t->p)) == 1;
	case VP__TOPO_LINE:
		return iabs(a - b) == 1;
	case VP__TOPO_MESH:
	case VP__TOPO_TORUS:
		ra = a / t->cols, ca = a % t->cols;
		rb = b / t->cols, cb = b % t->cols;
		if (t->kind == VP__TOPO_MESH)
			return iabs(ra - rb) + iabs(ca - cb) == 1;
		return (ra == rb && iabs(cyclic_steps(ca, cb, t->cols)) == 1) ||
		       (ca == cb && iabs(cyclic_steps(ra, rb, t->rows)) == 1);
	case VP__TOPO_HYPERCUBE:
		x = a ^ b;
		return (x & (x - 1)) == 0;
	case VP__TOPO_TREE:
		/* Leaves hang off switches only; two ranks are neighbours when
		 * one switch joins them (siblings). */
		return (a >> 1) == (b >> 1);
	case VP__TOPO_FULL:
		return 1;
	}
	return 0;
}

int vp__topo_neighbors(const struct vp__topo *t, int r, int *out, int max)
{
	int n = 0, b, cand[4], k, i, j, tmp;

	if (t->kind == VP__TOPO_FULL) {
		for (b = 0; b < t->p; b++)
			if (b != r) {
				if (n < max)
					out[n] = b;
				n++;
			}
		return n;
	}
	if (t->kind == VP__TOPO_HYPERCUBE) {
		/* neighbours r ^ 2^k in increasing order */
		int list[16];
		for (k = 0; k < t->dim; k++)
			list[k] = r ^ (1 << k);
		for (i = 1; i < t->dim; i++)
			for (j = i; j > 0 && list[j - 1] > list[j]; j--)
				tmp = list[j], list[j] = list[j - 1],
				list[j - 1] = tmp;
		for (k = 0; k < t->dim; k++, n++)
			if (n < max)
				out[n] = list[k];
		return n;
	}
	/* Everything else has at most four neighbours: test the candidates. */
	k = 0;
	switch (t->kind) {
	case VP__TOPO_RING:
	case VP__TOPO_LINE:
	case VP__TOPO_TREE:
		cand[k++] = (r - 1 + t->p) % t->p;
		cand[k++] = (r + 1) % t->p;
		break;
	default: {
		int row = r / t->cols, col = r % t->cols;
		cand[k++] = row * t->cols + (col - 1 + t->cols) % t->cols;
		cand[k++] = row * t->cols + (col + 1) % t->cols;
		cand[k++] = ((row - 1 + t->rows) % t->rows) * t->cols + col;
		cand[k++] = ((row + 1) % t->rows) * t->cols + col;
	}
	}
	for (i = 1; i < k; i++)
		for (j = i; j > 0 && cand[j - 1] > cand[j]; j--)
			tmp = cand[j], cand[j] = cand[j - 1], cand[j - 1] = tmp;
	for (i = 0; i < k; i++) {
		if (i > 0 && cand[i] == cand[i - 1])
			continue;
		if (!vp__topo_is_neighbor(t, r, cand[i]))
			continue;
		if (n < max)
			out[n] = cand[i];
		n++;
	}
	return n;
}

int vp__topo_max_hops(const struct vp__topo *t)
{
	switch (t->kind) {
	case VP__TOPO_RING:
		return t->p / 2;
	case VP__TOPO_LINE:
		return t->p - 1;
	case VP__TOPO_MESH:
		return t->rows - 1 + t->cols - 1;
	case VP__TOPO_TORUS:
		return t->rows / 2 + t->cols / 2;
	case VP__TOPO_HYPERCUBE:
		return t->dim;
	case VP__TOPO_TREE:
		return 2 * t->dim;
	case VP__TOPO_FULL:
		return 1;
	}
	return 0;
}

/* Appends a link to the route, counting links that do not fit. */
static void hop(uint64_t *links, int max, int *n, int from, int to)
{
	if (*n < max)
		links[*n] = vp__link(from, to);
	(*n)++;
}

int vp__topo_route(const struct vp__topo *t, int a, int b, uint64_t *links,
		   int max)
{
	int n = 0, s, dir, cur, k, x;

	if (a == b)
		return 0;
	switch (t->kind) {
	case VP__TOPO_RING:
		s = cyclic_steps(a, b, t->p);
		dir = s > 0 ? 1 : -1;
		for (cur = a; cur != b; cur = (cur + dir + t->p) % t->p)
			hop(links, max, &n, cur, (cur + dir + t->p) % t->p);
		break;
	case VP__TOPO_LINE:
		dir = b > a ? 1 : -1;
		for (cur = a; cur != b; cur += dir)
			hop(links, max, &n, cur, cur + dir);
		break;
	case VP__TOPO_MESH:
	case VP__TOPO_TORUS: {
		int row = a / t->cols, col = a % t->cols;
		int brow = b / t->cols, bcol = b % t->cols, next;

		/* X first: move along the row to the target column. */
		s = t->kind == VP__TOPO_MESH ? bcol - col
					     : cyclic_steps(col, bcol, t->cols);
		dir = s > 0 ? 1 : -1;
		for (k = 0; k < iabs(s); k++) {
			next = (col + dir + t->cols) % t->cols;
			hop(links, max, &n, row * t->cols + col,
			    row * t->cols + next);
			col = next;
		}
		/* Then Y: along the column to the target row. */
		s = t->kind == VP__TOPO_MESH ? brow - row
					     : cyclic_steps(row, brow, t->rows);
		dir = s > 0 ? 1 : -1;
		for (k = 0; k < iabs(s); k++) {
			next = (row + dir + t->rows) % t->rows;
			hop(links, max, &n, row * t->cols + col,
			    next * t->cols + col);
			row = next;
		}
		break;
	}
	case VP__TOPO_HYPERCUBE:
		/* E-cube: correct the lowest differing bit first. */
		for (cur = a, x = a ^ b; x; x &= x - 1) {
			int next = cur ^ (x & -x);
			hop(links, max, &n, cur, next);
			cur = next;
		}
		break;
	case VP__TOPO_TREE: {
		/* Heap indices climb until they meet at the common switch. */
		int ha = t->p + a, hb = t->p + b, up = 0, i;
		int down[32];

		while (ha != hb) {
			int node = ha >= t->p ? ha - t->p : t->p + ha - 1;
			int parent = t->p + (ha >> 1) - 1;
			hop(links, max, &n, node, parent);
			down[up++] = hb;
			ha >>= 1;
			hb >>= 1;
		}
		/* Descend along b's ancestors, from the common switch. */
		for (i = up - 1; i >= 0; i--) {
			int child = down[i];
			int cnode = child >= t->p ? child - t->p
						  : t->p + child - 1;
			int pnode = t->p + (child >> 1) - 1;
			hop(links, max, &n, pnode, cnode);
		}
		break;
	}
	case VP__TOPO_FULL:
		hop(links, max, &n, a, b);
		break;
	}
	return n;
}

int vp__topo_distance(const struct vp__topo *t, int a, int b)
{
	int x;

	if (a == b)
		return 0;
	switch (t->kind) {
	case VP__TOPO_RING:
		return iabs(cyclic_steps(a, b, t->p));
	case VP__TOPO_LINE:
		return iabs(a - b);
	case VP__TOPO_MESH:
		return iabs(a / t->cols - b / t->cols) +
		       iabs(a % t->cols - b % t->cols);
	case VP__TOPO_TORUS:
		return iabs(cyclic_steps(a / t->cols, b / t->cols, t->rows)) +
		       iabs(cyclic_steps(a % t->cols, b % t->cols, t->cols));
	case VP__TOPO_HYPERCUBE:
		return __builtin_popcount((unsigned)(a ^ b));
	case VP__TOPO_TREE:
		/* levels up to the common switch: bit length of a ^ b */
		for (x = a ^ b, a = 0; x; x >>= 1)
			a++;
		return 2 * a;
	case VP__TOPO_FULL:
		return 1;
	}
	return 0;
}

size_t vp__topo_link_slots(const struct vp__topo *t)
{
	switch (t->kind) {
	case VP__TOPO_RING:
	case VP__TOPO_LINE:
	case VP__TOPO_TREE:
		return 2 * (size_t)t->nodes;
	case VP__TOPO_MESH:
	case VP__TOPO_TORUS:
		return 4 * (size_t)t->nodes;
	case VP__TOPO_HYPERCUBE:
		return (size_t)t->nodes * (size_t)(t->dim ? t->dim : 1);
	case VP__TOPO_FULL:
		return 0;
	}
	return 0;
}

size_t vp__topo_link_index(const struct vp__topo *t, uint64_t link)
{
	int from = vp__link_from(link), to = vp__link_to(link);
	int bit = 0, x;

	switch (t->kind) {
	case VP__TOPO_RING:
	case VP__TOPO_LINE:
		return 2 * (size_t)from + (to == (from + 1) % t->p ? 0 : 1);
	case VP__TOPO_TREE: {
		/* The link between a child and its parent, up (0) or down (1).
		 * Leaves have no children; between two switches the child has
		 * the larger node number (a larger heap index). */
		int child = from < t->p || (to >= t->p && from > to) ? from : to;
		return 2 * (size_t)child + (child == from ? 0 : 1);
	}
	case VP__TOPO_MESH:
	case VP__TOPO_TORUS:
		if (to / t->cols == from / t->cols)
			return 4 * (size_t)from +
			       (to % t->cols == (from % t->cols + 1) % t->cols
					? 0
					: 1);
		return 4 * (size_t)from +
		       (to / t->cols == (from / t->cols + 1) % t->rows ? 2 : 3);
	case VP__TOPO_HYPERCUBE:
		for (x = from ^ to; x > 1; x >>= 1)
			bit++;
		return (size_t)from * (size_t)t->dim + (size_t)bit;
	case VP__TOPO_FULL:
		break;
	}
	return 0;
}
