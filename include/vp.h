/*
 * vp.h - the public header of vp, the one a program includes:
 * message-passing programs with p ranks as threads of one process, on a
 * chosen interconnect, timed by a deterministic model clock (ts + tw*m per
 * message, th per hop).
 *
 * Every call returns VP_OK (0) or a negative VP_E* code; vp_strerror() names
 * the code and vp_errmsg() gives the rank's last message, which names the
 * rank, the call and the bad value. A failed call aborts the run: every other
 * rank's blocked call returns VP_EABORT and vp_run() returns the first error.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_H
#define VP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with -fvisibility=hidden: only what carries VP_API
 * is exported from libvp.so. */
#if defined(__GNUC__) && !defined(VP_STATIC)
#define VP_API __attribute__((visibility("default")))
#else
#define VP_API
#endif

/*
 * The sections below, in the order a reader meets them:
 *   1. Runs              vp_opts, vp_run, the interconnect, settings
 *   2. Communicators     ranks, sub-communicators
 *   3. Point to point    blocking sends and receives, tags, probes
 *   4. Requests          nonblocking sends and receives, waits, tests
 *   5. Collectives       element types, algorithms, the collective calls
 *                        (vp_barrier first), reductions, choosing
 *   6. One-sided         windows, put, get, accumulate, fences, locks,
 *                        atomics, post-start-complete-wait, window kinds
 *   7. Models and clock  model time, cost models, the book's formulas
 *   8. Statistics, trace what a run reports, labels for the trace
 *   9. Errors            the codes, messages, failing a run
 * Every call of sections 1-9 is for programs. What libraries built on vp
 * use besides (vp's MPI layer) is declared in vp/vp_layer.h, which this
 * header includes at its end: a program that includes vp.h has it all.
 */

/* Opaque communicator: a group of ranks with its own message space. */
typedef struct vp_comm vp_comm;
/* What a run did (section 8). */
typedef struct vp_stats vp_stats;

/* ---- 1. Runs ----
 * A program is a function every rank runs: vp_run starts p ranks on the
 * interconnect that vp_opts names, each a thread (or a fiber) of this
 * process, and returns when all have returned. Options, the run itself,
 * the interconnect as data, and the strict reading of settings.
 */

/*
 * Options of a run. Zeroed fields mean defaults.
 * topology: "ring:P", "line:P", "mesh:RxC", "torus:RxC", "hypercube:D",
 *           "tree:P" (P a power of two; ranks at the leaves), "full:P".
 *           Default "full:1".
 */
typedef struct vp_opts {
	const char *topology;
	int strict;       /* 1: sends to non-neighbours fail with VP_ENOLINK */
	double ts;        /* startup time per message (default 0) */
	double tw;        /* time per byte (default 0) */
	double th;        /* time per hop (default 0) */
	size_t eager_max; /* largest eagerly copied message (default 64 KiB) */
	/* trace: path of a Chrome/Perfetto JSON trace of every message (one
	 * track per rank, a slice per send/recv/sendrecv, a flow arrow from
	 * each send to its receive); opens in ui.perfetto.dev. NULL: none. */
	const char *trace;
	/* stack_size: each rank's stack (default 256 KiB, 1 MiB under the
	 * sanitizers); the environment's VP_STACK_SIZE (bytes, or with K, M
	 * or G: 8M) takes its place. An overflow ends the process naming the
	 * rank and the size. */
	size_t stack_size;
	int quiet;      /* 1: do not print the failure report */
	int kary;       /* degree of the k-ary broadcast (default 4) */
	size_t segment; /* pipelined trees: segment bytes (0: optimum) */
	int trace_wall; /* 1: the trace's time axis is wall time
			 * (us since the run began); 0: model time */
	/* svg: path of a space-time diagram (the book's figures): ranks as
	 * horizontal lines, model time left to right, one arrow per message
	 * labelled with its step, congested ones in red. NULL: none. */
	const char *svg;
	/* 1: messages still unreceived when every rank has returned are
	 * counted in vp_stats and reported on stderr, but the run succeeds;
	 * 0 (default): the run fails with VP_EUNRECEIVED naming them. */
	int allow_unreceived;
	/* Seconds without any rank moving a message or returning after which
	 * the run fails with VP_EWATCHDOG and a report of every rank (for
	 * ranks stuck outside vp, which deadlock detection cannot see); the
	 * environment variable VP_WATCHDOG sets it too. 0: off (default).
	 * On the mpi transport each process watches its own rank: one that
	 * moves no message for that long outside vp ends its process with
	 * exit status 124 after writing its report, and so the job. */
	double watchdog;
	/* What moves the messages: NULL or "threads" (default: the ranks are
	 * threads of this process), or "mpi" (the ranks are the processes of
	 * an mpirun job, one rank each; needs libvp-mpi, built by make MPI=1).
	 * The environment variable VP_TRANSPORT overrides it. */
	const char *transport;
	/* The cost model of the model clock (docs/models.md, "Cost models"):
	 * NULL or "alpha-beta" (ts, tw, th above; cut-through routing),
	 * "alpha-beta:saf" (store-and-forward), "logp:L=,o=,g=",
	 * "loggp:L=,o=,g=,G=", "bsp:g=,l="; any may add ",ports=K" (K
	 * sends and K receives in flight per rank, 1..16) or ",ports=all".
	 * An alpha-beta spec may set ts=, tw=, th= itself (they win over the
	 * fields). Parameters left out are 0. The environment variable
	 * VP_MODEL overrides it. */
	const char *model;
	/* 1: every VP_SUM of VP_FLOAT or VP_DOUBLE in vp_reduce,
	 * vp_allreduce, vp_reduce_scatter and vp_scan gives the same bits
	 * whatever the algorithm, the topology and the order the terms meet
	 * in: each element's terms are summed exactly on a 256-bit
	 * fixed-point grid set by its largest term and rounded once
	 * (docs/reproducible.md, "Reproducible sums"). It costs one more
	 * all-reduce (4 bytes an element) and 32 bytes an element on the
	 * wire. The environment variable VP_REPRODUCIBLE (0 or 1) overrides
	 * it. 0: off (default). */
	int reproducible;
	/* 1: the ranks run as fibers (user-level contexts) on as many carrier
	 * threads as there are CPUs, switched inside vp's blocking calls,
	 * instead of a kernel thread each: much faster when ranks far
	 * outnumber the CPUs (docs/fibers.md, "Ranks as fibers").
	 * Thread-local variables, errno and pthread_self() are then shared by
	 * the ranks of a carrier, and a rank must not wait for another
	 * outside vp's calls. The threads transport only. The environment
	 * variable VP_FIBERS (0 or 1) overrides it. 0: off (default). */
	int fibers;
	/* A deterministic schedule (docs/schedules.md): 0 (default) lets the
	 * ranks run freely; any other value is the seed of a run in which
	 * exactly one rank runs at a time and every choice MPI's semantics
	 * leaves open (which ready rank runs next, which sender a wildcard
	 * receive takes, whether a standard send is buffered, when a test
	 * sees a completion) is drawn from a generator seeded with it: the
	 * same seed, program and input give the same matches, results,
	 * trace and output order. The environment variable VP_SCHEDULE
	 * applies when this is 0. The threads transport only. */
	uint64_t schedule;
	/* With a schedule: 0 draws every choice uniformly; d in 1 .. 2^20
	 * runs the ranks by random priorities with d - 1 priority changes
	 * (PCT, Burckhardt et al., ASPLOS 2010: finds a bug of depth d with
	 * probability at least 1/(p k^(d-1)) per run). VP_SCHEDULE_DEPTH
	 * applies when this is 0. */
	int schedule_depth;
	/* vp_explore: seconds each run may take before it is killed and
	 * reported as a timeout. The environment variable VP_EXPLORE_TIMEOUT
	 * applies when it is 0. 0: 60 s. */
	double explore_timeout;
} vp_opts;

