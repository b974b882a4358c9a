/*
 * rank_getopt.c - getopt, getopt_long and getopt_long_only with their
 * variables (optind, optarg, opterr, optopt) for one rank.
 *
 * vpmpicc links this file's archive member into the program's shared
 * object, which vp loads once per rank: the program's references bind to
 * these definitions (the object is linked -Bsymbolic, the symbols are
 * hidden), so every rank parses its own argv with its own optind, as
 * every MPI process does. libc's getopt keeps its position in variables
 * of the process, which all ranks would share.
 *
 * Behaviour: POSIX.1-2017 getopt(), with the GNU extensions documented in
 * the glibc manual (sec. 25.2, "Parsing program options using getopt"):
 *   - argv is permuted so that options come first, unless optstring
 *     starts with '+' or POSIXLY_CORRECT is set (then parsing stops at
 *     the first non-option); a leading '-' returns each non-option as
 *     option 1 with optarg set;
 *   - a ':' after those prefixes: no messages, and ':' for a missing
 *     argument; "x::" is an optional argument, in the same element only;
 *   - "--" ends the options; optind = 0 restarts the scan;
 *   - long options "--name", "--name=value", "--name value", unique
 *     prefixes; getopt_long_only also takes "-name";
 *   - the messages are glibc's, on stderr, prefixed by argv[0].
 * __posix_getopt (what glibc's <unistd.h> calls for a strict POSIX
 * program) never permutes. The "W;" extension is not supported: -W is an
 * ordinary option character.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rank_libc.h"

VPMPI_RANK_DATA char *optarg;
VPMPI_RANK_DATA int optind = 1;
VPMPI_RANK_DATA int opterr = 1;
VPMPI_RANK_DATA int optopt = '?';

enum order { PERMUTE, REQUIRE_ORDER, RETURN_IN_ORDER };

/* where the scan is: the rest of a cluster of short options, and the
 * non-options skipped so far, argv[first_nonopt .. last_nonopt) */
static struct {
	int initialized;
	enum order order;
	const char *nextchar;
	int first_nonopt, last_nonopt;
} scan;

