/*
 * vpmpi.h - what the files of the MPI layer share. The layer is written
 * only against vp's public API: vp.h, and the hooks vp offers libraries
 * built on it (vp/vp_layer.h: collective signatures, typed messages, calls
 * named as MPI's). A rank's MPI state is thread-local, since each rank
 * is a thread, and every handle (communicator, group, datatype, op,
 * request) is the rank's own, as in MPI.
 *
 * Names: vpmpi_ and VPMPI_ are the layer's names shared between its files
 * (the public ones are MPI's own, MPI_*); nbc (vpmpi_nbc_*) a nonblocking
 * collective's state (mpi_icoll.c); cc a communicator's collective twin
 * (vp_coll_comm), where the layer's collectives send.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_MPI_LAYER_H
#define VP_MPI_LAYER_H

#include "../include/vp/mpi.h"
#include "../include/vp/vp_layer.h"

#define VPMPI_FIRST_TYPE 64 /* derived datatype handles start here */
#define VPMPI_FIRST_OP 32   /* MPI_Op_create's handles start here */

/* A Cartesian topology attached to a communicator (MPI_Cart_create). */
struct vpmpi_cart {
	int ndims;
	int *dims, *periods, *coords; /* coords: this rank's */
};

/* One contiguous run of bytes of a datatype, at off from the buffer. */
struct vpmpi_block {
	long off, len;
	long esz; /* the size of each of its basic elements */
	MPI_Datatype bt; /* and their predefined type */
};

/* A type that is too many pieces to flatten (struct vpmpi_tree): count
 * repetitions, stride bytes apart, of its parts in order; part i is n
 * consecutive items of type t (t's extent apart) at byte disp. A vector
 * is one part repeated; a struct of huge members, its parts once. */
struct vpmpi_part {
	long disp, n;
	struct vpmpi_type *t; /* held (vpmpi_type_hold) while the tree lives */
};

struct vpmpi_tree {
	long count, stride;
	int nparts;
	struct vpmpi_part *parts;
};

/* The most blocks a datatype is flattened into; a type of more pieces
 * is kept as a tree of its constructors (vector, struct), whose size,
 * bounds and element counts are computed once, at construction, and
 * whose data are walked without a list of its pieces. */
#define VPMPI_FLAT_MAX 65536

/* A datatype as MPI defines it (sec. 4.1 of the standard): its typemap
 * flattened into byte blocks in typemap order (adjacent ones merged), or
 * a tree (above) when the blocks would be more than VPMPI_FLAT_MAX; its
 * size (bytes of data), lower bound and extent (the stride between
 * consecutive items), and the basic type of all its elements when there is
 * only one (reductions need it). */
struct vpmpi_type {
	const char *name; /* basic types only */
	long size, lb, extent, true_lb, true_extent;
	long align; /* the largest alignment of its elements */
	int nblocks; /* 0 for a tree */
	struct vpmpi_block *blocks;
	struct vpmpi_tree *tree; /* NULL for a flattened type */
	long long nbasic; /* a tree's basic elements per item */
	MPI_Datatype elem; /* the one basic (or pair) type, 0 when mixed */
	long nelems;       /* elements of elem per item */
	int committed;
	/* what MPI's type matching compares, named for vp_msg_types: the
	 * kind and size of its elements ("4-byte integer": MPI_INT and
	 * MPI_INT32_T alike, signed and unsigned alike, the same bits), or
	 * NULL where nothing is checked: bytes and characters (MPI_BYTE,
	 * MPI_PACKED and MPI_CHAR are matched byte by byte) and mixed
	 * elements. Set when committed (predefined types: at start-up). */
	const char *kind;
	int refs, freed; /* pending requests using it; MPI_Type_free came */
	/* its constructor (MPI_Type_get_envelope): the MPI_COMBINER_ and
	 * the number of integers, addresses and datatypes it took; 0 for
	 * the predefined types */
	int combiner, nints, naddrs, ntypes;
	/* and the arguments themselves (MPI_Type_get_contents): the
	 * datatypes' handles, and the derived ones held (NULL: predefined) */
	int *ints;
	MPI_Aint *addrs;
	MPI_Datatype *targs;
	struct vpmpi_type **tptrs;
	struct vpmpi_block one; /* blocks of a basic type point here */
};

struct vpmpi_rank {
	/* by communicator handle, ncomms of each ([1] world, [2] self),
	 * grown by vpmpi_comm_put as the program makes communicators */
	vp_comm **comm;
	int *size; /* their sizes (vpmpi_comm_set) */
	MPI_Errhandler *errh;
	struct vpmpi_cart **cart;
	struct vpmpi_graph **graph; /* mpi_graph.c */
	/* an intercommunicator's handle is a slot whose comm is NULL and
	 * whose inter is set (mpi_intercomm.c) */
	struct vpmpi_inter **inter;
	int ncomms;
	struct vpmpi_type **types; /* derived: handle - VPMPI_FIRST_TYPE */
	int ntypes;
	struct vpmpi_userop *ops; /* handle - VPMPI_FIRST_OP */
	int nops;
	struct vpmpi_group **groups; /* handle - 2 */
	int ngroups;
	struct vpmpi_request *free_reqs; /* the rank's pool, oldest first */
	struct vpmpi_request *free_tail; /* its newest */
	int nfree;
	unsigned req_stamp;              /* the last array call's mark */
	struct vpmpi_request *all_reqs;  /* every block, for the end */
	FILE *out;                       /* this rank's stdout (lines) */
	char last_error[512];            /* for MPI_Error_string */
	int last_class;
	int initialized, finalized;
	int sessions; /* open sessions (mpi_session.c) */
	/* the large-count call running its int sibling (MPI_Bcast_c runs
	 * MPI_Bcast): the errors raised meanwhile name it; NULL otherwise */
	const char *call_c;
};

