/*
 * transport.c - the MPI transport's operations (transport.h): under
 * mpirun -np P, vp_run runs the rank function once in each process, as
 * rank r = the process's rank in MPI_COMM_WORLD, with p = P.
 *
 * MPI is started here when the program did not start it (MPI_Init_thread,
 * MPI_THREAD_FUNNELED: only the thread that called vp_run talks to MPI)
 * and then finalized when the program exits. Each run works on two
 * duplicates of MPI_COMM_WORLD (data and control), freed at its end.
 *
 * The run's end: when termination detection (termination.c) has found
 * every rank function returned and nothing in flight, the processes agree
 * on the run's first error (the lowest process that has one gives it),
 * gather what was never received, and hand every process every rank's
 * records (records.c), so vp_run computes the same vp_stats, model times,
 * collective checks and trace in every process. The process of rank 0
 * writes the trace and the SVG and prints the report.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_tx.h"

static void finalize_at_exit(void)
{
	int done = 0;

	MPI_Finalized(&done);
	if (!done)
		MPI_Finalize();
}

static int start_mpi(char *err, size_t errlen)
{
	int inited = 0, provided;

	MPI_Initialized(&inited);
	if (inited)
		return VP_OK;
	MPI_Finalized(&inited);
	if (inited) {
		snprintf(err, errlen,
			 "vp_run: transport 'mpi': MPI was already finalized");
		return VP_EINVAL;
	}
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) !=
	    MPI_SUCCESS) {
		snprintf(err, errlen,
			 "vp_run: transport 'mpi': MPI_Init_thread failed");
		return VP_EINVAL;
	}
	atexit(finalize_at_exit);
	return VP_OK;
}

/*
 * Whether the MPI library gives the CPU away by itself when a test finds
 * nothing to do: Open MPI's control variable mpi_yield_when_idle, which
 * its mpirun sets when a node is oversubscribed. Read once per process
 * through the MPI tool information interface; 0 for other libraries
 * (MPICH has no such variable, and its MPI_T did not survive being
 * started again after MPI_T_finalize).
 */
static int library_yields(void)
{
	static int known = -1; /* only the thread of vp_run talks to MPI */
	char version[MPI_MAX_LIBRARY_VERSION_STRING];
	int n = 0, i, provided, count, len;
	int64_t on = 0; /* room for whichever integer type it has */
	MPI_T_cvar_handle h;

	if (known >= 0)
		return known;
	known = 0;
	MPI_Get_library_version(version, &len);
	if (!strstr(version, "Open MPI") ||
	    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
		return known;
	MPI_T_cvar_get_num(&n);
	for (i = 0; i < n; i++) {
		char name[256], desc[8];
		int nlen = sizeof(name), dlen = sizeof(desc), verb, bind, scope;
		MPI_Datatype type;
		MPI_T_enum en;

		if (MPI_T_cvar_get_info(i, name, &nlen, &verb, &type, &en,
					desc, &dlen, &bind, &scope) ||
		    strcmp(name, "mpi_yield_when_idle"))
			continue;
		if (MPI_T_cvar_handle_alloc(i, NULL, &h, &count) ==
		    MPI_SUCCESS) {
			if (MPI_T_cvar_read(h, &on) == MPI_SUCCESS)
				known = on != 0;
			MPI_T_cvar_handle_free(&h);
		}
		break;
	}
	MPI_T_finalize();
	return known;
}

/*
 * More processes of the job on this node than it has CPUs: a waiting
 * process must give its CPU away after a turn that found nothing; else it
 * spins, which is faster. Not where the library already yields inside
 * each test (Open MPI's mpi_yield_when_idle): a second sched_yield a turn
 * makes every hop of a collective wait twice for the others' turns.
 */
static int crowded(void)
{
	static int known = -1; /* the node's processes stay where they are */
	MPI_Comm node;
	int here = 1;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (known >= 0)
		return known;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &node) == MPI_SUCCESS) {
		MPI_Comm_size(node, &here);
		MPI_Comm_free(&node);
	}
	known = cpus > 0 && here > cpus && !library_yields();
	return known;
}

/*
 * Completes the request of one of the run's own collectives (duplicating
 * the communicators, the agreements at its end), giving the CPU away
 * between tests when crowded. MPICH's blocking collectives spin without
 * yielding: with more processes than CPUs each hop of one costs a waiting
 * process's whole time slice.
 */
static void finish(const struct mpt *t, MPI_Request *req)
{
	int done = 0;

	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		if (t->crowded)
			sched_yield();
	}
}

static void world_free(void *tx_world);