#define VP_DEFAULT_EAGER_MAX ((size_t)64 * 1024)
#define VP_MAX_RANKS 65536

/*
 * Runs fn(comm, arg) on p threads, one per rank of opts->topology, and
 * returns VP_OK or the first error. stats may be NULL.
 */
VP_API int vp_run(const vp_opts *opts, int (*fn)(vp_comm *, void *), void *arg,
		  vp_stats *stats);

/*
 * Exploration: vp_run under `runs` deterministic schedules, one after the
 * other, until one fails. The seeds are base, base + 1, ... (base is
 * opts->schedule, or VP_EXPLORE_BASE when that is 0), so an exploration is
 * itself reproducible, and a failing seed replays alone: opts.schedule =
 * first_seed (or VP_SCHEDULE=first_seed) and the same schedule_depth.
 * opts->schedule_depth (or VP_SCHEDULE_DEPTH) picks the strategy: 0,
 * uniform random choices; d >= 1, PCT with bug depth d.
 *
 * Each run is a child process (fork), so that a crash, an abort() or a
 * failed assert() ends the child, not the explorer; a run that takes longer
 * than opts->explore_timeout (default 60 s) is killed. A run fails when
 * vp_run returns an error (a rank's non-zero result, a deadlock, a
 * collective mismatch, messages never received, vp's watchdog), when it
 * dies of a signal or calls exit(), or when it is killed for its time.
 * The child's stdout goes to /dev/null and its stderr, with vp's report
 * (printed even where opts->quiet is 1), is kept for the result; fn and
 * arg are the child's copies: what a run writes to memory is lost with it.
 * Call it where no other thread of the process runs (fork copies only the
 * caller's thread).
 *
 * Returns VP_OK whether or not a run failed (see result->failed), or
 * VP_EINVAL (bad arguments, named on stderr unless opts->quiet) or
 * VP_ENOMEM (no process, pipe or memory for a run).
 */
#define VP_EXPLORE_BASE 1
typedef enum vp_explore_kind {
	VP_EXPLORE_PASSED = 0, /* no run failed */
	VP_EXPLORE_ERROR,      /* vp_run returned code (VP_E*, or a rank's
				* positive result) */
	VP_EXPLORE_ASSERTION,  /* assert() failed (SIGABRT, and its message) */
	VP_EXPLORE_ABORT,      /* abort() (SIGABRT) */
	VP_EXPLORE_CRASH,      /* another signal: SIGSEGV, SIGBUS, SIGFPE, ... */
	VP_EXPLORE_EXIT,       /* the run's process called exit(code) */
	VP_EXPLORE_TIMEOUT,    /* not ended after explore_timeout s; killed */
} vp_explore_kind;

typedef struct vp_explore_result {
	int runs;            /* runs made, the failing one included */
	int failed;          /* runs that failed: 0, or 1 (the last made) */
	uint64_t first_seed; /* the failing run's seed; 0 if none failed */
	int depth;           /* the schedule depth of every run */
	vp_explore_kind kind;
	const char *what;    /* the failure in words: "deadlock", "mismatch",
			      * "unreceived messages", "watchdog", "rank
			      * error", "error", "assertion", "abort", "crash",
			      * "exit", "timeout" ("passed" if none; static) */
	int code;            /* ERROR: vp_run's result; EXIT: the status */
	int signal;          /* ASSERTION, ABORT, CRASH: the signal */
	int rank;            /* ERROR: vp's failing rank, else -1 */
	/* The failure's report: the first lines of the failing run's stderr
	 * (whole lines, as many as fit), or a line of vp_explore's own
	 * where the run wrote nothing. */
	char report[1024];
	/* How many different sequences of wildcard matches, and different
	 * schedules (every switch and choice), the runs made: distinct
	 * vp_schedule_info hashes. */
	uint64_t match_orders;
	uint64_t schedules;
	double seconds; /* wall time of the whole exploration */
} vp_explore_result;

VP_API int vp_explore(const vp_opts *opts, int (*fn)(vp_comm *, void *),
		      void *arg, int runs, vp_explore_result *result);

/*
 * The interconnect as data, for algorithms and tools that adapt to it (no
 * spec strings to parse). dims: mesh and torus rows and cols (rank = row *
 * cols + col); p for the ring, line, tree and full; the hypercube's and the
 * tree's dim is log2 p. diameter is the longest route in links.
 */
typedef enum vp_topo_kind {
	VP_TOPO_RING,
	VP_TOPO_LINE,
	VP_TOPO_MESH,
	VP_TOPO_TORUS,
	VP_TOPO_HYPERCUBE,
	VP_TOPO_TREE,
	VP_TOPO_FULL,
} vp_topo_kind;

typedef struct vp_topo {
	vp_topo_kind kind;
	const char *name; /* "ring", "mesh", ... (static text) */
	int p;
	int ndims; /* 2 for mesh and torus, else 1 */
	int dims[2];
	int dim;        /* hypercube dimension; tree depth */
	int wraparound; /* ring and torus */
	int diameter;
	char spec[64]; /* canonical spec, e.g. "mesh:3x4" */
} vp_topo;

/* The spec of a topology kind ("mesh", ...) with p ranks: the squarest
 * grid for mesh and torus, log2 p for the hypercube. VP_EINVAL when the
 * kind is unknown or cannot have p ranks (a hypercube of 6). */
