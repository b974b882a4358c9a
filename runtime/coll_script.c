/*
 * coll_script.c - a collective call's messages, recorded once and then
 * charged to the model clocks without being sent (coll_sync.c decides
 * when).
 *
 * The book's collective algorithms are oblivious: which rank sends how
 * many bytes to which, and which send each receive takes, depend on the
 * call's arguments (operation, algorithm, count, type, root, the
 * communicator) and never on the data or on timing. So the messages of
 * one call of a signature, written down as each rank's list of sends and
 * receives (a script), are those of every later call of it, and the model
 * clocks can be charged from the scripts alone: each rank's clock gets
 * the clock rules of its sends and receives in the rank's own order, and a
 * receive reads the envelope its matching send made (vp__clock_send,
 * vp__clock_recv, the model log, exactly as p2p.c applies them). Any
 * order of the ranks that runs a send before the receives of it gives the
 * same clocks: each rule touches one rank's clock and reads only the
 * envelope of its message.
 *
 * A call is recordable when it uses only vp_send, vp_recv and
 * vp_sendrecv (and their tagged and reducing forms) with named sources.
 * Anything else that moves a clock (a nonblocking call, a probe, a
 * window, vp_compute, a superstep) spoils the script: the sends and
 * receives the clock counted must equal those recorded, and the calls
 * that move T without a message say so (vp__script_spoil). A spoiled
 * signature is always sent as messages.
 *
 * Cost: a script is one entry per message a rank sends or receives; the
 * plan made from all ranks' scripts, once, orders them so that every
 * send precedes its receives (O(messages) per pass, one pass per round of
 * the algorithm).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

enum { OP_SEND, OP_RECV, OP_SR_SEND, OP_SR_RECV };
enum { SCRIPT_EMPTY, SCRIPT_RECORDING, SCRIPT_COMPLETE, SCRIPT_SPOILED };

struct script_op {
	int kind;
	int peer;     /* world rank: the destination, or the source */
	size_t bytes; /* sent, or received */
	uint32_t seq; /* a receive: its message's modelled send number */
	/* a receive, resolved by the plan: the sender's group rank and
	 * which of its sends */
	int from;
	uint32_t send_no;
};

struct vp__script {
	struct script_op *ops;
	size_t n, cap;
	int state;
	uint32_t sends, recvs;
	uint32_t seq0;   /* the clock's send_seq when the call began */
	uint64_t msgs0;  /* and its messages received */
};

struct plan_step {
	int member;
	uint32_t op;
};

struct vp__plan {
	struct plan_step *steps;
	size_t n;
	size_t *send_base;         /* member -> its first send's slot */
	struct vp__envelope *envs; /* a slot per send */
	int *hops;                 /* a slot per send */
	double *send_end;          /* member -> its exchange's send end */
	uint32_t *sent;            /* member -> its sends charged so far */
	int p;
};

struct vp__script *vp__scripts_new(int p)
{
	return calloc((size_t)p, sizeof(struct vp__script));
}

void vp__scripts_free(struct vp__script *s, int p)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < p; i++)
		free(s[i].ops);
	free(s);
}

void vp__scripts_reset(struct vp__script *s, int p)
{
	int i;

	for (i = 0; i < p; i++) {
		s[i].n = 0;
		s[i].state = SCRIPT_EMPTY;
	}
}

int vp__scripts_complete(const struct vp__script *s, int p, int *spoiled)
{
	int i, all = 1;

	*spoiled = 0;
	for (i = 0; i < p; i++) {
		if (s[i].state == SCRIPT_SPOILED)
			*spoiled = 1;
		if (s[i].state != SCRIPT_COMPLETE)
			all = 0;
	}
	return all;
}

struct vp__script *vp__script_of(struct vp__script *s, int member)
{
	return &s[member];
}

void vp__script_begin(struct vp__rank *me, struct vp__script *s)
{
	s->n = 0;
	s->sends = s->recvs = 0;
	s->state = SCRIPT_RECORDING;
	s->seq0 = me->clock.send_seq;
	s->msgs0 = me->clock.messages;
	me->script = s;
}

