/*
 * mpi.h - MPI programs on vp: ranks are threads of one process.
 *
 * Compile with vpmpicc (it puts this header first, renames the program's
 * main and builds the program as a shared object that the launcher loads
 * once per rank, so each rank has its own global variables) and run with
 * vpmpirun -np N. The layer covers the calls that small MPI programs use
 * (the table in docs/mpi.md, "What is supported"): the environment,
 * communicators, groups and Cartesian topologies, point to point with
 * tags, wildcards, statuses and requests (persistent ones too), probe,
 * attributes, basic and derived
 * datatypes, every collective with its v-variant, the predefined and
 * user-defined reduction ops, one-sided windows with fences, and error
 * handlers. Anything else is not
 * declared: a program using it fails to compile or link, never runs
 * wrong.
 *
 * Handles are small integers (communicators, datatypes, ops) or vp's own
 * request pointers, so the constants are compile-time constants as in
 * MPICH.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_MPI_H
#define VP_MPI_H

#include <stddef.h>
#include <stdio.h>

#include "../vp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 4
#define MPI_SUBVERSION 0

/* error classes (MPI standard, sec. 9.4) */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_OP 10
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_GROUP 9
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_NO_MEM 34
#define MPI_ERR_WIN 45
#define MPI_ERR_SESSION 59
#define MPI_ERR_LASTCODE 64

/* addresses and byte displacements */
typedef long MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
#define MPI_BOTTOM ((void *)0)

typedef int MPI_Comm;
#define MPI_COMM_NULL 0
#define MPI_COMM_WORLD 1
#define MPI_COMM_SELF 2

typedef int MPI_Datatype;
#define MPI_DATATYPE_NULL 0
#define MPI_CHAR 1
#define MPI_SIGNED_CHAR 2
#define MPI_UNSIGNED_CHAR 3
#define MPI_BYTE 4
#define MPI_SHORT 5
#define MPI_UNSIGNED_SHORT 6
#define MPI_INT 7
#define MPI_UNSIGNED 8
#define MPI_LONG 9
#define MPI_UNSIGNED_LONG 10
#define MPI_LONG_LONG_INT 11
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG 12
#define MPI_FLOAT 13
#define MPI_DOUBLE 14
#define MPI_LONG_DOUBLE 15
#define MPI_INT8_T 16
#define MPI_INT16_T 17
#define MPI_INT32_T 18
#define MPI_INT64_T 19
#define MPI_UINT8_T 20
#define MPI_UINT16_T 21
#define MPI_UINT32_T 22
#define MPI_UINT64_T 23
#define MPI_C_BOOL 24
#define MPI_PACKED 25
#define MPI_WCHAR 26
/* the pair types of MPI_MAXLOC and MPI_MINLOC (a value, then an int) */
#define MPI_FLOAT_INT 27
#define MPI_DOUBLE_INT 28
#define MPI_LONG_INT 29
#define MPI_2INT 30
#define MPI_SHORT_INT 31
#define MPI_LONG_DOUBLE_INT 32
#define MPI_AINT 33
#define MPI_OFFSET 34
#define MPI_COUNT 35
#define MPI_UNSIGNED_LONG_LONG_INT MPI_UNSIGNED_LONG_LONG
/* complex, C++ and Fortran types, named in C (MPI 4.0, sec. 3.2.2 and
 * 19.1.17): a Fortran type is the C type of its size (MPI_INTEGER an int,
 * MPI_REAL a float, MPI_LOGICAL an int, MPI_COMPLEX a float _Complex);
 * MPI_2REAL and the like are two of them. MPI_INTEGER16 is a 16-byte
 * integer (__int128); MPI_REAL16 and MPI_COMPLEX32 are optional and absent
 * (MPI_DATATYPE_NULL). */
#define MPI_C_FLOAT_COMPLEX 36
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX 37
#define MPI_C_LONG_DOUBLE_COMPLEX 38
#define MPI_CXX_BOOL 39
#define MPI_CXX_FLOAT_COMPLEX 40
#define MPI_CXX_DOUBLE_COMPLEX 41
#define MPI_CXX_LONG_DOUBLE_COMPLEX 42
#define MPI_INTEGER 43
#define MPI_REAL 44
#define MPI_DOUBLE_PRECISION 45
#define MPI_COMPLEX 46
#define MPI_DOUBLE_COMPLEX 47
#define MPI_LOGICAL 48
#define MPI_CHARACTER 49
#define MPI_INTEGER1 50
#define MPI_INTEGER2 51
#define MPI_INTEGER4 52
#define MPI_INTEGER8 53
#define MPI_REAL4 54
#define MPI_REAL8 55
#define MPI_COMPLEX8 56
#define MPI_COMPLEX16 57
#define MPI_2INTEGER 58
#define MPI_2REAL 59
#define MPI_2DOUBLE_PRECISION 60
#define MPI_REAL16 MPI_DATATYPE_NULL
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
/* MPI-1's bound markers (removed by MPI 3.0, kept as MPICH keeps them): in
 * MPI_Type_struct an entry of MPI_LB or MPI_UB sets the new type's lower
 * or upper bound at its displacement */
#define MPI_LB 61
#define MPI_UB 62
#define MPI_INTEGER16 63
/* derived datatypes are numbered from 64 on, per rank */

typedef int MPI_Op;
#define MPI_OP_NULL 0
#define MPI_MAX 1
#define MPI_MIN 2
#define MPI_SUM 3
#define MPI_PROD 4
#define MPI_LAND 5
#define MPI_BAND 6
#define MPI_LOR 7
#define MPI_BOR 8
#define MPI_LXOR 9
#define MPI_BXOR 10
#define MPI_MAXLOC 11
#define MPI_MINLOC 12
#define MPI_REPLACE 13
#define MPI_NO_OP 14 /* one-sided accumulates only (mpi_win_atomic.c) */
/* MPI_Op_create's ops are numbered from 32 on, per rank */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
			       MPI_Datatype *datatype);

typedef int MPI_Group;
#define MPI_GROUP_NULL 0
#define MPI_GROUP_EMPTY 1

