/*
 * algorithms.c - the table of every collective algorithm: one line per
 * descriptor (each algorithm file ends with its own). Dispatch, AUTO's
 * checks, vp_coll_usable, vp_coll_algorithms, vp_coll_formula and the tests'
 * matrix all read this table.
 */
#include "coll.h"

extern const struct coll_algorithm vp__alg_bcast_linear;
extern const struct coll_algorithm vp__alg_bcast_binomial;
extern const struct coll_algorithm vp__alg_bcast_hypercube;
extern const struct coll_algorithm vp__alg_bcast_mesh;
extern const struct coll_algorithm vp__alg_bcast_tree;
extern const struct coll_algorithm vp__alg_bcast_kary;
extern const struct coll_algorithm vp__alg_bcast_scatter_allgather;
extern const struct coll_algorithm vp__alg_bcast_pipelined_tree;
extern const struct coll_algorithm vp__alg_bcast_double_tree;
extern const struct coll_algorithm vp__alg_reduce_linear;
extern const struct coll_algorithm vp__alg_reduce_binomial;
extern const struct coll_algorithm vp__alg_reduce_hypercube;
extern const struct coll_algorithm vp__alg_reduce_mesh;
extern const struct coll_algorithm vp__alg_reduce_tree;
extern const struct coll_algorithm vp__alg_reduce_kary;
extern const struct coll_algorithm vp__alg_reduce_reduce_scatter_gather;
extern const struct coll_algorithm vp__alg_reduce_pipelined_tree;
extern const struct coll_algorithm vp__alg_reduce_double_tree;
extern const struct coll_algorithm vp__alg_allreduce_binomial;
extern const struct coll_algorithm vp__alg_allreduce_hypercube;
extern const struct coll_algorithm vp__alg_allreduce_recursive_doubling;
extern const struct coll_algorithm vp__alg_allreduce_rabenseifner;
extern const struct coll_algorithm vp__alg_allreduce_ring;
extern const struct coll_algorithm vp__alg_allgather_linear;
extern const struct coll_algorithm vp__alg_allgather_ring;
extern const struct coll_algorithm vp__alg_allgather_mesh;
extern const struct coll_algorithm vp__alg_allgather_hypercube;
extern const struct coll_algorithm vp__alg_allgather_bruck;
extern const struct coll_algorithm vp__alg_reduce_scatter_linear;
extern const struct coll_algorithm vp__alg_reduce_scatter_ring;
extern const struct coll_algorithm vp__alg_reduce_scatter_mesh;
extern const struct coll_algorithm vp__alg_reduce_scatter_hypercube;
extern const struct coll_algorithm vp__alg_reduce_scatter_pairwise;
extern const struct coll_algorithm vp__alg_scan_linear;
extern const struct coll_algorithm vp__alg_scan_hypercube;
extern const struct coll_algorithm vp__alg_scan_recursive_doubling;
extern const struct coll_algorithm vp__alg_scatter_linear;
extern const struct coll_algorithm vp__alg_scatter_binomial;
extern const struct coll_algorithm vp__alg_gather_linear;
extern const struct coll_algorithm vp__alg_gather_binomial;
extern const struct coll_algorithm vp__alg_alltoall_pairwise;
extern const struct coll_algorithm vp__alg_alltoall_ring;
extern const struct coll_algorithm vp__alg_alltoall_mesh;
extern const struct coll_algorithm vp__alg_alltoall_hypercube;
extern const struct coll_algorithm vp__alg_alltoall_bruck;
extern const struct coll_algorithm vp__alg_shift_ring;
extern const struct coll_algorithm vp__alg_shift_mesh;
extern const struct coll_algorithm vp__alg_shift_hypercube;
extern const struct coll_algorithm vp__alg_shift_direct;

const struct coll_algorithm *const vp__algorithms[] = {
    &vp__alg_bcast_linear,
    &vp__alg_bcast_binomial,
    &vp__alg_bcast_hypercube,
    &vp__alg_bcast_mesh,
    &vp__alg_bcast_tree,
    &vp__alg_bcast_kary,
    &vp__alg_bcast_scatter_allgather,
    &vp__alg_bcast_pipelined_tree,
    &vp__alg_bcast_double_tree,
    &vp__alg_reduce_linear,
    &vp__alg_reduce_binomial,
    &vp__alg_reduce_hypercube,
    &vp__alg_reduce_mesh,
    &vp__alg_reduce_tree,
    &vp__alg_reduce_kary,
    &vp__alg_reduce_reduce_scatter_gather,
    &vp__alg_reduce_pipelined_tree,
    &vp__alg_reduce_double_tree,
    &vp__alg_allreduce_binomial,
    &vp__alg_allreduce_hypercube,
    &vp__alg_allreduce_recursive_doubling,
    &vp__alg_allreduce_rabenseifner,
    &vp__alg_allreduce_ring,
    &vp__alg_allgather_linear,
    &vp__alg_allgather_ring,
    &vp__alg_allgather_mesh,
    &vp__alg_allgather_hypercube,
    &vp__alg_allgather_bruck,
    &vp__alg_reduce_scatter_linear,
    &vp__alg_reduce_scatter_ring,
    &vp__alg_reduce_scatter_mesh,
    &vp__alg_reduce_scatter_hypercube,
    &vp__alg_reduce_scatter_pairwise,
    &vp__alg_scan_linear,
    &vp__alg_scan_hypercube,
    &vp__alg_scan_recursive_doubling,
    &vp__alg_scatter_linear,
    &vp__alg_scatter_binomial,
    &vp__alg_gather_linear,
    &vp__alg_gather_binomial,
    &vp__alg_alltoall_pairwise,
    &vp__alg_alltoall_ring,
    &vp__alg_alltoall_mesh,
    &vp__alg_alltoall_hypercube,
    &vp__alg_alltoall_bruck,
    &vp__alg_shift_ring,
    &vp__alg_shift_mesh,
    &vp__alg_shift_hypercube,
    &vp__alg_shift_direct,
    NULL,
};

const struct coll_algorithm *vp__algorithm(vp_coll op, vp_alg alg)
{
	const struct coll_algorithm *const *a;

	for (a = vp__algorithms; *a; a++)
		if ((*a)->op == op && (*a)->alg == alg)
			return *a;
	return NULL;
}
