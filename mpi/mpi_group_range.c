/*
 * mpi_group_range.c - MPI_Group_range_incl and MPI_Group_range_excl (MPI
 * 4.0, sec. 7.3.2): n triplets (first, last, stride) name the ranks first,
 * first + stride, ... up to last (stride may be negative, never 0); the
 * ranks so named are included (in that order) or excluded, as
 * MPI_Group_incl and MPI_Group_excl do with the list, which check that
 * each is a rank of the group and that none repeats.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vpmpi.h"

/* The ranks the triplets name, their number in *count; NULL after the
 * error (its class in *rc). */
static int *expand(MPI_Group group, int n, int ranges[][3], int *count,
		   int *rc, const char *call)
{
	int size, i, r, k = 0, *list;
	long total = 0;

	*rc = MPI_Group_size(group, &size);
	if (*rc)
		return NULL;
	if (n < 0 || (n > 0 && !ranges)) {
		*rc = vpmpi_fail(MPI_ERR_ARG, call,
				 n < 0 ? "n = %d is negative"
				       : "ranges is NULL with n = %d",
				 n);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		int f = ranges[i][0], l = ranges[i][1], s = ranges[i][2];

		if (s == 0 || f < 0 || f >= size || l < 0 || l >= size ||
		    (s > 0 && f > l) || (s < 0 && f < l)) {
			*rc = vpmpi_fail(MPI_ERR_RANK, call,
					 "range %d (%d, %d, %d) is not a "
					 "range of ranks of a group of %d",
					 i, f, l, s, size);
			return NULL;
		}
		total += (l - f) / s + 1;
	}
	if (total > size) { /* then some rank repeats */
		*rc = vpmpi_fail(MPI_ERR_RANK, call,
				 "the ranges name %ld ranks, more than the "
				 "group's %d: some repeat",
				 total, size);
		return NULL;
	}
	if (!(list = malloc(((size_t)total + 1) * sizeof(*list)))) {
		*rc = vpmpi_fail(MPI_ERR_NO_MEM, call, "no memory for ranks");
		return NULL;
	}
	for (i = 0; i < n; i++)
		for (r = ranges[i][0];
		     ranges[i][2] > 0 ? r <= ranges[i][1] : r >= ranges[i][1];
		     r += ranges[i][2])
			list[k++] = r;
	*count = k;
	return list;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup)
{
	int count = 0, rc, *list;

	if (vpmpi_started("MPI_Group_range_incl"))
		return MPI_ERR_OTHER;
	list = expand(group, n, ranges, &count, &rc, "MPI_Group_range_incl");
	if (!list)
		return rc;
	rc = MPI_Group_incl(group, count, list, newgroup);
	free(list);
	return rc;
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup)
{
	int count = 0, rc, *list;

	if (vpmpi_started("MPI_Group_range_excl"))
		return MPI_ERR_OTHER;
	list = expand(group, n, ranges, &count, &rc, "MPI_Group_range_excl");
	if (!list)
		return rc;
	rc = MPI_Group_excl(group, count, list, newgroup);
	free(list);
	return rc;
}
