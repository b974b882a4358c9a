/*
 * json_check.h - a strict JSON validator (RFC 8259 grammar) for the tests:
 * json_valid(text) returns 1 when the whole text is one JSON value, else 0
 * and the byte offset of the first error in *where. No allocation; nesting
 * is limited to 64 levels, plenty for traces.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_TESTS_JSON_CHECK_H
#define VP_TESTS_JSON_CHECK_H

#include <string.h>

struct json_in {
	const char *s;
	size_t i, n;
	int depth;
};

static void json_ws(struct json_in *in)
{
	while (in->i < in->n && strchr(" \t\r\n", in->s[in->i]))
		in->i++;
}

static int json_lit(struct json_in *in, const char *word)
{
	size_t k = strlen(word);

	if (in->n - in->i < k || memcmp(in->s + in->i, word, k))
		return 0;
	in->i += k;
	return 1;
}

static int json_string(struct json_in *in)
{
	if (in->i >= in->n || in->s[in->i] != '"')
		return 0;
	for (in->i++; in->i < in->n; in->i++) {
		unsigned char c = (unsigned char)in->s[in->i];

		if (c == '"') {
			in->i++;
			return 1;
		}
		if (c < 0x20)
			return 0;
		if (c == '\\') {
			c = (unsigned char)in->s[++in->i];
			if (c == 'u') {
				int k;

				for (k = 1; k <= 4; k++)
					if (!strchr("0123456789abcdefABCDEF",
						    in->s[in->i + k]) ||
					    !in->s[in->i + k])
						return 0;
				in->i += 4;
			} else if (!c || !strchr("\"\\/bfnrt", c)) {
				return 0;
			}
		}
	}
	return 0;
}

static int json_digits(struct json_in *in)
{
	size_t start = in->i;

	while (in->i < in->n && in->s[in->i] >= '0' && in->s[in->i] <= '9')
		in->i++;
	return in->i > start;
}

static int json_number(struct json_in *in)
{
	if (in->s[in->i] == '-')
		in->i++;
	if (in->i < in->n && in->s[in->i] == '0')
		in->i++;
	else if (!json_digits(in))
		return 0;
	if (in->i < in->n && in->s[in->i] == '.') {
		in->i++;
		if (!json_digits(in))
			return 0;
	}
	if (in->i < in->n && (in->s[in->i] == 'e' || in->s[in->i] == 'E')) {
		in->i++;
		if (in->s[in->i] == '+' || in->s[in->i] == '-')
			in->i++;
		if (!json_digits(in))
			return 0;
	}
	return 1;
}

static int json_value(struct json_in *in);

/* Object or array: open/close brackets, members separated by commas. */
static int json_compound(struct json_in *in, char close, int keyed)
{
	int first = 1;

	if (++in->depth > 64)
		return 0;
	in->i++;
	for (;;) {
		json_ws(in);
		if (in->i < in->n && in->s[in->i] == close && first) {
			in->i++;
			break;
		}
		if (keyed) {
			if (!json_string(in))
				return 0;
			json_ws(in);
			if (in->i >= in->n || in->s[in->i++] != ':')
				return 0;
		}
		if (!json_value(in))
			return 0;
		json_ws(in);
		first = 0;
		if (in->i < in->n && in->s[in->i] == ',') {
			in->i++;
			continue;
		}
		if (in->i < in->n && in->s[in->i] == close) {
			in->i++;
			break;
		}
		return 0;
	}
	in->depth--;
	return 1;
}

static int json_value(struct json_in *in)
{
	json_ws(in);
	if (in->i >= in->n)
		return 0;
	switch (in->s[in->i]) {
	case '{':
		return json_compound(in, '}', 1);
	case '[':
		return json_compound(in, ']', 0);
	case '"':
		return json_string(in);
	case 't':
		return json_lit(in, "true");
	case 'f':
		return json_lit(in, "false");
	case 'n':
		return json_lit(in, "null");
	default:
		return json_number(in);
	}
}

static int json_valid(const char *text, size_t *where)
{
	struct json_in in = {text, 0, strlen(text), 0};
	int ok = json_value(&in);

	json_ws(&in);
	ok = ok && in.i == in.n;
	if (where)
		*where = in.i;
	return ok;
}

/* Occurrences of needle in text (non-overlapping). */
static size_t count_substr(const char *text, const char *needle)
{
	size_t n = 0, k = strlen(needle);

	for (text = strstr(text, needle); text; text = strstr(text + k, needle))
		n++;
	return n;
}

#endif
