/*
 * late_rank.h - for tests that need a receiver already waiting when its
 * message leaves: the sending rank sleeps first (late_rank_sleep), and a
 * test that counts the sends into a waiting receiver's buffer
 * (vp_stats.direct_messages) runs again, sleeping four times longer, while
 * none was counted: at most four tries (from 10 ms: 10, 40, 160 and
 * 640 ms a round). A loaded machine may not run the receiver within the
 * first sleep: ThreadSanitizer's runs on two CPUs shared with other test
 * passes, as in CI, once left no round with the receiver waiting.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_TESTS_LATE_RANK_H
#define VP_TESTS_LATE_RANK_H

#include <unistd.h>

#include "vp.h"

static useconds_t late_rank_us = 10000; /* this try's sleep */

static inline void late_rank_sleep(void)
{
	usleep(late_rank_us);
}

/* vp_run(o, fn, arg, st) until a send found its receiver waiting, or
 * four times; the last run's result and stats. first_us: the first try's
 * sleep, restored afterwards. */
static inline int run_until_direct(const vp_opts *o,
				   int (*fn)(vp_comm *, void *), void *arg,
				   vp_stats *st, useconds_t first_us)
{
	int rc = VP_OK, tries;

	late_rank_us = first_us;
	for (tries = 0; tries < 4; tries++, late_rank_us *= 4) {
		rc = vp_run(o, fn, arg, st);
		if (rc != VP_OK || st->direct_messages > 0)
			break;
	}
	late_rank_us = first_us;
	return rc;
}

#endif
