/*
 * mpi_env.c - the MPI environment on vp: MPI_Init and MPI_Finalize, abort,
 * errors, clocks and names. A rank's state is thread-local (struct
 * vpmpi_rank); the launcher (mpi_main.c) binds it to the rank's world.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vpmpi.h"

__thread struct vpmpi_rank vpmpi_me;

int vpmpi_bind(vp_comm *world)
{
	memset(&vpmpi_me, 0, sizeof(vpmpi_me));
	if (vpmpi_comms_room(MPI_COMM_SELF))
		return vp_abort(world, VP_ENOMEM, "main",
				"no memory for the communicator handles");
	vpmpi_comm_set(MPI_COMM_WORLD, world);
	vpmpi_me.errh[MPI_COMM_WORLD] = MPI_ERRORS_ARE_FATAL;
	return VP_OK;
}

void vpmpi_unbind(void)
{
	int h;

	for (h = MPI_COMM_SELF; h < vpmpi_me.ncomms; h++) {
		if (vpmpi_me.comm[h])
			vp_comm_free(vpmpi_me.comm[h]);
		vpmpi_cart_free(h);
		vpmpi_graph_free(h);
	}
	vpmpi_cart_free(MPI_COMM_WORLD);
	vpmpi_requests_free();
	vpmpi_attrs_free();
	vpmpi_error_classes_free();
	vpmpi_errhandlers_free();
	vpmpi_sessions_free();
	vpmpi_wins_free();
	vpmpi_types_free();
	vpmpi_messages_free();
	vpmpi_ops_free();
	vpmpi_groups_free();
	free(vpmpi_me.comm);
	free(vpmpi_me.size);
	free(vpmpi_me.errh);
	free(vpmpi_me.cart);
	free(vpmpi_me.graph);
	vpmpi_infos_free();
	vpmpi_inters_free();
	vpmpi_names_free();
	vpmpi_win_attrs_free();
	if (vpmpi_me.out)
		fclose(vpmpi_me.out); /* passes a last partial line on */
	memset(&vpmpi_me, 0, sizeof(vpmpi_me));
}

/* The class of the first error the layer made fatal, for the launcher's
 * last line (vp records the message, as VP_EINVAL). */
static atomic_int fatal_class;

int vpmpi_job_class(int vp_code)
{
	int cls = atomic_load(&fatal_class);

	return vp_code == VP_EINVAL && cls ? cls : vpmpi_class(vp_code);
}

/* The rank's handlers made by MPI_Comm_create_errhandler,
 * MPI_Win_create_errhandler and MPI_Session_create_errhandler, in one
 * table of cap (doubled as it fills), so that no two share a handle:
 * handle FIRST_USER_HANDLER + i. */
#define FIRST_USER_HANDLER 4 /* after MPI_ERRORS_ABORT */
static __thread struct user_errh {
	vpmpi_fn *fn;
	int kind; /* VPMPI_ERRH_ */
} *handlers;
static __thread int nhandlers, cap_handlers;

vpmpi_fn *vpmpi_errhandler_of(MPI_Errhandler eh, int kind)
{
	int i = eh - FIRST_USER_HANDLER;

	return i >= 0 && i < nhandlers && handlers[i].kind == kind
		   ? handlers[i].fn
		   : NULL;
}

static MPI_Comm_errhandler_function *user_handler(MPI_Errhandler eh)
{
	return (MPI_Comm_errhandler_function *)vpmpi_errhandler_of(
	    eh, VPMPI_ERRH_COMM);
}

