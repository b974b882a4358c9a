/*
 * spec.c - cost-model specs: "alpha-beta", "alpha-beta:saf",
 * "logp:L=6,o=2,g=4", "loggp:L=..,o=..,g=..,G=..", "bsp:g=..,l=..", each
 * with an optional ",ports=K" or ",ports=all" (vp_opts.model, vp-run
 * --model). Parameters are name=value in any order; those left out keep
 * the base's value (vp_opts' ts, tw, th for alpha-beta; 0 otherwise).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define FORMS                                                                  \
	"the forms: alpha-beta[:saf][,ts=T,tw=T,th=T], logp:L=T,o=T,g=T, "    \
	"loggp:L=T,o=T,g=T,G=T, bsp:g=T,l=T; any may end in ,ports=K (1.." \
	"16) or ,ports=all"

static const char *const kind_names[] = {
	[VP_MODEL_ALPHA_BETA] = "alpha-beta",
	[VP_MODEL_ALPHA_BETA_SAF] = "alpha-beta:saf",
	[VP_MODEL_LOGP] = "logp",
	[VP_MODEL_LOGGP] = "loggp",
	[VP_MODEL_BSP] = "bsp",
};

const char *vp_model_name(vp_model_kind kind)
{
	if ((unsigned)kind > VP_MODEL_BSP)
		return "?";
	return kind_names[kind];
}

#define BIT(kind) (1u << (kind))
#define AB (BIT(VP_MODEL_ALPHA_BETA) | BIT(VP_MODEL_ALPHA_BETA_SAF))
#define LOGP (BIT(VP_MODEL_LOGP) | BIT(VP_MODEL_LOGGP))
#define BSP BIT(VP_MODEL_BSP)

/* The parameter name of the model, or NULL where it has none. */
static double *param(struct vp__model *m, const char *name, size_t len)
{
	static const struct {
		const char *name;
		size_t off;
		unsigned kinds; /* bit per vp_model_kind */
	} table[] = {
		{ "ts", offsetof(struct vp__model, ts), AB },
		{ "tw", offsetof(struct vp__model, tw), AB },
		{ "th", offsetof(struct vp__model, th), AB },
		{ "L", offsetof(struct vp__model, L), LOGP },
		{ "o", offsetof(struct vp__model, o), LOGP },
		{ "g", offsetof(struct vp__model, g), LOGP | BSP },
		{ "G", offsetof(struct vp__model, G), BIT(VP_MODEL_LOGGP) },
		{ "l", offsetof(struct vp__model, l), BSP },
	};
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strlen(table[i].name) == len &&
		    !strncmp(table[i].name, name, len) &&
		    (table[i].kinds >> m->kind & 1))
			return (double *)((char *)m + table[i].off);
	return NULL;
}

static int bad(char *err, size_t errlen, const char *spec, const char *what,
	       int len, const char *item)
{
	snprintf(err, errlen, "vp_run: model \"%s\": %s '%.*s' (%s)", spec,
		 what, len, item, FORMS);
	return VP_EINVAL;
}

/* One "name=value" item of length len. */
static int parse_item(struct vp__model *m, const char *spec, const char *it,
		      int len, char *err, size_t errlen)
{
	const char *eq = memchr(it, '=', (size_t)len);
	char num[64], *end;
	double v, *field;

	if (!eq)
		return bad(err, errlen, spec, "no value in", len, it);
	if ((size_t)(it + len - eq - 1) >= sizeof(num) || eq + 1 == it + len)
		return bad(err, errlen, spec, "no value in", len, it);
	memcpy(num, eq + 1, (size_t)(it + len - eq - 1));
	num[it + len - eq - 1] = 0;
	if (eq - it == 5 && !strncmp(it, "ports", 5)) {
		long k;

		if (!strcmp(num, "all")) {
			m->ports = 0;
			return VP_OK;
		}
		k = strtol(num, &end, 10);
		if (*end || k < 1 || k > VP__PORTS_MAX)
			return bad(err, errlen, spec, "ports must be 1..16 or all:",
				   len, it);
		m->ports = (int)k;
		return VP_OK;
	}
	field = param(m, it, (size_t)(eq - it));
	if (!field)
		return bad(err, errlen, spec, "this model has no parameter",
			   (int)(eq - it), it);
	v = strtod(num, &end);
	if (*end || !isfinite(v) || v < 0)
		return bad(err, errlen, spec,
			   "a parameter must be a number >= 0:", len, it);
	*field = v;
	return VP_OK;
}

int vp__model_parse(const char *spec, const struct vp__model *base,
		    struct vp__model *m, char *err, size_t errlen)
{
	const char *s = spec ? spec : "", *colon, *items;
	size_t klen;
	int k, rc;

	*m = *base;
	m->kind = VP_MODEL_ALPHA_BETA;
	m->ports = 1;
	if (!*s)
		return VP_OK;
	colon = strchr(s, ':');
	klen = colon ? (size_t)(colon - s) : strlen(s);
	for (k = VP_MODEL_ALPHA_BETA; k <= VP_MODEL_BSP; k++)
		if (k != VP_MODEL_ALPHA_BETA_SAF &&
		    strlen(kind_names[k]) == klen &&
		    !strncmp(kind_names[k], s, klen))
			break;
	if (k > VP_MODEL_BSP)
		return bad(err, errlen, spec, "unknown model", (int)klen, s);
	m->kind = (vp_model_kind)k;
	if (m->kind != VP_MODEL_ALPHA_BETA) /* ts, tw, th are alpha-beta's */
		m->ts = m->tw = m->th = 0;
	items = colon ? colon + 1 : NULL;
	while (items && *items) {
		const char *comma = strchr(items, ',');
		int len = comma ? (int)(comma - items) : (int)strlen(items);

		if (len == 3 && !strncmp(items, "saf", 3) &&
		    m->kind == VP_MODEL_ALPHA_BETA && items == colon + 1)
			m->kind = VP_MODEL_ALPHA_BETA_SAF;
		else if ((rc = parse_item(m, spec, items, len, err, errlen)))
			return rc;
		items = comma ? comma + 1 : NULL;
		if (comma && !*items)
			return bad(err, errlen, spec, "an empty item after",
				   1, comma);
	}
	return VP_OK;
}

int vp_model_parse(const char *spec, vp_model *out, char *err, size_t errlen)
{
	struct vp__model zero, m;
	char buf[512];
	int rc;

	memset(&zero, 0, sizeof(zero));
	if (!out) {
		snprintf(err ? err : buf, err ? errlen : sizeof(buf),
			 "vp_model_parse: out is NULL");
		return VP_EINVAL;
	}
	rc = vp__model_parse(spec, &zero, &m, err ? err : buf,
			     err ? errlen : sizeof(buf));
	if (rc)
		return rc;
	vp__model_public(&m, out);
	return VP_OK;
}

void vp__model_public(const struct vp__model *m, vp_model *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = m->kind;
	out->ts = m->ts;
	out->tw = m->tw;
	out->th = m->th;
	out->L = m->L;
	out->o = m->o;
	out->g = m->g;
	out->G = m->G;
	out->l = m->l;
	out->ports = m->ports;
}
