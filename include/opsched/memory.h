/* opsched/memory.h - memory-constrained ordering of one block, pure C.
 *
 * The model (docs/memory.md has worked examples). A *buffer* has a size in
 * bytes, an allocating node (the op that first writes it) or -1 for a
 * *resident* buffer (function argument, constant: reported separately, never
 * part of the schedulable peak), a set of using nodes (readers and in-place
 * writers) and a flag "live until the end" (function results). In an order,
 * a buffer is live from its allocating op to its last use. While an op runs,
 * its inputs and its newly allocated outputs are all live; after it, the
 * buffers whose last use it was are freed. The *peak* of an order is the
 * largest number of bytes live while some op runs. Byte counts saturate at
 * INT64_MAX, they never wrap.
 *
 * A use implies the data dependency allocating node -> using node; the
 * scheduler adds it to the graph's edges, so a use the graph forgot cannot
 * produce an order that reads a buffer before it is written.
 *
 * Ownership: opsched_buffers_create() and opsched_memory_schedule() hand the
 * caller objects it frees with the matching destroy. Array accessors borrow.
 * Nothing here has global state: distinct objects may be used from distinct
 * threads.
 */
#ifndef OPSCHED_MEMORY_H
#define OPSCHED_MEMORY_H

#include "opsched/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Buffers --------------------------------------------------------- */

typedef struct opsched_buffers opsched_buffers;

/* Creates an empty buffer set for a block of `num_nodes` ops (>= 0).
 * Returns NULL on a negative count or out of memory. */
opsched_buffers *opsched_buffers_create(int32_t num_nodes);

/* Frees the set; NULL is allowed. */
void opsched_buffers_destroy(opsched_buffers *buffers);

/* Adds a buffer of `bytes` (>= 0) allocated by `allocating_node` (a node id,
 * or -1 for a resident buffer). `live_until_end` != 0 keeps it live after
 * the last op (a function result); it is ignored for resident buffers.
 * Returns the buffer id (0, 1, ...) or -1 on bad arguments / out of memory. */
int32_t opsched_buffers_add(opsched_buffers *buffers, int64_t bytes,
                            int32_t allocating_node, int live_until_end);

/* Makes room for `buffers` buffers and `uses` uses in all (a capacity
 * hint: adding more still works), so a large block's arrays are allocated
 * once instead of grown by doubling. OPSCHED_ERR_INVALID on a negative
 * count, OPSCHED_ERR_NOMEM when out of memory (the set is unchanged). */
opsched_status opsched_buffers_reserve(opsched_buffers *buffers, int32_t buffers_count,
                                       int64_t uses);

/* Records that `node` reads or writes in place `buffer`. Duplicates and a
 * use by the allocating node itself are allowed and ignored. */
opsched_status opsched_buffers_add_use(opsched_buffers *buffers,
                                       int32_t buffer, int32_t node);

int32_t opsched_buffers_num_nodes(const opsched_buffers *buffers);
int32_t opsched_buffers_count(const opsched_buffers *buffers);
/* Sum of the resident buffers' sizes (saturating). */
int64_t opsched_buffers_resident_bytes(const opsched_buffers *buffers);

/* Read accessors of one buffer id (0 <= buffer < count): its size in bytes,
 * its allocating node (-1 for resident), and whether it lives until the end
 * (always 0 for resident). Out-of-range ids give -1, -2 and 0. */
int64_t opsched_buffers_size(const opsched_buffers *buffers, int32_t buffer);
int32_t opsched_buffers_allocating_node(const opsched_buffers *buffers,
                                        int32_t buffer);
int opsched_buffers_live_until_end(const opsched_buffers *buffers,
                                   int32_t buffer);
/* The uses recorded by opsched_buffers_add_use, in call order, duplicates
 * and uses by the allocating node included: use `index` (0 <= index <
 * num_uses) is node *node of buffer *buffer. Returns OPSCHED_ERR_INVALID
 * for an out-of-range index. */
int64_t opsched_buffers_num_uses(const opsched_buffers *buffers);
opsched_status opsched_buffers_use(const opsched_buffers *buffers, int64_t index,
                                   int32_t *buffer, int32_t *node);

/* ---- Policies -------------------------------------------------------- */

typedef enum opsched_memory_policy {
  /* Upward rank first, issuing an op only while live bytes stay within
   * max_memory; falls back to min-memory's order when that is the only way
   * to meet the limit (the default). */
  OPSCHED_MEMORY_CRITICAL_PATH = 0,
  /* Lowest peak found: keep-best over every heuristic below, plus exact
   * when the block has at most exact_max_nodes ops. */
  OPSCHED_MEMORY_MIN_MEMORY,
  /* The original order (Kahn, smallest id first, if ids are not already a
   * topological order). */
  OPSCHED_MEMORY_PROGRAM_ORDER,
  /* Optimal peak by best-first search over scheduled sets, within budget. */
  OPSCHED_MEMORY_EXACT,
  /* Baselines re-implemented from XLA's hlo_memory_scheduler.cc. */
  OPSCHED_MEMORY_XLA_LIST,
  OPSCHED_MEMORY_XLA_DFS,
  OPSCHED_MEMORY_XLA_POSTORDER,
  /* Baselines re-implemented from TorchInductor's memory.py. */
  OPSCHED_MEMORY_INDUCTOR_LPMF,
  OPSCHED_MEMORY_INDUCTOR_BFS,
  OPSCHED_MEMORY_INDUCTOR_DFS,
  /* Ours: DFS post-order visiting operands by decreasing (subtree need -
   * residual bytes), the Sethi-Ullman order, optimal on trees. */
  OPSCHED_MEMORY_SETHI_ULLMAN,
  OPSCHED_MEMORY_POLICY_COUNT
} opsched_memory_policy;

