/*
 * test_coll_repeat.c - a collective call made again with the same
 * arguments is checked, chosen and matched as the first one was (the
 * collectives remember a rank's last call to skip its checks; none of
 * this may change what a program sees):
 *   - after calls that passed, a call with one bad argument (a NULL
 *     buffer, a type that is not one) still fails naming it;
 *   - a rank whose third call is its second's again, while the other
 *     rank's third differs, still fails with VP_EMISMATCH naming the count;
 *   - the same k-ary broadcast after vp_set_coll_params changed the degree
 *     on one rank only fails naming the degree;
 *   - AUTO's reason for a repeated call is its own, even when a
 *     vp_coll_choose of another collective came in between, and a call
 *     of another size by the same algorithm gets its own reason;
 *   - repeated all-reduces of changing data give each call's sums.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

/* Runs fn on spec quietly; the result and the stats are the caller's. */
static int run(const char *spec, int (*fn)(vp_comm *, void *), void *arg,
	       vp_stats *st)
{
	vp_opts o = { .topology = spec, .quiet = 1 };

	return vp_run(&o, fn, arg, st);
}

/* What rank 1 changes in its third all-gather (after two good ones). */
enum change { NULL_RECEIVE, BAD_TYPE, OTHER_COUNT };

static int third_differs(vp_comm *c, void *arg)
{
	enum change what = *(enum change *)arg;
	char s[8] = { 0 }, r[64];
	int k, rc = 0;

	for (k = 0; k < 2 && !rc; k++)
		rc = vp_allgather(c, s, r, 8, VP_BYTE, VP_ALG_AUTO);
	if (rc || vp_rank(c) != 1)
		return rc ?: vp_allgather(c, s, r, 8, VP_BYTE, VP_ALG_AUTO);
	if (what == NULL_RECEIVE)
		return vp_allgather(c, s, NULL, 8, VP_BYTE, VP_ALG_AUTO);
	if (what == BAD_TYPE)
		return vp_allgather(c, s, r, 8, (vp_type)99, VP_ALG_AUTO);
	return vp_allgather(c, s, r, 4, VP_BYTE, VP_ALG_AUTO);
}

static void test_checks_after_repeats(void)
{
	static const struct {
		enum change what;
		int code;
		const char *says;
	} cases[] = {
		{ NULL_RECEIVE, VP_EINVAL, "receive buffer is NULL" },
		{ BAD_TYPE, VP_EINVAL, "type 99 is not a vp_type" },
		{ OTHER_COUNT, VP_EMISMATCH, "count" },
	};
	int i;

	for (i = 0; i < 3; i++) {
		enum change what = cases[i].what;
		vp_stats st;
		int rc = run("full:2", third_differs, &what, &st);

		tap_ok(rc == cases[i].code && strstr(st.error, "rank") &&
			       strstr(st.error, "vp_allgather") &&
			       strstr(st.error, cases[i].says),
		       "two good all-gathers, then rank 1's third differs "
		       "(%s): fails with %d naming it (rc %d): %s",
		       cases[i].says, cases[i].code, rc, st.error);
	}
}

/* Three k-ary broadcasts; before the third, rank 0 alone sets degree 3. */
static int degree_changed(vp_comm *c, void *arg)
{
	char b[16] = { 0 };
	int k, rc = 0;

	(void)arg;
	for (k = 0; k < 3 && !rc; k++) {
		if (k == 2 && vp_rank(c) == 0)
			rc = vp_set_coll_params(c, 3, 0);
		if (!rc)
			rc = vp_bcast(c, b, sizeof(b), VP_BYTE, 0,
				      VP_ALG_KARY);
	}
	return rc;
}

static void test_degree_after_repeats(void)
{
	vp_stats st;
	int rc = run("full:8", degree_changed, NULL, &st);

	tap_ok(rc == VP_EMISMATCH && strstr(st.error, "k-ary degree"),
	       "the same k-ary broadcast a third time, the degree changed on "
	       "rank 0 only: VP_EMISMATCH naming the degree (rc %d): %s",
	       rc, st.error);
}

struct reasons {
	char first[2][256], again[2][256];
};

/* An all-reduce by AUTO, a vp_coll_choose of a long broadcast (another
 * reason), the same all-reduce again. */