int vpmpi_err(MPI_Comm h, int mpi_class, const char *call, const char *fmt,
	      ...)
{
	vp_comm *world = vpmpi_me.comm[MPI_COMM_WORLD];
	MPI_Errhandler eh = MPI_ERRORS_ARE_FATAL;
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (vpmpi_me.call_c) /* raised inside a large-count call's sibling */
		call = vpmpi_me.call_c;
	h = vpmpi_errh_handle(h);
	if (h > 0 && h < vpmpi_me.ncomms && vpmpi_me.comm[h])
		eh = vpmpi_me.errh[h];
	else if (world)
		eh = vpmpi_me.errh[MPI_COMM_WORLD];
	if (!eh) /* none set: the default */
		eh = MPI_ERRORS_ARE_FATAL;
	if (world && eh == MPI_ERRORS_ABORT)
		vpmpi_errors_abort(mpi_class, call, msg);
	if (world && eh != MPI_ERRORS_ARE_FATAL) {
		MPI_Comm_errhandler_function *fn = user_handler(eh);

		snprintf(vpmpi_me.last_error, sizeof(vpmpi_me.last_error),
			 "rank %d: %.60s: %.300s", vp_rank(world), call, msg);
		vpmpi_me.last_class = mpi_class;
		if (fn) { /* MPI 3.1 sec. 8.3.1: then the call returns */
			MPI_Comm on = h > 0 && h < vpmpi_me.ncomms &&
					      vpmpi_me.comm[h]
					  ? h
					  : MPI_COMM_WORLD;
			int code = mpi_class;

			fn(&on, &code);
		}
		return mpi_class;
	}
	if (world) {
		/* MPI_ERRORS_ARE_FATAL: the run fails with this message and
		 * the rank goes no further */
		int none = 0;

		atomic_compare_exchange_strong(&fatal_class, &none, mpi_class);
		vp_abort(world, VP_EINVAL, call, "%s", msg);
		vpmpi_leave(VP_EINVAL);
	}
	fprintf(stderr, "vp mpi: %s: %s (not started by vpmpirun)\n", call,
		msg);
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
	case VP_ETYPE:
		return MPI_ERR_TYPE;
	case VP_ESYNC:
		return MPI_ERR_RMA_SYNC;
	case VP_ENOMEM:
		return MPI_ERR_NO_MEM;
	default:
		return MPI_ERR_OTHER;
	}
}

int vpmpi_not_started(const char *call)
{
	if (vpmpi_me.sessions > 0 && !vpmpi_me.finalized)
		return MPI_SUCCESS; /* a session started it (mpi_session.c) */
	return vpmpi_fail(MPI_ERR_OTHER, call, "%s",
			  vpmpi_me.finalized
			      ? "called after MPI_Finalize"
			      : "called before MPI_Init (only MPI_Initialized, "
				"MPI_Finalized and MPI_Get_version may be)");
}

void vpmpi_calling(const char *call)
{
	if (vpmpi_me.comm[MPI_COMM_WORLD])
		vp_call_as(vpmpi_me.comm[MPI_COMM_WORLD], call);
}

int vpmpi_ret(int code)
{
	vp_comm *w = vpmpi_me.comm[MPI_COMM_WORLD];
	const char *msg;
	char copy[512];

	if (code == VP_OK)
		return MPI_SUCCESS;
	if (!w)
		return vpmpi_class(code);
	/* a failed vp call has failed the run, except VP_EALG (a named
	 * algorithm that cannot run here), which vp leaves to its caller */
	snprintf(copy, sizeof(copy), "%s", vp_errmsg(w));
	msg = copy;
	if (!strncmp(msg, "rank ", 5) && strstr(msg, ": "))
		msg = strstr(msg, ": ") + 2;
	vp_abort(w, code, "MPI", "%s", msg);
	vpmpi_leave(code);
}

void vpmpi_status(const vp_status *in, int rc, MPI_Status *status)
{
	if (!status)
		return;
	status->MPI_SOURCE = in->source;
	status->MPI_TAG = in->tag;
	/* MPI 4.0 sec. 3.2.5: a call that succeeds leaves MPI_ERROR as
	 * it was (single completions never set it, the array calls only
	 * with MPI_ERR_IN_STATUS) */
	if (rc)
		status->MPI_ERROR = vpmpi_class(rc);
	status->vpmpi_bytes = in->bytes;
	status->vpmpi_cancelled = in->cancelled;
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
	vpmpi_comm_set(MPI_COMM_SELF, self);
	vpmpi_me.errh[MPI_COMM_SELF] = MPI_ERRORS_ARE_FATAL; /* MPI 4.0 9.3 */
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
	/* MPI_Finalize is collective: no rank leaves while another may still
	 * send to it (MPI programs rely on that), and vp then checks that
	 * nothing sent is left unreceived */
	vpmpi_calling("MPI_Finalize");
	/* MPI 3.1 sec. 8.7.1: first as if MPI_COMM_SELF were freed (its
	 * attributes' delete callbacks run: libraries hook their cleanup
	 * there), then requests freed while active complete */
	if ((h = vpmpi_attrs_drop(MPI_COMM_SELF)) ||
	    (h = vpmpi_requests_drain()) || (h = vpmpi_bsend_drain()))
		return h;
	vp_barrier(vpmpi_me.comm[MPI_COMM_WORLD]);
	/* communicators the program did not free, and MPI_COMM_SELF */
	for (h = MPI_COMM_SELF; h < vpmpi_me.ncomms; h++)
		if (vpmpi_me.comm[h]) {
			vp_comm_free(vpmpi_me.comm[h]);
			vpmpi_comm_set(h, NULL);
			vpmpi_cart_free(h);
			vpmpi_graph_free(h);
		}
	vpmpi_me.finalized = 1;
	return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
	*flag = vpmpi_me.finalized;
	return MPI_SUCCESS;
}

