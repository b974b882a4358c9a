/*
 * coll_ref.h - the test data and the sequential reference for the
 * collectives: what each rank's input holds, and a plain sequential
 * computation of what each rank's output must hold.
 *
 * It lives with the applications (apps/, in libvpapps.a) because it is the
 * same kind of thing: a sequential answer that a parallel run is checked
 * against, shared by vp-run (which checks every case it runs) and by the
 * tests, which include it from here and link libvpapps.a, without reaching
 * into the benchmarks' sources.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_APPS_COLL_REF_H
#define VP_APPS_COLL_REF_H

#include <stddef.h>

#include "vp.h"

/* One collective case: the collective, its element type and reduction,
 * count elements a block, the root, shift's q and the number of ranks. */
struct ref_case {
	vp_coll op;
	vp_type type;
	vp_op rop;
	size_t count;
	int root;
	long q;
	int p;
};

/* 1 for the floating types (float, double), 0 for the integer ones. */
int ref_is_float(vp_type t);

/* Number of blocks of count elements in rank r's input and output. */
int ref_in_blocks(const struct ref_case *k, int r);
int ref_out_blocks(const struct ref_case *k, int r);

/* Rank r's input: ref_in_blocks(k, r) blocks of k->count elements. */
void ref_input(const struct ref_case *k, int r, void *buf);

/* 0 if rank r's output is right, else 1 with the first wrong element
 * (rank, block, index, expected, actual) described in msg. */
int ref_check(const struct ref_case *k, int r, const void *out, char *msg,
	      size_t len);

/* Runs the collective of case k on c with algorithm alg. */
int ref_call(vp_comm *c, const struct ref_case *k, const void *in, void *out,
	     vp_alg alg);

#endif
