/*
 * test_soak.c - at least 10^6 messages of random sizes between random pairs;
 * every message carries its source, its per-pair sequence number and a
 * checksum of its bytes, so the receiver proves that nothing is lost,
 * duplicated, corrupted or reordered per pair.
 *
 * Schedule, per round (all ranks draw from one seeded generator):
 *   a random permutation pi and a burst length b in 1..4; rank i sends b
 *   eager messages to pi(i), then receives b from pi^-1(i); then one
 *   vp_sendrecv along another permutation with a size that is sometimes
 *   above eager_max (rendezvous).
 * VP_SOAK_MESSAGES overrides the total (the sanitizer builds use 10^5:
 * ThreadSanitizer runs this about 20x slower).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vp.h"

#define P 16
#define EAGER 2048
#define MAXMSG 6000

struct soak {
	long rounds;
	long bad[P];	     /* checksum or length mismatches */
	long misordered[P];  /* sequence gaps, duplicates, wrong source */
	long received[P];
	uint32_t next_seq[P][P]; /* receiver side: next expected per source */
};

struct header {
	int32_t src;
	uint32_t seq;
	uint32_t sum;
};

static uint32_t checksum(const unsigned char *b, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

/* Builds a message: header then pseudo-random bytes. */
static size_t build(unsigned char *buf, size_t n, int src, uint32_t seq,
		    unsigned *seed)
{
	struct header h = {src, seq, 0};
	size_t i;

	if (n < sizeof(h))
		n = sizeof(h);
	for (i = sizeof(h); i < n; i++)
		buf[i] = (unsigned char)rand_r(seed);
	h.sum = checksum(buf + sizeof(h), n - sizeof(h));
	memcpy(buf, &h, sizeof(h));
	return n;
}

static void check(struct soak *s, int me, int from, const unsigned char *buf,
		  size_t n)
{
	struct header h;

	s->received[me]++;
	memcpy(&h, buf, sizeof(h));
	if (n < sizeof(h) || h.sum != checksum(buf + sizeof(h), n - sizeof(h)))
		s->bad[me]++;
	if (h.src != from || h.seq != s->next_seq[me][from])
		s->misordered[me]++;
	s->next_seq[me][from] = h.seq + 1;
}

static void permutation(int *pi, unsigned *seed)
{
	int i;

	for (i = 0; i < P; i++)
		pi[i] = i;
	for (i = P - 1; i > 0; i--) {
		int j = (int)(rand_r(seed) % (unsigned)(i + 1)), t = pi[i];
		pi[i] = pi[j];
		pi[j] = t;
	}
}

static int soak_rank(vp_comm *c, void *arg)
{
	struct soak *s = arg;
	int me = vp_rank(c), pi[P], inv[P], i, k, rc = 0;
	unsigned shared = 2026, mine = 77u + (unsigned)me;
	uint32_t seq_to[P] = {0};
	unsigned char *sb = malloc(MAXMSG), *rb = malloc(MAXMSG);
	size_t got;
	long round;

	for (round = 0; round < s->rounds && !rc; round++) {
		int burst = 1 + (int)(rand_r(&shared) % 4);
		permutation(pi, &shared);
		for (i = 0; i < P; i++)
			inv[pi[i]] = i;
		for (k = 0; k < burst && !rc; k++) {
			size_t n = build(sb, (size_t)(rand_r(&mine) % EAGER),
					 me, seq_to[pi[me]]++, &mine);
			rc = vp_send(c, pi[me], sb, n);
		}
		for (k = 0; k < burst && !rc; k++) {
			rc = vp_recv_len(c, inv[me], rb, MAXMSG, &got);
			if (!rc)
				check(s, me, inv[me], rb, got);
		}
		if (rc)
			break;
		permutation(pi, &shared);
		for (i = 0; i < P; i++)
			inv[pi[i]] = i;
		{
			size_t n = build(sb, (size_t)(rand_r(&mine) % MAXMSG),
					 me, seq_to[pi[me]]++, &mine);
			rc = vp_sendrecv(c, pi[me], sb, n, inv[me], rb, MAXMSG);
			if (!rc) {
				struct header h;
				memcpy(&h, rb, sizeof(h));
				/* vp_sendrecv reports no length, so only the
				 * header is checked here; bursts check bytes */
				s->received[me]++;
				if (h.src != inv[me] ||
				    h.seq != s->next_seq[me][inv[me]])
					s->misordered[me]++;
				s->next_seq[me][inv[me]] = h.seq + 1;
			}
		}
	}
	free(sb);
	free(rb);
	return rc;
}

int main(void)
{
	const char *env = getenv("VP_SOAK_MESSAGES");
	long target = env ? atol(env) : 1000000;
	struct soak *s = calloc(1, sizeof(*s));
	vp_opts o = {.topology = "full:16", .eager_max = EAGER};
	vp_stats st;
	long bad = 0, mis = 0, recv = 0;
	int rc, r;

	/* a round sends on average 2.5 + 1 messages per rank; aim a little
	 * above the target so the random bursts always reach it */
	s->rounds = (long)((double)target / (3.3 * P)) + 1;
	rc = vp_run(&o, soak_rank, s, &st);
	for (r = 0; r < P; r++) {
		bad += s->bad[r];
		mis += s->misordered[r];
		recv += s->received[r];
	}
	tap_ok(rc == VP_OK, "soak ran to the end (%.1f s)", st.wall_seconds);
	tap_ok(recv >= target && (uint64_t)recv == st.messages,
	       "%ld messages received, %llu delivered by the runtime (target "
	       "%ld)",
	       recv, (unsigned long long)st.messages, target);
	tap_ok(bad == 0, "no corrupted message (%ld checksum failures)", bad);
	tap_ok(mis == 0,
	       "no loss, duplicate or reordering per pair (%ld sequence errors)",
	       mis);
	free(s);
	return tap_done();
}
