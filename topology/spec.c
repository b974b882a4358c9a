/*
 * spec.c - parses topology specs ("ring:8", "mesh:3x4", "hypercube:3", ...)
 * into struct vp__topo. Anything else is refused with a message that quotes
 * the spec and lists the accepted forms.
 */
#include "topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vp.h"

static const char accepted[] =
	"accepted: ring:P, line:P, mesh:RxC, torus:RxC, hypercube:D, "
	"tree:P (P a power of two), full:P; 1 <= P <= 65536, 0 <= D <= 16";

/* Reads a decimal integer >= min from *s, advancing it; -1 if none. */
static long read_count(const char **s, long min)
{
	char *end;
	long v;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	v = strtol(*s, &end, 10);
	if (errno || v < min || v > VP__TOPO_MAX_P)
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
	static const struct {
		const char *name;
		enum vp__topo_kind kind;
	} kinds[] = {
		{"ring", VP__TOPO_RING},   {"line", VP__TOPO_LINE},
		{"mesh", VP__TOPO_MESH},   {"torus", VP__TOPO_TORUS},
		{"hypercube", VP__TOPO_HYPERCUBE}, {"tree", VP__TOPO_TREE},
		{"full", VP__TOPO_FULL},
	};
	const char *colon, *s;
	size_t i, namelen;
	long a, b = 1;

	if (!spec)
		return refuse("(null)", "no spec", err, errlen);
	colon = strchr(spec, ':');
	if (!colon)
		return refuse(spec, "missing ':'", err, errlen);
	namelen = (size_t)(colon - spec);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == namelen &&
		    !strncmp(spec, kinds[i].name, namelen))
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0]))
		return refuse(spec, "unknown kind", err, errlen);

	memset(t, 0, sizeof(*t));
	t->kind = kinds[i].kind;
	s = colon + 1;
	a = read_count(&s, t->kind == VP__TOPO_HYPERCUBE ? 0 : 1);
	if (a < 0)
		return refuse(spec, "size missing, zero or too large", err,
			      errlen);
	if (t->kind == VP__TOPO_MESH || t->kind == VP__TOPO_TORUS) {
		if (*s != 'x')
			return refuse(spec, "expected RxC", err, errlen);
		s++;
		b = read_count(&s, 1);
		if (b < 0)
			return refuse(spec, "expected RxC", err, errlen);
		if (a * b > VP__TOPO_MAX_P)
			return refuse(spec, "more than 65536 ranks", err,
				      errlen);
	}
	if (*s != '\0')
		return refuse(spec, "trailing characters", err, errlen);

	switch (t->kind) {
	case VP__TOPO_MESH:
	case VP__TOPO_TORUS:
		t->rows = (int)a;
		t->cols = (int)b;
		t->p = (int)(a * b);
		break;
	case VP__TOPO_HYPERCUBE:
		if (a > 16)
			return refuse(spec, "dimension above 16", err, errlen);
		t->dim = (int)a;
		t->p = 1 << t->dim;
		break;
	case VP__TOPO_TREE:
		if (a & (a - 1))
			return refuse(spec, "tree size not a power of two", err,
				      errlen);
		t->p = (int)a;
		while ((1 << t->dim) < t->p)
			t->dim++;
		break;
	default:
		t->p = (int)a;
		break;
	}
	t->nodes = t->kind == VP__TOPO_TREE ? 2 * t->p - 1 : t->p;
	if (t->kind == VP__TOPO_MESH || t->kind == VP__TOPO_TORUS)
		snprintf(t->spec, sizeof(t->spec), "%s:%dx%d", kinds[i].name,
			 t->rows, t->cols);
	else
		snprintf(t->spec, sizeof(t->spec), "%s:%ld", kinds[i].name, a);
	return 0;
}
