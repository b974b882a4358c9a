/*
 * many_sessions.c - a rank holds 200 sessions open at once (MPI 4.0 sec.
 * 11.3), without MPI_Init: from each, a communicator of mpi://WORLD's
 * group (MPI_Comm_create_from_group, a tag of its own) and an all-reduce
 * of the ranks over it; then every communicator and session is freed,
 * and 200 more sessions are opened and closed one at a time (a closed
 * session's handle may be reused). Rank 0 prints the sum over the
 * communicators and the handles that repeated while open.
 * no-ref: Open MPI 4.1 has no sessions (nor has the MPICH 4.0 here)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

#define NSESSION 200

static MPI_Session s[NSESSION];
static MPI_Comm c[NSESSION];

int main(void)
{
	int i, j, r = 0, sum, repeated = 0;
	long total = 0;
	char tag[64];
	MPI_Group g;

	for (i = 0; i < NSESSION; i++) {
		MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s[i]);
		MPI_Group_from_session_pset(s[i], "mpi://WORLD", &g);
		snprintf(tag, sizeof(tag), "many_sessions.%d", i);
		MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL,
					   MPI_ERRORS_RETURN, &c[i]);
		MPI_Group_free(&g);
	}
	for (i = 0; i < NSESSION; i++)
		for (j = 0; j < i; j++)
			repeated += s[i] == s[j];
	MPI_Comm_rank(c[0], &r);
	for (i = 0; i < NSESSION; i++) {
		int v = r + i;

		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c[i]);
		total += sum;
	}
	for (i = 0; i < NSESSION; i++) {
		MPI_Comm_free(&c[i]);
		MPI_Session_finalize(&s[i]);
	}
	for (i = 0; i < NSESSION; i++) {
		MPI_Session one;

		MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &one);
		repeated += MPI_Session_finalize(&one) != MPI_SUCCESS;
	}
	if (r == 0)
		printf("%d sessions held at once, a communicator each: "
		       "sum %ld, %d repeated handles\n",
		       NSESSION, total, repeated);
	return 0;
}