VP_API int vp_topo_spec(const char *kind, int p, char *buf, size_t len);
/* The run's physical topology (whatever sub-communicator c is). */
VP_API int vp_topo_info(const vp_comm *c, vp_topo *t);
/* The same for a spec; VP_EINVAL with a message in err (may be NULL)
 * quoting the spec and listing the accepted forms. */
VP_API int vp_topo_parse(const char *spec, vp_topo *t, char *err,
			 size_t errlen);

/*
 * Settings, read strictly: the whole text is a number (an integer when
 * integer is 1) in [lo, hi] (hi may be INFINITY), else VP_EINVAL with err
 * naming the setting and its text, e.g. "VP_FIBERS=yes: not a number; it
 * must be an integer from 0 to 1" ("--bytes lots: ..." for a name that
 * starts with '-', an option). vp_setting_env reads the environment
 * variable name; unset or empty gives dflt.
 */
VP_API int vp_setting_parse(const char *name, const char *text, double lo,
			    double hi, int integer, double *out, char *err,
			    size_t errlen);
VP_API int vp_setting_env(const char *name, double lo, double hi, int integer,
			  double dflt, double *out, char *err, size_t errlen);
/* The same for an unsigned 64-bit integer (a schedule's seed: decimal, or
 * hexadecimal with 0x), which a double cannot hold exactly. */
VP_API int vp_setting_parse_u64(const char *name, const char *text,
				uint64_t *out, char *err, size_t errlen);

/*
 * What the last seeded vp_run of this process did (vp_opts.schedule):
 * its seed and depth, the choice points it took (draws among two or more
 * options), a hash of its sequence of wildcard matches (which sender each
 * wildcard receive, probe and waitany took) and a hash of its whole
 * schedule (every rank switch and every choice). Two runs with equal
 * hashes made the same choices. seed is 0 when the last run was not
 * seeded (or there was none). VP_EINVAL when out is NULL.
 * With VP_SCHEDULE_REPORT_FD=n in the environment a seeded run also
 * writes "vp-schedule seed=S depth=D choices=N matches=HEX schedule=HEX\n"
 * to file descriptor n as it ends.
 */
typedef struct vp_schedule_info {
	uint64_t seed;
	int depth;
	uint64_t choices;
	uint64_t match_hash;
	uint64_t schedule_hash;
} vp_schedule_info;
VP_API int vp_schedule_last(vp_schedule_info *out);

/* ---- 2. Communicators ----
 * A communicator is a group of ranks with its own message space; a run
 * hands each rank the world. Ranks, where they sit on the interconnect,
 * and sub-communicators.
 */

VP_API int vp_rank(const vp_comm *c);
VP_API int vp_size(const vp_comm *c);
/* The physical topology spec of the run, e.g. "hypercube:3". */
VP_API const char *vp_topology(const vp_comm *c);
/* 1 if c has every rank of the run, in world order (the world itself, or
 * a split that kept everyone in place): topology algorithms apply. */
VP_API int vp_comm_is_world(const vp_comm *c);
/* Rank of c's rank r in the world (physical placement). */
VP_API int vp_world_rank(const vp_comm *c, int r);
/* 1 if the run is in strict mode (sends only between neighbours). */
VP_API int vp_strict(const vp_comm *c);
/* 1 if world ranks a and b share a physical link (strict-mode neighbours). */
VP_API int vp_is_neighbor(const vp_comm *c, int a, int b);

/* Sub-groups: ranks with equal color form a group ordered by (key, rank).
 * color < 0 (VP_UNDEFINED) gives *sub = NULL. Where every rank of the run
 * shares one process the members meet at a slot of c's group, without a
 * message (each waits for the last to arrive, as a split must). Not
 * charged by the model. */
#define VP_UNDEFINED (-1)
VP_API int vp_comm_split(vp_comm *c, int color, int key, vp_comm **sub);
/* A communicator of the n ranks of c listed in ranks (ranks[i] becomes its
 * rank i), made by every rank of c (MPI_Comm_create): each passes the
 * group it joins, or one without itself (n may be 0) to get *sub = NULL.
 * Lists that differ between ranks must be disjoint (MPI 4.0 sec. 7.4.2);
 * groups that overlap but differ, or a group not every member of which
 * passed, fail every rank with VP_EMISMATCH. Not charged by the model. */
VP_API int vp_comm_create(vp_comm *c, const int *ranks, int n,
			  vp_comm **sub);
/* A communicator of the n ranks of c listed in ranks (ranks[i] becomes its
 * rank i), made by those ranks alone: the others do not call
 * (MPI_Comm_create_group). Every listed rank passes the same list and tag;
 * the tag (0 .. VP_TAG_MAX) tells apart creations running at once on c.
 * A list that differs between its ranks fails with VP_EMISMATCH. Not
 * charged by the model. */
VP_API int vp_comm_create_group(vp_comm *c, const int *ranks, int n, int tag,
				vp_comm **sub);
/* A communicator of c's ranks in c's order, in a message space of its own
 * (MPI_Comm_dup), made by every rank of c. Where every rank of the run
 * shares one process it sends no message: a rank leaves at once, and its
 * duplicate may carry messages to ranks that have not made theirs yet.
 * It counts as a collective call on c (vp_coll_begin), so a rank that
 * makes another call there instead is named by that call's messages.
 * Not charged by the model. */
VP_API int vp_comm_dup(vp_comm *c, vp_comm **sub);
/* Frees a communicator of vp_comm_split, vp_comm_dup, vp_comm_create or
 * vp_comm_create_group, as MPI_Comm_free does: requests started on it
 * before complete as usual (it is released once they have). */
VP_API int vp_comm_free(vp_comm *sub);

/* ---- 3. Point to point ----
 * Blocking sends and receives of bytes, with tags; probes; the send and
 * receive at once. (The receives that reduce are in section 5.)
 */

/*
 * Point to point, blocking, in bytes. Messages carry a tag (vp_send and
 * vp_recv use tag 0); a receive takes the first message from its source
 * whose tag it names, or any tag with VP_ANY_TAG: messages of one sender
 * and one tag arrive in send order (MPI's non-overtaking rule); messages
 * of other tags wait aside for their own receive. VP_PROC_NULL as a peer:
 * the call completes at once and nothing moves (a receive's status says
 * source VP_PROC_NULL, tag VP_ANY_TAG, 0 bytes).
 */
