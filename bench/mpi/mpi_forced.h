/*
 * mpi_forced.h - the MPI library's own collective made to run the
 * algorithm that vp ran, for vp-bench --transport mpi. Next to the
 * library's tuned choice, this puts the same algorithm family on both
 * sides, so that what is left between the two times is the layer, not the
 * choice of algorithm.
 *
 * Open MPI (4.x, its "tuned" collective component) runs the algorithm
 * named by the MCA variable coll_tuned_<op>_algorithm when
 * coll_tuned_use_dynamic_rules was set before MPI_Init, and a communicator
 * reads the variable when it is created. So: write the variable through
 * the MPI tool information interface (MPI_T_cvar_write, MPI 3.0 sec. 14.3),
 * duplicate MPI_COMM_WORLD, and write "ignore" (0) back. The numbers are
 * those `ompi_info --param coll tuned --level 9` lists. Other libraries
 * (MPICH names its algorithms in enumerated control variables of its own)
 * are not mapped: the column then says "-".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_MPI_FORCED_H
#define VP_BENCH_MPI_FORCED_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Before MPI_Init: let the tuned component take forced algorithms. With
 * no algorithm forced it decides as it does by default. A value the user
 * set stays. */
static void mpi_forced_prepare(void)
{
	setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0);
}

/* Open MPI's tuned number for vp's algorithm of op at p ranks, 0 where
 * the two have no algorithm of the same family. */
static int mpi_forced_id(const char *op, const char *alg, int p)
{
	static const struct {
		const char *op, *alg;
		int id;
	} same[] = {
		{ "barrier", "dissemination", 4 }, /* "bruck": dissemination */
		{ "bcast", "linear", 1 },
		{ "bcast", "binomial", 6 },
		{ "bcast", "hypercube", 6 }, /* the binomial tree's order */
		{ "bcast", "kary", 7 },      /* k-nomial */
		{ "bcast", "scatter_allgather", 8 },
		{ "reduce", "linear", 1 },
		{ "reduce", "binomial", 5 },
		{ "reduce", "hypercube", 5 },
		{ "reduce", "reduce_scatter_gather", 7 }, /* rabenseifner */
		{ "allreduce", "linear", 1 },
		{ "allreduce", "recursive_doubling", 3 },
		{ "allreduce", "hypercube", 3 },
		{ "allreduce", "ring", 4 },
		{ "allreduce", "rabenseifner", 6 },
		{ "allgather", "linear", 1 },
		{ "allgather", "bruck", 2 },
		{ "allgather", "hypercube", 3 }, /* recursive doubling */
		{ "allgather", "ring", 4 },
		{ "alltoall", "linear", 1 },
		{ "alltoall", "pairwise", 2 },
		{ "alltoall", "bruck", 3 }, /* modified bruck */
	};
	size_t k;

	for (k = 0; k < sizeof(same) / sizeof(same[0]); k++)
		if (!strcmp(op, same[k].op) && !strcmp(alg, same[k].alg)) {
			/* vp's scatter-allgather gathers by a ring where p
			 * is not a power of two: Open MPI's number 9 */
			if (same[k].id == 8 && (p & (p - 1)))
				return 9;
			return same[k].id;
		}
	return 0;
}

/* The control variable called name, or -1. */
static int mpi_forced_cvar(const char *name)
{
	int n = 0, i;

	if (MPI_T_cvar_get_num(&n) != MPI_SUCCESS)
		return -1;
	for (i = 0; i < n; i++) {
		char got[256], desc[8];
		int glen = sizeof(got), dlen = sizeof(desc), verb, bind, scope;
		MPI_Datatype type;
		MPI_T_enum en;

		if (MPI_T_cvar_get_info(i, got, &glen, &verb, &type, &en, desc,
					&dlen, &bind, &scope) == MPI_SUCCESS &&
		    !strcmp(got, name))
			return i;
	}
	return -1;
}

/* Writes value into the integer control variable called name; 0 done. */
static int mpi_forced_write(const char *name, int value)
{
	MPI_T_cvar_handle h;
	int idx = mpi_forced_cvar(name), count, rc;

	if (idx < 0 || MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) !=
			       MPI_SUCCESS)
		return -1;
	rc = MPI_T_cvar_write(h, &value);
	MPI_T_cvar_handle_free(&h);
	return rc == MPI_SUCCESS ? 0 : -1;
}

/* Whether this is Open MPI with forced algorithms allowed (every process
 * gets the same answer: the same library and environment); asked once. */
static int mpi_forced_known = -1, mpi_forced_tool_on;

static int mpi_forced_usable(void)
{
	char version[MPI_MAX_LIBRARY_VERSION_STRING];
	int len, idx, count, provided;
	int64_t on = 0; /* room for whichever integer type it has */
	MPI_T_cvar_handle h;

	if (mpi_forced_known >= 0)
		return mpi_forced_known;
	mpi_forced_known = 0;
	MPI_Get_library_version(version, &len);
	if (!strstr(version, "Open MPI") ||
	    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
		return 0;
	mpi_forced_tool_on = 1;
	idx = mpi_forced_cvar("coll_tuned_use_dynamic_rules");
	if (idx >= 0 &&
	    MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) == MPI_SUCCESS) {
		if (MPI_T_cvar_read(h, &on) == MPI_SUCCESS)
			mpi_forced_known = on != 0;
		MPI_T_cvar_handle_free(&h);
	}
	return mpi_forced_known;
}

/* Before MPI_Finalize: ends the tool interface if it was started. */
static void mpi_forced_done(void)
{
	if (mpi_forced_tool_on)
		MPI_T_finalize();
	mpi_forced_tool_on = 0;
}

/*
 * A duplicate of MPI_COMM_WORLD whose op runs vp's algorithm alg (vp's
 * name) in the library, in *out; 1 made (free it with MPI_Comm_free), 0
 * where the library has no such algorithm or cannot be told.
 * Collective over MPI_COMM_WORLD.
 */
static int mpi_forced_comm(const char *op, const char *alg, int p,
			   MPI_Comm *out)
{
	char name[80];
	int id = mpi_forced_id(op, alg, p);

	/* rank 0's choice: only rank 0 may know which algorithm vp ran */
	MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!id || !mpi_forced_usable())
		return 0;
	snprintf(name, sizeof(name), "coll_tuned_%.40s_algorithm", op);
	if (mpi_forced_write(name, id))
		return 0;
	MPI_Comm_dup(MPI_COMM_WORLD, out);
	mpi_forced_write(name, 0);
	return 1;
}

#endif
