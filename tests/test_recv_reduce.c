/*
 * test_recv_reduce.c - receives that reduce (vp_recv_reduce,
 * vp_sendrecv_reduce): out = message op mine, the message combined where
 * it lies.
 *   - the result is right through every way a message travels: a fastbox
 *     slot (8 B; 400 B in the slot's extension), a lent result the sender
 *     combines into (1 KiB and 64 KiB
 *     with the receiver waiting), a queued eager copy (the same sizes with
 *     the sender first), and a rendezvous sender's own buffer (64 KiB + 8,
 *     1 MiB and 1 MiB + 24, the last two combined by both ends); with
 *     out = mine and with out apart (mine untouched);
 *   - the sender combining into a waiting receiver's result is counted as
 *     a direct message;
 *   - a receiver that lends its result call after call with other terms
 *     (another result buffer, operand, op, type or count, or the same as
 *     the call before) gets each call's own combine: the mailbox keeps the
 *     terms on a line it rewrites only when they change;
 *   - an exchange (vp_sendrecv_reduce) at the same sizes gives both ranks
 *     the sum and leaves both send buffers as they were;
 *   - every op on the integer types and MIN, MAX, SUM, PROD on doubles;
 *   - the model charges what vp_recv and vp_sendrecv charge: the same
 *     program's model times are identical;
 *   - VP_PROC_NULL makes out = mine; VP_ANY_SOURCE and a posted irecv of
 *     another tag (the posted-receive path) work;
 *   - a message of another length fails with VP_ETRUNC and leaves out as
 *     it was; a bad type, a bad op, a bitwise op on doubles, mine and out
 *     partly overlapping, VP_IN_PLACE, a send buffer overlapping the
 *     result: each VP_EINVAL naming the rank, the call and the value;
 *   - two ranks each waiting in vp_recv_reduce for the other: a deadlock,
 *     reported with the call's name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "late_rank.h"
#include "tap.h"
#include "vp.h"

static size_t count;   /* elements of the case being run */
static int late_rank;  /* the rank that sleeps before each call, or -1 */
static int apart;      /* 1: out is not mine */
static int bad_of[2];  /* wrong elements seen, per rank */
static int mine_changed[2];

#define ROUNDS 6

static int64_t value(int rank, int round, size_t i)
{
	return (int64_t)(rank + 1) * 1000003 + round * 7919 + (int64_t)i * 3;
}

/* Each round: this rank's vector filled anew; the late rank sleeps. */
static void start_round(int64_t *a, int r, int round)
{
	size_t i;

	for (i = 0; i < count; i++)
		a[i] = value(r, round, i);
	if (r == late_rank)
		late_rank_sleep(); /* 3 ms, longer where needed (late_rank.h) */
}

/* Rank r's result against the sum of both ranks' vectors, and (if
 * check_mine) its own vector against what it filled. */
static void tally(int r, int round, const int64_t *a, const int64_t *result,
		  int check_mine)
{
	size_t i;

	for (i = 0; i < count; i++) {
		bad_of[r] += result[i] != value(0, round, i) + value(1, round, i);
		if (check_mine)
			mine_changed[r] += a[i] != value(r, round, i);
	}
}

static int one_way(vp_comm *c, void *arg)
{
	int r = vp_rank(c), round, rc = VP_OK;
	int64_t *a = malloc(count * sizeof(*a)), *out = malloc(count * 8);

	(void)arg;
	for (round = 0; round < ROUNDS && !rc; round++) {
		start_round(a, r, round);
		if (r == 0) {
			rc = vp_send(c, 1, a, count * sizeof(*a));
			continue;
		}
		rc = vp_recv_reduce(c, 0, a, apart ? out : a, count, VP_INT64,
				    VP_SUM);
		tally(1, round, a, apart ? out : a, apart);
	}
	free(a);
	free(out);
	return rc;
}

static int exchange(vp_comm *c, void *arg)
{
	int r = vp_rank(c), round, rc = VP_OK;
	int64_t *a = malloc(count * sizeof(*a)), *out = malloc(count * 8);

	(void)arg;
	for (round = 0; round < ROUNDS && !rc; round++) {
		start_round(a, r, round);
		rc = vp_sendrecv_reduce(c, 1 - r, a, count * sizeof(*a),
					1 - r, a, out, count, VP_INT64,
					VP_SUM);
		tally(r, round, a, out, 1);
	}
	free(a);
	free(out);
	return rc;
}

