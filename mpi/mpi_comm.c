/*
 * mpi_comm.c - communicator handles and datatypes of the MPI layer.
 *
 * A communicator handle indexes the rank's table (MPI_COMM_WORLD = 1,
 * MPI_COMM_SELF = 2, the program's own from 3); handles are per rank, as
 * in MPI, and every rank of a split gets the same number only if it made
 * the same calls (the program cannot tell). Intercommunicators take their
 * handles from the same table (mpi_intercomm.c). The tables grow as the
 * program makes communicators, and a freed communicator's handle is
 * reused, the lowest first. A new communicator inherits the error handler
 * of the one it came from.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

void vpmpi_comm_set(MPI_Comm h, vp_comm *c)
{
	vpmpi_me.comm[h] = c;
	vpmpi_me.size[h] = c ? vp_size(c) : 0;
}

vp_comm *vpmpi_comm_failed(MPI_Comm h, const char *call)
{
	if (vpmpi_started(call))
		return NULL;
	/* a session started the layer (mpi_session.c) */
	if (!vpmpi_me.initialized && h > 0 && h < vpmpi_me.ncomms &&
	    vpmpi_me.comm[h]) {
		vp_call_as(vpmpi_me.comm[h], call);
		return vpmpi_me.comm[h];
	}
	if (vpmpi_is_inter(h)) {
		vpmpi_fail(MPI_ERR_COMM, call,
			   "communicator %d is an intercommunicator: vp's MPI "
			   "has no intercommunicator form of this call (it "
			   "has point to point, the blocking and nonblocking "
			   "collectives but the scans, "
			   "and the constructors Comm_dup, Comm_split, "
			   "Comm_create, Intercomm_merge)",
			   h);
		return NULL;
	}
	vpmpi_fail(MPI_ERR_COMM, call,
		   h == MPI_COMM_NULL ? "communicator is MPI_COMM_NULL"
		   : vpmpi_me.initialized
		       ? "communicator handle %d is not a live communicator"
		       : "communicator handle %d used before MPI_Init",
		   h);
	return NULL;
}

/* One table grown to n entries, the new ones zeroed: 0 or -1. */
static int grow(void **table, size_t each, int old, int n)
{
	char *t = realloc(*table, (size_t)n * each);

	if (!t)
		return -1;
	memset(t + (size_t)old * each, 0, (size_t)(n - old) * each);
	*table = t;
	return 0;
}

int vpmpi_comms_room(int h)
{
	int old = vpmpi_me.ncomms, n = old ? old : 16;

	if (h < old)
		return MPI_SUCCESS;
	while (n <= h)
		n *= 2;
	if (grow((void **)&vpmpi_me.comm, sizeof(*vpmpi_me.comm), old, n) ||
	    grow((void **)&vpmpi_me.size, sizeof(*vpmpi_me.size), old, n) ||
	    grow((void **)&vpmpi_me.errh, sizeof(*vpmpi_me.errh), old, n) ||
	    grow((void **)&vpmpi_me.cart, sizeof(*vpmpi_me.cart), old, n) ||
	    grow((void **)&vpmpi_me.graph, sizeof(*vpmpi_me.graph), old, n) ||
	    grow((void **)&vpmpi_me.inter, sizeof(*vpmpi_me.inter), old, n))
		return MPI_ERR_NO_MEM; /* those grown stay grown: harmless */
	vpmpi_me.ncomms = n;
	return MPI_SUCCESS;
}

int vpmpi_comm_slot(void)
{
	int h;

	for (h = MPI_COMM_SELF + 1; h < vpmpi_me.ncomms; h++)
		if (!vpmpi_me.comm[h] && !vpmpi_me.inter[h])
			break;
	return vpmpi_comms_room(h) ? -1 : h;
}

int vpmpi_comm_put(vp_comm *c, MPI_Comm from, const char *call)
{
	int h;

	if (!c)
		return MPI_COMM_NULL;
	if ((h = vpmpi_comm_slot()) < 0) {
		vp_comm_free(c);
		vpmpi_err(from, MPI_ERR_NO_MEM, call,
			  "no memory for another communicator handle (%d "
			  "in use)",
			  vpmpi_me.ncomms);
		return -1;
	}
	vpmpi_comm_set(h, c);
	vpmpi_me.errh[h] = vpmpi_me.errh[from];
	vpmpi_me.cart[h] = NULL;
	return h;
}

int vpmpi_check_rank_named(MPI_Comm h, vp_comm *c, int rank, int any_ok,
			   const char *call, const char *role)
{
	if ((rank >= 0 && rank < vp_size(c)) || rank == MPI_PROC_NULL ||
	    (any_ok && rank == MPI_ANY_SOURCE))
		return MPI_SUCCESS;
	return vpmpi_err(h, MPI_ERR_RANK, call, "%s %d is outside [0, %d)%s",
			 role, rank, vp_size(c),
			 any_ok ? " and is not MPI_ANY_SOURCE or MPI_PROC_NULL"
				: " and is not MPI_PROC_NULL");
}

