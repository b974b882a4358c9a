/* win_kinds.c - the kinds of window and what a window tells about itself
 * (MPI 4.0, sec. 12.2), and derived datatypes on both sides of an
 * operation (sec. 12.3):
 *   - MPI_Win_allocate_shared on the communicator of MPI_Comm_split_type
 *     (MPI_COMM_TYPE_SHARED): rank r allocates r + 1 ints, one block in
 *     rank order; MPI_Win_shared_query gives every rank's memory, which
 *     the others read with plain loads; MPI_PROC_NULL names rank 0's;
 *     with alloc_shared_noncontig each rank's memory is still queried;
 *   - MPI_Win_create_dynamic: each rank attaches memory, its address
 *     (MPI_Get_address, MPI_Aint_add) is the target displacement of puts
 *     and gets; then it detaches;
 *   - MPI_WIN_CREATE_FLAVOR of the four kinds, MPI_WIN_MODEL,
 *     MPI_Win_get_group, MPI_Win_set_info / MPI_Win_get_info;
 *   - MPI_Win_set_errhandler(MPI_ERRORS_RETURN): MPI_Win_complete
 *     without MPI_Win_start and MPI_Win_wait without MPI_Win_post return
 *     MPI_ERR_RMA_SYNC;
 *   - MPI_Put, MPI_Get and MPI_Accumulate with a strided origin
 *     (MPI_Type_vector) and an indexed target, both of ints.
 * Every rank checks; rank 0 prints the verdict.
 *
 * ref-osc: sm,pt2pt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int flavor(MPI_Win win)
{
	int *f, flag;

	MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag);
	return flag ? *f : -1;
}

static int shared(MPI_Comm shm, int rank, int size, int noncontig)
{
	int bad = 0, r, i, unit, *mine, *other, *model, flag;
	MPI_Aint bytes, want;
	MPI_Info info;
	MPI_Win win;

	MPI_Info_create(&info);
	if (noncontig)
		MPI_Info_set(info, "alloc_shared_noncontig", "true");
	MPI_Win_allocate_shared((MPI_Aint)(rank + 1) * sizeof(int), sizeof(int),
				info, shm, &mine, &win);
	MPI_Info_free(&info);
	bad += flavor(win) != MPI_WIN_FLAVOR_SHARED;
	MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
	bad += !flag || *model != MPI_WIN_UNIFIED;
	MPI_Win_fence(0, win);
	for (i = 0; i <= rank; i++)
		mine[i] = 100 * rank + i;
	MPI_Win_fence(0, win);
	for (r = 0; r < size; r++) {
		MPI_Win_shared_query(win, r, &bytes, &unit, &other);
		/* at least the size asked for (Open MPI rounds noncontig
		 * memories up to a page) */
		want = (MPI_Aint)(r + 1) * (MPI_Aint)sizeof(int);
		bad += (noncontig ? bytes < want : bytes != want) ||
		       unit != sizeof(int);
		for (i = 0; i <= r; i++)
			bad += other[i] != 100 * r + i;
		/* the default layout: rank r's memory follows rank r - 1's */
		if (!noncontig)
			bad += other - mine != r * (r + 1) / 2 -
						   rank * (rank + 1) / 2;
	}
	MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &other);
	bad += bytes < (MPI_Aint)sizeof(int) || other[0] != 0;
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);
	return bad;
}

static int dynamic(int rank, int size)
{
	int bad = 0, *cells = malloc(4 * sizeof(int)), got = -1;
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Aint mine, *addr = malloc((size_t)size * sizeof(MPI_Aint));
	MPI_Win win;

	MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	bad += flavor(win) != MPI_WIN_FLAVOR_DYNAMIC;
	cells[0] = -1;
	cells[1] = 10 * rank;
	MPI_Win_attach(win, cells, 4 * sizeof(int));
	MPI_Get_address(cells, &mine);
	MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
	MPI_Win_fence(0, win);
	MPI_Put(&rank, 1, MPI_INT, right, addr[right], 1, MPI_INT, win);
	MPI_Get(&got, 1, MPI_INT, left, MPI_Aint_add(addr[left], sizeof(int)),
		1, MPI_INT, win);
	MPI_Win_fence(0, win);
	bad += cells[0] != left || got != 10 * left;
	bad += MPI_Aint_diff(MPI_Aint_add(mine, 8), mine) != 8;
	MPI_Win_detach(win, cells);
	MPI_Win_free(&win);
	free(cells);
	free(addr);
	return bad;
}