static void test_paths(void)
{
	/* fastbox (inline, medium), eager / lent, eager_max, rendezvous
	 * (past 128 KiB combined by both ends in 64 KiB chunks, the last one
	 * short) */
	static const size_t bytes[] = { 8,     400,     1024,
					65536, 65544,   1 << 20,
					(1 << 20) + 24 };
	vp_opts o = { .topology = "full:2" };
	vp_stats st;
	unsigned k;
	int rc, late;

	for (k = 0; k < sizeof(bytes) / sizeof(bytes[0]); k++)
		for (late = 0; late < 2; late++)
			for (apart = 0; apart < 2; apart++) {
				count = bytes[k] / 8;
				late_rank = late;
				memset(bad_of, 0, sizeof(bad_of));
				memset(mine_changed, 0, sizeof(mine_changed));
				/* the case that counts a loan: tried again,
				 * later, until the receiver was waiting */
				rc = bytes[k] == 1024 && !late && apart
					 ? run_until_direct(&o, one_way, NULL,
							    &st, 3000)
					 : vp_run(&o, one_way, NULL, &st);
				tap_ok(rc == VP_OK && !bad_of[1] &&
					   !mine_changed[1],
				       "vp_recv_reduce of %zu B, %s first, out "
				       "%s: every element is message + mine "
				       "(rc %d, %d wrong, mine changed %d)",
				       bytes[k],
				       late ? "the sender" : "the receiver",
				       apart ? "apart" : "= mine", rc,
				       bad_of[1], mine_changed[1]);
				if (bytes[k] == 1024 && !late && apart)
					tap_ok(st.direct_messages > 0,
					       "a 1 KiB reduction's sender "
					       "combines into the waiting "
					       "receiver's result (%llu direct)",
					       (unsigned long long)
						   st.direct_messages);
			}
	for (k = 0; k < sizeof(bytes) / sizeof(bytes[0]); k++)
		for (late = -1; late < 2; late++) {
			count = bytes[k] / 8;
			late_rank = late;
			memset(bad_of, 0, sizeof(bad_of));
			memset(mine_changed, 0, sizeof(mine_changed));
			rc = vp_run(&o, exchange, NULL, &st);
			tap_ok(rc == VP_OK && !bad_of[0] && !bad_of[1] &&
				   !mine_changed[0] && !mine_changed[1],
			       "vp_sendrecv_reduce of %zu B (late rank %d): "
			       "both get the sum, both send buffers intact "
			       "(rc %d, wrong %d/%d, changed %d/%d)",
			       bytes[k], late, rc, bad_of[0], bad_of[1],
			       mine_changed[0], mine_changed[1]);
		}
}

/* ---- every op ---- */

struct op_case {
	vp_type type;
	vp_op op;
};
static struct op_case the_case;

/* Rank 1 reduces rank 0's vector into its own; the main thread computes
 * the same with vp_reduce_local. */
#define OPS_N 1000
static unsigned char op_in[2][OPS_N * 8], op_out[OPS_N * 8];

static int op_run(vp_comm *c, void *arg)
{
	size_t n = OPS_N * vp_type_size(the_case.type);

	(void)arg;
	if (vp_rank(c) == 0)
		return vp_send(c, 1, op_in[0], n);
	return vp_recv_reduce(c, 0, op_in[1], op_out, OPS_N, the_case.type,
			      the_case.op);
}

static void test_ops(void)
{
	static const char *names[] = { "SUM", "PROD", "MIN",  "MAX",
				       "BAND", "BOR", "BXOR" };
	static const char *types[] = { "BYTE", "INT32", "INT64", "FLOAT",
				       "DOUBLE" };
	vp_opts o = { .topology = "full:2" };
	unsigned char want[OPS_N * 8];
	int t, op, rc, same;
	size_t i;

	for (t = VP_BYTE; t <= VP_DOUBLE; t++)
		for (op = VP_SUM; op <= VP_BXOR; op++) {
			size_t es = vp_type_size((vp_type)t);

			if (op >= VP_BAND && t >= VP_FLOAT)
				continue;
			for (i = 0; i < OPS_N * es; i++) {
				op_in[0][i] = (unsigned char)(i * 7 + 3);
				op_in[1][i] = (unsigned char)(i * 13 + 1);
			}
			if (t == VP_FLOAT || t == VP_DOUBLE)
				for (i = 0; i < OPS_N; i++) {
					if (t == VP_FLOAT) {
						((float *)op_in[0])[i] =
						    (float)i * 0.5f - 7;
						((float *)op_in[1])[i] =
						    (float)(i % 13) - 3;
					} else {
						((double *)op_in[0])[i] =
						    (double)i * 0.25 - 9;
						((double *)op_in[1])[i] =
						    (double)(i % 17) - 4;
					}
				}
			memcpy(want, op_in[1], OPS_N * es);
			vp_reduce_local(op_in[0], want, OPS_N, (vp_type)t,
					(vp_op)op);
			memset(op_out, 0xAB, sizeof(op_out));
			the_case = (struct op_case){ (vp_type)t, (vp_op)op };
			rc = vp_run(&o, op_run, NULL, NULL);
			same = !memcmp(want, op_out, OPS_N * es);
			tap_ok(rc == VP_OK && same,
			       "VP_%s on VP_%s: as vp_reduce_local (rc %d)",
			       names[op], types[t], rc);
		}
}

