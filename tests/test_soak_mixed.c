/*
 * test_soak_mixed.c - 10^6 messages with random tags, received through a
 * random mix of blocking receives, irecvs, wildcards (VP_ANY_SOURCE,
 * VP_ANY_TAG) and probes, sent through blocking sends and isends (some
 * above eager_max: rendezvous). Every message carries its source, tag,
 * per-(source, tag) sequence number and a checksum, so the receiver proves
 * that nothing is lost, duplicated or corrupted, and that MPI's
 * non-overtaking rule holds: of the messages of one (source, tag), the
 * receives that took them, in the order they were posted, got them in the
 * order sent.
 *
 * A round, the same on every rank (one seeded generator): each ordered pair
 * (s, d) gets 0-2 messages with tags 0-3. Every rank posts all its sends,
 * then its receives in three groups, each a random mix of blocking and
 * nonblocking: first those naming source and tag, then those naming the
 * source only, then wildcards (half of those through vp_probe first). The
 * order makes the counts meet: a message goes to the oldest posted receive
 * that matches it, so no wildcard takes what a named receive needs. Then it
 * completes its requests with vp_waitall, vp_waitany or vp_test, and a
 * barrier ends the round (so no wildcard takes the next round's messages).
 * VP_SOAK_MESSAGES overrides the total (sanitizer builds use 10^5).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define P 8
#define TAGS 4
#define EAGER 2048
#define MAXMSG 6000
#define MAXPER 2 /* messages per ordered pair and round */
#define SLOTS (P * MAXPER)

struct header {
	int32_t src, tag;
	uint32_t seq; /* per (source, destination, tag) */
	uint32_t sum;
};

struct plan {
	int n[P][P];              /* messages s -> d this round */
	int tag[P][P][MAXPER];    /* their tags */
	size_t size[P][P][MAXPER];
	int blocking[P][P][MAXPER]; /* sent with vp_send_tag */
	int how[P][SLOTS];        /* receive kind per slot of d */
	int rblock[P][SLOTS];     /* received with a blocking call */
	int finish;               /* 0 waitall, 1 waitany, 2 test */
};