/* error handlers: errors are fatal (the default), or returned (an error
 * the MPI layer finds in the arguments of a call is returned as its
 * class and the program goes on; an error vp finds while communicating,
 * such as a truncation or a deadlock, still fails the job), or end the
 * job as MPI_Abort with the error's class (MPI_ERRORS_ABORT, MPI 4.0
 * sec. 9.3) */
typedef int MPI_Errhandler;
#define MPI_ERRHANDLER_NULL 0
#define MPI_ERRORS_ARE_FATAL 1
#define MPI_ERRORS_RETURN 2
#define MPI_ERRORS_ABORT 3
/* a user's handler (MPI_Comm_create_errhandler): called with the
 * communicator and the error code, then the call returns the code */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *errorcode,
					  ...);
typedef MPI_Comm_errhandler_function MPI_Handler_function;

typedef struct vpmpi_request *MPI_Request;
#define MPI_REQUEST_NULL ((MPI_Request)0)

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	size_t vpmpi_bytes; /* the message's length (MPI_Get_count) */
	int vpmpi_cancelled; /* MPI_Test_cancelled */
} MPI_Status;
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

#define MPI_ANY_SOURCE VP_ANY_SOURCE
#define MPI_ANY_TAG VP_ANY_TAG
#define MPI_PROC_NULL VP_PROC_NULL
#define MPI_UNDEFINED (-32766)
#define MPI_IN_PLACE VP_IN_PLACE
#define MPI_TAG_UB VP_TAG_MAX
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_OBJECT_NAME 64
#define MPI_KEYVAL_INVALID (-1)

/* attributes: the predefined keys (on MPI_COMM_WORLD; MPI_TAG_UB is also
 * the largest tag itself) and the callbacks of MPI_Comm_create_keyval */
#define MPI_HOST 1
#define MPI_IO 2
#define MPI_WTIME_IS_GLOBAL 3
#define MPI_UNIVERSE_SIZE 4
#define MPI_APPNUM 5
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval,
					void *extra_state,
					void *attribute_val_in,
					void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval,
					  void *attribute_val,
					  void *extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void *extra, void *in,
			  void *out, int *flag);
int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra, void *in,
		    void *out, int *flag);
int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *value, void *extra);
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_DUP_FN MPI_COMM_DUP_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN

/* hints (MPI_Dist_graph_create_adjacent takes them; none is read) */
typedef int MPI_Info;
#define MPI_INFO_NULL 0
/* distributed graphs without weights */
extern int vpmpi_unweighted_, vpmpi_weights_empty_;
#define MPI_UNWEIGHTED (&vpmpi_unweighted_)
#define MPI_WEIGHTS_EMPTY (&vpmpi_weights_empty_)

/* one-sided windows with fences (mpi_win.c) */
typedef int MPI_Win;
#define MPI_WIN_NULL 0
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

/* topologies (MPI_Topo_test) */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* comparison results (MPI_Comm_compare) */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Initialized(int *flag);
int MPI_Finalize(void);
int MPI_Finalized(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void);
double MPI_Wtick(void);
/* the profiling interface's control (MPI 4.0 sec. 15.2.4): no profiling
 * library is attached, so it does nothing, which the standard allows */
int MPI_Pcontrol(const int level, ...);
/* MPI_COMM_NULL: no vp rank is spawned (MPI 4.0 sec. 11.8.2) */
int MPI_Comm_get_parent(MPI_Comm *parent);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);

int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_disconnect(MPI_Comm *comm);
int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result);

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Errhandler_free(MPI_Errhandler *errhandler);
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
			       MPI_Errhandler *errhandler);
int MPI_Errhandler_create(MPI_Handler_function *fn,
			  MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);

/* sessions (MPI 4.0 sec. 11.3): the process sets mpi://WORLD and
 * mpi://SELF */
typedef int MPI_Session;
#define MPI_SESSION_NULL 0
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
typedef void MPI_Session_errhandler_function(MPI_Session *session,
					     int *errorcode, ...);
int MPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
				  MPI_Errhandler *errhandler);
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
		     MPI_Session *session);
int MPI_Session_finalize(MPI_Session *session);
int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
int MPI_Session_get_errhandler(MPI_Session session,
			       MPI_Errhandler *errhandler);
int MPI_Session_call_errhandler(MPI_Session session, int errorcode);
int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
			      int *npset_names);
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n,
			     int *pset_len, char *pset_name);
int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
			      MPI_Info *info);
int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
				MPI_Group *newgroup);
int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag,
			       MPI_Info info, MPI_Errhandler errhandler,
			       MPI_Comm *newcomm);
int MPI_Topo_test(MPI_Comm comm, int *status);
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
			   MPI_Comm_delete_attr_function *delete_fn,
			   int *keyval, void *extra_state);
int MPI_Comm_free_keyval(int *keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val,
		      int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval);
int MPI_Keyval_create(MPI_Copy_function *copy_fn,
		      MPI_Delete_function *delete_fn, int *keyval,
		      void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup);
int MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[],
			      MPI_Group b, int ranks_b[]);
int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result);
int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_free(MPI_Group *group);

int MPI_Type_size(MPI_Datatype type, int *size);
int MPI_Type_contiguous(int count, MPI_Datatype oldtype,
			MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride,
		    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
			    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
		     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int blocklengths[],
		     const int displacements[], MPI_Datatype oldtype,
		     MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int blocklengths[],
			     const MPI_Aint displacements[],
			     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength,
				  const int displacements[],
				  MPI_Datatype oldtype,
				  MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int blocklengths[],
			   const MPI_Aint displacements[],
			   const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[],
		    MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
			    MPI_Aint extent, MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *true_lb,
			     MPI_Aint *true_extent);
int MPI_Type_extent(MPI_Datatype type, MPI_Aint *extent);
int MPI_Get_address(const void *location, MPI_Aint *address);
int MPI_Address(void *location, MPI_Aint *address);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint a, MPI_Aint b);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf,
	     int outsize, int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
	       int outcount, MPI_Datatype type, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size);
/* the "external32" representation (mpi_pack_external.c; MPI 4.0, sec.
 * 5.2.3): big-endian, each basic type at its external size */
int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
		      MPI_Datatype type, void *outbuf, MPI_Aint outsize,
		      MPI_Aint *position);
int MPI_Unpack_external(const char datarep[], const void *inbuf,
			MPI_Aint insize, MPI_Aint *position, void *outbuf,
			int outcount, MPI_Datatype type);
