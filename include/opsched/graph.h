/* opsched/graph.h - the dependency graph of one block, pure C.
 *
 * One node per op, identified by its index in the block's original order
 * (0..n-1). Edges u->v mean "v must not start before u finishes"
 * (a *data dependency* in the seed's vocabulary, or an effect ordering).
 * The graph is built by appending nodes and edges, then frozen by
 * opsched_graph_finalize(), which dedups edges, builds adjacency lists and
 * checks that the graph is a DAG. All queries require a finalized graph.
 *
 * Ownership: opsched_graph_create() returns a graph the caller owns and
 * frees with opsched_graph_destroy(). Pointers returned by queries borrow
 * from the graph and stay valid until it is destroyed.
 */
#ifndef OPSCHED_GRAPH_H
#define OPSCHED_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes shared by every core module. */
typedef enum opsched_status {
  OPSCHED_OK = 0,
  OPSCHED_ERR_NOMEM,     /* allocation failed */
  OPSCHED_ERR_INVALID,   /* bad argument (out-of-range node, negative cost, ...) */
  OPSCHED_ERR_CYCLE,     /* the graph is not a DAG */
  OPSCHED_ERR_STATE,     /* call not allowed in the graph's current state */
  OPSCHED_ERR_INFEASIBLE /* constraints cannot be met (e.g. demand > capacity) */
} opsched_status;

/* A short English description of a status, never NULL. */
const char *opsched_status_str(opsched_status status);

typedef struct opsched_graph opsched_graph;

/* Creates an empty graph; `node_hint` presizes storage (may be 0).
 * Returns NULL only when out of memory. */
opsched_graph *opsched_graph_create(size_t node_hint);

/* Frees the graph and everything it owns; NULL is allowed. */
void opsched_graph_destroy(opsched_graph *graph);

/* Appends a node with duration `cost` (ns, >= 0) and resource demand
 * `demand` (>= 1). Returns its id (== number of nodes before the call) or -1
 * on bad arguments / out of memory / finalized graph. */
int32_t opsched_graph_add_node(opsched_graph *graph, int64_t cost,
                               int32_t demand);

/* Adds the dependency from -> to. Self edges and duplicates are allowed and
 * dropped at finalize. */
opsched_status opsched_graph_add_edge(opsched_graph *graph, int32_t from,
                                      int32_t to);

/* Presizes storage for `count` more opsched_graph_add_edge() calls, so
 * that a caller who knows its edge count avoids regrowing (optional).
 * OPSCHED_ERR_NOMEM leaves the graph as it was; OPSCHED_ERR_STATE on a
 * finalized graph. */
opsched_status opsched_graph_reserve_edges(opsched_graph *graph, int64_t count);

/* Freezes the graph: sorts and dedups edges, builds successor and
 * predecessor lists (each sorted by id), and checks acyclicity. On
 * OPSCHED_ERR_CYCLE the graph stays unfinalized and unusable for queries. */
opsched_status opsched_graph_finalize(opsched_graph *graph);

int opsched_graph_is_finalized(const opsched_graph *graph);
int32_t opsched_graph_num_nodes(const opsched_graph *graph);
/* Number of distinct edges (after finalize). */
int64_t opsched_graph_num_edges(const opsched_graph *graph);

int64_t opsched_graph_cost(const opsched_graph *graph, int32_t node);
int32_t opsched_graph_demand(const opsched_graph *graph, int32_t node);
/* Changes a node's cost; allowed in any state (ranks must be recomputed). */
void opsched_graph_set_cost(opsched_graph *graph, int32_t node, int64_t cost);

/* Successors / predecessors of `node`, sorted ascending; *count receives the
 * length. Borrowed pointers. */
const int32_t *opsched_graph_succs(const opsched_graph *graph, int32_t node,
                                   int32_t *count);
const int32_t *opsched_graph_preds(const opsched_graph *graph, int32_t node,
                                   int32_t *count);

/* Upward rank (the seed's critical-path priority):
 * rank(v) = cost(v) + max over successors s of rank(s) (0 if none).
 * Fills `rank` (length num_nodes). */
void opsched_graph_upward_ranks(const opsched_graph *graph, int64_t *rank);

/* Longest path from any entry to the start of v (sum of predecessors' costs
 * along the heaviest chain). rank(v) + downward(v) == critical path length
 * exactly when v lies on a critical path. Fills `down` (length num_nodes). */
void opsched_graph_downward_ranks(const opsched_graph *graph, int64_t *down);

/* A topological order of the finalized graph (Kahn, smallest id first),
 * written to `order` (length num_nodes). */
void opsched_graph_topo_order(const opsched_graph *graph, int32_t *order);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_GRAPH_H */