#define VP_ANY_TAG (-1)
#define VP_ANY_SOURCE (-2)
#define VP_PROC_NULL (-3)
/* The largest tag, MPI_TAG_UB: 2^30 - 1, above MPICH's 2^28 - 1 and
 * MPI's minimum of 32767, below Open MPI's 2^31 - 1 (headroom for the
 * runtime's tag + 1). */
#define VP_TAG_MAX 1073741823

/* What a receive took (vp_recv_tag); source in the communicator's ranks. */
typedef struct vp_status {
	int source;
	int tag;
	size_t bytes;  /* length actually received */
	int cancelled; /* 1: a receive that vp_cancel took back */
} vp_status;

VP_API int vp_send(vp_comm *c, int dst, const void *buf, size_t n);
VP_API int vp_recv(vp_comm *c, int src, void *buf, size_t n);
/* As vp_recv, and *got receives the length of the message. */
VP_API int vp_recv_len(vp_comm *c, int src, void *buf, size_t n, size_t *got);
/* With a tag in [0, VP_TAG_MAX]; the receive may name VP_ANY_TAG; st may
 * be NULL. */
VP_API int vp_send_tag(vp_comm *c, int dst, int tag, const void *buf,
		       size_t n);
VP_API int vp_recv_tag(vp_comm *c, int src, int tag, void *buf, size_t n,
		       vp_status *st);
/* A synchronous send (MPI_Ssend): returns only once a receive on dst has
 * taken the message, whatever its size, so a program that relies on
 * buffering deadlocks here, and is reported. The model charges it as
 * vp_send_tag. */
VP_API int vp_ssend_tag(vp_comm *c, int dst, int tag, const void *buf,
			size_t n);

/* The first message matching (src, tag) that a receive would take, left
 * for that receive: its source, tag and length in *st. vp_probe waits for
 * one (and moves T to its arrival); vp_iprobe says *found 0 when none has
 * arrived yet (a real-time answer: a polling loop's count of misses is not
 * deterministic, its result is). */
VP_API int vp_probe(vp_comm *c, int src, int tag, vp_status *st);
VP_API int vp_iprobe(vp_comm *c, int src, int tag, int *found, vp_status *st);

/* Send and receive at once; the model overlaps the two transfers. */
VP_API int vp_sendrecv(vp_comm *c, int dst, const void *sbuf, size_t sn,
		       int src, void *rbuf, size_t rn);

/* The largest message sent eagerly: a send of at most this many bytes is
 * copied and returns at once; a larger one waits for its receiver. */
VP_API size_t vp_eager_max(const vp_comm *c);

/* ---- 4. Requests ----
 * Nonblocking sends and receives, and how they complete.
 */

/*
 * Nonblocking point to point (MPI's semantics for the calls of the same
 * names). vp_isend and vp_irecv start a transfer and return a request at
 * once; the buffer belongs to vp until the request completes in vp_wait,
 * vp_waitall, vp_waitany, vp_test or vp_testall, which set the request to
 * VP_REQUEST_NULL (waiting on VP_REQUEST_NULL returns at once). A message
 * goes to the oldest posted receive that matches it; a receive may name
 * VP_ANY_SOURCE (any sender: which one, when several have sent, follows the
 * real interleaving) and VP_ANY_TAG. A rank that returns with requests not
 * completed fails the run naming them. The status of a send says its
 * destination, tag and bytes; every vp_status argument may be NULL.
 * Model: a rank's sends leave one after another from its send port in the
 * order posted; a send completes when its port is done with it, a receive
 * at max(T at the wait, arrival) under the receive-port rule.
 */
typedef struct vp_req *vp_request;
#define VP_REQUEST_NULL ((vp_request)0)

VP_API int vp_isend(vp_comm *c, int dst, int tag, const void *buf, size_t n,
		    vp_request *req);
/* A synchronous vp_isend (MPI_Issend): the request completes only once the
 * receive has taken the message; the buffer is lent until then. */
VP_API int vp_issend(vp_comm *c, int dst, int tag, const void *buf, size_t n,
		     vp_request *req);
VP_API int vp_irecv(vp_comm *c, int src, int tag, void *buf, size_t n,
		    vp_request *req);
VP_API int vp_wait(vp_request *req, vp_status *st);
/* sts may be NULL; sts[i] is reqs[i]'s status. */
VP_API int vp_waitall(int n, vp_request reqs[], vp_status sts[]);
/* *index: the request that completed (-1 when all are VP_REQUEST_NULL). */
VP_API int vp_waitany(int n, vp_request reqs[], int *index, vp_status *st);
/* *done 1 and the request completed, or 0 and nothing changed. */
VP_API int vp_test(vp_request *req, int *done, vp_status *st);
/* Cancels a receive that no message has matched yet (MPI_Cancel): a wait
 * or test then completes it at once, nothing received, st->cancelled 1,
 * and the model clock does not move. A receive already matched, and any
 * send, is not cancelled (MPI lets a cancel fail): it completes as usual,
 * st->cancelled 0. Either way *req must still be completed. */
VP_API int vp_cancel(vp_request *req);
/* *done 1 when every request completed (all of them then are), else 0. */
VP_API int vp_testall(int n, vp_request reqs[], int *done, vp_status sts[]);

/* ---- 5. Collectives ----
 * Calls every rank of a communicator makes alike: the barrier, broadcast,
 * reductions, gathers, scatters, all-to-all, shift, each by an algorithm
 * that the caller names or VP_ALG_AUTO picks; the element types and
 * operators they take; the reductions made on point-to-point messages;
 * the reproducible sums; asking which algorithm runs and tuning them.
 */

/* Element types and reduction operators of the collectives. */
typedef enum vp_type {
	VP_BYTE,
	VP_INT32,
	VP_INT64,
	VP_FLOAT,
	VP_DOUBLE,
} vp_type;

typedef enum vp_op {
	VP_SUM,
	VP_PROD,
	VP_MIN,
	VP_MAX,
	VP_BAND,
	VP_BOR,
	VP_BXOR,
	/* one-sided accumulates only (vp_accumulate, vp_get_accumulate,
	 * vp_fetch_and_op): the target's value becomes the origin's, or is
	 * left as it is (MPI_REPLACE, MPI_NO_OP) */
	VP_REPLACE,
	VP_NO_OP,
} vp_op;

VP_API size_t vp_type_size(vp_type t);

