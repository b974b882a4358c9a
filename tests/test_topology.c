/*
 * test_topology.c - topologies as pure functions: spec parsing, neighbour
 * sets, route lengths and shapes, the Gray-code ring in a hypercube.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topology.h"
#include "vp.h"

static struct vp__topo parse(const char *spec)
{
	struct vp__topo t;
	char err[512];

	if (vp__topo_parse(spec, &t, err, sizeof(err))) {
		printf("Bail out! cannot parse %s: %s\n", spec, err);
		exit(1);
	}
	return t;
}

static int route_len(const struct vp__topo *t, int a, int b)
{
	uint64_t links[64];

	return vp__topo_route(t, a, b, links, 64);
}

/* A route must be a chain of links from a to b, each a physical link. */
static int route_is_chain(const struct vp__topo *t, int a, int b)
{
	uint64_t links[64];
	int n = vp__topo_route(t, a, b, links, 64), i, at = a;

	for (i = 0; i < n; i++) {
		if (vp__link_from(links[i]) != at)
			return 0;
		at = vp__link_to(links[i]);
	}
	return at == b;
}

static int popcount(int x)
{
	return __builtin_popcount((unsigned)x);
}

static void test_specs(void)
{
	static const struct {
		const char *spec;
		int p;
	} good[] = {
		{"ring:8", 8},	    {"line:5", 5},	 {"mesh:3x3", 9},
		{"mesh:2x5", 10},   {"torus:4x4", 16},	 {"hypercube:3", 8},
		{"hypercube:0", 1}, {"tree:8", 8},	 {"full:4096", 4096},
		{"ring:1", 1},
	};
	static const char *const bad[] = {
		"mesh:3x",  "mesh:3",	  "ring",   "ring:",     "ring:0",
		"ring:-3",  "ring:8x",	  "tree:6", "cube:3",    "full:70000",
		"torus:x4", "mesh:0x4",   "",	    "hypercube:17", "line:3 ",
	};
	struct vp__topo t;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = vp__topo_parse(good[i].spec, &t, err, sizeof(err));
		tap_ok(rc == 0 && t.p == good[i].p,
		       "spec \"%s\" parses to p = %d", good[i].spec, good[i].p);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = vp__topo_parse(bad[i], &t, err, sizeof(err));
		tap_ok(rc == VP_EINVAL && strstr(err, bad[i]) &&
			       strstr(err, "accepted: ring:P"),
		       "bad spec \"%s\" -> VP_EINVAL quoting it and the forms",
		       bad[i]);
	}
	vp__topo_parse("mesh:3x", &t, err, sizeof(err));
	tap_diag("message: %s", err);
	tap_ok(!strcmp(parse("mesh:3x4").spec, "mesh:3x4") &&
		       !strcmp(parse("hypercube:4").spec, "hypercube:4"),
	       "canonical spec strings");
}

static void test_neighbors(void)
{
	struct vp__topo t;
	int nb[64], n;

	t = parse("ring:8");
	n = vp__topo_neighbors(&t, 0, nb, 64);
	tap_ok(n == 2 && nb[0] == 1 && nb[1] == 7, "ring:8 neighbours of 0 are 1, 7");
	t = parse("line:8");
	n = vp__topo_neighbors(&t, 0, nb, 64);
	tap_ok(n == 1 && nb[0] == 1, "line:8 rank 0 has the single neighbour 1");
	n = vp__topo_neighbors(&t, 7, nb, 64);
	tap_ok(n == 1 && nb[0] == 6, "line:8 rank 7 has the single neighbour 6");
	t = parse("mesh:3x3");
	n = vp__topo_neighbors(&t, 4, nb, 64);
	tap_ok(n == 4 && nb[0] == 1 && nb[1] == 3 && nb[2] == 5 && nb[3] == 7,
	       "mesh:3x3 centre 4 has neighbours 1 3 5 7");
	n = vp__topo_neighbors(&t, 0, nb, 64);
	tap_ok(n == 2 && nb[0] == 1 && nb[1] == 3, "mesh:3x3 corner 0 has 1 3");
	t = parse("torus:3x3");
	n = vp__topo_neighbors(&t, 0, nb, 64);
	tap_ok(n == 4 && nb[0] == 1 && nb[1] == 2 && nb[2] == 3 && nb[3] == 6,
	       "torus:3x3 corner 0 wraps to 1 2 3 6");
	t = parse("hypercube:4");
	n = vp__topo_neighbors(&t, 5, nb, 64);
	tap_ok(n == 4 && nb[0] == 1 && nb[1] == 4 && nb[2] == 7 && nb[3] == 13,
	       "hypercube:4 rank 5 has 1 4 7 13");
	t = parse("tree:8");
	n = vp__topo_neighbors(&t, 2, nb, 64);
	tap_ok(n == 1 && nb[0] == 3, "tree:8 leaf 2 shares its switch with 3");
	t = parse("full:16");
	n = vp__topo_neighbors(&t, 3, nb, 64);
	tap_ok(n == 15, "full:16 rank 3 has 15 neighbours");
	t = parse("ring:2");
	n = vp__topo_neighbors(&t, 0, nb, 64);
	tap_ok(n == 1 && nb[0] == 1, "ring:2 has one neighbour, not two");
}