struct soak {
	long rounds;
	long sent[P], received[P], bad[P], misordered[P];
};

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint32_t checksum(const unsigned char *b, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

static void make_plan(uint64_t *g, struct plan *pl)
{
	int s, d, k, slot;

	memset(pl, 0, sizeof(*pl));
	for (s = 0; s < P; s++)
		for (d = 0; d < P; d++) {
			pl->n[s][d] = (int)(next(g) % (MAXPER + 1));
			for (k = 0; k < pl->n[s][d]; k++) {
				uint64_t r = next(g);
				pl->tag[s][d][k] = (int)(r % TAGS);
				/* sizes: mostly small, some eager, a few
				 * rendezvous (isend only) */
				switch ((r >> 8) % 8) {
				case 0:
					pl->size[s][d][k] =
					    EAGER + 1 + (r >> 16) % (MAXMSG - EAGER);
					break;
				case 1:
				case 2:
					pl->size[s][d][k] =
					    sizeof(struct header) +
					    (r >> 16) % (EAGER - 16);
					break;
				default:
					pl->size[s][d][k] =
					    sizeof(struct header) + (r >> 16) % 80;
				}
				pl->blocking[s][d][k] =
				    pl->size[s][d][k] <= EAGER && (r >> 40) % 3 == 0;
			}
		}
	for (d = 0; d < P; d++)
		for (slot = 0; slot < SLOTS; slot++) {
			uint64_t r = next(g);
			pl->how[d][slot] = (int)(r % 3); /* 0 src+tag, 1 src, 2 any */
			pl->rblock[d][slot] = (int)((r >> 8) % 3 == 0);
		}
	pl->finish = (int)(next(g) % 3);
}

/* One receive as posted: what it asked for and what it got. */
struct posted {
	int src, tag; /* asked (maybe wildcards) */
	unsigned char *buf;
	vp_request req;
	vp_status st;
};

struct rank_state {
	uint32_t sent_seq[P][TAGS];  /* sender: next per (destination, tag) */
	uint32_t want_seq[P][TAGS];  /* receiver: next per (source, tag) */
	unsigned char *sbuf[P * MAXPER];
	struct posted rcv[P * MAXPER];
	vp_request sreq[P * MAXPER];
	long sent, received, bad, misordered;
};

static void fill(unsigned char *b, size_t n, int src, int tag, uint32_t seq)
{
	struct header h = { src, tag, seq, 0 };
	size_t i;

	for (i = sizeof(h); i < n; i++)
		b[i] = (unsigned char)(seq * 31 + i * 7 + (size_t)src);
	h.sum = checksum(b + sizeof(h), n - sizeof(h));
	memcpy(b, &h, sizeof(h));
}

/* Checks what a receive got; called in posted order. */
static void check(struct rank_state *rs, struct posted *r)
{
	struct header h;

	rs->received++;
	if (r->st.bytes < sizeof(h)) {
		rs->bad++;
		return;
	}
	memcpy(&h, r->buf, sizeof(h));
	if (h.src != r->st.source || h.tag != r->st.tag ||
	    (r->src != VP_ANY_SOURCE && r->src != h.src) ||
	    (r->tag != VP_ANY_TAG && r->tag != h.tag) ||
	    h.sum != checksum(r->buf + sizeof(h), r->st.bytes - sizeof(h))) {
		rs->bad++;
		return;
	}
	if (h.seq != rs->want_seq[h.src][h.tag])
		rs->misordered++;
	rs->want_seq[h.src][h.tag] = h.seq + 1;
}

static int send_all(vp_comm *c, struct rank_state *rs, const struct plan *pl,
		    int *nsreq)
{
	int me = vp_rank(c), d, k, rc;

	*nsreq = 0;
	for (d = 0; d < P; d++)
		for (k = 0; k < pl->n[me][d]; k++) {
			int tag = pl->tag[me][d][k], i = *nsreq;
			size_t n = pl->size[me][d][k];
			fill(rs->sbuf[i], n, me, tag, rs->sent_seq[d][tag]++);
			if (pl->blocking[me][d][k]) {
				rc = vp_send_tag(c, d, tag, rs->sbuf[i], n);
				rs->sreq[i] = VP_REQUEST_NULL;
			} else {
				rc = vp_isend(c, d, tag, rs->sbuf[i], n,
					      &rs->sreq[i]);
			}
			if (rc)
				return rc;
			++*nsreq;
		}
	rs->sent += *nsreq;
	return VP_OK;
}

/* Posts receive number i asking for (src, tag), blocking or not. */
static int post_one(vp_comm *c, struct rank_state *rs, int i, int src,
		    int tag, int blocking, int probe)
{
	struct posted *r = &rs->rcv[i];
	int rc;

	r->src = src;
	r->tag = tag;
	r->req = VP_REQUEST_NULL;
	if (probe) {
		vp_status st;
		if ((rc = vp_probe(c, src, tag, &st)))
			return rc;
		src = st.source; /* the receive names what the probe saw */
		tag = st.tag;
	}
	if (blocking || probe)
		return vp_recv_tag(c, src, tag, r->buf, MAXMSG, &r->st);
	return vp_irecv(c, src, tag, r->buf, MAXMSG, &r->req);
}

static int receive_all(vp_comm *c, struct rank_state *rs,
		       const struct plan *pl, int *nrcv)
{
	int me = vp_rank(c), s, k, group, slot = 0, rc;

	/* group 0: source and tag named; 1: source named; 2: wildcards */
	for (group = 0; group < 3; group++)
		for (s = 0; s < P; s++)
			for (k = 0; k < pl->n[s][me]; k++) {
				int i = s * MAXPER + k;
				int how = pl->how[me][i], blk = pl->rblock[me][i];
				if (how != group)
					continue;
				rc = post_one(c, rs, slot++,
					      how == 2 ? VP_ANY_SOURCE : s,
					      how == 0 ? pl->tag[s][me][k]
						       : VP_ANY_TAG,
					      blk, how == 2 && blk && (k & 1));
				if (rc)
					return rc;
			}
	*nrcv = slot;
	return VP_OK;
}

/* Completes the receives by the round's method, then the sends. */
static int finish(struct rank_state *rs, int nrcv, int nsreq, int how)
{
	vp_request reqs[P * MAXPER];
	vp_status sts[P * MAXPER];
	int i, rc, idx, done, left;

	for (i = 0; i < nrcv; i++)
		reqs[i] = rs->rcv[i].req;
	if (how == 0) {
		if ((rc = vp_waitall(nrcv, reqs, sts)))
			return rc;
		for (i = 0; i < nrcv; i++)
			if (rs->rcv[i].req) {
				rs->rcv[i].st = sts[i];
				rs->rcv[i].req = VP_REQUEST_NULL;
			}
	} else if (how == 1) {
		for (left = 0, i = 0; i < nrcv; i++)
			left += reqs[i] != VP_REQUEST_NULL;
		while (left--) {
			if ((rc = vp_waitany(nrcv, reqs, &idx, &sts[0])))
				return rc;
			rs->rcv[idx].st = sts[0];
			rs->rcv[idx].req = VP_REQUEST_NULL;
		}
	} else {
		for (i = 0; i < nrcv; i++)
			for (done = 0; reqs[i] && !done;)
				if ((rc = vp_test(&reqs[i], &done,
						  &rs->rcv[i].st)))
					return rc;
	}
	return vp_waitall(nsreq, rs->sreq, NULL);
}

static int soak_rank(vp_comm *c, void *arg)
{
	struct soak *sk = arg;
	struct rank_state *rs = calloc(1, sizeof(*rs));
	uint64_t g = 0x9E3779B97F4A7C15ull;
	struct plan *pl = malloc(sizeof(*pl));
	int me = vp_rank(c), i, rc = VP_OK, nsreq, nrcv;
	long round;

	if (!rs || !pl) {
		free(rs);
		free(pl);
		return VP_ENOMEM;
	}
	for (i = 0; i < P * MAXPER; i++) {
		rs->sbuf[i] = malloc(MAXMSG);
		rs->rcv[i].buf = malloc(MAXMSG);
		if (!rs->sbuf[i] || !rs->rcv[i].buf)
			rc = VP_ENOMEM;
	}
	for (round = 0; round < sk->rounds && !rc; round++) {
		make_plan(&g, pl);
		if ((rc = send_all(c, rs, pl, &nsreq)) ||
		    (rc = receive_all(c, rs, pl, &nrcv)))
			break;
		if ((rc = finish(rs, nrcv, nsreq, pl->finish)))
			break;
		for (i = 0; i < nrcv; i++) /* in posted order */
			check(rs, &rs->rcv[i]);
		/* a wildcard must not take the next round's messages */
		if ((rc = vp_barrier(c)))
			break;
	}
	sk->sent[me] = rs->sent;
	sk->received[me] = rs->received;
	sk->bad[me] = rs->bad;
	sk->misordered[me] = rs->misordered;
	for (i = 0; i < P * MAXPER; i++) {
		free(rs->sbuf[i]);
		free(rs->rcv[i].buf);
	}
	free(rs);
	free(pl);
	return rc;
}

int main(void)
{
	const char *env = getenv("VP_SOAK_MESSAGES");
	long target = env ? atol(env) : 1000000;
	struct soak sk;
	vp_opts o = { .topology = "full:8", .eager_max = EAGER };
	vp_stats st;
	long sent = 0, recv = 0, bad = 0, mis = 0;
	int rc, r;

	memset(&sk, 0, sizeof(sk));
	/* a round sends P * P messages on average (1 per ordered pair);
	 * aim 10% above the target so that chance always reaches it */
	sk.rounds = target * 11 / (10 * P * P) + 1;
	rc = vp_run(&o, soak_rank, &sk, &st);
	for (r = 0; r < P; r++) {
		sent += sk.sent[r];
		recv += sk.received[r];
		bad += sk.bad[r];
		mis += sk.misordered[r];
	}
	tap_ok(rc == VP_OK, "mixed soak ran to the end (%.1f s): %s",
	       st.wall_seconds, rc ? st.error : "");
	tap_ok(recv >= target && recv == sent && st.messages >= (uint64_t)recv,
	       "%ld messages sent, %ld received and checked (target %ld)", sent,
	       recv, target);
	tap_ok(bad == 0,
	       "no corrupted or mismatched message (%ld: wrong checksum, "
	       "source, tag or a receive that named something else)",
	       bad);
	tap_ok(mis == 0,
	       "non-overtaking per (source, tag) through wildcards and "
	       "requests (%ld sequence errors)",
	       mis);
	return tap_done();
}