/* Flavors, group, info, an error returned; derived datatypes. */
static int created(int rank, int size)
{
	int bad = 0, mem[16], *amem, i, cls, right = (rank + 1) % size;
	int origin[12], back[12], disps[3] = { 1, 5, 9 }, cmp;
	MPI_Datatype strided, indexed;
	MPI_Group g, wg;
	MPI_Info info, used;
	MPI_Win win, awin;

	for (i = 0; i < 16; i++)
		mem[i] = 0;
	MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &win);
	MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &amem, &awin);
	bad += flavor(win) != MPI_WIN_FLAVOR_CREATE;
	bad += flavor(awin) != MPI_WIN_FLAVOR_ALLOCATE;
	MPI_Win_get_group(win, &g);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_compare(g, wg, &cmp);
	bad += cmp != MPI_IDENT;
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	MPI_Info_create(&info);
	MPI_Info_set(info, "no_locks", "true");
	bad += MPI_Win_set_info(win, info) != MPI_SUCCESS;
	bad += MPI_Win_get_info(win, &used) != MPI_SUCCESS;
	MPI_Info_free(&used);
	MPI_Info_free(&info);
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	MPI_Error_class(MPI_Win_complete(win), &cls);
	bad += cls != MPI_ERR_RMA_SYNC;
	MPI_Error_class(MPI_Win_wait(win), &cls);
	bad += cls != MPI_ERR_RMA_SYNC;

	/* origin: ints 0, 1, 4, 5, 8, 9 of 12 (3 blocks of 2, stride 4);
	 * target: ints 1, 2, 5, 6, 9, 10 (3 blocks of 2 at 1, 5, 9) */
	for (i = 0; i < 12; i++)
		origin[i] = 1000 * rank + i;
	MPI_Type_vector(3, 2, 4, MPI_INT, &strided);
	MPI_Type_create_indexed_block(3, 2, disps, MPI_INT, &indexed);
	MPI_Type_commit(&strided);
	MPI_Type_commit(&indexed);
	MPI_Win_fence(0, win);
	MPI_Put(origin, 1, strided, right, 0, 1, indexed, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < 12; i++)
		back[i] = -1;
	MPI_Get(back, 1, strided, right, 0, 1, indexed, win);
	MPI_Win_fence(0, win);
	MPI_Accumulate(origin, 1, strided, right, 0, 1, indexed, MPI_SUM, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < 3; i++) {
		int left = (rank + size - 1) % size, o = 4 * i;

		/* the left neighbour's ints 4i, 4i + 1, put then added */
		bad += mem[disps[i]] != 2 * (1000 * left + o);
		bad += mem[disps[i] + 1] != 2 * (1000 * left + o + 1);
		/* what this rank put into the right one, read back */
		bad += back[o] != 1000 * rank + o ||
		       back[o + 1] != 1000 * rank + o + 1 ||
		       back[o + 2] != -1;
	}
	MPI_Type_free(&strided);
	MPI_Type_free(&indexed);
	MPI_Win_free(&awin);
	MPI_Win_free(&win);
	return bad;
}

int main(int argc, char **argv)
{
	int rank, size, bad = 0, all_bad, shm_size, shm_rank;
	MPI_Comm shm;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &shm);
	MPI_Comm_size(shm, &shm_size);
	MPI_Comm_rank(shm, &shm_rank);
	bad += shm_size != size || shm_rank != rank;
	bad += shared(shm, shm_rank, shm_size, 0);
	bad += shared(shm, shm_rank, shm_size, 1);
	bad += dynamic(rank, size);
	bad += created(rank, size);
	MPI_Comm_free(&shm);
	MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("window kinds on %d ranks: %s (%d bad)\n", size,
		       all_bad ? "WRONG" : "ok", all_bad);
	MPI_Finalize();
	return 0;
}