struct vpmpi_userop {
	MPI_User_function *fn;     /* MPI_Op_create's */
	MPI_User_function_c *fn_c; /* MPI_Op_create_c's; both NULL: free */
	int commute;
	int refs, freed; /* pending nonblocking collectives; MPI_Op_free came */
};

/* A group: world ranks in group order. */
struct vpmpi_group {
	int size;
	int *world; /* world rank of each member */
};

/* A request of the layer: vp's request, and what to do when it completes
 * (unpack a derived datatype's message, free a packed copy). */
struct vpmpi_request {
	vp_request vr;
	void *tmp;  /* packed bytes (NULL: the user's buffer was used) */
	void *user; /* receive: where to unpack */
	long count; /* receive: items to unpack */
	int recv, live;
	unsigned mark; /* the stamp of the array call that saw it last */
	struct vpmpi_type *type; /* a receive's non-dense type (held) */
	/* persistent (MPI_Send_init, MPI_Recv_init): PERSIST_SEND, _SSEND or
	 * _RECV with its arguments, active between MPI_Start and its
	 * completion; 0 for the others */
	int persistent, active;
	/* a nonblocking collective (mpi_icoll.c): its messages and what
	 * completes it; ready once done, until a wait or test reports it */
	struct vpmpi_nbc *nbc;
	int ready;
	void *pbuf;
	int pcount, peer, tag;
	MPI_Datatype ptype;
	struct vpmpi_pcoll *pcoll; /* PERSIST_COLL's arguments */
	/* a request the layer completes itself (ready, nbc NULL): an
	 * MPI_Imrecv's, one MPI_Request_get_status found done, or a
	 * generalized request (greq: mpi_grequest.c) once complete; lst is
	 * the status its wait reports (an empty one for the collectives) */
	vp_status lst;
	/* a send the layer completed itself (MPI_Ibsend: its message is in
	 * the attached buffer): MPI_Cancel has nothing left to take back */
	int send_done;
	struct vpmpi_greq *greq;
	/* a partitioned request's partitions (mpi_part.c), NULL otherwise */
	struct vpmpi_partitions *part;
	/* MPI_Buffer_iflush's: 1 + the buffered sends it waits for (those
	 * sent before it); 0 for the others */
	unsigned long bflush;
	int src_off; /* a receive on an intercommunicator: vpmpi_inter_p2p */
	MPI_Comm comm;
	struct vpmpi_request *next; /* the pool's free list */
	struct vpmpi_request *block_next;
};

extern __thread struct vpmpi_rank vpmpi_me;

/* The launcher binds each rank thread to its world before calling main
 * (VP_OK, or the run fails with VP_ENOMEM), and releases what the layer
 * kept when the rank's main returned. */
int vpmpi_bind(vp_comm *world);
/* The handle tables have room for handle h: MPI_SUCCESS or MPI_ERR_NO_MEM
 * (nothing raised). */
int vpmpi_comms_room(int h);
/* The lowest handle no communicator holds (intra or inter), the tables
 * grown to hold it; -1 when memory is out (nothing raised). */
int vpmpi_comm_slot(void);
void vpmpi_unbind(void);
/* Ends the calling rank: back to where the launcher started it, which
 * returns rc (the run has failed already when rc is not 0). */
void vpmpi_leave(int rc) __attribute__((noreturn));
/* The rank's own stdout, which passes whole lines on (mpi_main.c). */
FILE *vpmpi_line_output(void);
/* The objects loaded before the program's first copy (an opaque list, or
 * NULL), and the shared libraries that copy brought that ranks would
 * share: each named on stderr, their count returned; frees the list
 * (mpi_solibs.c). */
void *vpmpi_solibs_before(void);
int vpmpi_solibs_check(void *before, int ranks);

/* ---- errors (mpi_env.c) ---- */
/* An error the layer found in a call's arguments, on communicator h: under
 * MPI_ERRORS_ARE_FATAL (the default) the run fails with "rank r: call:
 * message" and this rank goes no further; under MPI_ERRORS_RETURN the
 * class is returned and the message kept for MPI_Error_string. */
int vpmpi_err(MPI_Comm h, int mpi_class, const char *call, const char *fmt,
	      ...) __attribute__((format(printf, 4, 5)));
/* MPI_ERRORS_ABORT's action: the job ends as MPI_Abort(code) would, the
 * message naming the rank, call and msg. */
void vpmpi_errors_abort(int code, const char *call, const char *msg)
    __attribute__((noreturn));
/* The same, on MPI_COMM_WORLD's handler (calls without a communicator). */
#define vpmpi_fail(cls, call, ...) vpmpi_err(MPI_COMM_WORLD, cls, call, __VA_ARGS__)
/* An MPI error class for a vp error code. */
int vpmpi_class(int vp_code);
/* The MPI class of a failed job whose vp_run returned vp_code: the class
 * of the layer's own first fatal error when the job failed on it. */
int vpmpi_job_class(int vp_code);
/* The result of a vp call: MPI_SUCCESS, or the rank ends here (a failed
 * vp call has failed the run: a program never goes on past it). */
int vpmpi_ret(int vp_code);
/* A vp status as an MPI status (status may be MPI_STATUS_IGNORE). */
void vpmpi_status(const vp_status *in, int rc, MPI_Status *status);

/* MPI_SUCCESS between MPI_Init and MPI_Finalize, or while a session is
 * open; else the error, naming call (vpmpi_comm checks it for the calls
 * on a communicator). */
int vpmpi_not_started(const char *call);
static inline int vpmpi_started(const char *call)
{
	if (__builtin_expect(vpmpi_me.initialized && !vpmpi_me.finalized, 1))
		return MPI_SUCCESS;
	return vpmpi_not_started(call);
}
/* The MPI call the rank's next vp calls are made for (vp_call_as), so that
 * vp's reports name it; vpmpi_comm does it for calls on a communicator. */
