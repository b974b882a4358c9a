/*
 * over_mpi.c - vp-bench --transport mpi, under mpirun (make MPI=1): vp's
 * collectives over the mpi transport (vp's algorithms on MPI
 * point-to-point, one rank per process) next to the same MPI library's own
 * calls, in the same job, with the same loop (mpi_loops.h and
 * measure_op), and the probes that bound them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_rows.h"
#include "compare_set.h"
#include "measure_op.h"
#include "modes.h"
#include "vp.h"

#ifdef VP_HAVE_MPI
#include <mpi.h>

#include "../mpi/mpi_forced.h"
#include "../mpi/mpi_loops.h"

/*
 * The probe beside the 8-byte ping-pong: what the mpi transport's own use
 * of MPI costs with no vp above it. Ranks 0 and 1 bounce a 56-byte message
 * (the transport's 48-byte header and 8 bytes) with MPI_Send into a ring
 * of 16 pre-posted MPI_ANY_SOURCE receives of 4 KiB, taken oldest first
 * with MPI_Test and reposted before the next wait, as runtime/mpi/
 * arrivals.c does. Returns rank 0's median one-way time in us.
 */
#define SLOT_PROBE_SLOTS 16
#define SLOT_PROBE_BYTES 4096
/* what the transport puts on the wire for an 8-byte message: its 48-byte
 * header (struct mpt_header: kind, context, tag, sync id, length and the
 * model's envelope) and the payload */
#define WIRE_BYTES_OF_8 56
/* Reposts the *taken receives of the probes' ring that come before head
 * (the oldest first), as the transport does before it waits again. */
static void probe_repost(char (*slot)[SLOT_PROBE_BYTES], MPI_Request *req,
			 int head, int *taken, MPI_Comm c)
{
	for (; *taken; (*taken)--) {
		int k = (head + SLOT_PROBE_SLOTS - *taken) % SLOT_PROBE_SLOTS;

		MPI_Irecv(slot[k], SLOT_PROBE_BYTES, MPI_BYTE, MPI_ANY_SOURCE,
			  0, c, &req[k]);
	}
}

static double slot_pingpong_us(int iters, int me)
{
	static char slot[SLOT_PROBE_SLOTS][SLOT_PROBE_BYTES];
	MPI_Request req[SLOT_PROBE_SLOTS];
	char msg[WIRE_BYTES_OF_8] = { 0 };
	double *span = calloc((size_t)iters, sizeof(double)), t0, mid = 0;
	int head = 0, taken = 0, i, k, warm = iters / 10 + 2, flag;

	if (!span)
		return 0;
	for (k = 0; k < SLOT_PROBE_SLOTS; k++)
		MPI_Irecv(slot[k], SLOT_PROBE_BYTES, MPI_BYTE, MPI_ANY_SOURCE,
			  0, MPI_COMM_WORLD, &req[k]);
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = -warm; i < iters; i++) {
		int turn;

		t0 = MPI_Wtime();
		for (turn = 0; turn < 2 && me < 2; turn++) {
			if (turn == me) {
				MPI_Send(msg, sizeof(msg), MPI_BYTE, 1 - me, 0,
					 MPI_COMM_WORLD);
				continue;
			}
			probe_repost(slot, req, head, &taken, MPI_COMM_WORLD);
			do
				MPI_Test(&req[head], &flag, MPI_STATUS_IGNORE);
			while (!flag);
			head = (head + 1) % SLOT_PROBE_SLOTS;
			taken++;
		}
		if (i >= 0)
			span[i] = (MPI_Wtime() - t0) * 1e6 / 2;
	}
	for (k = 0; k < SLOT_PROBE_SLOTS; k++)
		if (req[k] != MPI_REQUEST_NULL) {
			MPI_Cancel(&req[k]);
			MPI_Wait(&req[k], MPI_STATUS_IGNORE);
		}
	MPI_Barrier(MPI_COMM_WORLD);
	qsort(span, (size_t)iters, sizeof(double), mpi_cmp_double);
	mid = span[iters / 2];
	free(span);
	return mid;
}

/*
 * The probe beside the barrier row: the transport's MPI pattern alone, as
 * a dissemination barrier (Hensgen, Finkel and Manber 1988; log2 p rounds,
 * in round k rank r sends to r + 2^k and hears from r - 2^k) with nothing
 * of vp above it. Each round is a 48-byte MPI_Send (the size of the
 * transport's header) into the partner's ring of 16 pre-posted
 * MPI_ANY_SOURCE receives, which are tested oldest first; a message says
 * its round, since a rank ahead may already send the next barrier's. The
 * same loop as every row (a barrier before each call, the slowest rank's
 * time). Returns rank 0's median in us.
 */
