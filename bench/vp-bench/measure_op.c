/*
 * measure_op.c - one operation (a collective, the barrier or the
 * ping-pong), measured the same way for every mode.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_buffer.h"
#include "bench_rows.h"
#include "measure_op.h"
#include "vp.h"

struct op_job {
	const char *op; /* a vp_coll name, "barrier" or "pingpong" */
	vp_alg alg;
	size_t bytes;
	int iters; /* 0: one call alone, for the model time */
	/* p x iters: each rank's time of each call, a rank's calls side by
	 * side, so that no two ranks write one line (the MPI twin's
	 * processes each write an array of their own; ranks writing one
	 * line would move it between CPUs at every call, inside the other
	 * ranks' timed calls) */
	double *span;
	int gather;    /* ranks in other processes: combine span (MAX) */
	vp_alg chosen; /* what AUTO picked (set by rank 0) */
};

/* The transport measure_op runs on: NULL the default (threads), "mpi"
 * for vp-bench --transport mpi. */
const char *bench_transport;

/* What op_call runs: a vp_coll, or one of these (resolved once, before
 * the timed loop, so that the loop times the call and not the lookup; the
 * MPI loop does the same, mpi_loops.h). */
enum { OP_BARRIER = -2, OP_PINGPONG = -3, OP_UNKNOWN = -1 };

static int op_code(const char *op)
{
	if (!strcmp(op, "barrier"))
		return OP_BARRIER;
	if (!strcmp(op, "pingpong"))
		return OP_PINGPONG;
	return (int)vp_coll_parse(op); /* -1 when unknown */
}

/* One call of op (code: op_code's). Reductions sum unsigned bytes, as the
 * MPI twin does. */
static int op_call(vp_comm *c, const struct op_job *j, int code, char *in,
		   char *out)
{
	int p = vp_size(c), me = vp_rank(c), rc;
	size_t n = j->bytes;

	if (code == OP_BARRIER)
		return vp_barrier(c);
	if (code == OP_PINGPONG) {
		if (me == 0)
			return (rc = vp_send(c, 1, in, n))
				   ? rc
				   : vp_recv(c, 1, out, n);
		if (me == 1)
			return (rc = vp_recv(c, 0, out, n))
				   ? rc
				   : vp_send(c, 0, in, n);
		return VP_OK;
	}
	switch ((vp_coll)code) {
	case VP_COLL_BCAST:
		return vp_bcast(c, out, n, VP_BYTE, 0, j->alg);
	case VP_COLL_REDUCE:
		return vp_reduce(c, in, out, n, VP_BYTE, VP_SUM, 0, j->alg);
	case VP_COLL_ALLREDUCE:
		return vp_allreduce(c, in, out, n, VP_BYTE, VP_SUM, j->alg);
	case VP_COLL_ALLGATHER:
		return vp_allgather(c, in, out, n, VP_BYTE, j->alg);
	case VP_COLL_REDUCE_SCATTER:
		return vp_reduce_scatter(c, in, out, n, VP_BYTE, VP_SUM,
					 j->alg);
	case VP_COLL_SCAN:
		return vp_scan(c, in, out, n, VP_BYTE, VP_SUM, j->alg);
	case VP_COLL_SCATTER:
		return vp_scatter(c, in, out, n, VP_BYTE, 0, j->alg);
	case VP_COLL_GATHER:
		return vp_gather(c, in, out, n, VP_BYTE, 0, j->alg);
	case VP_COLL_ALLTOALL:
		return vp_alltoall(c, in, out, n, VP_BYTE, j->alg);
	case VP_COLL_SHIFT:
		return vp_shift(c, in, out, n, VP_BYTE, p / 2 + 1, j->alg);
	default:
		return VP_EINVAL;
	}
}