void vpmpi_calling(const char *call);

/* A user's error handler of a kind (VPMPI_ERRH_WIN: a window's; _COMM:
 * a communicator's or a session's), its function cast to vpmpi_fn: its
 * handle, distinct from every other handler's, or MPI_ERR_ARG or
 * MPI_ERR_NO_MEM raised. */
typedef void vpmpi_fn(void);
enum { VPMPI_ERRH_COMM, VPMPI_ERRH_WIN };
int vpmpi_errhandler_new(int kind, vpmpi_fn *fn, MPI_Errhandler *errhandler,
			 const char *call);
/* Handler eh's function if it is of that kind, else NULL. */
vpmpi_fn *vpmpi_errhandler_of(MPI_Errhandler eh, int kind);
/* A user's communicator error handler: its handle, or MPI_ERR_ARG or
 * MPI_ERR_NO_MEM raised (no check that MPI has started: sessions' may
 * come before). */
int vpmpi_errhandler_add(MPI_Comm_errhandler_function *fn,
			 MPI_Errhandler *errhandler, const char *call);
/* A user's error handler's function, NULL for the predefined ones. */
MPI_Comm_errhandler_function *vpmpi_errhandler_fn(MPI_Errhandler eh);

/* ---- communicators (mpi_comm.c) ---- */
/* Handle h is c from now on (NULL: free). */
void vpmpi_comm_set(MPI_Comm h, vp_comm *c);
/* vpmpi_comm's failure: NULL after the error. */
vp_comm *vpmpi_comm_failed(MPI_Comm h, const char *call);
/* The communicator of a handle, or NULL after the error (named); vp's
 * reports of the calls made on it name call (vpmpi_calling). Inline, as
 * vpmpi_check_rank and vpmpi_check_tag: every message passes them. */
static inline vp_comm *vpmpi_comm(MPI_Comm h, const char *call)
{
	if (__builtin_expect(vpmpi_me.initialized && !vpmpi_me.finalized &&
				 h > 0 && h < vpmpi_me.ncomms &&
				 vpmpi_me.comm[h],
			     1)) {
		vp_call_as(vpmpi_me.comm[h], call);
		return vpmpi_me.comm[h];
	}
	return vpmpi_comm_failed(h, call);
}
/* A new handle for c inheriting from's error handler (MPI_COMM_NULL for
 * NULL), or -1 after the error (no memory for the table; c is freed).
 * Handles of freed communicators are reused. */
int vpmpi_comm_put(vp_comm *c, MPI_Comm from, const char *call);
/* Checks a peer rank of c (MPI_PROC_NULL, and MPI_ANY_SOURCE if
 * any_ok, pass): 0, or the error's class after raising it. */
int vpmpi_check_rank_named(MPI_Comm h, vp_comm *c, int rank, int any_ok,
			   const char *call, const char *role);
static inline int vpmpi_check_rank(MPI_Comm h, vp_comm *c, int rank,
				   int any_ok, const char *call,
				   const char *role)
{
	if (h > 0 && h < vpmpi_me.ncomms && vpmpi_me.comm[h] == c &&
	    (unsigned)rank < (unsigned)vpmpi_me.size[h])
		return MPI_SUCCESS;
	return vpmpi_check_rank_named(h, c, rank, any_ok, call, role);
}
int vpmpi_check_tag_named(MPI_Comm h, int tag, int any_ok, const char *call);
static inline int vpmpi_check_tag(MPI_Comm h, int tag, int any_ok,
				  const char *call)
{
	if (tag >= 0 && tag <= MPI_TAG_UB)
		return MPI_SUCCESS;
	return vpmpi_check_tag_named(h, tag, any_ok, call);
}

/* ---- datatypes (mpi_type.c) ---- */
/* The predefined datatypes by handle (no name: no such handle). */
extern struct vpmpi_type vpmpi_basic[VPMPI_FIRST_TYPE];

/* The datatype of handle t, committed or not, or NULL. Inline, as the
 * next two: every message looks its datatype up. */
static inline struct vpmpi_type *vpmpi_lookup(MPI_Datatype t)
{
	if (t >= 0 && t < VPMPI_FIRST_TYPE)
		return vpmpi_basic[t].name ? &vpmpi_basic[t] : NULL;
	if (t > 0 && t - VPMPI_FIRST_TYPE < vpmpi_me.ntypes)
		return vpmpi_me.types[t - VPMPI_FIRST_TYPE];
	return NULL;
}
/* vpmpi_type's failure: NULL after the error. */
const struct vpmpi_type *vpmpi_type_failed(MPI_Comm h, MPI_Datatype t,
					   const char *call);
/* The datatype of a handle, committed, or NULL after the error. */
static inline const struct vpmpi_type *vpmpi_type(MPI_Comm h, MPI_Datatype t,
						  const char *call)
{
	const struct vpmpi_type *ty = vpmpi_lookup(t);

	return ty && ty->committed ? ty : vpmpi_type_failed(h, t, call);
}
/* The same, committed or not (constructors, queries). */
const struct vpmpi_type *vpmpi_type_any(MPI_Datatype t, const char *call);
/* 1 if t's data lie at addresses (displacements from MPI_Get_address),
 * so that MPI_BOTTOM, a NULL buffer, is the buffer to give with it
 * (MPI 4.0 sec. 5.1.12); else a NULL buffer holding data is refused. */
int vpmpi_absolute(const struct vpmpi_type *t);
/* Bytes of count items of type, or -1 after the error. */
long vpmpi_bytes(MPI_Comm h, int count, MPI_Datatype type, const char *call);
/* 1 if count items of t lie in one run of bytes starting at the buffer. */
static inline int vpmpi_dense(const struct vpmpi_type *t)
{
	return t->size == 0 ||
	       (t->nblocks == 1 && t->blocks[0].off == 0 &&
		t->blocks[0].len == t->extent);
}
/* Calls fn on each block of count items of t from byte base on, in
 * typemap order (a block's off is from the buffer), until fn returns
 * non-zero, which it returns; 0 after the last block. */
