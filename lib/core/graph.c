#include "opsched/graph.h"
#include "graph.h"

#include "alloc.h"
#include "heap.h"
#include "saturate.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

struct opsched_graph {
  int32_t num_nodes, node_cap;
  int64_t *cost;
  int32_t *demand;
  /* Edge list while building: pairs (from, to). */
  int32_t *edge_from, *edge_to;
  int64_t num_raw_edges, edge_cap;
  int backward; /* a raw edge goes from a larger id to a smaller one */
  /* After finalize: CSR adjacency and a cached topological order. */
  int finalized;
  int64_t num_edges;
  int64_t *succ_off, *pred_off; /* length num_nodes + 1 */
  int32_t *succ, *pred;
  int32_t *topo;
};

const char *opsched_status_str(opsched_status status) {
  switch (status) {
  case OPSCHED_OK:
    return "ok";
  case OPSCHED_ERR_NOMEM:
    return "out of memory";
  case OPSCHED_ERR_INVALID:
    return "invalid argument";
  case OPSCHED_ERR_CYCLE:
    return "dependency graph has a cycle";
  case OPSCHED_ERR_STATE:
    return "operation not allowed in the graph's current state";
  case OPSCHED_ERR_INFEASIBLE:
    return "constraints cannot be met";
  }
  return "unknown status";
}

opsched_graph *opsched_graph_create(size_t node_hint) {
  opsched_graph *g = opsched_alloc_array(1, sizeof *g);
  if (!g)
    return NULL;
  if (node_hint > INT32_MAX)
    node_hint = INT32_MAX;
  g->node_cap = node_hint ? (int32_t)node_hint : 16;
  g->cost = opsched_alloc_array((size_t)g->node_cap, sizeof *g->cost);
  g->demand = opsched_alloc_array((size_t)g->node_cap, sizeof *g->demand);
  if (!g->cost || !g->demand) {
    opsched_graph_destroy(g);
    return NULL;
  }
  return g;
}

static void free_adjacency(opsched_graph *g) {
  opsched_free(g->succ_off);
  opsched_free(g->pred_off);
  opsched_free(g->succ);
  opsched_free(g->pred);
  opsched_free(g->topo);
  g->succ_off = g->pred_off = NULL;
  g->succ = g->pred = g->topo = NULL;
}

void opsched_graph_destroy(opsched_graph *g) {
  if (!g)
    return;
  free_adjacency(g);
  opsched_free(g->cost);
  opsched_free(g->demand);
  opsched_free(g->edge_from);
  opsched_free(g->edge_to);
  opsched_free(g);
}

int32_t opsched_graph_add_node(opsched_graph *g, int64_t cost, int32_t demand) {
  if (!g || g->finalized || cost < 0 || demand < 1 || g->num_nodes == INT32_MAX)
    return -1;
  if (g->num_nodes == g->node_cap) {
    int32_t cap = g->node_cap > INT32_MAX / 2 ? INT32_MAX : g->node_cap * 2;
    int64_t *c = opsched_realloc_array(g->cost, (size_t)cap, sizeof *c);
    if (!c)
      return -1;
    g->cost = c;
    int32_t *d = opsched_realloc_array(g->demand, (size_t)cap, sizeof *d);
    if (!d)
      return -1;
    g->demand = d;
    g->node_cap = cap;
  }
  g->cost[g->num_nodes] = cost;
  g->demand[g->num_nodes] = demand;
  return g->num_nodes++;
}

/* Grows the raw edge arrays to `cap` entries (> edge_cap). */
static opsched_status grow_edges(opsched_graph *g, int64_t cap) {
  int32_t *f = opsched_realloc_array(g->edge_from, (size_t)cap, sizeof *f);
  if (!f)
    return OPSCHED_ERR_NOMEM;
  g->edge_from = f;
  int32_t *t = opsched_realloc_array(g->edge_to, (size_t)cap, sizeof *t);
  if (!t)
    return OPSCHED_ERR_NOMEM; /* edge_from is larger: harmless */
  g->edge_to = t;
  g->edge_cap = cap;
  return OPSCHED_OK;
}

opsched_status opsched_graph_reserve_edges(opsched_graph *g, int64_t count) {
  if (!g || count < 0)
    return OPSCHED_ERR_INVALID;
  if (g->finalized)
    return OPSCHED_ERR_STATE;
  if (count > INT64_MAX / 2 - g->num_raw_edges)
    return OPSCHED_ERR_NOMEM;
  int64_t need = g->num_raw_edges + count;
  return need <= g->edge_cap ? OPSCHED_OK : grow_edges(g, need);
}