void vp__script_end(struct vp__rank *me, int rc)
{
	struct vp__script *s = me->script;

	if (!s)
		return;
	me->script = NULL;
	if (s->state != SCRIPT_RECORDING)
		return;
	/* every send and receive the clock counted was recorded */
	if (rc || me->clock.send_seq - s->seq0 != s->sends ||
	    me->clock.messages - s->msgs0 != s->recvs)
		s->state = SCRIPT_SPOILED;
	else
		s->state = SCRIPT_COMPLETE;
}

void vp__script_spoil(struct vp__rank *me)
{
	if (me->script)
		me->script->state = SCRIPT_SPOILED;
}

static struct script_op *append(struct vp__script *s)
{
	if (s->state != SCRIPT_RECORDING)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct script_op *ops = realloc(s->ops, cap * sizeof(*ops));

		if (!ops) {
			s->state = SCRIPT_SPOILED;
			return NULL;
		}
		s->ops = ops;
		s->cap = cap;
	}
	return &s->ops[s->n++];
}

void vp__script_send(struct vp__rank *me, int dst_world, size_t n)
{
	struct script_op *o = append(me->script);

	if (o) {
		*o = (struct script_op){ .kind = OP_SEND, .peer = dst_world,
					 .bytes = n };
		me->script->sends++;
	}
}

void vp__script_recv(struct vp__rank *me, int src_world, uint32_t seq,
		     size_t len)
{
	struct script_op *o = append(me->script);

	if (o) {
		*o = (struct script_op){ .kind = OP_RECV, .peer = src_world,
					 .bytes = len, .seq = seq };
		me->script->recvs++;
	}
}

void vp__script_sendrecv(struct vp__rank *me, int dst_world, size_t sn,
			 int src_world, uint32_t seq, size_t rlen)
{
	struct script_op *o = append(me->script);

	if (!o)
		return;
	*o = (struct script_op){ .kind = OP_SR_SEND, .peer = dst_world,
				 .bytes = sn };
	me->script->sends++;
	if (!(o = append(me->script)))
		return;
	*o = (struct script_op){ .kind = OP_SR_RECV, .peer = src_world,
				 .bytes = rlen, .seq = seq };
	me->script->recvs++;
}

/* ---- the plan ---- */

void vp__plan_free(struct vp__plan *pl)
{
	if (!pl)
		return;
	free(pl->steps);
	free(pl->send_base);
	free(pl->envs);
	free(pl->hops);
	free(pl->send_end);
	free(pl->sent);
	free(pl);
}

static int is_send(int kind)
{
	return kind == OP_SEND || kind == OP_SR_SEND;
}

/* Resolves every receive to its send: the sender's k-th send of the call
 * made the message numbered seq0 + k. 0 when one does not match. */
static int resolve(const vp_comm *c, struct vp__script *s, int p,
		   size_t **send_op)
{
	int m;
	size_t i;

	for (m = 0; m < p; m++) {
		uint32_t k = 0;

		if (!(send_op[m] = malloc((s[m].sends + 1) * sizeof(size_t))))
			return 0;
		for (i = 0; i < s[m].n; i++)
			if (is_send(s[m].ops[i].kind))
				send_op[m][k++] = i;
	}
	for (m = 0; m < p; m++)
		for (i = 0; i < s[m].n; i++) {
			struct script_op *o = &s[m].ops[i];
			int from;

			if (is_send(o->kind))
				continue;
			from = vp__from_world(c, o->peer);
			if (from < 0 || from >= p)
				return 0;
			o->from = from;
			o->send_no = o->seq - s[from].seq0;
			if (o->send_no >= s[from].sends ||
			    s[from].ops[send_op[from][o->send_no]].peer !=
				vp__to_world(c, m) ||
			    s[from].ops[send_op[from][o->send_no]].bytes !=
				o->bytes)
				return 0;
		}
	return 1;
}

/* Orders the steps: each rank in turn runs until a receive whose send has
 * not run. 0 when no order exists (the scripts do not fit together). */
