/*
 * coll.h - what the collective algorithms share: the arguments of a call,
 * views (a subset of a communicator's ranks seen as ranks 0..n-1), chunk
 * layouts, and the building blocks several algorithms reuse (ring and
 * recursive-doubling phases, binomial trees on a view).
 *
 * The collectives send and receive through vp's public API alone (vp.h,
 * and vp/vp_layer.h's hooks for collectives built on vp: vp_coll_begin,
 * vp_coll_note, ...). Of the runtime they see one header, the seam
 * runtime/coll_seam.h: the reduction kernel, the memos that dispatch.c and
 * select.c keep, the calls made without their messages (coll_shared.c);
 * never the transport, the clock or a rank's state (tests/test_layers.sh
 * checks the includes). Each algorithm is one file,
 * collectives/<op>_<algorithm>.c, with one entry point listed in the
 * dispatch table (dispatch.c). An entry point gets arguments already
 * checked by the public call: count > 0, buffers valid for their roles,
 * root in range, and the algorithm applicable to p.
 *
 * Names: coll a collective; in struct coll op is the collective (vp_coll)
 * and rop its reduction's operator (vp_op); esize an element's bytes; q a
 * shift's distance; sbuf and rbuf the send and receive buffers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_COLL_H
#define VP_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "vp.h"
#include "vp/vp_layer.h"
#include "../runtime/coll_seam.h"

/*
 * A view: n of c's ranks seen as members 0..n-1. Member j is c's rank
 * members[j] if members is set, else base + ((j + rot) % n) * stride. Rows
 * of a mesh are (base = row * C, stride 1), columns (base = col, stride C),
 * a broadcast from root is (rot = root): the root is member 0.
 */
struct view {
	vp_comm *c;
	int n, me; /* members, and my member index (-1: not a member) */
	int base, stride, rot;
	int xor_rot; /* 1: member j is rank j ^ rot (vp__view_tree) */
	const int *members;
};

/* A collective call, as the algorithms see it. */
struct coll {
	vp_comm *c; /* the collective twin of the user's communicator */
	vp_coll op;
	const void *sbuf; /* the input; == rbuf when in place */
	void *rbuf;
	size_t count; /* elements per rank or per block */
	size_t esize; /* bytes per element */
	size_t bytes; /* count * esize */
	vp_type type;
	vp_op rop;
	int root;
	long q;        /* shift distance, normalized to [0, p) */
	int p, r;      /* size of c and this rank */
	struct view v; /* the ranks as the descriptor's view asks (dispatch) */
	char *scratch; /* the descriptor's scratch bytes (dispatch) */
};

typedef int (*coll_fn)(const struct coll *a);

/* What an algorithm needs of the communicator; dispatch refuses it with
 * VP_EALG and the reason otherwise. */
enum coll_need {
	NEED_ANY,  /* any p */
	NEED_POW2, /* p a power of two */
	NEED_GRID, /* a 2-D grid (vp__grid) */
	NEED_LAYOUT, /* the world of a ring, line, mesh, torus or full
		      * topology (vp__layout: a chain or a grid) */
	NEED_LAYOUT_OR_CUBE, /* ... or of a hypercube */
};

/*
 * How the neighbour-only algorithms see the world's topology: a chain of
 * ranks in rank order (line; ring and fully connected with the ends
 * joined), a grid of rows and columns (mesh; torus with wraparound), or a
 * hypercube. The tree has no layout: no two leaves share a link.
 */
enum layout_kind { LAYOUT_NONE, LAYOUT_CHAIN, LAYOUT_GRID, LAYOUT_CUBE };
struct layout {
	enum layout_kind kind;
	int wrap;       /* chain: the ends are neighbours; grid: torus */
	int rows, cols; /* grid */
};
/* c's layout; LAYOUT_NONE with *why set where there is none. */
void vp__layout(vp_comm *c, struct layout *l, const char **why);
/* The layout of p ranks of a topology spec (for the formulas). */
void vp__layout_of_spec(const char *topology, int p, struct layout *l);
/* This rank's row and column of a grid layout, as chains: member j of the
 * row is column j, member i of the column is row i. */