/* ---- the model ---- */

static int fused; /* 1: the reducing calls; 0: receive, then combine */

static int model_program(vp_comm *c, void *arg)
{
	static int64_t a[2][20000], tmp[2][20000], out[2][20000];
	int r = vp_rank(c), k, rc = VP_OK;
	size_t sizes[] = { 1, 100, 9000, 20000 };

	(void)arg;
	for (k = 0; k < 4 && !rc; k++) {
		size_t n = sizes[k];

		if (r == 0) {
			rc = vp_send(c, 1, a[0], n * 8);
		} else if (fused) {
			rc = vp_recv_reduce(c, 0, a[1], out[1], n, VP_INT64,
					    VP_SUM);
		} else {
			rc = vp_recv(c, 0, tmp[1], n * 8);
			vp_reduce_local(tmp[1], a[1], n, VP_INT64, VP_SUM);
		}
		if (rc)
			break;
		if (fused)
			rc = vp_sendrecv_reduce(c, 1 - r, a[r], n * 8, 1 - r,
						a[r], out[r], n, VP_INT64,
						VP_SUM);
		else
			rc = vp_sendrecv(c, 1 - r, a[r], n * 8, 1 - r, tmp[r],
					 n * 8);
	}
	return rc;
}

static void test_model(void)
{
	vp_opts o = { .topology = "line:2", .model = "alpha-beta:ts=100,tw=1" };
	vp_stats plain, reducing;
	int rc1, rc2;

	fused = 0;
	rc1 = vp_run(&o, model_program, NULL, &plain);
	fused = 1;
	rc2 = vp_run(&o, model_program, NULL, &reducing);
	tap_ok(rc1 == VP_OK && rc2 == VP_OK &&
		   plain.model_time == reducing.model_time &&
		   plain.messages == reducing.messages &&
		   plain.model_time > 0,
	       "the reducing calls cost what vp_recv and vp_sendrecv cost: "
	       "model time %.1f and %.1f, %llu and %llu messages",
	       plain.model_time, reducing.model_time,
	       (unsigned long long)plain.messages,
	       (unsigned long long)reducing.messages);
}

/* ---- edges: VP_PROC_NULL, VP_ANY_SOURCE, posted receives ---- */

static int edge_ok[2];

static int edges(vp_comm *c, void *arg)
{
	int64_t mine[100], out[100], other[100], note = 0;
	vp_request req;
	int i, rc;

	(void)arg;
	for (i = 0; i < 100; i++)
		mine[i] = i, out[i] = -1;
	if (vp_rank(c) == 0) {
		for (i = 0; i < 100; i++)
			other[i] = 1000 * i;
		note = 77;
		if ((rc = vp_send(c, 1, other, sizeof(other))) ||
		    (rc = vp_send_tag(c, 1, 5, &note, sizeof(note))) ||
		    (rc = vp_send(c, 1, other, sizeof(other))))
			return rc;
		return VP_OK;
	}
	/* from nobody: out becomes mine */
	if ((rc = vp_recv_reduce(c, VP_PROC_NULL, mine, out, 100, VP_INT64,
				 VP_SUM)))
		return rc;
	edge_ok[0] = !memcmp(out, mine, sizeof(mine));
	/* a posted irecv of tag 5, then a reduction from any source: it
	 * takes the tag-0 vector, the irecv the note */
	if ((rc = vp_irecv(c, 0, 5, &note, sizeof(note), &req)) ||
	    (rc = vp_recv_reduce(c, VP_ANY_SOURCE, mine, out, 100, VP_INT64,
				 VP_MAX)) ||
	    (rc = vp_wait(&req, NULL)))
		return rc;
	edge_ok[1] = note == 77;
	for (i = 0; i < 100; i++)
		edge_ok[1] &= out[i] == (i ? 1000 * i : 0);
	/* in place, from a named source */
	if ((rc = vp_recv_reduce(c, 0, mine, mine, 100, VP_INT64, VP_SUM)))
		return rc;
	for (i = 0; i < 100; i++)
		edge_ok[1] &= mine[i] == 1001 * i;
	return VP_OK;
}

