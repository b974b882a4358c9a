/*
 * mpi_large_count.c - the large-count point-to-point and packing calls
 * (MPI 4.0, sec. 3, 5.2 and 19.2: MPI_Send_c and the others take an
 * MPI_Count). The blocking, nonblocking, buffered, ready and synchronous
 * sends and receives and MPI_Sendrecv_c take any count, as the int calls
 * run them (a message is its bytes, counted in a size_t). The others run
 * their int sibling where the counts fit an int (persistent requests keep
 * an int count, matched messages, the packing calls an int position) and
 * refuse a count above INT_MAX with MPI_ERR_COUNT naming the call and the
 * count; the errors raised inside the sibling name the large-count call.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>

#include "vpmpi.h"

int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm)
{
	return vpmpi_send_c(buf, count, type, dest, tag, comm, "MPI_Send_c");
}

int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm)
{
	return vpmpi_ssend_c(buf, count, type, dest, tag, comm, "MPI_Ssend_c");
}

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
	       int tag, MPI_Comm comm, MPI_Status *status)
{
	return vpmpi_recv_c(buf, count, type, source, tag, comm, status,
			    "MPI_Recv_c");
}

int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_isend_c(buf, count, type, dest, tag, comm, request, 0,
			     "MPI_Isend_c");
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
		int tag, MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_irecv_c(buf, count, type, source, tag, comm, request,
			     "MPI_Irecv_c");
}

int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm)
{
	return vpmpi_send_c(buf, count, type, dest, tag, comm, "MPI_Rsend_c");
}

int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
		int tag, MPI_Comm comm)
{
	return vpmpi_bsend_as(buf, count, type, dest, tag, comm, "MPI_Bsend_c");
}

int MPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype type,
		 int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_ibsend_c(buf, count, type, dest, tag, comm, request,
			      "MPI_Ibsend_c");
}

int MPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype type,
		 int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_isend_c(buf, count, type, dest, tag, comm, request, 0,
			     "MPI_Irsend_c");
}

int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype type,
		 int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return vpmpi_isend_c(buf, count, type, dest, tag, comm, request, 1,
			     "MPI_Issend_c");
}

int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount,
		   MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
		   MPI_Count recvcount, MPI_Datatype recvtype, int source,
		   int recvtag, MPI_Comm comm, MPI_Status *status)
{
	return vpmpi_sendrecv_c(sendbuf, sendcount, sendtype, dest, sendtag,
				recvbuf, recvcount, recvtype, source, recvtag,
				comm, status, "MPI_Sendrecv_c");
}

/* ---- counts that must fit an int: the int sibling runs ---- */

/* The persistent sends and receive: init is the int sibling. */
static int init_c(int (*init)(const void *, int, MPI_Datatype, int, int,
			      MPI_Comm, MPI_Request *),
		  const void *buf, MPI_Count count, MPI_Datatype type,
		  int peer, int tag, MPI_Comm comm, MPI_Request *request,
		  const char *call)
{
	int rc = vpmpi_c_begin(comm, call, "count", count, NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : init(buf, (int)count, type, peer, tag, comm,
				     request));
}

int MPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		    int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return init_c(MPI_Send_init, buf, count, type, dest, tag, comm,
		      request, "MPI_Send_init_c");
}

int MPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		     int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return init_c(MPI_Bsend_init, buf, count, type, dest, tag, comm,
		      request, "MPI_Bsend_init_c");
}

int MPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		     int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return init_c(MPI_Rsend_init, buf, count, type, dest, tag, comm,
		      request, "MPI_Rsend_init_c");
}

int MPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype type,
		     int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return init_c(MPI_Ssend_init, buf, count, type, dest, tag, comm,
		      request, "MPI_Ssend_init_c");
}

/* MPI_Recv_init's buffer is not const: the same call otherwise */
static int recv_init(const void *buf, int count, MPI_Datatype type, int source,
		     int tag, MPI_Comm comm, MPI_Request *request)
{
	return MPI_Recv_init((void *)buf, count, type, source, tag, comm,
			     request);
}

int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype type, int source,
		    int tag, MPI_Comm comm, MPI_Request *request)
{
	return init_c(recv_init, buf, count, type, source, tag, comm, request,
		      "MPI_Recv_init_c");
}

int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type,
			   int dest, int sendtag, int source, int recvtag,
			   MPI_Comm comm, MPI_Status *status)
{
	int rc = vpmpi_c_begin(comm, "MPI_Sendrecv_replace_c", "count", count,
			       NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Sendrecv_replace(buf, (int)count, type,
						     dest, sendtag, source,
						     recvtag, comm, status));
}

int MPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, int dest, int sendtag,
		    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		    int source, int recvtag, MPI_Comm comm,
		    MPI_Request *request)
{
	int rc = vpmpi_c_begin(comm, "MPI_Isendrecv_c", "sendcount",
			       sendcount, "recvcount", recvcount);

	return vpmpi_c_end(rc ? rc
			      : MPI_Isendrecv(sendbuf, (int)sendcount,
					      sendtype, dest, sendtag, recvbuf,
					      (int)recvcount, recvtype, source,
					      recvtag, comm, request));
}

int MPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type,
			    int dest, int sendtag, int source, int recvtag,
			    MPI_Comm comm, MPI_Request *request)
{
	int rc = vpmpi_c_begin(comm, "MPI_Isendrecv_replace_c", "count",
			       count, NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Isendrecv_replace(buf, (int)count, type,
						      dest, sendtag, source,
						      recvtag, comm, request));
}

