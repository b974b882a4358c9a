/*
 * shift_mesh.c - circular q-shift of the row-major order on an R x C mesh:
 * a row shift, then a column shift that also carries the blocks that
 * wrapped around their row one row further.
 *
 * Source: Grama et al., sec. 4.6.1 (circular shift on a mesh, Fig. 4.21).
 * Cost:   T = (ts + tw*m)(min(b, C - b) + max over columns of min(s, R - s))
 *         with q = aC + b and column shift s = a or a + 1;
 *         <= (ts + tw*m)(sqrt p + 1) on a square mesh.
 * Steps:  phase 1: ring shift by b in each row (block of column j moves to
 *         column j + b mod C); phase 2: in column j a ring shift by a + 1
 *         if j < b (those blocks wrapped: the book's compensating column
 *         shift) else by a. Scratch: one block.
 * Needs:  a grid (vp__grid).
 * Differs from the book: the compensating shift is folded into the column
 *         shift, which saves a step where a + 1 is the shorter way.
 */
#include <stdlib.h>

#include "coll.h"

int vp__shift_mesh(const struct coll *a)
{
	int rows, cols, rc;
	long b, s;
	const char *why;
	struct view row, col;
	char *tmp;

	if (vp__grid(a->c, &rows, &cols, &why))
		return VP_EALG;
	if (!(tmp = vp__alloc(a, a->bytes)))
		return VP_ENOMEM;
	vp__copy(a->rbuf, a->sbuf, a->bytes);
	b = a->q % cols;
	s = (a->q / cols + (a->r % cols < b)) % rows;
	vp__view_strided(&row, a->c, (a->r / cols) * cols, 1, cols, 0);
	rc = vp__shift_ring_view(&row, a->rbuf, a->bytes, b, tmp);
	vp__view_strided(&col, a->c, a->r % cols, cols, rows, 0);
	if (!rc)
		rc = vp__shift_ring_view(&col, a->rbuf, a->bytes, s, tmp);
	free(tmp);
	return rc;
}
