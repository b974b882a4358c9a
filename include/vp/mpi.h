/*
 * mpi.h - MPI programs on vp: ranks are threads of one process.
 *
 * Compile with vpmpicc (it puts this header first and renames the
 * program's main, which the launcher calls once per rank thread) and run
 * with vpmpirun -np N. This first part of the layer covers the calls most
 * small MPI programs use (the table in README.md, "MPI programs on vp"):
 * initialisation, MPI_COMM_WORLD and MPI_COMM_SELF, blocking and
 * nonblocking point to point with tags, wildcards and statuses, probe, the
 * basic datatypes (contiguous), and the common collectives. Anything else
 * is not declared: a program using it fails to compile or link, never
 * runs wrong. Global and static variables are shared by all ranks in this
 * part (one copy per process).
 *
 * Handles are small integers (communicators, datatypes, ops) or vp's own
 * request pointers, so the constants are compile-time constants as in
 * MPICH.
 */
#ifndef VP_MPI_H
#define VP_MPI_H

#include <stddef.h>

#include "../vp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1

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
#define MPI_ERR_NO_MEM 34
#define MPI_ERR_LASTCODE 64

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

typedef vp_request MPI_Request;
#define MPI_REQUEST_NULL ((MPI_Request)0)

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	size_t vpmpi_bytes; /* the message's length (MPI_Get_count) */
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
int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result);

int MPI_Type_size(MPI_Datatype type, int *size);

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	     MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
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
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
	      MPI_Comm comm, MPI_Request *request);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request requests[], int *index,
		MPI_Status *status);
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

#ifdef __cplusplus
}
#endif

#endif /* VP_MPI_H */