/* Collective algorithms; lower-case names via vp_alg_name/vp_alg_parse. */
typedef enum vp_alg {
	VP_ALG_AUTO,
	VP_ALG_LINEAR,
	VP_ALG_RING,
	VP_ALG_MESH,
	VP_ALG_HYPERCUBE,
	VP_ALG_TREE,
	VP_ALG_BINOMIAL,
	VP_ALG_KARY,
	VP_ALG_PIPELINED_TREE,
	VP_ALG_DOUBLE_TREE,
	VP_ALG_SCATTER_ALLGATHER,
	VP_ALG_REDUCE_SCATTER_GATHER,
	VP_ALG_RABENSEIFNER,
	VP_ALG_PAIRWISE,
	VP_ALG_BRUCK,
	VP_ALG_DISSEMINATION,
	VP_ALG_RECURSIVE_DOUBLING,
	VP_ALG_DIRECT,
	VP_ALG_GREEDY,
	VP_ALG_NEIGHBOUR, /* strict mode: neighbour-only, store-and-forward */
	VP_ALG_COUNT_
} vp_alg;

VP_API const char *vp_alg_name(vp_alg alg);
VP_API int vp_alg_parse(const char *name); /* vp_alg, or VP_EALG if unknown */

/* The collective operations, for reports, selection and formulas. */
typedef enum vp_coll {
	VP_COLL_BCAST,
	VP_COLL_REDUCE,
	VP_COLL_ALLREDUCE,
	VP_COLL_ALLGATHER,
	VP_COLL_REDUCE_SCATTER,
	VP_COLL_SCAN,
	VP_COLL_SCATTER,
	VP_COLL_GATHER,
	VP_COLL_ALLTOALL,
	VP_COLL_SHIFT,
	VP_COLL_COUNT_
} vp_coll;

VP_API const char *vp_coll_name(vp_coll op); /* "bcast", "reduce", ... */
VP_API int vp_coll_parse(const char *name);  /* vp_coll, or VP_EINVAL */

/*
 * Collectives. count is elements per rank (bcast, reduce, allreduce, scan)
 * or per block (allgather, reduce_scatter, scatter, gather, alltoall,
 * shift); buffers holding p blocks hold them in rank order. Every rank of c
 * calls with the same count, type, op, root, q and alg. count 0 does
 * nothing. Send and receive buffers may not overlap, except through
 * VP_IN_PLACE as in MPI: as sbuf of reduce (root), allreduce, scan,
 * allgather (own block already in rbuf), gather (root), alltoall (input in
 * rbuf); as rbuf of scatter (root). Bitwise ops need an integer type.
 * alg VP_ALG_AUTO picks an algorithm (see vp_coll_choose); a named one that
 * cannot run here returns VP_EALG with the reason, and never falls back.
 */
#define VP_IN_PLACE ((void *)1)

/* Barrier: dissemination over point-to-point, ceil(log2 p) rounds of
 * zero-byte messages, charged by the model clock like any message. */
VP_API int vp_barrier(vp_comm *c);

VP_API int vp_bcast(vp_comm *c, void *buf, size_t count, vp_type type, int root,
		    vp_alg alg);
VP_API int vp_reduce(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		     vp_type type, vp_op op, int root, vp_alg alg);
VP_API int vp_allreduce(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
			vp_type type, vp_op op, vp_alg alg);
VP_API int vp_allgather(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
			vp_type type, vp_alg alg);
VP_API int vp_reduce_scatter(vp_comm *c, const void *sbuf, void *rbuf,
			     size_t count, vp_type type, vp_op op, vp_alg alg);
VP_API int vp_scan(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		   vp_type type, vp_op op, vp_alg alg);
VP_API int vp_scatter(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		      vp_type type, int root, vp_alg alg);
VP_API int vp_gather(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		     vp_type type, int root, vp_alg alg);
VP_API int vp_alltoall(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		       vp_type type, vp_alg alg);
/* Rank i's block goes to rank (i + q) mod p; any integer q. */
VP_API int vp_shift(vp_comm *c, const void *sbuf, void *rbuf, size_t count,
		    vp_type type, long q, vp_alg alg);

/* inout[i] = in[i] op inout[i] for i < count (MPI_Reduce_local). */
VP_API int vp_reduce_local(const void *in, void *inout, size_t count,
			   vp_type type, vp_op op);

/*
 * A receive that reduces: takes the message of count elements from src
 * (tag 0, or VP_ANY_SOURCE) and writes out[i] = message[i] op mine[i]; mine
 * may be out (then out[i] = message[i] op out[i], vp_recv followed by
 * vp_reduce_local without the copy). The message is combined where it lies,
 * read from the sender's own buffer when it is long (one pass over the data
 * instead of a copy and a pass). The message must be count elements exactly
 * (else VP_ETRUNC, nothing written); from VP_PROC_NULL nothing arrives and
 * out becomes mine. The model clock and the trace see a vp_recv.
 * vp_sendrecv_reduce is vp_sendrecv whose receive is this one; sbuf must
 * not overlap out (the partner may read sbuf while out is written).
 */
VP_API int vp_recv_reduce(vp_comm *c, int src, const void *mine, void *out,
			  size_t count, vp_type type, vp_op op);
VP_API int vp_sendrecv_reduce(vp_comm *c, int dst, const void *sbuf,
			      size_t sn, int src, const void *mine, void *out,
			      size_t count, vp_type type, vp_op op);

/*
 * Reproducible sums. vp_reproducible_sum: the sum of every term of every
 * rank (n VP_FLOAT or VP_DOUBLE values at x here; n may differ between
 * ranks and be 0), on every rank at *sum (of type), bit for bit the same
 * whatever p, however the terms are split among the ranks and ordered,
 * whichever algorithm (of vp_allreduce) and topology: the result depends
 * only on the multiset of terms. It is the exact sum correctly rounded
 * whenever no term is 2^161 (float: 2^190) times smaller than the largest,
 * else within n_total 2^(E-214) of it before rounding (E: the largest
 * term's exponent). NaN and infinities follow IEEE. At most 2^40 terms in
 * all. Two all-reduces: a 4-byte exponent, then one 32-byte accumulator.
 * vp_reproducible: 1 when c's run sums reproducibly (vp_opts.reproducible).
 */
VP_API int vp_reproducible_sum(vp_comm *c, const void *x, size_t n,
			       vp_type type, void *sum, vp_alg alg);
VP_API int vp_reproducible(const vp_comm *c);

/*
 * The algorithm VP_ALG_AUTO picks for op with per-rank (or per-block) size
 * bytes on c, and why ("hypercube topology: the book's algorithm ...").
 * why may be NULL; the text lives until the next call on this rank.
 */
VP_API vp_alg vp_coll_choose(vp_comm *c, vp_coll op, size_t bytes,
			     const char **why);

/* The algorithms op has (fills up to max of them; returns how many). */
VP_API int vp_coll_algorithms(vp_coll op, vp_alg *algs, int max);
/* 1 if alg can run op on c; else 0 and *why (may be NULL) says why. */
VP_API int vp_coll_usable(vp_comm *c, vp_coll op, vp_alg alg, const char **why);

