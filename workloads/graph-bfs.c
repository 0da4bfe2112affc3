// SPDX-License-Identifier: MIT
/*
 * graph-bfs.c - breadth-first search over a Barabasi-Albert graph.
 *
 * Origin: SeBS 503.graph-bfs, which builds igraph's Graph.Barabasi(size, 10)
 * and times graph.bfs(0). init generates the graph from the seed with the
 * NetworkX barabasi_albert_graph() process (a star of m + 1 nodes, then
 * each new node links to m distinct nodes drawn with probability
 * proportional to degree, via the repeated-nodes list) and stores it as
 * CSR adjacency. invoke is a level-synchronous BFS from node 0: each level's
 * frontier is expanded in parallel through the pool, a node is claimed by
 * a compare-and-swap of its level, so levels do not depend on the threads.
 * The digest is the level of every node (-1 = unreached).
 * Sizes (nodes n, m = 10 edges per new node as in SeBS): test 1000,
 * small 100000, large 1000000.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define BA_EDGES_PER_NODE 10
#define BFS_GRAIN 64
#define BFS_LOCAL_BUF 512

struct bfs_state {
	uint32_t n, m;
	size_t edges;
	size_t *offset;           /* CSR: neighbours of u are adj[offset[u] .. offset[u+1]) */
	uint32_t *adj;
	atomic_int *level;
	uint32_t *frontier, *next;
	atomic_size_t next_len;
	int depth;
};

struct bfs_expand {
	struct bfs_state *st;
	size_t frontier_len;
	int next_level;
};

/* Draws m distinct targets from the repeated-nodes list into @targets. */
static void pick_targets(struct rng *r, const uint32_t *repeated, size_t rlen,
			 uint32_t m, uint32_t source, uint32_t *mark,
			 uint32_t *targets)
{
	uint32_t k = 0;

	while (k < m) {
		uint32_t t = repeated[rng_below(r, rlen)];

		if (mark[t] == source)
			continue;
		mark[t] = source;
		targets[k++] = t;
	}
}

/* NetworkX's barabasi_albert_graph(n, m): edge list in @src / @dst. */
static int ba_generate(struct bfs_state *st, uint64_t seed, uint32_t *src,
		       uint32_t *dst)
{
	uint32_t n = st->n, m = st->m, s, k, targets[BA_EDGES_PER_NODE];
	uint32_t *repeated = malloc(2 * st->edges * sizeof(*repeated));
	uint32_t *mark = malloc(n * sizeof(*mark));
	size_t e = 0, rlen = 0;
	struct rng r;

	if (!repeated || !mark) {
		free(repeated);
		free(mark);
		return -ENOMEM;
	}
	memset(mark, 0xff, n * sizeof(*mark));
	rng_seed_stream(&r, seed, 0xbf5);
	for (k = 1; k <= m; k++) {              /* star_graph(m): 0 - 1..m */
		src[e] = 0;
		dst[e++] = k;
		repeated[rlen++] = 0;
		repeated[rlen++] = k;
	}
	for (s = m + 1; s < n; s++) {
		pick_targets(&r, repeated, rlen, m, s, mark, targets);
		for (k = 0; k < m; k++) {
			src[e] = s;
			dst[e++] = targets[k];
			repeated[rlen++] = targets[k];
			repeated[rlen++] = s;
		}
	}
	free(repeated);
	free(mark);
	return 0;
}