struct coll;
struct view;
void vp__grid_views(const struct coll *a, const struct layout *l,
		    struct view *row, struct view *col);

/* The arguments of a cost formula (vp_coll_formula), derived once. */
struct coll_cost {
	int p;
	double P;       /* p as a double */
	size_t m_bytes; /* bytes per rank or block */
	double m;       /* m_bytes as a double */
	long q;         /* shift distance in [0, p) */
	double ts, tw;
	double u;       /* ts + tw*m: one message */
	double L;       /* ceil(log2 p) */
	int pow2;       /* p is a power of two */
	int pof2;       /* the largest power of two <= p */
	int rows, cols; /* the grid of the mesh algorithms */
	int divides;    /* p divides m_bytes */
	int kary;       /* the k-ary trees' degree (the default) */
	double g, l;    /* bsp: per byte, per superstep */
	double Lat, o, gap, G; /* logp, loggp: L, o, g, G */
	int root;              /* rooted operations: the root (formula's q) */
	struct layout lay;     /* the topology's layout (neighbour algorithms) */
};

/* Where dispatch puts the input before the algorithm runs, so that the
 * algorithms that start from it in the receive buffer need not. */
enum coll_input {
	INPUT_AS_GIVEN,  /* sbuf and rbuf as the caller passed them */
	INPUT_IN_RBUF,   /* rbuf holds a copy of sbuf (allreduce, scan) */
	INPUT_OWN_BLOCK, /* block r of rbuf holds sbuf (allgather) */
};

/* The view of the ranks dispatch makes for an algorithm (a->v). */
enum coll_view {
	VIEW_NONE,   /* the algorithm makes its own */
	VIEW_ALL,    /* every rank in rank order */
	VIEW_ROOTED, /* every rank, rotated so that the root is member 0 */
	VIEW_TREE,   /* vp__view_tree: the root is member 0, by XOR if p is a
		      * power of two */
};

/*
 * An algorithm, as its file describes it: which operation, its entry point,
 * what it needs, and the book's cost (the formula of the file's head, in
 * the alpha-beta model with th = 0). cost sets *exact to 1 where the model
 * clock reproduces it to the unit, 0 where it is a bound or an estimate.
 * Adding an algorithm is its file, ending with its descriptor, and one line
 * in algorithms.c.
 */
struct coll_algorithm {
	vp_coll op;
	vp_alg alg;
	coll_fn run;
	enum coll_need needs;
	enum coll_input input;
	enum coll_view view;
	/* bytes of scratch it needs (dispatch allocates a->scratch); NULL:
	 * none, or it allocates its own */
	size_t (*scratch)(const struct coll *a);
	double (*cost)(const struct coll_cost *k, int *exact);
	/* Its cost under the bsp model; NULL: it is not a BSP algorithm (a
	 * message of one of its rounds depends on one received in the same
	 * round, so it needs a superstep per round it does not end). A BSP
	 * algorithm calls vp_superstep between its phases; dispatch ends its
	 * last. */
	double (*bsp_cost)(const struct coll_cost *k, int *exact);
	/* Its cost under logp and loggp where the material gives one. */
	double (*logp_cost)(const struct coll_cost *k, int *exact);
};

/* algorithms.c: every algorithm, in the order vp_coll_algorithms lists
 * them; NULL-terminated. */
extern const struct coll_algorithm *const vp__algorithms[];
/* The descriptor of (op, alg), or NULL. */
const struct coll_algorithm *vp__algorithm(vp_coll op, vp_alg alg);

/* Entry points that other algorithms build on (allgather_linear,
 * reduce_scatter_linear). */
int vp__bcast_linear(const struct coll *a);
int vp__gather_linear(const struct coll *a);
int vp__reduce_linear(const struct coll *a);
int vp__scatter_linear(const struct coll *a);