typedef int vpmpi_block_fn(const struct vpmpi_block *b, void *arg);
int vpmpi_type_each(const struct vpmpi_type *t, long count, long base,
		    vpmpi_block_fn *fn, void *arg);
/* Copies count items of t between the user's layout and packed bytes
 * (unpack stops after bytes). */
/* count blocks of len bytes, stride apart at user, packed one after
 * another at packed: into packed when in, out of it otherwise (a block of
 * a basic type's size is one move, not a call). */
void vpmpi_strided(char *user, char *packed, long count, long stride,
		   long len, int in);
void vpmpi_pack(const struct vpmpi_type *t, long count, const void *buf,
		void *packed);
void vpmpi_unpack(const struct vpmpi_type *t, long count, const void *packed,
		  long bytes, void *buf);
/* The packed bytes of a message: buf itself when dense, else a packed
 * copy in *tmp (NULL after an error). For receives, the bytes to receive
 * into (*tmp to unpack from afterwards with vpmpi_recv_done). */
const void *vpmpi_send_bytes(MPI_Comm h, const void *buf, long count,
			     MPI_Datatype type, long *n, void **tmp,
			     int *failed, const char *call);
void *vpmpi_recv_bytes(MPI_Comm h, void *buf, long count, MPI_Datatype type,
		       long *n, void **tmp, int *failed, const char *call);
void vpmpi_recv_done(void *tmp, void *buf, long count,
		     const struct vpmpi_type *t, long got);
/* A pending request holds a derived type until it completes. */
/* A copy of a derived type under the layer's own handle in *out (a
 * predefined type: itself), for a request that outlives the program's
 * handle; MPI_SUCCESS or the error raised. Freed by the next call. */
int vpmpi_type_private(MPI_Datatype type, MPI_Datatype *out,
		       const char *call);
void vpmpi_type_private_free(MPI_Datatype type);
void vpmpi_type_hold(struct vpmpi_type *t);
void vpmpi_type_release(struct vpmpi_type *t);
/* The next vp collective on c carries the kind of type's elements in its
 * signature (vp_coll_types): ranks whose type signatures differ in kind
 * fail naming both, where vp moves the data as bytes. */
static inline void vpmpi_coll_elems(vp_comm *c, MPI_Datatype type)
{
	const struct vpmpi_type *t = vpmpi_lookup(type);

	vp_coll_types(c, t && t->committed ? t->kind : NULL);
}
/* The name of a basic type ("MPI_INT"), or "a derived datatype". */
const char *vpmpi_type_name(MPI_Datatype t);

/* ---- reductions (mpi_op.c) ---- */
/* 1 if vp's own collectives reduce (t, op) exactly: then *vt and *vop
 * are vp's element type and op, and *vcount is count in vp elements. */
int vpmpi_native(const struct vpmpi_type *t, MPI_Datatype type, MPI_Op op,
		 int count, vp_type *vt, vp_op *vop, size_t *vcount);
/* Checks that op may reduce type: 0, or the error's class after raising
 * it on communicator h. */
int vpmpi_check_op(MPI_Comm h, MPI_Datatype type, MPI_Op op,
		   const char *call);
/* inout = in op inout for count items of type, both packed (the order
 * matters for a non-commutative user op: in comes first). */
void vpmpi_combine(MPI_Op op, MPI_Datatype type, int count, const void *in,
		   void *inout);
int vpmpi_commutative(MPI_Op op);
/* A pending nonblocking collective keeps a user op until it completes,
 * MPI_Op_free or not (MPI 4.0 sec. 6.12); predefined ops pass. */
void vpmpi_op_hold(MPI_Op op);
void vpmpi_op_release(MPI_Op op);
const char *vpmpi_op_name(MPI_Op op);

/* ---- requests (mpi_request.c) ---- */
enum { PERSIST_SEND = 1, PERSIST_SSEND, PERSIST_RECV, PERSIST_COLL,
       PERSIST_BSEND, PERSIST_PART };
struct vpmpi_request *vpmpi_request_new(void);
/* Back to the pool unfinished (MPI_Start adopted its communication). */
void vpmpi_request_recycle(struct vpmpi_request *r);
void vpmpi_requests_free(void);
/* ---- point to point (mpi_p2p.c) ---- */
/* MPI_Send and MPI_Recv for call, count up to LONG_MAX items. */
int vpmpi_send_c(const void *buf, long count, MPI_Datatype type, int dest,
		 int tag, MPI_Comm comm, const char *call);
int vpmpi_recv_c(void *buf, long count, MPI_Datatype type, int source,
		 int tag, MPI_Comm comm, MPI_Status *status, const char *call);
/* MPI_Isend (MPI_Issend when sync), MPI_Ssend and MPI_Irecv for call,
 * any count. */
int vpmpi_isend_c(const void *buf, long count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request, int sync,
		  const char *call);
int vpmpi_ssend_c(const void *buf, long count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, const char *call);
int vpmpi_irecv_c(void *buf, long count, MPI_Datatype type, int source,
		  int tag, MPI_Comm comm, MPI_Request *request,
		  const char *call);
/* ---- buffered sends (mpi_buffer.c, mpi_p2p.c) ---- */
/* MPI_Bsend for call: MPI_SUCCESS or the error raised. */
int vpmpi_bsend_as(const void *buf, long count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, const char *call);
/* MPI_Ibsend for call, any count. */
int vpmpi_ibsend_c(const void *buf, long count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request,
		   const char *call);
