/*
 * mpi_info.c - info objects (MPI 4.0, sec. 10): ordered sets of
 * (key, value) strings. A key is at most MPI_MAX_INFO_KEY characters, a
 * value at most MPI_MAX_INFO_VAL; keys are kept in the order they were
 * first set (MPI_Info_get_nthkey numbers them so), setting a key again
 * replaces its value. MPI_INFO_ENV (mpi_info_env.c) is made at its first
 * use, read-only. Handles are the
 * rank's own, numbered from 1 (0 is MPI_INFO_NULL). As MPI 4.0 allows
 * (sec. 11.2.1), they may be used before MPI_Init and after
 * MPI_Finalize.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vpmpi.h"

struct entry {
	char *key, *value;
};

struct info {
	struct entry *e;
	int n, cap;
};

static __thread struct info **infos; /* handle - 1 */
static __thread int ninfos;

static struct info *info_of(MPI_Info h, const char *call)
{
	if (h == MPI_INFO_ENV)
		h = vpmpi_info_env();
	if (h > 0 && h <= ninfos && infos[h - 1])
		return infos[h - 1];
	vpmpi_fail(MPI_ERR_INFO, call,
		   h == MPI_INFO_NULL ? "the info is MPI_INFO_NULL"
				      : "info %d is not a live info object of "
					"this rank",
		   h);
	return NULL;
}

/* MPI_INFO_ENV is predefined: it is not changed nor freed */
static int read_only(const char *call)
{
	return vpmpi_fail(MPI_ERR_INFO, call,
			  "MPI_INFO_ENV is predefined and read-only");
}

/* 0 if key is a valid key, else the error's class after raising it */
static int check_key(const char *key, const char *call)
{
	size_t n;

	if (!key)
		return vpmpi_fail(MPI_ERR_INFO_KEY, call, "the key is NULL");
	n = strlen(key);
	if (n == 0 || n > MPI_MAX_INFO_KEY)
		return vpmpi_fail(MPI_ERR_INFO_KEY, call,
				  "key \"%.40s\" has %zu characters (1 to %d "
				  "allowed)",
				  key, n, MPI_MAX_INFO_KEY);
	return MPI_SUCCESS;
}

static struct entry *find(struct info *in, const char *key)
{
	int i;

	for (i = 0; i < in->n; i++)
		if (!strcmp(in->e[i].key, key))
			return &in->e[i];
	return NULL;
}

static void info_destroy(struct info *in)
{
	int i;

	for (i = 0; i < in->n; i++) {
		free(in->e[i].key);
		free(in->e[i].value);
	}
	free(in->e);
	free(in);
}

/* A new handle for in: MPI_SUCCESS, or the error (in is freed). */
static int info_put(struct info *in, MPI_Info *out, const char *call)
{
	struct info **more;
	int i;

	for (i = 0; i < ninfos; i++)
		if (!infos[i])
			break;
	if (i == ninfos) { /* the table doubles */
		int n = i ? 2 * i : 16;

		more = realloc(infos, (size_t)n * sizeof(*more));
		if (!more) {
			info_destroy(in);
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for an info object");
		}
		memset(more + i, 0, (size_t)(n - i) * sizeof(*more));
		infos = more;
		ninfos = n;
	}
	infos[i] = in;
	*out = i + 1;
	return MPI_SUCCESS;
}

int MPI_Info_create(MPI_Info *info)
{
	static const char call[] = "MPI_Info_create";
	struct info *in;

	if (!info)
		return vpmpi_fail(MPI_ERR_ARG, call, "the handle pointer is NULL");
	if (!(in = calloc(1, sizeof(*in))))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for an info object");
	return info_put(in, info, call);
}

int MPI_Info_free(MPI_Info *info)
{
	static const char call[] = "MPI_Info_free";
	struct info *in;

	if (!info)
		return vpmpi_fail(MPI_ERR_ARG, call, "the handle pointer is NULL");
	if (*info == MPI_INFO_ENV)
		return read_only(call);
	if (!(in = info_of(*info, call)))
		return MPI_ERR_INFO;
	info_destroy(in);
	infos[*info - 1] = NULL;
	*info = MPI_INFO_NULL;
	return MPI_SUCCESS;
}

