/*
 * topology.c - topologies as data: the table of kinds, the spec parser
 * ("ring:8", "mesh:3x4", "hypercube:3", ...) and the questions the runtime
 * asks, each answered by the kind's descriptor (kinds.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "vp.h"

static const struct vp__topo_class *const classes[] = {
	&vp__topo_ring,      &vp__topo_line, &vp__topo_mesh, &vp__topo_torus,
	&vp__topo_hypercube, &vp__topo_tree, &vp__topo_full,
};
#define NCLASSES (int)(sizeof(classes) / sizeof(classes[0]))
#define MAX_CANDIDATES 16

#define STR_(x) #x
#define STR(x) STR_(x)
static const char accepted[] =
    "accepted: ring:P, line:P, mesh:RxC, torus:RxC, hypercube:D, "
    "tree:P (P a power of two), full:P; 1 <= P <= " STR(
	VP_MAX_RANKS) ", 0 <= D <= 16";

const char *vp__topo_kind_name(enum vp__topo_kind kind)
{
	int i;

	for (i = 0; i < NCLASSES; i++)
		if (classes[i]->kind == kind)
			return classes[i]->name;
	return "?";
}

/* Reads a decimal integer >= min from *s, advancing it; -1 if none. */
static long read_count(const char **s, long min)
{
	char *end;
	long v;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	v = strtol(*s, &end, 10);
	if (errno || v < min || v > VP_MAX_RANKS)
		return -1;
	*s = end;
	return v;
}

static int refuse(const char *spec, const char *why, char *err, size_t errlen)
{
	if (err)
		snprintf(err, errlen, "bad topology \"%s\": %s; %s", spec, why,
			 accepted);
	return VP_EINVAL;
}

int vp__topo_parse(const char *spec, struct vp__topo *t, char *err,
		   size_t errlen)
{
	const struct vp__topo_class *cls = NULL;
	const char *colon, *s, *why = NULL;
	size_t namelen;
	long a, b = 1;
	int i;

	if (!spec)
		return refuse("(null)", "no spec", err, errlen);
	colon = strchr(spec, ':');
	if (!colon)
		return refuse(spec, "missing ':'", err, errlen);
	namelen = (size_t)(colon - spec);
	for (i = 0; i < NCLASSES && !cls; i++)
		if (strlen(classes[i]->name) == namelen &&
		    !strncmp(spec, classes[i]->name, namelen))
			cls = classes[i];
	if (!cls)
		return refuse(spec, "unknown kind", err, errlen);

	memset(t, 0, sizeof(*t));
	t->kind = cls->kind;
	t->cls = cls;
	s = colon + 1;
	a = read_count(&s, cls->size_is_dim ? 0 : 1);
	if (a < 0)
		return refuse(spec, "size missing, zero or too large", err,
			      errlen);
	if (cls->two_dims) {
		if (*s != 'x')
			return refuse(spec, "expected RxC", err, errlen);
		s++;
		b = read_count(&s, 1);
		if (b < 0)
			return refuse(spec, "expected RxC", err, errlen);
		if (a * b > VP_MAX_RANKS)
			return refuse(spec,
				      "more than " STR(VP_MAX_RANKS) " ranks",
				      err, errlen);
	}
	if (*s != '\0')
		return refuse(spec, "trailing characters", err, errlen);
	if (cls->setup(t, a, b, &why))
		return refuse(spec, why, err, errlen);
	if (!t->nodes)
		t->nodes = t->p;
	if (cls->two_dims)
		snprintf(t->spec, sizeof(t->spec), "%s:%dx%d", cls->name,
			 t->rows, t->cols);
	else
		snprintf(t->spec, sizeof(t->spec), "%s:%ld", cls->name, a);
	return 0;
}

_Static_assert((int)VP_TOPO_RING == (int)VP__TOPO_RING &&
		   (int)VP_TOPO_FULL == (int)VP__TOPO_FULL &&
		   (int)VP_TOPO_HYPERCUBE == (int)VP__TOPO_HYPERCUBE,
	       "public and internal kinds share their numbers");

