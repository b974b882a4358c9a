/*
 * reduce_kernel.h - the reductions' element-wise kernel (reduce_local.c),
 * shared by the collectives and by the runtime's receive that combines a
 * message where it lies (vp_recv_reduce, runtime/p2p_reduce.c). Internal:
 * not installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_REDUCE_KERNEL_H
#define VP_REDUCE_KERNEL_H

#include <stddef.h>

#include "vp.h"

/* out[i] = in[i] op mine[i] for i < count. mine and out are the same
 * buffer or disjoint; in overlaps neither. VP_OK, or VP_EINVAL for an op
 * that does not apply to the type. */
int vp__reduce_into(const void *in, const void *mine, void *out, size_t count,
		    vp_type type, vp_op op);
/* Whether op applies to type (as vp__reduce_into would find): VP_OK or
 * VP_EINVAL. The reproducible sums' internal fixed-point types add with
 * VP_SUM. */
int vp__reduce_check(vp_type type, vp_op op);

#endif /* VP_REDUCE_KERNEL_H */