static void report(int print, char *const argv[], const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(int print, char *const argv[], const char *fmt, ...)
{
	va_list ap;

	if (!print)
		return;
	fprintf(stderr, "%s: ", argv[0]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* Moves the options argv[last_nonopt .. optind) in front of the skipped
 * non-options argv[first_nonopt .. last_nonopt), keeping both orders. */
static void rotate(char *const argv_c[])
{
	char **argv = (char **)argv_c;
	int i, f = scan.first_nonopt, l = scan.last_nonopt;

	for (; l < optind; l++) { /* bubble each option in front */
		char *opt = argv[l];

		for (i = l; i > f; i--)
			argv[i] = argv[i - 1];
		argv[f++] = opt;
	}
	scan.first_nonopt = f;
	scan.last_nonopt = optind;
}

static int is_nonoption(const char *s)
{
	return s[0] != '-' || s[1] == '\0';
}

/* The prefix characters of optstring: the order, and where they end. */
static const char *start(const char *optstring, int posix)
{
	if (optind == 0 || !scan.initialized) {
		if (optind == 0)
			optind = 1;
		scan.first_nonopt = scan.last_nonopt = optind;
		scan.nextchar = NULL;
		scan.order = posix || getenv("POSIXLY_CORRECT") ? REQUIRE_ORDER
								 : PERMUTE;
		if (optstring[0] == '-')
			scan.order = RETURN_IN_ORDER;
		else if (optstring[0] == '+')
			scan.order = REQUIRE_ORDER;
		scan.initialized = 1;
	}
	if (optstring[0] == '-' || optstring[0] == '+')
		optstring++;
	return optstring;
}

/* At a new argv element: skips (and later permutes) non-options. Returns
 * 0 when argv[optind] is an option to parse, -1 at the end, or 1 for a
 * non-option returned in order (optarg holds it). */
static int next_element(int argc, char *const argv[])
{
	if (scan.last_nonopt > optind)
		scan.last_nonopt = optind;
	if (scan.first_nonopt > optind)
		scan.first_nonopt = optind;
	if (scan.order == PERMUTE) {
		if (scan.first_nonopt != scan.last_nonopt &&
		    scan.last_nonopt != optind)
			rotate(argv);
		else if (scan.last_nonopt != optind)
			scan.first_nonopt = optind;
		while (optind < argc && is_nonoption(argv[optind]))
			optind++;
		scan.last_nonopt = optind;
	}
	if (optind != argc && !strcmp(argv[optind], "--")) {
		optind++;
		if (scan.first_nonopt != scan.last_nonopt &&
		    scan.last_nonopt != optind)
			rotate(argv);
		else if (scan.first_nonopt == scan.last_nonopt)
			scan.first_nonopt = optind;
		scan.last_nonopt = argc;
		optind = argc;
	}
	if (optind == argc) {
		if (scan.first_nonopt != scan.last_nonopt)
			optind = scan.first_nonopt;
		return -1;
	}
	if (is_nonoption(argv[optind])) {
		if (scan.order == REQUIRE_ORDER)
			return -1;
		optarg = argv[optind++];
		return 1;
	}
	return 0;
}

/* The long options that name starts (namelen characters): the exact one,
 * or the only prefix match; *ambiguous is set when several differ. */
static const struct option *find_long(const struct option *longopts,
				      const char *name, size_t namelen,
				      int long_only, int *ambiguous,
				      int *index)
{
	const struct option *o, *found = NULL;
	int i;

	*ambiguous = 0;
	for (o = longopts, i = 0; o->name; o++, i++) {
		if (strncmp(o->name, name, namelen))
			continue;
		if (strlen(o->name) == namelen) {
			*ambiguous = 0;
			*index = i;
			return o; /* an exact match wins */
		}
		if (!found) {
			found = o;
			*index = i;
		} else if (long_only || found->has_arg != o->has_arg ||
			   found->flag != o->flag || found->val != o->val) {
			*ambiguous = 1;
		}
	}
	return found;
}

static void list_ambiguous(char *const argv[], const char *prefix,
			   const struct option *longopts, const char *name,
			   size_t namelen)
{
	const struct option *o;

	fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:",
		argv[0], prefix, name);
	for (o = longopts; o->name; o++)
		if (!strncmp(o->name, name, namelen))
			fprintf(stderr, " '%s%s'", prefix, o->name);
	fputc('\n', stderr);
}

/* A matched long option's argument and result (*longind is set only
 * when it is taken, as glibc does). */
static int take_long(int argc, char *const argv[], const struct option *o,
		     const char *eq, int colon, int print, const char *prefix,
		     int *longind, int index)
{
	optind++;
	scan.nextchar = NULL;
	if (eq) {
		if (o->has_arg == no_argument) {
			report(print, argv,
			       "option '%s%s' doesn't allow an argument\n",
			       prefix, o->name);
			optopt = o->val;
			return '?';
		}
		optarg = (char *)eq + 1;
	} else if (o->has_arg == required_argument) {
		if (optind >= argc) {
			report(print, argv,
			       "option '%s%s' requires an argument\n", prefix,
			       o->name);
			optopt = o->val;
			return colon ? ':' : '?';
		}
		optarg = argv[optind++];
	}
	if (longind)
		*longind = index;
	if (o->flag) {
		*o->flag = o->val;
		return 0;
	}
	return o->val;
}

/* argv[optind] as a long option (after prefix "--" or "-"): its result,
 * or -1 when getopt_long_only should read it as short options. */
static int long_option(int argc, char *const argv[], const char *optstring,
		       const struct option *longopts, int *longind,
		       int long_only, int print, const char *prefix)
{
	const char *name = argv[optind] + strlen(prefix);
	const char *eq = strchr(name, '=');
	size_t namelen = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o;
	int ambiguous, index = 0;

	o = find_long(longopts, name, namelen, long_only, &ambiguous, &index);
	if (o && ambiguous) {
		if (print)
			list_ambiguous(argv, prefix, longopts, name, namelen);
		scan.nextchar = NULL;
		optind++;
		optopt = 0;
		return '?';
	}
	if (!o) {
		if (long_only && prefix[1] != '-' && strchr(optstring, *name))
			return -1;
		report(print, argv, "unrecognized option '%s%s'\n", prefix,
		       name);
		scan.nextchar = NULL;
		optind++;
		optopt = 0;
		return '?';
	}
	return take_long(argc, argv, o, eq, optstring[0] == ':', print,
			 prefix, longind, index);
}

/* The next character of a cluster of short options. */
static int short_option(int argc, char *const argv[], const char *optstring,
			int print)
{
	char c = *scan.nextchar++;
	const char *spec = strchr(optstring, c);

	if (!*scan.nextchar)
		optind++;
	if (!spec || c == ':' || c == ';') {
		report(print, argv, "invalid option -- '%c'\n", c);
		optopt = c;
		return '?';
	}
	if (spec[1] != ':')
		return c;
	if (*scan.nextchar) { /* the argument in the same element */
		optarg = (char *)scan.nextchar;
		optind++;
	} else if (spec[2] != ':') { /* required: the next element */
		if (optind >= argc) {
			report(print, argv,
			       "option requires an argument -- '%c'\n", c);
			optopt = c;
			c = optstring[0] == ':' ? ':' : '?';
		} else {
			optarg = argv[optind++];
		}
	}
	scan.nextchar = NULL;
	return c;
}

static int parse(int argc, char *const argv[], const char *optstring,
		 const struct option *longopts, int *longind, int long_only,
		 int posix)
{
	int print, r;

	optarg = NULL;
	if (argc < 1)
		return -1;
	optstring = start(optstring, posix);
	print = opterr && optstring[0] != ':';
	if (!scan.nextchar || !*scan.nextchar) {
		if ((r = next_element(argc, argv)) != 0)
			return r;
		if (longopts && argv[optind][1] == '-') {
			scan.nextchar = argv[optind] + 2;
			return long_option(argc, argv, optstring, longopts,
					   longind, long_only, print, "--");
		}
		scan.nextchar = argv[optind] + 1;
		if (longopts && long_only &&
		    (argv[optind][2] || !strchr(optstring, argv[optind][1]))) {
			r = long_option(argc, argv, optstring, longopts,
					longind, long_only, print, "-");
			if (r != -1)
				return r;
		}
	}
	return short_option(argc, argv, optstring, print);
}

VPMPI_RANK_API int getopt(int argc, char *const argv[], const char *optstring)
{
	return parse(argc, argv, optstring, NULL, NULL, 0, 0);
}

VPMPI_RANK_API int __posix_getopt(int argc, char *const argv[],
				  const char *optstring);
VPMPI_RANK_API int __posix_getopt(int argc, char *const argv[],
				  const char *optstring)
{
	return parse(argc, argv, optstring, NULL, NULL, 0, 1);
}

VPMPI_RANK_API int getopt_long(int argc, char *const argv[],
			       const char *optstring,
			       const struct option *longopts, int *longind)
{
	return parse(argc, argv, optstring, longopts, longind, 0, 0);
}

VPMPI_RANK_API int getopt_long_only(int argc, char *const argv[],
				    const char *optstring,
				    const struct option *longopts,
				    int *longind)
{
	return parse(argc, argv, optstring, longopts, longind, 1, 0);
}
