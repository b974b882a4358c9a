/*
 * mpi_buffer.c - buffered and ready sends' remaining calls (MPI 4.0, sec.
 * 3.6): MPI_Buffer_attach and MPI_Buffer_detach keep the rank's one
 * attached buffer and give it back; MPI_Ibsend and MPI_Irsend are
 * MPI_Isend, as MPI_Bsend and MPI_Rsend are MPI_Send (mpi_p2p.c). The
 * attached buffer holds no message: vp buffers a message up to its eager
 * limit itself, and a longer one waits for its receiver (rendezvous), so a
 * program that relies on MPI_Bsend completing locally for a long message
 * deadlocks, and vp reports the deadlock; a buffered send is never refused
 * for want of buffer space (MPI_ERR_BUFFER).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

static __thread void *attached;
static __thread int attached_size, has_buffer;

int MPI_Buffer_attach(void *buffer, int size)
{
	static const char call[] = "MPI_Buffer_attach";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (size < 0 || (size > 0 && !buffer))
		return vpmpi_fail(MPI_ERR_BUFFER, call,
				  size < 0 ? "size %d is negative"
					   : "the buffer is NULL (size %d)",
				  size);
	if (has_buffer)
		return vpmpi_fail(MPI_ERR_BUFFER, call,
				  "a buffer is attached already (%d bytes): "
				  "MPI_Buffer_detach it first",
				  attached_size);
	attached = buffer;
	attached_size = size;
	has_buffer = 1;
	return MPI_SUCCESS;
}

int MPI_Buffer_detach(void *buffer_addr, int *size)
{
	static const char call[] = "MPI_Buffer_detach";

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (!buffer_addr || !size)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the buffer address or size pointer is NULL");
	/* with none attached: NULL and 0, as MPICH and Open MPI answer */
	*(void **)buffer_addr = has_buffer ? attached : NULL;
	*size = has_buffer ? attached_size : 0;
	attached = NULL;
	attached_size = has_buffer = 0;
	return MPI_SUCCESS;
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return MPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return MPI_Isend(buf, count, type, dest, tag, comm, request);
}