static int reason_between(vp_comm *c, void *arg)
{
	struct reasons *x = arg;
	double s = 1, r;
	const char *why;
	int me = vp_rank(c), rc;

	rc = vp_allreduce(c, &s, &r, 1, VP_DOUBLE, VP_SUM, VP_ALG_AUTO);
	snprintf(x->first[me], sizeof(x->first[me]), "%s", vp_coll_last(c));
	(void)vp_coll_choose(c, VP_COLL_BCAST, (size_t)1 << 20, &why);
	rc = rc ?: vp_allreduce(c, &s, &r, 1, VP_DOUBLE, VP_SUM, VP_ALG_AUTO);
	snprintf(x->again[me], sizeof(x->again[me]), "%s", vp_coll_last(c));
	return rc;
}

static void test_reason_after_repeats(void)
{
	struct reasons x;
	vp_stats st;
	int rc;

	memset(&x, 0, sizeof(x));
	rc = run("ring:2", reason_between, &x, &st);
	tap_ok(rc == 0 && strstr(x.first[0], "auto: ") &&
		       !strcmp(x.first[0], x.again[0]) &&
		       !strcmp(x.first[1], x.again[1]),
	       "a repeated all-reduce keeps its own reason after a "
	       "vp_coll_choose of a broadcast in between (rc %d): '%s', then "
	       "'%s'",
	       rc, x.first[0], x.again[0]);
}

/* All-reduces of 8 then 16 bytes by AUTO: the same algorithm, two
 * reasons (each names its size). */
static int reason_per_size(vp_comm *c, void *arg)
{
	char (*last)[256] = arg;
	double s[2] = { 1, 2 }, r[2];
	int rc;

	rc = vp_allreduce(c, s, r, 1, VP_DOUBLE, VP_SUM, VP_ALG_AUTO);
	if (vp_rank(c) == 0)
		snprintf(last[0], 256, "%s", vp_coll_last(c));
	rc = rc ?: vp_allreduce(c, s, r, 2, VP_DOUBLE, VP_SUM, VP_ALG_AUTO);
	if (vp_rank(c) == 0)
		snprintf(last[1], 256, "%s", vp_coll_last(c));
	return rc;
}

static void test_reason_per_size(void)
{
	char last[2][256] = { "", "" };
	vp_stats st;
	int rc = run("ring:2", reason_per_size, last, &st);

	tap_ok(rc == 0 && strstr(last[0], "8 bytes") &&
		       strstr(last[1], "16 bytes"),
	       "an all-reduce of 16 bytes after one of 8, the same algorithm: "
	       "vp_coll_last gives each its own reason (rc %d): '%s', then "
	       "'%s'",
	       rc, last[0], last[1]);
}

#define REPEATS 1000

/* REPEATS all-reduces from the same buffers, their contents changing. */
static int changing_data(vp_comm *c, void *arg)
{
	int *wrong = arg, me = vp_rank(c), p = vp_size(c), k, rc = 0;
	long s[4], r[4];

	for (k = 0; k < REPEATS && !rc; k++) {
		int i;

		for (i = 0; i < 4; i++)
			s[i] = (long)k * (me + 1) + i;
		rc = vp_allreduce(c, s, r, 4, VP_INT64, VP_SUM, VP_ALG_AUTO);
		for (i = 0; i < 4 && !rc; i++)
			if (r[i] != (long)k * p * (p + 1) / 2 + (long)i * p)
				wrong[me]++;
	}
	return rc;
}

static void test_data_of_repeats(void)
{
	int wrong[4] = { 0 }, rc, i, total = 0;
	vp_stats st;

	rc = run("full:4", changing_data, wrong, &st);
	for (i = 0; i < 4; i++)
		total += wrong[i];
	tap_ok(rc == 0 && total == 0,
	       "%d all-reduces from the same buffers with changing data: "
	       "every sum right (rc %d, %d wrong)",
	       REPEATS, rc, total);
}

int main(void)
{
	test_checks_after_repeats();
	test_degree_after_repeats();
	test_reason_after_repeats();
	test_reason_per_size();
	test_data_of_repeats();
	return tap_done();
}