int vpmpi_check_tag_named(MPI_Comm h, int tag, int any_ok, const char *call)
{
	if ((tag >= 0 && tag <= MPI_TAG_UB) || (any_ok && tag == MPI_ANY_TAG))
		return MPI_SUCCESS;
	return vpmpi_err(h, MPI_ERR_TAG, call,
			 "tag %d is outside [0, MPI_TAG_UB = %d]%s", tag,
			 MPI_TAG_UB, any_ok ? " and is not MPI_ANY_TAG" : "");
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	vp_comm *c;

	if (vpmpi_is_inter(comm))
		return vpmpi_inter_size(comm, NULL, rank);
	c = vpmpi_comm(comm, "MPI_Comm_rank");
	if (!c)
		return MPI_ERR_COMM;
	*rank = vp_rank(c);
	return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
	vp_comm *c;

	if (vpmpi_is_inter(comm))
		return vpmpi_inter_size(comm, size, NULL);
	c = vpmpi_comm(comm, "MPI_Comm_size");
	if (!c)
		return MPI_ERR_COMM;
	*size = vp_size(c);
	return MPI_SUCCESS;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	vp_comm *c, *sub;
	int rc, h;

	if (vpmpi_is_inter(comm))
		return vpmpi_inter_split(comm, color, key, newcomm,
					 "MPI_Comm_split");
	if (!(c = vpmpi_comm(comm, "MPI_Comm_split")))
		return MPI_ERR_COMM;
	if (color < 0 && color != MPI_UNDEFINED)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Comm_split",
				 "color %d is negative and not MPI_UNDEFINED",
				 color);
	rc = vp_comm_split(c, color == MPI_UNDEFINED ? VP_UNDEFINED : color,
			   key, &sub);
	if (rc)
		return vpmpi_ret(rc);
	if ((h = vpmpi_comm_put(sub, comm, "MPI_Comm_split")) < 0)
		return MPI_ERR_NO_MEM;
	*newcomm = h;
	return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	vp_comm *c, *sub;
	int rc, h;

	if (vpmpi_is_inter(comm))
		return vpmpi_inter_dup(comm, newcomm);

	if (!(c = vpmpi_comm(comm, "MPI_Comm_dup")))
		return MPI_ERR_COMM;
	if (!newcomm)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Comm_dup",
				 "newcomm is NULL");
	if ((rc = vp_comm_dup(c, &sub)))
		return vpmpi_ret(rc);
	if ((h = vpmpi_comm_put(sub, comm, "MPI_Comm_dup")) < 0)
		return MPI_ERR_NO_MEM;
	*newcomm = h;
	/* MPI 4.0 sec. 7.7.2: a copy callback's failure fails the call,
	 * with no new communicator */
	if ((rc = vpmpi_attrs_copy(comm, *newcomm))) {
		vpmpi_attr_forget(VPMPI_ATTR_COMM, *newcomm);
		vp_comm_free(vpmpi_me.comm[*newcomm]);
		vpmpi_comm_set(*newcomm, NULL);
		*newcomm = MPI_COMM_NULL;
		return rc;
	}
	if ((rc = vpmpi_graph_copy(comm, *newcomm)))
		return rc;
	return vpmpi_cart_copy(comm, *newcomm);
}

int MPI_Comm_free(MPI_Comm *comm)
{
	vp_comm *c;
	int rc;

	if (comm && vpmpi_is_inter(*comm))
		return vpmpi_inter_free(comm);
	if (!comm || *comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
		return vpmpi_fail(MPI_ERR_COMM, "MPI_Comm_free",
				  "%s cannot be freed",
				  !comm ? "a NULL handle pointer"
				  : *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
							    : "MPI_COMM_SELF");
	if (!(c = vpmpi_comm(*comm, "MPI_Comm_free")))
		return MPI_ERR_COMM;
	if ((rc = vpmpi_attrs_drop(*comm))) /* MPI: before it goes */
		return rc;
	vpmpi_name_drop(VPMPI_NAME_COMM, *comm);
	rc = vp_comm_free(c);
	vpmpi_comm_set(*comm, NULL);
	vpmpi_cart_free(*comm);
	vpmpi_graph_free(*comm);
	*comm = MPI_COMM_NULL;
	return vpmpi_ret(rc);
}

/* MPI 4.0 sec. 11.10.4: MPI_Comm_free that waits for the pending
 * communication on comm. vp's does not wait here: it frees comm as
 * MPI_Comm_free does, which releases it once its live requests have
 * completed; inactive persistent requests do not hold it. */
int MPI_Comm_disconnect(MPI_Comm *comm)
{
	if (!comm)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Comm_disconnect",
				  "the communicator pointer is NULL");
	return MPI_Comm_free(comm);
}

int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result)
{
	vp_comm *ca, *cb;
	int i, same = 1;

	if (VPMPI_IS_INTER(a) || VPMPI_IS_INTER(b))
		return vpmpi_inter_compare(a, b, result);
	ca = vpmpi_comm(a, "MPI_Comm_compare");
	if (!ca || !(cb = vpmpi_comm(b, "MPI_Comm_compare")))
		return MPI_ERR_COMM;
	if (ca == cb) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (vp_size(ca) != vp_size(cb)) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	for (i = 0; i < vp_size(ca); i++)
		same &= vp_world_rank(ca, i) == vp_world_rank(cb, i);
	if (same) {
		*result = MPI_CONGRUENT; /* same ranks, same order */
		return MPI_SUCCESS;
	}
	/* the same ranks in another order: similar */
	for (i = 0; i < vp_size(ca); i++) {
		int j, w = vp_world_rank(ca, i), found = 0;

		for (j = 0; j < vp_size(cb) && !found; j++)
			found = vp_world_rank(cb, j) == w;
		if (!found) {
			*result = MPI_UNEQUAL;
			return MPI_SUCCESS;
		}
	}
	*result = MPI_SIMILAR;
	return MPI_SUCCESS;
}


/* MPI 4.0 sec. 11.8.2: the intercommunicator to the parent of a process
 * started by MPI_Comm_spawn, MPI_COMM_NULL for the others. vp starts
 * every rank with the job and spawns none. */
int MPI_Comm_get_parent(MPI_Comm *parent)
{
	static const char call[] = "MPI_Comm_get_parent";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!parent)
		return vpmpi_fail(MPI_ERR_ARG, call, "parent is NULL");
	*parent = MPI_COMM_NULL;
	return MPI_SUCCESS;
}