static void test_routes(void)
{
	struct vp__topo t;
	int a, b, ok;
	uint64_t links[64];

	t = parse("hypercube:5");
	ok = 1;
	for (a = 0; a < t.p; a++)
		for (b = 0; b < t.p; b++)
			ok &= route_len(&t, a, b) == popcount(a ^ b) &&
			      route_is_chain(&t, a, b);
	tap_ok(ok, "hypercube:5 route length = popcount(a ^ b), all pairs");
	vp__topo_route(&t, 0, 7, links, 64);
	tap_ok(vp__link_to(links[0]) == 1 && vp__link_to(links[1]) == 3 &&
		       vp__link_to(links[2]) == 7,
	       "hypercube E-cube 0 -> 7 goes 0 1 3 7 (lowest bit first)");

	t = parse("mesh:4x5");
	ok = 1;
	for (a = 0; a < t.p; a++)
		for (b = 0; b < t.p; b++)
			ok &= route_len(&t, a, b) ==
				      abs(a / 5 - b / 5) + abs(a % 5 - b % 5) &&
			      route_is_chain(&t, a, b);
	tap_ok(ok, "mesh:4x5 route length = Manhattan distance, all pairs");
	vp__topo_route(&t, 0, 6, links, 64);
	tap_ok(vp__link_to(links[0]) == 1 && vp__link_to(links[1]) == 6,
	       "mesh X then Y: 0 -> 6 goes through 1 (row first)");

	t = parse("torus:4x4");
	tap_ok(route_len(&t, 0, 3) == 1 && route_len(&t, 0, 12) == 1 &&
		       route_len(&t, 0, 15) == 2 && route_len(&t, 0, 10) == 4,
	       "torus:4x4 wraps: 0->3 1, 0->12 1, 0->15 2, 0->10 4");
	ok = 1;
	for (a = 0; a < t.p; a++)
		for (b = 0; b < t.p; b++)
			ok &= route_is_chain(&t, a, b);
	tap_ok(ok, "torus:4x4 routes are chains of links");

	t = parse("ring:8");
	tap_ok(route_len(&t, 0, 3) == 3 && route_len(&t, 0, 5) == 3 &&
		       route_len(&t, 6, 1) == 3,
	       "ring:8 takes the shorter way");
	vp__topo_route(&t, 0, 4, links, 64);
	tap_ok(route_len(&t, 0, 4) == 4 && vp__link_to(links[0]) == 1,
	       "ring:8 tie at distance 4 goes clockwise (0 -> 1 -> ...)");
	vp__topo_route(&t, 5, 1, links, 64);
	tap_ok(vp__link_to(links[0]) == 6, "ring:8 tie 5 -> 1 goes clockwise");

	t = parse("line:8");
	tap_ok(route_len(&t, 7, 0) == 7 && route_is_chain(&t, 7, 0),
	       "line:8 7 -> 0 crosses 7 links");

	t = parse("tree:8");
	tap_ok(route_len(&t, 0, 1) == 2 && route_len(&t, 0, 2) == 4 &&
		       route_len(&t, 0, 7) == 6 && route_len(&t, 5, 4) == 2,
	       "tree:8 route = 2 x levels to the common switch");
	ok = 1;
	for (a = 0; a < t.p; a++)
		for (b = 0; b < t.p; b++)
			ok &= route_is_chain(&t, a, b);
	tap_ok(ok, "tree:8 routes go up then down through switches");
	vp__topo_route(&t, 0, 7, links, 64);
	tap_ok(vp__link_to(links[2]) == 8 && vp__link_from(links[3]) == 8,
	       "tree:8 0 -> 7 turns at the root switch (node 8)");

	t = parse("full:16");
	tap_ok(route_len(&t, 3, 12) == 1 && route_len(&t, 3, 3) == 0,
	       "full:16 routes are direct");
}

static void test_gray(void)
{
	struct vp__topo t = parse("hypercube:4");
	int i, ok = 1;

	for (i = 0; i < t.p; i++) {
		int a = vp__gray(i), b = vp__gray((i + 1) % t.p);
		ok &= vp__topo_is_neighbor(&t, a, b);
		ok &= vp__gray_inverse(a) == i;
	}
	tap_ok(ok, "Gray-code ring: successive positions are cube neighbours, "
		   "and the inverse maps back");
}

/* Distances match route lengths, and every link of every route gets its
 * own dense index (no two distinct links share a counter). */