/* MPI_Sendrecv for call, any counts. */
int vpmpi_sendrecv_c(const void *sendbuf, long sendcount,
		     MPI_Datatype sendtype, int dest, int sendtag,
		     void *recvbuf, long recvcount, MPI_Datatype recvtype,
		     int source, int recvtag, MPI_Comm comm,
		     MPI_Status *status, const char *call);
/* Sends n bytes (tmp: a packed copy the call takes, or NULL) as a
 * buffered send: room in the attached buffer, or MPI_ERR_BUFFER. */
int vpmpi_bsend(vp_comm *c, MPI_Comm comm, int dest, int tag,
		const void *bytes, long n, void *tmp, const char *call);
/* Waits for every buffered message (MPI_Finalize). */
int vpmpi_bsend_drain(void);
/* An MPI_Buffer_iflush request: waited for (block) or tested; ready once
 * its messages are delivered. MPI_SUCCESS or the error raised. */
int vpmpi_bflush_step(struct vpmpi_request *r, int block);
/* ---- nonblocking collectives (mpi_icoll.c) ---- */
struct vpmpi_nbc;
/* b's vp requests (*req, the count returned) and their statuses */
int vpmpi_nbc_requests(const struct vpmpi_nbc *b, vp_request **req);
vp_status *vpmpi_nbc_statuses(struct vpmpi_nbc *b);
/* Every request of b is done: check, unpack, combine, free b. */
int vpmpi_nbc_finish(struct vpmpi_nbc *b);
void vpmpi_nbc_drop(struct vpmpi_nbc *b);
/* A call another file builds (mpi_ivcoll.c): room for 2p requests; at the
 * wait done(ctx, statuses, slots, n) does its work (slot: the value given
 * to vpmpi_nbc_post for a receive, -1 for a send) and returns MPI_SUCCESS
 * or the error raised; drop(ctx) frees ctx with the call (at once when
 * there is no memory for the call: then NULL, the error raised). */
typedef int (*vpmpi_nbc_done_fn)(void *ctx, const vp_status *st,
				 const int *slot, int n);
struct vpmpi_nbc *vpmpi_nbc_hooked(int p, MPI_Comm comm, const char *call,
				   vpmpi_nbc_done_fn done,
				   void (*drop)(void *ctx), void *ctx);
/* Posts a send of bytes at send to peer (send not NULL), else a receive
 * of up to bytes into recv, tagged slot: 0 or vp's error. */
int vpmpi_nbc_post(struct vpmpi_nbc *b, vp_comm *aux, int peer, int slot,
		   const void *send, void *recv, size_t bytes);
/* The same with a tag (MPI_Isendrecv posts on the program's own
 * point-to-point space, peer and tag its own). */
int vpmpi_nbc_post_tag(struct vpmpi_nbc *b, vp_comm *c, int peer, int tag,
		       int slot, const void *send, void *recv, size_t bytes);
/* b as an MPI request in *request (rc: a posting's failure, then b is
 * freed): MPI_SUCCESS or the error. */
int vpmpi_nbc_start(struct vpmpi_nbc *b, MPI_Request *request, int rc);
/* MPI_Ireduce_scatter for call (mpi_ivcoll.c): MPI_Ireduce_scatter_block
 * in place runs as it, every count the same. */
int vpmpi_ireduce_scatter(const void *sendbuf, void *recvbuf,
			  const int recvcounts[], MPI_Datatype type, MPI_Op op,
			  MPI_Comm comm, MPI_Request *request, const char *call);
/* A request completed by the layer with status st (MPI_Imrecv): its wait
 * or test reports st at once. NULL after the error (no memory). */
struct vpmpi_request *vpmpi_request_done(const vp_status *st, MPI_Comm comm,
					 const char *call);
/* ---- generalized requests (mpi_grequest.c) ---- */
/* r's generalized request: once MPI_Grequest_complete came, its query
 * callback fills r->lst, its free callback runs and r is ready;
 * otherwise a blocking step fails (nothing else can complete it).
 * MPI_SUCCESS or the error raised. */
int vpmpi_greq_step(struct vpmpi_request *r, int block);
/* MPI_Cancel of a generalized request: its cancel callback. */
int vpmpi_greq_cancel(struct vpmpi_request *r);
/* A status as vp's (the query callback's, MPI_Status_set_*). */
void vpmpi_status_in(const MPI_Status *in, vp_status *out);
/* ---- partitioned requests (mpi_part.c) ---- */
/* MPI_Start of one: a new round (a receive posts its first message).
 * MPI_SUCCESS or the error raised. */
int vpmpi_part_start(struct vpmpi_request *r);
/* Waits for (block) or tests its messages; r->ready once the round is
 * complete. MPI_SUCCESS or the error raised. */
int vpmpi_part_step(struct vpmpi_request *r, int block);
/* Its pending vp requests (*req; the count returned, null ones among
 * them), and request j completed by the caller's vp_waitany with st. */
int vpmpi_part_requests(struct vpmpi_request *r, vp_request **req);
void vpmpi_part_took(struct vpmpi_request *r, int j, const vp_status *st);
/* MPI_Request_free of an inactive one, the end of the rank: its
 * partitions freed. */
void vpmpi_part_free(struct vpmpi_request *r);
/* ---- persistent collectives (mpi_persistent_coll.c) ---- */
/* MPI_Start of a PERSIST_COLL request: its nonblocking collective
 * started and adopted; MPI_SUCCESS or the error raised. */
int vpmpi_pcoll_start(struct vpmpi_request *r);
/* MPI_Request_free of an inactive one: its arguments freed. */
void vpmpi_pcoll_free(struct vpmpi_request *r);
/* Waits for the requests MPI_Request_free let go while active
 * (MPI_Finalize): MPI_SUCCESS or the error. */
int vpmpi_requests_drain(void);

