/*
 * bench_rows.h - one measurement row and its three printed forms, shared by
 * vp-bench's modes:
 *   table  '#' header, aligned columns usable by awk and gnuplot
 *   --csv  op,topo,p,bytes,iters,min_us,p50_us,p99_us,max_us,model_us
 *   --json one object per row with the same keys
 * Rows are also kept in memory (for --compare-mpi's ratios and the plot).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_BENCH_ROWS_H
#define VP_BENCH_ROWS_H

#include <stddef.h>

enum row_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

struct summary {
	double min, p50, p99, max;
};

struct row {
	char op[48], topo[24];
	int p, iters;
	size_t bytes;
	struct summary s;
	double model;
	int chosen; /* the vp_alg AUTO picked, where measured */
};

/* How rows and notes are printed (vp-bench --csv, --json). */
extern enum row_format row_format;

/* Microseconds on the monotonic clock. */
double now_us(void);

/* qsort's comparison of two doubles, ascending. */
int cmp_double(const void *a, const void *b);

/* Sorts v in place. */
struct summary summarize(double *v, int n);

/* The header line of the rows, in the chosen format. */
void row_header(void);

/* One row, in the chosen format, flushed. */
void row_print(const struct row *r);

/* A comment line: '#' in the table and CSV forms, nothing in JSON. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reads a CSV row as printed above; 1 on success. */
int row_parse(const char *line, struct row *r);

#endif