/* MPI_ERRORS_ABORT (MPI 4.0 sec. 9.3): as MPI_Abort with the error's
 * code on the communicator the handler is attached to, which ends the
 * whole job, as MPI_Abort does in vp (MPI allows a superset of the
 * communicator's processes). */
void vpmpi_errors_abort(int code, const char *call, const char *msg)
{
	vp_comm *world = vpmpi_me.comm[MPI_COMM_WORLD];
	int rc = code > 0 ? code : 1;

	if (!world) { /* not started by vpmpirun */
		fprintf(stderr, "vp mpi: %s: %s (MPI_ERRORS_ABORT)\n", call,
			msg);
		exit(rc);
	}
	vp_abort(world, rc, call,
		 "%s (MPI_ERRORS_ABORT: the job ends as MPI_Abort(%d))", msg,
		 rc);
	vpmpi_leave(rc);
}

/* Ends the whole job with errorcode (vpmpirun exits with it), and never
 * returns. */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
	vp_comm *world = vpmpi_me.comm[MPI_COMM_WORLD];

	(void)comm;
	if (world) {
		vp_abort(world, errorcode > 0 ? errorcode : 1, "MPI_Abort",
			 "MPI_Abort(%d)", errorcode);
		vpmpi_leave(errorcode > 0 ? errorcode : 1);
	}
	exit(errorcode ? errorcode : 1);
}

double MPI_Wtime(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* MPI 4.0 sec. 15.2.4: "MPI libraries themselves make no use of this
 * routine, and simply return immediately": a no-op is a correct one. */
int MPI_Pcontrol(const int level, ...)
{
	(void)level; /* any level, at any time */
	return MPI_SUCCESS;
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
	const char *string;

	if (!errorclass)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Error_class",
				  "errorclass is NULL");
	/* a code the program added has its class (mpi_error_class.c) */
	if (!vpmpi_error_added(errorcode, errorclass, &string))
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
	    [MPI_ERR_GROUP] = "invalid group",
	    [MPI_ERR_TOPOLOGY] = "invalid topology",
	    [MPI_ERR_DIMS] = "invalid dimensions",
	    [MPI_ERR_IN_STATUS] = "error code in status",
	    [MPI_ERR_PENDING] = "pending request",
	    [MPI_ERR_WIN] = "invalid window",
	    [MPI_ERR_INFO] = "invalid info object",
	    [MPI_ERR_INFO_KEY] = "invalid info key",
	    [MPI_ERR_INFO_VALUE] = "invalid info value",
	    [MPI_ERR_INFO_NOKEY] = "no such key in the info object",
	    [MPI_ERR_KEYVAL] = "invalid keyval",
	    [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to a window",
	    [MPI_ERR_RMA_SYNC] = "one-sided call outside its synchronization "
				 "epoch",
	    [MPI_ERR_RMA_RANGE] = "target memory is not part of the window",
	    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
	    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
	    [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
	    [MPI_ERR_SESSION] = "invalid session",
	};
	const char *s = errorcode >= 0 &&
				errorcode < (int)(sizeof(names) / sizeof(*names)) &&
				names[errorcode]
			    ? names[errorcode]
			    : "unknown error class";
	int cls;

	if (!string || !resultlen)
		return vpmpi_fail(MPI_ERR_ARG, "MPI_Error_string",
				  "the %s is NULL",
				  !string ? "string" : "resultlen");
	/* a class or code the program added: its own string, or none */
	if (vpmpi_error_added(errorcode, &cls, &s)) {
		snprintf(string, MPI_MAX_ERROR_STRING, "%s", s ? s : "");
		*resultlen = (int)strlen(string);
		return MPI_SUCCESS;
	}
	/* the class's name, and this rank's message for it when the error
	 * was returned (MPI_ERRORS_RETURN) */
	if (errorcode && errorcode == vpmpi_me.last_class)
		snprintf(string, MPI_MAX_ERROR_STRING, "%s: %.400s", s,
			 vpmpi_me.last_error);
	else
		snprintf(string, MPI_MAX_ERROR_STRING, "%s", s);
	*resultlen = (int)strlen(string);
	return MPI_SUCCESS;
}

/* ---- error handlers ---- */

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
			       MPI_Errhandler *errhandler)
{
	static const char call[] = "MPI_Comm_create_errhandler";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	return vpmpi_errhandler_add(fn, errhandler, call);
}