opsched_status opsched_graph_add_edge(opsched_graph *g, int32_t from, int32_t to) {
  if (!g)
    return OPSCHED_ERR_INVALID;
  if (g->finalized)
    return OPSCHED_ERR_STATE;
  if (from < 0 || to < 0 || from >= g->num_nodes || to >= g->num_nodes)
    return OPSCHED_ERR_INVALID;
  if (from == to)
    return OPSCHED_OK;
  if (g->num_raw_edges == g->edge_cap &&
      grow_edges(g, g->edge_cap ? g->edge_cap * 2 : 64) != OPSCHED_OK)
    return OPSCHED_ERR_NOMEM;
  g->edge_from[g->num_raw_edges] = from;
  g->edge_to[g->num_raw_edges] = to;
  g->num_raw_edges++;
  g->backward |= from > to;
  return OPSCHED_OK;
}

/* The predecessor CSR from the raw edges: grouped by `to` in one counting
 * pass that reads the edge arrays in order (no gather through an index
 * array), each group sorted and deduplicated in place. pred_off (zeroed,
 * n + 1 entries) gets the offsets; returns the list, `*unique` entries,
 * or NULL when out of memory. */
static int32_t *build_preds(opsched_graph *g, int64_t *cursor, int64_t *unique) {
  int32_t n = g->num_nodes;
  int64_t m = g->num_raw_edges;
  int32_t *pred = opsched_alloc_array_raw((size_t)m, sizeof *pred);
  if (!pred)
    return NULL;
  int64_t *off = g->pred_off;
  for (int64_t i = 0; i < m; i++)
    off[g->edge_to[i] + 1]++;
  for (int32_t v = 0; v < n; v++)
    off[v + 1] += off[v];
  memcpy(cursor, off, sizeof(int64_t) * ((size_t)n + 1));
  for (int64_t i = 0; i < m; i++)
    pred[cursor[g->edge_to[i]]++] = g->edge_from[i];
  /* Sort and deduplicate each group, compacting to the left. */
  int64_t w = 0;
  for (int32_t v = 0; v < n; v++) {
    int64_t lo = off[v], hi = off[v + 1];
    off[v] = w;
    opsched_sort_i32(pred + lo, hi - lo);
    for (int64_t k = lo; k < hi; k++)
      if (k == lo || pred[k] != pred[k - 1])
        pred[w++] = pred[k];
  }
  off[n] = w;
  *unique = w;
  return pred;
}

/* The successor CSR from the predecessor one: visiting the targets in
 * order lists each node's successors ascending. succ_off is zeroed. */
