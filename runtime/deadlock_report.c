/*
 * deadlock_report.c - the text of a deadlock report, the same for every
 * transport: a first line, one line per live rank saying what it waits
 * for, then the wait-for graph walked from the first live rank to its
 * cycle ("cycle: 0 -> 1 -> 0"), to a rank that has exited, or to a
 * receive from any rank.
 *
 * Every blocked rank waits on at most one peer (a receive names its
 * source, a send its destination; a receive from any rank names none), so
 * the wait-for graph is a function and the walk from any rank ends in a
 * cycle, at an exited rank or at a wildcard receive, in at most p steps.
 * The transport gives each rank's state through a callback; it decides
 * when the ranks are deadlocked (threads/deadlock.c: a consistent
 * snapshot; mpi/termination.c: Safra's termination detection).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* Bytes of report per live rank (one line each) and for the rest. */
#define LINE_BYTES 1024
#define REPORT_BYTES 1024

static void add(char *rep, size_t cap, size_t *len, const char *s)
{
	int n = snprintf(rep + *len, cap - *len, "%s", s);

	if (n > 0)
		*len = *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

char *vp__deadlock_report(int p, vp__waiter_fn state, void *ctx,
			  int *p2p_cycle)
{
	size_t cap = REPORT_BYTES + LINE_BYTES * (size_t)p, len = 0;
	char *rep = malloc(cap), *seen = calloc((size_t)p, 1), line[LINE_BYTES];
	struct vp__waiter s;
	int i, live = 0, start = -1, cur, steps, first, n = 0, last = -1;

	*p2p_cycle = 0;
	if (!rep || !seen) {
		free(rep);
		free(seen);
		return NULL;
	}
	for (i = 0; i < p; i++) {
		state(ctx, i, &s, NULL, 0);
		live += !s.exited;
	}
	snprintf(rep, cap,
		 "deadlock: all %d live ranks are blocked and nothing they "
		 "wait for can arrive\n",
		 live);
	len = strlen(rep);
	for (i = 0; i < p; i++) {
		state(ctx, i, &s, line, sizeof(line));
		if (s.exited)
			continue;
		if (start < 0)
			start = i;
		add(rep, cap, &len, "  ");
		add(rep, cap, &len, line);
		add(rep, cap, &len, "\n");
	}
	for (cur = start, steps = 0; cur >= 0 && !seen[cur] && steps <= p;
	     steps++) {
		seen[cur] = 1;
		state(ctx, cur, &s, NULL, 0);
		if (s.exited)
			break;
		last = cur;
		cur = s.peer;
	}
	free(seen);
	if (cur < 0) {
		/* the chain ends at a receive from any rank: outside a
		 * collective, that receive is the cause */
		if (last >= 0) {
			state(ctx, last, &s, NULL, 0);
			*p2p_cycle = !s.in_coll;
		}
		return rep;
	}
	state(ctx, cur, &s, NULL, 0);
	if (s.exited) {
		snprintf(line, sizeof(line),
			 "  the chain ends at rank %d, which has exited\n", cur);
		add(rep, cap, &len, line);
		return rep;
	}
	*p2p_cycle = 1;
	add(rep, cap, &len, "  cycle:");
	first = cur;
	do {
		state(ctx, cur, &s, NULL, 0);
		*p2p_cycle &= !s.in_coll;
		if (n++ < 16) {
			snprintf(line, sizeof(line), " %d ->", cur);
			add(rep, cap, &len, line);
		}
		cur = s.peer;
	} while (cur != first && cur >= 0 && n <= p);
	if (n > 16) {
		snprintf(line, sizeof(line), " ... (%d ranks) ->", n);
		add(rep, cap, &len, line);
	}
	snprintf(line, sizeof(line), " %d\n", first);
	add(rep, cap, &len, line);
	return rep;
}