void vp__topo_describe(const struct vp__topo *t, struct vp_topo *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = (vp_topo_kind)t->kind;
	out->name = t->cls->name;
	out->p = t->p;
	out->ndims = t->cls->two_dims ? 2 : 1;
	out->dims[0] = t->cls->two_dims ? t->rows : t->p;
	out->dims[1] = t->cls->two_dims ? t->cols : 0;
	out->dim = t->dim;
	out->wraparound = t->cls->wraps;
	out->diameter = vp__topo_max_hops(t);
	/* no printf: collectives ask this on every call */
	memcpy(out->spec, t->spec, sizeof(out->spec));
	out->spec[sizeof(out->spec) - 1] = '\0';
}

int vp_topo_parse(const char *spec, struct vp_topo *out, char *err,
		  size_t errlen)
{
	struct vp__topo t;
	int rc;

	if (!out)
		return VP_EINVAL;
	rc = vp__topo_parse(spec, &t, err, err ? errlen : 0);
	if (rc)
		return rc;
	vp__topo_describe(&t, out);
	return VP_OK;
}

int vp_topo_spec(const char *kind, int p, char *buf, size_t len)
{
	const struct vp__topo_class *cls = NULL;
	struct vp__topo t;
	char spec[64];
	int i, a = p, b;

	for (i = 0; i < NCLASSES && kind && !cls; i++)
		if (!strcmp(kind, classes[i]->name))
			cls = classes[i];
	if (!cls || !buf || p < 1)
		return VP_EINVAL;
	if (cls->size_is_dim)
		for (a = 0; (1L << a) < p; a++)
			;
	if (cls->two_dims) {
		for (a = (int)sqrt((double)p); a > 1 && p % a; a--)
			;
		b = p / a;
		snprintf(spec, sizeof(spec), "%s:%dx%d", cls->name, a, b);
	} else {
		snprintf(spec, sizeof(spec), "%s:%d", cls->name, a);
	}
	if (vp__topo_parse(spec, &t, NULL, 0) || t.p != p ||
	    (size_t)snprintf(buf, len, "%s", spec) >= len)
		return VP_EINVAL;
	return VP_OK;
}

int vp__topo_wraps(const struct vp__topo *t)
{
	return t->cls->wraps;
}

int vp__topo_is_neighbor(const struct vp__topo *t, int a, int b)
{
	if (a == b || a < 0 || b < 0 || a >= t->p || b >= t->p)
		return 0;
	return t->cls->is_neighbor(t, a, b);
}

int vp__topo_neighbors(const struct vp__topo *t, int r, int *out, int max)
{
	int cand[MAX_CANDIDATES], k, i, j, tmp, n = 0;

	if (!t->cls->candidates) { /* every other rank */
		for (i = 0; i < t->p; i++)
			if (i != r) {
				if (n < max)
					out[n] = i;
				n++;
			}
		return n;
	}
	k = t->cls->candidates(t, r, cand);
	for (i = 1; i < k; i++) /* insertion sort: k <= 16 */
		for (j = i; j > 0 && cand[j - 1] > cand[j]; j--)
			tmp = cand[j], cand[j] = cand[j - 1], cand[j - 1] = tmp;
	for (i = 0; i < k; i++) {
		if ((i > 0 && cand[i] == cand[i - 1]) ||
		    !vp__topo_is_neighbor(t, r, cand[i]))
			continue;
		if (n < max)
			out[n] = cand[i];
		n++;
	}
	return n;
}

int vp__topo_max_hops(const struct vp__topo *t)
{
	return t->cls->max_hops(t);
}

int vp__topo_route(const struct vp__topo *t, int a, int b, uint64_t *links,
		   int max)
{
	return a == b ? 0 : t->cls->route(t, a, b, links, max);
}

int vp__topo_distance(const struct vp__topo *t, int a, int b)
{
	return a == b ? 0 : t->cls->distance(t, a, b);
}

size_t vp__topo_link_slots(const struct vp__topo *t)
{
	return t->cls->link_slots(t);
}

size_t vp__topo_link_index(const struct vp__topo *t, uint64_t link)
{
	return t->cls->link_index(t, link);
}

int vp__gray_inverse(int g)
{
	int i = 0;

	for (; g; g >>= 1)
		i ^= g;
	return i;
}
