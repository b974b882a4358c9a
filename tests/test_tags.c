/*
 * test_tags.c - tagged point-to-point messages, MPI's matching rules:
 *   - a receive takes the first message of its source with its tag; other
 *     tags wait aside, VP_ANY_TAG takes the oldest; the status says the
 *     source, the tag and the bytes;
 *   - non-overtaking: per (sender, tag), messages arrive in send order,
 *     across every protocol (fastbox, eager queue, rendezvous), whatever
 *     order the tags are received in;
 *   - VP_PROC_NULL: sends, receives and half a sendrecv complete at once;
 *   - bad tags fail with VP_EINVAL naming the tag;
 *   - a tagged message nobody receives fails the run (VP_EUNRECEIVED), and
 *     a receive for a tag that never comes is a deadlock, not a hang;
 *   - the model charges a tagged message as any other.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define TAGS 4
#define PER_TAG 40

struct result {
	int ok;
	char why[256];
};

static int out_of_order(vp_comm *c, void *arg)
{
	struct result *res = arg;
	char buf[8] = { 0 };
	vp_status st[3];
	int rc;

	if (vp_rank(c) == 0) {
		if ((rc = vp_send_tag(c, 1, 1, "a", 2)) ||
		    (rc = vp_send_tag(c, 1, 2, "bb", 3)) ||
		    (rc = vp_send_tag(c, 1, 1, "ccc", 4)))
			return rc;
		return VP_OK;
	}
	rc = vp_recv_tag(c, 0, 2, buf, sizeof(buf), &st[0]);
	res->ok = !rc && !strcmp(buf, "bb") && st[0].source == 0 &&
		  st[0].tag == 2 && st[0].bytes == 3;
	rc = rc ? rc : vp_recv_tag(c, 0, 1, buf, sizeof(buf), &st[1]);
	res->ok &=
	    !rc && !strcmp(buf, "a") && st[1].tag == 1 && st[1].bytes == 2;
	rc = rc ? rc : vp_recv_tag(c, 0, VP_ANY_TAG, buf, sizeof(buf), &st[2]);
	res->ok &=
	    !rc && !strcmp(buf, "ccc") && st[2].tag == 1 && st[2].bytes == 4;
	snprintf(res->why, sizeof(res->why), "got tags %d %d %d", st[0].tag,
		 st[1].tag, st[2].tag);
	return rc;
}

/* Message k of tag t: its size crosses the protocols, its bytes say
 * (t, k). */
static size_t size_of(int t, int k)
{
	static const size_t sizes[] = { 0, 8, 88, 89, 1000, 70000, 300000 };

	return sizes[(t * 7 + k) % 7];
}

static int non_overtaking(vp_comm *c, void *arg)
{
	struct result *res = arg;
	unsigned char *buf = malloc(300000);
	int t, k, rc = VP_OK;
	size_t i;

	if (!buf)
		return VP_ENOMEM;
	if (vp_rank(c) == 0) {
		/* interleaved: tag 0, 1, 2, 3, 0, 1, ... eager ones first so
		 * that the rendezvous ones find their receive posted */
		for (k = 0; k < PER_TAG && !rc; k++)
			for (t = 0; t < TAGS && !rc; t++) {
				size_t n = size_of(t, k);

				if (n > vp_eager_max(c))
					continue;
				memset(buf, t * 64 + k, n);
				rc = vp_send_tag(c, 1, t, buf, n);
			}
		free(buf);
		return rc;
	}
	res->ok = 1;
	/* the tags in reverse order: 3 first, then 2, and so on */
	for (t = TAGS - 1; t >= 0 && !rc; t--)
		for (k = 0; k < PER_TAG && !rc; k++) {
			size_t n = size_of(t, k);
			vp_status st;

			if (n > vp_eager_max(c))
				continue;
			rc = vp_recv_tag(c, 0, t, buf, 300000, &st);
			for (i = 0; i < n && !rc; i++)
				if (buf[i] != (unsigned char)(t * 64 + k))
					break;
			if (!rc && (st.bytes != n || st.tag != t || i < n)) {
				res->ok = 0;
				snprintf(res->why, sizeof(res->why),
					 "tag %d message %d: %zu bytes, "
					 "byte %zu wrong",
					 t, k, st.bytes, i);
				rc = VP_EINVAL;
			}
		}
	free(buf);
	return rc;
}

