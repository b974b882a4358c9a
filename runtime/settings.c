/*
 * settings.c - the one strict reader of numeric settings: environment
 * variables (VP_FIBERS, VP_WATCHDOG, ...) and the tools' options
 * (vpmpirun, vp-run). The whole text must be the number, in range;
 * anything else is refused with the setting's name and its text, never
 * read as 0 (atoi("yes") is 0, atof("abc") is 0): "VP_FIBERS=yes: ...",
 * or "--bytes lots: ..." for an option (a name that starts with '-').
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime.h"

/* "an integer from 0 to 1", "a number >= 0" */
static void describe(double lo, double hi, int integer, char *buf, size_t len)
{
	const char *what = integer ? "an integer" : "a number";

	if (hi < INFINITY)
		snprintf(buf, len, "%s from %.17g to %.17g", what, lo, hi);
	else
		snprintf(buf, len, "%s >= %.17g", what, lo);
}

int vp_setting_parse(const char *name, const char *text, double lo, double hi,
		     int integer, double *out, char *err, size_t errlen)
{
	char range[96];
	const char *why = NULL;
	char *end;
	double v = 0;

	if (!name || !out)
		return VP_EINVAL;
	describe(lo, hi, integer, range, sizeof(range));
	if (!text || !*text) {
		why = "empty";
	} else {
		errno = 0;
		v = strtod(text, &end);
		if (end == text || *end || isspace((unsigned char)*text))
			why = "not a number";
		else if (errno == ERANGE || !isfinite(v))
			why = "out of range";
		else if (integer && v != floor(v))
			why = "not an integer";
		else if (v < lo || v > hi)
			why = "out of range";
	}
	if (why) {
		if (err && errlen)
			snprintf(err, errlen, "%s%s%s: %s; it must be %s",
				 name, *name == '-' ? " " : "=",
				 text ? text : "", why, range);
		return VP_EINVAL;
	}
	*out = v;
	return VP_OK;
}

int vp_setting_env(const char *name, double lo, double hi, int integer,
		   double dflt, double *out, char *err, size_t errlen)
{
	const char *s = name ? getenv(name) : NULL;

	if (!out)
		return VP_EINVAL;
	if (!s || !*s) {
		*out = dflt;
		return VP_OK;
	}
	return vp_setting_parse(name, s, lo, hi, integer, out, err, errlen);
}

int vp_setting_parse_u64(const char *name, const char *text, uint64_t *out,
			 char *err, size_t errlen)
{
	const char *why = NULL;
	unsigned long long v = 0;
	char *end;

	if (!name || !out)
		return VP_EINVAL;
	if (!text || !*text) {
		why = "empty";
	} else if (!isdigit((unsigned char)*text)) {
		why = "not an unsigned integer";
	} else {
		int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');

		errno = 0;
		v = strtoull(text, &end, hex ? 16 : 10);
		if (*end)
			why = "not an unsigned integer";
		else if (errno == ERANGE)
			why = "out of range";
	}
	if (why) {
		if (err && errlen)
			snprintf(err, errlen,
				 "%s%s%s: %s; it must be an integer from 0 to "
				 "18446744073709551615 (or 0x and hex digits)",
				 name, *name == '-' ? " " : "=",
				 text ? text : "", why);
		return VP_EINVAL;
	}
	*out = (uint64_t)v;
	return VP_OK;
}