static int world_new(const struct vp__transport_init *in, void **tx_world,
		     void **tx_rank, char *err, size_t errlen)
{
	struct mpt *t;
	MPI_Request dup[2];
	int rc, size, me;

	if ((rc = start_mpi(err, errlen)))
		return rc;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	if (size != in->p) {
		snprintf(err, errlen,
			 "vp_run: transport 'mpi': the topology has p = %d "
			 "but the MPI job has %d processes (one rank per "
			 "process: mpirun -np %d)",
			 in->p, size, in->p);
		return VP_EINVAL;
	}
	if (!(t = calloc(1, sizeof(*t)))) {
		snprintf(err, errlen, "vp_run: no memory for the transport");
		return VP_ENOMEM;
	}
	t->w = in->w;
	t->p = size;
	t->me = me;
	t->rank = in->ranks[me];
	if (!(t->ranks = malloc((size_t)size * sizeof(*t->ranks)))) {
		free(t);
		snprintf(err, errlen, "vp_run: no memory for the transport");
		return VP_ENOMEM;
	}
	memcpy(t->ranks, in->ranks, (size_t)size * sizeof(*t->ranks));
	t->unexp_tail = &t->unexp;
	t->posted_tail = &t->posted;
	t->has_token = me == 0; /* process 0 starts the rounds */
	atomic_init(&t->to_announce, 0);
	atomic_init(&t->progress, 0);
	atomic_init(&t->in_vp_wait, 0);
	atomic_init(&t->returned, 0);
	t->crowded = crowded();
	MPI_Comm_idup(MPI_COMM_WORLD, &t->data, &dup[0]);
	MPI_Comm_idup(MPI_COMM_WORLD, &t->ctl, &dup[1]);
	finish(t, &dup[0]);
	finish(t, &dup[1]);
	t->watchdog = in->opts->watchdog;
	if (mpt_slots_post(t)) {
		snprintf(err, errlen,
			 "vp_run: transport 'mpi': MPI_Irecv failed");
		world_free(t);
		return VP_ENOMEM;
	}
	mpt_rma_start(t); /* after the last failure that frees t alone */
	tx_rank[me] = t; /* the other ranks run elsewhere */
	*tx_world = t;
	return VP_OK;
}

static void locals(void *tx_world, int *first, int *count)
{
	struct mpt *t = tx_world;

	*first = t->me;
	*count = 1;
}

/* ---- the run's end ---- */

/* Every process's bytes (mine: n of them) to every process: *all and
 * the offsets and lengths of each process's part. */
static char *allgather_bytes(struct mpt *t, const void *mine, int n,
			     int **counts, int **displs)
{
	MPI_Request req;
	int i, total = 0;
	char *all;

	*counts = calloc((size_t)t->p, sizeof(int));
	*displs = calloc((size_t)t->p, sizeof(int));
	if (!*counts || !*displs)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Iallgather(&n, 1, MPI_INT, *counts, 1, MPI_INT, t->ctl, &req);
	finish(t, &req);
	for (i = 0; i < t->p; i++) {
		(*displs)[i] = total;
		total += (*counts)[i];
	}
	if (!(all = malloc(total ? (size_t)total : 1)))
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Iallgatherv(mine, n, MPI_BYTE, all, *counts, *displs, MPI_BYTE,
			t->ctl, &req);
	finish(t, &req);
	return all;
}

/* The first error of the lowest process that has one becomes everyone's. */
static void agree_on_error(struct mpt *t)
{
	int head[4], rank, p2p, *counts, *displs, i;
	char *msg, *mine, *all;
	size_t n;

	head[0] = vp__world_error(t->w, &rank, &msg, &p2p);
	head[1] = rank;
	head[2] = p2p;
	n = msg ? strlen(msg) : 0;
	head[3] = (int)n;
	if (!(mine = malloc(sizeof(head) + n + 1)))
		MPI_Abort(MPI_COMM_WORLD, 1);
	memcpy(mine, head, sizeof(head));
	memcpy(mine + sizeof(head), msg ? msg : "", n + 1);
	all = allgather_bytes(t, mine, (int)(sizeof(head) + n + 1), &counts,
			      &displs);
	for (i = 0; i < t->p; i++) {
		memcpy(head, all + displs[i], sizeof(head));
		if (head[0] != VP_OK) {
			vp__world_adopt_error(t->w, head[1], head[0],
					      all + displs[i] + sizeof(head),
					      head[2]);
			break;
		}
	}
	free(mine);
	free(all);
	free(counts);
	free(displs);
}

static int cmp_unrecv(const void *a, const void *b)
{
	const struct vp__unreceived *x = a, *y = b;

	if (x->src != y->src)
		return x->src - y->src;
	if (x->dst != y->dst)
		return x->dst - y->dst;
	return x->ctx - y->ctx;
}

/* Messages left in this process's queue, per (context, sender), and then
 * every process's. */