/* Costs shared by duals (a reduction is its broadcast run backwards). */
double vp__cost_allgather_hypercube(const struct coll_cost *k, int *exact);
double vp__cost_allgather_linear(const struct coll_cost *k, int *exact);
double vp__cost_allgather_mesh(const struct coll_cost *k, int *exact);
double vp__cost_allgather_ring(const struct coll_cost *k, int *exact);
double vp__cost_bcast_binomial(const struct coll_cost *k, int *exact);
double vp__cost_bcast_double_tree(const struct coll_cost *k, int *exact);
double vp__cost_bcast_kary(const struct coll_cost *k, int *exact);
double vp__cost_bcast_linear(const struct coll_cost *k, int *exact);
double vp__cost_bcast_mesh(const struct coll_cost *k, int *exact);
double vp__cost_bcast_pipelined_tree(const struct coll_cost *k, int *exact);
double vp__cost_bcast_scatter_allgather(const struct coll_cost *k, int *exact);
double vp__cost_scatter_binomial(const struct coll_cost *k, int *exact);

/* Helpers of the cost formulas (coll_util.c). */
int vp__ceil_log(long p, long k); /* steps of a k-ary tree over p */
int vp__is_power_of(long p, long k);
double vp__shift_steps(long q, long n); /* min(q, n - q) */

void vp__view_all(struct view *v, vp_comm *c, int rot);
/*
 * Every rank, relabelled so that root is member 0, for the binomial trees:
 * by XOR when p is a power of two, so that every tree edge joins ranks one
 * bit apart (a hypercube link: the trees then run neighbour-only on a
 * hypercube in strict mode, whatever the root, as the book's hypercube
 * algorithms do), else by rotation. Same tree shape and cost either way.
 */
void vp__view_tree(struct view *v, vp_comm *c, int root);
void vp__view_strided(struct view *v, vp_comm *c, int base, int stride, int n,
		      int rot);
int vp__view_rank(const struct view *v, int j);
/* The p blocks of a root's buffer between rank order and member order (the
 * scratch of the binomial scatter and gather): block j of members is the
 * block of rank vp__view_rank(v, j). */
void vp__blocks_by_member(const struct view *v, char *members,
			  const char *ranks, size_t bytes);
void vp__blocks_by_rank(const struct view *v, char *ranks, const char *members,
			size_t bytes);

/* Point to point on views (member indices). */
int vp__vsend(const struct view *v, int j, const void *buf, size_t n);
int vp__vrecv(const struct view *v, int j, void *buf, size_t n);
int vp__vsendrecv(const struct view *v, int dst, const void *sbuf, size_t sn,
		  int src, void *rbuf, size_t rn);

/*
 * A vector of total elements cut into n chunks as evenly as possible: chunk
 * k has total / n elements, one more for k < total % n (MPICH's split).
 */
struct chunks {
	size_t total, esize;
	int n;
};

/* Inline: the algorithms ask for offsets and lengths of the same chunks
 * several times a step, and inlined, the compiler can share one division
 * among them (out of line, the 64-bit divisions were 3% of an 8-byte
 * all-gather). */
static inline size_t vp__chunk_off(const struct chunks *ch, int k) /* bytes */
{
	size_t q = ch->total / (size_t)ch->n, rem = ch->total % (size_t)ch->n;
	size_t kk = (size_t)k;

	return (kk * q + (kk < rem ? kk : rem)) * ch->esize;
}

static inline size_t vp__chunk_len(const struct chunks *ch, int k) /* bytes */
{
	size_t q = ch->total / (size_t)ch->n, rem = ch->total % (size_t)ch->n;

	return (q + ((size_t)k < rem)) * ch->esize;
}

/* Bytes of chunks [k, k + len). */
static inline size_t vp__chunk_span(const struct chunks *ch, int k, int len)
{
	return vp__chunk_off(ch, k + len) - vp__chunk_off(ch, k);
}

/* ---- building blocks (each in the file of the algorithm it is) ---- */

/* allgather_ring.c: member j's chunk travels around the ring, n-1 steps.
 * own, where not NULL, holds this member's chunk as the caller gave it:
 * the first step sends from there (see allgather_hypercube.c). */
int vp__allgather_ring_view(const struct view *v, void *buf,
			    const struct chunks *ch, const void *own);
/* allgather_hypercube.c: recursive doubling; n a power of two; own as
 * for the ring. */
int vp__allgather_doubling_view(const struct view *v, void *buf,
				const struct chunks *ch, const void *own);