/* The int forms of an _init_c call's arrays (one allocation, mem): the
 * persistent collective request keeps them and frees them with itself. */
void vpmpi_pcoll_keep(MPI_Request request, void *mem);
/* ---- the large-count collectives (mpi_coll_c.c, mpi_vcoll_c.c) ---- */
/* MPI_SUCCESS when n items fit vp's collectives (0 to INT_MAX), else
 * MPI_ERR_COUNT raised on h, naming call and the argument what. */
int vpmpi_c_fits(MPI_Comm h, const char *what, MPI_Count n, const char *call);
/* Starts call: until vpmpi_c_end(rc) (which returns rc) the errors raised
 * name it; then count a (what) and b (what2) must fit, each skipped where
 * its name is NULL. MPI_SUCCESS or the error raised. */
int vpmpi_c_begin(MPI_Comm h, const char *call, const char *what,
		  MPI_Count a, const char *what2, MPI_Count b);
int vpmpi_c_end(int rc);
/* 1 if this rank is a rooted collective's root on h (MPI_ROOT on an
 * intercommunicator); 0 otherwise, and where h or root is wrong. */
int vpmpi_c_is_root(MPI_Comm h, int root);

/* ---- attributes (mpi_attr.c) ---- */
/* MPI_Comm_dup: from's attributes through their copy callbacks to to;
 * MPI_Comm_free, MPI_Finalize: comm's deleted through their delete
 * callbacks. MPI_SUCCESS or the error raised. */
int vpmpi_attrs_copy(MPI_Comm from, MPI_Comm to);
int vpmpi_attrs_drop(MPI_Comm comm);
void vpmpi_attrs_free(void);
void vpmpi_errhandlers_free(void);
/* The rank's sessions' table, when its main returned (mpi_session.c). */
void vpmpi_sessions_free(void);
/* windows the program did not free (mpi_win.c) */
void vpmpi_wins_free(void);

/* ---- the attribute store (mpi_attr_store.c; MPI 4.0, sec. 7.7): the
 * keyvals and attributes of communicators, windows and datatypes ---- */
enum { VPMPI_ATTR_COMM = 1, VPMPI_ATTR_WIN, VPMPI_ATTR_TYPE };
/* the callbacks of every kind (the handles are ints) */
typedef int vpmpi_copy_attr_fn(int obj, int keyval, void *extra, void *in,
			       void *out, int *flag);
typedef int vpmpi_delete_attr_fn(int obj, int keyval, void *value,
				 void *extra);
/* Each returns MPI_SUCCESS or the error raised, naming call; the object
 * is checked by the caller. */
int vpmpi_keyval_create(int kind, vpmpi_copy_attr_fn *copy,
			vpmpi_delete_attr_fn *del, int *keyval, void *extra,
			const char *call);
int vpmpi_keyval_free(int kind, int *keyval, const char *call);
int vpmpi_attr_set(int kind, int obj, int keyval, void *value,
		   const char *call);
int vpmpi_attr_get(int kind, int obj, int keyval, void *value, int *flag,
		   const char *call);
int vpmpi_attr_delete(int kind, int obj, int keyval, const char *call);
/* from's attributes through their copy callbacks to to (a duplicate) */
int vpmpi_attr_copy_all(int kind, int from, int to, const char *call);
/* obj's attributes through their delete callbacks, last set first */
int vpmpi_attr_drop_all(int kind, int obj, const char *call);
/* obj's attributes gone without their callbacks (an object that failed
 * to be made) */
void vpmpi_attr_forget(int kind, int obj);
void vpmpi_attr_store_free(void);
/* A kind's predefined attributes: 1 when keyval is one of them (*flag
 * says whether obj carries it, *value is its value then), else 0; the
 * store refuses to set or delete them (mpi_attr.c, mpi_win_attr.c). */
int vpmpi_comm_attr_predef(int comm, int keyval, void **value, int *flag);
int vpmpi_win_attr_predef(int win, int keyval, void **value, int *flag);

/* ---- error classes and codes the program adds (mpi_error_class.c) ---- */
/* MPI_LASTUSEDCODE's value */
const int *vpmpi_last_used_code(void);
/* The class of a code the program added (*cls), and its string (NULL:
 * none set): 1, or 0 when code is not one the program added. */
int vpmpi_error_added(int code, int *cls, const char **string);
void vpmpi_error_classes_free(void);

/* ---- what a rank's layer keeps, released when its main returns ---- */
void vpmpi_types_free(void);
void vpmpi_messages_free(void); /* matched, never received */
void vpmpi_ops_free(void);
void vpmpi_groups_free(void);

/* ---- groups (mpi_group.c) ---- */
int vpmpi_group_put(int size, int *world, MPI_Group *out, const char *call);
/* The world ranks of group's members, *size of them (NULL after the
 * error: not a group). */
const int *vpmpi_group_world(MPI_Group group, int *size, const char *call);

/* ---- sessions (mpi_session.c) ---- */
/* The tag of a string tag (MPI_Comm_create_from_group and
 * MPI_Intercomm_create_from_groups): a hash in [0, MPI_TAG_UB]. */
int vpmpi_string_tag(const char *s);

/* ---- graph topologies (mpi_graph.c) ---- */
void vpmpi_graph_free(int h);
int vpmpi_graph_copy(MPI_Comm from, MPI_Comm to);
/* MPI_GRAPH, MPI_DIST_GRAPH or MPI_UNDEFINED (MPI_Topo_test) */
int vpmpi_graph_kind(MPI_Comm h);
/* Who a rank exchanges with in a neighbourhood collective: nin sources
 * (slot order), nout destinations, and the tag of each block (the slot
 * it fills at its receiver); MPI_PROC_NULL where a grid has no
 * neighbour. */
