/*
 * test_trace.c - the pictures of a run: vp_opts.trace writes a Perfetto
 * trace and vp_opts.svg a space-time diagram.
 *
 * Specification:
 *   - the trace is valid JSON with 1 + p metadata events, one slice per
 *     point-to-point call and one flow start and one flow end per message;
 *   - the SVG is well-formed XML with exactly one arrow per message;
 *   - the hypercube broadcast from rank 0 on hypercube:3 draws the book's
 *     figure (Grama et al., Fig. 4.6): step 1 0->4; step 2 0->2, 4->6;
 *     step 3 0->1, 2->3, 4->5, 6->7;
 *   - a hypercube allgather forced onto ring:8 draws congested arrows whose
 *     largest load is the run's max_link_load; on hypercube:3 none;
 *   - one-sided operations are dashed arrows from the origin into the
 *     target's line at their arrival, and in the trace a slice on the
 *     origin ("put to 1") with an arrow to an instant on the target;
 *   - wall-clock traces, zero-cost models (x axis in steps), user labels
 *     and failed runs still give valid files; an unwritable path fails the
 *     run at once with VP_EINVAL naming the path.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_check.h"
#include "tap.h"
#include "vp.h"
#include "xml_check.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

struct arrow {
	int src, dst, step, load;
};

/* Reads the arrows back from the SVG's data attributes. */
static int arrows(const char *svg, struct arrow *a, int max)
{
	const char *s = svg;
	int n = 0;

	while ((s = strstr(s, "class=\"msg"))) {
		struct arrow x;

		if (sscanf(strstr(s, "data-src="), "data-src=\"%d\" data-dst=\"%d\" "
			   "data-step=\"%d\"", &x.src, &x.dst, &x.step) != 3 ||
		    sscanf(strstr(s, "data-load="), "data-load=\"%d\"",
			   &x.load) != 1)
			return -1;
		if (n < max)
			a[n] = x;
		n++;
		s++;
	}
	return n;
}

static char json_path[64], svg_path[64];

struct files {
	char *json, *svg;
};

static void files_free(struct files *f)
{
	free(f->json);
	free(f->svg);
}

static int run_traced(const char *topo, int (*fn)(vp_comm *, void *),
		      double ts, double tw, int wall, vp_stats *st,
		      struct files *out)
{
	vp_opts o = {.topology = topo, .ts = ts, .tw = tw, .quiet = 1,
		     .trace = json_path, .svg = svg_path, .trace_wall = wall};
	int rc = vp_run(&o, fn, NULL, st);

	out->json = slurp(json_path);
	out->svg = slurp(svg_path);
	return rc;
}

/* Valid files with the expected number of events and arrows. */
static void check_files(const char *what, const struct files *f,
			const vp_stats *st, size_t calls)
{
	size_t at = 0, msgs = (size_t)st->messages;
	int ok;

	ok = f->json && json_valid(f->json, &at);
	tap_ok(ok, "%s: the trace is valid JSON (error at byte %zu)", what,
	       at);
	if (ok) {
		size_t meta = count_substr(f->json, "\"ph\":\"M\"");
		size_t x = count_substr(f->json, "\"ph\":\"X\"");
		size_t s = count_substr(f->json, "\"ph\":\"s\"");
		size_t e = count_substr(f->json, "\"ph\":\"f\"");

		tap_ok(meta == (size_t)st->p + 1 && (!calls || x == calls) &&
			       s == msgs && e == msgs,
		       "%s: %zu metadata (want %d), %zu slices (want %zu), "
		       "%zu/%zu flows (want %zu)",
		       what, meta, st->p + 1, x, calls, s, e, msgs);
	}
	ok = f->svg && xml_well_formed(f->svg, &at);
	tap_ok(ok, "%s: the SVG is well-formed XML (error at byte %zu)", what,
	       at);
	if (ok)
		tap_ok(arrows(f->svg, NULL, 0) == (int)msgs,
		       "%s: one arrow per message (%d arrows, %zu messages)",
		       what, arrows(f->svg, NULL, 0), msgs);
}

static int bcast_hypercube(vp_comm *c, void *arg)
{
	char buf[64] = {0};

	(void)arg;
	return vp_bcast(c, buf, sizeof(buf), VP_BYTE, 0, VP_ALG_HYPERCUBE);
}

