/* comm_ctors.c - every communicator constructor, with the groups MPI
 * allows to differ between ranks: MPI_Comm_create with one group on every
 * rank, with disjoint groups (MPI 2.2 and later: each rank passes the group
 * it joins, listed in any order), and with MPI_GROUP_EMPTY on a rank that
 * joins none; MPI_Comm_create_group called by a rank outside the group
 * (MPI_COMM_NULL); MPI_Comm_split with MPI_UNDEFINED; MPI_Comm_dup,
 * MPI_Cart_create (on fewer ranks than the communicator has), MPI_Cart_sub,
 * MPI_Graph_create (likewise) and MPI_Dist_graph_create_adjacent on the
 * split halves; MPI_Comm_create_group on a new random subset in each of 20
 * rounds (MPICH's comm/comm_group_rand). On each new communicator every
 * rank sums the world ranks of its members with MPI_Allreduce; rank 0
 * prints, per constructor, each rank's place, size and sum ("-" for
 * MPI_COMM_NULL).
 *
 * no-ref: comm_ctors.N.out is Open MPI's output, kept
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int world_rank, world_size;

/* Rank 0 prints "what: rank/size:sum ..." over the world's ranks. */
static void report(const char *what, MPI_Comm c)
{
	int mine[3] = { -1, 0, -1 }, *all = NULL, i;

	if (c != MPI_COMM_NULL) {
		MPI_Comm_rank(c, &mine[0]);
		MPI_Comm_size(c, &mine[1]);
		MPI_Allreduce(&world_rank, &mine[2], 1, MPI_INT, MPI_SUM, c);
	}
	if (world_rank == 0)
		all = malloc(sizeof(int) * 3 * world_size);
	MPI_Gather(mine, 3, MPI_INT, all, 3, MPI_INT, 0, MPI_COMM_WORLD);
	if (world_rank)
		return;
	printf("%s:", what);
	for (i = 0; i < world_size; i++)
		if (all[3 * i + 1])
			printf(" %d/%d:%d", all[3 * i], all[3 * i + 1],
			       all[3 * i + 2]);
		else
			printf(" -");
	printf("\n");
	free(all);
}

static void done(MPI_Comm *c)
{
	if (*c != MPI_COMM_NULL)
		MPI_Comm_free(c);
}

/* The group of world ranks from lo to hi (step -1 when hi < lo). */
static MPI_Group span(MPI_Group world, int lo, int hi)
{
	int m[256], n = 0, i, step = hi < lo ? -1 : 1;
	MPI_Group g;

	for (i = lo; i != hi + step; i += step)
		m[n++] = i;
	MPI_Group_incl(world, n, m, &g);
	return g;
}

