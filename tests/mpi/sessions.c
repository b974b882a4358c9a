/*
 * sessions.c - the sessions model (MPI 4.0 sec. 11.3) without MPI_Init:
 * a session with its own error handler, its process sets mpi://WORLD and
 * mpi://SELF (their names, sizes and groups), a communicator made from
 * each group (an MPI_Allreduce of the ranks over the world's), the
 * session's handler called once, then the session finalized.
 * no-ref: Open MPI 4.1 has no sessions
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls;
static MPI_Session mine;

static void handler(MPI_Session *s, int *code, ...)
{
	calls += *s == mine && *code == MPI_ERR_OTHER;
}

/* wrong answers about the process sets' names and sizes */
static int names(MPI_Session s, int np)
{
	char name[MPI_MAX_PSET_NAME_LEN], val[16];
	int n = 0, len, bad = 0, flag = 0, i;
	MPI_Info info;

	MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
	bad += n != 2;
	for (i = 0; i < n; i++) {
		len = 0;
		MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL);
		bad += len != (int)strlen(i ? "mpi://SELF" : "mpi://WORLD") + 1;
		MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
		MPI_Session_get_pset_info(s, name, &info);
		MPI_Info_get(info, "mpi_size", sizeof(val) - 1, val, &flag);
		bad += !flag || atoi(val) != (strcmp(name, "mpi://SELF") ? np : 1);
		MPI_Info_free(&info);
	}
	return bad;
}

/* wrong answers of the communicators made from the two groups */
static int comms(MPI_Session s, int rank, int np)
{
	MPI_Group g;
	MPI_Comm c;
	int bad = 0, sum = 0, size = 0;

	MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
	MPI_Comm_create_from_group(g, "org.vp.sessions.world", MPI_INFO_NULL,
				   MPI_ERRORS_RETURN, &c);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
	bad += sum != np * (np - 1) / 2;
	MPI_Comm_free(&c);
	MPI_Group_free(&g);
	MPI_Group_from_session_pset(s, "mpi://SELF", &g);
	MPI_Comm_create_from_group(g, "org.vp.sessions.self", MPI_INFO_NULL,
				   MPI_ERRORS_RETURN, &c);
	MPI_Comm_size(c, &size);
	bad += size != 1;
	MPI_Comm_free(&c);
	MPI_Group_free(&g);
	return bad;
}

int main(void)
{
	MPI_Errhandler eh;
	MPI_Group g;
	MPI_Comm world;
	int rank, np, bad = 0, all = 0, flag = 1;

	MPI_Session_create_errhandler(handler, &eh);
	MPI_Session_init(MPI_INFO_NULL, eh, &mine);
	MPI_Group_from_session_pset(mine, "mpi://WORLD", &g);
	MPI_Comm_create_from_group(g, "org.vp.sessions", MPI_INFO_NULL,
				   MPI_ERRORS_ARE_FATAL, &world);
	MPI_Group_free(&g);
	MPI_Comm_rank(world, &rank);
	MPI_Comm_size(world, &np);
	bad += names(mine, np);
	bad += comms(mine, rank, np);
	MPI_Session_call_errhandler(mine, MPI_ERR_OTHER);
	bad += calls != 1;
	MPI_Errhandler_free(&eh);
	MPI_Initialized(&flag);
	bad += flag; /* a session does not initialize the world model */
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, world);
	if (rank == 0)
		printf("sessions on %d ranks: %s (%d bad)\n", np,
		       all ? "FAILED" : "ok", all);
	MPI_Comm_free(&world);
	MPI_Session_finalize(&mine);
	return 0;
}