int MPI_Pack_external_size(const char datarep[], int incount,
			   MPI_Datatype type, MPI_Aint *size);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type,
		     int *count);

int MPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
		     MPI_Datatype type, MPI_Op op);

int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *newcomm);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source,
		   int *dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[],
		     const int edges[], int reorder, MPI_Comm *newcomm);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
		  int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
			int neighbors[]);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
				   const int sources[],
				   const int sourceweights[], int outdegree,
				   const int destinations[],
				   const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *newcomm);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
				   int *outdegree, int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			     int sourceweights[], int maxoutdegree,
			     int destinations[], int destweights[]);
/* nonblocking collectives: the direct algorithms, every message posted at
 * the call (docs/mpi.md, "What is supported") */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
	       MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		MPI_Request *request);
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		   MPI_Request *request);
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype type, MPI_Op op, MPI_Comm comm,
	      MPI_Request *request);
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		MPI_Request *request);
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
			      int recvcount, MPI_Datatype type, MPI_Op op,
			      MPI_Comm comm, MPI_Request *request);
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Request *request);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm, MPI_Request *request);
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm);
int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
			   const MPI_Aint sdispls[],
			   const MPI_Datatype sendtypes[], void *recvbuf,
			   const int recvcounts[], const MPI_Aint rdispls[],
			   const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
		 int coords[]);

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	     MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
	     MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		 MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
	      MPI_Comm comm, MPI_Request *request);
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source,
		  int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request requests[]);
int MPI_Request_free(MPI_Request *request);
int MPI_Cancel(MPI_Request *request);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);

/* ---- partitioned point to point (mpi_part.c; MPI 4.0, chapter 4):
 * persistent requests of partitions, started by MPI_Start ---- */
int MPI_Psend_init(const void *buf, int partitions, MPI_Count count,
		   MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		   MPI_Info info, MPI_Request *request);
int MPI_Precv_init(void *buf, int partitions, MPI_Count count,
		   MPI_Datatype type, int source, int tag, MPI_Comm comm,
		   MPI_Info info, MPI_Request *request);
int MPI_Pready(int partition, MPI_Request request);
int MPI_Pready_range(int partition_low, int partition_high,
		     MPI_Request request);
int MPI_Pready_list(int length, int array_of_partitions[],
		    MPI_Request request);
int MPI_Parrived(MPI_Request request, int partition, int *flag);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request requests[], int *index,
		MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[]);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Testall(int count, MPI_Request requests[], int *flag,
		MPI_Status statuses[]);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);

int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
	      MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
	     MPI_Op op, MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype type, MPI_Op op,
		       MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
			     int recvcount, MPI_Datatype type, MPI_Op op,
			     MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int rdispls[],
		  MPI_Datatype recvtype, MPI_Comm comm);

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
		     MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_fence(int assert, MPI_Win win);
int MPI_Win_free(MPI_Win *win);
int MPI_Put(const void *origin_addr, int origin_count,
	    MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	    int target_count, MPI_Datatype target_type, MPI_Win win);
int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_type,
	    int target_rank, MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_type, MPI_Win win);
int MPI_Accumulate(const void *origin_addr, int origin_count,
		   MPI_Datatype origin_type, int target_rank,
		   MPI_Aint target_disp, int target_count,
		   MPI_Datatype target_type, MPI_Op op, MPI_Win win);

/* ---- passive target and atomics (mpi_win_lock.c, mpi_win_atomic.c;
 * MPI 4.0, sec. 12.5.3, 12.5.4, 12.3.4, 12.3.5) ---- */
#define MPI_ERR_RMA_CONFLICT 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_lock_all(int assert, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_sync(MPI_Win win);
int MPI_Get_accumulate(const void *origin_addr, int origin_count,
		       MPI_Datatype origin_type, void *result_addr,
		       int result_count, MPI_Datatype result_type,
		       int target_rank, MPI_Aint target_disp, int target_count,
		       MPI_Datatype target_type, MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr,
		     MPI_Datatype type, int target_rank, MPI_Aint target_disp,
		     MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
			 void *result_addr, MPI_Datatype type, int target_rank,
			 MPI_Aint target_disp, MPI_Win win);
int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
			MPI_Datatype origin_type, void *result_addr,
			int result_count, MPI_Datatype result_type,
			int target_rank, MPI_Aint target_disp,
			int target_count, MPI_Datatype target_type, MPI_Op op,
			MPI_Win win, MPI_Request *request);

/* ---- info objects (mpi_info.c; MPI 4.0, sec. 10) ---- */
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_ERR_INFO 28
#define MPI_ERR_INFO_KEY 29
#define MPI_ERR_INFO_VALUE 30
#define MPI_ERR_INFO_NOKEY 31
#define MPI_ERR_KEYVAL 48
#define MPI_INFO_ENV (-2) /* the environment's, predefined, read-only */
int MPI_Info_create(MPI_Info *info);
int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
int MPI_Info_free(MPI_Info *info);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
		 int *flag);
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen,
			char *value, int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
			  int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);

/* ---- memory (mpi_mem.c; MPI 4.0, sec. 8.2) ---- */
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);

/* ---- object names (mpi_name.c; MPI 4.0, sec. 7.10) ---- */
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);
int MPI_Type_set_name(MPI_Datatype type, const char *name);
int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen);
int MPI_Win_set_name(MPI_Win win, const char *name);
int MPI_Win_get_name(MPI_Win win, char *name, int *resultlen);

/* ---- intercommunicators (mpi_intercomm.c; MPI 4.0, sec. 7.6): made,
 * queried (size, rank, remote size and group), merged, duplicated, split
 * and freed; point to point and collectives on them: mpi_intercomm_p2p.c,
 * mpi_intercomm_coll.c ---- */
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag,
			 MPI_Comm *newintercomm);
int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
				     MPI_Group remote_group, int remote_leader,
				     const char *stringtag, MPI_Info info,
				     MPI_Errhandler errhandler,
				     MPI_Comm *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high,
			MPI_Comm *newintracomm);

/* ---- window attributes (mpi_win_attr.c; MPI 4.0, sec. 7.7.3 and
 * 12.2.6: MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT and the others
 * predefined) ---- */