/* reduce_scatter_ring.c: member j ends with chunk j reduced (each
 * partner's chunk added where it lies: no scratch). */
int vp__reduce_scatter_ring_view(const struct view *v, void *buf,
				 const struct chunks *ch, vp_type t, vp_op op);
/* reduce_scatter_hypercube.c: recursive halving; n a power of two; no
 * scratch, as above. */
int vp__reduce_scatter_halving_view(const struct view *v, void *buf,
				    const struct chunks *ch, vp_type t,
				    vp_op op);
/* bcast_binomial.c: member 0 sends buf to every member. */
int vp__bcast_binomial_view(const struct view *v, void *buf, size_t n);
/* reduce_binomial.c: member 0 ends with the reduction over the view of
 * each member's mine in its acc (mine may be acc); a member that adds
 * others' vectors leaves its partial result in acc, a leaf only sends
 * mine (its acc may be NULL). */
int vp__reduce_binomial_view(const struct view *v, const void *mine,
			     void *acc, size_t count, vp_type t, vp_op op);
/* scatter_binomial.c: member 0 holds every chunk of ch in buf; member j
 * ends with chunk j at buf. buf holds the chunks of j's binomial subtree,
 * chunk k at off(k) - off(j). */
int vp__scatter_binomial_view(const struct view *v, void *buf,
			      const struct chunks *ch);
/* gather_binomial.c: the dual; member j's chunk starts at buf. */
int vp__gather_binomial_view(const struct view *v, void *buf,
			     const struct chunks *ch);
/* alltoall_ring.c: sbuf and rbuf hold n blocks of bs in member order;
 * tmp holds 2 (n - 1) blocks. */
int vp__alltoall_ring_view(const struct view *v, const void *sbuf, void *rbuf,
			   size_t bs, void *tmp);
/* shift_ring.c: shifts by q (0 <= q < n) in the shorter direction; buf
 * holds the block, tmp one more block. */
int vp__shift_ring_view(const struct view *v, void *buf, size_t bs, long q,
			void *tmp);

/* bcast_tree.c: the halving levels of the leaf-interval tree, top down;
 * returns their number (<= 32). */
struct tree_level {
	int holder, other; /* holder sends to other at this level */
};
int vp__tree_levels(int n, int root, int me, struct tree_level *lv);

/* bcast_pipelined_tree.c: the segment size of the pipelined trees. */
size_t vp__segment_bytes(const struct coll *a);
/* bcast_double_tree.c: in tree 0 or 1 of the double tree over relative
 * ranks, rel's parent and children (-1: none; the root has one child). */
void vp__double_tree_links(int p, int tree, int rel, int *parent, int kid[2]);

/* bcast_double_tree.c: a rank's part in the double tree: parent and
 * children per tree (children that forward first), and which tree it
 * serves first in each pair of segments (the one it forwards in). */
struct dtree_plan {
	int parent[2], kid[2][2], first;
	int in_step; /* same parent in both trees: follow its order */
};
void vp__double_tree_plan(int p, int rel, struct dtree_plan *pl);

/* allgather_direct.c: member j's chunk of buf goes straight to every
 * member (isends and irecvs, then one wait). */
int vp__allgather_direct_view(const struct view *v, void *buf,
			      const struct chunks *ch);
/* allreduce_direct.c: member j ends with chunk j of the reduction of buf
 * over the members, at its place in buf: step s sends chunk j + s to
 * member j + s and adds chunk j from j - s; tmp holds the largest chunk. */
int vp__reduce_scatter_direct_view(const struct view *v, void *buf,
				   const struct chunks *ch, void *tmp,
				   vp_type t, vp_op op);
/* BSP costs shared by several algorithms (allgather_direct.c): one
 * superstep in which the busiest rank sends or receives (p-1) m bytes. */
double vp__bsp_cost_one_step(const struct coll_cost *k, int *exact);
/* ... and two supersteps of (p-1) m/p bytes (scatter or reduce-scatter,
 * then gather or allgather, of p chunks). */
