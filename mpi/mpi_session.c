/*
 * mpi_session.c - the sessions model (MPI 4.0 sec. 11.3), for a job of
 * ranks in one process: a rank opens sessions without MPI_Init (or
 * beside it), and each session knows the two process sets every MPI
 * has, mpi://WORLD (every rank) and mpi://SELF (the rank alone). Their
 * groups (MPI_Group_from_session_pset) make communicators with
 * MPI_Comm_create_from_group, which every member calls with the same
 * string tag: a creation on the world's ranks (vp_comm_create_group)
 * under a tag hashed from the string. A session has its own error
 * handler (given to MPI_Session_init, changed by
 * MPI_Session_set_errhandler, called by MPI_Session_call_errhandler).
 *
 * While a session is open the layer's calls work as between MPI_Init and
 * MPI_Finalize. A session opened after MPI_Finalize is refused: the
 * layer does not start again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

static const char *const psets[] = { "mpi://WORLD", "mpi://SELF" };
#define NPSETS 2

/* The rank's sessions, handle h at sessions[h - 1], nslots of them (the
 * table doubles when every slot is open; a closed one's is reused). */
static __thread struct session {
	int live;
	MPI_Errhandler errh;
} *sessions;
static __thread int nslots;

/* 0 when h is an open session, else the error (named) */
static int check(MPI_Session h, const char *call)
{
	if (h >= 1 && h <= nslots && sessions[h - 1].live)
		return MPI_SUCCESS;
	return vpmpi_fail(MPI_ERR_SESSION, call,
			  h == MPI_SESSION_NULL
			      ? "session is MPI_SESSION_NULL"
			      : "session handle %d is not an open session",
			  h);
}

static int check_errh(MPI_Errhandler eh, const char *call)
{
	if (eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN ||
	    eh == MPI_ERRORS_ABORT || vpmpi_errhandler_fn(eh))
		return MPI_SUCCESS;
	return vpmpi_fail(MPI_ERR_ARG, call,
			  "error handler %d is not MPI_ERRORS_ARE_FATAL, "
			  "MPI_ERRORS_RETURN, MPI_ERRORS_ABORT or one made by "
			  "MPI_Session_create_errhandler",
			  eh);
}

int MPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
				  MPI_Errhandler *errhandler)
{
	/* a session's handler is called through its own type only */
	return vpmpi_errhandler_add((MPI_Comm_errhandler_function *)(void *)fn,
				    errhandler,
				    "MPI_Session_create_errhandler");
}

/* The first closed slot, the table grown when none is: -1 when memory
 * is out. */
static int free_slot(void)
{
	struct session *more;
	int i, n = nslots ? 2 * nslots : 4;

	for (i = 0; i < nslots; i++)
		if (!sessions[i].live)
			return i;
	if (!(more = realloc(sessions, (size_t)n * sizeof(*more))))
		return -1;
	memset(more + nslots, 0, (size_t)(n - nslots) * sizeof(*more));
	sessions = more;
	nslots = n;
	return i;
}

void vpmpi_sessions_free(void)
{
	free(sessions);
	sessions = NULL;
	nslots = 0;
}

int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
		     MPI_Session *session)
{
	static const char call[] = "MPI_Session_init";
	int i, rc;

	(void)info; /* no hint is acted on */
	if (!vpmpi_me.comm[MPI_COMM_WORLD])
		return MPI_ERR_OTHER; /* not a rank's thread: nobody to name */
	if (vpmpi_me.finalized)
		return vpmpi_fail(MPI_ERR_OTHER, call,
				  "called after MPI_Finalize");
	if (!session)
		return vpmpi_fail(MPI_ERR_ARG, call, "session is NULL");
	if ((rc = check_errh(errhandler, call)))
		return rc;
	if ((i = free_slot()) < 0)
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for session %d", nslots + 1);
	sessions[i].live = 1;
	sessions[i].errh = errhandler;
	vpmpi_me.sessions++;
	*session = i + 1;
	return MPI_SUCCESS;
}

int MPI_Session_finalize(MPI_Session *session)
{
	int rc;

	if (!session)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Session_finalize",
				  "session is NULL");
	if ((rc = check(*session, "MPI_Session_finalize")))
		return rc;
	sessions[*session - 1].live = 0;
	vpmpi_me.sessions--;
	*session = MPI_SESSION_NULL;
	return MPI_SUCCESS;
}

int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
	static const char call[] = "MPI_Session_set_errhandler";
	int rc;

	if ((rc = check(session, call)) || (rc = check_errh(errhandler, call)))
		return rc;
	sessions[session - 1].errh = errhandler;
	return MPI_SUCCESS;
}

int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
	int rc;

	if ((rc = check(session, "MPI_Session_get_errhandler")))
		return rc;
	if (!errhandler)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Session_get_errhandler",
				  "errhandler is NULL");
	*errhandler = sessions[session - 1].errh;
	return MPI_SUCCESS;
}

int MPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
	static const char call[] = "MPI_Session_call_errhandler";
	MPI_Errhandler eh;
	MPI_Session_errhandler_function *fn;
	int rc;

	if ((rc = check(session, call)))
		return rc;
	eh = sessions[session - 1].errh;
	fn = (MPI_Session_errhandler_function *)(void *)vpmpi_errhandler_fn(eh);
	if (fn) {
		fn(&session, &errorcode);
		return MPI_SUCCESS;
	}
	if (eh == MPI_ERRORS_RETURN)
		return MPI_SUCCESS;
	if (eh == MPI_ERRORS_ABORT)
		vpmpi_errors_abort(errorcode, call, "MPI_ERRORS_ABORT called");
	return vpmpi_fail(errorcode > 0 ? errorcode : MPI_ERR_OTHER, call,
			  "error code %d", errorcode);
}

int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
			      int *npset_names)
{
	int rc;

	(void)info;
	if ((rc = check(session, "MPI_Session_get_num_psets")))
		return rc;
	if (!npset_names)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Session_get_num_psets",
				  "npset_names is NULL");
	*npset_names = NPSETS;
	return MPI_SUCCESS;
}

/* MPI 4.0 sec. 11.3.2: *pset_len 0 asks for the name's length (with its
 * terminating null); else at most *pset_len - 1 characters are copied,
 * null-terminated, and *pset_len becomes the whole name's length + 1. */
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n,
			     int *pset_len, char *pset_name)
{
	static const char call[] = "MPI_Session_get_nth_pset";
	int rc, len;

	(void)info;
	if ((rc = check(session, call)))
		return rc;
	if (n < 0 || n >= NPSETS)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "n = %d is outside [0, %d)", n, NPSETS);
	if (!pset_len || (*pset_len > 0 && !pset_name))
		return vpmpi_fail(MPI_ERR_ARG, call, "%s is NULL",
				  !pset_len ? "pset_len" : "pset_name");
	len = (int)strlen(psets[n]);
	if (*pset_len > 0)
		snprintf(pset_name, (size_t)*pset_len, "%s", psets[n]);
	*pset_len = len + 1;
	return MPI_SUCCESS;
}

/* The process set named: 0 world, 1 self; -1 after the error. */
static int pset_of(const char *name, const char *call)
{
	int i;

	if (!name)
		return vpmpi_fail(MPI_ERR_ARG, call, "pset_name is NULL"), -1;
	for (i = 0; i < NPSETS; i++)
		if (!strcmp(name, psets[i]))
			return i;
	vpmpi_fail(MPI_ERR_ARG, call,
		   "\"%s\" is not a process set (mpi://WORLD, mpi://SELF)",
		   name);
	return -1;
}

int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
			      MPI_Info *info)
{
	static const char call[] = "MPI_Session_get_pset_info";
	char size[16];
	int rc, k, np;

	if ((rc = check(session, call)))
		return rc;
	if ((k = pset_of(pset_name, call)) < 0)
		return MPI_ERR_ARG;
	if (!info)
		return vpmpi_fail(MPI_ERR_ARG, call, "info is NULL");
	np = k == 0 ? vp_size(vpmpi_me.comm[MPI_COMM_WORLD]) : 1;
	snprintf(size, sizeof(size), "%d", np);
	if ((rc = MPI_Info_create(info)))
		return rc;
	return MPI_Info_set(*info, "mpi_size", size);
}

int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
	int rc;

	if ((rc = check(session, "MPI_Session_get_info")))
		return rc;
	if (!info_used)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Session_get_info",
				  "info_used is NULL");
	return MPI_Info_create(info_used); /* no hint is acted on */
}

int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
				MPI_Group *newgroup)
{
	static const char call[] = "MPI_Group_from_session_pset";
	MPI_Group world;
	int rc, k, me;

	if ((rc = check(session, call)))
		return rc;
	if ((k = pset_of(pset_name, call)) < 0)
		return MPI_ERR_ARG;
	if (!newgroup)
		return vpmpi_fail(MPI_ERR_ARG, call, "newgroup is NULL");
	if ((rc = MPI_Comm_group(MPI_COMM_WORLD, &world)))
		return rc;
	if (k == 0) {
		*newgroup = world;
		return MPI_SUCCESS;
	}
	me = vp_rank(vpmpi_me.comm[MPI_COMM_WORLD]);
	rc = MPI_Group_incl(world, 1, &me, newgroup);
	MPI_Group_free(&world);
	return rc;
}

/* The tag of a string tag: 32-bit FNV-1a folded into [0, MPI_TAG_UB]. */
int vpmpi_string_tag(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return (int)(h % ((unsigned)MPI_TAG_UB + 1));
}

/* MPI 4.0 sec. 7.4.2: every member of group calls it with the same
 * stringtag; members of creations that run at once pass different ones. */
int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag,
			       MPI_Info info, MPI_Errhandler errhandler,
			       MPI_Comm *newcomm)
{
	static const char call[] = "MPI_Comm_create_from_group";
	int rc;

	(void)info;
	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!stringtag || !newcomm)
		return vpmpi_fail(MPI_ERR_ARG, call, "%s is NULL",
				  !stringtag ? "stringtag" : "newcomm");
	if ((rc = check_errh(errhandler, call)))
		return rc;
	if ((rc = MPI_Comm_create_group(MPI_COMM_WORLD, group,
					vpmpi_string_tag(stringtag), newcomm)))
		return rc;
	if (*newcomm == MPI_COMM_NULL)
		return vpmpi_fail(MPI_ERR_GROUP, call,
				  "this rank is not in the group");
	return MPI_Comm_set_errhandler(*newcomm, errhandler);
}