static void test_distance_and_link_index(void)
{
	static const char *const specs[] = {"ring:9",	   "ring:8",
					    "line:6",	   "mesh:3x4",
					    "torus:3x5",   "torus:2x2",
					    "hypercube:4", "tree:16"};
	size_t i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct vp__topo t = parse(specs[i]);
		size_t slots = vp__topo_link_slots(&t);
		uint64_t *owner = calloc(slots, sizeof(*owner));
		uint64_t links[64];
		int a, b, k, n, ok = 1;

		for (a = 0; a < t.p; a++)
			for (b = 0; b < t.p; b++) {
				n = vp__topo_route(&t, a, b, links, 64);
				ok &= n == vp__topo_distance(&t, a, b);
				for (k = 0; k < n; k++) {
					size_t ix = vp__topo_link_index(
						&t, links[k]);
					ok &= ix < slots;
					if (ix >= slots)
						continue;
					/* store link + 1 so 0 means free */
					ok &= !owner[ix] ||
					      owner[ix] == links[k] + 1;
					owner[ix] = links[k] + 1;
				}
			}
		tap_ok(ok, "%s: distance = route length; distinct links have "
			   "distinct counter slots",
		       specs[i]);
		free(owner);
	}
}

/* The public description: what collectives and tools read instead of
 * parsing spec strings. */
struct info_case {
	const char *spec;
	vp_topo_kind kind;
	int p, ndims, d0, d1, dim, wrap, diameter;
};

static int info_rank(vp_comm *c, void *arg)
{
	vp_topo *out = arg;

	if (vp_rank(c) == 0)
		return vp_topo_info(c, out);
	return VP_OK;
}

static void test_public_info(void)
{
	static const struct info_case cases[] = {
		{"ring:8", VP_TOPO_RING, 8, 1, 8, 0, 0, 1, 4},
		{"line:5", VP_TOPO_LINE, 5, 1, 5, 0, 0, 0, 4},
		{"mesh:3x4", VP_TOPO_MESH, 12, 2, 3, 4, 0, 0, 5},
		{"torus:4x4", VP_TOPO_TORUS, 16, 2, 4, 4, 0, 1, 4},
		{"hypercube:3", VP_TOPO_HYPERCUBE, 8, 1, 8, 0, 3, 0, 3},
		{"tree:8", VP_TOPO_TREE, 8, 1, 8, 0, 3, 0, 6},
		{"full:6", VP_TOPO_FULL, 6, 1, 6, 0, 0, 0, 1},
	};
	static const struct {
		const char *kind;
		int p;
		const char *spec; /* NULL: refused */
	} specs[] = {
		{"mesh", 12, "mesh:3x4"},     {"torus", 7, "torus:1x7"},
		{"hypercube", 16, "hypercube:4"}, {"hypercube", 6, NULL},
		{"tree", 6, NULL},	      {"ring", 9, "ring:9"},
		{"star", 4, NULL},
	};
	char err[400], buf[64];
	size_t i;
	vp_topo t, run;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct info_case *k = &cases[i];
		vp_opts o = {.topology = k->spec, .quiet = 1};
		int rc = vp_topo_parse(k->spec, &t, err, sizeof(err));

		tap_ok(rc == 0 && t.kind == k->kind && t.p == k->p &&
			       t.ndims == k->ndims && t.dims[0] == k->d0 &&
			       t.dims[1] == k->d1 && t.dim == k->dim &&
			       t.wraparound == k->wrap &&
			       t.diameter == k->diameter &&
			       !strcmp(t.spec, k->spec) &&
			       !strncmp(k->spec, t.name, strlen(t.name)),
		       "vp_topo_parse(%s): kind %d p %d dims %dx%d dim %d "
		       "wrap %d diameter %d",
		       k->spec, (int)t.kind, t.p, t.dims[0], t.dims[1], t.dim,
		       t.wraparound, t.diameter);
		memset(&run, 0, sizeof(run));
		rc = vp_run(&o, info_rank, &run, NULL);
		tap_ok(rc == 0 && !memcmp(&run, &t, sizeof(t)),
		       "vp_topo_info on %s describes the run as vp_topo_parse "
		       "does",
		       k->spec);
	}
	tap_ok(vp_topo_parse("mesh:3", &t, err, sizeof(err)) == VP_EINVAL &&
		       strstr(err, "mesh:3") && strstr(err, "accepted"),
	       "vp_topo_parse refuses mesh:3 quoting it: %s", err);
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		int rc = vp_topo_spec(specs[i].kind, specs[i].p, buf,
				      sizeof(buf));
		tap_ok(specs[i].spec ? rc == 0 && !strcmp(buf, specs[i].spec)
				     : rc == VP_EINVAL,
		       "vp_topo_spec(%s, %d) is %s", specs[i].kind,
		       specs[i].p, specs[i].spec ? specs[i].spec : "refused");
	}
}

int main(void)
{
	test_public_info();
	test_distance_and_link_index();
	test_specs();
	test_neighbors();
	test_routes();
	test_gray();
	return tap_done();
}