double vp__bsp_cost_two_steps(const struct coll_cost *k, int *exact);
/* Their alpha-beta estimate, 2(p - 1)(ts + tw*m/p): the two rounds
 * overlap where ranks finish the first at different times. */
double vp__cost_direct_two_steps(const struct coll_cost *k, int *exact);
/* 1 under the bsp model (the algorithms then end their phases with
 * vp_superstep). */
int vp__bsp(vp_comm *c);

/* ---- helpers (coll_util.c) ---- */
/* Members in the binomial subtree of member me of n (me's own included). */
int vp__binomial_subtree(int me, int n);
/* memcpy unless dst == src (in-place calls). */
void vp__copy(void *dst, const void *src, size_t n);
/* The working buffer of a reduction: rbuf where this rank has one (root),
 * else scratch, filled with this rank's input; NULL after aborting. */
void *vp__reduce_acc(const struct coll *a, int has_rbuf);
void vp__reduce_acc_free(const struct coll *a, void *acc);
/* Both buffers of a reduction: *acc as vp__reduce_acc (rbuf at the root)
 * and *tmp, tmp_bytes of scratch for what arrives. VP_OK, or VP_ENOMEM
 * holding nothing. Freed by vp__reduce_bufs_free. */
int vp__reduce_bufs(const struct coll *a, size_t tmp_bytes, char **acc,
		    char **tmp);
void vp__reduce_bufs_free(const struct coll *a, char *acc, char *tmp);
int vp__is_pow2(long x);
int vp__log2_ceil(long x);
int vp__popcount(unsigned long x);
/* The 2-D grid the mesh algorithms use on c: the physical mesh or torus if c
 * is the whole world in rank order, else sqrt(p) x sqrt(p) if p is a
 * square. Returns 0 with *rows, *cols set, or -1 with *why set. */
int vp__grid(vp_comm *c, int *rows, int *cols, const char **why);
/* 1 if c is the whole world in rank order (topology algorithms apply). */
int vp__is_world(vp_comm *c);
/* The fix-up for p not a power of two of the recursive-doubling
 * all-reduces (coll_util.c): fold_in before, fold_out after, rbuf the
 * vector; between them the members (me >= 0) run on pof2 ranks. */
struct fold {
	int pof2, rem; /* p = pof2 + rem */
	int r;         /* my rank in c */
	int me;        /* my member index among the pof2, -1 sitting out */
};
void vp__fold_plan(int p, int r, struct fold *f);
int vp__fold_rank(const struct fold *f, int j); /* c's rank of member j */
int vp__fold_in(const struct coll *a, const struct fold *f, void *tmp);
int vp__fold_out(const struct coll *a, const struct fold *f);
/* malloc that aborts the run with VP_ENOMEM (named call) on failure. */
void *vp__alloc(const struct coll *a, size_t n);

/* ---- chains: neighbour-only building blocks (chain_*.c) ----
 * A chain view has members 0..n-1 where j and j + 1 are neighbours, and
 * n - 1 and 0 too when wrap is set (a ring). Every message goes one hop,
 * the whole message at a time (store-and-forward); u = ts + tw*m. */

/* The root's two sides: side 0 is served first (the longer; on a ring
 * the one towards member root + 1), dir +1 or -1, len members. */
struct chain_sides {
	int dir[2], len[2];
};
void vp__chain_sides(int n, int wrap, int root, struct chain_sides *s);
/* The member dist hops from root in direction dir. */
int vp__chain_member(int n, int root, int dir, int dist);
/* Where me is: *side 0 or 1 at *dist >= 1, or *side -1 (the root). */
void vp__chain_where(const struct chain_sides *s, int n, int root, int me,
		     int *side, int *dist);

/* chain_bcast.c: broadcast from member root, and its dual, the reduction
 * to member root (acc holds this member's input and ends with the result
 * at the root; tmp holds count elements). */
int vp__chain_bcast_view(const struct view *v, int wrap, int root, void *buf,
			 size_t bytes);
int vp__chain_reduce_view(const struct view *v, int wrap, int root, void *acc,
			  void *tmp, size_t count, vp_type t, vp_op op);
/* Their time in units of u: b == 0 ? a : max(a, b + 1). */
double vp__chain_bcast_steps(int n, int wrap, int root);

