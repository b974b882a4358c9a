/*
 * mpi_env.c - the MPI environment on vp: MPI_Init and MPI_Finalize, abort,
 * errors, clocks and names. A rank's state is thread-local (struct
 * vpmpi_rank); the launcher (mpi_main.c) binds it to the rank's world.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vpmpi.h"

__thread struct vpmpi_rank vpmpi_me;

void vpmpi_bind(vp_comm *world)
{
	memset(&vpmpi_me, 0, sizeof(vpmpi_me));
	vpmpi_me.comm[MPI_COMM_WORLD] = world;
}

int vpmpi_fail(int mpi_class, const char *call, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (vpmpi_me.comm[MPI_COMM_WORLD]) {
		/* MPI_ERRORS_ARE_FATAL: the run fails with this message and
		 * the rank goes no further */
		vp_abort(vpmpi_me.comm[MPI_COMM_WORLD], VP_EINVAL, call, "%s",
			 msg);
		pthread_exit(NULL);
	} else
		fprintf(stderr, "vp mpi: %s: %s (not started by vpmpirun)\n",
			call, msg);
	return mpi_class;
}

int vpmpi_class(int code)
{
	switch (code) {
	case VP_OK:
		return MPI_SUCCESS;
	case VP_EINVAL:
		return MPI_ERR_ARG;
	case VP_ERANK:
		return MPI_ERR_RANK;
	case VP_ETRUNC:
		return MPI_ERR_TRUNCATE;
	case VP_ENOMEM:
		return MPI_ERR_NO_MEM;
	default:
		return MPI_ERR_OTHER;
	}
}

int vpmpi_ret(int code)
{
	if (code == VP_OK)
		return MPI_SUCCESS;
	if (vpmpi_me.comm[MPI_COMM_WORLD])
		pthread_exit(NULL); /* vp ends the run with the first error */
	return vpmpi_class(code);
}

void vpmpi_status(const vp_status *in, int rc, MPI_Status *status)
{
	if (!status)
		return;
	status->MPI_SOURCE = in->source;
	status->MPI_TAG = in->tag;
	status->MPI_ERROR = vpmpi_class(rc);
	status->vpmpi_bytes = in->bytes;
}

int MPI_Init(int *argc, char ***argv)
{
	vp_comm *world = vpmpi_me.comm[MPI_COMM_WORLD], *self;
	int rc;

	(void)argc;
	(void)argv;
	if (!world)
		return vpmpi_fail(MPI_ERR_OTHER, "MPI_Init",
				  "this thread is not a rank");
	if (vpmpi_me.initialized)
		return vpmpi_fail(MPI_ERR_OTHER, "MPI_Init",
				  "called a second time");
	/* MPI_COMM_SELF: every rank alone (MPI_Init is collective) */
	if ((rc = vp_comm_split(world, vp_rank(world), 0, &self)))
		return vpmpi_ret(rc);
	vpmpi_me.comm[MPI_COMM_SELF] = self;
	vpmpi_me.initialized = 1;
	return MPI_SUCCESS;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	(void)required;
	if (provided)
		*provided = MPI_THREAD_SINGLE; /* a rank is one thread */
	return MPI_Init(argc, argv);
}

int MPI_Initialized(int *flag)
{
	*flag = vpmpi_me.initialized;
	return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
	int h;

	if (!vpmpi_me.initialized || vpmpi_me.finalized)
		return vpmpi_fail(MPI_ERR_OTHER, "MPI_Finalize",
				  vpmpi_me.finalized ? "called a second time"
						     : "MPI_Init was not called");
	/* communicators the program did not free, and MPI_COMM_SELF */
	for (h = MPI_COMM_SELF; h < VPMPI_MAX_COMMS; h++)
		if (vpmpi_me.comm[h]) {
			vp_comm_free(vpmpi_me.comm[h]);
			vpmpi_me.comm[h] = NULL;
		}
	vpmpi_me.finalized = 1;
	return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
	*flag = vpmpi_me.finalized;
	return MPI_SUCCESS;
}

/* Ends the whole job with errorcode (vpmpirun exits with it), and never
 * returns. */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
	vp_comm *world = vpmpi_me.comm[MPI_COMM_WORLD];

	(void)comm;
	if (world)
		vp_abort(world, errorcode > 0 ? errorcode : 1, "MPI_Abort",
			 "MPI_Abort(%d)", errorcode);
	pthread_exit(NULL);
}

double MPI_Wtime(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double MPI_Wtick(void)
{
	return 1e-9;
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
	if (gethostname(name, MPI_MAX_PROCESSOR_NAME))
		snprintf(name, MPI_MAX_PROCESSOR_NAME, "localhost");
	name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
	*resultlen = (int)strlen(name);
	return MPI_SUCCESS;
}

int MPI_Get_version(int *version, int *subversion)
{
	*version = MPI_VERSION;
	*subversion = MPI_SUBVERSION;
	return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
	snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
		 "vp (ranks as threads; MPI %d.%d subset)", MPI_VERSION,
		 MPI_SUBVERSION);
	*resultlen = (int)strlen(version);
	return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int *errorclass)
{
	*errorclass = errorcode;
	return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
	static const char *names[] = {
	    [MPI_SUCCESS] = "no error",
	    [MPI_ERR_BUFFER] = "invalid buffer",
	    [MPI_ERR_COUNT] = "invalid count",
	    [MPI_ERR_TYPE] = "invalid or unsupported datatype",
	    [MPI_ERR_TAG] = "invalid tag",
	    [MPI_ERR_COMM] = "invalid communicator",
	    [MPI_ERR_RANK] = "invalid rank",
	    [MPI_ERR_REQUEST] = "invalid request",
	    [MPI_ERR_ROOT] = "invalid root",
	    [MPI_ERR_OP] = "invalid or unsupported operation",
	    [MPI_ERR_ARG] = "invalid argument",
	    [MPI_ERR_UNKNOWN] = "unknown error",
	    [MPI_ERR_TRUNCATE] = "message truncated",
	    [MPI_ERR_OTHER] = "other error",
	    [MPI_ERR_INTERN] = "internal error",
	    [MPI_ERR_NO_MEM] = "out of memory",
	};
	const char *s = errorcode >= 0 &&
				errorcode < (int)(sizeof(names) / sizeof(*names)) &&
				names[errorcode]
			    ? names[errorcode]
			    : "unknown error class";

	snprintf(string, MPI_MAX_ERROR_STRING, "%s", s);
	*resultlen = (int)strlen(string);
	return MPI_SUCCESS;
}