static void test_edges(void)
{
	vp_opts o = { .topology = "full:2" };
	int rc;

	memset(edge_ok, 0, sizeof(edge_ok));
	rc = vp_run(&o, edges, NULL, NULL);
	tap_ok(rc == VP_OK && edge_ok[0],
	       "from VP_PROC_NULL nothing arrives and out becomes mine (rc %d)",
	       rc);
	tap_ok(rc == VP_OK && edge_ok[1],
	       "VP_ANY_SOURCE beside a posted irecv of another tag, and in "
	       "place: right results, the irecv gets its message (rc %d)",
	       rc);
}

/* ---- errors ---- */

static int which;
static int guard_ok;

static int misuse(vp_comm *c, void *arg)
{
	static int64_t buf[2][64], out[64];
	int i;

	(void)arg;
	if (which == 0) { /* 9 elements sent, 8 expected */
		if (vp_rank(c) == 0)
			return vp_send(c, 1, buf[0], 9 * 8);
		for (i = 0; i < 64; i++)
			out[i] = -5;
		i = vp_recv_reduce(c, 0, buf[1], out, 8, VP_INT64, VP_SUM);
		guard_ok = 1;
		for (int k = 0; k < 64; k++)
			guard_ok &= out[k] == -5;
		return i;
	}
	if (vp_rank(c) == 0)
		return VP_OK;
	switch (which) {
	case 1:
		return vp_recv_reduce(c, 0, buf[1], out, 8, (vp_type)1000,
				      VP_SUM);
	case 2:
		return vp_recv_reduce(c, 0, buf[1], out, 8, VP_INT64,
				      (vp_op)42);
	case 3:
		return vp_recv_reduce(c, 0, buf[1], out, 8, VP_DOUBLE,
				      VP_BXOR);
	case 4:
		return vp_recv_reduce(c, 0, buf[1], buf[1] + 1, 8, VP_INT64,
				      VP_SUM);
	case 5:
		return vp_recv_reduce(c, 0, VP_IN_PLACE, out, 8, VP_INT64,
				      VP_SUM);
	case 6:
		return vp_sendrecv_reduce(c, 0, out, 64, 0, buf[1], out, 8,
					  VP_INT64, VP_SUM);
	default:
		return vp_recv_reduce(c, 2, buf[1], out, 8, VP_INT64, VP_SUM);
	}
}

static void test_errors(void)
{
	static const struct {
		int code;
		const char *call, *says;
	} want[] = {
		{ VP_ETRUNC, "vp_recv_reduce", "72 bytes" },
		{ VP_EINVAL, "vp_recv_reduce", "type 1000" },
		{ VP_EINVAL, "vp_recv_reduce", "op 42" },
		{ VP_EINVAL, "vp_recv_reduce", "VP_DOUBLE" },
		{ VP_EINVAL, "vp_recv_reduce", "overlap" },
		{ VP_EINVAL, "vp_recv_reduce", "VP_IN_PLACE" },
		{ VP_EINVAL, "vp_sendrecv_reduce", "overlaps the result" },
		{ VP_ERANK, "vp_recv_reduce", "source 2" },
	};
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_stats st;
	int rc;

	for (which = 0; which < (int)(sizeof(want) / sizeof(want[0]));
	     which++) {
		guard_ok = 0;
		rc = vp_run(&o, misuse, NULL, &st);
		tap_ok(rc == want[which].code && strstr(st.error, "rank 1") &&
			   strstr(st.error, want[which].call) &&
			   strstr(st.error, want[which].says) &&
			   (which || guard_ok),
		       "misuse %d fails with code %d naming the rank, %s and "
		       "'%s' (rc %d: %s)",
		       which, want[which].code, want[which].call,
		       want[which].says, rc, st.error);
	}
}

static int both_reduce(vp_comm *c, void *arg)
{
	int64_t a[512], out[512];

	(void)arg;
	memset(a, 0, sizeof(a));
	return vp_recv_reduce(c, 1 - vp_rank(c), a, out, 512, VP_INT64,
			      VP_SUM);
}

