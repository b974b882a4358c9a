/*
 * vpmpi.h - what the files of the MPI layer share. The layer is written
 * only against vp's public API (vp.h): a rank's MPI state is thread-local,
 * since each rank is a thread.
 */
#ifndef VP_MPI_LAYER_H
#define VP_MPI_LAYER_H

#include "../include/vp/mpi.h"

#define VPMPI_MAX_COMMS 256

struct vpmpi_rank {
	vp_comm *comm[VPMPI_MAX_COMMS]; /* by handle; [1] world, [2] self */
	int initialized, finalized;
};

extern __thread struct vpmpi_rank vpmpi_me;

/* The launcher binds each rank thread to its world before calling main. */
void vpmpi_bind(vp_comm *world);

/* The communicator of a handle, or NULL after failing the run with a
 * message naming the call and the handle (MPI_ERRORS_ARE_FATAL). */
vp_comm *vpmpi_comm(MPI_Comm h, const char *call);
/* Bytes of count elements of type, or -1 after failing the run. */
long vpmpi_bytes(int count, MPI_Datatype type, const char *call);
/* The element type reductions use for (type, op), or -1 after failing. */
int vpmpi_reduction(MPI_Datatype type, MPI_Op op, vp_op *vop,
		    const char *call);
/* An MPI error class for a vp error code. */
int vpmpi_class(int vp_code);
/* The result of a vp call, under MPI_ERRORS_ARE_FATAL (the only handler
 * of this part): MPI_SUCCESS, or the rank ends here (the failing call has
 * failed the run; a program never goes on past an error). */
int vpmpi_ret(int vp_code);
/* Fails the run: "rank r: call: message", returns the MPI class. */
int vpmpi_fail(int mpi_class, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A vp status as an MPI status (status may be MPI_STATUS_IGNORE). */
void vpmpi_status(const vp_status *in, int rc, MPI_Status *status);

#endif /* VP_MPI_LAYER_H */