/* Sets key to value in in (a copy of each): MPI_SUCCESS or the error. */
static int set(struct info *in, const char *key, const char *value,
	       const char *call)
{
	struct entry *e = find(in, key), *more;
	char *v = strdup(value), *k = NULL;

	if (!v)
		return vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for a value");
	if (e) {
		free(e->value);
		e->value = v;
		return MPI_SUCCESS;
	}
	if (in->n == in->cap) {
		more = realloc(in->e, ((size_t)in->cap * 2 + 4) * sizeof(*more));
		if (!more) {
			free(v);
			return vpmpi_fail(MPI_ERR_NO_MEM, call,
					  "no memory for a key");
		}
		in->e = more;
		in->cap = in->cap * 2 + 4;
	}
	if (!(k = strdup(key))) {
		free(v);
		return vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for a key");
	}
	in->e[in->n].key = k;
	in->e[in->n++].value = v;
	return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
	static const char call[] = "MPI_Info_dup";
	struct info *in, *copy;
	int i, rc;

	if (!(in = info_of(info, call)))
		return MPI_ERR_INFO;
	if (!newinfo)
		return vpmpi_fail(MPI_ERR_ARG, call, "the handle pointer is NULL");
	if (!(copy = calloc(1, sizeof(*copy))))
		return vpmpi_fail(MPI_ERR_NO_MEM, call,
				  "no memory for an info object");
	for (i = 0; i < in->n; i++)
		if ((rc = set(copy, in->e[i].key, in->e[i].value, call))) {
			info_destroy(copy);
			return rc;
		}
	return info_put(copy, newinfo, call);
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
	static const char call[] = "MPI_Info_set";
	struct info *in;
	int rc;

	if (info == MPI_INFO_ENV)
		return read_only(call);
	if (!(in = info_of(info, call)))
		return MPI_ERR_INFO;
	if ((rc = check_key(key, call)))
		return rc;
	if (!value || strlen(value) > MPI_MAX_INFO_VAL)
		return vpmpi_fail(MPI_ERR_INFO_VALUE, call,
				  value ? "the value of key \"%s\" is longer "
					  "than MPI_MAX_INFO_VAL (%d)"
					: "the value of key \"%s\" is NULL",
				  key, MPI_MAX_INFO_VAL);
	return set(in, key, value, call);
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
	static const char call[] = "MPI_Info_delete";
	struct info *in;
	struct entry *e;
	int rc;

	if (info == MPI_INFO_ENV)
		return read_only(call);
	if (!(in = info_of(info, call)))
		return MPI_ERR_INFO;
	if ((rc = check_key(key, call)))
		return rc;
	if (!(e = find(in, key)))
		return vpmpi_fail(MPI_ERR_INFO_NOKEY, call,
				  "info %d has no key \"%s\"", info, key);
	free(e->key);
	free(e->value);
	/* the keys after it keep their order */
	memmove(e, e + 1, (size_t)(in->e + in->n - e - 1) * sizeof(*e));
	in->n--;
	return MPI_SUCCESS;
}

/* The entry of key in info (NULL: absent), or the error's class in *rc. */
static struct entry *lookup(MPI_Info info, const char *key, int *rc,
			    const char *call)
{
	struct info *in;

	*rc = MPI_SUCCESS;
	if (!(in = info_of(info, call))) {
		*rc = MPI_ERR_INFO;
		return NULL;
	}
	if ((*rc = check_key(key, call)))
		return NULL;
	return find(in, key);
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
		 int *flag)
{
	static const char call[] = "MPI_Info_get";
	int rc;
	struct entry *e = lookup(info, key, &rc, call);

	if (rc)
		return rc;
	if (valuelen < 0)
		return vpmpi_fail(MPI_ERR_ARG, call, "valuelen %d is negative",
				  valuelen);
	if (!flag || (e && !value))
		return vpmpi_fail(MPI_ERR_ARG, call, "the %s pointer is NULL",
				  !flag ? "flag" : "value");
	*flag = e != NULL;
	if (e) { /* at most valuelen characters, and the '\0' */
		size_t n = strlen(e->value);

		n = n < (size_t)valuelen ? n : (size_t)valuelen;
		memcpy(value, e->value, n);
		value[n] = '\0';
	}
	return MPI_SUCCESS;
}

int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen,
			char *value, int *flag)
{
	static const char call[] = "MPI_Info_get_string";
	int rc, n;
	struct entry *e = lookup(info, key, &rc, call);

	if (rc)
		return rc;
	if (!buflen || !flag || *buflen < 0)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "buflen or flag is NULL, or *buflen < 0");
	*flag = e != NULL;
	if (!e)
		return MPI_SUCCESS;
	n = (int)strlen(e->value) + 1;
	if (*buflen > 0 && value) { /* truncated to *buflen, '\0' included */
		memcpy(value, e->value, (size_t)(n < *buflen ? n : *buflen));
		value[(n < *buflen ? n : *buflen) - 1] = '\0';
	}
	*buflen = n;
	return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
			  int *flag)
{
	static const char call[] = "MPI_Info_get_valuelen";
	int rc;
	struct entry *e = lookup(info, key, &rc, call);

	if (rc)
		return rc;
	if (!valuelen || !flag)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "the valuelen or flag pointer is NULL");
	*flag = e != NULL;
	if (e)
		*valuelen = (int)strlen(e->value);
	return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
	static const char call[] = "MPI_Info_get_nkeys";
	struct info *in;

	if (!(in = info_of(info, call)))
		return MPI_ERR_INFO;
	if (!nkeys)
		return vpmpi_fail(MPI_ERR_ARG, call, "nkeys is NULL");
	*nkeys = in->n;
	return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
	static const char call[] = "MPI_Info_get_nthkey";
	struct info *in;

	if (!(in = info_of(info, call)))
		return MPI_ERR_INFO;
	if (n < 0 || n >= in->n)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "n = %d is not in 0..%d (info %d has %d "
				  "keys)",
				  n, in->n - 1, info, in->n);
	if (!key)
		return vpmpi_fail(MPI_ERR_ARG, call, "key is NULL");
	strcpy(key, in->e[n].key);
	return MPI_SUCCESS;
}

void vpmpi_infos_free(void)
{
	int i;

	for (i = 0; i < ninfos; i++)
		if (infos[i])
			info_destroy(infos[i]);
	free(infos);
	infos = NULL;
	ninfos = 0;
	vpmpi_info_env_forget();
}