#define MPI_WIN_BASE 101
#define MPI_WIN_SIZE 102
#define MPI_WIN_DISP_UNIT 103
#define MPI_WIN_CREATE_FLAVOR 104
#define MPI_WIN_MODEL 105
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int keyval,
				       void *extra_state,
				       void *attribute_val_in,
				       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int keyval,
					 void *attribute_val,
					 void *extra_state);
int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int keyval, void *extra, void *in,
			 void *out, int *flag);
int MPI_WIN_DUP_FN(MPI_Win oldwin, int keyval, void *extra, void *in,
		   void *out, int *flag);
int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int keyval, void *value,
			   void *extra);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
			  MPI_Win_delete_attr_function *delete_fn,
			  int *keyval, void *extra_state);
int MPI_Win_free_keyval(int *keyval);
int MPI_Win_set_attr(MPI_Win win, int keyval, void *attribute_val);
int MPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val,
		     int *flag);
int MPI_Win_delete_attr(MPI_Win win, int keyval);

/* ---- datatype envelopes (mpi_type_envelope.c; MPI 4.0, sec. 5.1.13) ---- */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19
int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers,
			  int *num_addresses, int *num_datatypes,
			  int *combiner);
int MPI_Type_get_contents(MPI_Datatype type, int max_integers,
			  int max_addresses, int max_datatypes,
			  int integers[], MPI_Aint addresses[],
			  MPI_Datatype datatypes[]);
/* the MPI_Count forms (MPI 4.0 sec. 5.1.13): vp keeps no large counts */
int MPI_Type_get_envelope_c(MPI_Datatype type, MPI_Count *num_integers,
			    MPI_Count *num_addresses,
			    MPI_Count *num_large_counts,
			    MPI_Count *num_datatypes, int *combiner);
int MPI_Type_get_contents_c(MPI_Datatype type, MPI_Count max_integers,
			    MPI_Count max_addresses, MPI_Count max_large_counts,
			    MPI_Count max_datatypes, int integers[],
			    MPI_Aint addresses[], MPI_Count large_counts[],
			    MPI_Datatype datatypes[]);
/* Fortran 90's parameterized types (MPI 4.0 sec. 19.1.9): the type of a
 * REAL, COMPLEX or INTEGER of at least precision p and decimal range r */
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);

/* ---- buffered sends' buffer, MPI_Ibsend, MPI_Irsend (mpi_buffer.c;
 * MPI 4.1, sec. 3.6) ---- */
#define MPI_BSEND_OVERHEAD 96
int MPI_Buffer_attach(void *buffer, int size);
int MPI_Buffer_detach(void *buffer_addr, int *size);
int MPI_Buffer_flush(void);
int MPI_Buffer_iflush(MPI_Request *request);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);

/* ---- MPI_Testany, MPI_Testsome (mpi_testany.c; MPI 4.0, sec. 3.7.5) ---- */
int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
		MPI_Status *status);
int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[]);

/* ---- communicator duplicates with info, hints (mpi_comm_info.c; MPI 4.0,
 * sec. 7.4.2 and 7.4.4) ---- */
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			    MPI_Request *request);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);

/* ---- MPI_Alltoallw (mpi_alltoallw.c; MPI 4.0, sec. 6.8) ---- */
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[],
		  void *recvbuf, const int recvcounts[], const int rdispls[],
		  const MPI_Datatype recvtypes[], MPI_Comm comm);

/* ---- nonblocking v- and w-collectives (mpi_ivcoll.c; MPI 4.0,
 * sec. 6.12): the direct algorithms, every message posted at the call ---- */
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[],
		 MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request);
int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[],
		   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[],
		   void *recvbuf, const int recvcounts[], const int rdispls[],
		   const MPI_Datatype recvtypes[], MPI_Comm comm,
		   MPI_Request *request);
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype type, MPI_Op op,
			MPI_Comm comm, MPI_Request *request);

/* ---- MPI_Comm_split_type (mpi_split_type.c; MPI 4.0, sec. 7.4.2) ---- */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
			MPI_Info info, MPI_Comm *newcomm);

/* ---- threads (mpi_thread.c; MPI 4.0, sec. 11.6) ---- */
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);

/* ---- datatype attributes (mpi_type_attr.c; MPI 4.0, sec. 7.7.4) ---- */
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int keyval,
					void *extra_state,
					void *attribute_val_in,
					void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int keyval,
					  void *attribute_val,
					  void *extra_state);
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int keyval, void *extra,
			  void *in, void *out, int *flag);
int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int keyval, void *extra, void *in,
		    void *out, int *flag);
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype type, int keyval, void *value,
			    void *extra);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
			   MPI_Type_delete_attr_function *delete_fn,
			   int *keyval, void *extra_state);
int MPI_Type_free_keyval(int *keyval);
int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *attribute_val);
int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *attribute_val,
		      int *flag);
int MPI_Type_delete_attr(MPI_Datatype type, int keyval);

/* ---- error classes, codes and strings a program adds
 * (mpi_error_class.c; MPI 4.0, sec. 9.5): numbered above
 * MPI_ERR_LASTCODE; MPI_COMM_WORLD's attribute MPI_LASTUSEDCODE is the
 * largest so far ---- */
#define MPI_LASTUSEDCODE 6
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);

/* ---- subarray and distributed-array datatypes (mpi_type_subarray.c,
 * mpi_type_darray.c; MPI 4.0, sec. 5.1.3 and 5.1.4) ---- */
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
int MPI_Type_create_subarray(int ndims, const int sizes[],
			     const int subsizes[], const int starts[],
			     int order, MPI_Datatype oldtype,
			     MPI_Datatype *newtype);
int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
			   const int distribs[], const int dargs[],
			   const int psizes[], int order, MPI_Datatype oldtype,
			   MPI_Datatype *newtype);

/* ---- MPI_Count forms of the datatype queries (mpi_type_x.c; MPI 4.0,
 * sec. 5.1.5, 5.1.11 and 19.3.5) ---- */
int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size);
int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb,
			  MPI_Count *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *true_lb,
			       MPI_Count *true_extent);

/* ---- MPI_Type_match_size (mpi_type_match.c; MPI 4.0, sec. 19.1.9) ---- */
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);