/* An eager message waits aside while the receiver takes a later
 * rendezvous message of another tag (whose sender is blocked until it is
 * copied), then comes back for it. */
static int rendezvous_aside(vp_comm *c, void *arg)
{
	struct result *res = arg;
	size_t big = 2 * vp_eager_max(c) + 3;
	unsigned char *buf = malloc(big);
	vp_status st;
	int rc;

	if (!buf)
		return VP_ENOMEM;
	if (vp_rank(c) == 0) {
		memset(buf, 7, big);
		if (!(rc = vp_send_tag(c, 1, 5, buf, 4)))
			rc = vp_send_tag(c, 1, 9, buf, big);
		free(buf);
		return rc;
	}
	rc = vp_recv_tag(c, 0, 9, buf, big, &st); /* the tag-5 one waits */
	res->ok = !rc && st.bytes == big && buf[big - 1] == 7;
	if (!rc)
		rc = vp_recv_tag(c, 0, 5, buf, big, &st);
	res->ok &= !rc && st.bytes == 4;
	free(buf);
	return rc;
}

static int proc_null(vp_comm *c, void *arg)
{
	struct result *res = (struct result *)arg + vp_rank(c);
	vp_status st = { 1, 1, 1, 1 };
	int x = 42, y = 0, rc;

	if ((rc = vp_send(c, VP_PROC_NULL, &x, sizeof(x))) ||
	    (rc = vp_send_tag(c, VP_PROC_NULL, 3, &x, sizeof(x))) ||
	    (rc = vp_recv_tag(c, VP_PROC_NULL, 3, &y, sizeof(y), &st)) ||
	    (rc = vp_sendrecv(c, VP_PROC_NULL, &x, sizeof(x), VP_PROC_NULL, &y,
			      sizeof(y))))
		return rc;
	res->ok = st.source == VP_PROC_NULL && st.tag == VP_ANY_TAG &&
		  st.bytes == 0 && !st.cancelled && y == 0 && vp_time(c) == 0;
	/* half a sendrecv: a ring shift with the ends open, as MPI codes do */
	rc = vp_sendrecv(
	    c, vp_rank(c) + 1 < vp_size(c) ? vp_rank(c) + 1 : VP_PROC_NULL, &x,
	    sizeof(x), vp_rank(c) > 0 ? vp_rank(c) - 1 : VP_PROC_NULL, &y,
	    sizeof(y));
	res->ok &= !rc && y == (vp_rank(c) > 0 ? 42 : 0);
	return rc;
}

static int bad_tag(vp_comm *c, void *arg)
{
	int which = *(int *)arg, x = 0;

	if (vp_rank(c) != 0)
		return VP_OK;
	if (which == 0)
		return vp_send_tag(c, 1, -5, &x, sizeof(x));
	if (which == 1)
		return vp_send_tag(c, 1, VP_TAG_MAX + 1, &x, sizeof(x));
	if (which == 2)
		return vp_send_tag(c, 1, VP_ANY_TAG, &x, sizeof(x));
	return vp_recv_tag(c, 1, -7, &x, sizeof(x), NULL);
}

static int unreceived_tag(vp_comm *c, void *arg)
{
	int x = 0;
	(void)arg;
	int rc;

	if (vp_rank(c) == 0) {
		if (!(rc = vp_send_tag(c, 1, 7, &x, sizeof(x))))
			rc = vp_send_tag(c, 1, 0, &x, sizeof(x));
		return rc;
	}
	return vp_recv(c, 0, &x, sizeof(x)); /* tag 0: the tag-7 one waits */
}