struct vpmpi_hood {
	int nin, nout;
	int *in, *out, *in_tag, *out_tag; /* one allocation: in */
};
/* comm's neighbourhood (its grid or graph) in *h; free(h->in) after. */
int vpmpi_hood_of(MPI_Comm comm, vp_comm *c, struct vpmpi_hood *h,
		  const char *call);

/* ---- Cartesian topologies (mpi_cart.c) ---- */
void vpmpi_cart_free(int h);
/* The new communicator to gets from's topology (MPI_Comm_dup). */
int vpmpi_cart_copy(MPI_Comm from, MPI_Comm to);

/* ---- info objects, names, window attributes (mpi_info.c, mpi_name.c,
 * mpi_win_attr.c): what a rank kept, released when its main returns ---- */
void vpmpi_infos_free(void);
/* MPI_INFO_ENV's info object, made at the first call (mpi_info_env.c) */
MPI_Info vpmpi_info_env(void);
void vpmpi_info_env_forget(void);
void vpmpi_names_free(void);
void vpmpi_win_attrs_free(void);
/* MPI_Win_free: the window's attributes, deleted through their delete
 * callbacks, and its name; MPI_SUCCESS or the error raised. */
int vpmpi_win_attrs_drop(MPI_Win win);
void vpmpi_name_drop(int kind, int handle);
enum { VPMPI_NAME_COMM = 1, VPMPI_NAME_TYPE, VPMPI_NAME_WIN };
/* A live window's base, size, disp_unit and flavor (mpi_win.c): 0, or -1
 * when win is not a live window of the rank. */
int vpmpi_win_query(MPI_Win win, void **base, MPI_Aint *size,
		    int *disp_unit, int *flavor);
/* A live window's vp window, communicator and every rank's disp_unit
 * (mpi_win.c, for mpi_win_lock.c and mpi_win_atomic.c); NULL after
 * raising MPI_ERR_WIN. */
vp_win *vpmpi_win_parts(MPI_Win win, const char *call, MPI_Comm *comm,
			const int **disp_unit);
/* MPI_Accumulate through the atomics' path (mpi_win_atomic.c): for
 * MPI_REPLACE, MPI_NO_OP and the (datatype, op) pairs vp's reductions
 * lack, which vpmpi_accumulate_native tells apart. */
int vpmpi_accumulate_atomic(const void *origin_addr, int origin_count,
			    MPI_Datatype origin_type, int target_rank,
			    MPI_Aint target_disp, int target_count,
			    MPI_Datatype target_type, MPI_Op op, MPI_Win win);
int vpmpi_accumulate_native(MPI_Datatype type, int count, MPI_Op op);
/* The datatype constructors record their combiner and argument counts
 * (MPI_Type_get_envelope): rc, unchanged. */
int vpmpi_type_made(int rc, const MPI_Datatype *newtype, int combiner,
		    int ni, int na, int nt);
/* ... and then their arguments (MPI_Type_get_contents,
 * mpi_type_contents.c): the integers are head[0..nhead), then a[0..n) and
 * b[0..n) where given, up to the count vpmpi_type_made recorded; the
 * addresses and datatypes as many as it recorded. rc, unchanged, or the
 * error without memory. */
int vpmpi_type_args(int rc, const MPI_Datatype *newtype, const int *head,
		    int nhead, const int *a, const int *b, int n,
		    const MPI_Aint *addrs, const MPI_Datatype *types);
/* The same, the integers being nsegs arrays of lens[] integers one after
 * the other, and the one datatype old. */
int vpmpi_type_args_ints(int rc, const MPI_Datatype *newtype,
			 MPI_Datatype old, const int *const segs[],
			 const int lens[], int nsegs);
/* The basic elements (MPI_Get_elements) in bytes of items of t: whole
 * items, then the elements wholly there of a partial one; -1 when the
 * bytes end inside an element. */
long long vpmpi_elements(const struct vpmpi_type *t, size_t bytes);
/* The bytes of count basic elements of items of t (its inverse). */
size_t vpmpi_elements_bytes(const struct vpmpi_type *t, long long count);
/* Whether elements of esz bytes of predefined type bt may extend block b
 * (mpi_pack_external.c): the same type, or both types of the same size
 * whose external32 form is their bytes in big-endian order. */
int vpmpi_block_joins(const struct vpmpi_block *b, long esz,
		      MPI_Datatype bt);
/* A new datatype of count blocks of old: block i of bl[i] items (bl_all
 * where bl is NULL) at byte displacement disp[i] (i * stride where disp
 * is NULL); MPI_SUCCESS or the error. */
int vpmpi_type_blocks(int count, const long *bl, long bl_all,
		      const MPI_Aint *disp, MPI_Aint stride, MPI_Datatype old,
		      MPI_Datatype *out, const char *call);
/* A new derived type under construction (no blocks, no bounds yet). */
struct vpmpi_type *vpmpi_type_new(void);
/* Merges the bounds, size and elements of one item of old at byte disp
 * into t (*first: t has none yet). */
void vpmpi_type_bounds(struct vpmpi_type *t, const struct vpmpi_type *old,
		       long disp, int *first);
/* The basic elements in one item of t. */
long long vpmpi_type_nbasic(const struct vpmpi_type *t);
/* How many blocks n items of old flatten into (LONG_MAX: too many to
 * count, or a tree). */
long vpmpi_type_pieces(const struct vpmpi_type *old, long n);
/* A tree type (mpi_type_tree.c): count repetitions stride bytes apart of
 * nparts parts, part i n[i] items of types[i] at disp[i] (MPI_LB and
 * MPI_UB entries skipped), its bounds, size and elements set; NULL
 * without memory. */
struct vpmpi_type *vpmpi_tree_build(long count, long stride, int nparts,
				    const long *n, const MPI_Aint *disp,
				    const MPI_Datatype *types);
void vpmpi_tree_free(struct vpmpi_tree *tr);
/* Copies count items of t, at most rest bytes, between user's layout and
 * packed (into packed when in); the bytes moved. */
