/* mpi4_calls.c - what a program that asks for MPI 4.0 gets: mpi.h's
 * MPI_VERSION and MPI_SUBVERSION say 4.0 and MPI_Get_version and
 * MPI_Get_library_version say the same; the large-count status calls
 * MPI_Status_set_elements_c and MPI_Get_elements_c (MPI 4.0 sec. 13.3,
 * 4.1.11) give back what was set; MPI_Intercomm_create_from_groups
 * (MPI 4.0 sec. 7.6.2) joins the lower half of the ranks to the upper
 * half without a peer communicator: each side sums the other side's world
 * ranks with MPI_Allreduce on it, local rank 0 of each side swaps its
 * world rank with the other's local rank 0, and the remote group is the
 * other half. Groups that overlap, and a rank outside its local group,
 * are refused with MPI_ERR_GROUP. Rank 0 prints.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#if MPI_VERSION < 4
#error "mpi.h says an MPI older than 4.0"
#endif

static int check_version(void)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING], want[32];
	int v, s, len;

	MPI_Get_version(&v, &s);
	MPI_Get_library_version(lib, &len);
	snprintf(want, sizeof(want), "MPI %d.%d", MPI_VERSION, MPI_SUBVERSION);
	return v != MPI_VERSION || s != MPI_SUBVERSION || v != 4 || s != 0 ||
	       len != (int)strlen(lib) || !strstr(lib, want);
}

static int check_elements(void)
{
	MPI_Status st;
	MPI_Count n = -1;
	int bad = 0, count = -1;

	MPI_Status_set_elements_c(&st, MPI_INT, 3);
	MPI_Get_elements_c(&st, MPI_INT, &n);
	MPI_Get_count(&st, MPI_INT, &count);
	bad += n != 3 || count != 3;
	MPI_Status_set_elements_c(&st, MPI_DOUBLE, 0);
	MPI_Get_elements_c(&st, MPI_DOUBLE, &n);
	bad += n != 0;
	return bad;
}

/* Two groups that overlap, then a local group without this rank: both
 * refused. */
static int check_refusals(MPI_Group world, int rank, int size)
{
	MPI_Comm ic = MPI_COMM_NULL;
	MPI_Group other;
	int bad = 0, rc, cls, them = (rank + 1) % size;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	rc = MPI_Intercomm_create_from_groups(world, 0, world, 0, "both",
					      MPI_INFO_NULL,
					      MPI_ERRORS_RETURN, &ic);
	MPI_Error_class(rc, &cls);
	bad += cls != MPI_ERR_GROUP || ic != MPI_COMM_NULL;
	if (size > 1) {
		MPI_Group_incl(world, 1, &them, &other);
		rc = MPI_Intercomm_create_from_groups(
		    other, 0, MPI_GROUP_EMPTY, 0, "out", MPI_INFO_NULL,
		    MPI_ERRORS_RETURN, &ic);
		MPI_Error_class(rc, &cls);
		bad += cls != MPI_ERR_GROUP || ic != MPI_COMM_NULL;
		MPI_Group_free(&other);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	return bad;
}

static int check_halves(MPI_Group world, int rank, int size)
{
	int half = size / 2, lo[64], hi[64], i, bad = 0, sum = -1, want = 0;
	int lrank, lsize, rsize, peer = -1, inter, cmp;
	MPI_Group mine, theirs, remote;
	MPI_Comm ic;

	for (i = 0; i < half; i++)
		lo[i] = i;
	for (i = half; i < size; i++)
		hi[i - half] = i;
	MPI_Group_incl(world, half, lo, rank < half ? &mine : &theirs);
	MPI_Group_incl(world, size - half, hi, rank < half ? &theirs : &mine);
	MPI_Intercomm_create_from_groups(mine, 0, theirs, 0, "halves",
					 MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL,
					 &ic);
	MPI_Comm_test_inter(ic, &inter);
	MPI_Comm_rank(ic, &lrank);
	MPI_Comm_size(ic, &lsize);
	MPI_Comm_remote_size(ic, &rsize);
	MPI_Comm_remote_group(ic, &remote);
	MPI_Group_compare(remote, theirs, &cmp);
	bad += !inter || cmp != MPI_IDENT ||
	       lrank != (rank < half ? rank : rank - half) ||
	       lsize != (rank < half ? half : size - half) ||
	       rsize != size - lsize;
	for (i = rank < half ? half : 0; i < (rank < half ? size : half); i++)
		want += i;
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ic);
	bad += sum != want;
	if (lrank == 0)
		MPI_Sendrecv(&rank, 1, MPI_INT, 0, 7, &peer, 1, MPI_INT, 0, 7,
			     ic, MPI_STATUS_IGNORE);
	bad += lrank == 0 && peer != (rank < half ? half : 0);
	MPI_Comm_free(&ic);
	MPI_Group_free(&remote);
	MPI_Group_free(&mine);
	MPI_Group_free(&theirs);
	return bad;
}

int main(int argc, char **argv)
{
	int rank, size, bad, all_bad;
	MPI_Group world;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	bad = check_version() + 2 * check_elements() +
	      4 * check_refusals(world, rank, size);
	if (size > 1)
		bad += 8 * check_halves(world, rank, size);
	MPI_Group_free(&world);
	MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
	if (rank == 0)
		printf("mpi4_calls on %d ranks: MPI %d.%d; %s\n", size,
		       MPI_VERSION, MPI_SUBVERSION,
		       all_bad ? "FAILED" : "ok");
	MPI_Finalize();
	return all_bad != 0;
}