int vpmpi_errhandler_new(int kind, vpmpi_fn *fn, MPI_Errhandler *errhandler,
			 const char *call)
{
	struct user_errh *more;
	int cap = cap_handlers ? 2 * cap_handlers : 8;

	if (!fn || !errhandler)
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s is NULL",
				  !fn ? "function" : "handle pointer");
	if (nhandlers == cap_handlers) {
		more = realloc(handlers, (size_t)cap * sizeof(*more));
		if (!more)
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for %d error handlers",
					  nhandlers + 1);
		handlers = more;
		cap_handlers = cap;
	}
	handlers[nhandlers] = (struct user_errh){ fn, kind };
	*errhandler = FIRST_USER_HANDLER + nhandlers++;
	return MPI_SUCCESS;
}

int vpmpi_errhandler_add(MPI_Comm_errhandler_function *fn,
			 MPI_Errhandler *errhandler, const char *call)
{
	return vpmpi_errhandler_new(VPMPI_ERRH_COMM, (vpmpi_fn *)fn,
				    errhandler, call);
}

int MPI_Errhandler_create(MPI_Handler_function *fn,
			  MPI_Errhandler *errhandler)
{
	return MPI_Comm_create_errhandler(fn, errhandler);
}

MPI_Comm_errhandler_function *vpmpi_errhandler_fn(MPI_Errhandler eh)
{
	return user_handler(eh);
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
	MPI_Comm_errhandler_function *fn;

	if (!vpmpi_comm(comm, "MPI_Comm_call_errhandler"))
		return MPI_ERR_COMM;
	fn = user_handler(vpmpi_me.errh[comm]);
	if (fn) {
		fn(&comm, &errorcode);
		return MPI_SUCCESS;
	}
	if (vpmpi_me.errh[comm] == MPI_ERRORS_RETURN)
		return MPI_SUCCESS;
	return vpmpi_err(comm, errorcode > 0 ? errorcode : MPI_ERR_OTHER,
			 "MPI_Comm_call_errhandler", "error code %d",
			 errorcode);
}

void vpmpi_errhandlers_free(void)
{
	free(handlers);
	handlers = NULL;
	nhandlers = cap_handlers = 0;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
	comm = vpmpi_errh_handle(comm);
	if (!vpmpi_comm(comm, "MPI_Comm_set_errhandler"))
		return MPI_ERR_COMM;
	if (errhandler != MPI_ERRORS_ARE_FATAL &&
	    errhandler != MPI_ERRORS_RETURN &&
	    errhandler != MPI_ERRORS_ABORT && !user_handler(errhandler))
		return vpmpi_err(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler",
				 "error handler %d is not MPI_ERRORS_ARE_FATAL, "
				 "MPI_ERRORS_RETURN, MPI_ERRORS_ABORT or one "
				 "made by MPI_Comm_create_errhandler",
				 errhandler);
	vpmpi_me.errh[comm] = errhandler;
	return MPI_SUCCESS;
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
	return MPI_Comm_set_errhandler(comm, errhandler);
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
	comm = vpmpi_errh_handle(comm);
	if (!vpmpi_comm(comm, "MPI_Comm_get_errhandler"))
		return MPI_ERR_COMM;
	*errhandler = vpmpi_me.errh[comm] ? vpmpi_me.errh[comm]
					  : MPI_ERRORS_ARE_FATAL;
	return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
	*errhandler = MPI_ERRHANDLER_NULL; /* the predefined stay */
	return MPI_SUCCESS;
}