long vpmpi_tree_copy(const struct vpmpi_type *t, long count, char *user,
		     char *packed, long rest, int in);
/* Drops t's arguments (releasing the datatypes among them). */
void vpmpi_type_args_free(struct vpmpi_type *t);
/* Gives new type t a handle in *out: MPI_SUCCESS, or the error (t is
 * then destroyed). */
int vpmpi_type_put(struct vpmpi_type *t, MPI_Datatype *out,
		   const char *call);

/* ---- subarrays and distributed arrays (mpi_type_subarray.c,
 * mpi_type_darray.c) ---- */
/* nruns runs of cur (run j: len[j] items from item start[j], items
 * unit bytes apart) resized to gsize items: one dimension of an array
 * type, in *out; MPI_SUCCESS or the error raised. */
int vpmpi_type_runs(MPI_Datatype cur, MPI_Aint unit, int nruns,
		    const int *start, const int *len, int gsize,
		    MPI_Datatype *out);

/* ---- intercommunicators (mpi_intercomm.c): handles of the same table
 * as the intracommunicators', none below VPMPI_FIRST_INTER ---- */
#define VPMPI_FIRST_INTER (MPI_COMM_SELF + 1)
static inline int vpmpi_is_inter(MPI_Comm h)
{
	return h >= VPMPI_FIRST_INTER && h < vpmpi_me.ncomms &&
	       vpmpi_me.inter[h];
}
/* its local group's size and this rank's rank in it (either may be NULL) */
int vpmpi_inter_size(MPI_Comm h, int *size, int *rank);
int vpmpi_inter_free(MPI_Comm *comm);
/* MPI_Comm_compare where a or b is an intercommunicator. */
int vpmpi_inter_compare(MPI_Comm a, MPI_Comm b, int *result);
int vpmpi_inter_dup(MPI_Comm comm, MPI_Comm *newcomm); /* MPI_Comm_dup */
/* MPI_Comm_split of an intercommunicator; MPI_Comm_create's too (color 0
 * for the group's members, key their rank in it) */
int vpmpi_inter_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm,
		      const char *call);
int vpmpi_inter_group(MPI_Comm comm, MPI_Group *group); /* the local one */
void vpmpi_inters_free(void);
/* Intercommunicator h's hidden union of both groups (*uni), the remote
 * group's size and where it starts in the union (remote rank r is the
 * union's rank r + *off): 0, or -1 when h is not an intercommunicator. */
int vpmpi_inter_union(MPI_Comm h, MPI_Comm *uni, int *rsize, int *off);
/* ---- point to point on an intercommunicator (mpi_intercomm_p2p.c) ---- */
/* For a call on intercommunicator *comm naming remote rank *peer: *comm
 * becomes the union, *peer its rank there (MPI_PROC_NULL and
 * MPI_ANY_SOURCE stay), *off the remote group's offset, to subtract from
 * a received source. MPI_SUCCESS or the error raised (a rank outside the
 * remote group). */
int vpmpi_inter_p2p(MPI_Comm *comm, int *peer, int any_ok, int *off,
		    const char *call, const char *role);
/* The handle whose error handler is h's: an intercommunicator's is its
 * union's (MPI_Comm_set_errhandler, errors raised on it); h otherwise. */
MPI_Comm vpmpi_errh_handle(MPI_Comm h);
/* The union's duplicate for collectives (made at the first call, which
 * every member of both groups makes), the remote group's size and
 * offset in it, the local group's size and this rank's rank in it. */
int vpmpi_inter_coll(MPI_Comm h, MPI_Comm *coll, int *rsize, int *off,
		     int *lsize, int *lrank);
/* ---- collectives on an intercommunicator (mpi_intercomm_coll.c) ---- */
int vpmpi_ic_barrier(MPI_Comm comm);
int vpmpi_ic_bcast(void *buf, int count, MPI_Datatype type, int root,
		   MPI_Comm comm);
/* gather 1: MPI_Gather(v), 0: MPI_Scatter(v); count and displacement
 * arrays NULL for the fixed-size forms */
int vpmpi_ic_rooted(int gather, const void *sendbuf, const int *scounts,
		    const int *sdispls, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int *rcounts, const int *rdispls,
		    int recvcount, MPI_Datatype recvtype, int root,
		    MPI_Comm comm, const char *call);
/* MPI_Allgather(v) (alltoall 0) and MPI_Alltoall(v, w) (alltoall 1; w:
 * types per peer, byte displacements) */
int vpmpi_ic_all(const void *sendbuf, const int *scounts, const int *sdispls,
		 const MPI_Datatype *stypes, int sendcount,
		 MPI_Datatype sendtype, void *recvbuf, const int *rcounts,
		 const int *rdispls, const MPI_Datatype *rtypes,
		 int recvcount, MPI_Datatype recvtype, int alltoall,
		 MPI_Comm comm, const char *call);
int vpmpi_ic_reduce(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int vpmpi_ic_allreduce(const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		       const char *call);
/* MPI_Reduce_scatter (recvcounts) and MPI_Reduce_scatter_block
 * (recvcounts NULL, every block count items) */
int vpmpi_ic_reduce_scatter(const void *sendbuf, void *recvbuf,
			    const int *recvcounts, int count,
			    MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			    const char *call);
/* A nonblocking collective on an intercommunicator, run as the blocking
 * one (rc its result): a completed request in *request. */
int vpmpi_ic_done(int rc, MPI_Request *request);
#define VPMPI_IS_INTER(h) vpmpi_is_inter(h)
/* A received source in the union as a remote rank. */
static inline void vpmpi_inter_source(int off, vp_status *st)
{
	if (off && st->source >= 0)
		st->source -= off;
}

#endif /* VP_MPI_LAYER_H */
