/*
 * bench_rows.c - one measurement row and its three printed forms, shared by
 * vp-bench's modes:
 *   table  '#' header, aligned columns usable by awk and gnuplot
 *   --csv  op,topo,p,bytes,iters,min_us,p50_us,p99_us,max_us,model_us
 *   --json one object per row with the same keys
 * Rows are also kept in memory (for --compare-mpi's ratios and the plot).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_rows.h"

/* Microseconds on the monotonic clock. */
double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

enum row_format row_format;

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v in place. */
struct summary summarize(double *v, int n)
{
	struct summary s;
	int q = (n * 99) / 100 < n ? (n * 99) / 100 : n - 1;

	qsort(v, (size_t)n, sizeof(double), cmp_double);
	s.min = v[0];
	s.p50 = v[n / 2];
	s.p99 = v[q];
	s.max = v[n - 1];
	return s;
}

void row_header(void)
{
	if (row_format == FORMAT_CSV)
		printf("op,topo,p,bytes,iters,min_us,p50_us,p99_us,max_us,"
		       "model_us\n");
	else if (row_format == FORMAT_TABLE)
		printf("# %-30s %-11s %5s %9s %7s %10s %10s %10s %10s %10s\n",
		       "op", "topo", "p", "bytes", "iters", "min_us", "p50_us",
		       "p99_us", "max_us", "model_us");
}

void row_print(const struct row *r)
{
	if (row_format == FORMAT_CSV)
		printf("%s,%s,%d,%zu,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", r->op,
		       r->topo, r->p, r->bytes, r->iters, r->s.min, r->s.p50,
		       r->s.p99, r->s.max, r->model);
	else if (row_format == FORMAT_JSON)
		printf("{\"op\":\"%s\",\"topo\":\"%s\",\"p\":%d,\"bytes\":%zu,"
		       "\"iters\":%d,\"min_us\":%.3f,\"p50_us\":%.3f,"
		       "\"p99_us\":%.3f,\"max_us\":%.3f,\"model_us\":%.3f}\n",
		       r->op, r->topo, r->p, r->bytes, r->iters, r->s.min,
		       r->s.p50, r->s.p99, r->s.max, r->model);
	else
		printf("  %-30s %-11s %5d %9zu %7d %10.3f %10.3f %10.3f "
		       "%10.3f %10.3f\n",
		       r->op, r->topo, r->p, r->bytes, r->iters, r->s.min,
		       r->s.p50, r->s.p99, r->s.max, r->model);
	fflush(stdout);
}

/* A comment line: '#' in the table and CSV forms, nothing in JSON. */
void note(const char *fmt, ...)
{
	va_list ap;

	if (row_format == FORMAT_JSON)
		return;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Reads a CSV row as printed above; 1 on success. */
int row_parse(const char *line, struct row *r)
{
	memset(r, 0, sizeof(*r));
	return sscanf(line, "%47[^,],%23[^,],%d,%zu,%d,%lf,%lf,%lf,%lf,%lf",
		      r->op, r->topo, &r->p, &r->bytes, &r->iters, &r->s.min,
		      &r->s.p50, &r->s.p99, &r->s.max, &r->model) == 10;
}