static void gather_unreceived(struct mpt *t)
{
	struct vp__unreceived *mine = NULL;
	struct mpt_msg *m;
	int n = 0, cap = 0, i, *counts, *displs;
	char *all;

	for (m = t->unexp; m; m = m->next) {
		for (i = 0; i < n; i++)
			if (mine[i].ctx == m->h.ctx && mine[i].src == m->src)
				break;
		if (i == n) {
			if (n == cap) {
				cap = cap ? 2 * cap : 8;
				mine = realloc(mine, (size_t)cap * sizeof(*mine));
				if (!mine)
					MPI_Abort(MPI_COMM_WORLD, 1);
			}
			mine[n++] = (struct vp__unreceived){ m->h.ctx, m->src,
							     t->me, 0 };
		}
		mine[i].messages++;
	}
	all = allgather_bytes(t, mine, n * (int)sizeof(*mine), &counts,
			      &displs);
	free(mine);
	t->nunrecv = (displs[t->p - 1] + counts[t->p - 1]) /
		     (int)sizeof(struct vp__unreceived);
	t->unrecv = (struct vp__unreceived *)(void *)all;
	qsort(t->unrecv, (size_t)t->nunrecv, sizeof(*t->unrecv), cmp_unrecv);
	for (i = 0; i < t->nunrecv; i++)
		t->unrecv_total += t->unrecv[i].messages;
	free(counts);
	free(displs);
}

/* Every rank's records into every process. */
static void gather_records(struct mpt *t)
{
	size_t n = 0;
	void *mine = vp__records_pack(t->rank, &n);
	int *counts, *displs, i, bad = !mine || n > 0x7fffffff;
	char *all;

	all = allgather_bytes(t, mine, bad ? 0 : (int)n, &counts, &displs);
	for (i = 0; i < t->p; i++) {
		struct vp__rank *r;
		int rc;

		if (i == t->me)
			continue;
		r = t->ranks[i];
		rc = counts[i] ? vp__records_unpack(r, all + displs[i],
						    (size_t)counts[i])
			       : VP_ENOMEM;
		if (rc && !vp__world_status(t->w))
			vp__world_adopt_error(
			    t->w, i, rc,
			    "vp (mpi transport): the records of a rank did "
			    "not arrive whole (no memory?)",
			    0);
	}
	free(mine);
	free(all);
	free(counts);
	free(displs);
}

static int run(void *tx_world)
{
	struct mpt *t = tx_world;

	mpt_watchdog_start(t, t->watchdog);
	vp__rank_main(t->rank);
	mpt_wait_end(t);
	mpt_watchdog_stop(t);
	mpt_sends_reap(t, 1);
	agree_on_error(t);
	gather_unreceived(t);
	gather_records(t);
	return VP_OK;
}

/* ---- the rest of the contract ---- */

static void forget(void *me, int lo, int hi)
{
	(void)me;
	(void)lo;
	(void)hi; /* nothing is kept per context */
}

static void release(void *tx_world, int lo, int hi)
{
	(void)tx_world;
	(void)lo;
	(void)hi;
}

static void stats(void *tx_world, vp_stats *st)
{
	(void)tx_world;
	(void)st; /* no mailboxes; MPI's own memory is not counted */
}

static uint64_t unreceived(void *tx_world, struct vp__unreceived *first,
			   int max, int *npairs)
{
	struct mpt *t = tx_world;
	int i;

	for (i = 0; i < max && i < t->nunrecv; i++)
		first[i] = t->unrecv[i];
	*npairs = t->nunrecv;
	return t->unrecv_total;
}

static void world_free(void *tx_world)
{
	struct mpt *t = tx_world;

	mpt_sends_reap(t, 1);
	mpt_slots_cancel(t);
	mpt_messages_free(t);
	mpt_termination_free(t);
	mpt_rma_end(t);
	free(t->unrecv);
	free(t->ranks);
	MPI_Comm_free(&t->data);
	MPI_Comm_free(&t->ctl);
	free(t);
}

const struct vp__transport vp__mpi_transport = {
	.name = "mpi",
	.shares_memory = 0,
	.world_new = world_new,
	.run = run,
	.post_send = mpt_post_send,
	.complete_send = mpt_complete_send,
	.recv = mpt_recv,
	.recv_combine = mpt_recv_combine,
	.post_recv = mpt_post_recv,
	.progress = mpt_progress,
	.cancel_recv = mpt_cancel_recv,
	.lend_recv = mpt_lend_recv,
	.unlend_recv = mpt_unlend_recv,
	.send_done = mpt_send_done,
	.block = mpt_block,
	.probe = mpt_probe,
	.idle = mpt_idle,
	.wake_all = mpt_wake_all,
	.forget = forget,
	.release = release,
	.stats = stats,
	.unreceived = unreceived,
	.world_free = world_free,
	.locals = locals,
	.coll_record = mpt_coll_record,
	.rma = &mpt_rma,
};