/* chain_scatter.c: member root holds n items of isz bytes in member order
 * (items); every member ends with its own at out. scratch holds n - 1
 * items. The gather is the dual (in: my item; items: the root's). */
int vp__chain_scatter_view(const struct view *v, int wrap, int root,
			   const void *items, void *out, size_t isz,
			   void *scratch);
int vp__chain_gather_view(const struct view *v, int wrap, int root,
			  const void *in, void *items, size_t isz,
			  void *scratch);
/* Their time, twm = tw * isz: with S(x) = x ts + twm x(x+1)/2,
 * b == 0 ? S(a) : max(S(a), ts + twm a + S(b)). */
double vp__chain_scatter_time(int n, int wrap, int root, double ts,
			      double twm);

/* chain_allgather.c: allgather of the chunks of ch (a ring: the ring
 * algorithm; a line: both directions, two messages a step), and
 * its dual, reduce-scatter (member j ends with chunk j reduced, at its
 * place in buf; tmp holds 2 largest chunks and, on a line, a copy of
 * buf). Time (equal chunks of c bytes): ring (n - 1)(ts + tw c), line
 * (n - 1 + ceil(n/2))(ts + tw c). */
int vp__chain_allgather_view(const struct view *v, int wrap, void *buf,
			     const struct chunks *ch);
int vp__chain_reduce_scatter_view(const struct view *v, int wrap, void *buf,
				  const struct chunks *ch, void *tmp,
				  vp_type t, vp_op op);
size_t vp__chain_reduce_scatter_scratch(int wrap, const struct chunks *ch);
double vp__chain_allgather_time(int n, int wrap, double ts, double twc);

/* chain_allreduce.c: every member ends with the reduction of buf (count
 * elements; count 0 is a barrier). A ring passes the inputs round
 * (n - 1 steps of u, the all-to-all broadcast pattern); a line reduces to
 * its middle and broadcasts back. tmp holds 2 count elements. */
int vp__chain_allreduce_view(const struct view *v, int wrap, void *buf,
			     void *tmp, size_t count, vp_type t, vp_op op);
double vp__chain_allreduce_steps(int n, int wrap);
/* Inclusive prefix along the chain, member j from j - 1: n - 1 steps. */
int vp__chain_scan_view(const struct view *v, void *acc, void *tmp,
			size_t count, vp_type t, vp_op op);

/* chain_alltoall.c: sbuf and rbuf hold n blocks of bs in member order.
 * A ring: vp__alltoall_ring_view (tmp 2 (n - 1) blocks); a line: a sweep
 * to the right then one to the left, each message the blocks that go on
 * (tmp 2 n blocks). */
int vp__chain_alltoall_view(const struct view *v, int wrap, const void *sbuf,
			    void *rbuf, size_t bs, void *tmp);
double vp__chain_alltoall_time(int n, int wrap, double ts, double twb);

/* chain_shift.c: member j's block (buf, bs bytes) goes to member
 * (j + q) mod n, 0 <= q < n; tmp holds 3 blocks. A ring: the shorter way,
 * min(q, n - q) steps; a line: q steps right, then n - q steps left for
 * the blocks that wrap: n steps. */
int vp__chain_shift_view(const struct view *v, int wrap, void *buf, size_t bs,
			 long q, void *tmp);
double vp__chain_shift_steps(int n, int wrap, long q);

/* The grid phases the mesh algorithms share with the neighbour ones: rows
 * and columns are chains, rings when wrap (the book's mesh algorithms
 * use rings, routed where the mesh has no wraparound). */
int vp__allgather_grid(const struct coll *a, int rows, int cols, int wrap);
int vp__reduce_scatter_grid(const struct coll *a, int rows, int cols,
			    int wrap);
