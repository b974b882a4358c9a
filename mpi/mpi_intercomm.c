/*
 * mpi_intercomm.c - the intercommunicator queries (MPI 4.0, sec. 7.6.1)
 * on vp, whose communicators are all intracommunicators:
 * MPI_Comm_test_inter answers false, MPI_Comm_remote_size and
 * MPI_Comm_remote_group fail with MPI_ERR_COMM as MPI requires of an
 * intracommunicator. MPI_Intercomm_create and MPI_Intercomm_merge fail
 * with MPI_ERR_INTERN, naming what is missing: vp has no
 * intercommunicators.
 */
#include "vpmpi.h"

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	if (!vpmpi_comm(comm, "MPI_Comm_test_inter"))
		return MPI_ERR_COMM;
	if (!flag)
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Comm_test_inter",
				 "flag is NULL");
	*flag = 0;
	return MPI_SUCCESS;
}

static int not_inter(MPI_Comm comm, const char *call)
{
	if (!vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	return vpmpi_err(comm, MPI_ERR_COMM, call,
			 "communicator %d is an intracommunicator: it has "
			 "no remote group",
			 comm);
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	(void)size;
	return not_inter(comm, "MPI_Comm_remote_size");
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	(void)group;
	return not_inter(comm, "MPI_Comm_remote_group");
}

static int unsupported(MPI_Comm comm, const char *call)
{
	if (!vpmpi_comm(comm, call))
		return MPI_ERR_COMM;
	return vpmpi_err(comm, MPI_ERR_INTERN, call,
			 "intercommunicators are not supported by vp's MPI");
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag,
			 MPI_Comm *newintercomm)
{
	(void)local_leader, (void)peer_comm, (void)remote_leader, (void)tag;
	if (newintercomm)
		*newintercomm = MPI_COMM_NULL;
	return unsupported(local_comm, "MPI_Intercomm_create");
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	(void)high;
	if (newintracomm)
		*newintracomm = MPI_COMM_NULL;
	if (!vpmpi_comm(intercomm, "MPI_Intercomm_merge"))
		return MPI_ERR_COMM;
	/* every communicator of vp is an intracommunicator */
	return vpmpi_err(intercomm, MPI_ERR_COMM, "MPI_Intercomm_merge",
			 "communicator %d is not an intercommunicator",
			 intercomm);
}
