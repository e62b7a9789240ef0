/* opsched/schedule.h - list scheduling of a dependency graph, pure C.
 *
 * A *schedule* maps each op to a start time and a stream (the seed's
 * resource); it never changes what an op computes. Every schedule also has a
 * sequential order: a topological order consistent with start times, which
 * is the order ops are written back into the block.
 *
 * Ownership: opsched_schedule_run() hands the caller a schedule it frees
 * with opsched_schedule_destroy(). Array accessors borrow from it.
 */
#ifndef OPSCHED_SCHEDULE_H
#define OPSCHED_SCHEDULE_H

#include "opsched/graph.h"
#include "opsched/memory.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ready-queue priority of list scheduling. */
typedef enum opsched_priority {
  /* Highest upward rank first, ties by original position (the default). */
  OPSCHED_PRIORITY_CRITICAL_PATH = 0,
  /* Original position first: FIFO as in the seed's demo; on one stream this
   * reproduces the input order. */
  OPSCHED_PRIORITY_PROGRAM_ORDER = 1
} opsched_priority;

/* The most streams a schedule opens: opsched_schedule_run schedules a
 * larger `streams` on this many (the capacity, resource_limit 0, stays the
 * requested value). No device has more hardware queues (CUDA exposes at most
 * 32 hardware connections), and the happens-before clocks and per-(buffer,
 * stream) thresholds cost ops x streams in use; docs/streams.md. */
#define OPSCHED_STREAMS_MAX 256

/* Op placements of local search one unit of `effort` allows. */
#define OPSCHED_EFFORT_UNIT 65536

/* Op placements per op of a function that a unit of effort always allows
 * a block of it (opsched_effort_share). */
#define OPSCHED_EFFORT_PER_OP 8

typedef struct opsched_schedule_options {
  opsched_priority priority;
  int32_t streams;        /* parallel streams, >= 1 (0 means 1); at most
                           * OPSCHED_STREAMS_MAX are used */
  int32_t resource_limit; /* capacity: sum of running demands; 0 = streams */
  /* Improvement budget after list scheduling; 0 = none. Each unit allows
   * about OPSCHED_EFFORT_UNIT op placements of local search (65536 / n list
   * decodes; at least one per unit up to 65536 ops, one in all above); the
   * search stops early at a proven lower bound.
   * The result never has a longer makespan than effort 0. See
   * docs/streams.md. */
  int32_t effort;
  /* The local search's budget in op placements, when > 0: it replaces
   * effort * OPSCHED_EFFORT_UNIT (effort > 0 still decides that the search
   * runs). The pass gives each block its share of the function's effort
   * this way (opsched_effort_share); 0, the default: effort's. */
  int64_t effort_placements;
  /* Memory model of the block (borrowed for the call; must have as many
   * nodes as the graph); NULL: no memory model, exactly as before. Its data
   * dependencies (allocating node -> user) are added to the graph's edges.
   * See docs/memory.md, "Memory in time". */
  const opsched_buffers *buffers;
  /* Limit on live bytes, in bytes; 0 = none. On one stream it bounds the
   * peak of the order; on several streams the live bytes at every instant
   * of the concurrent schedule. Ignored without buffers. */
  int64_t max_memory;
  /* Ordering policy (memory.h); the default, critical-path, keeps the rank
   * list schedule when there is no limit. Ignored without buffers. */
  opsched_memory_policy memory_policy;
  /* States the exact search may store; 0 = memory.h's default. */
  int64_t exact_budget;
  /* What running on several streams costs (a device's handoff_ns and
   * region_ns, docs/Passes.md); both 0 by default. When handoff_ns > 0 and
   * streams > 1, the finished schedule is re-timed with its streams and
   * per-stream order kept: every op of non-zero cost takes region_ns
   * longer, and an op starts no earlier than handoff_ns after the end of
   * each predecessor on another stream (within the capacity). When that
   * charged makespan is not shorter than the one-stream schedule of the same
   * options (no charges), or misses a memory limit the one-stream schedule
   * meets, the one-stream schedule is returned instead. region_ns alone
   * (handoff_ns 0) is ignored here. */
  int64_t handoff_ns;
  int64_t region_ns;
} opsched_schedule_options;

/* Fills `options` with the defaults: critical path, 1 stream, capacity =
 * streams, no effort, no buffers, no memory limit, memory policy
 * critical-path, default exact budget. */
void opsched_schedule_options_init(opsched_schedule_options *options);

/* A block's share of `effort` (> 0) when its function's blocks hold
 * `function_ops` ops in all and it holds `block_ops` of them, in op
 * placements (opsched_schedule_options.effort_placements): effort *
 * OPSCHED_EFFORT_UNIT in proportion to its ops, raised to effort *
 * OPSCHED_EFFORT_PER_OP per op of the block and capped at effort *
 * OPSCHED_EFFORT_UNIT. A function of one block gets the whole effort; a
 * function's blocks together never get more than effort * max(
 * OPSCHED_EFFORT_UNIT, OPSCHED_EFFORT_PER_OP * function_ops), so the
 * search's work grows with the function, not with its number of blocks.
 * 0 when effort <= 0. */
