/* opsched/exact_frontier.h - the exact makespan / peak frontier of a small
 * block (at most 64 ops), pure C: the minimum makespan on several streams
 * subject to a peak of live bytes in time, under the same graph, costs,
 * demands, capacity and memory model the scheduler uses
 * (docs/streams.md, "Memory in time"; docs/benchmarks.md §7).
 *
 * Model. Every edge u->v (graph edges plus allocator -> user of every
 * buffer) needs end(u) <= start(v). Ops of non-zero duration: at every
 * instant at most `streams` run and their demands sum to <= the capacity.
 * A zero-duration op at t needs a stream no op of non-zero duration holds
 * across t. A buffer is live from its allocator's start to the end of its
 * last holder (results: to the end), frees before starts at one instant
 * (opsched_memory_peak_in_time); its peak must stay <= `max_memory`.
 *
 * Method: a chronological branch and bound. Decision points are 0 and the
 * ends of ops; at each, any subset of the ready ops starts (zero-duration
 * ops without buffers start as soon as they are ready). Exact because
 * (docs/benchmarks.md §7): take any valid schedule; the earliest schedule
 * that keeps its precedences and every "j ends no later than i starts"
 * relation it has is valid too (the pairs of ops, and of buffers, that
 * overlap in time can only become fewer, so capacity, streams and the peak
 * hold) and no longer; in it every op starts at 0 or at the end of some op,
 * i.e. at a decision point. This needs every buffer held by a
 * zero-duration op to have a holder of non-zero duration after it (or to
 * live to the end), so a buffer's end is never a zero-duration op's instant;
 * blocks where that fails are reported as unsupported. Pruning: deadlines
 * from the longest path to the end, a work bound, and states (started and
 * finished ops, running ops' remaining times) seen at an earlier time.
 * Deterministic; no global state. */
#ifndef OPSCHED_EXACT_FRONTIER_H
#define OPSCHED_EXACT_FRONTIER_H

#include "opsched/memory.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsched_exact_options {
  int32_t streams;        /* >= 1 */
  int32_t resource_limit; /* capacity; 0: streams */
  int64_t max_memory;     /* peak of live bytes in time; 0: no limit */
  int64_t makespan_limit; /* only schedules with makespan <= this; 0: none */
  int64_t node_limit;     /* search nodes before stopping; 0: 20,000,000 */
  int first_found;        /* stop at the first schedule within both limits
                             (status OPTIMAL then means "found", not minimal) */
} opsched_exact_options;

typedef enum opsched_exact_status {
  OPSCHED_EXACT_OPTIMAL,     /* `makespan` is the minimum (a schedule in `start`) */
  OPSCHED_EXACT_INFEASIBLE,  /* proven: no schedule within both limits */
  OPSCHED_EXACT_STOPPED,     /* node limit: `makespan` the best found (-1 none),
                                `lower_bound` proven */
  OPSCHED_EXACT_UNSUPPORTED  /* more than 64 ops, or a buffer whose end may be
                                a zero-duration op's instant */
} opsched_exact_status;

typedef struct opsched_exact_result {
  opsched_exact_status status;
  int64_t makespan;    /* -1 when no schedule was found */
  int64_t peak;        /* the schedule's peak in time (-1 none) */
  int64_t lower_bound; /* proven lower bound on the makespan within max_memory
                          (for STOPPED and first_found: the root bound) */
  int64_t nodes;       /* search nodes expanded */
  int64_t *start;      /* per node, NULL when none; opsched_exact_result_release */
} opsched_exact_result;

void opsched_exact_options_init(opsched_exact_options *options);

/* OPSCHED_ERR_INVALID on bad arguments; the search's outcome is in
 * result->status. */
opsched_status opsched_exact_min_makespan(const opsched_graph *graph,
                                          const opsched_buffers *buffers,
                                          const opsched_exact_options *options,
                                          opsched_exact_result *result);

/* Frees result->start (NULL is allowed). */
void opsched_exact_result_release(opsched_exact_result *result);

#ifdef __cplusplus
}
#endif

#endif /* OPSCHED_EXACT_FRONTIER_H */
