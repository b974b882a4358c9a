/*
 * bench_buffer.h - the buffers a timed loop moves: zeroed, page-aligned,
 * and freed with free(). vp-bench's loop and its MPI twin (mpi_loops.h)
 * both take theirs from here, so the two sides time the same buffers.
 *
 * Why aligned: where a buffer starts decides how its blocks fall on cache
 * lines. With malloc's 16-byte alignment, an all-gather's or all-to-all's
 * receive buffer of p blocks of 1 KiB can start 16, 32 or 48 bytes into a
 * line, and then each boundary between two blocks lies inside one line.
 * In vp a rank copies its own block into place while its partner's copy
 * fills the next block straight from the other CPU (single copy), so that
 * line changes CPUs twice a call, and a row's time would depend on what
 * the process happened to allocate before it. A process-based MPI copies through its own segments, so there the
 * owner writes every line of its buffer. The OSU micro-benchmarks align
 * their buffers to the page for the same reason: a time that depends on
 * the allocator's history measures the allocator.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_BUFFER_H
#define VP_BENCH_BUFFER_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* bytes zeroed bytes on a page boundary (at least one byte), or NULL. */
static inline void *bench_buffer(size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t align = page > 0 ? (size_t)page : 4096;
	size_t whole = ((bytes ? bytes : 1) + align - 1) / align * align;
	void *b = aligned_alloc(align, whole);

	if (b)
		memset(b, 0, whole);
	return b;
}

/* The collectives whose buffers hold a block per rank (p x bytes on at
 * least one side); every other loop moves bytes. */
static inline int bench_is_block_op(const char *op)
{
	return !strcmp(op, "allgather") || !strcmp(op, "reduce_scatter") ||
	       !strcmp(op, "scatter") || !strcmp(op, "gather") ||
	       !strcmp(op, "alltoall");
}

/* The room each of a loop's two buffers needs for op at p ranks: what the
 * call reads and writes, no more (p x bytes for every loop would make a
 * bcast of 1 MiB at p = 64 zero 128 MiB a rank, and page faults would be
 * most of the row's time). */
static inline size_t bench_room(const char *op, int p, size_t bytes)
{
	size_t each = bytes ? bytes : 1;

	return bench_is_block_op(op) ? (size_t)p * each : each;
}

#endif
