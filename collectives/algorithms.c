/*
 * algorithms.c - the table of every collective algorithm: one line per
 * descriptor (each algorithm file ends with its own, vp__alg_<op>_<alg>).
 * Dispatch, AUTO's checks, vp_coll_usable, vp_coll_algorithms,
 * vp_coll_formula and the tests' matrix all read this table, in this
 * order. Adding an algorithm: its file, and its line below.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>

#include "coll.h"

#define ALGORITHMS(X)                                                          \
	X(bcast_linear)                                                        \
	X(bcast_binomial)                                                      \
	X(bcast_hypercube)                                                     \
	X(bcast_mesh)                                                          \
	X(bcast_tree)                                                          \
	X(bcast_kary)                                                          \
	X(bcast_scatter_allgather)                                             \
	X(bcast_pipelined_tree)                                                \
	X(bcast_double_tree)                                                   \
	X(bcast_direct)                                                        \
	X(bcast_greedy)                                                        \
	X(bcast_neighbour)                                                     \
	X(reduce_linear)                                                       \
	X(reduce_binomial)                                                     \
	X(reduce_hypercube)                                                    \
	X(reduce_mesh)                                                         \
	X(reduce_tree)                                                         \
	X(reduce_kary)                                                         \
	X(reduce_reduce_scatter_gather)                                        \
	X(reduce_pipelined_tree)                                               \
	X(reduce_double_tree)                                                  \
	X(reduce_direct)                                                       \
	X(reduce_neighbour)                                                    \
	X(allreduce_binomial)                                                  \
	X(allreduce_hypercube)                                                 \
	X(allreduce_recursive_doubling)                                        \
	X(allreduce_rabenseifner)                                              \
	X(allreduce_ring)                                                      \
	X(allreduce_direct)                                                    \
	X(allreduce_neighbour)                                                 \
	X(allgather_linear)                                                    \
	X(allgather_ring)                                                      \
	X(allgather_mesh)                                                      \
	X(allgather_hypercube)                                                 \
	X(allgather_bruck)                                                     \
	X(allgather_direct)                                                    \
	X(allgather_neighbour)                                                 \
	X(reduce_scatter_linear)                                               \
	X(reduce_scatter_ring)                                                 \
	X(reduce_scatter_mesh)                                                 \
	X(reduce_scatter_hypercube)                                            \
	X(reduce_scatter_pairwise)                                             \
	X(reduce_scatter_neighbour)                                            \
	X(scan_linear)                                                         \
	X(scan_hypercube)                                                      \
	X(scan_recursive_doubling)                                             \
	X(scan_direct)                                                         \
	X(scan_neighbour)                                                      \
	X(scatter_linear)                                                      \
	X(scatter_binomial)                                                    \
	X(scatter_neighbour)                                                   \
	X(gather_linear)                                                       \
	X(gather_binomial)                                                     \
	X(gather_neighbour)                                                    \
	X(alltoall_pairwise)                                                   \
	X(alltoall_ring)                                                       \
	X(alltoall_mesh)                                                       \
	X(alltoall_hypercube)                                                  \
	X(alltoall_bruck)                                                      \
	X(alltoall_neighbour)                                                  \
	X(shift_ring)                                                          \
	X(shift_mesh)                                                          \
	X(shift_hypercube)                                                     \
	X(shift_direct)                                                        \
	X(shift_neighbour)

#define DECLARE(name) extern const struct coll_algorithm vp__alg_##name;
ALGORITHMS(DECLARE)
#undef DECLARE

#define ENTRY(name) &vp__alg_##name,
const struct coll_algorithm *const vp__algorithms[] = { ALGORITHMS(ENTRY)
							    NULL };
#undef ENTRY

/* The table indexed by (operation, algorithm), built once: dispatch looks
 * an algorithm up on every call, and a scan of the table was 2% of an
 * 8-byte all-reduce at p = 2. */
static const struct coll_algorithm *by_op_alg[VP_COLL_COUNT_][VP_ALG_COUNT_];
static pthread_once_t indexed = PTHREAD_ONCE_INIT;

static void index_algorithms(void)
{
	const struct coll_algorithm *const *a;

	for (a = vp__algorithms; *a; a++)
		if (!by_op_alg[(*a)->op][(*a)->alg]) /* the first, as listed */
			by_op_alg[(*a)->op][(*a)->alg] = *a;
}

const struct coll_algorithm *vp__algorithm(vp_coll op, vp_alg alg)
{
	if ((unsigned)op >= VP_COLL_COUNT_ || (unsigned)alg >= VP_ALG_COUNT_)
		return NULL;
	pthread_once(&indexed, index_algorithms);
	return by_op_alg[op][alg];
}