/* ---- MPI_Type_create_hindexed_block and MPI-1 names removed by MPI 3.0
 * (mpi_type_hindexed_block.c; MPI 4.0, sec. 5.1.2) ---- */
int MPI_Type_create_hindexed_block(int count, int blocklength,
				   const MPI_Aint displacements[],
				   MPI_Datatype oldtype,
				   MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, int blocklengths[],
		      MPI_Aint displacements[], MPI_Datatype oldtype,
		      MPI_Datatype *newtype);
int MPI_Type_lb(MPI_Datatype type, MPI_Aint *lb);
int MPI_Type_ub(MPI_Datatype type, MPI_Aint *ub);

/* ---- topology mapping and general distributed graphs (mpi_topo_map.c,
 * mpi_dist_graph.c; MPI 4.0, sec. 8.5.4 and 8.5.7) ---- */
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
		 const int periods[], int *newrank);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
		  const int edges[], int *newrank);
int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[],
			  const int degrees[], const int destinations[],
			  const int weights[], MPI_Info info, int reorder,
			  MPI_Comm *newcomm);
/* ==== the rest of point to point and collectives (MPI 4.0): matched
 * probes, MPI_Isendrecv, request statuses, generalized requests, large
 * counts, persistent collectives ==== */

/* ---- collectives on intercommunicators (mpi_intercomm_coll.c; MPI 4.0,
 * sec. 6.2.2): the root of a rooted one passes MPI_ROOT, the rest of its
 * group MPI_PROC_NULL ---- */
#define MPI_ROOT (-4)

/* ---- matched probes (mpi_mprobe.c; MPI 4.0, sec. 3.8.2) ---- */
typedef int MPI_Message;
typedef int MPI_Fint;
#define MPI_MESSAGE_NULL 0
#define MPI_MESSAGE_NO_PROC 1
MPI_Fint MPI_Message_c2f(MPI_Message message);
MPI_Message MPI_Message_f2c(MPI_Fint message);
MPI_Fint PMPI_Message_c2f(MPI_Message message);
MPI_Message PMPI_Message_f2c(MPI_Fint message);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
		MPI_Message *message, MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	      MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	       MPI_Request *request);

/* ---- MPI_Isendrecv (mpi_isendrecv.c; MPI 4.0, sec. 3.10) ---- */
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  int dest, int sendtag, void *recvbuf, int recvcount,
		  MPI_Datatype recvtype, int source, int recvtag,
		  MPI_Comm comm, MPI_Request *request);
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			  int sendtag, int source, int recvtag, MPI_Comm comm,
			  MPI_Request *request);

/* ---- request statuses (mpi_request.c, mpi_status.c; MPI 4.0, sec.
 * 3.7.3 and 13.3) ---- */
int MPI_Request_get_status(MPI_Request request, int *flag,
			   MPI_Status *status);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type,
			    int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type,
			      MPI_Count count);
int MPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype type,
			      MPI_Count count);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type,
		       MPI_Count *count);
int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype type,
		       MPI_Count *count);
/* large-count datatype calls (mpi_type_c.c; MPI 4.0 sec. 5.1) */
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype old,
			  MPI_Datatype *newtype);
int MPI_Type_create_hindexed_c(MPI_Count count,
			       const MPI_Count blocklengths[],
			       const MPI_Count displacements[],
			       MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
				    const MPI_Count displacements[],
				    MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_size_c(MPI_Datatype type, MPI_Count *size);
int MPI_Type_get_extent_c(MPI_Datatype type, MPI_Count *lb,
			  MPI_Count *extent);
int MPI_Type_get_true_extent_c(MPI_Datatype type, MPI_Count *true_lb,
			       MPI_Count *true_extent);
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype type,
		    MPI_Count *count);

/* ---- generalized requests (mpi_grequest.c; MPI 4.0, sec. 13.2) ---- */
typedef int MPI_Grequest_query_function(void *extra_state,
					MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
		       MPI_Grequest_free_function *free_fn,
		       MPI_Grequest_cancel_function *cancel_fn,
		       void *extra_state, MPI_Request *request);
int MPI_Grequest_complete(MPI_Request request);

/* ---- large counts (mpi_large_count.c; MPI 4.0, sec. 19.2): any count
 * ---- */
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm);
int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm);
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
	       int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
		int tag, MPI_Comm comm, MPI_Request *request);
/* any count too: */
int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm);
int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm);
int MPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype type,
		 int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype type,
		 int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype type,
		 int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
		   MPI_Count recvcount, MPI_Datatype recvtype, int source,
		   int recvtag, MPI_Comm comm, MPI_Status *status);
/* up to INT_MAX items (their int sibling runs): */
int MPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		    int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		     int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		     int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		     int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
		    int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type,
			   int dest, int sendtag, int source, int recvtag,
			   MPI_Comm comm, MPI_Status *status);
int MPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, int dest, int sendtag,
		    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		    int source, int recvtag, MPI_Comm comm,
		    MPI_Request *request);
int MPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type,
			    int dest, int sendtag, int source, int recvtag,
			    MPI_Comm comm, MPI_Request *request);
int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype type,
		MPI_Message *message, MPI_Status *status);
int MPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype type,
		 MPI_Message *message, MPI_Request *request);
int MPI_Buffer_attach_c(void *buffer, MPI_Count size);
int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size);
int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype type,
	       void *outbuf, MPI_Count outsize, MPI_Count *position,
	       MPI_Comm comm);
int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position,
		 void *outbuf, MPI_Count outcount, MPI_Datatype type,
		 MPI_Comm comm);
int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype type, MPI_Comm comm,
		    MPI_Count *size);
int MPI_Pack_external_c(const char *datarep, const void *inbuf,
			MPI_Count incount, MPI_Datatype type, void *outbuf,
			MPI_Count outsize, MPI_Count *position);
int MPI_Unpack_external_c(const char datarep[], const void *inbuf,
			  MPI_Count insize, MPI_Count *position, void *outbuf,
			  MPI_Count outcount, MPI_Datatype type);
int MPI_Pack_external_size_c(const char *datarep, MPI_Count incount,
			     MPI_Datatype type, MPI_Count *size);
