/*
 * mpi_testany.c - MPI_Testany and MPI_Testsome (MPI 4.0, sec. 3.7.5): each
 * active request is tested once with MPI_Test, in order. MPI_Testany
 * stops at the first that completed (*index, its status); MPI_Testsome
 * reports every one that completed. With no active request at all (every
 * one null or an inactive persistent request) MPI_Testany answers flag
 * true and index MPI_UNDEFINED, MPI_Testsome outcount MPI_UNDEFINED.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vpmpi.h"

/* 1 if the request has a communication to complete */
static int active(MPI_Request r)
{
	return r && (!r->persistent || r->active);
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
		MPI_Status *status)
{
	static const char call[] = "MPI_Testany";
	int i, rc, any = 0;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (count < 0 || (count > 0 && !requests) || !index || !flag)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "count %d is negative, or the requests, "
				  "index or flag pointer is NULL",
				  count);
	*flag = 0;
	*index = MPI_UNDEFINED;
	for (i = 0; i < count; i++) {
		if (!active(requests[i]))
			continue;
		any = 1;
		if ((rc = MPI_Test(&requests[i], flag, status)))
			return rc;
		if (*flag) {
			*index = i;
			return MPI_SUCCESS;
		}
	}
	if (!any) { /* sec. 3.7.5: flag true, index MPI_UNDEFINED */
		*flag = 1;
		MPI_Test(&(MPI_Request){ MPI_REQUEST_NULL }, &any, status);
	}
	return MPI_SUCCESS;
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	static const char call[] = "MPI_Testsome";
	int i, rc, flag, any = 0;

	if (vpmpi_started(call))
		return MPI_ERR_OTHER;
	if (incount < 0 || (incount > 0 && (!requests || !indices)) ||
	    !outcount)
		return vpmpi_fail(MPI_ERR_ARG, call,
				  "incount %d is negative, or the requests, "
				  "outcount or indices pointer is NULL",
				  incount);
	*outcount = 0;
	for (i = 0; i < incount; i++) {
		if (!active(requests[i]))
			continue;
		any = 1;
		rc = MPI_Test(&requests[i], &flag,
			      statuses == MPI_STATUSES_IGNORE
				  ? MPI_STATUS_IGNORE
				  : &statuses[*outcount]);
		if (rc)
			return rc;
		if (flag)
			indices[(*outcount)++] = i;
	}
	if (!any)
		*outcount = MPI_UNDEFINED;
	return MPI_SUCCESS;
}
