/*
 * intercomm_attrs.c - attributes and comparisons on intercommunicators
 * (MPI 4.0 sec. 7.4.1, 7.7.2), and MPI_Comm_disconnect (sec. 11.10.4).
 * The world's lower and upper halves make an intercommunicator; an
 * attribute set on it is copied to its duplicate by the copy callback
 * and deleted with each by the delete callback; the duplicate compares
 * MPI_CONGRUENT with it, itself MPI_IDENT, MPI_COMM_WORLD MPI_UNEQUAL;
 * a duplicate of MPI_COMM_WORLD with an inactive persistent request on
 * it is disconnected. On one rank, only the disconnect.
 */
#include <mpi.h>
#include <stdio.h>

static int copies, deletes;

static int copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out,
		   int *flag)
{
	(void)c, (void)key, (void)extra;
	*(void **)out = in;
	*flag = 1;
	copies++;
	return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c, (void)key, (void)val, (void)extra;
	deletes++;
	return MPI_SUCCESS;
}

/* the number of wrong answers on this rank */
static int inter(int rank, int np)
{
	MPI_Comm half, ic, dup;
	int key, flag = 0, bad = 0, res, lower = rank < np / 2;
	void *got = NULL;

	MPI_Comm_split(MPI_COMM_WORLD, lower, rank, &half);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, lower ? np / 2 : 0, 7,
			     &ic);
	MPI_Comm_create_keyval(copy_fn, delete_fn, &key, NULL);
	MPI_Comm_set_attr(ic, key, (void *)(MPI_Aint)(rank + 100));
	MPI_Comm_dup(ic, &dup);
	MPI_Comm_get_attr(dup, key, &got, &flag);
	bad += !flag || (MPI_Aint)got != rank + 100;
	MPI_Comm_compare(ic, dup, &res);
	bad += res != MPI_CONGRUENT;
	MPI_Comm_compare(ic, ic, &res);
	bad += res != MPI_IDENT;
	MPI_Comm_compare(ic, MPI_COMM_WORLD, &res);
	bad += res != MPI_UNEQUAL;
	MPI_Comm_delete_attr(dup, key);
	MPI_Comm_get_attr(dup, key, &got, &flag);
	bad += flag;
	MPI_Comm_free(&dup);
	MPI_Comm_free(&ic);
	MPI_Comm_free_keyval(&key);
	MPI_Comm_free(&half);
	bad += copies != 1 || deletes != 2;
	return bad;
}

int main(int argc, char **argv)
{
	int rank, np, bad = 0, all;
	MPI_Comm d;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (np > 1)
		bad += inter(rank, np);
	MPI_Comm_dup(MPI_COMM_WORLD, &d);
	MPI_Recv_init(NULL, 0, MPI_INT, 0, 0, d, &req);
	MPI_Comm_disconnect(&d);
	bad += d != MPI_COMM_NULL;
	MPI_Request_free(&req);
	MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("intercommunicator attributes and comparisons, "
		       "disconnect: %s (%d bad)\n",
		       all ? "FAILED" : "ok", all);
	MPI_Finalize();
	return 0;
}