/* datatype constructors (mpi_type_c.c): counts up to INT_MAX, byte
 * displacements of any size */
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
		      MPI_Count stride, MPI_Datatype old,
		      MPI_Datatype *newtype);
int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
			      MPI_Count stride, MPI_Datatype old,
			      MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
				     const MPI_Count displacements[],
				     MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_indexed_c(MPI_Count count, const MPI_Count blocklengths[],
		       const MPI_Count displacements[], MPI_Datatype old,
		       MPI_Datatype *newtype);
int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count blocklengths[],
			     const MPI_Count displacements[],
			     const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_create_subarray_c(int ndims, const MPI_Count sizes[],
			       const MPI_Count subsizes[],
			       const MPI_Count starts[], int order,
			       MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_darray_c(int size, int rank, int ndims,
			     const MPI_Count gsizes[], const int distribs[],
			     const int dargs[], const int psizes[], int order,
			     MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_resized_c(MPI_Datatype old, MPI_Count lb,
			      MPI_Count extent, MPI_Datatype *newtype);

/* ---- large-count collectives (mpi_coll_c.c, mpi_vcoll_c.c; MPI 4.0, sec.
 * 6 and 19.2): up to INT_MAX items a block, displacements that fit an
 * int; each runs as its int sibling ---- */
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
				 MPI_Datatype *datatype);
int MPI_Op_create_c(MPI_User_function_c *function, int commute, MPI_Op *op);
int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype type, int root,
		MPI_Comm comm);
int MPI_Ibcast_c(void *buf, MPI_Count count, MPI_Datatype type, int root,
		 MPI_Comm comm, MPI_Request *request);
int MPI_Bcast_init_c(void *buf, MPI_Count count, MPI_Datatype type, int root,
		     MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		 MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int MPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		  MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		  MPI_Request *request);
int MPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		      MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request);
int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		     MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		     MPI_Request *request);
int MPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
			 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			 MPI_Info info, MPI_Request *request);
int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
	       MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		MPI_Request *request);
int MPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request);
int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		 MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		  MPI_Request *request);
int MPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
		      MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request);
int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf,
			       MPI_Count recvcount, MPI_Datatype type,
			       MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf,
				MPI_Count recvcount, MPI_Datatype type,
				MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf,
				    MPI_Count recvcount, MPI_Datatype type,
				    MPI_Op op, MPI_Comm comm, MPI_Info info,
				    MPI_Request *request);
int MPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
		       MPI_Datatype type, MPI_Op op);
int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount,
		 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		 MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount,
		  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm,
		  MPI_Request *request);
int MPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf,
		      MPI_Count recvcount, MPI_Datatype recvtype, int root,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount,
		  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		  MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		   MPI_Datatype recvtype, int root, MPI_Comm comm,
		   MPI_Request *request);
int MPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount,
		       MPI_Datatype sendtype, void *recvbuf,
		       MPI_Count recvcount, MPI_Datatype recvtype, int root,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount,
		     MPI_Datatype sendtype, void *recvbuf,
		     MPI_Count recvcount, MPI_Datatype recvtype,
		     MPI_Comm comm, MPI_Request *request);
int MPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount,
			 MPI_Datatype sendtype, void *recvbuf,
			 MPI_Count recvcount, MPI_Datatype recvtype,
			 MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
			MPI_Datatype sendtype, void *recvbuf,
			MPI_Count recvcount, MPI_Datatype recvtype,
			MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     MPI_Count recvcount, MPI_Datatype recvtype,
			     MPI_Comm comm);
int MPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    MPI_Count recvcount, MPI_Datatype recvtype,
			    MPI_Comm comm);
int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount,
		  MPI_Datatype sendtype, void *recvbuf,
		  const MPI_Count recvcounts[], const MPI_Aint displs[],
		  MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, void *recvbuf,
		   const MPI_Count recvcounts[], const MPI_Aint displs[],
		   MPI_Datatype recvtype, int root, MPI_Comm comm,
		   MPI_Request *request);
int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount,
		       MPI_Datatype sendtype, void *recvbuf,
		       const MPI_Count recvcounts[], const MPI_Aint displs[],
		       MPI_Datatype recvtype, int root, MPI_Comm comm,
		       MPI_Info info, MPI_Request *request);
int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
		   const MPI_Aint displs[], MPI_Datatype sendtype,
		   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		   int root, MPI_Comm comm);
int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[],
		    const MPI_Aint displs[], MPI_Datatype sendtype,
		    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		    int root, MPI_Comm comm, MPI_Request *request);
int MPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			const MPI_Aint displs[], MPI_Datatype sendtype,
			void *recvbuf, MPI_Count recvcount,
			MPI_Datatype recvtype, int root, MPI_Comm comm,
			MPI_Info info, MPI_Request *request);
int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount,
		     MPI_Datatype sendtype, void *recvbuf,
		     const MPI_Count recvcounts[], const MPI_Aint displs[],
		     MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount,
		      MPI_Datatype sendtype, void *recvbuf,
		      const MPI_Count recvcounts[], const MPI_Aint displs[],
		      MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request);
int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
			  MPI_Datatype sendtype, void *recvbuf,
			  const MPI_Count recvcounts[],
			  const MPI_Aint displs[], MPI_Datatype recvtype,
			  MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
		    const MPI_Aint sdispls[], MPI_Datatype sendtype,
		    void *recvbuf, const MPI_Count recvcounts[],
		    const MPI_Aint rdispls[], MPI_Datatype recvtype,
		    MPI_Comm comm);
int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
		     const MPI_Aint sdispls[], MPI_Datatype sendtype,
		     void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], MPI_Datatype recvtype,
		     MPI_Comm comm, MPI_Request *request);
int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			 const MPI_Aint sdispls[], MPI_Datatype sendtype,
			 void *recvbuf, const MPI_Count recvcounts[],
			 const MPI_Aint rdispls[], MPI_Datatype recvtype,
			 MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
		    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
		    void *recvbuf, const MPI_Count recvcounts[],
		    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		    MPI_Comm comm);
int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
		     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
		     void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
		     MPI_Comm comm, MPI_Request *request);
int MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			 const MPI_Aint sdispls[],
			 const MPI_Datatype sendtypes[], void *recvbuf,
			 const MPI_Count recvcounts[],
			 const MPI_Aint rdispls[],
			 const MPI_Datatype recvtypes[], MPI_Comm comm,
			 MPI_Info info, MPI_Request *request);