static int never_comes(vp_comm *c, void *arg)
{
	int x = 0;

	(void)arg;
	if (vp_rank(c) == 0)
		return vp_send_tag(c, 1, 4, &x, sizeof(x));
	return vp_recv_tag(c, 0, 5, &x, sizeof(x), NULL);
}

static int tagged_pingpong(vp_comm *c, void *arg)
{
	char buf[1000] = { 0 };
	int rc;

	(void)arg;
	if (vp_rank(c) == 0) {
		if ((rc = vp_send_tag(c, 1, 11, buf, sizeof(buf))))
			return rc;
		return vp_recv_tag(c, 1, 12, buf, sizeof(buf), NULL);
	}
	if ((rc = vp_recv_tag(c, 0, 11, buf, sizeof(buf), NULL)))
		return rc;
	return vp_send_tag(c, 0, 12, buf, sizeof(buf));
}

int main(void)
{
	vp_opts o = { .topology = "full:2", .quiet = 1 };
	struct result res, four[4];
	vp_stats st;
	int rc, i;

	memset(&res, 0, sizeof(res));
	rc = vp_run(&o, out_of_order, &res, &st);
	tap_ok(rc == 0 && res.ok,
	       "tag 2 received before the tag-1 messages sent before it; "
	       "VP_ANY_TAG takes the oldest left; status right (%s)",
	       res.why);
	memset(&res, 0, sizeof(res));
	rc = vp_run(&o, non_overtaking, &res, &st);
	tap_ok(rc == 0 && res.ok,
	       "%d tags x %d messages of 0 B to 64 KiB, received tag by tag "
	       "in reverse: each tag's messages in send order (%d) %s",
	       TAGS, PER_TAG, rc, res.why);
	memset(&res, 0, sizeof(res));
	rc = vp_run(&o, rendezvous_aside, &res, &st);
	tap_ok(rc == 0 && res.ok,
	       "an eager message waits aside while a later rendezvous one of "
	       "another tag is taken (%d)",
	       rc);
	o.topology = "line:4";
	memset(four, 0, sizeof(four));
	rc = vp_run(&o, proc_null, four, &st);
	tap_ok(rc == 0 && four[0].ok && four[1].ok && four[2].ok &&
		   four[3].ok && st.messages == 3,
	       "VP_PROC_NULL: send, receive and sendrecv complete at once, "
	       "status says so; an open-ended shift moves 3 messages (%llu)",
	       (unsigned long long)st.messages);
	o.topology = "full:2";
	for (i = 0; i < 4; i++) {
		rc = vp_run(&o, bad_tag, &i, &st);
		tap_ok(rc == VP_EINVAL && strstr(st.error, "tag ") &&
			   strstr(st.error, "VP_TAG_MAX"),
		       "bad tag %d fails with VP_EINVAL: %s", i, st.error);
	}
	rc = vp_run(&o, unreceived_tag, NULL, &st);
	tap_ok(rc == VP_EUNRECEIVED && st.unreceived == 1 &&
		   strstr(st.error, "rank 0 -> rank 1: 1 message"),
	       "a tagged message set aside and never received fails the run: "
	       "%s",
	       st.error);
	rc = vp_run(&o, never_comes, NULL, &st);
	tap_ok(rc == VP_EDEADLOCK && strstr(st.error, "rank 1 in vp_recv_tag"),
	       "a receive for a tag that never comes is a deadlock: %s",
	       st.error);
	o.ts = 100;
	o.tw = 1;
	rc = vp_run(&o, tagged_pingpong, NULL, &st);
	tap_ok(rc == 0 && st.model_time == 2 * (100 + 1000),
	       "a tagged ping-pong costs 2 (ts + tw m) = 2200 (%g)",
	       st.model_time);
	return tap_done();
}