static void build_succs(opsched_graph *g, int64_t *cursor) {
  int32_t n = g->num_nodes;
  int64_t *off = g->succ_off;
  for (int64_t k = 0; k < g->num_edges; k++)
    off[g->pred[k] + 1]++;
  for (int32_t v = 0; v < n; v++)
    off[v + 1] += off[v];
  memcpy(cursor, off, sizeof(int64_t) * ((size_t)n + 1));
  for (int32_t v = 0; v < n; v++)
    for (int64_t k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
      g->succ[cursor[g->pred[k]]++] = v;
}

/* Kahn's algorithm, smallest id first: the topological order and the
 * acyclicity check in one pass. Returns the number of nodes emitted (n
 * unless there is a cycle); -1 when out of memory. With every edge forward
 * (from < to) the order is the identity: once 0..v-1 are out, v is ready
 * and the smallest, so no heap is needed (a block's edges all follow
 * program order). */
static int32_t topo_sort(opsched_graph *g) {
  int32_t n = g->num_nodes;
  if (!g->backward) {
    for (int32_t v = 0; v < n; v++)
      g->topo[v] = v;
    return n;
  }
  int32_t *indeg = opsched_alloc_array((size_t)n, sizeof *indeg);
  int32_t *heap_ids = opsched_alloc_array((size_t)n, sizeof *heap_ids);
  int64_t *zero_keys = opsched_alloc_array((size_t)n, sizeof *zero_keys);
  int32_t emitted = -1;
  if (indeg && heap_ids && zero_keys) {
    opsched_heap heap;
    opsched_heap_init(&heap, heap_ids, zero_keys);
    for (int32_t v = 0; v < n; v++) {
      indeg[v] = (int32_t)(g->pred_off[v + 1] - g->pred_off[v]);
      if (indeg[v] == 0)
        opsched_heap_push(&heap, v);
    }
    emitted = 0;
    while (heap.size > 0) {
      int32_t v = opsched_heap_pop(&heap);
      g->topo[emitted++] = v;
      for (int64_t k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
        if (--indeg[g->succ[k]] == 0)
          opsched_heap_push(&heap, g->succ[k]);
    }
  }
  opsched_free(indeg);
  opsched_free(heap_ids);
  opsched_free(zero_keys);
  return emitted;
}

opsched_status opsched_graph_finalize(opsched_graph *g) {
  if (!g)
    return OPSCHED_ERR_INVALID;
  if (g->finalized)
    return OPSCHED_OK;
  int32_t n = g->num_nodes;
  opsched_status st = OPSCHED_ERR_NOMEM;
  /* Scratch and arrays written in full before they are read: no zeroing. */
  int64_t *cursor = opsched_alloc_array_raw((size_t)n + 1, sizeof *cursor);
  g->succ_off = opsched_alloc_array((size_t)n + 1, sizeof *g->succ_off);
  g->pred_off = opsched_alloc_array((size_t)n + 1, sizeof *g->pred_off);
  g->topo = opsched_alloc_array_raw((size_t)n, sizeof *g->topo);
  if (!cursor || !g->succ_off || !g->pred_off || !g->topo)
    goto done;

  /* Deduplicated edges: each pred list and each succ list ascending (the
   * (from, to) order). */
  int64_t unique = 0;
  g->pred = build_preds(g, cursor, &unique);
  if (!g->pred)
    goto done;
  g->num_edges = unique;
  g->succ = opsched_alloc_array_raw((size_t)unique, sizeof *g->succ);
  if (!g->succ)
    goto done;
  build_succs(g, cursor);

  int32_t emitted = topo_sort(g);
  if (emitted < 0)
    goto done;
  if (emitted != n) {
    st = OPSCHED_ERR_CYCLE;
    goto done;
  }
  opsched_free(g->edge_from);
  opsched_free(g->edge_to);
  g->edge_from = g->edge_to = NULL;
  g->num_raw_edges = g->edge_cap = 0;
  g->finalized = 1;
  st = OPSCHED_OK;

done:
  if (st != OPSCHED_OK)
    free_adjacency(g);
  opsched_free(cursor);
  return st;
}

opsched_graph *opsched_graph_adopt_csr(const opsched_graph *like, int64_t *succ_off,
                                       int32_t *succ, int64_t *pred_off, int32_t *pred) {
  int32_t n = like->num_nodes;
  opsched_graph *g = opsched_graph_create((size_t)n);
  if (!g)
    return NULL;
  g->topo = opsched_alloc_array_raw((size_t)n, sizeof *g->topo);
  if (!g->topo) {
    opsched_graph_destroy(g);
    return NULL;
  }
  memcpy(g->cost, like->cost, sizeof *g->cost * (size_t)n);
  memcpy(g->demand, like->demand, sizeof *g->demand * (size_t)n);
  g->num_nodes = n;
  g->num_edges = succ_off[n];
  g->succ_off = succ_off;
  g->pred_off = pred_off;
  g->succ = succ;
  g->pred = pred;
  /* A row is ascending: its first entry is its least. */
  for (int32_t v = 0; v < n && !g->backward; v++)
    g->backward = succ_off[v] < succ_off[v + 1] && succ[succ_off[v]] < v;
  if (topo_sort(g) == n) {
    g->finalized = 1;
    return g;
  }
  g->succ_off = g->pred_off = NULL; /* still the caller's */
  g->succ = g->pred = NULL;
  opsched_graph_destroy(g);
  return NULL;
}

int opsched_graph_is_finalized(const opsched_graph *g) { return g && g->finalized; }
int32_t opsched_graph_num_nodes(const opsched_graph *g) { return g->num_nodes; }
int64_t opsched_graph_num_edges(const opsched_graph *g) { return g->num_edges; }
int64_t opsched_graph_cost(const opsched_graph *g, int32_t v) { return g->cost[v]; }
int32_t opsched_graph_demand(const opsched_graph *g, int32_t v) { return g->demand[v]; }

void opsched_graph_set_cost(opsched_graph *g, int32_t v, int64_t cost) {
  if (v >= 0 && v < g->num_nodes && cost >= 0)
    g->cost[v] = cost;
}

const int32_t *opsched_graph_succs(const opsched_graph *g, int32_t v, int32_t *count) {
  *count = (int32_t)(g->succ_off[v + 1] - g->succ_off[v]);
  return g->succ + g->succ_off[v];
}

const int32_t *opsched_graph_preds(const opsched_graph *g, int32_t v, int32_t *count) {
  *count = (int32_t)(g->pred_off[v + 1] - g->pred_off[v]);
  return g->pred + g->pred_off[v];
}

void opsched_graph_upward_ranks(const opsched_graph *g, int64_t *rank) {
  for (int32_t i = g->num_nodes - 1; i >= 0; i--) {
    int32_t v = g->topo[i];
    int64_t best = 0;
    for (int64_t k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
      if (rank[g->succ[k]] > best)
        best = rank[g->succ[k]];
    rank[v] = opsched_sat_add(g->cost[v], best);
  }
}

void opsched_graph_downward_ranks(const opsched_graph *g, int64_t *down) {
  for (int32_t i = 0; i < g->num_nodes; i++) {
    int32_t v = g->topo[i];
    int64_t best = 0;
    for (int64_t k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
      int32_t u = g->pred[k];
      int64_t t = opsched_sat_add(down[u], g->cost[u]);
      if (t > best)
        best = t;
    }
    down[v] = best;
  }
}

void opsched_graph_topo_order(const opsched_graph *g, int32_t *order) {
  memcpy(order, g->topo, sizeof(int32_t) * (size_t)g->num_nodes);
}