int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf,
			 const MPI_Count recvcounts[], MPI_Datatype type,
			 MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf,
			  const MPI_Count recvcounts[], MPI_Datatype type,
			  MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf,
			      const MPI_Count recvcounts[], MPI_Datatype type,
			      MPI_Op op, MPI_Comm comm, MPI_Info info,
			      MPI_Request *request);
int MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
			      MPI_Datatype sendtype, void *recvbuf,
			      const MPI_Count recvcounts[],
			      const MPI_Aint displs[], MPI_Datatype recvtype,
			      MPI_Comm comm);
int MPI_Neighbor_alltoallv_c(const void *sendbuf,
			     const MPI_Count sendcounts[],
			     const MPI_Aint sdispls[], MPI_Datatype sendtype,
			     void *recvbuf, const MPI_Count recvcounts[],
			     const MPI_Aint rdispls[], MPI_Datatype recvtype,
			     MPI_Comm comm);
int MPI_Neighbor_alltoallw_c(const void *sendbuf,
			     const MPI_Count sendcounts[],
			     const MPI_Aint sdispls[],
			     const MPI_Datatype sendtypes[], void *recvbuf,
			     const MPI_Count recvcounts[],
			     const MPI_Aint rdispls[],
			     const MPI_Datatype recvtypes[], MPI_Comm comm);

/* ---- persistent collectives (mpi_persistent_coll.c; MPI 4.0, sec.
 * 6.13): started by MPI_Start and MPI_Startall ---- */
int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Bcast_init(void *buffer, int count, MPI_Datatype type, int root,
		   MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		    MPI_Info info, MPI_Request *request);
int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
		       MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		       MPI_Info info, MPI_Request *request);
int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		  MPI_Request *request);
int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
		    MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request);
int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
				  int recvcount, MPI_Datatype type, MPI_Op op,
				  MPI_Comm comm, MPI_Info info,
				  MPI_Request *request);
int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf,
			    const int recvcounts[], MPI_Datatype type,
			    MPI_Op op, MPI_Comm comm, MPI_Info info,
			    MPI_Request *request);
int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, int recvcount, MPI_Datatype recvtype,
		    int root, MPI_Comm comm, MPI_Info info,
		    MPI_Request *request);
int MPI_Scatter_init(const void *sendbuf, int sendcount,
		     MPI_Datatype sendtype, void *recvbuf, int recvcount,
		     MPI_Datatype recvtype, int root, MPI_Comm comm,
		     MPI_Info info, MPI_Request *request);
int MPI_Allgather_init(const void *sendbuf, int sendcount,
		       MPI_Datatype sendtype, void *recvbuf, int recvcount,
		       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		       MPI_Request *request);
int MPI_Alltoall_init(const void *sendbuf, int sendcount,
		      MPI_Datatype sendtype, void *recvbuf, int recvcount,
		      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		      MPI_Request *request);
int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     void *recvbuf, const int recvcounts[], const int displs[],
		     MPI_Datatype recvtype, int root, MPI_Comm comm,
		     MPI_Info info, MPI_Request *request);
int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
		      const int displs[], MPI_Datatype sendtype, void *recvbuf,
		      int recvcount, MPI_Datatype recvtype, int root,
		      MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Allgatherv_init(const void *sendbuf, int sendcount,
			MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int displs[],
			MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			MPI_Request *request);
int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
		       const int sdispls[], MPI_Datatype sendtype,
		       void *recvbuf, const int recvcounts[],
		       const int rdispls[], MPI_Datatype recvtype,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
		       const int sdispls[], const MPI_Datatype sendtypes[],
		       void *recvbuf, const int recvcounts[],
		       const int rdispls[], const MPI_Datatype recvtypes[],
		       MPI_Comm comm, MPI_Info info, MPI_Request *request);
/* ---- neighbourhood collectives, nonblocking and persistent
 * (mpi_neighbor.c, mpi_persistent_coll.c; MPI 4.0, sec. 8.7, 8.8), and
 * their large-count forms (mpi_coll_c.c, mpi_vcoll_c.c) ---- */
int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    int recvcount, MPI_Datatype recvtype,
			    MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     const int recvcounts[], const int displs[],
			     MPI_Datatype recvtype, MPI_Comm comm,
			     MPI_Request *request);
int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf,
			   int recvcount, MPI_Datatype recvtype,
			   MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			    const int sdispls[], MPI_Datatype sendtype,
			    void *recvbuf, const int recvcounts[],
			    const int rdispls[], MPI_Datatype recvtype,
			    MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
			    const MPI_Aint sdispls[],
			    const MPI_Datatype sendtypes[], void *recvbuf,
			    const int recvcounts[], const MPI_Aint rdispls[],
			    const MPI_Datatype recvtypes[], MPI_Comm comm,
			    MPI_Request *request);
int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
				MPI_Datatype sendtype, void *recvbuf,
				int recvcount, MPI_Datatype recvtype,
				MPI_Comm comm, MPI_Info info,
				MPI_Request *request);
int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount,
				 MPI_Datatype sendtype, void *recvbuf,
				 const int recvcounts[], const int displs[],
				 MPI_Datatype recvtype, MPI_Comm comm,
				 MPI_Info info, MPI_Request *request);
int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
			       MPI_Datatype sendtype, void *recvbuf,
			       int recvcount, MPI_Datatype recvtype,
			       MPI_Comm comm, MPI_Info info,
			       MPI_Request *request);
int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
				const int sdispls[], MPI_Datatype sendtype,
				void *recvbuf, const int recvcounts[],
				const int rdispls[], MPI_Datatype recvtype,
				MPI_Comm comm, MPI_Info info,
				MPI_Request *request);
int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
				const MPI_Aint sdispls[],
				const MPI_Datatype sendtypes[], void *recvbuf,
				const int recvcounts[],
				const MPI_Aint rdispls[],
				const MPI_Datatype recvtypes[], MPI_Comm comm,
				MPI_Info info, MPI_Request *request);
int MPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
			      MPI_Datatype sendtype, void *recvbuf,
			      MPI_Count recvcount, MPI_Datatype recvtype,
			      MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     MPI_Count recvcount, MPI_Datatype recvtype,
			     MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
				  MPI_Datatype sendtype, void *recvbuf,
				  MPI_Count recvcount, MPI_Datatype recvtype,
				  MPI_Comm comm, MPI_Info info,
				  MPI_Request *request);
int MPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
				 MPI_Datatype sendtype, void *recvbuf,
				 MPI_Count recvcount, MPI_Datatype recvtype,
				 MPI_Comm comm, MPI_Info info,
				 MPI_Request *request);
int MPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
			       MPI_Datatype sendtype, void *recvbuf,
			       const MPI_Count recvcounts[],
			       const MPI_Aint displs[], MPI_Datatype recvtype,
			       MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallv_c(const void *sendbuf,
			      const MPI_Count sendcounts[],
			      const MPI_Aint sdispls[], MPI_Datatype sendtype,
			      void *recvbuf, const MPI_Count recvcounts[],
			      const MPI_Aint rdispls[], MPI_Datatype recvtype,
			      MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallw_c(const void *sendbuf,
			      const MPI_Count sendcounts[],
			      const MPI_Aint sdispls[],
			      const MPI_Datatype sendtypes[], void *recvbuf,
			      const MPI_Count recvcounts[],
			      const MPI_Aint rdispls[],
			      const MPI_Datatype recvtypes[], MPI_Comm comm,
			      MPI_Request *request);
int MPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
				   MPI_Datatype sendtype, void *recvbuf,
				   const MPI_Count recvcounts[],
				   const MPI_Aint displs[],
				   MPI_Datatype recvtype, MPI_Comm comm,
				   MPI_Info info, MPI_Request *request);
int MPI_Neighbor_alltoallv_init_c(const void *sendbuf,
				  const MPI_Count sendcounts[],
				  const MPI_Aint sdispls[],
				  MPI_Datatype sendtype, void *recvbuf,
				  const MPI_Count recvcounts[],
				  const MPI_Aint rdispls[],
				  MPI_Datatype recvtype, MPI_Comm comm,
				  MPI_Info info, MPI_Request *request);
int MPI_Neighbor_alltoallw_init_c(const void *sendbuf,
				  const MPI_Count sendcounts[],
				  const MPI_Aint sdispls[],
				  const MPI_Datatype sendtypes[],
				  void *recvbuf, const MPI_Count recvcounts[],
				  const MPI_Aint rdispls[],
				  const MPI_Datatype recvtypes[],
				  MPI_Comm comm, MPI_Info info,
				  MPI_Request *request);
/* ==== end of the block ==== */
/* ---- one-sided: post-start-complete-wait, window kinds, info, error
 * handlers, request-based operations (mpi_win_pscw.c, mpi_win_shared.c,
 * mpi_rma_request.c; MPI 4.0, sec. 12.2, 12.3.5, 12.5.2, 12.6) ---- */
#define MPI_ERR_RMA_RANGE 55
#define MPI_ERR_RMA_ATTACH 56
#define MPI_ERR_RMA_SHARED 57
#define MPI_ERR_RMA_FLAVOR 58
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int MPI_Win_test(MPI_Win win, int *flag);
int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
			    MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
			 int *disp_unit, void *baseptr);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *errorcode, ...);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *fn,
			      MPI_Errhandler *errhandler);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
int MPI_Rput(const void *origin_addr, int origin_count,
	     MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	     int target_count, MPI_Datatype target_type, MPI_Win win,
	     MPI_Request *request);
int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_type,
	     int target_rank, MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_type, MPI_Win win, MPI_Request *request);
int MPI_Raccumulate(const void *origin_addr, int origin_count,
		    MPI_Datatype origin_type, int target_rank,
		    MPI_Aint target_disp, int target_count,
		    MPI_Datatype target_type, MPI_Op op, MPI_Win win,
		    MPI_Request *request);

/* ---- large-count one-sided calls (mpi_win_c.c; MPI 4.0, sec. 12 and
 * 19.2): up to INT_MAX items a side, a disp_unit that fits an int ---- */
int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit,
		     MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
		       MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
			      MPI_Info info, MPI_Comm comm, void *baseptr,
			      MPI_Win *win);
int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size,
			   MPI_Aint *disp_unit, void *baseptr);
int MPI_Put_c(const void *origin_addr, MPI_Count origin_count,
	      MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	      MPI_Count target_count, MPI_Datatype target_type, MPI_Win win);
int MPI_Get_c(void *origin_addr, MPI_Count origin_count,
	      MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	      MPI_Count target_count, MPI_Datatype target_type, MPI_Win win);
int MPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
		     MPI_Datatype origin_type, int target_rank,
		     MPI_Aint target_disp, MPI_Count target_count,
		     MPI_Datatype target_type, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
			 MPI_Datatype origin_type, void *result_addr,
			 MPI_Count result_count, MPI_Datatype result_type,
			 int target_rank, MPI_Aint target_disp,
			 MPI_Count target_count, MPI_Datatype target_type,
			 MPI_Op op, MPI_Win win);
int MPI_Rput_c(const void *origin_addr, MPI_Count origin_count,
	       MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	       MPI_Count target_count, MPI_Datatype target_type, MPI_Win win,
	       MPI_Request *request);
int MPI_Rget_c(void *origin_addr, MPI_Count origin_count,
	       MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
	       MPI_Count target_count, MPI_Datatype target_type, MPI_Win win,
	       MPI_Request *request);
int MPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
		      MPI_Datatype origin_type, int target_rank,
		      MPI_Aint target_disp, MPI_Count target_count,
		      MPI_Datatype target_type, MPI_Op op, MPI_Win win,
		      MPI_Request *request);
int MPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
			  MPI_Datatype origin_type, void *result_addr,
			  MPI_Count result_count, MPI_Datatype result_type,
			  int target_rank, MPI_Aint target_disp,
			  MPI_Count target_count, MPI_Datatype target_type,
			  MPI_Op op, MPI_Win win, MPI_Request *request);

/* the process's services a rank uses through vpmpicc (vpmpi_io.h) */
FILE *vpmpi_stdin(void);
FILE *vpmpi_stdout(void);
int vpmpi_puts(const char *s);
void vpmpi_exit(int status) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif /* VP_MPI_H */