static void book_figure(void)
{
	static const struct arrow fig[] = {{0, 4, 1, 1}, {0, 2, 2, 1},
					   {4, 6, 2, 1}, {0, 1, 3, 1},
					   {2, 3, 3, 1}, {4, 5, 3, 1},
					   {6, 7, 3, 1}};
	struct arrow a[16];
	struct files f;
	vp_stats st;
	int n, i, k, found = 0;

	tap_ok(run_traced("hypercube:3", bcast_hypercube, 100, 1, 0, &st,
			  &f) == VP_OK,
	       "hypercube broadcast with trace and svg runs");
	check_files("hypercube bcast", &f, &st, 14);
	n = f.svg ? arrows(f.svg, a, 16) : -1;
	for (i = 0; i < 7; i++)
		for (k = 0; k < n && k < 16; k++)
			if (!memcmp(&a[k], &fig[i], sizeof(fig[i]))) {
				found++;
				break;
			}
	tap_ok(n == 7 && found == 7,
	       "the arrows are the book's Fig. 4.6: %d of 7 found, %d arrows",
	       found, n);
	tap_ok(f.json && strstr(f.json, "\"cat\":\"bcast\"") &&
		       strstr(f.json, "\"what\":\"hypercube\""),
	       "trace slices name the collective and its algorithm");
	files_free(&f);
}

static int allgather_hypercube(vp_comm *c, void *arg)
{
	int32_t in = vp_rank(c), out[8];

	(void)arg;
	return vp_allgather(c, &in, out, 1, VP_INT32, VP_ALG_HYPERCUBE);
}

static int max_load(const char *svg, int *congested)
{
	struct arrow a[64];
	int n = arrows(svg, a, 64), i, best = 0;

	*congested = 0;
	for (i = 0; i < n && i < 64; i++) {
		if (a[i].load > best)
			best = a[i].load;
		*congested += a[i].load > 1;
	}
	return best;
}

static void congestion(void)
{
	struct files f;
	vp_stats st;
	int hot = 0, load;

	tap_ok(run_traced("ring:8", allgather_hypercube, 100, 1, 0, &st,
			  &f) == VP_OK,
	       "hypercube allgather on ring:8 runs");
	check_files("allgather on ring:8", &f, &st, 24);
	load = f.svg ? max_load(f.svg, &hot) : -1;
	tap_ok(load == (int)st.max_link_load && load > 1 && hot > 0 &&
		       count_substr(f.svg, "class=\"msg congested\"") ==
			       (size_t)hot,
	       "ring:8: %d congested arrows, largest load %d (run: %llu)", hot,
	       load, (unsigned long long)st.max_link_load);
	files_free(&f);

	tap_ok(run_traced("hypercube:3", allgather_hypercube, 100, 1, 0, &st,
			  &f) == VP_OK,
	       "hypercube allgather on hypercube:3 runs");
	load = f.svg ? max_load(f.svg, &hot) : -1;
	tap_ok(load == 1 && hot == 0,
	       "hypercube:3: no congested arrow (%d, largest load %d)", hot,
	       load);
	files_free(&f);
}

static int alltoall_pairwise(vp_comm *c, void *arg)
{
	int32_t in[8], out[8];
	int i;

	(void)arg;
	for (i = 0; i < 8; i++)
		in[i] = vp_rank(c) * 8 + i;
	return vp_alltoall(c, in, out, 1, VP_INT32, VP_ALG_PAIRWISE);
}

static int labelled_phases(vp_comm *c, void *arg)
{
	int r = vp_rank(c), p = vp_size(c), v = r, got, rc;

	(void)arg;
	vp_trace_label(c, "phase \"one\"");
	rc = vp_sendrecv(c, (r + 1) % p, &v, sizeof(v), (r + p - 1) % p, &got,
			 sizeof(got));
	return rc ? rc : vp_barrier(c);
}

static int abandoned_send(vp_comm *c, void *arg)
{
	int v = 1;

	(void)arg;
	if (vp_rank(c) == 0)
		return vp_send(c, 1, &v, sizeof(v)); /* eager, never received */
	return 5;
}