int64_t opsched_effort_share(int32_t effort, int64_t block_ops, int64_t function_ops);

/* As opsched_effort_share for a function that is one of `functions` (> 1:
 * a module's functions, each scheduled alone) sharing effort *
 * OPSCHED_EFFORT_UNIT: its part is divided by `functions`, still raised to
 * effort * OPSCHED_EFFORT_PER_OP per op of the block and capped at effort *
 * OPSCHED_EFFORT_UNIT. So the functions of a module together never get
 * more than effort * (OPSCHED_EFFORT_UNIT + OPSCHED_EFFORT_PER_OP * their
 * ops), however many there are. `functions` <= 1: opsched_effort_share.
 * Any `functions` of at least opsched_effort_functions_cap(function_ops)
 * gives the same share as that cap. */
int64_t opsched_effort_share_among(int32_t effort, int64_t block_ops, int64_t function_ops,
                                   int64_t functions);

/* The number of functions from which opsched_effort_share_among no longer
 * depends on it (every block then gets the per-op floor): a caller
 * counting functions may stop there. */
int64_t opsched_effort_functions_cap(int64_t function_ops);

typedef struct opsched_schedule opsched_schedule;

/* Schedules a finalized graph. On success *out receives a schedule the
 * caller owns. Fails with OPSCHED_ERR_INFEASIBLE when a node's demand
 * exceeds the capacity, OPSCHED_ERR_INVALID on bad options.
 *
 * With one stream and effort 0 this is the event-driven list scheduler
 * alone. Otherwise it also runs HEFT placement with insertion into idle
 * gaps and keeps the shorter schedule (ties keep the list scheduler's), then
 * spends `effort` on local search. Guarantees: every edge u->v has
 * end(u) <= start(v); at every instant at most `streams` ops with non-zero
 * duration run and their demands sum to <= the capacity; ops on one stream
 * never overlap; waits are computed as for opsched_schedule_waits().
 * Deterministic: equal inputs give equal schedules.
 *
 * With options.buffers (docs/memory.md, "Memory in time"):
 * - one stream: critical-path policy without a limit keeps the rank list
 *   schedule; otherwise the order is opsched_memory_schedule()'s (policy,
 *   limit, budget) with sequential times; effort is ignored.
 * - several streams with a limit: an event-driven list schedule that starts
 *   an op only while the live bytes in time plus its allocation stay within
 *   the limit (priority: rank or program order for critical-path, else the
 *   position in the policy's one-stream order); when it misses the limit, the
 *   one-stream memory order issued in order under the same gate competes
 *   (lower peak in time wins). HEFT and the local search replace it only by
 *   schedules whose peak in time is within the limit.
 * - several streams without a limit: as without buffers.
 * Also fails with OPSCHED_ERR_INVALID on bad memory options or a buffer set
 * of another size, OPSCHED_ERR_CYCLE when the buffers' data dependencies
 * contradict the edges. */
opsched_status opsched_schedule_run(const opsched_graph *graph,
                                    const opsched_schedule_options *options,
                                    opsched_schedule **out);

/* Builds the schedule a placement describes (for example one read back from
 * an annotated module): per node its start, end and stream (0..streams-1).
 * Computes the sequential order, the ranks, the reduced waits and, with
 * `buffers` (nullable), the memory figures in time. Fails with
 * OPSCHED_ERR_INVALID when a dependency is not honoured in time (including a
 * buffer's data dependencies) or two ops of one stream overlap. The
 * capacity recorded is `streams`. */
opsched_status opsched_schedule_from_placement(const opsched_graph *graph,
                                               const opsched_buffers *buffers,
                                               const int64_t *starts, const int64_t *ends,
                                               const int32_t *stream_of, int32_t streams,
                                               opsched_schedule **out);

/* A schedule from given start times (end = start + cost) on `options`'
 * streams and capacity: streams named and waits reduced as the scheduler
 * does, memory figures in time with `options->buffers`. For times that
 * honour the model (the exact frontier's, opsched/exact_frontier.h);
 * OPSCHED_ERR_STATE when a dependency or the streams are not honoured. */
opsched_status opsched_schedule_from_starts(const opsched_graph *graph,
                                           const opsched_schedule_options *options,
                                           const int64_t *starts, opsched_schedule **out);

/* Frees a schedule; NULL is allowed. */
void opsched_schedule_destroy(opsched_schedule *schedule);

int32_t opsched_schedule_num_nodes(const opsched_schedule *schedule);
/* The sequential order: node ids, a topological order sorted by start time
 * (ties by end time, then topological position). Restricted to one stream
 * it is that stream's launch order, which a runtime must follow. */