static int op_body(vp_comm *c, void *arg)
{
	struct op_job *j = arg;
	int p = vp_size(c), me = vp_rank(c), i, rc = 0;
	int code = op_code(j->op), pingpong = code == OP_PINGPONG;
	size_t room = bench_room(j->op, p, j->bytes);
	char *in = bench_buffer(room), *out = bench_buffer(room);

	if (!in || !out) {
		free(in);
		free(out);
		return VP_ENOMEM;
	}
	if (!j->iters) { /* the model's run: one call, nothing else */
		vp_coll op = vp_coll_parse(j->op);

		if (me == 0 && (int)op >= 0)
			j->chosen = j->alg == VP_ALG_AUTO
					? vp_coll_choose(c, op, j->bytes, NULL)
					: j->alg;
		rc = op_call(c, j, code, in, out);
		goto out;
	}
	for (i = 0; i < j->iters / 10 + 2 && !rc; i++)
		rc = op_call(c, j, code, in, out);
	rc = rc ? rc : vp_barrier(c);
	for (i = 0; i < j->iters && !rc; i++) {
		double t0;

		if (!pingpong && (rc = vp_barrier(c)))
			break;
		t0 = now_us();
		rc = op_call(c, j, code, in, out);
		j->span[(size_t)me * j->iters + i] =
		    pingpong ? (me == 0 ? (now_us() - t0) / 2 : 0)
			     : now_us() - t0;
	}
	/* each process filled its ranks' columns, the others are 0 */
	if (!rc && j->gather)
		rc = vp_allreduce(c, VP_IN_PLACE, j->span, (size_t)j->iters * p,
				  VP_DOUBLE, VP_MAX, VP_ALG_AUTO);
out:
	free(in);
	free(out);
	return rc;
}

/* Measures op on topo; 0 and a filled row, VP_EALG when alg cannot run
 * there, or another error (printed). */
int measure_op(const char *op, vp_alg alg, const char *topo, size_t bytes,
	       int iters, struct row *r)
{
	vp_opts o = { .topology = topo,
		      .ts = 1,
		      .tw = 0.001,
		      .quiet = 1,
		      .transport = bench_transport,
		      .fibers = bench_fibers };
	struct op_job j = { op,         alg,  bytes,
			    0,          NULL, bench_transport != NULL,
			    VP_ALG_AUTO };
	double *t;
	vp_stats st;
	int p, i, k, rc;

	memset(r, 0, sizeof(*r));
	rc = vp_run(&o, op_body, &j, &st);
	if (rc) {
		if (rc != VP_EALG)
			fprintf(stderr, "vp-bench: %s on %s failed: %s\n", op,
				topo, st.error);
		return rc;
	}
	p = st.p;
	r->model = !strcmp(op, "pingpong") ? st.model_time / 2 : st.model_time;
	j.iters = iters;
	j.span = calloc((size_t)iters * p, sizeof(double));
	t = calloc((size_t)iters, sizeof(double));
	if (!j.span || !t || (rc = vp_run(&o, op_body, &j, &st))) {
		fprintf(stderr, "vp-bench: %s on %s failed: %s\n", op, topo,
			j.span && t ? st.error : "no memory");
		free(j.span);
		free(t);
		return rc ? rc : VP_ENOMEM;
	}
	for (i = 0; i < iters; i++)
		for (k = 0; k < p; k++)
			if (j.span[(size_t)k * iters + i] > t[i])
				t[i] = j.span[(size_t)k * iters + i];
	r->s = summarize(t, iters);
	free(j.span);
	free(t);
	r->chosen = j.chosen;
	if (alg == VP_ALG_AUTO)
		snprintf(r->op, sizeof(r->op), "%s", op);
	else
		snprintf(r->op, sizeof(r->op), "%s:%s", op, vp_alg_name(alg));
	snprintf(r->topo, sizeof(r->topo), "%s", topo);
	r->p = p;
	r->bytes = bytes;
	r->iters = iters;
	return 0;
}

/* Iterations for a size and p: enough for a median, bounded in time. */
int iterations(size_t bytes, int p)
{
	int n = bytes <= 1024 ? 1000 : bytes <= 65536 ? 200 : 30;

	if (p > 8)
		n /= 5;
	n = bench_quick ? n / 10 : n;
	return n < 3 ? 3 : n;
}
