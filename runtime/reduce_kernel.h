/*
 * reduce_kernel.h - the element types and the reductions' element-wise
 * kernel (reduce_kernel.c), at the bottom of the runtime: the receive that
 * combines a message where it lies (vp_recv_reduce, p2p_reduce.c), the mpi
 * transport's combine (mpi/combine.c), the one-sided accumulate
 * (window.c), and the collectives, which reach it through their seam
 * (coll_seam.h). It needs nothing but vp.h. Internal: not installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_REDUCE_KERNEL_H
#define VP_REDUCE_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "vp.h"

/* The reproducible sums' internal element type (collectives/fixed_sum.c,
 * collectives/reproducible.c): an exact fixed-point number of `limbs`
 * 64-bit limbs (two's complement, limb 0 the lowest), vp_type_size 8
 * limbs, added with VP_SUM only; the public calls refuse it. */
#define VP__FIXED_MAX_LIMBS 48
#define VP__TYPE_FIXED(limbs) ((vp_type)(64 + (limbs)))
#define VP__IS_TYPE_FIXED(t) ((int)(t) > 64 && (int)(t) <= 64 + VP__FIXED_MAX_LIMBS)

/* out[i] = in[i] op mine[i] for i < count. mine and out are the same
 * buffer or disjoint; in overlaps neither. VP_OK, or VP_EINVAL for an op
 * that does not apply to the type. */
int vp__reduce_into(const void *in, const void *mine, void *out, size_t count,
		    vp_type type, vp_op op);
/* Whether op applies to type (as vp__reduce_into would find): VP_OK or
 * VP_EINVAL. The reproducible sums' internal fixed-point types add with
 * VP_SUM. */
int vp__reduce_check(vp_type type, vp_op op);
/* inout[k] += in[k] for count elements of limbs limbs (VP__TYPE_FIXED's
 * VP_SUM). */
void vp__fixed_add(const uint64_t *in, uint64_t *inout, size_t count,
		   int limbs);

#endif /* VP_REDUCE_KERNEL_H */