/* The policy's command-line name ("critical-path", "min-memory",
 * "program-order", "exact", "xla-list", "xla-dfs", "xla-postorder",
 * "inductor-lpmf", "inductor-bfs", "inductor-dfs", "sethi-ullman");
 * "unknown" for an out-of-range value. Never NULL. */
const char *opsched_memory_policy_name(opsched_memory_policy policy);

/* Parses a name from the table above into *policy. Returns OPSCHED_OK or
 * OPSCHED_ERR_INVALID (then *policy is untouched). */
opsched_status opsched_memory_policy_from_name(const char *name,
                                               opsched_memory_policy *policy);

typedef struct opsched_memory_options {
  opsched_memory_policy policy;
  int64_t max_memory;      /* limit on the peak in bytes; 0 = none */
  int64_t exact_budget;    /* search states exact may store; 0 = 1,000,000 */
  int32_t exact_max_nodes; /* min-memory runs exact up to this many ops;
                              0 = 40, negative = never */
} opsched_memory_options;

/* Fills `options` with the defaults: critical-path, no limit, default budget. */
void opsched_memory_options_init(opsched_memory_options *options);

/* ---- Scheduling ------------------------------------------------------ */

typedef struct opsched_memory_result opsched_memory_result;

/* Orders a finalized graph's nodes for `buffers` (which must have as many
 * nodes as the graph) under `options`. On success *out receives a result the
 * caller owns: always a valid topological order, even when the limit is not
 * met (then limit_met is 0 and the order is the lowest peak found).
 * Returns OPSCHED_ERR_INVALID on bad arguments, OPSCHED_ERR_CYCLE when the
 * edges plus the buffers' data dependencies form a cycle, OPSCHED_ERR_NOMEM. */
opsched_status opsched_memory_schedule(const opsched_graph *graph,
                                       const opsched_buffers *buffers,
                                       const opsched_memory_options *options,
                                       opsched_memory_result **out);

/* Frees a result; NULL is allowed. */
void opsched_memory_result_destroy(opsched_memory_result *result);

int32_t opsched_memory_result_num_nodes(const opsched_memory_result *result);
/* The chosen order: node ids, a topological order. */
const int32_t *opsched_memory_result_order(const opsched_memory_result *result);
/* Per node id: live bytes while the op runs, and right after it. */
const int64_t *opsched_memory_result_live_during(const opsched_memory_result *result);
const int64_t *opsched_memory_result_live_after(const opsched_memory_result *result);
/* Per node id: sequential start time (prefix sum of costs in the order). */
const int64_t *opsched_memory_result_starts(const opsched_memory_result *result);
/* Peak of the chosen order, and of the program order. */
int64_t opsched_memory_result_peak(const opsched_memory_result *result);
int64_t opsched_memory_result_original_peak(const opsched_memory_result *result);
/* Bytes of resident buffers (not part of either peak). */
int64_t opsched_memory_result_resident_bytes(const opsched_memory_result *result);
/* 1 when max_memory is 0 or peak <= max_memory. */
int opsched_memory_result_limit_met(const opsched_memory_result *result);
/* 1 when the exact search ran to completion: the peak is optimal. */
int opsched_memory_result_exact_proven(const opsched_memory_result *result);
/* A proven lower bound on the optimal peak (== peak when proven; the
 * trivial bound max over ops of inputs + outputs when exact did not run). */
int64_t opsched_memory_result_lower_bound(const opsched_memory_result *result);
/* Search states the exact search stored (0 when it did not run). */
int64_t opsched_memory_result_exact_states(const opsched_memory_result *result);
/* The policy whose order was kept (a heuristic for min-memory). */
opsched_memory_policy opsched_memory_result_winner(const opsched_memory_result *result);
/* Peak each policy reached in this run, -1 for policies that did not run. */
int64_t opsched_memory_result_policy_peak(const opsched_memory_result *result,
                                          opsched_memory_policy policy);

/* Peak of `order` (a permutation of the graph's node ids that respects the
 * edges and the buffers' data dependencies); fills `live_after` (indexed by
 * node id, nullable). Returns -1 when the order or the arguments are invalid
 * or out of memory. */
int64_t opsched_memory_peak_of_order(const opsched_graph *graph,
                                     const opsched_buffers *buffers,
                                     const int32_t *order, int64_t *live_after);

/* Peak live bytes *in time* of a concurrent schedule given by start and
 * end times per node id (any schedule: several streams, any placement).
 * A buffer is allocated when its allocating op starts and freed when the
 * last of its allocating and using ops ends; results stay live to the end;
 * resident buffers are not counted. At one instant, frees come before
 * starts. Zero-duration ops at an instant t run after the frees of the ops
 * ending at t and before the ops starting at t, all at once: their buffers
 * count together. Fills `live_after` (by node id, nullable) with the live
 * bytes at the op's end instant after the frees there, before the starts.
 * Returns -1 on invalid arguments or times (negative, end < start, an edge
 * or a data dependency u -> v with end(u) > start(v)) or out of memory. */
int64_t opsched_memory_peak_in_time(const opsched_graph *graph,
                                    const opsched_buffers *buffers,
                                    const int64_t *starts, const int64_t *ends,
                                    int64_t *live_after);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_MEMORY_H */
