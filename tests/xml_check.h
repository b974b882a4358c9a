/*
 * xml_check.h - an XML well-formedness check for the tests (the subset an
 * SVG writer produces): an optional <?xml ...?> prolog, comments, one root
 * element, elements properly nested and closed, attribute values quoted,
 * no attribute twice on one element, '<' never raw in text, every '&' a
 * known entity or a character reference. xml_well_formed(text, &where)
 * returns 1, or 0 with the byte offset of the first error.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_TESTS_XML_CHECK_H
#define VP_TESTS_XML_CHECK_H

#include <ctype.h>
#include <string.h>

#define XML_DEPTH 64
#define XML_NAME 48
#define XML_ATTRS 32

static int xml_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.' || c == ':';
}

/* Reads a name into name; returns its length (0: none). */
static size_t xml_name(const char *s, size_t *i, char *name)
{
	size_t k = 0;

	if (!isalpha((unsigned char)s[*i]) && s[*i] != '_')
		return 0;
	while (xml_name_char((unsigned char)s[*i]) && k + 1 < XML_NAME)
		name[k++] = s[(*i)++];
	name[k] = 0;
	return k;
}

static int xml_entity(const char *s, size_t *i)
{
	static const char *known[] = {"&lt;", "&gt;", "&amp;", "&quot;",
				      "&apos;"};
	size_t k;

	for (k = 0; k < 5; k++)
		if (!strncmp(s + *i, known[k], strlen(known[k]))) {
			*i += strlen(known[k]);
			return 1;
		}
	if (s[*i + 1] == '#') {
		k = *i + 2;
		if (s[k] == 'x')
			k++;
		if (!isxdigit((unsigned char)s[k]))
			return 0;
		while (isxdigit((unsigned char)s[k]))
			k++;
		if (s[k] != ';')
			return 0;
		*i = k + 1;
		return 1;
	}
	return 0;
}

static void xml_ws(const char *s, size_t *i)
{
	while (s[*i] && isspace((unsigned char)s[*i]))
		(*i)++;
}

/* Attributes up to '>' or '/>'; sets *empty for '/>'. */
static int xml_attributes(const char *s, size_t *i, int *empty)
{
	char names[XML_ATTRS][XML_NAME];
	int n = 0, k;

	for (;;) {
		char name[XML_NAME], q;

		xml_ws(s, i);
		if (s[*i] == '>') {
			(*i)++;
			*empty = 0;
			return 1;
		}
		if (s[*i] == '/' && s[*i + 1] == '>') {
			*i += 2;
			*empty = 1;
			return 1;
		}
		if (!xml_name(s, i, name) || n == XML_ATTRS)
			return 0;
		for (k = 0; k < n; k++)
			if (!strcmp(names[k], name))
				return 0;
		strcpy(names[n++], name);
		xml_ws(s, i);
		if (s[(*i)++] != '=')
			return 0;
		xml_ws(s, i);
		q = s[(*i)++];
		if (q != '"' && q != '\'')
			return 0;
		while (s[*i] && s[*i] != q) {
			if (s[*i] == '<')
				return 0;
			if (s[*i] != '&')
				(*i)++;
			else if (!xml_entity(s, i))
				return 0;
		}
		if (s[(*i)++] != q)
			return 0;
	}
}

static int xml_well_formed(const char *s, size_t *where)
{
	char stack[XML_DEPTH][XML_NAME];
	int depth = 0, roots = 0, empty;
	size_t i = 0;
	int ok = 0;

	xml_ws(s, &i);
	if (!strncmp(s + i, "<?xml", 5)) {
		const char *end = strstr(s + i, "?>");

		if (!end)
			goto out;
		i = (size_t)(end - s) + 2;
	}
	for (;;) {
		if (!s[i]) {
			ok = depth == 0 && roots == 1;
			goto out;
		}
		if (s[i] == '&') {
			if (!xml_entity(s, &i))
				goto out;
			continue;
		}
		if (s[i] != '<') {
			if (!depth && !isspace((unsigned char)s[i]))
				goto out; /* text outside the root */
			i++;
			continue;
		}
		if (!strncmp(s + i, "<!--", 4)) {
			const char *end = strstr(s + i + 4, "-->");

			if (!end)
				goto out;
			i = (size_t)(end - s) + 3;
			continue;
		}
		if (s[i + 1] == '/') {
			char name[XML_NAME];

			i += 2;
			if (!depth || !xml_name(s, &i, name) ||
			    strcmp(name, stack[depth - 1]))
				goto out;
			xml_ws(s, &i);
			if (s[i++] != '>')
				goto out;
			depth--;
			continue;
		}
		i++;
		if (depth == XML_DEPTH || !xml_name(s, &i, stack[depth]))
			goto out;
		if (!depth && roots++)
			goto out; /* a second root */
		if (!xml_attributes(s, &i, &empty))
			goto out;
		if (!empty)
			depth++;
	}
out:
	if (where)
		*where = i;
	return ok;
}

#endif
