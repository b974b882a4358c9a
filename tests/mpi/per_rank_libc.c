/* per_rank_libc.c - the state libc keeps for a process is each rank's
 * own: every rank parses its own options with getopt_long (optind, optarg
 * and the permutation of argv), seeds rand, random, initstate and drand48
 * with its rank and draws what a process seeded so draws, tokenizes its
 * own string with strtok, sets its own locale and reads gmtime's result
 * buffer, all in lock step with the other ranks (a barrier after every
 * call), so that ranks sharing that state would see each other's; given
 * an argument "A:B", every rank takes it apart with strtok, which writes
 * into the rank's argv strings (as the OSU benchmarks do with -m). Each
 * rank checks itself; rank 0 prints the count of failed checks and a few
 * values drawn on the last rank, which a real MPI's processes draw too.
 *
 * ref-np: 4 (each mpirun costs seconds)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <locale.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 12 /* more than any rank's getopt calls */

static int rank, bad;

static void expect(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "rank %d: %s\n", rank, what);
		bad++;
	}
}

static void step(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

/* "prog file -v... -n R --size R:R+64 -- -x", with 1 + R % 3 v's */
static void options(void)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	char n[16], size[32], vs[8] = "-vvv", prog[] = "per_rank_libc",
			       file[] = "file", dash[] = "--", x[] = "-x",
			       nopt[] = "-n", sopt[] = "--size";
	char *argv[] = { prog, file, vs, nopt, n, sopt, size, dash, x, NULL };
	int argc = 9, c, i, v = 0, num = -1, lo = -1, hi = -1, done = 0;

	snprintf(n, sizeof(n), "%d", rank);
	snprintf(size, sizeof(size), "%d:%d", rank, rank + 64);
	vs[2 + rank % 3] = '\0';
	opterr = 0;
	for (i = 0; i < ROUNDS; i++, step()) {
		if (done)
			continue;
		c = getopt_long(argc, argv, "vn:", longopts, NULL);
		if (c == 'v')
			v++;
		else if (c == 'n')
			num = atoi(optarg);
		else if (c == 's')
			lo = atoi(optarg); /* strtok below takes it apart */
		else
			done = 1;
	}
	expect(v == 1 + rank % 3, "getopt: the count of -v");
	expect(num == rank, "getopt: -n's argument");
	expect(lo == rank, "getopt: --size's argument");
	expect(optind == argc - 2 && !strcmp(argv[optind], "file") &&
		       !strcmp(argv[optind + 1], "-x"),
	       "getopt: optind and the non-options permuted to the end");
	/* the argument "R:R+64" in tokens, a call of each rank at a time */
	lo = atoi(strtok(size, ":"));
	step();
	hi = atoi(strtok(NULL, ":"));
	step();
	expect(lo == rank && hi == rank + 64 && !strtok(NULL, ":"),
	       "strtok: the tokens of the rank's own string");
	step();
}

/* k draws of each generator, seeded with the rank, in lock step, then
 * again alone: the two must agree. *last holds the lock-step draws. */
static void generators(long last[4])
{
	static char state[64];
	long a[4], b[4];
	int i;

	initstate((unsigned)rank + 7, state, sizeof(state));
	srand48(rank);
	for (i = 0; i < 4; i++) {
		setstate(state); /* initstate's own array */
		a[0] = random();
		step();
		a[1] = lrand48();
		step();
		a[2] = mrand48();
		step();
		a[3] = (long)(drand48() * 1e6);
		step();
	}
	srand48(rank);
	for (i = 0; i < 4; i++) {
		b[1] = lrand48();
		b[2] = mrand48();
		b[3] = (long)(drand48() * 1e6);
	}
	initstate((unsigned)rank + 7, state, sizeof(state));
	for (i = 0; i < 4; i++)
		b[0] = random();
	expect(a[0] == b[0], "initstate/random: the rank's sequence");
	expect(a[1] == b[1] && a[2] == b[2] && a[3] == b[3],
	       "srand48/lrand48/mrand48/drand48: the rank's sequence");
	for (i = 0; i < 4; i++)
		last[i] = a[i];
}

/* argv's strings are the rank's own: strtok writes a '\0' into them */
static void argument(char *arg)
{
	char *a, *b;

	a = strtok(arg, ":");
	step();
	b = strtok(NULL, ":");
	step();
	expect(a && b && strchr(a, '\0') == b - 1,
	       "strtok on argv[1]: the rank's own copy of the string");
	step();
}

static void rand_sequence(long *first)
{
	int i, a[5], b[5];
	srand((unsigned)rank);
	for (i = 0; i < 5; i++, step())
		a[i] = rand();
	srand((unsigned)rank);
	for (i = 0; i < 5; i++)
		b[i] = rand();
	expect(!memcmp(a, b, sizeof(a)), "srand/rand: the rank's sequence");
	*first = a[0];
}

static void locale_and_time(void)
{
	const char *mine = rank % 2 ? "C" : "C.UTF-8";
	time_t t = (time_t)rank * 86400;
	struct tm *tm;

	expect(setlocale(LC_ALL, mine) != NULL, "setlocale: C.UTF-8 exists");
	step();
	expect(!strcmp(setlocale(LC_ALL, NULL), mine),
	       "setlocale: the rank's locale");
	expect(MB_CUR_MAX == (rank % 2 ? 1u : 6u),
	       "setlocale: MB_CUR_MAX of the rank's locale");
	step();
	setlocale(LC_ALL, "C");
	tm = gmtime(&t);
	step();
	expect(tm->tm_mday == 1 + rank % 28 && tm->tm_year == 70,
	       "gmtime: the rank's result");
	step();
}

int main(int argc, char **argv)
{
	int p;
	long last[4], first;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	options();
	if (argc > 1)
		argument(argv[1]);
	rand_sequence(&first);
	generators(last);
	locale_and_time();
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == p - 1 && p > 1) {
		MPI_Send(&first, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
		MPI_Send(last, 4, MPI_LONG, 0, 1, MPI_COMM_WORLD);
	}
	if (rank == 0 && p > 1) {
		MPI_Recv(&first, 1, MPI_LONG, p - 1, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Recv(last, 4, MPI_LONG, p - 1, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
	if (rank == 0)
		printf("per-rank libc on %d ranks: %s (%d bad); rank %d draws "
		       "rand %ld random %ld lrand48 %ld mrand48 %ld "
		       "drand48 %ld\n",
		       p, bad ? "shared" : "ok", bad, p - 1, first, last[0],
		       last[1], last[2], last[3]);
	MPI_Finalize();
	return 0;
}
