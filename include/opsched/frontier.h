/* opsched/frontier.h - choosing a point on the makespan / peak-memory
 * frontier of a block, pure C, on top of opsched_schedule_run().
 *
 * On several streams the fastest schedule often holds far more memory than
 * one stream needs, for a makespan gain of a fraction of a percent. This
 * layer runs the scheduler a bounded number of times with different memory
 * budgets and policies and picks (docs/streams.md, "Choosing a point on the
 * frontier"):
 * - several streams, no max_memory, critical-path policy: the lowest peak
 *   among the schedules whose makespan is within `makespan_tolerance` of the
 *   best makespan found. Candidates: unconstrained, then budgets between the
 *   one-stream min-memory peak and the unconstrained peak (the floor first,
 *   then a bisection).
 * - several streams, no max_memory, another policy: the policy is honoured
 *   as a budget: the lowest peak the policy's one-stream order reaches,
 *   overlapped where memory allows (the policy's order and critical path
 *   both tried as priorities), then the fastest at that peak.
 * - max_memory set: the fastest schedule within the limit; with
 *   `pack_arena`, the arena must fit too: when it does not, tighter budgets
 *   (the limit minus the arena's excess) are tried.
 * - one stream, or no buffers, or more than `max_nodes` ops: one run, as
 *   opsched_schedule_run (the arena is still packed and checked).
 * At most `max_runs` runs beyond the first. Deterministic. No global state.
 */
#ifndef OPSCHED_FRONTIER_H
#define OPSCHED_FRONTIER_H

#include "opsched/arena.h"
#include "opsched/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsched_frontier_options {
  /* Fraction of the best makespan a memory-saving schedule may lose
   * (0.02 = 2%, the default:
   * OPSCHED_DEFAULT_MAKESPAN_TOLERANCE). */
  double makespan_tolerance;
  /* Schedule runs beyond the first (default 8). */
  int32_t max_runs;
  /* Blocks with more ops get one run, no sweep (default 5000: each run
   * costs about as much as the unconstrained one, HEFT is superlinear). */
  int32_t max_nodes;
  /* Pack the arena of the candidates (needed to bound it by max_memory):
   * alignment and packer mask as for opsched_arena_assign_with(). */
  int pack_arena;
  int64_t alignment;
  unsigned packers;
  /* Several streams, no limit, critical-path, at most 64 ops: after the
   * sweep, up to 6 probes of the exact search (opsched/exact_frontier.h)
   * of this many nodes each look for a lower peak within the tolerance
   * (0, the default: off; docs/benchmarks.md §7 measures 8192). */
  int64_t exact_nodes;
  /* Called (when set) before (begin 1) and after (begin 0) each arena the
   * search packs, so that a caller's phase timers count the packing as
   * arena work, not as scheduling (NULL, the default: not called). */
  void (*on_pack)(void *user, int begin);
  void *on_pack_user;
} opsched_frontier_options;

/* Defaults: tolerance 1%, 8 runs, 5000 ops, no arena. */
void opsched_frontier_options_init(opsched_frontier_options *options);

/* Most candidates one call schedules. */
#define OPSCHED_FRONTIER_MAX_POINTS 24

/* The default search's third try at a budget (the rank with a local search
 * of effort 1, when the options ask for no effort) also ends after this
 * many iterations without a shorter schedule (docs/streams.md, "The
 * third try's stall rule"). */
#define OPSCHED_FRONTIER_STALL 64

typedef struct opsched_frontier_result {
  opsched_schedule *schedule; /* the chosen schedule, owned by the caller */
  opsched_arena *arena;       /* its arena when packed, owned; else NULL */
  /* Status of packing the chosen schedule's arena (OPSCHED_OK when not
   * packed); the schedule is valid whatever this says. */
  opsched_status arena_status;
  /* The unconstrained schedule's figures (no memory limit, critical path);
   * -1 when not computed (one stream, no buffers, over max_nodes). */
  int64_t unconstrained_makespan, unconstrained_peak;
  /* Lowest peak of a one-stream order of the policy (min-memory's for the
   * default); -1 when not computed. */
  int64_t floor_peak;
  int32_t runs;        /* schedule runs made, the first included */
  int32_t candidates;  /* distinct budgets tried */
  /* Every candidate scheduled (the frontier points found), in run order:
   * makespan and peak; `chosen` indexes the returned one. For reports. */
  int32_t num_points, chosen;
  int64_t point_makespan[OPSCHED_FRONTIER_MAX_POINTS];
  int64_t point_peak[OPSCHED_FRONTIER_MAX_POINTS];
  /* Per point: the budget it ran under (max_memory, 0 = none), its memory
   * policy (opsched_memory_policy) and its arena size when it was packed
   * (-1: not packed, or packing failed). */
  int64_t point_budget[OPSCHED_FRONTIER_MAX_POINTS];
  int32_t point_policy[OPSCHED_FRONTIER_MAX_POINTS];
  int64_t point_arena[OPSCHED_FRONTIER_MAX_POINTS];
  /* Index of the unconstrained point (its figures above); -1 when none. */
  int32_t unconstrained;
  int arena_limit_met;  /* 0 when max_memory > 0 and the arena exceeds it */
  int memory_limit_met; /* 0 when max_memory > 0 and the peak exceeds it */
} opsched_frontier_result;

/* Schedules `graph` with `options` (as opsched_schedule_run) and the
 * choice above. On success result->schedule is set; on failure nothing is
 * allocated and the status is opsched_schedule_run's. */
opsched_status opsched_frontier_schedule(const opsched_graph *graph,
                                         const opsched_schedule_options *options,
                                         const opsched_frontier_options *frontier,
                                         opsched_frontier_result *result);

/* Number of distinct streams the schedule's ops run on (<= its stream
 * count); 0 for an empty schedule. */
int32_t opsched_schedule_streams_used(const opsched_schedule *schedule);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_FRONTIER_H */
