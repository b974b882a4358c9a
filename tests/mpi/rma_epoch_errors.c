/* rma_epoch_errors.c - one-sided calls out of their epoch (MPI 4.0,
 * sec. 12.5) return MPI_ERR_RMA_SYNC under MPI_ERRORS_RETURN and the
 * program goes on, the window still usable:
 *   - MPI_Put before any epoch; MPI_Win_unlock, MPI_Win_flush without a
 *     lock; MPI_Win_unlock_all without MPI_Win_lock_all;
 *   - a second MPI_Win_lock of one target, MPI_Win_lock_all while
 *     holding a lock, MPI_Win_fence and MPI_Win_free with a lock held;
 *   - MPI_Rput and MPI_Rget inside a fence epoch (they need a passive
 *     target epoch, sec. 12.3.5), MPI_Rput with a lock on another target;
 *   - MPI_Win_lock of a rank outside the window: MPI_ERR_RANK;
 * each message names the rank, the call and the target (vp's
 * MPI_Error_string of the code: the last error's text). Then a correct
 * epoch of each kind still works: every rank puts its rank into its
 * right neighbour's window. Rank 0 prints what it got.
 *
 * no-ref: checks vp's messages (Open MPI's name no call and no rank)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bad, rank;

/* Code rc is of class want and its text says what. */
static void expect(int rc, int want, const char *what)
{
	char msg[MPI_MAX_ERROR_STRING];
	int cls = MPI_SUCCESS, len = 0;

	if (rc != MPI_SUCCESS) {
		MPI_Error_class(rc, &cls);
		MPI_Error_string(rc, msg, &len);
	}
	if (cls != want || !len || !strstr(msg, what)) {
		bad++;
		printf("rank %d: wanted class %d saying \"%s\", got %d: %s\n",
		       rank, want, what, cls, len ? msg : "");
	}
}

int main(int argc, char **argv)
{
	int size, right, mem[2] = { -1, -1 }, x, all_bad;
	char what[120];
	MPI_Request req;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	x = rank;
	MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

	snprintf(what, sizeof(what), "rank %d: MPI_Put: target %d is outside "
		 "every epoch", rank, right);
	expect(MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win),
	       MPI_ERR_RMA_SYNC, what);
	snprintf(what, sizeof(what), "rank %d: MPI_Win_unlock: this rank "
		 "holds no lock on target %d", rank, right);
	expect(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC, what);
	expect(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC, "MPI_Win_flush");
	expect(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC,
	       "MPI_Win_unlock_all: this rank holds no MPI_Win_lock_all");
	snprintf(what, sizeof(what), "rank %d: MPI_Win_lock: rank %d is "
		 "outside [0, %d)", rank, size + 3, size);
	expect(MPI_Win_lock(MPI_LOCK_SHARED, size + 3, 0, win), MPI_ERR_RANK,
	       what);

	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
	snprintf(what, sizeof(what), "MPI_Win_lock: this rank holds a lock "
		 "on target %d already", right);
	expect(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC,
	       what);
	expect(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC,
	       "MPI_Win_lock_all: this rank holds an MPI_Win_lock");
	expect(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC,
	       "MPI_Win_fence: a passive-target epoch is open");
	expect(MPI_Win_free(&win), MPI_ERR_RMA_SYNC,
	       "MPI_Win_free: a passive-target epoch is open");
	if (size > 1) {
		snprintf(what, sizeof(what), "MPI_Rput: target %d is not in a "
			 "passive-target epoch", rank);
		expect(MPI_Rput(&x, 1, MPI_INT, rank, 0, 1, MPI_INT, win,
				&req),
		       MPI_ERR_RMA_SYNC, what);
	}
	MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win);
	MPI_Win_unlock(right, win);
	MPI_Barrier(MPI_COMM_WORLD);
	bad += mem[0] != (rank + size - 1) % size;

	MPI_Win_fence(0, win);
	snprintf(what, sizeof(what), "MPI_Rget: target %d is not in a "
		 "passive-target epoch", right);
	expect(MPI_Rget(&x, 1, MPI_INT, right, 1, 1, MPI_INT, win, &req),
	       MPI_ERR_RMA_SYNC, what);
	x = 10 + rank;
	MPI_Put(&x, 1, MPI_INT, right, 1, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	bad += mem[1] != 10 + (rank + size - 1) % size;
	MPI_Win_free(&win);
	bad += win != MPI_WIN_NULL;

	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("one-sided epoch errors on %d ranks: %s (%d bad)\n",
		       size, all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