int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype type,
		MPI_Message *message, MPI_Status *status)
{
	int rc = vpmpi_c_begin(MPI_COMM_WORLD, "MPI_Mrecv_c", "count", count,
			       NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Mrecv(buf, (int)count, type, message,
					  status));
}

int MPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype type,
		 MPI_Message *message, MPI_Request *request)
{
	int rc = vpmpi_c_begin(MPI_COMM_WORLD, "MPI_Imrecv_c", "count", count,
			       NULL, 0);

	return vpmpi_c_end(rc ? rc
			      : MPI_Imrecv(buf, (int)count, type, message,
					   request));
}

int MPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
	int rc = vpmpi_c_begin(MPI_COMM_WORLD, "MPI_Buffer_attach_c", "size",
			       size, NULL, 0);

	return vpmpi_c_end(rc ? rc : MPI_Buffer_attach(buffer, (int)size));
}

int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
	int n = 0, rc;

	vpmpi_c_begin(MPI_COMM_WORLD, "MPI_Buffer_detach_c", NULL, 0, NULL, 0);
	rc = MPI_Buffer_detach(buffer_addr, size ? &n : NULL);
	if (!rc)
		*size = n;
	return vpmpi_c_end(rc);
}

/* ---- packing (MPI 4.0 sec. 5.2 and 5.2.3) ---- */

/* Starts a packing call: its position pointer given, its count fits, and
 * its buffer size and position too where size_what is not NULL (*pos the
 * position as an int). MPI_SUCCESS or the error. */
static int pack_begin(MPI_Comm comm, const char *call, const char *what,
		      MPI_Count count, const char *size_what, MPI_Count size,
		      const MPI_Count *position, int *pos)
{
	int rc = vpmpi_c_begin(comm, call, what, count, size_what, size);

	if (!rc && !position)
		rc = vpmpi_err(comm, MPI_ERR_ARG, call, "position is NULL");
	if (!rc && size_what)
		rc = vpmpi_c_fits(comm, "position", *position, call);
	*pos = !rc && size_what ? (int)*position : 0;
	return rc;
}

int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype type,
	       void *outbuf, MPI_Count outsize, MPI_Count *position,
	       MPI_Comm comm)
{
	int pos, rc = pack_begin(comm, "MPI_Pack_c", "incount", incount,
				 "outsize", outsize, position, &pos);

	if (!rc && !(rc = MPI_Pack(inbuf, (int)incount, type, outbuf,
				   (int)outsize, &pos, comm)))
		*position = pos;
	return vpmpi_c_end(rc);
}

int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position,
		 void *outbuf, MPI_Count outcount, MPI_Datatype type,
		 MPI_Comm comm)
{
	int pos, rc = pack_begin(comm, "MPI_Unpack_c", "outcount", outcount,
				 "insize", insize, position, &pos);

	if (!rc && !(rc = MPI_Unpack(inbuf, (int)insize, &pos, outbuf,
				     (int)outcount, type, comm)))
		*position = pos;
	return vpmpi_c_end(rc);
}

int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype type, MPI_Comm comm,
		    MPI_Count *size)
{
	long n = -1;
	int rc = vpmpi_c_begin(comm, "MPI_Pack_size_c", "incount", incount,
			       NULL, 0);

	if (!rc && (n = vpmpi_bytes(comm, (int)incount, type,
				    "MPI_Pack_size_c")) < 0)
		rc = MPI_ERR_TYPE;
	if (!rc && !size)
		rc = vpmpi_err(comm, MPI_ERR_ARG, "MPI_Pack_size_c",
			       "size is NULL");
	if (!rc)
		*size = n;
	return vpmpi_c_end(rc);
}

/* The external32 calls take an MPI_Aint position and size already. */
int MPI_Pack_external_c(const char *datarep, const void *inbuf,
			MPI_Count incount, MPI_Datatype type, void *outbuf,
			MPI_Count outsize, MPI_Count *position)
{
	MPI_Aint pos = position ? (MPI_Aint)*position : 0;
	int unused, rc = pack_begin(MPI_COMM_WORLD, "MPI_Pack_external_c",
				    "incount", incount, NULL, 0, position,
				    &unused);

	if (!rc && !(rc = MPI_Pack_external(datarep, inbuf, (int)incount, type,
					    outbuf, (MPI_Aint)outsize, &pos)))
		*position = pos;
	return vpmpi_c_end(rc);
}

int MPI_Unpack_external_c(const char datarep[], const void *inbuf,
			  MPI_Count insize, MPI_Count *position, void *outbuf,
			  MPI_Count outcount, MPI_Datatype type)
{
	MPI_Aint pos = position ? (MPI_Aint)*position : 0;
	int unused, rc = pack_begin(MPI_COMM_WORLD, "MPI_Unpack_external_c",
				    "outcount", outcount, NULL, 0, position,
				    &unused);

	if (!rc && !(rc = MPI_Unpack_external(datarep, inbuf, (MPI_Aint)insize,
					      &pos, outbuf, (int)outcount,
					      type)))
		*position = pos;
	return vpmpi_c_end(rc);
}

int MPI_Pack_external_size_c(const char *datarep, MPI_Count incount,
			     MPI_Datatype type, MPI_Count *size)
{
	MPI_Aint n = 0;
	int rc = vpmpi_c_begin(MPI_COMM_WORLD, "MPI_Pack_external_size_c",
			       "incount", incount, NULL, 0);

	if (!rc && !(rc = MPI_Pack_external_size(datarep, (int)incount, type,
						 size ? &n : NULL)))
		*size = n;
	return vpmpi_c_end(rc);
}