int vp__alltoall_grid(const struct coll *a, int rows, int cols, int wrap);
int vp__shift_grid(const struct coll *a, int rows, int cols, int wrap);
double vp__shift_grid_steps(long q, int rows, int cols, int wrap);
/* The neighbour algorithms' costs that their duals share. */
double vp__cost_bcast_neighbour(const struct coll_cost *k, int *exact);
double vp__neighbour_bcast_steps(const struct coll_cost *k);
double vp__cost_allgather_neighbour(const struct coll_cost *k, int *exact);
double vp__cost_scatter_neighbour(const struct coll_cost *k, int *exact);
double vp__neighbour_allreduce_steps(const struct layout *l, int p);
/* barrier_neighbour.c: vp_barrier in strict mode where dissemination's
 * partners are not neighbours. */
int vp__barrier_neighbour(vp_comm *c, const struct layout *l);

/* ---- reproducible sums (fixed_sum.c, reproducible.c) ----
 * A call's sums are exact on a grid of 64-bit limbs (two's complement,
 * limb 0 the lowest) that a MAX reduction of each rank's needs sizes. The
 * collectives carry an element of `limbs` limbs as the internal type
 * VP__TYPE_FIXED(limbs) (runtime/reduce_kernel.h, through the seam:
 * vp_type_size 8 limbs; vp_reduce_local adds it with VP_SUM); the public
 * calls refuse it. */
#define VP__GRID_NEED 4
struct vp__grid {
	int is_float, mant; /* 24 or 53 mantissa bits */
	int unit;           /* the grid's unit is 2^unit */
	int count_limbs;    /* 3 (NaN, +inf, -inf counts) or 0 */
	int value_limbs;
	int limbs; /* per element: count_limbs + value_limbs */
};
/* What this rank's n terms at x need of the grid, to be reduced with
 * VP_MAX over the ranks (VP__GRID_NEED int32s); terms_per_sum: how many
 * of them one sum has here (1 for the collectives' element-wise sums). */
void vp__grid_need(int32_t need[VP__GRID_NEED], const void *x, size_t n,
		   int is_float, size_t terms_per_sum);
/* The grid of the reduced needs for p ranks; -1 if it needs more than
 * VP__FIXED_MAX_LIMBS limbs (it never does for up to 2^40 terms). */
int vp__grid_plan(struct vp__grid *g, const int32_t need[VP__GRID_NEED],
		  int is_float, int p);
/* Adds the n terms at x (of the grid's type) exactly: all into the one
 * accumulator acc, or (each) term i into acc + i limbs. Accumulators
 * (g->limbs limbs each) start zeroed. */
void vp__grid_add_terms(const struct vp__grid *g, uint64_t *acc, int each,
			const void *x, size_t n);
/* The sum in acc correctly rounded to the grid's type, into element i of
 * out. */
void vp__grid_round(const struct vp__grid *g, const uint64_t *acc, void *out,
		    size_t i);
/* A reduction with VP_SUM of VP_FLOAT or VP_DOUBLE when the run is
 * reproducible (vp_opts.reproducible): arguments already checked. */
int vp__reproducible_reduction(vp_comm *c, vp_coll op, const void *sbuf,
			       void *rbuf, size_t count, vp_type type, int root,
			       vp_alg alg);
/* dispatch.c: a collective call as the public ones make it; inner calls
 * (the reproducible route's) may use VP__TYPE_FIXED and never take the
 * reproducible route themselves. */
int vp__coll_run(vp_comm *c, vp_coll op, const void *sbuf, void *rbuf,
		 size_t count, vp_type type, vp_op rop, int root, long q,
		 vp_alg alg, int inner);

/* Whether op combines the ranks' data (takes a vp_op). */
static inline int vp__coll_is_reduction(vp_coll op)
{
	return op == VP_COLL_REDUCE || op == VP_COLL_ALLREDUCE ||
	       op == VP_COLL_REDUCE_SCATTER || op == VP_COLL_SCAN;
}

/* coll_shared.c: 1 when a's call ran without its messages (every rank's
 * result written, the model charged), 0 when they must be sent, or a
 * VP_E* code. */
int vp__coll_shared_try(const struct coll *a, vp_alg alg);

/* select.c: "auto: " and the reason of the calling thread's last
 * vp_coll_choose (valid until its next call). */
const char *vp__coll_auto_why(void);
/* Changes whenever the text vp__coll_auto_why points to is rewritten. */
unsigned vp__coll_auto_why_gen(void);

#endif /* VP_COLL_H */
