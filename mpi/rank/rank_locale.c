/*
 * rank_locale.c - setlocale for one rank (see rank_libc.h): libc's
 * changes the locale of the whole process, so one rank's
 * setlocale(LC_ALL, "") or LC_NUMERIC change would change how every rank
 * prints and reads numbers.
 *
 * The rank's locale is a locale object (POSIX.1-2008 newlocale) made the
 * calling thread's with uselocale: what depends on the locale (printf's
 * decimal point, strtod, the <ctype.h> classes, MB_CUR_MAX, strcoll,
 * localeconv, nl_langinfo) follows it on that thread, which is the
 * rank's. setlocale keeps the names of the rank's categories itself and
 * answers queries from them as glibc does: one name when all categories
 * agree, else glibc's composite "LC_CTYPE=...;LC_NUMERIC=...;...". A
 * rank starts in the "C" locale, as a process does; "" reads the
 * environment (LC_ALL, then LC_<CATEGORY>, then LANG); "POSIX" is "C".
 * Threads the rank starts itself begin in the process's locale, as the
 * rank's setlocale does not reach them (uselocale is per thread).
 * Locale objects the rank left stay allocated until its copy of the
 * program is unloaded: another thread may still use one. Under vpmpirun
 * --shared-globals the ranks share the names and the current object, and
 * each rank's thread takes the locale when that rank calls setlocale.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rank_libc.h"

#define NCAT (LC_IDENTIFICATION + 1)
#define NAME_MAX_ 256

static const char *const cat_name[NCAT] = {
	[LC_CTYPE] = "LC_CTYPE",	   [LC_NUMERIC] = "LC_NUMERIC",
	[LC_TIME] = "LC_TIME",		   [LC_COLLATE] = "LC_COLLATE",
	[LC_MONETARY] = "LC_MONETARY",	   [LC_MESSAGES] = "LC_MESSAGES",
	[LC_ALL] = "LC_ALL",		   [LC_PAPER] = "LC_PAPER",
	[LC_NAME] = "LC_NAME",		   [LC_ADDRESS] = "LC_ADDRESS",
	[LC_TELEPHONE] = "LC_TELEPHONE",   [LC_MEASUREMENT] = "LC_MEASUREMENT",
	[LC_IDENTIFICATION] = "LC_IDENTIFICATION",
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char names[NCAT][NAME_MAX_]; /* "" is "C" */
static char answer[NCAT * (NAME_MAX_ + 20)];
static locale_t *objects; /* every object made; the last is current */
static size_t nobjects;

static const char *name_of(int cat)
{
	return names[cat][0] ? names[cat] : "C";
}

/* The name "" stands for in category cat (POSIX.1-2017 sec. 8.2). */
static const char *from_environment(int cat)
{
	const char *s = getenv("LC_ALL");

	if (s && *s)
		return s;
	if ((s = getenv(cat_name[cat])) && *s)
		return s;
	if ((s = getenv("LANG")) && *s)
		return s;
	return "C";
}

/* want[c]: the name each category is to take (NULL: unchanged). Makes
 * the new object and the thread's locale, or returns -1 changing
 * nothing. Called with the lock held. */
static int apply(const char *want[NCAT])
{
	locale_t base, loc;
	locale_t *grown;
	int c;

	base = nobjects ? duplocale(objects[nobjects - 1])
			: newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!base)
		return -1;
	for (c = 0; c < NCAT; c++) {
		if (c == LC_ALL || !want[c])
			continue;
		if (!(loc = newlocale(1 << c, want[c], base))) {
			freelocale(base);
			return -1;
		}
		base = loc;
	}
	grown = realloc(objects, (nobjects + 1) * sizeof(*objects));
	if (!grown) {
		freelocale(base);
		return -1;
	}
	objects = grown;
	objects[nobjects++] = base;
	for (c = 0; c < NCAT; c++)
		if (c != LC_ALL && want[c])
			snprintf(names[c], NAME_MAX_, "%s",
				 strcmp(want[c], "POSIX") ? want[c] : "C");
	uselocale(base);
	return 0;
}

/* glibc's composite LC_ALL name: "LC_CTYPE=a;LC_NUMERIC=b;..." into
 * want[], or -1 when s is not one. */
static int parse_composite(const char *s, const char *want[NCAT],
			   char buf[NCAT][NAME_MAX_])
{
	int c;

	for (c = 0; c < NCAT; c++) {
		size_t len = strlen(cat_name[c]), v;

		if (c == LC_ALL)
			continue;
		if (strncmp(s, cat_name[c], len) || s[len] != '=')
			return -1;
		s += len + 1;
		v = strcspn(s, ";");
		if (v >= NAME_MAX_)
			return -1;
		memcpy(buf[c], s, v);
		buf[c][v] = 0;
		want[c] = buf[c];
		s += v + (s[v] == ';');
	}
	return *s ? -1 : 0;
}

/* The answer to a query of category cat. Called with the lock held. */
static char *query(int cat)
{
	int c, same = 1;
	size_t at = 0;

	if (cat != LC_ALL) {
		snprintf(answer, sizeof(answer), "%s", name_of(cat));
		return answer;
	}
	for (c = 1; c < NCAT; c++)
		if (c != LC_ALL && strcmp(name_of(c), name_of(0)))
			same = 0;
	if (same) {
		snprintf(answer, sizeof(answer), "%s", name_of(0));
		return answer;
	}
	for (c = 0; c < NCAT; c++)
		if (c != LC_ALL)
			at += (size_t)snprintf(answer + at, sizeof(answer) - at,
					       "%s%s=%s", at ? ";" : "",
					       cat_name[c], name_of(c));
	return answer;
}

VPMPI_RANK_API char *setlocale(int cat, const char *locale)
{
	const char *want[NCAT] = { 0 };
	static char buf[NCAT][NAME_MAX_];
	char *r = NULL;
	int c;

	if (cat < 0 || cat >= NCAT)
		return NULL; /* as glibc: EINVAL */
	pthread_mutex_lock(&lock);
	if (!locale) {
		r = query(cat);
		goto out;
	}
	if (cat == LC_ALL && strchr(locale, ';')) {
		if (parse_composite(locale, want, buf))
			goto out;
	} else {
		for (c = 0; c < NCAT; c++)
			if (c != LC_ALL && (cat == LC_ALL || c == cat))
				want[c] = *locale ? locale : from_environment(c);
	}
	for (c = 0; c < NCAT; c++)
		if (want[c] && strlen(want[c]) >= NAME_MAX_)
			goto out;
	if (!apply(want))
		r = query(cat);
out:
	pthread_mutex_unlock(&lock);
	return r;
}

/* the copy of the program is unloaded: its ranks have ended */
__attribute__((destructor)) static void release(void)
{
	while (nobjects)
		freelocale(objects[--nobjects]);
	free(objects);
	objects = NULL;
}