static void test_deadlock(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	vp_stats st;
	int rc;

	rc = vp_run(&o, both_reduce, NULL, &st);
	tap_ok(rc == VP_EDEADLOCK && strstr(st.error, "vp_recv_reduce"),
	       "two ranks each in vp_recv_reduce from the other: a deadlock "
	       "naming the call (rc %d: %s)",
	       rc, st.error);
}

/* ---- a loan's terms, changing from call to call ---- */

/* Each round's terms on the receiver's side: which of two result and two
 * operand buffers, the op, the type and the count (bytes). Rounds 1, 6
 * and 7 repeat the terms of the round before or of round 0. */
struct loan_terms {
	int out, mine;
	vp_op op;
	vp_type type;
	size_t bytes;
};
static const struct loan_terms terms[] = {
	{ 0, 0, VP_SUM, VP_INT64, 1024 }, { 0, 0, VP_SUM, VP_INT64, 1024 },
	{ 1, 0, VP_SUM, VP_INT64, 1024 }, { 1, 1, VP_SUM, VP_INT64, 1024 },
	{ 1, 1, VP_MAX, VP_INT64, 1024 }, { 1, 1, VP_MAX, VP_INT32, 2048 },
	{ 1, 1, VP_MAX, VP_INT32, 2048 }, { 0, 0, VP_SUM, VP_INT64, 1024 },
};
#define TERMS_N ((int)(sizeof(terms) / sizeof(terms[0])))
static int terms_wrong[TERMS_N];

/* The element i of rank r's vector in round k, as its type holds it. */
static int64_t term_value(int r, int k, size_t i)
{
	return (int64_t)((r + 1) * 1009 + k * 131) * (r ? -1 : 1) +
	       (int64_t)(i % 97);
}

static void fill(void *v, vp_type type, size_t n, int r, int k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (type == VP_INT64)
			((int64_t *)v)[i] = term_value(r, k, i);
		else
			((int32_t *)v)[i] = (int32_t)term_value(r, k, i);
}

static int64_t combined(const struct loan_terms *t, int k, size_t i)
{
	int64_t a = term_value(0, k, i), b = term_value(1, k, i);

	return t->op == VP_SUM ? a + b : a > b ? a : b;
}

static int changing_terms(vp_comm *c, void *arg)
{
	int r = vp_rank(c), k, rc = VP_OK;
	/* [rank][which]: the operands; the receiver's two results (int64_t
	 * for the alignment of either type) */
	static int64_t buf[2][2][512], result[2][512];

	(void)arg;
	for (k = 0; k < TERMS_N && !rc; k++) {
		const struct loan_terms *t = &terms[k];
		size_t es = vp_type_size(t->type), n = t->bytes / es, i;
		void *mine = buf[r][t->mine], *out = result[t->out];

		fill(mine, t->type, n, r, k);
		if (r == 0) {
			late_rank_sleep(); /* the receiver lends first */
			rc = vp_send(c, 1, mine, t->bytes);
			continue;
		}
		memset(out, 0x5a, sizeof(result[0]));
		rc = vp_recv_reduce(c, 0, mine, out, n, t->type, t->op);
		for (i = 0; i < n; i++)
			terms_wrong[k] +=
			    (t->type == VP_INT64
				 ? ((int64_t *)out)[i]
				 : (int64_t)((int32_t *)out)[i]) !=
			    combined(t, k, i);
	}
	return rc;
}

static void test_changing_terms(void)
{
	vp_opts o = { .topology = "full:2" };
	vp_stats st;
	int rc, k, wrong = 0;

	memset(terms_wrong, 0, sizeof(terms_wrong));
	rc = run_until_direct(&o, changing_terms, NULL, &st, 3000);
	for (k = 0; k < TERMS_N; k++)
		wrong += terms_wrong[k];
	tap_ok(rc == VP_OK && !wrong,
	       "%d loans in a row with other terms or the same (result, "
	       "operand, op, type, count): each call's own combine (rc %d, "
	       "%d wrong elements)",
	       TERMS_N, rc, wrong);
	tap_ok(st.direct_messages > 0,
	       "those reductions' senders combined into the lent results "
	       "(%llu direct)",
	       (unsigned long long)st.direct_messages);
}

int main(void)
{
	late_rank_us = 3000; /* this test's first sleep */
	test_paths();
	test_changing_terms();
	test_ops();
	test_model();
	test_edges();
	test_errors();
	test_deadlock();
	return tap_done();
}