static void variants(void)
{
	struct files f;
	vp_stats st;
	vp_opts bad = {.topology = "ring:4", .quiet = 1,
		       .trace = "/nonexistent-dir/x.json"};
	int rc;

	tap_ok(run_traced("hypercube:3", alltoall_pairwise, 10, 0.5, 0, &st,
			  &f) == VP_OK &&
		       st.messages == 56,
	       "pairwise all-to-all on hypercube:3: 56 messages");
	check_files("alltoall pairwise", &f, &st, 56);
	files_free(&f);

	tap_ok(run_traced("hypercube:3", alltoall_pairwise, 10, 0.5, 1, &st,
			  &f) == VP_OK,
	       "the same with a wall-clock trace");
	check_files("alltoall, wall clock", &f, &st, 56);
	tap_ok(f.json && strstr(f.json, "\"clock\":\"wall us\""),
	       "the wall-clock trace says so");
	files_free(&f);

	tap_ok(run_traced("ring:5", labelled_phases, 0, 0, 0, &st, &f) ==
		       VP_OK,
	       "labelled phases with ts = tw = 0 run");
	check_files("labels, zero-cost model", &f, &st, 5 + 5 * 3);
	tap_ok(f.json && strstr(f.json, "\"cat\":\"phase \\\"one\\\"\"") &&
		       strstr(f.json, "\"cat\":\"barrier\""),
	       "user labels (escaped) and the barrier's own label appear");
	tap_ok(f.svg && strstr(f.svg, "step (the model takes no time"),
	       "a zero-cost model is drawn against steps");
	files_free(&f);

	rc = run_traced("ring:4", abandoned_send, 1, 1, 0, &st, &f);
	tap_ok(rc != VP_OK, "a failed run still returns its error (%d)", rc);
	check_files("failed run", &f, &st, 0);
	files_free(&f);

	rc = vp_run(&bad, bcast_hypercube, NULL, &st);
	tap_ok(rc == VP_EINVAL && strstr(st.error, "/nonexistent-dir/x.json"),
	       "an unwritable trace path fails at once: %d, '%s'", rc,
	       st.error);
}

/* ---- one-sided operations ---- */

static int one_sided(vp_comm *c, void *arg)
{
	int32_t mine[64] = { 0 }, four[4] = { 1, 2, 3, 4 };
	char bytes[100] = { 0 }, got[8];
	vp_win *w;
	int rc;

	(void)arg;
	if ((rc = vp_win_create(c, mine, sizeof(mine), &w)) ||
	    (rc = vp_win_fence(w)))
		return rc;
	if (vp_rank(c) == 0 &&
	    ((rc = vp_put(w, 1, 0, bytes, sizeof(bytes))) ||
	     (rc = vp_get(w, 1, 128, got, sizeof(got))) ||
	     (rc = vp_accumulate(w, 1, 200, four, 4, VP_INT32, VP_SUM))))
		return rc;
	if ((rc = vp_win_fence(w)))
		return rc;
	return vp_win_free(w);
}

static void onesided_pictures(void)
{
	struct files f;
	vp_stats st;
	int rc = run_traced("full:2", one_sided, 10, 0.5, 0, &st, &f);

	tap_ok(rc == VP_OK, "a put, a get and an accumulate between two "
			    "fences, traced (rc %d)",
	       rc);
	check_files("one-sided", &f, &st, 0);
	tap_ok(f.svg && count_substr(f.svg, "class=\"msg onesided\"") == 3 &&
		   strstr(f.svg, "put into rank 1's window, 100 bytes") &&
		   strstr(f.svg, "get from rank 1's window, 8 bytes") &&
		   strstr(f.svg, "accumulate into rank 1's window, 16 bytes"),
	       "the SVG draws the three operations as dashed arrows into "
	       "rank 1's line, named");
	tap_ok(f.json && strstr(f.json, "\"name\":\"put to 1\"") &&
		   strstr(f.json, "\"name\":\"get from 1\"") &&
		   strstr(f.json, "\"name\":\"accumulate to 1\"") &&
		   count_substr(f.json, "\"cat\":\"one-sided\"") == 3 &&
		   strstr(f.json, "\"name\":\"put by 0\""),
	       "the trace has a slice per operation on rank 0 and its "
	       "arrival on rank 1's track");
	files_free(&f);
}

int main(void)
{
	snprintf(json_path, sizeof(json_path), "/tmp/vp_test_trace_%d.json",
		 (int)getpid());
	snprintf(svg_path, sizeof(svg_path), "/tmp/vp_test_trace_%d.svg",
		 (int)getpid());
	book_figure();
	congestion();
	variants();
	onesided_pictures();
	remove(json_path);
	remove(svg_path);
	return tap_done();
}