const int32_t *opsched_schedule_order(const opsched_schedule *schedule);
/* Per node (indexed by node id). */
const int64_t *opsched_schedule_starts(const opsched_schedule *schedule);
const int64_t *opsched_schedule_ends(const opsched_schedule *schedule);
const int32_t *opsched_schedule_streams(const opsched_schedule *schedule);
/* Upward ranks used as priorities (indexed by node id). */
const int64_t *opsched_schedule_ranks(const opsched_schedule *schedule);
/* 1 where the node lies on a critical path (rank + downward == length). */
const uint8_t *opsched_schedule_critical(const opsched_schedule *schedule);

/* Latest end time. */
int64_t opsched_schedule_makespan(const opsched_schedule *schedule);
/* Length of the longest dependency chain by duration. */
int64_t opsched_schedule_critical_path(const opsched_schedule *schedule);
/* Sum of all node costs (the one-stream makespan). */
int64_t opsched_schedule_total_work(const opsched_schedule *schedule);
/* max(critical path, ceil(total work / streams)). */
int64_t opsched_schedule_lower_bound(const opsched_schedule *schedule);
int32_t opsched_schedule_stream_count(const opsched_schedule *schedule);
/* The capacity the schedule respects (options.resource_limit or streams). */
int32_t opsched_schedule_resource_limit(const opsched_schedule *schedule);
/* Makespan of the list/HEFT schedule before the improvement step
 * (== makespan when effort is 0). */
int64_t opsched_schedule_list_makespan(const opsched_schedule *schedule);
/* Total work / makespan: the speedup over running the ops in their original
 * order on one stream; 1.0 for an empty or all-zero-cost graph. */
double opsched_schedule_speedup(const opsched_schedule *schedule);

/* ---- Memory figures (all defined when options.buffers was NULL) ---- */

/* Peak live bytes of this schedule: of its order on one stream (as
 * opsched_memory_peak_of_order), in time on several streams (as
 * opsched_memory_peak_in_time). -1 without buffers. */
int64_t opsched_schedule_peak_memory(const opsched_schedule *schedule);
/* Peak of the program order on one stream (ids in order, or Kahn smallest
 * id first when they are not topological). -1 without buffers. */
int64_t opsched_schedule_original_peak_memory(const opsched_schedule *schedule);
/* Bytes of resident buffers, never part of a peak. -1 without buffers. */
int64_t opsched_schedule_resident_bytes(const opsched_schedule *schedule);
/* Per node id: live bytes right after the op. One stream: after it in the
 * order. Several: at its end instant, after the frees at that instant.
 * NULL without buffers. Borrowed. */
const int64_t *opsched_schedule_live_after(const opsched_schedule *schedule);
/* 1 when there is no limit (or no buffers) or the peak is within it. */
int opsched_schedule_memory_limit_met(const opsched_schedule *schedule);
/* Name of the memory policy whose one-stream order the schedule follows
 * (for min-memory the keep-best winner, e.g. "sethi-ullman" or "exact"),
 * NULL when no memory order was used (rank/program list schedule, HEFT).
 * A static string. */
const char *opsched_schedule_memory_winner(const opsched_schedule *schedule);
/* 1 when that order came from an exact search that proved its peak optimal
 * (on one stream; on several, the one-stream order's peak). */
int opsched_schedule_memory_exact_proven(const opsched_schedule *schedule);

/* Cross-stream synchronisation. Every op records an event when it ends;
 * before launching, op `node` waits on the events of the producers listed
 * here (node ids, ascending; *count receives the length). Ops of one stream
 * launch in sequential order. A dependency on another stream is listed only
 * when it is not already implied by the stream's own order plus other
 * waits, transitively: the list is the unique minimal one. Borrowed. */
const int32_t *opsched_schedule_waits(const opsched_schedule *schedule,
                                      int32_t node, int32_t *count);
/* Number of dependency edges whose ends are on different streams (the
 * waits before transitive reduction). */
int64_t opsched_schedule_num_waits_unreduced(const opsched_schedule *schedule);
/* Number of waits after reduction (sum of opsched_schedule_waits counts). */
int64_t opsched_schedule_num_waits(const opsched_schedule *schedule);

/* Adds synchronisation edges from[i] -> to[i] (node ids) that are not
 * dependencies, such as the orderings the buffer packer needs to let two
 * buffers share memory (opsched_arena_syncs). Each `from` must come before
 * its `to` in the sequential order and end no later than it starts, so no
 * time, stream or makespan changes; the waits are recomputed over the
 * dependencies, the current waits and the new syncs, and stay transitively
 * reduced (a sync already implied adds no wait); the unreduced count still
 * counts dependencies only. Returns OPSCHED_ERR_INVALID (the
 * schedule unchanged) when an edge breaks that rule, OPSCHED_ERR_NOMEM. */
opsched_status opsched_schedule_add_syncs(opsched_schedule *schedule,
                                          const opsched_graph *graph,
                                          const int32_t *from, const int32_t *to,
                                          int64_t count);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_SCHEDULE_H */