static double barrier_pattern_us(int iters, int p, int me)
{
	static char slot[SLOT_PROBE_SLOTS][SLOT_PROBE_BYTES];
	MPI_Request req[SLOT_PROBE_SLOTS];
	MPI_Comm c;
	double *span = calloc((size_t)iters, sizeof(double));
	double *slowest = calloc((size_t)iters, sizeof(double)), mid = 0;
	int arrived[32] = { 0 }, msg[12] = { 0 };
	int head = 0, taken = 0, i, k, warm = iters / 10 + 2, flag;

	if (!span || !slowest) {
		free(span);
		free(slowest);
		return 0;
	}
	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	for (k = 0; k < SLOT_PROBE_SLOTS; k++)
		MPI_Irecv(slot[k], SLOT_PROBE_BYTES, MPI_BYTE, MPI_ANY_SOURCE,
			  0, c, &req[k]);
	for (i = -warm; i < iters; i++) {
		double t0;
		int d, round;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (d = 1, round = 0; d < p; d <<= 1, round++) {
			msg[0] = round;
			MPI_Send(msg, sizeof(msg), MPI_BYTE, (me + d) % p, 0,
				 c);
			probe_repost(slot, req, head, &taken, c);
			while (!arrived[round]) {
				MPI_Test(&req[head], &flag, MPI_STATUS_IGNORE);
				if (!flag)
					continue;
				arrived[*(int *)slot[head]]++;
				head = (head + 1) % SLOT_PROBE_SLOTS;
				taken++;
			}
			arrived[round]--;
		}
		if (i >= 0)
			span[i] = (MPI_Wtime() - t0) * 1e6;
	}
	for (k = 0; k < SLOT_PROBE_SLOTS; k++)
		if (req[k] != MPI_REQUEST_NULL) {
			MPI_Cancel(&req[k]);
			MPI_Wait(&req[k], MPI_STATUS_IGNORE);
		}
	MPI_Comm_free(&c);
	MPI_Reduce(span, slowest, iters, MPI_DOUBLE, MPI_MAX, 0,
		   MPI_COMM_WORLD);
	if (me == 0) {
		qsort(slowest, (size_t)iters, sizeof(double), mpi_cmp_double);
		mid = slowest[iters / 2];
	}
	free(span);
	free(slowest);
	return mid;
}

/*
 * The probe of the ping-pong's limit: MPI's own ping-pong (the same loop as
 * its 8-byte row) of 12 bytes and of the WIRE_BYTES_OF_8 bytes the
 * transport sends for an 8-byte message. In Open MPI 4.1's shared-memory
 * fast box a message's header and up to about 10 bytes of payload share
 * one cache line; a longer payload takes a second line, which the
 * receiver fetches from the sender's core. The envelope vp piggy-backs (the model's arrival
 * time alone is 8 bytes) makes every vp message at least two lines.
 * On rank 0, *twelve and *wire: the medians in us.
 */
static void wire_pingpong_probe(int iters, int p, int me, double *twelve,
				double *wire)
{
	double t[4] = { 0, 0, 0, 0 };

	mpi_measure("pingpong", 12, iters, p, me, t);
	*twelve = t[1];
	mpi_measure("pingpong", WIRE_BYTES_OF_8, iters, p, me, t);
	*wire = t[1];
}

/*
 * The probe beside the 64 KiB collectives: ranks 0 and 1 exchange 64 KiB
 * with MPI_Sendrecv after a memcpy into a buffer, sending either that
 * buffer or another one: a write into memory the partner has just read
 * through Open MPI's single copy (process_vm_readv) can be far slower
 * than a plain memcpy; vp's doubling algorithms send from the
 * receive buffer that the next call rewrites, Open MPI's two-process
 * algorithms from the caller's send buffer. *written / *other: the median
 * memcpy in us on rank 0, sending the written buffer / another one.
 */