/*
 * Tuning of the k-ary and pipelined broadcasts and reductions on this rank
 * (every rank must set the same values): kary >= 2; segment in bytes, 0 for
 * the optimum sqrt(m ts / (tw log2 p)). Either argument 0 keeps the default.
 */
VP_API int vp_set_coll_params(vp_comm *c, int kary, size_t segment);
VP_API void vp_coll_params(const vp_comm *c, int *kary, size_t *segment);

/* ---- 6. One-sided ----
 * Windows of memory that other ranks put into, get from and accumulate
 * into, between fences or under locks (passive target), and atomics.
 */

/*
 * One-sided communication with fences (MPI's active target, BSP
 * supersteps). vp_win_create (collective) exposes bytes at base on every
 * rank of c. Between two vp_win_fence calls (collective: the first opens
 * the first epoch) a rank may vp_put into, vp_get from and vp_accumulate
 * into any rank's window; offsets are bytes from the target's base. Each
 * operation takes effect when it is called (ranks share memory) and is
 * charged as one message of its bytes on the route to the target; the fence
 * completes the epoch as a barrier does (a superstep). Accumulates are
 * element-wise atomic with respect to other accumulates; conflicting puts
 * or a put and a get of the same bytes in one epoch are erroneous, as in
 * MPI. vp_win_free is collective.
 */
typedef struct vp_win vp_win;
VP_API int vp_win_create(vp_comm *c, void *base, size_t bytes, vp_win **win);
VP_API int vp_put(vp_win *win, int target, size_t offset, const void *buf,
		  size_t n);
VP_API int vp_get(vp_win *win, int target, size_t offset, void *buf,
		  size_t n);
VP_API int vp_accumulate(vp_win *win, int target, size_t offset,
			 const void *buf, size_t count, vp_type type,
			 vp_op op);
VP_API int vp_win_fence(vp_win *win);
VP_API int vp_win_free(vp_win *win);

/*
 * Passive target and atomics (MPI 4.0, sec. 12.5.3 and 12.3.4-12.3.5).
 * vp_win_lock opens an access epoch to one target without the target
 * taking part: VP_LOCK_EXCLUSIVE excludes every other rank's lock on that
 * target, VP_LOCK_SHARED locks coexist; VP_LOCK_NOCHECK may be or'd in
 * (MPI_MODE_NOCHECK: the program promises no conflicting lock, none is
 * taken). vp_win_lock_all is a shared lock on every target (flags 0 or
 * VP_LOCK_NOCHECK). Operations to a locked target belong to that epoch;
 * vp_win_flush(target) completes them at origin and target,
 * vp_win_flush_local at the origin only, vp_win_unlock completes them and
 * ends the epoch. vp_win_sync orders the caller's own loads and stores on
 * its window with the one-sided operations (a memory barrier).
 * A lock wait is a blocking wait like a receive: another rank runs, a
 * fiber yields, and a lock that can never be granted fails the run with
 * VP_EDEADLOCK naming its holder. Epoch errors (an operation outside every
 * epoch, an unlock without a lock, a second lock of one target, a fence or
 * vp_win_free with a lock held) return VP_ESYNC. Windows carried as
 * messages (the mpi transport, VP_WIN=messages) have fences only: these
 * calls fail there with VP_EINVAL naming the call.
 * Atomics: vp_get_accumulate writes the target's count elements before
 * the operation into result and applies op (VP_NO_OP: only the read,
 * VP_REPLACE: a swap); vp_fetch_and_op is its one-element form;
 * vp_compare_and_swap writes the target's element into result and
 * replaces it with origin if it equals compare (integer types and
 * VP_BYTE). Each is atomic per element with respect to every other
 * accumulate and atomic to the same bytes, in every epoch.
 */
enum {
	VP_LOCK_SHARED = 1,
	VP_LOCK_EXCLUSIVE = 2,
	VP_LOCK_NOCHECK = 4,
};
VP_API int vp_win_lock(vp_win *win, int lock_type, int target);
VP_API int vp_win_unlock(vp_win *win, int target);
VP_API int vp_win_lock_all(vp_win *win, int flags);
VP_API int vp_win_unlock_all(vp_win *win);
VP_API int vp_win_flush(vp_win *win, int target);
VP_API int vp_win_flush_all(vp_win *win);
VP_API int vp_win_flush_local(vp_win *win, int target);
VP_API int vp_win_flush_local_all(vp_win *win);
VP_API int vp_win_sync(vp_win *win);
/* The epochs the caller has open on win, as a set of the bits below (0:
 * none), or VP_EINVAL when win is not a live window of the caller; it
 * checks, reports and fails nothing else, so that a layer above vp can
 * refuse a call out of its epoch with an error of its own before vp
 * would fail the run (MPI's error handlers). The bits that name a target
 * are for target (none for VP_PROC_NULL or a rank outside the window). */
enum {
	VP_EPOCH_FENCE = 1,      /* a vp_win_fence opened one */
	VP_EPOCH_FENCE_OPS = 2,  /* operations of it await their fence */
	VP_EPOCH_LOCK = 4,       /* a lock on target (vp_win_lock or _all) */
	VP_EPOCH_LOCK_ALL = 8,   /* vp_win_lock_all */
	VP_EPOCH_LOCKED = 16,    /* a lock on some target */
	VP_EPOCH_START = 32,     /* vp_win_start's access epoch */
	VP_EPOCH_POST = 64,      /* vp_win_post's exposure epoch */
};
VP_API int vp_win_epochs(vp_win *win, int target);
VP_API int vp_get_accumulate(vp_win *win, int target, size_t offset,
			     const void *origin, void *result, size_t count,
			     vp_type type, vp_op op);
VP_API int vp_fetch_and_op(vp_win *win, int target, size_t offset,
			   const void *origin, void *result, vp_type type,
			   vp_op op);
VP_API int vp_compare_and_swap(vp_win *win, int target, size_t offset,
			       const void *origin, const void *compare,
			       void *result, vp_type type);
/* For a layer above vp with element types and ops of its own (the MPI
 * layer: MPI_SHORT, MPI_LAND, MPI_MAXLOC ...): copies the target's n
 * bytes at offset into result (unless result is NULL), then calls
 * fn(bytes, n, arg) on them in place, as one atomic of the same kind as
 * the above (fn must not call vp). Charged as vp_get_accumulate of n
 * bytes (with result NULL, as vp_accumulate's round trip: nothing comes
 * back). */