int main(int argc, char **argv)
{
	int half, i, j, n, m[256], in, index[256], edges[512], dims[1];
	int period = 0, keep = 1, src, dst, weight = 1;
	MPI_Group world, g, evens;
	MPI_Comm c, sub, d, cart, row, graph, dist;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &world_size);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	half = world_size / 2;

	/* one group (the even ranks) on every rank */
	for (i = 0, n = 0; i < world_size; i += 2)
		m[n++] = i;
	MPI_Group_incl(world, n, m, &evens);
	MPI_Group_excl(world, n, m, &g); /* the odd ranks */
	MPI_Group_size(g, &i);
	if (i != world_size - n)
		printf("rank %d: MPI_Group_excl left %d ranks\n", world_rank, i);
	MPI_Group_free(&g);
	MPI_Comm_create(MPI_COMM_WORLD, evens, &c);
	report("create, one group", c);
	done(&c);

	/* disjoint groups: the low half in order, the high half reversed */
	g = world_rank < half ? span(world, 0, half - 1)
			      : span(world, world_size - 1, half);
	MPI_Comm_create(MPI_COMM_WORLD, g, &c);
	report("create, disjoint groups", c);
	MPI_Group_free(&g);
	done(&c);

	/* the even ranks' group, and each odd rank its own but the last,
	 * which joins none */
	if (world_rank % 2 == 0)
		g = evens;
	else if (world_rank == world_size - 1)
		g = MPI_GROUP_EMPTY;
	else
		MPI_Group_incl(world, 1, &world_rank, &g);
	MPI_Comm_create(MPI_COMM_WORLD, g, &c);
	report("create, singletons and one group", c);
	if (g != evens && g != MPI_GROUP_EMPTY)
		MPI_Group_free(&g);
	done(&c);

	/* MPI_Comm_create_group on every rank, members or not */
	MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &c);
	report("create_group, called by all", c);
	done(&c);

	/* split: every third rank stays out; keys reverse the order */
	MPI_Comm_split(MPI_COMM_WORLD,
		       world_rank % 3 == 2 ? MPI_UNDEFINED : world_rank % 3,
		       -world_rank, &c);
	report("split, undefined", c);
	done(&c);

	/* the halves, and what is built on them */
	MPI_Comm_split(MPI_COMM_WORLD, world_rank < half, world_rank, &sub);
	report("split, halves", sub);
	MPI_Comm_dup(sub, &d);
	report("dup", d);
	MPI_Comm_size(sub, &n);
	dims[0] = n > 1 ? n - 1 : 1; /* one rank left out when n > 1 */
	MPI_Cart_create(sub, 1, dims, &period, 0, &cart);
	report("cart_create", cart);
	if (cart != MPI_COMM_NULL) {
		MPI_Cart_sub(cart, &keep, &row);
		report("cart_sub", row);
		done(&row);
	} else {
		report("cart_sub", MPI_COMM_NULL);
	}
	done(&cart);
	for (i = 0, j = 0; i < dims[0]; i++) { /* a ring of dims[0] nodes */
		if (dims[0] > 1)
			edges[j++] = (i + 1) % dims[0];
		index[i] = j;
	}
	MPI_Graph_create(sub, dims[0], index, edges, 0, &graph);
	report("graph_create", graph);
	done(&graph);
	MPI_Comm_rank(sub, &i);
	src = (i + n - 1) % n;
	dst = (i + 1) % n;
	MPI_Dist_graph_create_adjacent(sub, 1, &src, &weight, 1, &dst, &weight,
				       MPI_INFO_NULL, 0, &dist);
	report("dist_graph_create_adjacent", dist);
	done(&dist);
	done(&d);
	done(&sub);

	/* ranks 0 .. size / 2 by a range (MPICH's comm/comm_group_half);
	 * only they call. Every other rank by range_excl, all call. */
	{
		int range[1][3] = { { 0, world_size / 2, 1 } };
		int odd[1][3] = { { 1, world_size - 1, 2 } };

		MPI_Group_range_incl(world, 1, range, &g);
		c = MPI_COMM_NULL;
		if (world_rank <= world_size / 2)
			MPI_Comm_create_group(MPI_COMM_WORLD, g, 3, &c);
		report("create_group, range_incl", c);
		MPI_Group_free(&g);
		done(&c);
		MPI_Group_range_excl(world, world_size > 1, odd, &g);
		MPI_Comm_create(MPI_COMM_WORLD, g, &c);
		report("create, range_excl", c);
		MPI_Group_free(&g);
		done(&c);
	}

	/* random subsets, the same on every rank; only members call */
	for (j = 0; j < 20; j++) {
		srand(j);
		for (i = 0, n = 0, in = 0; i < world_size; i++)
			if (rand() % 2) {
				in |= i == world_rank;
				m[n++] = i;
			}
		MPI_Group_incl(world, n, m, &g);
		if (in) {
			MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &c);
			MPI_Barrier(c);
			MPI_Comm_free(&c);
		}
		MPI_Group_free(&g);
	}
	if (world_rank == 0)
		printf("create_group, 20 random subsets: ok\n");
	MPI_Group_free(&evens);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