static void rewrite_probe(int iters, int me, double *written, double *other)
{
	enum { BYTES = 65536 };
	char *src = malloc(BYTES), *buf = malloc(BYTES), *in = malloc(BYTES);
	double *span = calloc((size_t)iters, sizeof(double)), t0;
	int i, k, peer = me < 2 ? 1 - me : MPI_PROC_NULL;

	*written = *other = 0;
	if (!src || !buf || !in || !span)
		goto out;
	memset(src, 1, BYTES);
	memset(buf, 2, BYTES);
	for (k = 0; k < 2; k++) {
		for (i = -iters / 10 - 2; i < iters; i++) {
			t0 = MPI_Wtime();
			memcpy(buf, src, BYTES);
			if (i >= 0)
				span[i] = (MPI_Wtime() - t0) * 1e6;
			MPI_Sendrecv(k ? src : buf, BYTES, MPI_BYTE, peer, 0,
				     in, BYTES, MPI_BYTE, peer, 0,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		qsort(span, (size_t)iters, sizeof(double), mpi_cmp_double);
		*(k ? other : written) = span[iters / 2];
	}
out:
	free(src);
	free(buf);
	free(in);
	free(span);
}

/* What the rows found, for the summary under them (rank 0's). */
struct over_state {
	double pp_vp, pp_mpi, slot, pp_twelve, pp_wire, bar_pattern;
	double rewritten, fresh;
	int within, all, same_within, same_all;
	int pp_ok; /* the 8-byte ping-pong's goal; -1 not measured */
};

static void over_header(int p, int ncpu)
{
	printf("# vp over MPI (the mpi transport) and the MPI library's "
	       "own calls, p = %d processes on %d CPUs%s; medians in "
	       "us\n",
	       p, ncpu, p > ncpu ? " (oversubscribed)" : "");
	printf("# mpi_us: the library's own call as it chooses; "
	       "same_us: the library's call made to run vp's "
	       "algorithm (\"-\" where it has none or cannot be "
	       "told)\n");
	printf("# %-10s %8s %12s %12s %7s %12s %8s  %s\n", "op", "bytes",
	       "vp_us", "mpi_us", "vp/mpi", "same_us", "vp/same",
	       "vp's algorithm");
}

/* The probes right beside the rows they explain (every rank takes part:
 * the same rows on every rank). */
static void over_probes(const struct row *want, int p, int me,
			struct over_state *st)
{
	if (!strcmp(want->op, "pingpong") && want->bytes == 8) {
		st->slot = slot_pingpong_us(want->iters, me);
		wire_pingpong_probe(want->iters, p, me, &st->pp_twelve,
				    &st->pp_wire);
	}
	if (!strcmp(want->op, "barrier"))
		st->bar_pattern = barrier_pattern_us(want->iters, p, me);
	if (!strcmp(want->op, "pingpong") && want->bytes == 65536)
		rewrite_probe(want->iters, me, &st->rewritten, &st->fresh);
}

/* Rank 0's line of a row: vp, the library as it chooses (mpi_us) and
 * running vp's algorithm (same[1], 0 when it cannot). */
static void over_print(const struct row *want, const struct row *vp,
		       double mpi_us, const double *same, const char *alg,
		       struct over_state *st)
{
	const char *op = want->op;
	double ratio = vp->s.p50 / mpi_us;
	char same_us[16] = "-", same_ratio[16] = "-";

	if (same[1] > 0) {
		snprintf(same_us, sizeof(same_us), "%.3f", same[1]);
		snprintf(same_ratio, sizeof(same_ratio), "%.2f",
			 vp->s.p50 / same[1]);
		st->same_all++;
		st->same_within += vp->s.p50 / same[1] <= 1.5;
	}
	printf("  %-10s %8zu %12.3f %12.3f %7.2f %12s %8s  %s\n", op,
	       want->bytes, vp->s.p50, mpi_us, ratio, same_us, same_ratio, alg);
	if (!strcmp(op, "barrier") && st->bar_pattern > 0)
		printf("#   probe: the transport's MPI pattern "
		       "alone as this barrier (a 48-byte "
		       "MPI_Send into the pre-posted "
		       "receives, log2 p rounds): %.3f us; "
		       "vp %.2fx it\n",
		       st->bar_pattern, vp->s.p50 / st->bar_pattern);
	if (!strcmp(op, "pingpong") && want->bytes == 8) {
		st->pp_ok = ratio <= 1.10;
		st->pp_vp = vp->s.p50;
		st->pp_mpi = mpi_us;
	}
	if (strcmp(op, "pingpong")) {
		st->all++;
		st->within += ratio <= 1.5;
	}
	fflush(stdout);
}

/* One row on every rank: the library's loop, vp's, the probes, and the
 * library running vp's algorithm on a duplicate of MPI_COMM_WORLD made
 * for it. 0, or 1 when vp's run failed. */
static int over_row(const struct row *want, int p, int me,
		    struct over_state *st)
{
	const char *op = want->op, *alg;
	double t[4] = { 0, 0, 0, 0 }, same[4];
	struct row vp;
	MPI_Comm forced;
	char spec[32];

	spec_of(p, op, spec, sizeof(spec));
	mpi_measure(op, (int)want->bytes, want->iters, p, me, t);
	if (measure_op(op, VP_ALG_AUTO, spec, want->bytes, want->iters, &vp))
		return 1;
	over_probes(want, p, me, st);
	alg = strcmp(op, "pingpong") && strcmp(op, "barrier")
		  ? vp_alg_name(vp.chosen)
	      : !strcmp(op, "barrier") ? "dissemination"
				       : "-";
	same[1] = 0;
	if (mpi_forced_comm(op, alg, p, &forced)) {
		mpi_measure_on(forced, op, (int)want->bytes, want->iters, p, me,
			       same);
		MPI_Comm_free(&forced);
	}
	if (me == 0)
		over_print(want, &vp, t[1], same, alg, st);
	return 0;
}

/* Rank 0's summary: the probes and the goals. */
static void over_summary(const struct over_state *st)
{
	if (st->slot > 0)
		printf("# probe: the transport's MPI pattern alone (a "
		       "56-byte MPI_Send into a ring of pre-posted "
		       "receives): %.3f us one-way, %.2fx MPI's "
		       "ping-pong; vp's layer above it: %.3f us\n",
		       st->slot, st->slot / st->pp_mpi, st->pp_vp - st->slot);
	if (st->rewritten > 0)
		printf("# probe: a 64 KiB memcpy into a buffer the partner has "
		       "just read through MPI: %.3f us; into one it has not: "
		       "%.3f us (%.1fx)\n",
		       st->rewritten, st->fresh, st->rewritten / st->fresh);
	if (st->pp_ok >= 0)
		printf("# goal: 8 B ping-pong, vp adds at most 10%%: "
		       "%s (%.2fx)\n",
		       st->pp_ok ? "met" : "NOT met", st->pp_vp / st->pp_mpi);
	if (st->pp_ok >= 0 && st->pp_wire > 0)
		printf("#   limit: MPI's own ping-pong of 12 B takes "
		       "%.3f us, %.2fx its 8 B; of %d B (vp's 8 B "
		       "with its header) %.3f us; vp adds at most "
		       "10%% to the "
		       "ping-pong of the bytes it sends: %s (%.2fx)\n",
		       st->pp_twelve, st->pp_twelve / st->pp_mpi,
		       WIRE_BYTES_OF_8, st->pp_wire,
		       st->pp_vp <= 1.10 * st->pp_wire ? "met" : "NOT met",
		       st->pp_vp / st->pp_wire);
	printf("# goal: collectives within 1.5x of the library's: %d "
	       "of %d rows\n",
	       st->within, st->all);
	if (st->same_all)
		printf("# the same algorithm on both sides: vp within "
		       "1.5x of the library in %d of %d rows\n",
		       st->same_within, st->same_all);
}

/*
 * Under mpirun: the comparison set of --compare-mpi at p = the job's
 * size, vp over the mpi transport next to the library's own calls. Rank
 * 0 prints; the goals: vp's layer adds at most 10% to an MPI ping-pong,
 * and its collectives are within 1.5x of the library's.
 */
int mode_over_mpi(const struct bench_args *a)
{
	struct row want[64];
	struct over_state st = { .pp_ok = -1 };
	char list[8192];
	int started = 0, flag, provided, p, me, nw, i, rc = 0;

	(void)a;
	MPI_Initialized(&flag);
	if (!flag) {
		mpi_forced_prepare();
		MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
		started = 1;
	}
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	bench_transport = "mpi";
	nw = compare_jobs(p, want, 64, list, sizeof(list));
	if (me == 0)
		over_header(p, (int)sysconf(_SC_NPROCESSORS_ONLN));
	for (i = 0; i < nw && !rc; i++)
		rc = over_row(&want[i], p, me, &st);
	if (!rc && me == 0)
		over_summary(&st);
	mpi_forced_done();
	if (started)
		MPI_Finalize();
	return rc;
}
#else
int mode_over_mpi(const struct bench_args *a)
{
	(void)a;
	fprintf(stderr, "vp-bench: --transport mpi needs the MPI build: make "
			"MPI=1, then mpirun --oversubscribe -np P "
			"build-mpi/vp-bench --transport mpi\n");
	return 2;
}
#endif