VP_API int vp_win_update(vp_win *win, int target, size_t offset, size_t n,
			 void *result, void (*fn)(void *bytes, size_t n,
						  void *arg),
			 void *arg);

/*
 * Generalized active target and window kinds (MPI 4.0, sec. 12.5.2 and
 * 12.2). Groups are ranks of the window's communicator.
 * vp_win_post(win, ranks, n) exposes the caller's window to the origins
 * ranks[0 .. n) until vp_win_wait (or a vp_win_test that sets *done)
 * returns, which is when every one of them called vp_win_complete.
 * vp_win_start(win, ranks, n) opens an access epoch to those targets: it
 * blocks until each has posted, and between it and vp_win_complete the
 * caller may vp_put, vp_get and vp_accumulate into them (and only them).
 * Waits that can never end (a start whose target never posts, a wait for
 * an origin that never completes) are reported as a deadlock. Calls out
 * of their epoch's order (a complete without a start, a wait without a
 * post, a second start or post, a fence inside an epoch, an operation to
 * a target outside the start group) return VP_ESYNC.
 * vp_win_allocate (collective) allocates bytes for the caller's window
 * and returns them in *base; where ranks share memory the ranks' memories
 * are one block, rank i's right after rank i - 1's, and
 * vp_win_shared_query gives any rank's address and size for direct loads
 * and stores. vp_win_create_dynamic (collective) makes a window with no
 * memory: each rank attaches (vp_win_attach) and detaches (vp_win_detach)
 * memory of its own at any time, and an operation's offset is then the
 * target's address ((size_t)(uintptr_t)pointer) inside one attached region.
 */
VP_API int vp_win_post(vp_win *win, const int *ranks, int n);
VP_API int vp_win_start(vp_win *win, const int *ranks, int n);
VP_API int vp_win_complete(vp_win *win);
VP_API int vp_win_wait(vp_win *win);
VP_API int vp_win_test(vp_win *win, int *done);
VP_API int vp_win_allocate(vp_comm *c, size_t bytes, void **base,
			   vp_win **win);
VP_API int vp_win_shared_query(vp_win *win, int rank, void **base,
			       size_t *bytes);
VP_API int vp_win_create_dynamic(vp_comm *c, vp_win **win);
VP_API int vp_win_attach(vp_win *win, void *base, size_t bytes);
VP_API int vp_win_detach(vp_win *win, const void *base);

/* ---- 7. Models and the clock ----
 * Every rank has a model clock T that each message moves by the run's
 * cost model (alpha-beta by default): the model time is deterministic,
 * whatever the machine. The clock, local work, BSP supersteps, the cost
 * models, and the book's cost formulas of the collectives.
 */

VP_API double vp_time(const vp_comm *c); /* this rank's model time */

/*
 * Charges t >= 0 units of local work to this rank's model clock: T moves
 * by t, except under bsp, where it is the superstep's w (time moves at the
 * superstep's end). The applications charge their flops with it.
 */
VP_API int vp_compute(vp_comm *c, double t);

/*
 * bsp only: ends the superstep on c (collective: every rank of c calls
 * it). Every rank's T becomes the largest of T + w + h*g over c's ranks,
 * plus l, where h is the most bytes the rank sent or received in the
 * superstep (one-sided operations included). vp_barrier and vp_win_fence
 * do this under bsp; the BSP collectives call it between their phases.
 * Under another model it only counts a superstep (vp_stats.supersteps;
 * vp_barrier calls it): it neither waits nor charges time.
 */
VP_API int vp_superstep(vp_comm *c);

/* The model parameters of the run (the options, defaults filled). */
VP_API void vp_model_params(const vp_comm *c, double *ts, double *tw,
			    double *th);
/*
 * Cost models (docs/models.md, "Cost models"). The model clock charges every
 * message by one of them; vp_model_parse reads a spec as vp_opts.model
 * does (parameters left out are 0), vp_model_of gives the run's.
 */
typedef enum vp_model_kind {
	VP_MODEL_ALPHA_BETA,     /* ts + th*l + tw*m (cut-through routing) */
	VP_MODEL_ALPHA_BETA_SAF, /* ts + (tw*m + th)*l (store-and-forward) */
	VP_MODEL_LOGP,           /* L + 2o per message, gap g */
	VP_MODEL_LOGGP,          /* L + 2o + (m-1)G per message, gap g */
	VP_MODEL_BSP,            /* supersteps: w + h*g + l */
} vp_model_kind;

typedef struct vp_model {
	vp_model_kind kind;
	double ts, tw, th; /* alpha-beta */
	double L, o, g, G; /* LogP, LogGP; g is also BSP's per-byte gap */
	double l;          /* BSP: the cost of one barrier synchronization */
	int ports;         /* sends and receives in flight per rank; 0: all */
} vp_model;

/* VP_OK, or VP_EINVAL with err saying what is wrong and the forms. */
VP_API int vp_model_parse(const char *spec, vp_model *m, char *err,
			  size_t errlen);
VP_API void vp_model_of(const vp_comm *c, vp_model *m);
/* The run's model's kind alone (what vp_model_of fills in m->kind), for a
 * caller that asks on every call; VP_MODEL_ALPHA_BETA for a NULL c. */
VP_API vp_model_kind vp_model_kind_of(const vp_comm *c);
/* "alpha-beta", "alpha-beta:saf", "logp", "loggp", "bsp". */
VP_API const char *vp_model_name(vp_model_kind kind);

/*
 * The book's cost of op with alg for p ranks on topology (a spec as in
 * vp_opts; mesh algorithms use its grid, or sqrt(p) x sqrt(p)) with m bytes
 * per rank or block, q the shift distance (vp_shift) or the root (bcast,
 * reduce, scatter, gather: the neighbour algorithms' cost depends on where
 * the root sits on a line or a mesh; the others' does not), th = 0, the
 * default k = 4 and the optimal segment. *exact (may be NULL) is 1 where the
 * model clock reproduces it to the unit, 0 where it is the book's bound or
 * estimate. Returns -1 where alg cannot run there.
 */
VP_API double vp_coll_formula(vp_coll op, vp_alg alg, const char *topology,
			      int p, size_t m, long q, double ts, double tw,
			      int *exact);

/*
 * The same under any cost model: the algorithm's BSP cost (bsp), its LogP
 * or LogGP cost where the material gives one, alpha-beta's formula under
 * alpha-beta:saf where every message is one hop (topology full:P, and the
 * neighbour algorithms on any topology). -1
 * where alg cannot run there or has no formula in that model (more than
 * one port included).
 */