static int order(struct vp__plan *pl, const struct vp__script *s, int p)
{
	size_t *pc = calloc((size_t)p, sizeof(size_t)), total = 0, done = 0;
	uint32_t *sent = calloc((size_t)p, sizeof(uint32_t));
	int m, ok = 0;

	for (m = 0; m < p; m++)
		total += s[m].n;
	pl->steps = malloc((total + 1) * sizeof(*pl->steps));
	if (!pc || !sent || !pl->steps)
		goto out;
	while (done < total) {
		size_t before = done;

		for (m = 0; m < p; m++)
			while (pc[m] < s[m].n) {
				const struct script_op *o = &s[m].ops[pc[m]];

				if (!is_send(o->kind) &&
				    sent[o->from] <= o->send_no)
					break;
				if (is_send(o->kind))
					sent[m]++;
				pl->steps[done++] = (struct plan_step){
					m, (uint32_t)pc[m]
				};
				pc[m]++;
			}
		if (done == before)
			goto out;
	}
	pl->n = total;
	ok = 1;
out:
	free(pc);
	free(sent);
	return ok;
}

struct vp__plan *vp__plan_make(const vp_comm *c, struct vp__script *s, int p)
{
	struct vp__plan *pl = calloc(1, sizeof(*pl));
	size_t **send_op = calloc((size_t)p, sizeof(size_t *)), sends = 0;
	int m, ok = 0;

	if (!pl || !send_op)
		goto out;
	if (!(pl->send_base = malloc((size_t)p * sizeof(size_t))) ||
	    !(pl->send_end = calloc((size_t)p, sizeof(double))) ||
	    !(pl->sent = calloc((size_t)p, sizeof(uint32_t))))
		goto out;
	pl->p = p;
	for (m = 0; m < p; m++) {
		pl->send_base[m] = sends;
		sends += s[m].sends;
	}
	pl->envs = calloc(sends + 1, sizeof(*pl->envs));
	pl->hops = calloc(sends + 1, sizeof(int));
	ok = pl->envs && pl->hops && resolve(c, s, p, send_op) &&
	     order(pl, s, p);
out:
	for (m = 0; send_op && m < p; m++)
		free(send_op[m]);
	free(send_op);
	if (!ok) {
		vp__plan_free(pl);
		return NULL;
	}
	return pl;
}

/*
 * Charges every member's clock with the plan's messages, as p2p.c does:
 *   send      vp__clock_send; T to the send's end; SEND logged
 *   receive   vp__clock_recv on the send's envelope; T to the later of T
 *             and the completion; RECV logged
 *   exchange  the send half (T to send_cpu, the send's end kept), then
 *             the receive half (T to the latest of T, the completion and
 *             the send's end); SENDRECV logged
 */
void vp__plan_charge(struct vp__plan *pl, const struct vp__script *s,
		     vp_comm *const *members)
{
	size_t i;

	memset(pl->sent, 0, (size_t)pl->p * sizeof(uint32_t));
	for (i = 0; i < pl->n; i++) {
		int m = pl->steps[i].member;
		const struct script_op *o = &s[m].ops[pl->steps[i].op];
		struct vp__rank *r = members[m]->me;
		struct vp__world *w = r->world;
		struct vp__clock *k = &r->clock;
		size_t slot;
		double done;

		if (is_send(o->kind)) {
			/* a member's sends run in its order: its k-th send */
			slot = pl->send_base[m] + pl->sent[m]++;
			pl->hops[slot] =
			    vp__clock_send(k, &w->model, &w->topo,
					   r->world_rank, o->peer, o->bytes,
					   &pl->envs[slot]);
			if (o->kind == OP_SEND) {
				k->t = k->send_done;
				vp__clock_log(k, VP__EV_SEND, o->peer, -1,
					      (uint32_t)pl->hops[slot], 0,
					      o->bytes, 0);
			} else {
				pl->send_end[m] = k->send_done;
				k->t = k->send_cpu;
			}
			continue;
		}
		slot = pl->send_base[o->from] + o->send_no;
		done = vp__clock_recv(k, &w->model, &pl->envs[slot], o->bytes);
		if (done > k->t)
			k->t = done;
		if (o->kind == OP_RECV) {
			vp__clock_log(k, VP__EV_RECV, -1, o->peer, 0,
				      pl->envs[slot].seq, 0, o->bytes);
			continue;
		}
		/* an exchange: its send half is the op before, the member's
		 * latest send */
		if (pl->send_end[m] > k->t)
			k->t = pl->send_end[m];
		vp__clock_log(k, VP__EV_SENDRECV, o[-1].peer, o->peer,
			      (uint32_t)pl->hops[pl->send_base[m] +
						 pl->sent[m] - 1],
			      pl->envs[slot].seq, o[-1].bytes, o->bytes);
	}
}