static int csr_build(struct bfs_state *st, const uint32_t *src,
		     const uint32_t *dst)
{
	size_t e, *fill;
	uint32_t u;

	st->offset = calloc((size_t)st->n + 1, sizeof(*st->offset));
	st->adj = malloc(2 * st->edges * sizeof(*st->adj));
	fill = malloc((size_t)st->n * sizeof(*fill));
	if (!st->offset || !st->adj || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (e = 0; e < st->edges; e++) {
		st->offset[src[e] + 1]++;
		st->offset[dst[e] + 1]++;
	}
	for (u = 0; u < st->n; u++) {
		st->offset[u + 1] += st->offset[u];
		fill[u] = st->offset[u];
	}
	for (e = 0; e < st->edges; e++) {
		st->adj[fill[src[e]]++] = dst[e];
		st->adj[fill[dst[e]]++] = src[e];
	}
	free(fill);
	return 0;
}

static int graph_build(struct wl_instance *inst, struct bfs_state *st)
{
	uint32_t *src, *dst;
	int err;

	st->n = (uint32_t)wl_pick(inst, 1000, 100000, 1000000);
	st->m = BA_EDGES_PER_NODE;
	st->edges = st->m + (size_t)(st->n - st->m - 1) * st->m;
	src = malloc(st->edges * sizeof(*src));
	dst = malloc(st->edges * sizeof(*dst));
	err = src && dst ? ba_generate(st, inst->params.seed, src, dst) : -ENOMEM;
	if (!err)
		err = csr_build(st, src, dst);
	free(src);
	free(dst);
	st->level = malloc((size_t)st->n * sizeof(*st->level));
	st->frontier = malloc((size_t)st->n * sizeof(*st->frontier));
	st->next = malloc((size_t)st->n * sizeof(*st->next));
	if (err || !st->level || !st->frontier || !st->next)
		return wl_error(inst, -ENOMEM, "graph-bfs: out of memory for %u nodes", st->n);
	return 0;
}

static void flush_local(struct bfs_state *st, const uint32_t *buf, size_t len)
{
	size_t at = atomic_fetch_add(&st->next_len, len);

	memcpy(st->next + at, buf, len * sizeof(*buf));
}

/* Expands frontier[begin, end): claims unvisited neighbours for the next level. */
static void expand_chunk(void *arg, size_t begin, size_t end, int worker)
{
	struct bfs_expand *x = arg;
	struct bfs_state *st = x->st;
	uint32_t local[BFS_LOCAL_BUF];
	size_t i, j, fill = 0;

	(void)worker;
	for (i = begin; i < end; i++) {
		uint32_t u = st->frontier[i];

		for (j = st->offset[u]; j < st->offset[u + 1]; j++) {
			uint32_t v = st->adj[j];
			int unseen = -1;

			if (atomic_load_explicit(&st->level[v], memory_order_relaxed) != -1 ||
			    !atomic_compare_exchange_strong(&st->level[v], &unseen,
							    x->next_level))
				continue;
			local[fill++] = v;
			if (fill == BFS_LOCAL_BUF) {
				flush_local(st, local, fill);
				fill = 0;
			}
		}
	}
	if (fill)
		flush_local(st, local, fill);
}

static size_t bfs_run(struct wl_instance *inst, struct bfs_state *st)
{
	struct bfs_expand x = { .st = st };
	size_t reached = 1;
	uint32_t u, *swap;

	for (u = 0; u < st->n; u++)
		atomic_init(&st->level[u], -1);
	atomic_store(&st->level[0], 0);
	st->frontier[0] = 0;
	x.frontier_len = 1;
	st->depth = 0;
	while (x.frontier_len) {
		x.next_level = st->depth + 1;
		atomic_store(&st->next_len, 0);
		pool_for_dynamic(inst->pool, x.frontier_len, BFS_GRAIN, expand_chunk, &x);
		x.frontier_len = atomic_load(&st->next_len);
		reached += x.frontier_len;
		if (x.frontier_len)
			st->depth++;
		swap = st->frontier;
		st->frontier = st->next;
		st->next = swap;
	}
	return reached;
}

/* Levels as 32-bit little-endian integers, in node order. */
static void output_levels(struct bfs_state *st, struct wl_output *out)
{
	uint8_t buf[4096];
	size_t fill = 0;
	uint32_t u;

	for (u = 0; u < st->n; u++) {
		uint32_t v = (uint32_t)atomic_load(&st->level[u]);

		buf[fill++] = (uint8_t)v;
		buf[fill++] = (uint8_t)(v >> 8);
		buf[fill++] = (uint8_t)(v >> 16);
		buf[fill++] = (uint8_t)(v >> 24);
		if (fill == sizeof(buf)) {
			wl_out_bytes(out, buf, fill);
			fill = 0;
		}
	}
	wl_out_bytes(out, buf, fill);
}

/*
 * --output: "n N m M", then "e U V" per edge (U < V), then "l NODE LEVEL"
 * per node. cvmfn calls it after the end time (wl_out_file_with()).
 */
static int write_output(struct wl_instance *inst, const char *path, void *arg)
{
	struct bfs_state *st = arg;
	size_t cap = 32 + st->edges * 24 + (size_t)st->n * 20, len = 0, j;
	char *buf = malloc(cap);
	uint32_t u;
	int err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "graph-bfs: out of memory for the output");
	len += (size_t)sprintf(buf, "n %u m %u\n", st->n, st->m);
	for (u = 0; u < st->n; u++)
		for (j = st->offset[u]; j < st->offset[u + 1]; j++)
			if (u < st->adj[j])
				len += (size_t)sprintf(buf + len, "e %u %u\n", u, st->adj[j]);
	for (u = 0; u < st->n; u++)
		len += (size_t)sprintf(buf + len, "l %u %d\n", u,
				       atomic_load(&st->level[u]));
	err = wl_write_file_atomic(inst, path, buf, len);
	free(buf);
	return err;
}

static int bfs_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct bfs_state *st = inst->priv;
	size_t reached = bfs_run(inst, st);

	output_levels(st, out);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%u nodes, %zu edges: reached %zu, depth %d", st->n, st->edges,
		 reached, st->depth);
	if (inst->params.output)
		wl_out_file_with(out, inst->params.output, write_output, st);
	return 0;
}

static void bfs_teardown(struct wl_instance *inst)
{
	struct bfs_state *st = inst->priv;

	free(st->offset);
	free(st->adj);
	free(st->level);
	free(st->frontier);
	free(st->next);
}

static int bfs_init(struct wl_instance *inst)
{
	struct bfs_state *st;
	int err;

	if (inst->params.input)
		return wl_error(inst, -EINVAL, "graph-bfs: takes no --input (%s)",
				inst->params.input);
	st = inst->priv;
	err = graph_build(inst, st);
	return err;
}

/*
 * For the Python twin: "edges", every edge once as two 32-bit little-endian
 * node numbers U < V, in CSR order (the node count is the size's).
 */
static int bfs_export(struct wl_instance *inst)
{
	struct bfs_state *st = inst->priv;
	uint32_t *pairs = malloc(2 * st->edges * sizeof(*pairs)), u;
	size_t k = 0, j;
	int err;

	if (!pairs)
		return wl_error(inst, -ENOMEM, "graph-bfs: out of memory for the edges");
	for (u = 0; u < st->n; u++)
		for (j = st->offset[u]; j < st->offset[u + 1]; j++)
			if (u < st->adj[j]) {
				pairs[k++] = u;
				pairs[k++] = st->adj[j];
			}
	err = wl_export_write(inst, "edges", pairs, k * sizeof(*pairs));
	free(pairs);
	return err;
}

const struct workload_ops wl_graph_bfs = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_graph_bfs,
	.uses_threads = 1,
	.state_size = sizeof(struct bfs_state),
	.init = bfs_init,
	.invoke = bfs_invoke,
	.teardown = bfs_teardown,
	.export_inputs = bfs_export,
};
