/*
 * mpi_intercomm_p2p.c - point to point on an intercommunicator (MPI 4.0,
 * sec. 7.6.1): a send names a rank of the remote group, a receive's
 * source (and the status it reports) is one too. The intercommunicator's
 * hidden union of both groups (mpi_intercomm.c) carries the messages on
 * its point-to-point space, which nothing else uses: every message there
 * goes from one group to the other, so a receive there, wildcards
 * included, only ever matches a message from the remote group. A remote
 * rank r is the union's rank r + off, off being 0 or the local group's
 * size, whichever group comes first in the union.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

int vpmpi_inter_p2p(MPI_Comm *comm, int *peer, int any_ok, int *off,
		    const char *call, const char *role)
{
	MPI_Comm inter = *comm;
	int rsize;

	if (vpmpi_inter_union(inter, comm, &rsize, off))
		return MPI_SUCCESS; /* not an intercommunicator */
	if ((*peer >= 0 && *peer < rsize) || *peer == MPI_PROC_NULL ||
	    (any_ok && *peer == MPI_ANY_SOURCE)) {
		if (*peer >= 0)
			*peer += *off;
		return MPI_SUCCESS;
	}
	*comm = inter;
	return vpmpi_err(inter, MPI_ERR_RANK, call,
			 "%s %d is outside the remote group [0, %d) of "
			 "intercommunicator %d%s",
			 role, *peer, rsize, inter,
			 any_ok ? " and is not MPI_ANY_SOURCE or MPI_PROC_NULL"
				: " and is not MPI_PROC_NULL");
}