VP_API double vp_coll_formula_model(vp_coll op, vp_alg alg,
				    const char *topology, int p, size_t m,
				    long q, const vp_model *model, int *exact);

/* ---- 8. Statistics and tracing ----
 * What vp_run reports of a run (vp_stats), which algorithm each
 * collective used, and the names the trace and the SVG give messages.
 */

/* What a run did, filled by vp_run() (also when it fails). */
struct vp_stats {
	double wall_seconds;
	double model_time;           /* max final model time over ranks */
	uint64_t messages;           /* point-to-point messages delivered */
	uint64_t bytes;              /* payload bytes delivered */
	uint64_t max_link_load;      /* most overlapping transfers on a link */
	double model_time_congested; /* model time with tw scaled by the load */
	int p;
	int error_rank;   /* rank of the first error, -1 if none */
	int error_code;   /* the first error (same as vp_run's result) */
	char error[1024]; /* its message; for deadlocks the report's start and
			   * its cycle line (the whole of it: report) */
	size_t mailboxes; /* mailboxes created (one per ordered talking pair) */
	size_t peak_bytes; /* runtime memory at the end: mailboxes+pools */
	size_t stack_size; /* stack reserved per rank thread */
	/* Which algorithm each collective used and, for VP_ALG_AUTO, why: one
	 * line per distinct choice, "bcast hypercube x3 (auto: ...)". */
	char collectives[2048];
	/* What the figures above could not include, VP_STATS_* bits; 0 when
	 * they are complete. */
	unsigned incomplete;
	/* The first error's whole message, however long (a deadlock report
	 * of thousands of ranks); error above keeps its start and always its
	 * last line (the cycle). Valid until this thread's next vp_run. */
	const char *report;
	/* Messages sent and never received (every rank returned first), and
	 * the first pairs: "rank 5 -> rank 4: 1 message (collective)". */
	uint64_t unreceived;
	char unreceived_pairs[512];
	/* Messages the sender copied straight into a receive buffer that
	 * was already waiting (one copy instead of two; counted by the
	 * threads transport). */
	uint64_t direct_messages;
	/* 1 in the process that ran rank 0: with the threads transport,
	 * always; under mpirun (transport "mpi"), the one process that
	 * printed the report and wrote the trace, where a program should
	 * print what it reports (every process gets the same figures). */
	int leader;
	/* Supersteps: barriers and fences, each counted once (the most any
	 * rank made); under the bsp model also the one the run's end closes
	 * when work or messages were left after the last barrier. */
	uint64_t supersteps;
	/* Collective calls (barriers included) made without their messages:
	 * where the ranks share memory and outnumber the CPUs, the ranks
	 * meet once and the model is charged with the messages the
	 * algorithm sends, so every figure above is the messages' own.
	 * Counted once a call; 0 under the mpi transport. */
	uint64_t shared_calls;
};

/* vp_stats.incomplete: */
#define VP_STATS_LOG_DROPPED 1u  /* a model record found no memory */
#define VP_STATS_LOAD_UNKNOWN 2u /* no memory for the link-load sweep */
/* congested time not replayed (a failed run, or no memory): it is
 * model_time */
#define VP_STATS_REPLAY_FAILED 4u
#define VP_STATS_TRACE_DROPPED 8u /* a trace record found no memory */
/* too many ranks for guard pages (vm.max_map_count, before Linux 6.13):
 * stack overflows were not watched */
#define VP_STATS_NO_GUARD 16u

/* "allreduce rabenseifner (auto: ...)": this rank's last collective. */
VP_API const char *vp_coll_last(const vp_comm *c);
/* The same as data: 1 with this rank's last collective's operation,
 * algorithm and (for AUTO) reason ("" otherwise; valid until the rank's
 * next collective), 0 when it has run none. Any pointer may be NULL. */
VP_API int vp_coll_last_info(const vp_comm *c, vp_coll *op, vp_alg *alg,
			     const char **why);

/*
 * Names the messages this rank sends from now on in the trace and the SVG
 * ("phase 1", ...) and restarts its step count; label must live until vp_run
 * returns (a string literal). The collectives call it with their own name.
 * Steps: a send's step is one more than the sender's last step, and a
 * receive raises the receiver's step to the message's (a Lamport clock), so
 * the book's figures come out numbered as printed.
 */
VP_API void vp_trace_label(vp_comm *c, const char *label);

/* ---- 9. Errors ----
 * Every call returns VP_OK (0) or one of these negative codes.
 */

/* Error codes: 0 or negative. */
enum {
	VP_OK = 0,
	VP_EINVAL = -1,       /* bad argument (NULL buffer, bad spec, ...) */
	VP_ERANK = -2,        /* rank outside [0, p) */
	VP_ENOLINK = -3,      /* strict mode: destination is not a neighbour */
	VP_ETRUNC = -4,       /* message larger than the receive buffer */
	VP_EDEADLOCK = -5,    /* every live rank blocked, nothing can arrive */
	VP_EABORT = -6,       /* another rank failed; the run is aborting */
	VP_EALG = -7,         /* algorithm unknown or unusable for this p */
	VP_ENOMEM = -8,       /* out of memory or threads */
	VP_EMISMATCH = -9,    /* ranks made different collective calls */
	VP_EUNRECEIVED = -10, /* messages sent were never received */
	VP_EWATCHDOG = -11,   /* no rank made progress for opts.watchdog s */
	VP_ETYPE = -12,       /* a message's type is not its receive's */
	VP_ESYNC = -13,       /* one-sided call outside its epoch (MPI's
			       * MPI_ERR_RMA_SYNC) */
};

VP_API const char *vp_strerror(int code);

/* This rank's last error message. */
VP_API const char *vp_errmsg(const vp_comm *c);

/*
 * Errors raised by code above the runtime (the collectives, user libraries):
 * both write "rank R: call: <message>" into this rank's vp_errmsg and return
 * code. vp_abort also aborts the run, as a failed call does; vp_error does
 * not (used for VP_EALG, which every rank decides alike, so the caller may
 * try another algorithm). If the rank function then returns that code, the
 * run reports this message.
 */
VP_API int vp_abort(vp_comm *c, int code, const char *call, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5), cold));
VP_API int vp_error(vp_comm *c, int code, const char *call, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5), cold));

/*
 * The hooks for libraries built on vp (vp's MPI layer): collective
 * signatures, typed messages, calls made in another interface's name, the
 * communicators such a library uses. Included here so that vp.h declares
 * all of vp's API; a library includes <vp/vp_layer.h> itself.
 */
#include "vp/vp_layer.h"

#ifdef __cplusplus
}
#endif
#endif /* VP_H */
